"""Reading a session file once, in pieces, for the commands that look at every line and keep none of them.

``session info`` and ``session show`` need, of each line, a few figures or a digest: holding the whole file
(:func:`~pi_compact.store.session_file.read_session_bytes`) made their memory grow with the file (2 GB for a
2 GB file). Here the file is read :data:`PIECE_BYTES` at a time, cut at the last newline; each piece is indexed
by the same code that indexes a whole file (:func:`~pi_compact.store.scan.scan_entries`, then
:meth:`SessionIndex.add <pi_compact.store.index.SessionIndex.add>`), handed to the caller while its bytes are
held, and dropped. What is kept is the index (a slot per entry, no entry parsed but labels and names), so the
results are those of opening the file whole: the same entries, the same problems in the same order.
``session info`` on a big file reads its message lines of pi's without a slot (:meth:`StreamedFile.messages`),
counted and parsed as the slots would be.

Only a line longer than a piece is held whole, and only when a JSON parser could read it: a line that no
parser reads from its first byte on (a hole of NULs after a crash, binary garbage) is skipped to its end
without being held, holes of a sparse file without being read (``SEEK_DATA``), and stands in the stream as
one byte that is not JSON, so that it is reported exactly as the whole file's scan reports it.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import compress, count
from pathlib import Path
from typing import Protocol
from zlib import crc32

from orjson import loads as orjson_loads  # jsonl.loads itself: a call less per line of the file

from ..errors import CorruptEntryError, SessionFileError
from ..types import CURRENT_SESSION_VERSION
from .index import SessionIndex
from .migrate import header_version
from . import scan
from .depth import MAX_DEPTH, depth
from .scan import Problem, Report, Slot, find_header_in, no_header, parse_slot, scan_entries
from .session_file import open_regular_file

PIECE_BYTES = 8 * 1024 * 1024
"""How much of the file is read at a time (a piece holds whole lines: a little more, or one long line)."""

_BOM = b"\xef\xbb\xbf"
_STAND_IN = b"\x00"
"""What a skipped line becomes: not blank, not JSON, so reported as the line it stands for (invalid or torn)."""
_JSON_SPACE = re.compile(rb"[ \t\r\n]*")
_NOT_BLANK = re.compile(rb"[^ \t\r\n\x0b\x0c]")
_STARTS_JSON = frozenset(b'[{"-0123456789tfn')
_SEEK_DATA = getattr(os, "SEEK_DATA", os.SEEK_SET)
"""Where the system has no SEEK_DATA, seeking to the offset itself: every byte is read."""


class StreamedFile:
    """A session file read piece by piece: the header at once, then :meth:`pieces`, then :meth:`finish`.

    ``None`` from :meth:`open` for a v1/v2 file: migrating needs every entry at once (the caller opens it whole).
    """

    def __init__(self, path: Path, fd: int, size: int, *, tally: bool = False) -> None:
        self.path = path
        self.size = size
        self.header: dict = {}
        # show and info build no context: no thinking map; info needs no tree: no slots (TallyIndex)
        self.index = TallyIndex() if tally else SessionIndex(b"", for_context=False)
        self._fd = fd
        self._lines = _line_pieces(fd, path)
        self._eager = size <= scan.EAGER_PARSE_BYTES  # as scan() decides for the whole file
        self._line = 1
        self._scan_problems: list[Problem] = []
        self._late: list[Problem] = []
        self._rest = b""

    @classmethod
    def open(cls, path: Path, *, tally: bool = False) -> "StreamedFile | None":
        """Read up to the header (:class:`~pi_compact.errors.NotASessionError` when there is none). With
        ``tally``, :attr:`index` counts the entries rather than keeping them (:class:`TallyIndex`)."""
        fd = open_regular_file(path)
        try:
            streamed = cls(path, fd, os.fstat(fd).st_size, tally=tally)
            if not streamed._find_header() or header_version(streamed.header) < CURRENT_SESSION_VERSION:
                os.close(fd)
                return None
        except BaseException:
            os.close(fd)
            raise
        return streamed

    def _find_header(self) -> bool:
        for data, end in self._lines:
            piece = data[:end]  # the first piece or so: its lines only
            header, pos, self._line = find_header_in(piece, 0, self._line, self._scan_problems)
            if header is not None:
                self.header, self._rest = header, piece[pos:]
                return True
        no_header(self._scan_problems)
        return False

    def pieces(self) -> Iterator[Piece]:
        """Each piece with the slots it added to :attr:`index`, in file order. Shadowed duplicates are among
        them (as in ``SessionIndex.slots``); headers and lines without an id are not."""
        try:
            rest, self._rest = self._rest, b""
            for data, end in _chain(rest, self._lines):
                first = self._line
                result = scan_entries(data, 0, eager=self._eager, first_line=first, end=end)
                self._line = result.next_line
                self._scan_problems += result.problems
                add = self.index.add
                yield Piece(data, [slot for slot in result.slots if add(slot)], first, self.report)
        finally:
            os.close(self._fd)

    def messages(self, known: Callable[[int], tuple | None] | None = None,
                 needs: Callable[[tuple], bool] = bool) -> Iterator[dict | tuple[tuple, memoryview]]:
        """Every readable ``message`` entry in file order, a broken line skipped (as a listing skips it): what
        :meth:`Piece.readable` gives of each of :meth:`pieces`, with the same entries counted and the same
        problems found. It is ``session info``'s pass over a file opened with ``tally``.

        A file read lazily (big) is read by :func:`_tally_new_piece` (or :func:`_tally_piece`, with rows), which
        makes no slot for a message line of pi's: slots and their indexing were a third of the pass over a
        100k-entry file. There, a line for
        whose key (:func:`line_key`) ``known`` has a row (as :meth:`keyed_slots` takes it: a line read before
        with no problem) is counted by the row's id and type and not parsed: a message's comes as ``(row,
        line)``, or as its entry when ``needs(row)``. A file read eagerly (small) reads no row."""
        if self._eager or not isinstance(self.index, TallyIndex):
            for piece in self.pieces():
                yield from piece.readable("message")
            return
        try:
            rest, self._rest = self._rest, b""
            if known is None:
                for data, end in _chain(rest, self._lines):
                    yield from _tally_new_piece(self, data, end)
            else:
                for data, end in _chain(rest, self._lines):
                    yield from _tally_piece(self, data, end, known, needs)
        finally:
            os.close(self._fd)

    def keyed_slots(self, known: Callable[[int], tuple | None], known_keys: list[int], known_rows: list[tuple],
                    pieces: KnownPieces | None = None) -> Iterator[KeyedSlot]:
        """What :meth:`pieces` indexes, slot by slot in file order, with its line's key (:func:`line_key`):
        a line for whose key ``known`` has a row (its first four values: the slot's type, id, parentId and
        timestamp) is appended to ``known_keys`` and ``known_rows``, and not yielded; any other is yielded
        with its entry (:meth:`Piece.entry`) and whether such a row could stand for its slot
        (:func:`~pi_compact.store.scan.plain_fields`; never for a line without its newline). The lines
        appended come before the line yielded: the caller takes them first.

        A line ``known`` has a row for is neither scanned nor parsed: its slot is made from the row. What
        reading the line could report, a plain line never reports, and the index's own problems (a duplicate
        id) come from the slot, so the index and its problems are those of :meth:`pieces`.

        With ``pieces``, a piece whose bytes were read before (its size and CRC-32) is not split into lines
        and keyed line by line: its lines with a row are those of ``pieces.piece_rows``, the others read as
        above (``known`` not asked about a line whose key ``pieces`` says no row has: ``pieces`` is where
        ``known`` finds its rows); every piece read is told to ``pieces.piece_met``, with the keys of its
        lines."""
        try:
            rest, self._rest = self._rest, b""
            for data, end in _chain(rest, self._lines):
                yield from _keyed_piece(self, data, end, known, known_keys.append, known_rows.append, pieces)
        finally:
            os.close(self._fd)

    def report(self, problem: Problem) -> None:
        """A problem found while reading an entry of a piece: listed after those of indexing, as when the
        whole file is opened first and read after."""
        self._late.append(problem)

    def finish(self) -> SessionIndex:
        """The index with every problem, in the order opening the whole file and then reading it gives them."""
        index = self.index
        index.problems[:0] = self._scan_problems
        for problem in self._late:
            index.report(problem)
        self._scan_problems, self._late = [], []
        return index


class TallyIndex(SessionIndex):
    """The index of a file read for its figures (``session info``): each entry is counted, its id remembered (a
    later one with the same id is a duplicate), labels and the name read, and its slot dropped with its piece.
    It answers for the count, the last id, labels, the name and the problems; it has no tree."""

    def __init__(self) -> None:
        super().__init__(b"", for_context=False)
        self.ids: set[str] = set()
        """The ids indexed so far: a line with one of them is a duplicate, to go through :meth:`add`."""
        self._count = 0
        self._last: str | None = None

    def add(self, slot: Slot) -> bool:
        entry_id, kind, ids = slot.id, slot.type, self.ids
        # _admit's answer for nearly every line (a new id), without the call; the others get the call itself
        if (kind == "session" or not isinstance(entry_id, str) or entry_id in ids) and self._admit(slot, ids) is None:
            return False
        ids.add(entry_id)
        self._count += 1
        self._last = entry_id
        if kind == "label" or kind == "session_info":  # what _read_fields reads
            self._read_fields(slot)
        return True

    def add_counted(self, count: int, last: str | None) -> None:
        """Count ``count`` entries of new ids that a pass put in :attr:`ids` itself, as :meth:`add` would have
        counted them, the last line indexed (theirs or one :meth:`add` took) being the entry ``last``
        (``None``: none)."""
        self._count += count
        if last is not None:
            self._last = last

    def __len__(self) -> int:
        return self._count

    def last_id(self) -> str | None:
        return self._last


class Piece:
    """Whole lines of the file, the slots of their entries (offsets into :attr:`data`), and their parsing."""

    __slots__ = ("data", "slots", "_first_line", "_report", "_deep")

    def __init__(self, data: bytes, slots: list[Slot], first_line: int, report: Report) -> None:
        self.data, self.slots = data, slots
        self._first_line, self._report = first_line, report
        self._deep: set[int] | None = None

    def entry(self, slot: Slot) -> dict:
        """The slot's entry, parsed but not kept, exactly as ``SessionIndex.peek`` gives it
        (:class:`~pi_compact.errors.CorruptEntryError` for a broken line, ``too_deep`` reported)."""
        if slot.entry is not None:
            return slot.entry
        if self._deep is None:
            self._deep = _bracket_heavy(self.data, self._first_line)
        try:
            entry = orjson_loads(memoryview(self.data)[slot.start : slot.end])
        except ValueError:  # invalid UTF-8 (read as U+FFFD) or a broken line: the careful way decides
            entry = None
        # parse_in_place's bracket count, from one pass over the piece; where it may be, the depth itself
        if isinstance(entry, dict) and (slot.line not in self._deep or depth(entry, MAX_DEPTH) <= MAX_DEPTH):
            return entry
        return parse_slot(self.data, slot, keep=False, report=self._report)

    def entries(self) -> Iterator[dict]:
        """:meth:`entry` of each slot, in order (the CorruptEntryError of a broken line ends the iteration).

        What :meth:`entry` does, inlined for the lines that parse in place: a pass over a 100k-entry file
        parses every line, and a call per line was a tenth of the pass."""
        if self._deep is None:
            self._deep = _bracket_heavy(self.data, self._first_line)
        view, deep = memoryview(self.data), self._deep
        for slot in self.slots:
            if slot.entry is None and slot.line not in deep:
                try:
                    entry = orjson_loads(view[slot.start : slot.end])
                except ValueError:
                    entry = None
                if isinstance(entry, dict):
                    yield entry
                    continue
            yield self.entry(slot)

    def readable(self, kind: str) -> Iterator[dict]:
        """:meth:`entry` of each slot of type ``kind`` whose line reads, in order; a broken line is skipped (as
        a listing skips it). Inlined as :meth:`entries` is: ``session info`` reads every message this way."""
        if self._deep is None:
            self._deep = _bracket_heavy(self.data, self._first_line)
        view, deep = memoryview(self.data), self._deep
        for slot in self.slots:
            if slot.type != kind:
                continue
            if slot.entry is None and slot.line not in deep:
                try:
                    entry = orjson_loads(view[slot.start : slot.end])
                except ValueError:
                    entry = None
                if isinstance(entry, dict):
                    yield entry
                    continue
            try:
                entry = self.entry(slot)
            except CorruptEntryError:
                continue
            yield entry


_MESSAGE_PREFIX_SOURCE = scan.prefix_source_of("message")
_MESSAGE_PREFIX = re.compile(_MESSAGE_PREFIX_SOURCE)
_QUICK_MESSAGE_PREFIX = re.compile(_MESSAGE_PREFIX_SOURCE.replace(rb'[^"\\]', rb'[^"]'))
""":data:`_MESSAGE_PREFIX` with strings that may hold a backslash: what it matches without one is what the
scanner's prefix matches (the same groups), read several times faster (a class of one character)."""


