"""What the model sees: pi's ``buildSessionContext`` over the path from the root to a leaf.

The latest compaction on the path puts its summary first, then the entries from its ``firstKeptEntryId``
up to the compaction, then everything after it. Branch summaries and custom-message entries become
messages; the model and thinking level are the last ones set anywhere on the path. The result is exactly
pi's, quirks included, so a session reads the same in pi and here.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .accessors import entry_role
from .store.jsonl import iso_to_ms, js_truthy

if TYPE_CHECKING:
    from .store.index import SessionIndex
    from .store.scan import Slot

_MISSING: Any = object()
"""A key pi would leave ``undefined`` (and so out of the JSON)."""

NOTHING: Any = object()
"""What an entry that adds no message to the context contributes."""


@dataclass(frozen=True)
class SessionContext:
    """The messages an agent sends, plus the current thinking level and model."""

    messages: list[dict] = field(default_factory=list)
    thinking_level: Any = "off"
    """Usually one of ``off``…``xhigh``; whatever the last ``thinking_level_change`` held."""
    model: dict | None = None
    """``{"provider", "modelId"}`` of the last ``model_change`` or assistant message, or ``None``."""

    def to_json(self) -> dict:
        """The object pi's ``buildSessionContext`` returns, key for key."""
        return _drop_missing({"messages": self.messages, "thinkingLevel": self.thinking_level, "model": self.model})


def build_session_context(entries: list[dict], leaf_id: Any = _MISSING, by_id: dict | None = None) -> SessionContext:
    """pi's function over a plain list of entries (file order); ``leaf_id=None`` means an explicit null leaf."""
    if leaf_id is None:
        return SessionContext()
    by_id = by_id if by_id is not None else {e.get("id"): e for e in entries if isinstance(e.get("id"), Hashable)}
    leaf = _get(by_id, leaf_id) if leaf_id is not _MISSING and js_truthy(leaf_id) else None  # pi: `if (leafId)`
    if leaf is None:
        leaf = entries[-1] if entries else None
    if leaf is None:
        return SessionContext()
    return context_from_path(_walk(leaf, by_id))


def _walk(leaf: dict, by_id: dict) -> list[dict]:
    path, seen, current = [], set(), leaf
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        path.append(current)
        parent = current.get("parentId")
        current = _get(by_id, parent) if js_truthy(parent) else None  # pi: `current.parentId ? ... : undefined`
    path.reverse()
    return path


def _get(by_id: dict, key: Any) -> dict | None:
    """``byId.get(key)``: a JavaScript Map keys an object or array by identity, so one read from JSON finds
    nothing (and such ids are left out of ``by_id``, as Python cannot hash them)."""
    return by_id.get(key) if isinstance(key, Hashable) else None


def context_from_index(index: SessionIndex, leaf_id: str | None) -> SessionContext:
    """The context for ``leaf_id`` in an indexed file; an unknown (or empty) id falls back to the last entry,
    as in pi, and ``None`` is the empty context."""
    if leaf_id is None:
        return SessionContext()
    if not leaf_id or leaf_id not in index:
        leaf_id = index.last_id()
    return context_from_path(_context_path(index, leaf_id))


def _context_path(index: SessionIndex, leaf_id: str | None) -> list[dict]:
    """The entries of the path to ``leaf_id`` that building its context reads, parsed; in path order.

    After a compaction only its kept region and what follows are emitted, and earlier entries matter only
    for the last thinking level and model they set. So the walk from the leaf stops at the kept region's
    start; the thinking level comes from an index kept while appending, and the model from the nearest
    setter above: a long session's context never walks or parses its whole history.
    """
    if not index.chains_trusted:
        return index.path(leaf_id)
    region, kept_from = _walk_to_kept_region(index, leaf_id)
    # Only entries that add a message or set the model or thinking level are read, plus the kept region's
    # first entry whatever its type (it marks where emitting starts); labels, custom entries, names stay unparsed.
    first = region[-1] if region else None
    tail = index.parse_batch([slot for slot in reversed(region) if slot.type in _CONTEXT_TYPES or slot is first])
    if kept_from is None:
        return tail
    return _last_setters(index, kept_from, tail) + tail


def _walk_to_kept_region(index: SessionIndex, leaf_id: str | None) -> tuple[list[Slot], Slot | None]:
    """Slots from the leaf up to the latest compaction's kept region (leaf first), and the slot above it.

    Without a compaction on the path the whole path is returned and the slot above is ``None``. A kept
    id that is not above the compaction keeps nothing (pi emits only the summary and what follows), so
    the region then ends at the compaction, however far up the walk had to go to find that out.
    """
    region: list[Slot] = []
    kept_id: object = None
    compaction: Slot | None = None
    after_compaction = 0
    for slot in index.walk(leaf_id):
        region.append(slot)
        if compaction is not None and slot.id == kept_id:
            return region, index.parent_slot(slot)
        if compaction is None and slot.type == "compaction":
            compaction, kept_id = slot, index.entry_of(slot).get("firstKeptEntryId")
            if kept_id is None or kept_id == slot.id:
                return region, index.parent_slot(slot)
            after_compaction = len(region)
    if compaction is None:
        return region, None
    return region[:after_compaction], index.parent_slot(compaction)


