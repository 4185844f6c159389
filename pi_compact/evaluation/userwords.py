"""The user's own words in a user message, told from what the message carries of another origin.

A user message often holds material the user did not write: a log or an error dump, a document, a file's content,
a tool's output copied in, a quoted earlier summary, a harness's envelope (``<command-name>``,
``<local-command-stdout>``, ``<system-reminder>``…). Where the scorer checks a summary's goal, rules or requests
against what the user said, that material is not the user's word: a summary that gives a pasted log line as the
goal quotes no request, and one that leaves the paste out misses none.

Told by the form of lines, never by their words, so any agent's format and any language count: a fenced block, a
quoted block (``> ``), an envelope, a line shaped as output (a prompt ``$ ``, a stack frame, a timestamp or a log
level, a diff, tree or table line), a run of lines without sentence punctuation (a file, an output), and a
document (several headings). The scorer's own reading: it shares none with the summarizers it grades, so it does
not share their blind spots either.
"""

from __future__ import annotations

import re

from ..accessors import content_text

MAX_CHARS = 100_000
"""A message is read this far (a request after a longer paste is rare; the read stays bounded)."""
RUN_LINES = 4
"""This many lines in a row without sentence punctuation are output or a file, not sentences."""
DOCUMENT_HEADINGS = 3
"""A message with this many headings holds a document (a plan, a skill, an earlier summary) from its first one."""

HARNESS_LINES = 8
"""A document the harness puts in the user's place (a skill's instructions) has at least this many lines."""

_MARKDOWN_HEADING = re.compile(r"#{1,6}[ \t]+\S")
_FENCE = re.compile(r"\s{0,3}(`{3,}|~{3,})")
_ENVELOPE = re.compile(r"\s{0,40}<([A-Za-z][\w-]{0,40})(?:\s[^>\n]{0,200})?>")
"""A harness's block in the user's place, opened at a line's start (``<system-reminder>``, ``<command-name>``)."""
_TYPED = re.compile(r"(?:command-)?arg(?:ument)?s?", re.I)
"""The envelope that holds what the user typed after a command (Claude Code's ``<command-args>``)."""
_NOTICE = re.compile(r"\[[A-Z][^\]\n]{0,80}\]\s*$")
"""A harness's notice in the user's place: ``[Request interrupted by user]``."""
_HEADING = re.compile(r"\s{0,3}(?:#{1,6}\s+\S|\d{1,2}\.\s+[^\W\d_][^:\n]{1,60}:\s*$|\*\*[^*\n]{2,80}\*\*:?\s*$)")
"""A Markdown heading, a numbered title alone on its line (``1. Primary Request and Intent:``), a bold line."""
_BULLET = re.compile(r"\s*(?:[-*+•]|\d{1,3}[.)])\s+\S")
_PROMPT_FORM = r"\s*(?:[$%❯➜»]\s|>>>|PS [A-Z]:\\|[\w.-]{1,40}@[\w.-]{1,60}:\S{0,200}[$#]\s)"
_PROMPT = re.compile(_PROMPT_FORM)
"""A shell's prompt: what follows it in its paragraph is the command's output."""
_OUTPUT = re.compile(
    _PROMPT_FORM +
    r"|\s{0,8}>"  # a quoted block
    r"|\s+at\s+\S|\s*File \"[^\"\n]{1,300}\", line \d|\s*#\d{1,3}\s+0x[0-9a-fA-F]"  # stack frames
    r"|\s*Traceback \(|\s*goroutine \d|\s+\S{1,200}\.\w{1,5}:\d{1,6}|\S{1,200}\.\w{1,5}:\d{1,6}:\d"  # file:line
    r"|\W{0,3}\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{1,2}:\d{2}|.{0,24}?\b\d{1,2}:\d{2}:\d{2}"  # timestamps, early in a line
    r"|\W{0,3}(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE|FATAL|CRITICAL|NOTICE|FAILED|PASSED|FAIL|PASS)\b[\]:\s]"
    r"|diff --git|index [0-9a-f]{6,}\.\.|@@ |\+\+\+ |--- |[+-][^\s+-]"  # a diff
    r"|[\s│|]{0,40}[├└│┌┐┘┴┬]|\s*[\u2300-\u23ff\u2500-\u25ff\u2713-\u2718×⚠]"  # a tree, a box, a terminal's marks
    r"|\s*\|.{0,2000}\|\s*$"  # a table row
    r"|\s*[{}\[\]()<>]{1,4}[,;]?\s*$"  # a bracket alone: JSON, code
    r"|\s*(?:={3,}|-{3,}|_{3,}|\*{3,})"  # a rule or an output's banner
)
"""A line shaped as something a program printed or a file holds, by its start (or, a table row, its ends)."""
_PLAIN_WORD = re.compile(r"[^\W\d_]{1,40}[,.:;!?]?")
"""A word of prose: letters only, perhaps with the punctuation after it."""
PROSE_WORDS = 4
"""A line with this many plain words, most of its words, is a sentence, even beside output."""
_GLUED = re.compile(r"(?<=\S) {3,}(?=\S)")
"""Three spaces or more inside a line: where two texts were glued together (a line and what was pasted after it)."""
_SENTENCE_END = re.compile(r"[.!?:…。！？؟।]['\")\]’”」』]{0,3}\s*$")