def _tally_piece(streamed: StreamedFile, data: bytes, end: int, known: Callable[[int], tuple | None],
                 needs: Callable[[tuple], bool] = bool) -> Iterator[dict | tuple[tuple, memoryview]]:
    """:meth:`StreamedFile.messages` of one piece (``data`` up to ``end``), read lazily with the rows of
    ``known`` (without rows: :func:`_tally_new_piece`).

    A line with a row of a new id is counted as :meth:`TallyIndex.add` counts it, a message's given as its row
    and line (parsed if ``needs(row)``). Any other message line of pi's (the scanner's prefix and a closing
    brace; a duplicate id too: the index reports it) is counted in the index as :meth:`TallyIndex.add` counts
    it and parsed as :meth:`Piece.readable` parses it, with no slot made; any other line goes through the
    scanner's own code for one line (:func:`~pi_compact.store.scan.lazy_line_slot`) and the index's ``add``,
    and a line that does not parse in place through :meth:`Piece.entry`."""
    index = streamed.index
    assert isinstance(index, TallyIndex)
    line = streamed._line
    piece = Piece(data, [], line, streamed.report)
    view, problems, ids, new_id = memoryview(data), streamed._scan_problems, index.ids, index.ids.add
    find, match, ends_object, occurrences = data.find, _MESSAGE_PREFIX.match, scan.ends_object, data.count
    # Few lines are parsed: their brackets are counted on the line, not by a pass over the piece.
    stop = data.rfind(b"\n", 0, end) + 1
    pos = counted = 0
    last = None
    while pos < stop:
        eol = find(b"\n", pos)
        raw = view[pos:eol]
        row = known(crc32(raw) << 32 | (eol - pos) & 0xFFFFFFFF)  # line_key, inlined
        if row is not None and row[1] not in ids:
            last = row[1]
            new_id(last)
            counted += 1
            if row[0] == "message":
                yield known_entry(raw) if needs(row) else (row, raw)
        elif (found := match(data, pos, eol)) is not None and (data[eol - 1] == 0x7D or ends_object(data, pos, eol)):
            last = entry_id = found.group(1).decode("utf-8", "replace")
            counted += _count_message_id(index, entry_id, data, pos, eol, line, problems)
            may_nest_deeply = occurrences(b"[", pos, eol) + occurrences(b"{", pos, eol) > MAX_DEPTH
            yield from _parsed_message(piece, raw, pos, eol, line, may_nest_deeply)
        else:
            slot = _counted_slot(index, data, pos, eol, line, problems)
            last = last if slot is None else slot.id
            yield from _readable_message(piece, slot)
        pos = eol + 1
        line += 1
    index.add_counted(counted, last)
    yield from _tally_tail(streamed, piece, stop, end, line)