def _last_setters(index: SessionIndex, above: Slot, tail: list[dict]) -> list[dict]:
    """The last thinking-level change and model setter at or above ``above``, unless ``tail`` overrides them."""
    found: list[dict] = []
    if not any(e.get("type") == "thinking_level_change" for e in tail):
        thinking = index.nearest_thinking_change(above)
        if thinking is not None:
            found.append(index.entry_of(thinking))
    if not any(_sets_model(e) for e in tail):
        model = _nearest_model_setter(index, above)
        if model is not None:
            found.append(model)
    return found


def _nearest_model_setter(index: SessionIndex, slot: Slot) -> dict | None:
    for above in index.walk(slot.id):
        if above.type in ("model_change", "message") and _sets_model(entry := index.entry_of(above)):
            return entry
    return None


_CONTEXT_TYPES = ("message", "custom_message", "branch_summary", "compaction", "model_change", "thinking_level_change")
"""The entry types context building reads (a tuple, not a frozenset: a hand-written ``type`` can be a list)."""


def _sets_model(entry: dict) -> bool:
    kind = entry.get("type")
    return kind == "model_change" or (kind == "message" and entry_role(entry) == "assistant")


def context_from_path(path: list[dict]) -> SessionContext:
    """The context for a root-first path of entries."""
    thinking: Any = "off"
    model: dict | None = None
    compaction_at = -1
    for index, entry in enumerate(path):
        kind = entry.get("type")
        if kind == "thinking_level_change":
            thinking = entry.get("thinkingLevel", _MISSING)
        elif kind == "model_change":
            model = _drop_missing({"provider": entry.get("provider", _MISSING), "modelId": entry.get("modelId", _MISSING)})
        elif kind == "message" and entry_role(entry) == "assistant":
            message = entry["message"]
            model = _drop_missing({"provider": message.get("provider", _MISSING), "modelId": message.get("model", _MISSING)})
        elif kind == "compaction":
            compaction_at = index
    return SessionContext(_messages(path, compaction_at), thinking, model)


def _messages(path: list[dict], compaction_at: int) -> list[dict]:
    if compaction_at < 0:
        return [m for m in map(entry_to_message, path) if m is not NOTHING]
    compaction = path[compaction_at]
    messages = [compaction_summary_message(compaction)]
    kept_id = compaction.get("firstKeptEntryId")
    found = False
    for entry in path[:compaction_at]:
        found = found or (kept_id is not None and entry.get("id") == kept_id)
        if found:
            _push(messages, entry)
    for entry in path[compaction_at + 1 :]:
        _push(messages, entry)
    return messages


def _push(messages: list[dict], entry: dict) -> None:
    message = entry_to_message(entry)
    if message is not NOTHING:
        messages.append(message)


def entry_to_message(entry: dict) -> Any:
    """The message an entry contributes to the context, or :data:`NOTHING`.

    A ``message`` entry contributes its message as stored, even a missing one (``None``: pi emits ``null``).
    """
    kind = entry.get("type")
    if kind == "message":
        return entry.get("message")
    if kind == "custom_message":
        return custom_message(entry)
    if kind == "branch_summary" and js_truthy(entry.get("summary")):
        return branch_summary_message(entry)
    return NOTHING


def custom_message(entry: dict) -> dict:
    return _drop_missing(
        {
            "role": "custom",
            "customType": entry.get("customType", _MISSING),
            "content": entry.get("content", _MISSING),
            "display": entry.get("display", _MISSING),
            "details": entry.get("details", _MISSING),
            "timestamp": _entry_ms(entry),
        }
    )


def branch_summary_message(entry: dict) -> dict:
    return _drop_missing(
        {
            "role": "branchSummary",
            "summary": entry.get("summary", _MISSING),
            "fromId": entry.get("fromId", _MISSING),
            "timestamp": _entry_ms(entry),
        }
    )


def compaction_summary_message(entry: dict) -> dict:
    return _drop_missing(
        {
            "role": "compactionSummary",
            "summary": entry.get("summary", _MISSING),
            "tokensBefore": entry.get("tokensBefore", _MISSING),
            "timestamp": _entry_ms(entry),
        }
    )


def _entry_ms(entry: dict) -> int | None:
    """``new Date(entry.timestamp).getTime()``: an explicit ``null`` is 0 there, a missing key ``NaN``."""
    value = entry.get("timestamp", _MISSING)
    return 0 if value is None else iso_to_ms(None if value is _MISSING else value)


def _drop_missing(obj: dict) -> dict:
    return {k: v for k, v in obj.items() if v is not _MISSING}
