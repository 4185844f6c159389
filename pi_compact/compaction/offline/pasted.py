"""The errors a user pasted: failing output copied into a request ("> git gc\nfatal: bad tree object 082c…").

The tool results of the region show the agent's failures; what failed on the user's side (a script the user ran, a
build on another machine) reaches the agent only as the user's message. The summary quotes a long request only in
part (its head and tail, or its first words as an earlier request), and the error lines in its middle are lost,
though they are what the next agent must not be told twice. This module finds them: the lines of a pasted block of
output that say what failed, in the tool's words.
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
    for line in lines:
        if not line or len(line) > _LINE_CHARS or line in found:
            continue
        if _FAILURE.match(line) or is_located(line) or error_lines(line, 1):
            found.append(line)
            if len(found) >= _PER_REQUEST:
                break
    return found


__all__ = ["pasted_errors"]
