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

from .diagnostics import is_located
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


_LOCATION = re.compile(r"(?<![\w.-])[\w.-]{1,200}\.\w{1,8}(?::\d{1,6}){1,2}\b|\bline \d{1,6}\b")
"""A place in a file as a tool prints it (``src/a.ts:42``, ``line 12``)."""
_LABEL = re.compile(r"^(?:[\w.-]{1,30}:? )?(?:error|fatal|warning|panic|err|warn|ERROR|FATAL|WARNING|WARN|PANIC|ERR"
                    r"|CRITICAL|FAILED|FAIL)(?:\[[\w-]{1,20}\])?[:!]\s|^[\w.-]{1,30}: (?:cannot|could not|unable to"
                    r"|failed to|no such)\b")
"""A line a tool opens with its severity in lower case or capitals, its name before it or not (``error:``,
``fatal:``, ``npm ERR!``, ``error[E0308]:``, ``ERROR:``), or with its name and what failed (``go: cannot find
…``); a user's label ("question: …", "Note: …", "Error: the build fails, please fix") is no tool's."""


_RAISED = re.compile(r"[\w.]{0,80}(?:Error|Exception)\b:\s")
"""An exception as a runtime prints it (``ModuleNotFoundError: No module named 'x'``)."""


def _opens_output(line: str) -> bool:
    """``line`` opens as output does: shaped as output is (:func:`_output`), opened with a tool's label or a
    ``file:line`` location."""
    return _output(line) or _LABEL.match(line) is not None or is_located(line)


def _pasted_line(line: str) -> bool:
    """``line`` of a message that opens with output is more of it: it opens as output does, or it names a place in a
    file (the summary a compiler ends on, "Found 1 error in src/a.ts:42")."""
    return _opens_output(line) or _LOCATION.search(line) is not None


_INDENTED_OUTPUT = re.compile(r"\t| {2,}\S")


def _user_line(line: str) -> bool:
    """``line`` (as written) reads as the user's words: a word of letters ("yes", "please fix"), not indented as
    output and code are, not output."""
    return _LETTER_WORD.search(line) is not None and not _INDENTED_OUTPUT.match(line) and not _pasted_line(line.strip())


def pasted_only(text: str) -> bool:
    """True for a message that is only material of another origin: it opens with output, a traceback or a fenced
    block, no paragraph of it is in the user's words (every line theirs: :func:`_user_line`), and it does not end on
    a line of theirs (an answer under a quote: "> Should I go on?\nyes"). Pasted without a word ("$ npm run build …
    error TS2322 …"), it asks for nothing in the user's words: no goal can be quoted from it. Judged by the shape of
    lines, never by their words, so any tool's output and any language count; "I get this when building:" before
    the output, or "why does this fail?" or "修一下" after it, makes it a request."""
    lines = [line.strip() for line in text[:20_000].splitlines() if line.strip()]
    if not lines or not (_FENCE.match(lines[0]) or _opens_output(lines[0])):
        return False
    if len(lines) == 1:  # one line is output only as a tool words an error ("fatal: …", "a.go:3:1: …")
        return bool(_LABEL.match(lines[0]) or is_located(lines[0]) or _RAISED.match(lines[0]))
    paragraphs = [[line for line in block.splitlines() if line.strip()]
                  for block in re.split(r"\n[ \t]*\n", _unfenced(text[:20_000]))]
    paragraphs = [block for block in paragraphs if block]
    if paragraphs and _user_line(paragraphs[-1][-1]):
        return False
    return not any(all(_user_line(line) for line in block) for block in paragraphs)


_FAILED = re.compile(r"(?:error|exception|fatal|panic|fail(?:ed|ure|s)?)\b", re.I)
_GIST_CHARS = 160


def pasted_gist(text: str) -> str:
    """What a message of pasted output (:func:`pasted_only`) shows, in its own words: its first line that says
    something failed (``ModuleNotFoundError: No module named 'app.db'``), else its first line, clipped."""
    lines = [line.strip() for line in text[:20_000].splitlines() if line.strip() and not _FENCE.match(line)]
    failed = next((line for line in lines if _FAILED.search(line) and len(line) <= 2 * _GIST_CHARS), "")
    gist = clip_words(failed or next(iter(lines), ""), _GIST_CHARS)
    if gist.count("`") % 2:  # cut inside a quoted value: up to the value, none of it half quoted
        gist = gist[: gist.rfind("`")].rstrip(_TRAILING) + "…"
    return gist


def _unfenced(text: str) -> str:
    """``text`` with each fenced block (whatever its language) replaced by a blank line."""
    kept: list[str] = []
    fence = ""
    for line in text.splitlines():
        opened = _FENCE.match(line)
        if opened and not fence:
            fence = opened.group(1)[0] * 3
            kept.append("")
        elif fence:
            fence = "" if line.lstrip().startswith(fence) else fence
        else:
            kept.append(line)
    return "\n".join(kept)


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


__all__ = ["clause_cut", "own_lines", "pasted_gist", "pasted_only", "request_clause"]
