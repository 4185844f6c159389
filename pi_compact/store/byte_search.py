"""Which lines of a session file may hold a search's match, told from their bytes without parsing them.

:func:`pi_compact.recaller.recall` searches an entry's text case-insensitively (case folding); parsing every
line of a 290 MB file to do so costs seconds. A text's characters are mostly in its line's bytes as they are,
so a line whose lowered bytes lack a run of the query's word characters cannot match: :func:`line_filter`
tests one line, :func:`candidate_slots` every line of an opened file in one pass. Both may let through a line
that does not match (the caller parses and tests it), never hold back one that does: the lines whose bytes
cannot tell (a ``\\u`` escape, a character whose case folding makes ASCII, a line nested too deeply to be
read whole) are let through or tested in full.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable

from .depth import CUT_MARK
from .index import SessionIndex
from .scan import Slot, may_be_too_deep_at

_RUN = re.compile(r"[\w.-]+")
"""Characters JSON writes as themselves (or as a ``\\u`` escape) and no join of a text's fields is made of
(``\\n``, ``name(``, ``$ ``): a text holding a run of them holds it within one string of the line. ``-`` and
``.`` join words into one run (``session-manager``, ``index.ts``), rarer in a file than each of its words."""
_NUMBER_TEXT = re.compile(r"[0-9e.-]+")
"""A run a JSON number's text can hold: numbers in tool arguments are shown as orjson writes them, which need
not be as the file writes them (``1.5e3`` becomes ``1500.0``), so such runs are not looked for in the bytes
(a number's neighbours, ``:,[]}`` and blanks, are never in a run: a run is all number or no part of one)."""


FOLDS_TO_ASCII = "\xdf\u0130\u0149\u017f\u01f0\u1e96\u1e97\u1e98\u1e99\u1e9a\u1e9e\u212a\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06"
"""The characters beyond ASCII whose case folding holds an ASCII character, a word character in every case
(ß → ss, ſ → s, K → k, ﬁ → fi); a test derives the list from the running Python's Unicode tables."""
_FOLDS_TO_ASCII = re.compile(b"|".join(re.escape(char.encode()) for char in FOLDS_TO_ASCII))
_ASCII = bytes(range(128))


def _tokens(query: str) -> list[str] | None:
    """The runs a matching text holds, to look for in the bytes; ``None`` when the bytes cannot tell."""
    folded = query.casefold()
    tokens = [run for run in _RUN.findall(folded) if not _NUMBER_TEXT.fullmatch(run)]
    if not tokens or any(char in folded for char in '"\\') or any(ord(char) < 0x20 for char in folded):
        return None
    return tokens


def line_filter(query: str) -> Callable[[bytes], bool]:
    """A test of a JSONL line's bytes that is false only when the entry's text cannot match ``query``.

    A match holds every run of the case-folded query (word characters, ``-`` and ``.``: see :data:`_RUN`;
    joins between fields are never such characters, so no run spans two fields). Outside JSON escapes a line
    holds each string's characters of a run as they are, and case folding works character by character: the
    run is in the case-folded line too. Lines with ``\\u`` escapes (which may spell any character), and
    queries with characters JSON escapes otherwise (``"``, ``\\``, control characters), are never ruled out.
    A line nested too deeply to be read whole shows a cut mark its bytes lack: :func:`candidate_slots` lets
    such lines through itself.
    """
    tokens = _tokens(query)
    if tokens is None:
        return lambda raw: True
    ascii_tokens = [token.encode() for token in tokens] if all(token.isascii() for token in tokens) else None

    def may_match(raw: bytes) -> bool:
        if b"\\u" in raw:
            return True
        if ascii_tokens is not None and (raw.isascii() or not _FOLDS_TO_ASCII.search(raw.translate(None, _ASCII))):
            lowered = raw.lower()  # case folding, for the ASCII runs of a line none of whose characters fold to ASCII
            return all(token in lowered for token in ascii_tokens)
        if raw.isascii():
            return False  # a run beyond ASCII cannot be in it
        text = raw.decode("utf-8", "replace").casefold()
        return all(token in text for token in tokens)

    return may_match


def candidate_slots(index: SessionIndex, query: str, scope: list[Slot]) -> list[Slot]:
    """The slots of ``scope`` that :func:`line_filter` lets through, for every line of an opened file at once:
    the lines holding every run of the query, found in one pass over the file that also finds the lines only
    :func:`line_filter` itself can tell about (an escape, a character folding into a run), usually none."""
    return candidates_in(index.file_bytes, query, scope)


def candidates_in(data: bytes, query: str, scope: list[Slot]) -> list[Slot]:
    """:func:`candidate_slots` of slots whose lines are in ``data``: a whole file's bytes, or a piece of one
    read in pieces (:class:`~pi_compact.store.stream.Piece`; what follows its last whole line changes nothing,
    a line's test being of its own bytes)."""
    per_line = line_filter(query)
    tokens = _tokens(query)
    deep = _too_deep_lines(data, scope) if tokens and any(t in run for t in tokens for run in _CUT_MARK_RUNS) else set()
    if tokens is None or not all(token.isascii() for token in tokens) or not data:
        return [slot for slot in scope if slot.entry is not None or slot.start < 0 or slot.start in deep
                or per_line(data[slot.start : slot.end])]
    runs = sorted({token.encode() for token in tokens}, key=len, reverse=True)
    holding, unsure = _lines_holding(data, runs, _line_spans(scope))
    holding |= deep
    if not unsure:  # no line whose bytes cannot tell (nearly every file): no test of a line by itself
        # a line parsed already (or never read from the file): the exact test costs nothing more
        return [slot for slot in scope if slot.start in holding or slot.entry is not None or slot.start < 0]

    def may_match(slot: Slot) -> bool:
        start = slot.start
        if slot.entry is not None or start < 0:
            return True  # as above
        if start in unsure and start not in holding:
            return per_line(data[start : slot.end])
        return start in holding

    return [slot for slot in scope if may_match(slot)]


def _line_spans(scope: list[Slot]) -> tuple[list[int], list[Slot]]:
    """The starts of the lines of ``scope`` read from the file, and their slots, in file order: which line an
    offset is in is told by a binary search, without looking for the newlines around it (a word found in
    most lines was a line-wide search backwards and forwards per line)."""
    starts = [slot.start for slot in scope]
    if starts == sorted(starts) and (not starts or starts[0] >= 0):  # a piece's lines, a whole file's
        return starts, scope
    lines = sorted((slot for slot in scope if slot.start >= 0), key=lambda slot: slot.start)  # a branch's
    return [slot.start for slot in lines], lines


def _too_deep_lines(data: bytes, scope: list[Slot]) -> set[int]:
    """The starts of the lines of ``scope`` not parsed yet that may nest too deeply to be read whole: their
    text may hold :data:`~pi_compact.store.depth.CUT_MARK`, which their bytes do not."""
    return {slot.start for slot in scope if slot.entry is None and slot.start >= 0 and may_be_too_deep_at(data, slot)}


def _lines_holding(data: bytes, runs: list[bytes], spans: tuple[list[int], list[Slot]]) -> tuple[set[int], set[int]]:
    """The start offsets of the lines of ``data`` among ``spans`` (their starts and slots, in file order) whose
    lowered bytes hold every one of ``runs`` (ASCII, longest first), and of the lines whose bytes cannot tell:
    those holding a ``\\u`` escape or a character whose case folding can make part of a run (see
    :func:`folding_into`).

    The file is read a part of whole lines at a time (a lowered copy of a whole 290 MB file cost more in fresh
    memory than the search itself, and doubled the peak), lowered or as written (:class:`_RunSearch`), and each
    part is read for every run while it is in the processor's cache. Escapes are looked for after, only between the lines found holding every run (what
    those lines hold in escapes changes nothing: a tenth of a common word's search). Each run is searched from one occurrence to the next, skipping the rest of each line
    found, rather than line by line (a word found in few lines costs a few searches, not one per line; a
    common one a search per line holding it). A line's bounds are its slot's, the one ``spans`` starts last
    before an occurrence (no run holds a newline); an occurrence between them (in the header, a line of
    another type) is passed over to the next. An occurrence in a key counts only inside a tool call's
    ``"arguments"`` (see :data:`_KEY_REST`, :func:`_in_arguments`): ``timestamp``, ``content`` or ``cacheRead``
    are keys of nearly every line, and parsing each line to find the word in none of its texts cost seconds
    (a line merely holding arguments, a quarter of a session's, let its ``usage`` keys through).
    """
    starts, slots = spans
    holding: list[dict[int, int]] = [{} for _ in runs]  # per run, the lines holding it: start, end
    keyed: list[dict[int, tuple[int, list[int]]]] = [{} for _ in runs]  # per run, lines holding it in keys: end, where
    unsure: set[int] = set()
    folding = [char.encode() for char in folding_into([run.decode() for run in runs])]
    search = _RunSearch(data, runs, starts, slots, holding, keyed)
    first, size, dense = holding[0], len(data), False
    pos = 0
    while pos < size:  # a part of whole lines at a time: no run spans two
        stop = data.find(b"\n", min(pos + _PIECE_BYTES, size) - 1) + 1 or size
        low, high = bisect_left(starts, pos), bisect_left(starts, stop)  # the lines of scope starting here
        held_before = len(first)
        if dense:
            search.lowered_lines_missed(pos, stop, low, high)
        else:
            search.in_text(data[pos:stop].lower(), pos, pos, stop)
        # most lines holding the first run (a common word): the next part is searched as it is written first
        dense = 2 * (len(first) - held_before) > high - low > 0
        pos = stop
    for found, in_keys in zip(holding, keyed):
        found.update((start, end) for start, (end, keys) in in_keys.items()
                     if start not in found and _in_arguments(data, start, end, keys))
    held = holding[0]
    for found in holding[1:]:
        held = {start: end for start, end in held.items() if start in found}
    _find_escapes(data, held, unsure)
    for char in folding:
        _find_character(data, char, unsure)
    return set(held), unsure


class _RunSearch:
    """The search of :func:`_lines_holding`, part by part: each run looked for in a text that is the file's
    lowered bytes from some offset (or the file's own bytes), lines found added to ``holding`` (a run in a
    text) or ``keyed`` (a run in keys only, so far).

    A part holding a common word is searched in its bytes as they are first (a run written in lower case is
    in the lowered bytes at the same place), and only its lines that do not hold every run so are lowered and
    searched again, from their start: a line is then searched as a lowered part would search it. Lowering
    every byte of a 290 MB file was a sixth of a search for a word found in most of its lines."""

    def __init__(self, data: bytes, runs: list[bytes], starts: list[int], slots: list[Slot],
                 holding: list[dict[int, int]], keyed: list[dict[int, tuple[int, list[int]]]]) -> None:
        self.data, self.runs, self.starts, self.slots = data, runs, starts, slots
        self.holding, self.keyed = holding, keyed
        self.overlapping = any(_overlaps_itself(run) for run in runs)

    def lowered_lines_missed(self, pos: int, stop: int, low: int, high: int) -> None:
        """Search the part from ``pos`` to ``stop`` (the lines of scope ``low`` to ``high``) in its bytes, then
        the lines it has that do not hold every run, lowered, runs of them at once."""
        data, starts, slots, holding = self.data, self.starts, self.slots, self.holding
        self.in_text(data, 0, pos, stop)
        if len(holding) == 1:  # one run (most queries): no test of each line against every run's lines
            first = holding[0]
            missed = [number for number in range(low, high) if starts[number] not in first]
        else:
            missed = [number for number in range(low, high) if not all(starts[number] in found for found in holding)]
        # searched again from their start: the keys found so far are found again, after (the last key of a
        # line kept is still its last: _in_arguments looks for arguments up to it)
        at = 0
        while at < len(missed):
            last = at
            while last + 1 < len(missed) and missed[last + 1] == missed[last] + 1:
                last += 1
            begin, end = starts[missed[at]], slots[missed[last]].end
            lowered = data[begin:end].lower()
            if not self._as_written(lowered, begin, end):
                self.in_text(lowered, begin, begin, end)
            at = last + 1

    def _as_written(self, lowered: bytes, begin: int, end: int) -> bool:
        """Whether the file's bytes from ``begin`` to ``end``, lowered as ``lowered``, hold each run exactly where
        they hold it as written: then searching them lowered finds the very occurrences the search as written
        found (each at the same place, the bytes after it the same), and changes nothing. A run that cannot
        overlap itself (no start of it is also its end) is at as many places lowered as counted: lowering keeps
        every place it was at as written, so the same count is the same places."""
        data = self.data
        return not self.overlapping and all(lowered.count(run) == data.count(run, begin, end) for run in self.runs)

    def in_text(self, text: bytes, base: int, pos: int, stop: int) -> None:
        """Each run's occurrences from ``pos`` to ``stop`` in ``text`` (the file's bytes from ``base``, lowered,
        or the file's own bytes: ``base`` 0). Each run is searched from one occurrence to the next, skipping
        the rest of each line found. A line's bounds are its slot's, the one ``starts`` starts last before an
        occurrence (no run holds a newline); an occurrence between them (in the header, a line of another
        type) is passed over to the next line of scope. An occurrence in a key is kept for
        :func:`_in_arguments`."""
        data, starts, slots, find, key_rest = self.data, self.starts, self.slots, text.find, _KEY_REST.match
        begin, end = pos - base, stop - base
        for run, found, in_keys in zip(self.runs, self.holding, self.keyed):
            size = len(run)
            line_start, line_end, keys = 0, -1, None
            at = find(run, begin, end)
            while at >= 0:
                where = base + at
                if where > line_end:  # a line of its own, its bounds looked for once however many keys hold it
                    span = bisect_right(starts, where) - 1
                    if span < 0 or where >= slots[span].end:
                        after = starts[span + 1] - base if span + 1 < len(starts) else end
                        at = find(run, after, end) if after < end else -1
                        continue
                    line_start, line_end, keys = starts[span], slots[span].end, None
                rest = key_rest(data, where + size)
                if rest is not None:  # in a key (of nearly every line)
                    if keys is None:  # the line's list of keys, looked up once per line
                        kept = in_keys.get(line_start)
                        if kept is None:
                            kept = in_keys[line_start] = line_end, []
                        keys = kept[1]
                    keys.append(where)
                    # the line may hold it in a text further on, never further in this key: searched from the
                    # key's end (from the run's, a key made of the run repeated was read to its end per run)
                    at = find(run, rest.end() - base, end)
                    continue
                found[line_start] = line_end
                at = find(run, line_end - base, end) if line_end < stop else -1


def _overlaps_itself(run: bytes) -> bool:
    """Whether two occurrences of ``run`` may overlap: a start of it is also its end (``aa``, ``abab``)."""
    return any(run[:size] == run[-size:] for size in range(1, len(run)))


def _find_escapes(data: bytes, held: dict[int, int], unsure: set[int]) -> None:
    """Add to ``unsure`` the starts of the lines holding a ``\\u`` escape, of those outside ``held`` (the
    lines' starts and ends). A ``\\U`` is no JSON escape: a line holding one does not parse."""
    at = 0
    for start in sorted(held):
        if start - at > 1:  # room for an escape
            _find_escapes_in(data, at, start, unsure)
        at = held[start]
    _find_escapes_in(data, at, len(data), unsure)


def _find_escapes_in(data: bytes, at: int, stop: int, unsure: set[int]) -> None:
    found = _ESCAPE.search(data, at, stop)
    while found is not None:
        start, end = _line_bounds(data, found.start())
        unsure.add(start)
        found = _ESCAPE.search(data, end, stop)


def _find_character(data: bytes, char: bytes, unsure: set[int]) -> None:
    """Add to ``unsure`` the starts of the lines holding the UTF-8 bytes ``char``, looked for by their last
    byte (a byte that only follows others in UTF-8, rare in a file that is mostly ASCII: ``bytes.find``
    of a single byte runs many times faster than of several)."""
    last = char[-1:]
    at = data.find(last, len(char) - 1)
    while at >= 0:
        if data.startswith(char, at - len(char) + 1):
            start, end = _line_bounds(data, at)
            unsure.add(start)
            at = end
        at = data.find(last, at + 1)


def folding_into(runs: list[str]) -> str:
    """The characters of :data:`FOLDS_TO_ASCII` whose case folding can make part of an occurrence of one of
    ``runs`` (case-folded ASCII): their folding and the run overlap in equal characters, the overlap starting
    the folding unless it starts the run, and ending the folding unless it ends the run (ß folds to ``ss``,
    which may end ``class``; ẗ folds to ``t`` and a combining mark, which may end ``enoent`` but not be
    inside ``fetch``)."""
    return "".join(char for char in FOLDS_TO_ASCII if any(_overlaps(char.casefold(), run) for run in runs))


def _overlaps(folded: str, run: str) -> bool:
    for begin in range(len(folded)):
        for stop in range(begin + 1, len(folded) + 1):
            part = folded[begin:stop]
            at = run.find(part)
            while at >= 0:
                if (begin == 0 or at == 0) and (stop == len(folded) or at + len(part) == len(run)):
                    return True
                at = run.find(part, at + 1)
    return False


def _line_bounds(data: bytes, at: int) -> tuple[int, int]:
    """The start and the end (its newline, or the end of the file) of the line holding offset ``at``."""
    end = data.find(b"\n", at)
    return data.rfind(b"\n", 0, at) + 1, len(data) if end < 0 else end


_KEY_REST = re.compile(rb'[A-Za-z0-9_.-]*":')
"""The rest of a key a run is in, matched just after the run: more characters of a run, then the key's closing
quote and its colon. A quote after the run (and more characters of a run, which hold no backslash that could
escape the quote) ends a string, a string followed by ``:`` is a key (in a line that parses: one that does not
holds no entry to find). Whitespace before the ``:`` is not looked for: the run counts then, which costs a
parse, never a hit."""


def _in_arguments(data: bytes, start: int, end: int, keys: list[int]) -> bool:
    """Whether one of the keys at ``keys`` (offsets, in order) of the line from ``start`` to ``end`` is inside the value of a
    key ``"arguments"``: a tool call's arguments are shown as JSON, their keys included (see
    :func:`pi_compact.recaller.recall`); no other key is in an entry's text.

    A quote in a line that parses is a string's, never inside one (JSON escapes it there), so a
    ``"arguments"`` followed by a colon is that key. Its value ends at its closing bracket, found by skipping
    strings whole (a bracket in a string is text); a value that does not close before the line ends (a line
    that does not parse) reaches the line's end: the keys count then, which costs a parse, never a hit."""
    at = data.find(b'"arguments"', start, keys[-1])  # found as bytes first: a regex's search is slower
    ordered = sorted(keys) if at >= 0 else keys  # a part searched again found its keys again, after
    while at >= 0:
        found = _ARGUMENTS.match(data, at, end)
        if found is None:  # the string "arguments", not the key
            at = data.find(b'"arguments"', at + 1, keys[-1])
            continue
        stop = _container_end(data, found.end() - 1, end)
        first = bisect_left(ordered, found.end())  # the keys, not each "arguments" against every key
        if first < len(ordered) and ordered[first] < stop:
            return True
        at = data.find(b'"arguments"', stop, keys[-1])  # an "arguments" inside this value is inside it
    return False


def _container_end(data: bytes, at: int, end: int) -> int:
    """The offset just past the close of the object or array opening at ``at``, or ``end`` (the line's) if it
    does not close before: what is between brackets, strings whole, skipped by one match (a bracket in a
    string is text; an unterminated string reaches ``end``)."""
    level = 0
    while at < end:
        if data[at] == 0x22:  # a string the skip could not match: unterminated
            return end
        level += 1 if data[at] in b"[{" else -1
        at += 1
        if level == 0:
            return at
        at = _BETWEEN_BRACKETS.match(data, at, end).end()  # type: ignore[union-attr]  (it matches empty)
    return end


_ARGUMENTS = re.compile(rb'"arguments"[ \t\r]*:[ \t\r]*[\[{]')
"""The key of a tool call's arguments, and the bracket opening them (scalar arguments hold no key)."""
_BETWEEN_BRACKETS = re.compile(rb'(?:[^"\[\]{}]|"[^"\\]*(?:\\.[^"\\]*)*")*')
"""What a container holds up to its next bracket: characters that are no bracket or quote, and whole strings
(each alternative starts with a character the other cannot: each character is read once)."""
_PIECE_BYTES = 1 << 20
"""Bytes of the file searched at once by :func:`_lines_holding` (whole lines: at least one)."""
_ESCAPE = re.compile(rb"\\u")
_CUT_MARK_RUNS = _RUN.findall(CUT_MARK.casefold())
"""The runs of the text a reader puts in place of what nests too deeply: a line may hold them in its text
without holding them in its bytes (:func:`candidate_slots` lets every line that may nest so deeply through)."""


__all__ = ["FOLDS_TO_ASCII", "candidate_slots", "candidates_in", "folding_into", "line_filter"]