def _tally_new_piece(streamed: StreamedFile, data: bytes, end: int) -> Iterator[dict]:
    """:func:`_tally_piece` without rows (``session info`` on a file never shown), where every message line
    is parsed: the same entries counted, given and reported, in fewer steps per line. The lines that may nest
    too deeply are found once for the piece (:func:`_bracket_heavy`), and a message's prefix is read by
    :data:`_QUICK_MESSAGE_PREFIX`."""
    index = streamed.index
    assert isinstance(index, TallyIndex)
    line = streamed._line
    piece = Piece(data, [], line, streamed.report)
    view, problems, ids, new_id = memoryview(data), streamed._scan_problems, index.ids, index.ids.add
    find, match, ends_object, loads = data.find, _QUICK_MESSAGE_PREFIX.match, scan.ends_object, orjson_loads
    deep = piece._deep = _bracket_heavy(data, line)  # the same count for a line read by piece.entry
    stop = data.rfind(b"\n", 0, end) + 1
    pos = counted = 0
    last = None
    while pos < stop:  # once per line of the file: _count_message_id and _parsed_message inlined for a new id
        eol = find(b"\n", pos)
        if ((found := match(data, pos, eol)) is not None and (data[eol - 1] == 0x7D or ends_object(data, pos, eol))
                and find(b"\\", pos, found.end()) < 0):
            last = entry_id = found[1].decode("utf-8", "replace")
            if entry_id in ids:  # a duplicate: the index reports it
                counted += _count_message_id(index, entry_id, data, pos, eol, line, problems)
            else:
                new_id(entry_id)
                counted += 1
            # _parsed_message, inlined: the line parsed in place, the careful way only where that may differ
            try:
                entry = loads(view[pos:eol])
            except ValueError:  # invalid UTF-8 (read as U+FFFD) or a broken line: the careful way decides
                entry = None
            if type(entry) is dict and (line not in deep or depth(entry, MAX_DEPTH) <= MAX_DEPTH):
                yield entry
            else:
                yield from _readable(piece, scan.lazy_line_slot(data, pos, eol, line, []))
        else:
            slot = _counted_slot(index, data, pos, eol, line, problems)
            last = last if slot is None else slot.id
            yield from _readable_message(piece, slot)
        pos = eol + 1
        line += 1
    index.add_counted(counted, last)
    yield from _tally_tail(streamed, piece, stop, end, line)


