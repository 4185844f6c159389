"""Substring questions about a text that only grows, answered once per question and added piece.

A replay scores every compaction against every message compacted so far: a region that grows by one piece per
compaction, asked the same questions (does it mention ``src/app.py``? which failure names it first?) each
time. Searching the whole region for every question at every compaction is quadratic in the session's
length. Here each answer is remembered with how far the text had been searched; a later question only
searches what was added since (plus the few characters an occurrence could straddle), so each question
costs one pass over the text, however many compactions ask it.

Questions that are new at each compaction (the summaries name the commands and files of the work in hand) would
still each search the whole region so far: new questions times a growing text. So :class:`GrowingText` also
indexes where each run of name characters (a word, a path, a dotted name) stands, once per added piece; a
question that holds such a run is answered at the places the run stands (a cost of the question's length per
place), and the text is searched only when they cannot tell (a question that is part of a longer name, or none).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

_RUN = re.compile(r"[^\s`'\"()\[\]{}<>,;:|=*]+")
"""A run of name characters: what stands between spaces, quotes, brackets and punctuation that ends a name
(``src/app.py`` in ``(src/app.py:42)``, ``-m`` in ``python -m pytest``)."""
_ENDS = ".!?"
"""What a sentence puts after a name (``… in src/app.py.``): a run is also indexed without it."""


class GrowingText:
    """Pieces joined by ``joiner`` (an occurrence may straddle the joint), for ``needle in text`` questions."""

    def __init__(self, joiner: str = "\n") -> None:
        self.joiner = joiner
        self.pieces: list[str] = []
        self.length = 0
        self._searched: dict[str, int] = {}
        """needle → how many pieces were searched without finding it (absent once found)."""
        self._found: set[str] = set()
        self._runs: dict[str, list[tuple[int, int]]] = {}
        """run of name characters → where it stands: (piece, offset), in order."""

    def append(self, piece: str) -> None:
        self.length += len(piece) + (len(self.joiner) if self.pieces else 0)
        self.pieces.append(piece)
        self._index(len(self.pieces) - 1, piece)

    def _index(self, number: int, piece: str) -> None:
        """Record where each run of name characters of ``piece`` stands (one pass over it; a step per word, so it
        does the least it can: a run is stripped only when it ends on a sentence's mark)."""
        setdefault = self._runs.setdefault
        for match in _RUN.finditer(piece):
            run = match.group()
            place = (number, match.start())
            setdefault(run, []).append(place)
            if run[-1] in _ENDS:
                bare = run.rstrip(_ENDS)
                if bare:
                    setdefault(bare, []).append(place)

    def __contains__(self, needle: str) -> bool:
        if needle in self._found:
            return True
        start = self._searched.get(needle, 0)
        if start == len(self.pieces):
            return not needle and bool(self.pieces)
        found = self._by_runs(needle, start)
        if found is None:
            found = self._search(needle, start)
        if found:
            self._found.add(needle)
            self._searched.pop(needle, None)
            return True
        self._searched[needle] = len(self.pieces)
        return False

    def _by_runs(self, needle: str, start: int) -> bool | None:
        """Whether ``needle`` is in the pieces from ``start`` on, told by the places its runs of name characters
        stand; ``None`` when they cannot tell. A run inside the needle (name characters on neither side of it
        there) stands whole wherever the needle does, so the places of one such run are all the places the
        needle can be: none matching, it is not there. A run at the needle's edge may be the end of a longer
        one: its places can only find the needle."""
        if not needle or self.joiner in needle:
            return None  # an occurrence may straddle two pieces: only a search tells
        runs = [(match.start(), match.group()) for match in _RUN.finditer(needle)]
        inner = [(at, run) for at, run in runs if at > 0 and at + len(run) < len(needle)]
        edges = [(at, run) for at, run in runs if (at, run) not in inner]
        whole = min(inner, key=lambda placed: len(self._runs.get(placed[1], ())), default=None)
        part = min(edges, key=lambda placed: len(self._runs.get(placed[1], ())), default=None)
        if part is not None and (whole is None or len(self._runs.get(part[1], ())) < len(self._runs.get(whole[1], ()))):
            if self._occurs_at(needle, part[0], part[1], start):
                return True
        if whole is not None:
            return self._occurs_at(needle, whole[0], whole[1], start)
        return None

    def _occurs_at(self, needle: str, shift: int, run: str, start: int) -> bool:
        """``needle`` starts ``shift`` characters before a place of ``run`` in a piece from ``start`` on."""
        places = self._runs.get(run, ())
        for number, offset in places[bisect_left(places, (start, -1)):]:
            if offset >= shift and self.pieces[number].startswith(needle, offset - shift):
                return True
        return False

    def _search(self, needle: str, start: int) -> bool:
        reach = len(needle) - 1  # an occurrence that starts in the searched part ends at most this far past it
        for index in range(start, len(self.pieces)):
            piece = self.pieces[index]
            if needle in piece:
                return True
            if index and reach >= 0:  # the joint itself may be the needle ("\n")
                seam = (self._tail(index, reach) if reach else "") + self.joiner + piece[:reach]
                if needle in seam:
                    return True
        return False

    def _tail(self, end: int, size: int) -> str:
        """The last ``size`` characters of the pieces before ``end``, joined."""
        parts: list[str] = []
        have = 0
        for index in range(end - 1, -1, -1):
            parts.append(self.pieces[index][-size:] if index == end - 1 else self.pieces[index][-size:] + self.joiner)
            have += len(parts[-1])
            if have >= size:
                break
        return "".join(reversed(parts))[-size:]

    def text(self) -> str:
        return self.joiner.join(self.pieces)


class PieceFinder:
    """Separate pieces (no occurrence straddles two), for "the first piece containing ``needle``"."""

    _SEPARATOR = "\x00"

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self._first: dict[str, int] = {}
        """needle → the first piece holding it; or, for a needle not found, ``-1 - pieces searched``."""
        self._last: dict[str, tuple[int | None, int]] = {}
        """needle → (the last piece holding it, pieces searched)."""

    def append(self, piece: str) -> None:
        self.pieces.append(piece)

    def first(self, needle: str) -> int | None:
        known = self._first.get(needle, -1)
        if known >= 0:
            return known
        start = -1 - known
        found = self._scan(needle, start) if start < len(self.pieces) else None
        self._first[needle] = found if found is not None else -1 - len(self.pieces)
        return found

    def last(self, needle: str) -> int | None:
        """The last piece holding ``needle``; only the pieces added since it was last asked are searched."""
        found, searched = self._last.get(needle, (None, 0))
        if searched < len(self.pieces):
            later = self._scan_last(needle, searched)
            found = later if later is not None else found
            self._last[needle] = (found, len(self.pieces))
        return found

    def _scan_last(self, needle: str, start: int) -> int | None:
        if self._SEPARATOR in needle or not needle:
            return next((i for i in range(len(self.pieces) - 1, start - 1, -1) if needle in self.pieces[i]), None)
        pieces = self.pieces[start:]
        at = self._SEPARATOR.join(pieces).rfind(needle)
        if at < 0:
            return None
        total = 0
        for index, piece in enumerate(pieces):
            total += len(piece) + 1
            if at < total:
                return start + index
        return None

    def _scan(self, needle: str, start: int) -> int | None:
        if self._SEPARATOR in needle or not needle:
            return next((i for i in range(start, len(self.pieces)) if needle in self.pieces[i]), None)
        pieces = self.pieces[start:]
        text = self._SEPARATOR.join(pieces)
        at = text.find(needle)
        if at < 0:
            return None
        offsets, total = [], 0
        for piece in pieces:
            offsets.append(total)
            total += len(piece) + 1
        return start + bisect_right(offsets, at) - 1
