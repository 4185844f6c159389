"""Reading a session file's bytes into an index, without parsing what opening does not need.

A session file can hold hundreds of megabytes of tool output. Opening needs, per line, only the entry's
``type``, ``id``, ``parentId`` and ``timestamp``, which pi always writes first: a regular expression reads
them from the line's first bytes, and the rest is parsed when somebody asks for the entry. Lines that do not
start that way (custom entries, hand-written files) and small files are parsed in full, which gives exactly
pi's loading rules: blank and unparsable lines skipped, the first parsed line must be the header.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..errors import CorruptEntryError, NotASessionError
from .depth import MAX_DEPTH, clip, cut_text, may_be_too_deep
from .jsonl import loads

EAGER_PARSE_BYTES = 8 * 1024 * 1024
"""Files up to this size are parsed in full at open: exact validation costs nothing noticeable there."""

ALWAYS_PARSED_TYPES = frozenset({b"label", b"session_info"})
"""Entry types whose fields open needs (labels and the session name)."""

_PREFIX_SOURCE = (
    rb'[ \t]*\{"type":"([A-Za-z0-9_\-]{1,64})","id":"([^"\\]{1,100})",'
    rb'"parentId":(?:null|"([^"\\]{0,100})"),"timestamp":"([^"\\]{0,64})"'
)
_PREFIX = re.compile(_PREFIX_SOURCE)
_QUICK_PREFIX = re.compile(_PREFIX_SOURCE.replace(rb'[^"\\]', rb'[^"]'))
""":data:`_PREFIX` with strings that may hold a backslash: where what it matches holds none, :data:`_PREFIX`
matches the same (the same groups), read faster (a class of one character); it matches wherever
:data:`_PREFIX` does."""
_BOM = b"\xef\xbb\xbf"
_WHITESPACE = b" \t\r\n\x0b\x0c"


@dataclass(frozen=True)
class Problem:
    """Something wrong with a file, found while reading it; reading goes on."""

    kind: str
    message: str
    line: int | None = None
    entry_id: str | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return where + self.message

    def to_json(self) -> dict:
        """As ``--json`` prints it: ``{line, kind, message, entryId}``."""
        return {"line": self.line, "kind": self.kind, "message": self.message, "entryId": self.entry_id}


class Slot:
    """One entry line: where it is, what open needs to know, and the parsed entry once somebody asked."""

    __slots__ = ("line", "start", "end", "type", "id", "parent_id", "timestamp", "entry")

    def __init__(self, line: int, start: int, end: int, entry: dict | None, fields: tuple | None = None):
        self.line = line
        self.start = start
        self.end = end
        self.entry = entry
        if entry is not None:
            parent = entry.get("parentId")
            self.type = entry.get("type")
            self.id = entry.get("id")
            self.parent_id = parent if isinstance(parent, str) else None
            self.timestamp = entry.get("timestamp")
        else:
            self.type, self.id, self.parent_id, self.timestamp = fields  # type: ignore[misc]


def _lazy_slot(line: int, start: int, end: int, kind: str, entry_id: str, parent_id: str | None, timestamp: str) -> Slot:
    """A slot whose entry is not parsed yet (the scanner's hot path: no tuple, no branches)."""
    slot = _new_slot(Slot)
    slot.line, slot.start, slot.end, slot.entry = line, start, end, None
    slot.type, slot.id, slot.parent_id, slot.timestamp = kind, entry_id, parent_id, timestamp
    return slot


_new_slot = object.__new__
_UNSEEN: Any = object()


@dataclass
class ScanResult:
    """What :func:`scan` read: the header, one slot per entry line in file order, and the problems seen."""

    header: dict
    slots: list[Slot]
    problems: list[Problem] = field(default_factory=list)
    complete_end: int = 0
    """Offset just past the last newline: where a torn tail would be cut."""
    tail_is_entry: bool = False
    """The bytes after the last newline hold a valid entry (written without its newline)."""
    torn_tail: bool = False
    """The bytes after the last newline are not a valid line: a crash mid-append."""
    header_line: int = 1
    """The line the header is on (blank or unparsable lines may come first)."""
    next_line: int = 0
    """The number the line after the scanned bytes gets."""


def parse_line(raw: bytes | memoryview) -> Any:
    """Parse one line as pi would, or raise ``ValueError``: invalid UTF-8 becomes U+FFFD as in node.

    Containers nested below :data:`~pi_compact.store.depth.MAX_DEPTH` levels are read as a placeholder
    (:func:`parse_line_depth` tells when).
    """
    return parse_line_depth(raw)[0]


def parse_line_depth(raw: bytes | memoryview) -> tuple[Any, int]:
    """:func:`parse_line`, and the depth the line had when it nested deeper than the readers take (else 0)."""
    if not _COULD_BE_JSON.match(raw):  # garbage from its first byte (a hole of NULs, binary): no parser reads it
        raise ValueError("not JSON: no value starts the line")
    try:
        value = loads(raw)
    except ValueError:
        text = bytes(raw).decode("utf-8", errors="replace")
        text, deepest = cut_text(text)  # orjson stops at 1,024 levels, json's recursion far sooner
        return json.loads(text, parse_constant=_reject_constant), deepest if deepest > MAX_DEPTH else 0
    return _clipped(value, raw)


def _clipped(value: Any, raw: bytes | memoryview) -> tuple[Any, int]:
    if not may_be_too_deep(raw if isinstance(raw, bytes) else bytes(raw)):
        return value, 0
    value, found = clip(value)
    return value, found if found > MAX_DEPTH else 0


def too_deep(line: int, entry: Any, found: int) -> Problem:
    """The problem a line nested deeper than the readers take is reported as."""
    entry_id = entry.get("id") if isinstance(entry, dict) else None
    return Problem("too_deep", f"nested {found:,} levels, deeper than {MAX_DEPTH}: read cut at level {MAX_DEPTH}",
                   line, entry_id if isinstance(entry_id, str) else None)


_COULD_BE_JSON = re.compile(rb"[ \t\r\n]*[\[{\"\-0-9tfn]")
"""How a line any JSON parser reads begins. Without this test a 2 GB torn tail of NULs was copied by orjson,
then copied and decoded for the second parser, 8 GB in all, to be refused by both at its first byte."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def scan(data: bytes, *, eager: bool | None = None, first_line: int = 1, base: int = 0) -> ScanResult:
    """Index a whole session file's bytes; raise :class:`NotASessionError` when it has no valid header."""
    if eager is None:
        eager = len(data) <= EAGER_PARSE_BYTES
    start = len(_BOM) if data.startswith(_BOM) else 0
    header, pos, line, problems = _find_header(data, start)
    result = scan_entries(data, pos, eager=eager, first_line=line, base=base)
    result.header, result.header_line = header, line - 1
    result.problems[:0] = problems
    return result


def _find_header(data: bytes, pos: int) -> tuple[dict, int, int, list[Problem]]:
    problems: list[Problem] = []
    header, pos, line = find_header_in(data, pos, 1, problems)
    if header is None:
        no_header(problems)
    return header, pos, line, problems  # type: ignore[return-value]


def find_header_in(data: bytes, pos: int, line: int, problems: list[Problem]) -> tuple[dict | None, int, int]:
    """The header among the lines of ``data`` from ``pos`` on (numbered from ``line``), the offset after it and
    the number of the line after it; ``None`` (and ``len(data)``) when these lines hold none. Unparsable lines
    before it are added to ``problems``; a parsable line that is no header raises :class:`NotASessionError`."""
    for begin, end in _lines(data, pos):
        raw = memoryview(data)[begin:end]
        if _is_blank(raw):
            line += 1
            continue
        try:
            value = parse_line(raw)
        except ValueError:
            problems.append(Problem("invalid_json", "not valid JSON, skipped", line))
            line += 1
            continue
        if isinstance(value, dict) and value.get("type") == "session" and isinstance(value.get("id"), str):
            return value, min(end + 1, len(data)), line + 1
        raise NotASessionError(f"line {line} is not a session header (a header has type \"session\" and an id)")
    return None, len(data), line


def no_header(problems: list[Problem]) -> None:
    """Raise the error of a file whose lines (``problems``: the unparsable ones) hold no header."""
    if problems:
        raise NotASessionError(f"no session header: {len(problems)} line(s), none of them valid JSON")
    raise NotASessionError("empty file: no session header")


def scan_entries(data: bytes, pos: int, *, eager: bool, first_line: int = 1, base: int = 0,
                 end: int | None = None) -> ScanResult:
    """Index entry lines from ``pos`` on, up to ``end`` (default: all of ``data``); offsets in the result are
    ``base`` + offsets into ``data``."""
    size = len(data) if end is None else end
    last_newline = data.rfind(b"\n", pos, size)
    stop = last_newline + 1 if last_newline >= 0 else pos
    result = ScanResult(header={}, slots=[], complete_end=base + stop)
    with _gc_paused():
        line = _index_lines(data, pos, stop, eager, first_line, base, result)
    result.next_line = line + (stop < size)
    if stop < size:
        # Bytes after the last newline: an entry written without its newline, or a crash mid-append.
        view = memoryview(data)
        slot = _read_line(view, stop, size, line, base, result.problems, True)
        if slot is not None:
            result.slots.append(slot)
        result.tail_is_entry = slot is not None
        result.torn_tail = slot is None and not _is_blank(view[stop:size])
    return result


def _index_lines(data: bytes, pos: int, stop: int, eager: bool, line: int, base: int, result: ScanResult) -> int:
    """Index the complete lines in ``data[pos:stop]``; return the number the next line gets.

    The hot loop of opening a big file, hence one flat loop: the prefix of a line pi wrote is read by the
    regular expression (no JSON parsing), anything else goes through :func:`_read_line`.
    """
    slots, problems = result.slots, result.problems
    view = memoryview(data)
    find, quick, append, new_slot = data.find, _QUICK_PREFIX.match, slots.append, _new_slot
    type_names: dict[bytes, str | None] = {kind: None for kind in ALWAYS_PARSED_TYPES}
    while pos < stop:
        end = find(b"\n", pos)
        found = None if eager else quick(data, pos, end)
        if found is not None and find(b"\\", pos, found.end()) >= 0:  # a backslash: the scanner's prefix decides
            found = _PREFIX.match(data, pos, end)
        if found is not None and (data[end - 1] == 0x7D or ends_object(data, pos, end)):
            kind, entry_id, parent, stamp = found.groups()
            name = type_names.get(kind, _UNSEEN)
            if name is _UNSEEN:
                name = type_names[kind] = kind.decode()
            if name is not None:
                # _lazy_slot, inlined: a call per line was a tenth of the loop
                slot = new_slot(Slot)
                slot.line, slot.start, slot.end, slot.entry, slot.type = line, base + pos, base + end, None, name
                slot.id = entry_id.decode("utf-8", "replace")
                slot.parent_id = None if parent is None else parent.decode("utf-8", "replace")
                slot.timestamp = stamp.decode("utf-8", "replace")
                append(slot)
                pos = end + 1
                line += 1
                continue
        slot = _read_line(view, pos, end, line, base, problems, False)
        if slot is not None:
            slots.append(slot)
        pos = end + 1
        line += 1
    return line


def prefix_source_of(kind: str) -> bytes:
    """The source of the scanner's prefix of a line pi wrote, for entries of type ``kind`` only (the id is group
    1): a source, not a compiled pattern, so that a caller deriving another pattern from it never reads
    ``.pattern`` of one it only ever uses with ``match`` (the regex audit would then try it unanchored)."""
    return _PREFIX_SOURCE.replace(rb"([A-Za-z0-9_\-]{1,64})", re.escape(kind.encode()), 1)


def lazy_line_slot(data: bytes, pos: int, end: int, line: int, problems: list[Problem]) -> Slot | None:
    """The slot :func:`scan_entries` makes of the complete line ``data[pos:end]`` when it parses lazily (not
    ``eager``), or ``None`` with the problem it records: the body of its loop, for a scanner that handles most
    lines its own way and hands this the others."""
    found = _PREFIX.match(data, pos, end)
    if found is not None and ends_object(data, pos, end):
        kind, entry_id, parent, stamp = found.groups()
        if kind not in ALWAYS_PARSED_TYPES:
            return _lazy_slot(line, pos, end, kind.decode(), entry_id.decode("utf-8", "replace"),
                              None if parent is None else parent.decode("utf-8", "replace"),
                              stamp.decode("utf-8", "replace"))
    return _read_line(memoryview(data), pos, end, line, 0, problems, False)


def line_slot(data: bytes, pos: int, end: int, line: int, problems: list[Problem], *, eager: bool) -> Slot | None:
    """The slot :func:`scan_entries` makes of the complete line ``data[pos:end]`` (``eager`` as it is given), or
    ``None`` with the problem it records."""
    if eager:
        return _read_line(memoryview(data), pos, end, line, 0, problems, False)
    return lazy_line_slot(data, pos, end, line, problems)


def plain_fields(data: bytes, pos: int, end: int, entry: dict) -> bool:
    """Whether the complete line ``data[pos:end]``, read as ``entry`` with no problem, is indexed alike however
    it is scanned, into a slot known from its type, id, parentId and timestamp alone: strings (a timestamp may
    be missing), a type the index reads nothing of (no label, name or header), and, when the scanner's prefix
    reads the line lazily, the prefix's values (no key written twice)."""
    kind, entry_id, stamp = entry.get("type"), entry.get("id"), entry.get("timestamp")
    if type(kind) is not str or type(entry_id) is not str or (stamp is not None and type(stamp) is not str):
        return False
    if kind == "label" or kind == "session_info" or kind == "session":  # ALWAYS_PARSED_TYPES, and headers
        return False
    found = _PREFIX.match(data, pos, end)
    if found is None or not ends_object(data, pos, end):
        return True  # parsed in full by either scan: its slot is the entry's
    prefix_kind, prefix_id, parent, prefix_stamp = found.groups()
    return (kind == prefix_kind.decode() and entry_id == prefix_id.decode("utf-8", "replace") and "parentId" in entry
            and entry["parentId"] == (None if parent is None else parent.decode("utf-8", "replace"))
            and stamp == prefix_stamp.decode("utf-8", "replace"))


def _lines(data: bytes, pos: int):
    size = len(data)
    while pos < size:
        newline = data.find(b"\n", pos)
        end = size if newline < 0 else newline
        yield pos, end
        pos = end + 1


def _is_blank(raw: memoryview) -> bool:
    return _NOT_BLANK.search(raw) is None  # no copy of the line: it may be a 2 GB torn tail


_NOT_BLANK = re.compile(rb"[^ \t\r\n\x0b\x0c]")


def _read_line(view: memoryview, begin: int, end: int, line: int, base: int, problems: list, is_tail: bool) -> Slot | None:
    """Parse one line in full; ``None`` (and a problem, unless it is blank) when it holds no entry."""
    raw = view[begin:end]
    if _is_blank(raw):
        return None
    try:
        value, found = parse_line_depth(raw)
    except ValueError:
        kind, text = ("torn_tail", "incomplete last line (a crash mid-append?), ignored") if is_tail else (
            "invalid_json",
            "not valid JSON, skipped",
        )
        problems.append(Problem(kind, text, line))
        return None
    if not isinstance(value, dict):
        problems.append(Problem("not_object", f"a JSON {type(value).__name__}, not an object, skipped", line))
        return None
    if found:
        problems.append(too_deep(line, value, found))
    return Slot(line, base + begin, base + end, value)


def ends_object(data: bytes, begin: int, end: int) -> bool:
    """Whether ``data[begin:end]`` ends with ``}`` (blanks aside): the cheap sanity check of a lazily parsed line
    (a torn line never ends so), for any scanner of lines of pi's."""
    while end > begin and data[end - 1] in _WHITESPACE:
        end -= 1
    return end > begin and data[end - 1] == 0x7D


Report = Callable[[Problem], None]


def parse_slot(data: bytes, slot: Slot, *, keep: bool = True, report: Report | None = None) -> dict:
    """The entry of a lazily indexed slot, parsed now; a line that turns out broken raises.

    It is kept in the slot, unless ``keep`` is false: one pass over a big file must not keep every entry.
    A line nested too deeply is passed to ``report`` (as :func:`too_deep`).
    """
    value, found = parse_in_place(data, slot), 0
    if value is None:  # invalid UTF-8 (read as U+FFFD), a broken or a deep line: the careful way
        try:
            value, found = parse_line_depth(memoryview(data)[slot.start : slot.end])
        except ValueError:
            value = None
    if not isinstance(value, dict):
        raise CorruptEntryError(
            f"line {slot.line} (entry {slot.id}) is not valid JSON; run `pi-compact session doctor`"
        )
    if found and report is not None:
        report(too_deep(slot.line, value, found))
    if keep:
        slot.entry = value
    return value


def parse_in_place(data: bytes, slot: Slot) -> dict | None:
    """The slot's entry when its line is an object orjson reads and too shallow to need clipping; else
    ``None`` (the careful path decides). No copy of the line: a pass over a big file parses every line."""
    try:
        entry = loads(memoryview(data)[slot.start : slot.end])
    except ValueError:
        return None
    return entry if isinstance(entry, dict) and not may_be_too_deep_at(data, slot) else None


def parse_slots(data: bytes, slots: list[Slot], report: Report | None = None) -> list[dict]:
    """The entries of many slots, parsed where not yet (a context's worth, say), in one go."""
    entries = []
    with _gc_paused():
        for slot in slots:
            entry = slot.entry
            if entry is None:
                entry = slot.entry = parse_in_place(data, slot)
                if entry is None:
                    entry = parse_slot(data, slot, report=report)
            entries.append(entry)
    return entries


def may_be_too_deep_at(data: bytes, slot: Slot) -> bool:
    """:func:`~pi_compact.store.depth.may_be_too_deep` on a slot's line, without copying it."""
    return data.count(b"[", slot.start, slot.end) + data.count(b"{", slot.start, slot.end) > MAX_DEPTH


@contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector while a batch of objects is created.

    Indexing a big file creates a slot per line, and parsing a context's worth of entries hundreds of
    thousands of dicts and lists: the collections they trigger, each walking every slot alive, cost as much
    as the work itself. Neither holds reference cycles, so nothing is lost by collecting later.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