def _count_message_id(index: TallyIndex, entry_id: str, data: bytes, pos: int, eol: int, line: int,
                      problems: list) -> int:
    """1 where a message line's id is new (added here), 0 for a duplicate, which the index reports and counts."""
    if entry_id in index.ids:
        index.add(scan.lazy_line_slot(data, pos, eol, line, problems))  # type: ignore[arg-type]
        return 0
    index.ids.add(entry_id)
    return 1


def _parsed_message(piece: Piece, raw: memoryview, pos: int, eol: int, line: int,
                    may_nest_deeply: bool) -> Iterable[dict]:
    """The entry of a message line of pi's shape, parsed in place; a line that does not parse, or nests past
    :data:`MAX_DEPTH`, the careful way (:meth:`Piece.entry`)."""
    try:
        entry = orjson_loads(raw)
    except ValueError:  # invalid UTF-8 (read as U+FFFD) or a broken line: the careful way decides
        entry = None
    if type(entry) is dict and (not may_nest_deeply or depth(entry, MAX_DEPTH) <= MAX_DEPTH):
        return (entry,)
    return _readable(piece, scan.lazy_line_slot(piece.data, pos, eol, line, []))


def _counted_slot(index: TallyIndex, data: bytes, pos: int, eol: int, line: int, problems: list) -> Slot | None:
    """Any other line: the scanner's own code for one line and the index's ``add``; its slot if it counts."""
    slot = scan.lazy_line_slot(data, pos, eol, line, problems)
    return slot if slot is not None and index.add(slot) else None


