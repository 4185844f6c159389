"""A session: an append-only tree of entries in one pi-format JSONL file, and the current position in it.

Entries are linked by ``id``/``parentId``; the *leaf* is where the next entry hangs. Opening never writes;
appending adds exactly one line at the end of the file, under a lock, fsynced. Nothing is ever rewritten in
place, except that a v1/v2 file is written once in the current format (atomically, with a backup) the first
time it is appended to.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import AmbiguousEntryError, ConcurrentModificationError, EntryNotFoundError, SessionFileError, UsageError
from .store.index import SessionIndex, TreeNode
from .store.jsonl import dumps_line, js_trim, new_entry_id, new_session_id, now_iso
from .store.migrate import header_version, migrate
from .store.paths import default_session_dir, session_file_name
from .store.scan import Problem, ScanResult, Slot, scan, scan_entries
from .store.writer import FileWriter
from .types import CURRENT_SESSION_VERSION

ROOT = "root"
"""How a user names the position before the first entry (pi's ``fromId`` for a branch summary at the root)."""

_LATE_FIELD_TYPES = ("custom", "custom_message")
"""pi writes these entries' own fields before the id, parentId and timestamp."""


class Session:
    """A session tree, backed by a file (``path``) or held in memory (``path is None``)."""

    def __init__(self, header: dict, *, path: Path | None = None, durable: bool = True) -> None:
        self.header = header
        self.path = path
        self.index = SessionIndex()
        self._leaf_id: str | None = None
        self._writer = FileWriter(path, durable=durable) if path is not None else None
        self._on_disk = False
        self._pending_rewrite = False
        self._original_version = header_version(header)
        self._scanned_to = 0
        self._size_seen = 0
        self._torn_from: int | None = None
        self._needs_newline = False
        self._next_line = 2

    # -- factories -----------------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike, *, durable: bool = True) -> "Session":
        """Open an existing file; it is only read. Problems found on the way are in :attr:`problems`."""
        path = _absolute(path)
        data = _read_file(path)
        result = scan(data)
        session = cls(result.header, path=path, durable=durable)
        session._load(data, result)
        return session

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
        path = _absolute(directory) / session_file_name(header["timestamp"], header["id"])
        return cls(header, path=path, durable=durable)

    @classmethod
    def create_at(cls, path: str | os.PathLike, cwd: str | None = None, **header_fields: Any) -> "Session":
        """A new session written to an explicit path (which must not exist yet)."""
        path = _absolute(path)
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

    def _load(self, data: bytes, result: ScanResult) -> None:
        self.index = SessionIndex(data)
        if self._original_version < CURRENT_SESSION_VERSION:
            self._load_migrated(data, result)
        else:
            for slot in result.slots:
                self.index.add(slot)
        self.index.problems[:0] = result.problems
        self._on_disk = True
        self._size_seen = len(data)
        self._scanned_to = len(data) if result.tail_is_entry else result.complete_end
        self._torn_from = result.complete_end if result.torn_tail else None
        self._needs_newline = _lacks_final_newline(data, result)
        self._next_line = (result.slots[-1].line + 1) if result.slots else 2
        self._leaf_id = self.index.last_id()

    def _load_migrated(self, data: bytes, result: ScanResult) -> None:
        lines = [self.header] + [self.index.entry_of(slot) for slot in result.slots]
        migrate(lines)
        self._pending_rewrite = True
        for line_no, entry in enumerate(lines[1:], start=2):
            self.index.add(Slot(line_no, -1, -1, entry))

    # -- properties ----------------------------------------------------------------------------------------

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
        return self._original_version

    @property
    def problems(self) -> list[Problem]:
        return self.index.problems

    @property
    def leaf_id(self) -> str | None:
        """The entry the next append hangs from; ``None`` means before the first entry (a new root)."""
        return self._leaf_id

    @property
    def name(self) -> str | None:
        return self.index.name()

    @property
    def labels(self) -> dict[str, str]:
        return {target: label for target, (label, _) in self.index.labels.items()}

    def move_leaf(self, entry_id: str | None) -> None:
        """Move the current position (in memory only: pi takes the file's last line as the leaf on open)."""
        if entry_id is not None and entry_id not in self.index:
            raise EntryNotFoundError(f"Entry {entry_id} not found")
        self._leaf_id = entry_id

    # -- queries (delegated to the index) ------------------------------------------------------------------

    def entry(self, entry_id: str) -> dict:
        return self.index.entry(entry_id)

    def get(self, entry_id: str | None) -> dict | None:
        return self.index.get(entry_id)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self.index

    def __len__(self) -> int:
        return len(self.index)

    def entries(self) -> list[dict]:
        """Every entry in file order (all parsed)."""
        return list(self.index.iter_entries())

    def children(self, entry_id: str | None) -> list[dict]:
        return self.index.children(entry_id)

    def branch(self, from_id: str | None = ...) -> list[dict]:  # type: ignore[assignment]
        """Entries from the root to ``from_id`` (default: the leaf), root first."""
        return self.index.path(self._leaf_id if from_id is ... else from_id)

    def tree(self) -> list[TreeNode]:
        return self.index.tree()

    def label(self, entry_id: str) -> str | None:
        return self.index.label(entry_id)

    def resolve(self, ref: str) -> str | None:
        """An entry named by id, unique id prefix or label; ``root`` names the position before the first."""
        if ref in self.index:
            return ref
        if ref == ROOT:
            return None
        labelled = [target for target, (label, _) in self.index.labels.items() if label == ref]
        if len(labelled) == 1:
            return labelled[0]
        matches = [slot.id for slot in self.index.slots if slot.id.startswith(ref)] if ref else []
        unique = list(dict.fromkeys(matches))
        if len(unique) == 1:
            return unique[0]
        if len(unique) > 1 or len(labelled) > 1:
            shown = ", ".join((unique or labelled)[:5])
            raise AmbiguousEntryError(f"{ref!r} matches several entries ({shown}); give more characters")
        raise EntryNotFoundError(f"no entry {ref!r} (not an id, an id prefix or a label)")

    def build_context(self, leaf_id: str | None = ...):  # type: ignore[assignment]
        """pi's ``buildSessionContext`` for the leaf (or another entry): messages, thinking level, model."""
        from .context import context_from_path

        leaf = self._leaf_id if leaf_id is ... else leaf_id
        if leaf is None:
            return context_from_path([])
        if not leaf or leaf not in self.index:
            leaf = self.index.last_id()  # pi falls back to the last entry for an unknown (or falsy) id
        return context_from_path(self.index.context_path(leaf))

    # -- appending -----------------------------------------------------------------------------------------

    def append(
        self, entry_type: str, fields: dict[str, Any] | None = None, *, parent_id: Any = ..., entry_id: str | None = None
    ) -> dict:
        """Append one entry of any type as a child of the leaf (or ``parent_id``); it becomes the leaf.

        ``entry_id`` presets the new id (it must be unused), for entries that refer to themselves.
        """
        parent = self._leaf_id if parent_id is ... else parent_id
        if parent is not None and parent not in self.index:
            raise EntryNotFoundError(f"Entry {parent} not found")
        if entry_id is not None and entry_id in self.index:
            raise UsageError(f"entry id {entry_id} is already used")
        new_id = entry_id or new_entry_id(self.index.by_id)
        entry = _make_entry(entry_type, fields or {}, new_id, parent, now_iso())
        self._persist_and_index(entry)
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
        return new_entry_id(self.index.by_id)

    def append_branch_summary(
        self, at_id: str | None, summary: str, details: dict | None = None, from_hook: bool | None = None
    ) -> dict:
        """pi's ``branchWithSummary``: the summary hangs at ``at_id`` (a new root for ``None``) and is the leaf.

        ``fromId`` is the attachment point, as pi 0.73 writes it; pass ``from_id`` in ``details`` if you
        want to remember the abandoned leaf.
        """
        fields = {"fromId": at_id if at_id is not None else ROOT, "summary": summary}
        return self.append("branch_summary", _with_optional(fields, details=details, fromHook=from_hook), parent_id=at_id)

    def append_custom(self, custom_type: str, data: Any = None, *, parent_id: Any = ...) -> dict:
        return self.append("custom", _with_optional({"customType": custom_type}, data=data), parent_id=parent_id)

    def append_custom_message(self, custom_type: str, content: Any, display: bool, details: Any = None) -> dict:
        fields = {"customType": custom_type, "content": content, "display": display}
        return self.append("custom_message", _with_optional(fields, details=details))

    def append_label(self, target_id: str, label: str | None) -> dict:
        """Set (or, with ``None``/``""``, clear) a label; like pi, the label entry becomes the leaf."""
        if target_id not in self.index:
            raise EntryNotFoundError(f"Entry {target_id} not found")
        return self.append("label", _with_optional({"targetId": target_id}, label=label or None))

    def append_session_info(self, name: str) -> dict:
        return self.append("session_info", {"name": js_trim(name)})

    def _persist_and_index(self, entry: dict) -> None:
        start = end = -1
        if self._writer is not None:
            start, line = self._write_line(lambda: self._new_entry_line(entry))
            end = start + len(line) - 1
        self.index.add(Slot(self._next_line, start, end, entry))
        self._next_line += 1

    def _new_entry_line(self, entry: dict) -> bytes:
        """The line of a new entry; its id is drawn again if another process used it meanwhile."""
        if entry["id"] in self.index:
            entry["id"] = new_entry_id(self.index.by_id)
        return dumps_line(entry)

    def _write_line(self, render: Callable[[], bytes]) -> tuple[int, bytes]:
        """Append ``render()`` to the file under its lock; return the offset it starts at, and the line.

        ``render`` runs once the lock is held and other processes' appends are indexed, so a new entry's id
        is checked against every id in the file.
        """
        assert self._writer is not None
        with self._writer.locked() as size:
            if self._pending_rewrite:
                line = render()
                return self._rewrite_with(line), line
            if not self._on_disk:
                line = render()
                return self._write_new_file(size, line), line
            self._catch_up(size)
            line = render()
            prefix = b""
            if self._torn_from is not None:
                self._writer.truncate(self._torn_from)
                size, self._torn_from = self._torn_from, None
            elif self._needs_newline:
                prefix = b"\n"
            self._writer.write(prefix + line)
            self._needs_newline = False
            start = size + len(prefix)
            self._size_seen = self._scanned_to = start + len(line)
            return start, line

    def _write_new_file(self, size: int, line: bytes) -> int:
        if size:
            raise SessionFileError(f"{self.path} appeared while this session was being created")
        header = dumps_line(self.header)
        self._writer.write(header + line)  # type: ignore[union-attr]
        self._on_disk = True
        self._size_seen = self._scanned_to = len(header) + len(line)
        return len(header)

    def _rewrite_with(self, line: bytes) -> int:
        """First append to a migrated file: write it whole in the current format, with ``line`` at the end."""
        body = b"".join(dumps_line(e) for e in [self.header, *self.index.iter_entries()])
        self._writer.replace_contents(body + line, f".v{self._original_version}.bak")  # type: ignore[union-attr]
        self._writer.reopen()  # type: ignore[union-attr]
        self._pending_rewrite = False
        self._size_seen = self._scanned_to = len(body) + len(line)
        self._torn_from, self._needs_newline = None, False
        return len(body)

    def refresh(self) -> list[dict]:
        """Read what other processes appended since we last looked; return those entries (leaf unchanged)."""
        if self._writer is None or not self._on_disk or self._pending_rewrite:
            return []
        before = len(self.index.slots)
        with self._writer.locked() as size:
            self._catch_up(size)
        return [self.index.entry_of(slot) for slot in self.index.slots[before:]]

    def _catch_up(self, size: int) -> None:
        """Index what other processes appended since we last looked."""
        if size == self._size_seen:
            return
        if size < self._scanned_to:
            raise ConcurrentModificationError(f"{self.path} shrank while open; open it again")
        fresh = self._writer.read_range(self._scanned_to, size)  # type: ignore[union-attr]
        result = scan_entries(fresh, 0, eager=True, first_line=self._next_line, base=self._scanned_to)
        for slot in result.slots:
            self.index.add(slot)
            self._next_line = slot.line + 1
        self.index.problems.extend(result.problems)
        self._size_seen = size
        self._scanned_to = size if result.tail_is_entry else result.complete_end
        self._torn_from = result.complete_end if result.torn_tail else None
        self._needs_newline = _lacks_final_newline(fresh, result)

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
        forked._adopt(kept + self._labels_for(kept))
        return forked

    def _labels_for(self, kept: list[dict]) -> list[dict]:
        on_path = {entry["id"] for entry in kept}
        taken = set(on_path)
        labels: list[dict] = []
        previous = kept[-1]["id"] if kept else None
        for target, (label, stamp) in self.index.labels.items():
            if target not in on_path:
                continue
            entry_id = new_entry_id(taken)
            taken.add(entry_id)
            labels.append(_make_entry("label", {"targetId": target, "label": label}, entry_id, previous, stamp or now_iso()))
            previous = entry_id
        return labels

    def _adopt(self, entries: list[dict]) -> None:
        """Fill a new, empty session with ready-made entries, written in one go."""
        if self._writer is not None and entries:
            payload = b"".join(dumps_line(e) for e in entries)
            self._write_line(lambda: payload)
        for entry in entries:
            self.index.add(Slot(self._next_line, -1, -1, entry))
            self._next_line += 1
        self._leaf_id = self.index.last_id()

    # -- lifecycle -----------------------------------------------------------------------------------------

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        writer = getattr(self, "_writer", None)
        if writer is not None:
            writer.close()

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


def _absolute(path: str | os.PathLike) -> Path:
    """An absolute path with ``..`` and ``.`` resolved lexically, as node's ``path.resolve`` (links kept)."""
    return Path(os.path.abspath(path))


def _lacks_final_newline(data: bytes, result: ScanResult) -> bool:
    """The next line needs a newline before it: the file ends in a line without one that is not cut away.

    That line may be an entry, a header with nothing after it, or blanks; a torn tail is cut instead.
    """
    return bool(data) and not data.endswith(b"\n") and not result.torn_tail


def _read_file(path: Path) -> bytes:
    if path.is_dir():
        raise SessionFileError(f"{path} is a directory, not a session file")
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        raise SessionFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise SessionFileError(f"cannot read {path}: {exc.strerror}") from None


