"""The file side of a session: its header, the index of its lines, and the appends that extend it.

A :class:`SessionFile` knows where it stands in the file (how far it has scanned, whether the last line is
torn or lacks its newline) so that an append under the lock first indexes what other processes wrote,
then adds exactly one line. A v1/v2 file is migrated in memory on open and written whole in the current
format (atomically, with a backup) at the first append: under the lock, from the file as it is then, so
that lines other writers added meanwhile are kept (the ids of migrated lines derive from the lines, hence
agree between writers). With no path the session lives in memory only.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from ..errors import ConcurrentModificationError, SessionFileError
from ..types import CURRENT_SESSION_VERSION
from . import depth
from .index import SessionIndex
from .jsonl import dumps_line, new_entry_id
from .migrate import header_version, migrate
from .scan import ScanResult, Slot, scan, scan_entries
from .writer import FileWriter, write_new_file


class SessionFile:
    """A header plus an index of entries, backed by the file at ``path`` (or by nothing: ``path is None``)."""

    def __init__(self, header: dict, path: Path | None = None, *, durable: bool = True) -> None:
        self.header = header
        self.path = path
        self.index = SessionIndex()
        self.original_version = header_version(header)
        self._writer = FileWriter(path, durable=durable) if path is not None else None
        self._on_disk = False
        self._pending_rewrite = False
        self._scanned_to = 0
        self._size_seen = 0
        self._torn_from: int | None = None
        self._needs_newline = False
        self._next_line = 2

    @classmethod
    def open(cls, path: Path, *, durable: bool = True) -> "SessionFile":
        """Read and index an existing file; nothing is written."""
        data = read_session_bytes(path)
        result = scan(data)
        opened = cls(result.header, path, durable=durable)
        opened._load(data, result)
        return opened

    def _load(self, data: bytes, result: ScanResult) -> None:
        self.index = SessionIndex(data)
        self._pending_rewrite = header_version(result.header) < CURRENT_SESSION_VERSION
        if self._pending_rewrite:
            self._load_migrated(result)
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

    def _load_migrated(self, result: ScanResult) -> None:
        lines = [result.header] + [self.index.entry_of(slot) for slot in result.slots]
        migrate(lines, [result.header_line] + [slot.line for slot in result.slots])
        for slot, entry in zip(result.slots, lines[1:]):
            self.index.add(Slot(slot.line, -1, -1, entry))

    # -- appending -----------------------------------------------------------------------------------------

    def append_entry(self, entry: dict, on_locked: Callable[[dict, list[dict]], None] | None = None) -> None:
        """Write ``entry`` as the file's next line and index it; its id is drawn again if another process
        took it meanwhile (checked once the lock is held and their lines are indexed).

        ``on_locked(entry, appended)`` runs then too, with the entries other processes appended since this
        file was last read, and may still change ``entry`` (re-parent it, say) before it is written. An entry
        nested deeper than :data:`~pi_compact.store.depth.MAX_DEPTH` raises ``NestingTooDeepError``.
        """
        depth.check(entry)  # what the store writes, every reader can take: refused before anything is locked
        start = end = -1
        if self._writer is not None:
            start, line = self._write_line(lambda fresh: self._entry_line(entry, fresh, on_locked))
            end = start + len(line) - 1
        elif on_locked is not None:
            on_locked(entry, [])
        self.index.add(Slot(self._next_line, start, end, entry))
        self._next_line += 1

    def adopt(self, entries: list[dict]) -> None:
        """Fill a new, empty file with ready-made entries, written in one go."""
        if self._writer is not None and entries:
            payload = b"".join(dumps_line(e) for e in entries)
            if self._on_disk:
                self._write_line(lambda fresh: payload)
            else:  # a new file (a fork): whole or not at all, never a partial or empty file
                header = dumps_line(self.header)
                write_new_file(self.path, header + payload)  # type: ignore[arg-type]
                self._on_disk = True
                self._size_seen = self._scanned_to = len(header) + len(payload)
        for entry in entries:
            self.index.add(Slot(self._next_line, -1, -1, entry))
            self._next_line += 1

    def _entry_line(self, entry: dict, fresh: list[Slot], on_locked) -> bytes:
        if on_locked is not None:
            on_locked(entry, [self.index.entry_of(slot) for slot in fresh])
        if entry["id"] in self.index:
            entry["id"] = new_entry_id(self.index.by_id)
        return dumps_line(entry)

    def _write_line(self, render: Callable[[list[Slot]], bytes]) -> tuple[int, bytes]:
        """Append ``render(fresh)`` under the file's lock; return the offset it starts at, and the line.

        ``render`` runs once the lock is held and other processes' appends are indexed (``fresh``: their slots).
        """
        assert self._writer is not None
        with self._writer.locked(follow_replacement=self._pending_rewrite) as size:
            if not self._on_disk:
                line = render([])
                return self._write_new_file(size, line), line
            fresh = self._follow(size)
            line = render(fresh)
            if self._pending_rewrite:
                return self._rewrite_with(line), line
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
        self._writer.replace_contents(body + line, f".v{self.original_version}.bak")  # type: ignore[union-attr]
        self._writer.reopen()  # type: ignore[union-attr]
        self._pending_rewrite = False
        self._size_seen = self._scanned_to = len(body) + len(line)
        self._torn_from, self._needs_newline = None, False
        return len(body)

    # -- other writers -------------------------------------------------------------------------------------

    def refresh(self) -> list[dict]:
        """Index what other processes appended since we last looked; return those entries."""
        if self._writer is None or not self._on_disk:
            return []
        with self._writer.locked(follow_replacement=self._pending_rewrite) as size:
            fresh = self._follow(size)
        return [self.index.entry_of(slot) for slot in fresh]

    def _follow(self, size: int) -> list[Slot]:
        """Under the lock: index what other processes wrote since we last looked; return their slots."""
        if self._pending_rewrite:
            return self._reload(size)
        before = len(self.index.slots)
        self._catch_up(size)
        return self.index.slots[before:]

    def _reload(self, size: int) -> list[Slot]:
        """A file we have not migrated yet, read again as it is now (under the lock): other writers may have
        appended old-format lines, or migrated it and appended since. Migrated ids derive from the lines, so
        every entry we knew keeps its id; the slots of the others are returned. A file migrated meanwhile by
        a program that draws ids at random (pi) no longer holds our ids: refused, nothing is written."""
        known = set(self.index.by_id)
        data = self._writer.read_range(0, size)  # type: ignore[union-attr]
        result = scan(data)
        self.header = result.header
        self._load(data, result)
        if not known <= self.index.by_id.keys():  # this object is stale now: the caller must open the file again
            raise ConcurrentModificationError(
                f"{self.path} was migrated or rewritten by another program while open (its entries got new ids); "
                "open it again"
            )
        return [slot for slot in self.index.slots if slot.id not in known]

    def _catch_up(self, size: int) -> None:
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

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()


def _lacks_final_newline(data: bytes, result: ScanResult) -> bool:
    """The next line needs a newline before it: the file ends in a line without one that is not cut away.

    That line may be an entry, a header with nothing after it, or blanks; a torn tail is cut instead.
    """
    return bool(data) and not data.endswith(b"\n") and not result.torn_tail


_KINDS = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def file_kind(mode: int) -> str:
    """What a non-regular file is, for an error message (``a named pipe``)."""
    return "a directory" if stat.S_ISDIR(mode) else _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def _refuse_unless_regular(path: Path, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise SessionFileError(f"{path} is {file_kind(mode)}, not a session file")


def read_session_bytes(path: Path) -> bytes:
    """The whole file; anything but a regular file is refused before a byte is read (a named pipe would block
    for ever, ``/dev/zero`` never end). Opening does not block on a pipe with no writer."""
    fd = open_regular_file(path)
    with os.fdopen(fd, "rb") as handle:
        try:
            return handle.read()
        except OSError as exc:
            raise SessionFileError(f"cannot read {path}: {exc.strerror}") from None


def open_regular_file(path: Path) -> int:
    """A descriptor to read ``path`` with, refused (:class:`SessionFileError`) unless it is a regular file."""
    try:
        _refuse_unless_regular(path, os.stat(path).st_mode)  # a socket cannot even be opened to be asked
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise SessionFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise SessionFileError(f"cannot read {path}: {exc.strerror}") from None
    try:
        _refuse_unless_regular(path, os.fstat(fd).st_mode)  # what was opened, should the name have changed
    except SessionFileError:
        os.close(fd)
        raise
    return fd


def absolute_path(path: str | os.PathLike) -> Path:
    """An absolute path with ``..`` and ``.`` resolved lexically, as node's ``path.resolve`` (links kept)."""
    return Path(os.path.abspath(path))