def _readable_message(piece: Piece, slot: Slot | None) -> Iterable[dict]:
    """:func:`_readable` of a counted message slot; nothing for any other line."""
    return _readable(piece, slot) if slot is not None and slot.type == "message" else ()


def known_entry(line: bytes | memoryview) -> dict:
    """The entry of a line read before with no problem (a line with a row): orjson reads it, or, for what it
    cannot (a number too big for it), the careful parser, as :meth:`Piece.entry` would."""
    try:
        return orjson_loads(line)
    except ValueError:
        return scan.parse_line_depth(line)[0]


def _tally_tail(streamed: StreamedFile, piece: Piece, stop: int, end: int, line: int) -> Iterator[dict]:
    """What :func:`_tally_piece` gives of the bytes of ``piece`` from its last newline (``stop``) to ``end``,
    numbered from ``line`` (bytes only at the end of the file): the scanner's own code for a tail, the index's
    ``add``, :meth:`Piece.entry`."""
    tail = scan_entries(piece.data, stop, eager=False, first_line=line, end=end)
    streamed._line = tail.next_line
    streamed._scan_problems += tail.problems
    for slot in tail.slots:
        if streamed.index.add(slot) and slot.type == "message":
            yield from _readable(piece, slot)


def _readable(piece: Piece, slot: Slot | None) -> Iterator[dict]:
    """The slot's entry, if its line reads (:meth:`Piece.entry`); nothing for a broken line."""
    try:
        yield piece.entry(slot)  # type: ignore[arg-type]
    except CorruptEntryError:
        return


