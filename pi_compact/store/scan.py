"""Reading a session file's bytes into an index, without parsing what opening does not need.

A session file can hold hundreds of megabytes of tool output. Opening needs, per line, only the entry's
``type``, ``id``, ``parentId`` and ``timestamp``, which pi always writes first: a regular expression reads
them from the line's first bytes, and the rest is parsed when somebody asks for the entry. Lines that do not
start that way (custom entries, hand-written files) and small files are parsed in full, which gives exactly
pi's loading rules: blank and unparsable lines skipped, the first parsed line must be the header.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import CorruptEntryError, NotASessionError
from .jsonl import loads

EAGER_PARSE_BYTES = 8 * 1024 * 1024
"""Files up to this size are parsed in full at open: exact validation costs nothing noticeable there."""

ALWAYS_PARSED_TYPES = frozenset({b"label", b"session_info"})
"""Entry types whose fields open needs (labels and the session name)."""

_PREFIX = re.compile(
    rb'[ \t]*\{"type":"([A-Za-z0-9_\-]{1,64})","id":"([^"\\]{1,100})",'
    rb'"parentId":(?:null|"([^"\\]{0,100})"),"timestamp":"([^"\\]{0,64})"'
)
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


def parse_line(raw: bytes | memoryview) -> Any:
    """Parse one line as pi would, or raise ``ValueError``: invalid UTF-8 becomes U+FFFD as in node."""
    try:
        return loads(raw)
    except ValueError:
        text = bytes(raw).decode("utf-8", errors="replace")
        return json.loads(text, parse_constant=_reject_constant)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def scan(data: bytes, *, eager: bool | None = None, first_line: int = 1, base: int = 0) -> ScanResult:
    """Index a whole session file's bytes; raise :class:`NotASessionError` when it has no valid header."""
    if eager is None:
        eager = len(data) <= EAGER_PARSE_BYTES
    start = len(_BOM) if data.startswith(_BOM) else 0
    header, pos, line, problems = _find_header(data, start)
    result = scan_entries(data, pos, eager=eager, first_line=line, base=base)
    result.header = header
    result.problems[:0] = problems
    return result


def _find_header(data: bytes, pos: int) -> tuple[dict, int, int, list[Problem]]:
    problems: list[Problem] = []
    line = 1
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
            return value, min(end + 1, len(data)), line + 1, problems
        raise NotASessionError(f"line {line} is not a session header (a header has type \"session\" and an id)")
    if problems:
        raise NotASessionError(f"no session header: {len(problems)} line(s), none of them valid JSON")
    raise NotASessionError("empty file: no session header")


def scan_entries(data: bytes, pos: int, *, eager: bool, first_line: int = 1, base: int = 0) -> ScanResult:
    """Index entry lines from ``pos`` on; offsets in the result are ``base`` + offsets into ``data``."""
    result = ScanResult(header={}, slots=[], complete_end=base + pos)
    line = first_line
    view = memoryview(data)
    size = len(data)
    for begin, end in _lines(data, pos):
        is_tail = end == size and (size == 0 or data[size - 1 : size] != b"\n")
        slot = _read_line(data, view, begin, end, line, eager or is_tail, base, result.problems, is_tail)
        if slot is not None:
            result.slots.append(slot)
        if is_tail:
            result.tail_is_entry = slot is not None
            result.torn_tail = slot is None and not _is_blank(view[begin:end])
        else:
            result.complete_end = base + end + 1
        line += 1
    return result


def _lines(data: bytes, pos: int):
    size = len(data)
    while pos < size:
        newline = data.find(b"\n", pos)
        end = size if newline < 0 else newline
        yield pos, end
        pos = end + 1


def _is_blank(raw: memoryview) -> bool:
    return not bytes(raw).strip(_WHITESPACE)


def _read_line(data, view, begin, end, line, parse, base, problems, is_tail) -> Slot | None:
    if not parse:
        match = _PREFIX.match(data, begin, end)
        if match is not None and match.group(1) not in ALWAYS_PARSED_TYPES and _ends_object(data, begin, end):
            parent = match.group(3)
            fields = (
                match.group(1).decode(),
                match.group(2).decode("utf-8", "replace"),
                parent.decode("utf-8", "replace") if parent is not None else None,
                match.group(4).decode("utf-8", "replace"),
            )
            return Slot(line, base + begin, base + end, None, fields)
    raw = view[begin:end]
    if _is_blank(raw):
        return None
    try:
        value = parse_line(raw)
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
    return Slot(line, base + begin, base + end, value)


def _ends_object(data: bytes, begin: int, end: int) -> bool:
    """Cheap sanity check for lazily parsed lines: a torn line never ends with ``}``."""
    while end > begin and data[end - 1] in _WHITESPACE:
        end -= 1
    return end > begin and data[end - 1] == 0x7D


def parse_slot(data: bytes, slot: Slot) -> dict:
    """The entry of a lazily indexed slot, parsed now; a line that turns out broken raises."""
    try:
        value = parse_line(memoryview(data)[slot.start : slot.end])
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise CorruptEntryError(
            f"line {slot.line} (entry {slot.id}) is not valid JSON; run `pi-compact session doctor`"
        )
    slot.entry = value
    return value
