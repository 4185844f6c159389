"""Checking a session file line by line, and planning a repaired copy of it.

Opening a session tolerates damage and reads only what it needs; the doctor parses every line in full and
names every problem, with its line number and entry id, so a user knows what a crash, a bad merge or a hand
edit did to a file. The same pass decides how a repaired copy would look (:mod:`pi_compact.store.repair`
writes it); the original file is only ever read.

Problem kinds. Errors (the file, or what pi and we build from it, is damaged):
``empty``, ``missing_header``, ``corrupt_header``, ``torn_tail``, ``invalid_json``, ``invalid_utf8``,
``not_object``, ``extra_header``, ``missing_id``, ``bad_type``, ``duplicate_id``, ``bad_parent``,
``self_parent``, ``dangling_parent``, ``cycle``, ``bad_timestamp``, ``bad_field``, ``first_kept_missing``,
``first_kept_not_ancestor``, and, for a file on disk, ``only_in_backup`` (:mod:`pi_compact.store.backups`). Warnings (readable, but not what pi writes): ``bom``, ``crlf``,
``no_final_newline``, ``bad_version``, ``unknown_version``, ``unknown_type``, ``unknown_role``,
``label_target_missing``, ``too_deep`` (nested deeper than :data:`~pi_compact.store.depth.MAX_DEPTH`: read
with a placeholder below that level; a repaired copy keeps the line as it is).
"""

from __future__ import annotations

import bisect
import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import orjson

from ..types import CURRENT_SESSION_VERSION
from .doctor_fields import MISSING, check_entry, check_header, is_date, js_type
from .doctor_tree import check_links
from .jsonl import new_entry_id, new_session_id, now_iso
from .migrate import header_version, migrate
from .depth import MAX_DEPTH, may_be_too_deep
from .scan import parse_line_depth

ERROR, WARNING = "error", "warning"
_BOM = b"\xef\xbb\xbf"
_WHITESPACE = b" \t\r\n\x0b\x0c"


@dataclass(frozen=True)
class Finding:
    """One problem: what, how bad, where (1-based line number) and which entry (its id in the file)."""

    kind: str
    severity: str
    message: str
    line: int | None = None
    entry_id: str | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}{self.severity} {self.kind}: {self.message}"

    def to_json(self) -> dict:
        return {"line": self.line, "severity": self.severity, "kind": self.kind, "entryId": self.entry_id,
                "message": self.message}


@dataclass(frozen=True)
class Diagnosis:
    """Every problem found in a file, in line order, plus what the file holds."""

    findings: tuple[Finding, ...]
    entries: int
    """Entry lines read (the header, bad lines and extra headers not counted)."""
    version: int | None
    """The version the header declares (1 when it has none); ``None`` without a header."""

    @property
    def clean(self) -> bool:
        return not self.findings

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == ERROR)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity == WARNING)


class Entry:
    """One entry line as the doctor sees it: the parsed object, where it was, and what repair does to it."""

    __slots__ = ("index", "line", "raw", "value", "original_id", "id", "parent", "orphan", "drop", "changed")

    def __init__(self, index: int, line: int, raw: bytes | None, value: dict) -> None:
        self.index = index
        self.line = line
        self.raw = raw
        """The line's bytes, written unchanged to a repaired copy when nothing about the entry changes."""
        self.value = value
        self.original_id = _string_id(value)
        self.id: str = ""
        self.parent: Entry | None = None
        self.orphan = False
        """Its parent link is broken (missing, wrong type, self, on a cycle): repair re-attaches it."""
        self.drop: str | None = None
        """Why a repaired copy leaves this entry out (its children then hang from its parent)."""
        self.changed = False


def diagnose(data: bytes) -> Diagnosis:
    """Check a session file's bytes."""
    return Doctor(data).run().diagnosis()