def line_key(line: bytes | memoryview) -> int:
    """A line's key for caches of what it says: its CRC-32, then its length (the id, timestamp and text are in
    the line)."""
    return crc32(line) << 32 | len(line) & 0xFFFFFFFF


KeyedSlot = tuple[Slot, int, dict, bool]
"""A line of :meth:`StreamedFile.keyed_slots` read from the file: the slot, its line's key, its entry, whether a
row may stand for it."""


class KnownPieces(Protocol):
    """Where :meth:`StreamedFile.keyed_slots` finds the rows of a piece read before, and tells the pieces it
    reads (:class:`~pi_compact.compaction.estimate_cache.EstimateCache` is one)."""

    def piece_rows(self, size: int, check: int) -> tuple[Sequence[int], Sequence[tuple], bytes] | None:
        """The keys and rows of the lines with a row of the piece of ``size`` bytes and CRC-32 ``check`` read
        before, and a byte per line of it (1: the line has the next row; 0: no row has the line's key, 2: one
        may), or ``None``."""

    def piece_met(self, size: int, check: int, keys: list[int]) -> None:
        """A piece of ``size`` bytes and CRC-32 ``check`` was read, its lines of ``keys``."""


def _keyed_piece(streamed: StreamedFile, data: bytes, end: int, known: Callable[[int], tuple | None],
                 known_key: Callable[[int], None], known_row: Callable[[tuple], None],
                 pieces: KnownPieces | None = None) -> Iterator[KeyedSlot]:
    """:meth:`StreamedFile.keyed_slots` of one piece (``data`` up to ``end``): a line of a known key becomes a
    slot at once; any other goes through the scanner's code for one line and :meth:`Piece.entry`. In a piece
    read before, a line with a row is neither found nor keyed: its key and row are the next of the piece's."""
    index, eager, problems, late = streamed.index, streamed._eager, streamed._scan_problems, streamed._late
    line = streamed._line
    piece = Piece(data, [], line, streamed.report)
    view, find, add, new_slot = memoryview(data), data.find, index.add, object.__new__
    # SessionIndex.add's answer for a known line of a new id (its type is no header, label or name), without
    # the call, while the index keeps no children map and no thinking chains (as a pass over a file's does)
    by_id, index_slot = index.by_id, index.slots.append
    inline = type(index) is SessionIndex and index._children is None and not index._trusted_chains
    stop = data.rfind(b"\n", 0, end) + 1
    check = crc32(view[:stop]) if pieces is not None else 0
    planned = pieces.piece_rows(stop, check) if pieces is not None else None
    piece_keys, piece_rows, flags = planned if planned is not None else ((), (), b"")
    line_keys: list[int] = []
    keep_key, first_line, planned_lines = line_keys.append, line, len(flags)
    pos = at = 0
    while pos < stop:  # once per line of the file: line_key and the slot's making inlined
        flag = flags[numbered] if (numbered := line - first_line) < planned_lines else 2
        if flag == 1:  # in a piece read before, the next row's line
            key, row = piece_keys[at], piece_rows[at]
            at += 1
            eol = pos + (key & 0xFFFFFFFF)
        else:
            eol = find(b"\n", pos)
            key = crc32(view[pos:eol]) << 32 | (eol - pos) & 0xFFFFFFFF
            row = known(key) if flag else None  # 0: in a piece read before, a line of a key no row has
        keep_key(key)
        if row is not None:
            slot = new_slot(Slot)
            slot.line, slot.start, slot.end, slot.entry = line, pos, eol, None
            entry_id = row[1]
            slot.type, slot.id, slot.parent_id, slot.timestamp = row[0], entry_id, row[2], row[3]
            if inline and entry_id not in by_id:
                index_slot(slot)
                by_id[entry_id] = slot
            else:
                add(slot)  # a duplicate: the index reports it
            known_key(key)
            known_row(row)
        else:
            reported = len(problems) + len(late)  # what reading the line finds (the index's own problems aside)
            slot = scan.line_slot(data, pos, eol, line, problems, eager=eager)
            if slot is not None and add(slot):
                entry = _entry(piece, slot, data, view)
                yield slot, key, entry, len(problems) + len(late) == reported and scan.plain_fields(data, pos, eol, entry)
        pos = eol + 1
        line += 1
    if pieces is not None:
        pieces.piece_met(stop, check, line_keys)
    tail = scan_entries(data, stop, eager=eager, first_line=line, end=end)  # bytes only at the end of the file
    streamed._line = tail.next_line
    problems += tail.problems
    for slot in tail.slots:
        if add(slot):
            yield slot, line_key(view[slot.start : slot.end]), piece.entry(slot), False


