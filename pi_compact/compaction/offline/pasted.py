"""The errors a user pasted: failing output copied into a request ("> git gc\nfatal: bad tree object 082c…").

The tool results of the region show the agent's failures; what failed on the user's side (a script the user ran, a
build on another machine) reaches the agent only as the user's message. The summary quotes a long request only in
part (its head and tail, or its first words as an earlier request), and the error lines in its middle are lost,
though they are what the next agent must not be told twice. This module finds them: the lines of a pasted block of
output that say what failed, in the tool's words.

A request also carries source code (a plan's ``main().catch(e => console.error("Fatal error:", e))``, a snippet to
change): a line of code that handles an error is no error that happened, so code is read past.
"""

from __future__ import annotations

import re

from .diagnostics import is_located
from .facts import error_lines

_FAILURE = re.compile(
    r"^(?:[\w./-]{1,40}:\s{1,4})?(?:cannot|could not|unable to|no such|failed to"
    r"|unknown (?:command|option|flag|shorthand flag|subcommand|argument))\b", re.I)
"""A line of output that says what failed without the word "error": ``go: cannot find main module``, ``unknown
command "session" for "entire"``."""
_OUTPUT_FENCES = frozenset({"", "text", "txt", "plaintext", "plain", "console", "terminal", "output", "log", "logs",
                            "shell", "sh", "bash", "zsh", "fish", "shell-session", "shellsession", "powershell", "ps",
                            "ps1", "cmd", "bat", "ansi", "stderr", "stdout", "diff", "error", "errors"})
"""Info strings of a fence that holds output or commands; any other names a language whose lines are source."""
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)")
_STATEMENT = re.compile(r"^[A-Za-z_$][\w$.]*\(.*\);$"
                        r"|^(?:throw|raise|return|await|catch|except|if|else|const|let|var|def|func|fn)\b.*[;{:)]$")
"""A line of source: a call or chain ending in ``;`` (``console.error("Fatal error:", e);``), or a statement that
opens with a keyword (``raise ValueError("bad header")``) and ends as code does. Output lines open with a tool's name
and a colon (``TypeError: …``, ``go: cannot …``), which neither form matches."""
_DOCUMENT_HEADING = re.compile(r"(?:^|(?<=[.?!:])[ \t]{1,4})#{1,6}[ \t]{1,4}\S")
"""A markdown heading, at a line's start or after the sentence that introduces it ("did we do this? # Sync
design"): where a document the user pasted (a design, a plan, a skill) begins."""
_LINE_CHARS = 200
"""Longer lines are a log record or a blob, not an error line."""
_PER_REQUEST = 3


def pasted_errors(request: str) -> list[str]:
    """The error lines of the output pasted into ``request`` (a message of several lines; a one-line message is the
    user's own words, not output), at most :data:`_PER_REQUEST`, in order."""
    lines = [line.strip().lstrip(">").strip() for line in request.splitlines()]
    if len([line for line in lines if line]) < 2:
        return []
    found: list[str] = []
    for line in _outside_source(lines):
        if not line or len(line) > _LINE_CHARS or line in found or _STATEMENT.match(line):
            continue
        if _FAILURE.match(line) or is_located(line) or error_lines(line, 1):
            found.append(line)
            if len(found) >= _PER_REQUEST:
                break
    return found


def own_words(request: str) -> str:
    """The user's own words of ``request`` when it asks about a document it pastes ("did we build this already?
    # Sync design …"): the words before the document's first heading (outside code fences). What such a document
    says ("**Metadata** — always in context", "the worker must never block") describes a design under discussion,
    not rules for the agent; a document handed over as the work ("Implement the following plan: # …") keeps its
    rules, and so does a request with no document."""
    fence = ""
    lines = request.splitlines()
    for number, line in enumerate(lines):
        opened = _FENCE.match(line)
        if opened and not fence:
            fence = opened.group(1)[0] * 3
        elif fence and line.lstrip().startswith(fence):
            fence = ""
        elif not fence and (heading := _DOCUMENT_HEADING.search(line)):
            before = "\n".join([*lines[:number], line[: heading.start()]]).strip()
            return before if before.endswith(("?", "？")) else request
    return request


def _outside_source(lines: list[str]) -> list[str]:
    """``lines`` without those fenced as source code (a fence naming a language other than a shell's or output's)."""
    kept: list[str] = []
    fence, source = "", False
    for line in lines:
        opened = _FENCE.match(line)
        if opened and not fence:
            fence, source = opened.group(1)[0] * 3, opened.group(2).lower() not in _OUTPUT_FENCES
            continue
        if fence and line.startswith(fence):
            fence, source = "", False
            continue
        if not source:
            kept.append(line)
    return kept


__all__ = ["own_words", "pasted_errors"]
