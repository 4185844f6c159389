"""openai-agents: a pi session file as a runner's conversation memory, compacted after each turn.

:class:`PiSession` implements the SDK's ``Session`` protocol (and ``run_compaction``, which the runner calls
after a turn that needs no more tool outputs). Items are Responses input items: those pi has a message for
(user and assistant messages, reasoning, function calls and their outputs) are stored as pi messages through
:mod:`pi_compact.convert`, so the file opens in pi with the same conversation; any other item (system and
developer messages, hosted-tool calls) is kept whole in a ``custom_message`` entry (:data:`ITEM_TYPE`) that
pi shows the model as text. ``pop_item`` and ``clear_session`` delete nothing: the leaf moves back, or to a
new branch, and the position is persisted as one line.

    >>> from agents import Agent, Runner                        # doctest: +SKIP
    >>> session = PiSession("chat.jsonl", window=128_000)       # doctest: +SKIP
    >>> await Runner.run(Agent(name="a"), "hi", session=session)  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any, TypeVar

try:
    from agents.memory import SessionSettings
    from agents.memory.session_settings import resolve_session_limit
except ImportError as exc:  # pragma: no cover - exercised without the extra installed
    raise ImportError(
        "pi_compact.adapters.openai_agents needs the openai-agents package: pip install 'pi-compact[openai-agents]'"
    ) from exc

from ..compaction import AutoCompactor, CompactionResult, CompactionSettings, Summarizer, compact
from ..compaction.serialize import convert_message
from ..convert import from_openai_responses_items, to_openai_responses_items
from ..errors import CompactionError
from ..session import Session
from ._common import context_sources, model_view, move_to, open_session

ITEM_TYPE = "openai-agents/item"
"""``customType`` of the ``custom_message`` entry that keeps an item pi has no message for (in ``details.item``)."""

_T = TypeVar("_T")


class PiSession:
    """An openai-agents ``Session`` over a pi session file (or any :class:`~pi_compact.Session`).

    With a ``window`` (the model's context size in tokens), ``run_compaction`` compacts the session when its
    context passes ``window - reserveTokens``, as pi does; ``force`` compacts regardless. Without one, only a
    forced compaction runs.
    """

    def __init__(
        self,
        session: Session | str | os.PathLike,
        *,
        session_id: str | None = None,
        window: int | None = None,
        settings: CompactionSettings | None = None,
        summarizer: Summarizer | None = None,
        model: str = "",
        provider: str = "openai",
        session_settings: SessionSettings | None = None,
    ) -> None:
        self.session = open_session(session)
        """The pi session the items live in."""
        self.session_id = session_id or self.session.id
        self.session_settings = session_settings
        self.window = window
        self.settings = settings or CompactionSettings()
        self.summarizer = summarizer
        self.model = model
        """Recorded as the ``model`` of assistant messages (items do not say which model wrote them)."""
        self.provider = provider
        self.last_compaction: CompactionResult | None = None
        """What the latest ``run_compaction`` did, ``None`` when it compacted nothing."""
        self._compactor = AutoCompactor(window=window or 0, settings=self.settings, summarizer=summarizer)
        self._lock = asyncio.Lock()

    # -- the Session protocol ----------------------------------------------------------------------------------

    async def get_items(self, limit: int | None = None) -> list[dict]:
        """The active branch's context as Responses input items, tool calls always answered.

        ``limit`` (or ``session_settings.limit``) keeps the latest N items.
        """
        items = await self._run(self._items)
        wanted = resolve_session_limit(limit, self.session_settings)
        if wanted is None:
            return items
        return items[-wanted:] if wanted > 0 else []

    async def add_items(self, items: list[Any]) -> None:
        """Append the items at the leaf: consecutive items of one model answer become one assistant message."""
        await self._run(lambda: self._add([_plain(item) for item in items]))

    async def pop_item(self) -> dict | None:
        """Step back over the latest item and return it; the file keeps every line (see the module docstring)."""
        return await self._run(self._pop)

    async def clear_session(self) -> None:
        """Start a new, empty branch; the old one stays in the file."""
        await self._run(self._clear)

    async def run_compaction(self, args: dict | None = None) -> None:
        """Compact when the context passes the threshold (or always, with ``{"force": True}``)."""
        force = bool(args and args.get("force"))
        self.last_compaction = await self._run(lambda: self._compact(force))

    def close(self) -> None:
        self.session.close()

    # -- the work, run one at a time off the event loop ----------------------------------------------------------

    async def _run(self, work: Callable[[], _T]) -> _T:
        async with self._lock:
            return await asyncio.to_thread(work)

    def _items(self) -> list[dict]:
        return [item for original, sent in model_view(self._context()) for item in _items_of(original, sent)]

    def _context(self) -> list[dict]:
        return self.session.build_context().messages

    def _add(self, items: list[dict]) -> None:
        run: list[dict] = []
        for item in items:
            if _has_pi_message(item):
                run.append(item)
                continue
            self._append_messages(run)
            run = []
            self.session.append_custom_message(ITEM_TYPE, _item_text(item), False, {"item": item})
        self._append_messages(run)

    def _append_messages(self, items: list[dict]) -> None:
        messages = from_openai_responses_items(items, known_calls=self._known_calls(), provider=self.provider,
                                               model=self.model) if items else []
        for message in messages:
            self.session.append_message(message)

    def _clear(self) -> None:
        if self.session.leaf_id is not None:
            move_to(self.session, None)

    def _known_calls(self) -> dict[str, str]:
        """Call id → pi tool-call id for the calls in the context (pi keeps Responses calls as ``call|item``)."""
        calls = {}
        for message in self._context():
            if message.get("role") == "assistant":
                for block in message.get("content") or []:
                    if isinstance(block, dict) and block.get("type") == "toolCall" and isinstance(block.get("id"), str):
                        calls[block["id"].partition("|")[0]] = block["id"]
        return calls

    def _pop(self) -> dict | None:
        path = self.session.branch()
        sources = [(entry, message, _raw_items(message)) for entry, message in context_sources(path)]
        while sources and not sources[-1][2]:
            sources.pop()
        if not sources:
            return None
        entry, message, items = sources[-1]
        rest = _without_last_item(message, len(items)) if len(items) > 1 else None
        compaction = next((e for e in reversed(path) if e.get("type") == "compaction"), None)
        if entry is compaction:
            move_to(self.session, None)
        elif compaction is not None and path.index(entry) < path.index(compaction):
            self._rehang(compaction, entry, rest)
        elif rest is not None:
            self.session.append("message", {"message": rest}, parent_id=entry.get("parentId"))
        else:
            move_to(self.session, entry.get("parentId"))
        return items[-1]

    def _rehang(self, compaction: dict, entry: dict, rest: dict | None) -> None:
        """Step back over a message the compaction kept: the same compaction, hung one message earlier."""
        fields = {k: v for k, v in compaction.items() if k not in ("type", "id", "parentId", "timestamp")}
        parent = entry.get("parentId")
        if rest is not None:
            parent = self.session.append("message", {"message": rest}, parent_id=parent)["id"]
            if fields.get("firstKeptEntryId") == entry["id"]:
                fields["firstKeptEntryId"] = parent
        self.session.append("compaction", fields, parent_id=parent)

    def _compact(self, force: bool) -> CompactionResult | None:
        if not force:
            return self._compactor.ensure_fits(self.session, reason="openai-agents") if self.window else None
        try:
            return compact(self.session, window=self.window, settings=self.settings, summarizer=self.summarizer,
                           reason="openai-agents")
        except CompactionError:
            return None  # nothing to compact yet, or already compacted


def _plain(item: Any) -> dict:
    """Items may arrive as pydantic models; the file stores plain JSON."""
    return item.model_dump(mode="json", exclude_none=True) if hasattr(item, "model_dump") else dict(item)


def _has_pi_message(item: dict) -> bool:
    try:
        from_openai_responses_items([item])
    except ValueError:
        return False
    return True


def _item_text(item: dict) -> str:
    """What pi (and any other model) is shown for an item it has no message for."""
    content = item.get("content")
    if item.get("role") in ("system", "developer") and isinstance(content, str):
        return content
    return f"[openai-agents item: {item.get('type') or item.get('role')}]"


def _items_of(original: dict | None, sent: dict) -> list[dict]:
    if original is not None and original.get("role") == "custom" and original.get("customType") == ITEM_TYPE:
        return [original["details"]["item"]]
    return to_openai_responses_items(sent)


def _raw_items(message: dict) -> list[dict]:
    """The items one context message stands for, before any repair (none for a failed answer: never sent)."""
    if message.get("role") == "assistant" and message.get("stopReason") in ("error", "aborted"):
        return []
    sent = convert_message(message)
    return _items_of(message, sent) if sent is not None else []


def _without_last_item(message: dict, count: int) -> dict:
    """The assistant message with the blocks behind its last item removed (one answer spans several items)."""
    blocks = list(message.get("content") or [])
    while blocks:
        blocks.pop()
        shorter = {**message, "content": blocks}
        if len(_raw_items(shorter)) < count:
            calls = any(isinstance(b, dict) and b.get("type") == "toolCall" for b in blocks)
            return {**shorter, "stopReason": "toolUse" if calls else "stop"}
    return {**message, "content": []}


__all__ = ["ITEM_TYPE", "PiSession"]
