"""A session: an append-only tree of entries in one pi-format JSONL file, and the current position in it.

Entries are linked by ``id``/``parentId``; the *leaf* is where the next entry hangs. Opening never writes;
appending adds exactly one line at the end of the file, under a lock, fsynced. Nothing is ever rewritten in
place, except that a v1/v2 file is written once in the current format (atomically, with a backup) the first
time it is appended to.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .errors import AmbiguousEntryError, EntryNotFoundError, UsageError
from .store.index import DigestNode, SessionIndex, TreeNode
from .store.jsonl import js_trim, new_entry_id, new_session_id, now_iso
from .store.paths import default_session_dir, session_file_name
from .store.scan import Problem
from .store.session_file import SessionFile, absolute_path
from .types import CURRENT_SESSION_VERSION

ROOT = "root"
"""How a user names the position before the first entry (pi's ``fromId`` for a branch summary at the root)."""

class _Leaf(enum.Enum):
    LEAF = "leaf"


LEAF = _Leaf.LEAF
"""The default of ``from_id``/``leaf_id``/``parent_id``: the session's current leaf (not a string, since an id
can be any string, and not ``None``, which names the position before the first entry)."""

_LATE_FIELD_TYPES = ("custom", "custom_message")
"""pi writes these entries' own fields before the id, parentId and timestamp."""


class Session:
    """A session tree, backed by a file (``path``) or held in memory (``path is None``)."""

    def __init__(self, header: dict, *, path: Path | None = None, durable: bool = True) -> None:
        self._file = SessionFile(header, path, durable=durable)
        self._leaf_id: str | None = None

    @classmethod
    def _on(cls, file: SessionFile) -> "Session":
        session = cls.__new__(cls)
        session._file = file
        session._leaf_id = file.index.last_id()
        return session

    @property
    def _index(self) -> SessionIndex:
        # Looked up each time: the file replaces its index when it reads a v1/v2 file again under the lock.
        return self._file.index

    # -- factories -----------------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike, *, durable: bool = True) -> "Session":
        """Open an existing file; it is only read. Problems found on the way are in :attr:`problems`."""
        return cls._on(SessionFile.open(absolute_path(path), durable=durable))

    @classmethod
    def create(
        cls,
        cwd: str | os.PathLike | None = None,
        *,
        session_dir: str | os.PathLike | None = None,
        session_id: str | None = None,
        parent_session: str | None = None,
        durable: bool = True,
    ) -> "Session":
        """A new session in pi's layout; the file appears with the first append."""
        header = new_header(cwd, session_id=session_id, parent_session=parent_session)
        directory = Path(session_dir) if session_dir is not None else default_session_dir(header["cwd"])
        path = absolute_path(directory) / session_file_name(header["timestamp"], header["id"])
        return cls(header, path=path, durable=durable)

    @classmethod
    def create_at(cls, path: str | os.PathLike, cwd: str | None = None, **header_fields: Any) -> "Session":
        """A new session written to an explicit path (which must not exist yet)."""
        path = absolute_path(path)
        if path.exists():
            raise UsageError(f"{path} already exists")
        durable = header_fields.pop("durable", True)
        return cls(new_header(cwd, **header_fields), path=path, durable=durable)

    @classmethod
    def in_memory(cls, cwd: str | os.PathLike | None = None) -> "Session":
        return cls(new_header(cwd))

    @classmethod
    def continue_recent(cls, cwd: str | os.PathLike, *, session_dir: str | os.PathLike | None = None) -> "Session":
        """The most recently modified session of a project, or a new one."""
        from .store.listing import find_most_recent

        directory = Path(session_dir) if session_dir is not None else default_session_dir(str(cwd))
        recent = find_most_recent(directory)
        return cls.open(recent) if recent is not None else cls.create(cwd, session_dir=directory)

    # -- properties ----------------------------------------------------------------------------------------

    @property
    def header(self) -> dict:
        return self._file.header

    @property
    def path(self) -> Path | None:
        return self._file.path

    @property
    def id(self) -> str:
        return self.header["id"]

    @property
    def cwd(self) -> str:
        cwd = self.header.get("cwd")
        return cwd if isinstance(cwd, str) else ""

    @property
    def version(self) -> int:
        """The version the file had when opened (1, 2 or 3); entries in memory are always current."""
        return self._file.original_version

    @property
    def problems(self) -> list[Problem]:
        return self._index.problems

    @property
    def leaf_id(self) -> str | None:
        """The entry the next append hangs from; ``None`` means before the first entry (a new root)."""
        return self._leaf_id

    @property
    def name(self) -> str | None:
        return self._index.name()

    @property
    def labels(self) -> dict[str, str]:
        return {target: label for target, (label, _) in self._index.labels.items()}

    def move_leaf(self, entry_id: str | None) -> None:
        """Move the current position (in memory only: pi takes the file's last line as the leaf on open)."""
        if entry_id is not None and entry_id not in self._index:
            raise EntryNotFoundError(f"Entry {entry_id} not found")
        self._leaf_id = entry_id

    # -- queries -------------------------------------------------------------------------------------------

    def entry(self, entry_id: str) -> dict:
        return self._index.entry(entry_id)

    def get(self, entry_id: str | None) -> dict | None:
        return self._index.get(entry_id)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._index

    def __len__(self) -> int:
        return len(self._index)

    def entries(self) -> list[dict]:
        """Every entry in file order (all parsed)."""
        return list(self._index.iter_entries())

    def iter_entries(self, entry_type: str | None = None) -> Iterator[dict]:
        """Every line's entry (of ``entry_type``, if given) in file order, shadowed duplicates included, parsed
        one at a time; lines of other types are not parsed."""
        for slot in self._index.slots:
            if entry_type is None or slot.type == entry_type:
                yield self._index.entry_of(slot)

    def count_type(self, entry_type: str) -> int:
        """How many lines hold an entry of ``entry_type`` (counted without parsing them)."""
        return sum(1 for slot in self._index.slots if slot.type == entry_type)

    def children(self, entry_id: str | None) -> list[dict]:
        return self._index.children(entry_id)

    def branch(self, from_id: str | None | _Leaf = LEAF) -> list[dict]:
        """Entries from the root to ``from_id`` (default: the leaf), root first."""
        return self._index.path(self._leaf_id if from_id is LEAF else from_id)

    def path_ids(self, from_id: str | None | _Leaf = LEAF) -> list[str]:
        """The ids of :meth:`branch`, root first, without parsing any entry."""
        return self._index.path_ids(self._leaf_id if from_id is LEAF else from_id)

    def ancestors(self, from_id: str | None | _Leaf = LEAF) -> Iterator[dict]:
        """The entries of :meth:`branch`, leaf first, parsed one at a time: a caller that needs only the recent
        part of a long path stops early (a compaction reads its region, not the whole history)."""
        index = self._index
        return (index.entry_of(slot) for slot in index.walk(self._leaf_id if from_id is LEAF else from_id))

    def ancestor_ids(self, entry_id: str | None) -> list[str]:
        """``entry_id`` and the ids above it, leaf first, without parsing any entry; ``[]`` for ``None``."""
        return [slot.id for slot in self._index.walk(entry_id)]

    def tree(self) -> list[TreeNode]:
        return self._index.tree()

    def digest_tree(self, digest: Callable[[dict], Any], *, every_line: bool = False) -> list[DigestNode]:
        """:meth:`tree` with ``digest(entry)`` in place of each entry, for reading a big file in one pass."""
        return self._index.digest_tree(digest, every_line=every_line)

    def label(self, entry_id: str) -> str | None:
        return self._index.label(entry_id)

    def resolve(self, ref: str) -> str | None:
        """An entry named by id, unique id prefix or label; ``root`` names the position before the first.

        A reference that could name two different things (a label that is also another entry's id or id
        prefix, an entry whose id is ``root``) raises :class:`AmbiguousEntryError` rather than picking one.
        An exact id is never read as a prefix of a longer id.
        """
        readings: dict[str, str | None] = {}
        if ref in self._index:
            readings[f"the entry {ref}"] = ref
        if ref == ROOT:
            readings["the position before the first entry"] = None
        labelled = [target for target, (label, _) in self._index.labels.items() if label == ref]
        if len(labelled) > 1:
            raise AmbiguousEntryError(f"{ref!r} is the label of several entries ({', '.join(labelled[:5])})")
        if labelled:
            readings[f"the label of {labelled[0]}"] = labelled[0]
        if ref and ref not in self._index:
            prefixed = list(dict.fromkeys(slot.id for slot in self._index.slots if slot.id.startswith(ref)))
            if len(prefixed) > 1 and not readings:
                raise AmbiguousEntryError(f"{ref!r} matches several entries ({', '.join(prefixed[:5])}); give more characters")
            if prefixed:
                readings[f"a prefix of {', '.join(prefixed[:5])}"] = prefixed[0] if len(prefixed) == 1 else ""
        if len(set(readings.values())) > 1:
            raise AmbiguousEntryError(f"{ref!r} is ambiguous: {' or '.join(readings)}; name the entry by its full id")
        if readings:
            return next(iter(readings.values()))
        raise EntryNotFoundError(f"no entry {ref!r} (not an id, an id prefix or a label)")

    def build_context(self, leaf_id: str | None | _Leaf = LEAF):
        """pi's ``buildSessionContext`` for the leaf (or another entry): messages, thinking level, model."""
        from .context import context_from_index

        leaf = self._leaf_id if leaf_id is LEAF else leaf_id
        return context_from_index(self._index, leaf)

    # -- appending -----------------------------------------------------------------------------------------

    def append(
        self,
        entry_type: str,
        fields: dict[str, Any] | None = None,
        *,
        parent_id: str | None | _Leaf = LEAF,
        entry_id: str | None = None,
        on_locked: Callable[[dict, list[dict]], None] | None = None,
    ) -> dict:
        """Append one entry of any type as a child of the leaf (or ``parent_id``); it becomes the leaf.

        ``entry_id`` presets the new id (it must be unused), for entries that refer to themselves.
        ``on_locked(entry, appended)`` runs once the file's lock is held, with what other processes appended
        meanwhile, and may still change the entry (a compaction following messages appended while it ran).
        """
        parent = self._leaf_id if parent_id is LEAF else parent_id
        if parent is not None and parent not in self._index:
            raise EntryNotFoundError(f"Entry {parent} not found")
        if entry_id is not None and entry_id in self._index:
            raise UsageError(f"entry id {entry_id} is already used")
        new_id = entry_id or new_entry_id(self._index.by_id)
        entry = _make_entry(entry_type, fields or {}, new_id, parent, now_iso())
        self._file.append_entry(entry, on_locked)
        self._leaf_id = entry["id"]
        return entry

    def append_message(self, message: dict) -> dict:
        return self.append("message", {"message": message})

    def append_thinking_level_change(self, level: str) -> dict:
        return self.append("thinking_level_change", {"thinkingLevel": level})

    def append_model_change(self, provider: str, model_id: str) -> dict:
        return self.append("model_change", {"provider": provider, "modelId": model_id})

    def append_compaction(
        self,
        summary: str,
        first_kept_entry_id: str,
        tokens_before: int,
        details: dict | None = None,
        from_hook: bool | None = None,
        *,
        entry_id: str | None = None,
    ) -> dict:
        fields = {"summary": summary, "firstKeptEntryId": first_kept_entry_id, "tokensBefore": tokens_before}
        return self.append("compaction", _with_optional(fields, details=details, fromHook=from_hook), entry_id=entry_id)

    def new_id(self) -> str:
        """An id not used in this session (for :meth:`append`'s ``entry_id``)."""
        return new_entry_id(self._index.by_id)

    def append_branch_summary(
        self, at_id: str | None, summary: str, details: dict | None = None, from_hook: bool | None = None
    ) -> dict:
        """pi's ``branchWithSummary``: the summary hangs at ``at_id`` (a new root for ``None``) and is the leaf.

        ``fromId`` is the attachment point, as pi 0.73 writes it; pass ``from_id`` in ``details`` if you
        want to remember the abandoned leaf.
        """
        fields = {"fromId": at_id if at_id is not None else ROOT, "summary": summary}
        return self.append("branch_summary", _with_optional(fields, details=details, fromHook=from_hook), parent_id=at_id)

    def append_custom(
        self, custom_type: str, data: Any = None, *, parent_id: str | None | _Leaf = LEAF
    ) -> dict:
        return self.append("custom", _with_optional({"customType": custom_type}, data=data), parent_id=parent_id)

    def append_custom_message(self, custom_type: str, content: Any, display: bool, details: Any = None) -> dict:
        fields = {"customType": custom_type, "content": content, "display": display}
        return self.append("custom_message", _with_optional(fields, details=details))

    def append_label(self, target_id: str, label: str | None) -> dict:
        """Set (or, with ``None``/``""``, clear) a label; like pi, the label entry becomes the leaf."""
        if target_id not in self._index:
            raise EntryNotFoundError(f"Entry {target_id} not found")
        return self.append("label", _with_optional({"targetId": target_id}, label=label or None))

    def append_session_info(self, name: str) -> dict:
        return self.append("session_info", {"name": js_trim(name)})

    def refresh(self) -> list[dict]:
        """Read what other processes appended since we last looked; return those entries (leaf unchanged)."""
        return self._file.refresh()

    # -- forking -------------------------------------------------------------------------------------------

    def fork(self, entry_id: str, path: str | os.PathLike | None = None) -> "Session":
        """Copy the path from the root to ``entry_id`` into a new session naming this one as its parent.

        As pi's ``createBranchedSession``: label entries on the path are dropped and the labels that point at
        path entries are re-created after it, with their original timestamps. Entries are copied migrated,
        whatever the source's version (pi copies v1/v2 entries raw). Without ``path`` the new file goes next
        to this one (a new in-memory session for an in-memory source).
        """
        branch = self.branch(entry_id)
        if not branch:
            raise EntryNotFoundError(f"Entry {entry_id} not found")
        kept = [entry for entry in branch if entry.get("type") != "label"]
        parent = str(self.path) if self.path is not None else None
        if path is not None:
            forked = Session.create_at(path, self.cwd, parent_session=parent)
        elif self.path is not None:
            forked = Session.create(self.cwd, session_dir=self.path.parent, parent_session=parent)
        else:
            forked = Session.in_memory(self.cwd)
        forked._file.adopt(kept + self._labels_for(kept))
        forked._leaf_id = forked._index.last_id()
        return forked

    def _labels_for(self, kept: list[dict]) -> list[dict]:
        on_path = {entry["id"] for entry in kept}
        taken = set(on_path)
        labels: list[dict] = []
        previous = kept[-1]["id"] if kept else None
        for target, (label, stamp) in self._index.labels.items():
            if target not in on_path:
                continue
            entry_id = new_entry_id(taken)
            taken.add(entry_id)
            labels.append(_make_entry("label", {"targetId": target, "label": label}, entry_id, previous, stamp or now_iso()))
            previous = entry_id
        return labels

    # -- lifecycle -----------------------------------------------------------------------------------------

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        file = getattr(self, "_file", None)
        if file is not None:
            file.close()

    def __repr__(self) -> str:
        where = str(self.path) if self.path else "in memory"
        return f"<Session {self.id} ({where}), {len(self)} entries, leaf {self._leaf_id}>"


def new_header(cwd: str | os.PathLike | None = None, *, session_id: str | None = None, parent_session: str | None = None) -> dict:
    """A version-3 header, keys in pi's order; ``parentSession`` omitted when there is none."""
    header = {
        "type": "session",
        "version": CURRENT_SESSION_VERSION,
        "id": session_id or new_session_id(),
        "timestamp": now_iso(),
        "cwd": str(cwd) if cwd is not None else os.getcwd(),
    }
    if parent_session is not None:
        header["parentSession"] = parent_session
    return header


def _make_entry(entry_type: str, fields: dict, entry_id: str, parent_id: str | None, timestamp: str) -> dict:
    reserved = [key for key in ("type", "id", "parentId", "timestamp") if key in fields]
    if reserved:
        # They used to override the session's own values silently: duplicate ids, a broken tree.
        raise UsageError(f"{', '.join(reserved)}: set by the session, not by the caller's fields")
    base = {"id": entry_id, "parentId": parent_id, "timestamp": timestamp}
    if entry_type in _LATE_FIELD_TYPES:
        return {"type": entry_type, **fields, **base}
    return {"type": entry_type, **base, **fields}


def _with_optional(fields: dict, **optional: Any) -> dict:
    """pi drops keys whose value is ``undefined``; ``None`` plays that part here."""
    return {**fields, **{k: v for k, v in optional.items() if v is not None}}
