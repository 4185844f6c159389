"""A user's request said as a clause: the words that carry what the user asks for, not what the message pastes.

A request often carries material of other origin: a log, an error dump, a tree the CLI printed, code, a quoted
document ("it somehow lists these under each branch:\\n> * 2026-01-06-c93f (1 checkpoint)…"). Cut to a length,
such a message reads as the pasted text, or as the user's words stopped mid-clause ("— now: do something requiring
multiple tools in one turn,"). :func:`request_clause` keeps the user's own prose (fences, quoted lines and lines of
output left out), whole sentences while they fit, and when the first sentence alone is too long, its clauses up to a
clause's end; it never ends on a comma or a colon. Judged by the shape of lines, never by their words, so any
agent's format and any language count.
"""

from __future__ import annotations

import re

from .text import clip_words, one_line

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_OUTPUT_START = re.compile(
    r"^\s*(?:[>|$%❯➜│├└┌╭╰+]|\d{1,4}[:|]\s|\d{2,4}[-/:]\d{2}|\[\d|at\s+\S+\s*\(|File \"|Traceback\b|(?:---|\+\+\+|@@)\s"
    r"|[\w.-]{1,40}:\d+(?::\d+)?\b|\w+(?:Error|Exception)\b:|={2,}|[✓✗✔✘])")
"""How a line of pasted output or quoted material opens: a quote or prompt mark, a drawn tree, a numbered source
line, a timestamp or date, a stack frame, a diff's header, a ``file:line`` location, an exception's name."""
_LETTER_WORD = re.compile(r"[^\W\d_]{2,}")
_PROSE_SHARE = 0.55
"""A line of the user's own words has at least this share of its non-space characters in words of letters."""
_CLAUSE_END = re.compile(r"[,;:]\s|\s[—–-]\s|\s\((?!\S*\))|\s(?:but|and|so|which|because|since|while|then)\s")
_TRAILING = ",;:—–-([{ \t"
_LIST_INTRO = re.compile(r":\s*$")
_COLUMNS = re.compile(r"(?<!\s)\s{3,}+(?=[>|$%❯➜│├└┌╭╰+*=✓✗-])")
"""A run of spaces before a mark of output or of a list's item inside a line: what follows was pasted (or laid out)
on the user's line; each piece is judged as a line of its own."""
_PASTED = " (output pasted)"
_ITEM_CHARS = 60
_ITEM_JOIN = "; "
_INDENTED = re.compile(r"(?: {4,}|\t)\S")
_ITEM = re.compile(r"\s*(?:[-*•]|\d{1,2}[.)])\s")


def _prose(line: str) -> bool:
    """``line`` reads as the user's own words: not opened as output is, mostly words of letters, three words or
    more (or a sentence's end)."""
    stripped = line.strip()
    if not stripped or _OUTPUT_START.match(stripped):
        return False
    letters = sum(len(word) for word in _LETTER_WORD.findall(stripped))
    chars = len(stripped.replace(" ", ""))
    words = len(_LETTER_WORD.findall(stripped))
    return chars > 0 and letters / chars >= _PROSE_SHARE and (words >= 3 or stripped.endswith(("?", "!", ".", ":")))


def _output(line: str) -> bool:
    """``line`` is output or code, not a few words of the user's ("Medium Severity", a title)."""
    stripped = line.strip()
    letters = sum(len(word) for word in _LETTER_WORD.findall(stripped))
    return bool(_OUTPUT_START.match(stripped)) or letters < _PROSE_SHARE * len(stripped.replace(" ", ""))