def _entry(piece: Piece, slot: Slot, data: bytes, view: memoryview) -> dict:
    """:meth:`Piece.entry`, without the piece's bracket count where the line's own says it cannot nest too
    deeply: a line met in a piece otherwise read from known rows need not cost a pass over the piece."""
    if slot.entry is None and data.count(b"[", slot.start, slot.end) + data.count(b"{", slot.start, slot.end) <= MAX_DEPTH:
        try:
            entry = orjson_loads(view[slot.start : slot.end])
        except ValueError:
            entry = None
        if type(entry) is dict:
            return entry
    return piece.entry(slot)


_NOT_BRACKET = bytes(byte for byte in range(256) if byte not in b"[{\n")


def _bracket_heavy(data: bytes, first_line: int) -> set[int]:
    """The lines of ``data`` (numbered from ``first_line``) with more opening brackets than the depth rule's
    levels: only these can nest too deeply (``may_be_too_deep``). One pass over the piece for all its lines,
    where counting line by line took two; the lines' counts are compared without a loop of Python's."""
    counts = list(map(len, data.translate(None, _NOT_BRACKET).split(b"\n")))
    if max(counts) <= MAX_DEPTH:
        return set()
    return set(compress(count(first_line), map(MAX_DEPTH.__lt__, counts)))