def own_words(text: str) -> str:
    """The lines of ``text`` (a user message) that are the user's own, pasted material left out (see the module
    docstring); empty when none are, or when the message is a harness's notice."""
    # a paste whose line breaks were lost keeps its columns: the user's sentence and it stand apart there
    lines = [piece for line in text[:MAX_CHARS].splitlines() for piece in _GLUED.split(line)]
    kept = _outside_blocks(lines)
    kept = _without_output(lines, kept)
    kept = _before_document(lines, kept)
    kept = _without_runs(lines, kept)
    words = "\n".join(("\n" if n and i > kept[n - 1] + 1 else "") + lines[i] for n, i in enumerate(kept)).strip()
    return "" if _NOTICE.match(words) else words


def harness_document(previous: dict | None, message: dict) -> bool:
    """True when the user message ``message`` was put there by the agent's harness, not typed by the user: a
    Markdown document (a heading, :data:`HARNESS_LINES` lines or more) right after a tool result or a command the
    user ran, before the agent speaks (a skill's or a slash command's instructions). Judged by where the message
    stands and its shape, never by its words; a short message after a tool result (a steering message) stays the
    user's, and so does a document wrapped whole in the harness's tags (markup, no request anyway)."""
    if not isinstance(previous, dict) or message.get("role") != "user":
        return False
    before = previous.get("role")
    invoked = before == "user" and "<command-" in content_text(previous.get("content"))[:5000]
    if before != "toolResult" and not invoked:
        return False
    head = content_text(message.get("content"))[:20_000]
    if head.count("\n") < HARNESS_LINES or not any(_MARKDOWN_HEADING.match(line) for line in head.splitlines()):
        return False
    return bool(_outside_blocks(head.splitlines()))


def _outside_blocks(lines: list[str]) -> list[int]:
    """The indexes of the non-blank lines outside fenced blocks and envelopes; what the user typed inside a
    command's envelope (``<command-args>fix the login</command-args>``) is kept, as the line's text."""
    kept: list[int] = []
    fence = ""
    envelope = ""
    for index, line in enumerate(lines):
        if fence:
            fence = "" if line.strip().startswith(fence) else fence
            continue
        if envelope:
            envelope = "" if f"</{envelope}>" in line else envelope
            continue
        opened = _FENCE.match(line)
        if opened:
            fence = opened.group(1)
            continue
        tag = _ENVELOPE.match(line)
        if tag:
            name = tag.group(1)
            closing = f"</{name}>"
            if closing not in line[tag.end():]:
                envelope = name
            elif _TYPED.fullmatch(name):
                lines[index] = line[tag.end():line.find(closing, tag.end())]
                kept.append(index)
            continue
        if line.strip():
            kept.append(index)
    return kept


def _without_output(lines: list[str], kept: list[int]) -> list[int]:
    """``kept`` less the lines shaped as output, paragraph by paragraph (neighbouring lines): after a prompt the
    rest of its paragraph is the command's output, and in a paragraph of output (two lines of it) the lines
    around them that are no sentence (an exception's name before its frames, a diff's changed lines) are output too."""
    result: list[int] = []
    start = 0
    for end in range(1, len(kept) + 1):
        if end == len(kept) or kept[end] != kept[end - 1] + 1:
            result.extend(_paragraph_words(lines, kept[start:end]))
            start = end
    return result


def _paragraph_words(lines: list[str], paragraph: list[int]) -> list[int]:
    output = [bool(_OUTPUT.match(lines[i])) for i in paragraph]
    prompt = next((n for n, i in enumerate(paragraph) if _PROMPT.match(lines[i])), None)
    if prompt is not None:
        output[prompt:] = [True] * (len(paragraph) - prompt)
    if sum(output) >= 2:
        output = [shaped or not _prose(lines[i]) for shaped, i in zip(output, paragraph)]
    return [i for shaped, i in zip(output, paragraph) if not shaped]


def _prose(line: str) -> bool:
    """Most of the line's words are plain words, :data:`PROSE_WORDS` of them or a shorter sentence: the user's
    words around what they paste (on the same line too), not an exception's name, a program's status line or a
    changed line of code."""
    words = line.split()
    plain = sum(bool(_PLAIN_WORD.fullmatch(word)) for word in words)
    if plain >= PROSE_WORDS and plain * 5 >= len(words) * 3:
        return True
    return plain >= 2 and plain * 2 > len(words) and bool(_SENTENCE_END.search(line))


def _before_document(lines: list[str], kept: list[int]) -> list[int]:
    """``kept`` up to the first heading of a document (several headings): a plan, a skill or an earlier summary
    the message carries. The user's sentences before it stay; a harness's label line (``Base directory for this
    skill: /…``) is no sentence."""
    headings = [i for i in kept if _HEADING.match(lines[i])]
    if len(headings) < DOCUMENT_HEADINGS:
        return kept
    before = [i for i in kept if i < headings[0]]
    # a lead-in ("Implement the following plan:") points at the document and says nothing of its own
    return before if any(_SENTENCE_END.search(lines[i]) and not lines[i].rstrip().endswith(":") for i in before) \
        else []


def _without_runs(lines: list[str], kept: list[int]) -> list[int]:
    """``kept`` less each run of :data:`RUN_LINES` or more neighbouring lines none of which reads as a sentence
    (ends with sentence punctuation, or is a list item): a file or an output pasted without fences."""
    result: list[int] = []
    run: list[int] = []
    for index in kept + [len(lines) + 1]:
        line = lines[index] if index < len(lines) else ""
        loose = index < len(lines) and not _SENTENCE_END.search(line) and not _BULLET.match(line)
        if loose and (not run or run[-1] == index - 1):
            run.append(index)
            continue
        result.extend(run if len(run) < RUN_LINES else ())
        run = [index] if loose else []
        if index < len(lines) and not loose:
            result.append(index)
    result.extend(run if len(run) < RUN_LINES else ())
    return sorted(result)


__all__ = ["harness_document", "own_words"]