def own_lines(text: str) -> list[str]:
    """The lines of ``text`` in the user's own words: fenced blocks, quoted lines, lines of output, the block that a
    line ending on a colon introduces (unless it is a list), and a pasted document after its first heading (when
    words of the user's come before it) left out. A line is cut where a run of spaces opens pasted columns. A
    message with no line of prose keeps its first line."""
    lines = [piece for line in text.strip().splitlines() for piece in _COLUMNS.split(line)]
    kept: list[str] = []
    fenced = pasting = skipped = False  # in a fence; after an intro line; past pasted material
    for line in lines:
        if _FENCE.match(line):
            fenced, skipped = not fenced, skipped or bool(kept)
            continue
        if fenced or not line.strip():
            continue
        if _HEADING.match(line) and kept:
            break  # a document the user pasted under their words
        listed = bool(_ITEM.match(line))
        own = _prose(line) and (listed or not (pasting or (kept and _INDENTED.match(line))))
        if pasting and not listed:
            skipped = True  # the block an intro announced ("line numbers are off:") is pasted unless a list
            continue
        if own and not skipped:
            kept.append(line.strip())
            pasting = line.rstrip().endswith(":")
        elif kept and not own and _output(line):
            if not skipped and not kept[-1].endswith((".", "!", "?", ":", "？", "。")):
                kept[-1] += _PASTED  # the user's words go on into what they pasted ("the logs leak into\n<log>")
            skipped = True  # past pasted material, prose is likely more of it (a log's "Did you mean this?")
    return kept or [next((line.strip() for line in lines if line.strip()), "")]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?。！？])(?<!\bvs\.)(?<!\be\.g\.)(?<!\bi\.e\.)\s+", text) if s.strip()]


def clause_cut(sentence: str, limit: int) -> str:
    """``sentence`` cut at the last end of a clause within ``limit`` (none before a third of it: the first word
    boundary after it), its trailing comma, colon or dash removed."""
    best = -1
    for match in _CLAUSE_END.finditer(sentence[: limit + 1]):
        if match.start() >= limit // 3:
            best = match.start() + (1 if sentence[match.start()] in ",;:" else 0)
    if best > 0:
        return sentence[:best].rstrip(_TRAILING)
    return clip_words(sentence, limit).rstrip("…").rstrip(_TRAILING) + "…"


def _head(item: str) -> str:
    """A list item's first clause (the whole item when short)."""
    item = one_line(item)
    return item if len(item) <= _ITEM_CHARS else clause_cut(item, _ITEM_CHARS)


def _parts(lines: list[str]) -> list[str]:
    """The sentences of ``lines``; a line that introduces a list ("fix these:") and its items make one part,
    ``intro: first; second; …`` (each item by its first clause)."""
    parts: list[str] = []
    listing = False
    for line in lines:
        item = _ITEM.match(line)
        if item and listing:
            parts[-1] += ("" if parts[-1].endswith(":") else _ITEM_JOIN) + (" " if parts[-1].endswith(":") else "") \
                + _head(line[item.end():])
            continue
        parts += _sentences(one_line(line))
        listing = bool(parts) and parts[-1].endswith(":")
    return parts


def _fit_list(part: str, limit: int) -> str:
    """A list part cut after its last item within ``limit``, the count of those left out said."""
    intro, _, items = part.partition(": ")
    shown, names = [], items.split(_ITEM_JOIN)
    for name in names:
        if shown and len(intro) + 2 + len(_ITEM_JOIN.join(shown + [name])) > limit:
            break
        shown.append(name)
    more = f"{_ITEM_JOIN}and {len(names) - len(shown)} more" if len(shown) < len(names) else ""
    return f"{intro}: {_ITEM_JOIN.join(shown)}{more}"


def request_clause(text: str, limit: int = 160) -> str:
    """What ``text`` (a user's message) asks, as a clause of at most about ``limit`` characters: its own words
    (:func:`own_lines`), whole sentences while they fit, else the first sentence cut at a clause's end, a list cut
    after an item; never ending on a comma, a colon or an open bracket."""
    chosen: list[str] = []
    for part in _parts(own_lines(text)):
        if chosen and len(" ".join(chosen)) + 1 + len(part) > limit:
            break
        if len(part) > limit:
            listed = _ITEM_JOIN in part and ": " in part
            chosen.append(_fit_list(part, limit) if listed else clause_cut(part, limit))
            break
        chosen.append(part)
    return " ".join(chosen).rstrip(_TRAILING)


__all__ = ["clause_cut", "own_lines", "request_clause"]