class Doctor:
    """One pass over a file: findings, plus the plan a repaired copy follows (ids, parents, drops, fixes)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.findings: list[Finding] = []
        self.actions: list[str] = []
        self.header: dict | None = None
        self.header_raw: bytes | None = None
        self.header_changed = False
        self.salvage: dict = {}
        self.version: int | None = None
        self.entries: list[Entry] = []
        self.last_good_stamp: str | None = None
        self._occurrences: dict[str, list[Entry]] = {}

    # -- findings ----------------------------------------------------------------------------------------------

    def error(self, kind: str, message: str, line: int | None = None, entry_id: Any = None) -> None:
        self._add(ERROR, kind, message, line, entry_id)

    def warning(self, kind: str, message: str, line: int | None = None, entry_id: Any = None) -> None:
        self._add(WARNING, kind, message, line, entry_id)

    def _add(self, severity: str, kind: str, message: str, line: int | None, entry_id: Any) -> None:
        shown = entry_id if isinstance(entry_id, str) else None
        self.findings.append(Finding(kind, severity, message, line, shown))

    def diagnosis(self) -> Diagnosis:
        ordered = sorted(self.findings, key=lambda f: (f.line is not None, f.line or 0))
        return Diagnosis(tuple(ordered), len(self.entries), self.version)

    # -- the pass ----------------------------------------------------------------------------------------------

    def run(self) -> "Doctor":
        with _paused_gc():
            self._read_lines()
            if self.header is not None:
                check_header(self)
                self._migrate()
            for entry in self.entries:
                check_entry(self, entry)
            self._assign_ids()
            check_links(self)
        return self

    def _read_lines(self) -> None:
        data, start = self.data, 0
        if data.startswith(_BOM):
            self.warning("bom", "the file starts with a byte-order mark (pi never writes one)", 1)
            start = len(_BOM)
        lines = data[start:].split(b"\n")
        has_tail = bool(lines[-1].strip(_WHITESPACE))
        if not has_tail:
            lines.pop()
        crlf: list[int] = []
        state = _HeaderSearch()
        for number, raw in enumerate(lines, start=1):
            if raw.endswith(b"\r"):
                raw = raw[:-1]
                crlf.append(number)
            if raw.strip(_WHITESPACE):
                self._read_line(number, raw, state, is_tail=has_tail and number == len(lines))
        if crlf:
            self.warning("crlf", f"{len(crlf)} line(s) end with CRLF (pi writes LF)", crlf[0])
        self._finish_header_search(state)

    def _read_line(self, number: int, raw: bytes, state: "_HeaderSearch", is_tail: bool) -> None:
        value, utf8_ok, found = _parse(raw)
        if not utf8_ok:
            self.error("invalid_utf8", "bytes that are not UTF-8 (read as U+FFFD, as pi does)", number)
            raw = None  # type: ignore[assignment]
        if found:
            self.warning("too_deep", f"nested {found:,} levels, deeper than {MAX_DEPTH}: read cut at level {MAX_DEPTH} "
                         "(pi-compact writes no deeper line; a repaired copy keeps this one)", number,
                         value.get("id") if isinstance(value, dict) else None)
        if is_tail and value is not MISSING:
            self.warning("no_final_newline", "the last line does not end with a newline", number)
        if value is MISSING:
            self._unparsable(number, raw, state, is_tail)
        elif self.header is None and not state.gave_up:
            self._header_candidate(number, raw, value, state)
        elif not isinstance(value, dict):
            self.error("not_object", f"a JSON {js_type(value)}, not an object", number)
        elif value.get("type") != "session":
            self._add_entry(number, raw, value)
        elif self.header is None and isinstance(value.get("id"), str):
            self.header, self.header_raw = value, raw  # a header further down: a repaired copy starts with it
        else:
            self.error("extra_header", "another session header line (pi's duplicate-header bug?)", number)

    def _unparsable(self, number: int, raw: bytes | None, state: "_HeaderSearch", is_tail: bool) -> None:
        if self.header is None and not state.gave_up and state.first_bad is None:
            state.first_bad = (number, raw)  # the header, perhaps: decided once a later line parses
        elif is_tail:
            self.error("torn_tail", "incomplete last line (a crash in the middle of an append)", number)
        else:
            self.error("invalid_json", "not valid JSON", number)

    def _header_candidate(self, number: int, raw: bytes | None, value: Any, state: "_HeaderSearch") -> None:
        if isinstance(value, dict) and value.get("type") == "session" and isinstance(value.get("id"), str):
            if state.first_bad is not None:
                self.error("invalid_json", "not valid JSON", state.first_bad[0])
            self.header, self.header_raw = value, raw
            return
        state.gave_up = True
        if isinstance(value, dict) and value.get("type") == "session":
            self.error("corrupt_header", "the session header has no string id", number)
            self.salvage = {k: value[k] for k in ("id", "timestamp", "cwd") if isinstance(value.get(k), str)}
            return
        if state.first_bad is not None:
            line, bad = state.first_bad
            self.error("corrupt_header", "the first line, the session header, is not valid JSON", line)
            self.salvage = _salvage(bad or b"")
        else:
            self.error("missing_header", "the file has no session header: this line is the first", number)
        if isinstance(value, dict):
            self._add_entry(number, raw, value)
        else:
            self.error("not_object", f"a JSON {js_type(value)}, not an object", number)

    def _finish_header_search(self, state: "_HeaderSearch") -> None:
        if self.header is not None or state.gave_up:
            return
        if state.first_bad is None:
            self.error("empty", "the file holds no session header and no entries")
            return
        line, bad = state.first_bad
        self.error("corrupt_header", "the session header is not valid JSON and nothing else is", line)
        self.salvage = _salvage(bad or b"")

    def _add_entry(self, number: int, raw: bytes | None, value: dict) -> None:
        self.entries.append(Entry(len(self.entries), number, raw, value))

    # -- versions and ids --------------------------------------------------------------------------------------

    def _migrate(self) -> None:
        assert self.header is not None
        self.version = header_version(self.header) if "version" in self.header else 1
        if header_version(self.header) >= CURRENT_SESSION_VERSION:
            return
        # The header's line is not kept; it only numbers the header, which gets no id.
        migrate([self.header, *(entry.value for entry in self.entries)], [0, *(entry.line for entry in self.entries)])
        self.header_changed = True
        for entry in self.entries:
            entry.changed = True
            entry.original_id = _string_id(entry.value)
        self.actions.append(f"migrated from version {self.version} to {CURRENT_SESSION_VERSION}, as pi does on open")

    def _assign_ids(self) -> None:
        taken = {e.original_id for e in self.entries if e.original_id}
        for entry in self.entries:
            original = entry.original_id
            if not original:
                self.error("missing_id", "entry without an id (or an empty one)", entry.line)
                entry.id = self._fresh_id(entry, taken, "had no id")
            elif original in self._occurrences:
                first = self._occurrences[original][0]
                self.error("duplicate_id", f"id {original} is already used on line {first.line}", entry.line, original)
                entry.id = self._fresh_id(entry, taken, f"duplicated id {original}")
            else:
                entry.id = original
            if original:
                self._occurrences.setdefault(original, []).append(entry)

    def _fresh_id(self, entry: Entry, taken: set, why: str) -> str:
        fresh = new_entry_id(taken)
        taken.add(fresh)
        entry.value["id"] = fresh
        entry.changed = True
        self.actions.append(f"line {entry.line}: {why}, now {fresh}")
        return fresh

    def resolve(self, ref: str, entry: Entry) -> Entry | None:
        """The entry an id in ``entry`` names: among duplicates, the last one before it in file order, else the
        first one after it (a child follows the copy of its parent that precedes it)."""
        found = self._occurrences.get(ref)
        if found is None:
            return None
        if len(found) == 1:  # the common case: an id used once
            return found[0] if found[0] is not entry else None
        others = [e for e in found if e is not entry]
        position = bisect.bisect_left([e.index for e in others], entry.index)
        return others[position - 1] if position > 0 else others[0]

    def fresh_timestamp(self) -> str:
        """A stand-in for a broken timestamp: the last valid one before it (entries are checked in file order),
        else the header's."""
        if self.last_good_stamp is not None:
            return self.last_good_stamp
        stamp = self.header.get("timestamp") if self.header else None
        return stamp if is_date(stamp) else now_iso()

    def synthesized_header(self) -> dict:
        """A header for a file that lost its own: what could be read from the broken one, else fresh values."""
        session_id = self.salvage.get("id") or new_session_id()
        header = {"type": "session", "version": CURRENT_SESSION_VERSION, "id": session_id}
        stamp = self.salvage.get("timestamp")
        header["timestamp"] = stamp if is_date(stamp) else self.first_timestamp()
        if "cwd" in self.salvage:
            header["cwd"] = self.salvage["cwd"]
        return header

    def first_timestamp(self) -> str:
        for entry in self.entries:
            stamp = entry.value.get("timestamp")
            if is_date(stamp):
                return stamp
        return now_iso()


