"""The pi session an importer builds: entries linked by id, the leaf last, written whole through the store.

Every importer turns rows into pi entries in an order where a parent comes before its children; this module
holds them, picks the last line (pi takes a file's last entry as its leaf), and writes the result as a new
file with :func:`~pi_compact.store.writer.write_new_file` (all or nothing, fsynced, never over a file unless
asked). Timestamps are normalised to pi's form (``new Date(ms).toISOString()``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..store.jsonl import dumps_line, iso_to_ms, new_entry_id, new_session_id, now_iso
from ..store.writer import write_new_file
from ..types import CURRENT_SESSION_VERSION


def ms_to_iso(ms: int) -> str:
    """``new Date(ms).toISOString()``."""
    moment = datetime.fromtimestamp(ms / 1000, timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def time_of(value: Any) -> int | None:
    """A row's timestamp (ISO text or epoch milliseconds/seconds) as epoch milliseconds, else ``None``."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value * 1000) if value < 1e11 else int(value)  # seconds before ~5138, else ms
    ms = iso_to_ms(value)
    return ms if ms is not None and 0 <= ms < 253402300800000 else None


@dataclass
class EntryTree:
    """pi entries in the order they will be written, each with a unique id and a parent written before it."""

    entries: list[dict] = field(default_factory=list)
    by_id: dict[str, dict] = field(default_factory=dict)
    last_ms: int | None = None
    """The newest timestamp seen, for rows that carry none."""

    def add(self, entry_type: str, fields: dict, *, parent: str | None, ms: int | None, entry_id: str | None = None) -> dict:
        """Append an entry; ``entry_id`` is kept when free (the source's own id), else a new one is drawn."""
        if entry_id is None or entry_id in self.by_id:
            entry_id = new_entry_id(self.by_id)
        if ms is not None:
            self.last_ms = ms
        stamp = ms_to_iso(ms) if ms is not None else (ms_to_iso(self.last_ms) if self.last_ms is not None else now_iso())
        entry = {"type": entry_type, "id": entry_id, "parentId": parent, "timestamp": stamp, **fields}
        self.entries.append(entry)
        self.by_id[entry_id] = entry
        return entry

    def ancestors(self, entry_id: str | None):
        """The entries from ``entry_id`` up to its root, nearest first."""
        seen: set[str] = set()
        while entry_id is not None and entry_id in self.by_id and entry_id not in seen:
            seen.add(entry_id)
            entry = self.by_id[entry_id]
            yield entry
            entry_id = entry.get("parentId")

    def move_last(self, leaf_id: str) -> None:
        """Make ``leaf_id`` (an entry without children) the file's last line, so pi opens it as the leaf."""
        entry = self.by_id[leaf_id]
        self.entries.remove(entry)
        self.entries.append(entry)

    def deepest_child(self, entry_id: str, rank: dict[str, int]) -> str:
        """From ``entry_id`` down through the highest-ranked child at each step, to an entry with none."""
        children: dict[str, list[str]] = {}
        for entry in self.entries:
            if entry.get("parentId") is not None:
                children.setdefault(entry["parentId"], []).append(entry["id"])
        while children.get(entry_id):
            entry_id = max(children[entry_id], key=lambda child: rank.get(child, -1))
        return entry_id


@dataclass(frozen=True)
class ImportedSession:
    """A transcript read as a pi session: header, entries (leaf last), and what the reader had to say."""

    format: str
    """``claude-code`` or ``codex``."""
    header: dict
    entries: list[dict]
    notes: tuple[str, ...]
    """Lines skipped, links repaired, summaries unreadable: one sentence each, with a line number."""
    compactions: int
    """Compaction entries holding the agent's own summary of a region."""

    def to_bytes(self) -> bytes:
        return dumps_line(self.header) + b"".join(map(dumps_line, self.entries))


def session_header(session_id: Any, ms: int | None, cwd: Any) -> dict:
    """A v3 header; the source's id is kept when it is a non-empty string."""
    return {
        "type": "session",
        "version": CURRENT_SESSION_VERSION,
        "id": session_id if isinstance(session_id, str) and session_id else new_session_id(),
        "timestamp": ms_to_iso(ms) if ms is not None else now_iso(),
        "cwd": cwd if isinstance(cwd, str) else "",
    }


def write_session(imported: ImportedSession, path: str | os.PathLike, *, force: bool = False) -> Path:
    """Write ``imported`` as a new pi session file at ``path``; an existing file is replaced only with ``force``."""
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"{path} is a directory; name a file to write")
    if not (force and (path.exists() or path.is_symlink())):
        write_new_file(path, imported.to_bytes())
        return path
    staged = path.with_name(f".{path.name}.{os.getpid()}.import")  # replaced in one rename: never half a file
    staged.unlink(missing_ok=True)
    write_new_file(staged, imported.to_bytes())
    os.replace(staged, path)
    return path