def _chain(first: bytes, rest: Iterator[tuple[bytes, int]]) -> Iterator[tuple[bytes, int]]:
    if first:
        yield first, len(first)
    yield from rest


def _line_pieces(fd: int, path: Path) -> Iterator[tuple[bytes, int]]:
    """The file's bytes after a BOM, as pieces of whole lines: each piece's bytes and where its lines end (the
    start of the next line may follow: it is read again with the next piece). The last piece may end without
    a newline (a tail)."""
    try:
        yield from _pieces(fd)
    except OSError as exc:
        raise SessionFileError(f"cannot read {path}: {exc.strerror}") from None


def _pieces(fd: int) -> Iterator[tuple[bytes, int]]:
    head = os.pread(fd, len(_BOM), 0)
    offset = len(_BOM) if head == _BOM else 0
    pending = bytearray()  # the start of a line longer than what was read so far
    holding = False  # that line may be JSON: it is held whole
    while True:
        chunk = os.pread(fd, PIECE_BYTES, offset)
        if not chunk:
            if pending:
                yield bytes(pending), len(pending)
            return
        cut = chunk.rfind(b"\n") + 1
        if cut:
            offset += cut  # the start of a line after the last newline is read again, with the next piece
            if pending:  # a line longer than a piece ends here
                whole = bytes(pending) + chunk[:cut]
                yield whole, len(whole)
                pending, holding = bytearray(), False
            else:
                # Not cut to its lines: a copy of 8 MB per read, and the fresh memory it needs, was a fifth of
                # `session info` on a 100k-entry file (with the read itself reused, the memory is too).
                yield chunk, cut
            continue
        offset += len(chunk)
        pending += chunk
        if holding or len(pending) <= PIECE_BYTES:
            continue
        verdict = _long_line(pending)
        if verdict is None:
            holding = True
        elif verdict == b"":
            offset, ended = _skip_line(fd, offset)
            stand_in = _STAND_IN + b"\n" if ended else _STAND_IN
            yield stand_in, len(stand_in)
            if not ended:
                return
            pending = bytearray()
        else:
            pending = bytearray(verdict)


def _long_line(pending: bytearray) -> bytes | None:
    """What to keep of the start of a line longer than a piece: ``None`` for all of it (a JSON parser may read
    it), ``b""`` for nothing (no parser reads it: skip it), else a byte that stands for a start of blanks and
    decides the line as they do (``\\r`` and ``\\x0b`` are blanks but change what may follow)."""
    spaces = _JSON_SPACE.match(pending).end()  # type: ignore[union-attr]
    if spaces == len(pending):
        return b"\r" if b"\r" in pending else b" "  # the scanner's prefix allows spaces and tabs only
    if pending[spaces] in _STARTS_JSON:
        return None
    if _NOT_BLANK.search(pending, spaces) is None:
        return b"\x0b"  # blank so far, yet no JSON value can start after it: blank or garbage
    return b""


def _skip_line(fd: int, offset: int) -> tuple[int, bool]:
    """The offset after the newline that ends the line ``offset`` is in, and ``True``; or EOF and ``False``.
    Holes hold no newline: they are jumped over, not read."""
    while True:
        try:
            offset = os.lseek(fd, offset, _SEEK_DATA)
        except OSError as exc:
            if exc.errno == errno.ENXIO:  # nothing but a hole up to the end
                return offset, False
            # SEEK_DATA unsupported here (EINVAL): read every byte
        chunk = os.pread(fd, PIECE_BYTES, offset)
        if not chunk:
            return offset, False
        newline = chunk.find(b"\n")
        if newline >= 0:
            return offset + newline + 1, True
        offset += len(chunk)