@contextmanager
def _paused_gc() -> Iterator[None]:
    """The pass allocates millions of objects that all live until it ends: the cyclic collector would walk
    them again and again for nothing (a third of the time on a million-entry file)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _HeaderSearch:
    """Where the search for the header line stands: pi takes the first line that parses."""

    __slots__ = ("first_bad", "gave_up")

    def __init__(self) -> None:
        self.first_bad: tuple[int, bytes | None] | None = None
        self.gave_up = False


def _string_id(value: dict) -> str | None:
    entry_id = value.get("id")
    return entry_id if isinstance(entry_id, str) else None


def _parse(raw: bytes) -> tuple[Any, bool, int]:
    """The line's value (``MISSING`` when it is not JSON), whether its bytes are valid UTF-8, and the depth
    it nests to when that is more than the readers take (else 0; the value is then read cut there)."""
    try:
        value = orjson.loads(raw)  # orjson validates UTF-8 on the way: the fast, common case
    except orjson.JSONDecodeError:
        pass
    else:
        if not may_be_too_deep(raw):
            return value, True, 0
    try:
        raw.decode("utf-8")
        utf8_ok = True
    except UnicodeDecodeError:
        utf8_ok = False
    try:
        value, found = parse_line_depth(raw)
    except ValueError:
        return MISSING, utf8_ok, 0
    return value, utf8_ok, found


_SALVAGE = {key: re.compile(rb'"%s"\s*:\s*"([^"\\]{1,500})"' % key.encode()) for key in ("id", "timestamp", "cwd")}


def _salvage(raw: bytes) -> dict:
    """Fields still readable in a broken header line."""
    found = {}
    for key, pattern in _SALVAGE.items():
        match = pattern.search(raw)
        if match:
            found[key] = match.group(1).decode("utf-8", "replace")
    return found
