"""A call a tool refused for its input (issue 20): Claude Code's ``InputValidationError`` ("The required parameter
`description` is missing"), "Invalid tool parameters", codex's "failed to parse function arguments", opencode's "was
called with invalid arguments", pi's "Validation failed for tool". Nothing ran; once the agent called the same tool
again and it worked, the refusal is settled (one line says what the tool wanted). A refusal the agent never
followed by a working call of that tool stays open: what it asked for was never done.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .facts import Attempt

_BAD_INPUT = re.compile(
    r"\b(?:InputValidationError|invalid (?:tool )?(?:input|param(?:eter)?s?|arguments?)"
    r"|validation failed for tool|failed to parse (?:function |tool )?(?:call )?arguments"
    r"|called with invalid arguments|(?:required|missing) (?:param(?:eter)?|property|argument|field)"
    r"|must have required property|unexpected (?:param(?:eter)?|keyword argument|property)"
    r"|(?:param(?:eter)?|argument|property) [`'\"]?\w{1,60}[`'\"]? (?:is )?(?:required|missing))", re.I)
"""A tool's words for a call whose arguments did not fit its schema, across agents' formats (tool schemas and their
errors are English whatever the user's language)."""
_HEAD_CHARS = 300
"""The refusal opens the result; words further down are the tool's output, not its refusal."""


def bad_input(attempt: Attempt) -> bool:
    """True when ``attempt`` failed because its tool refused the input it was given."""
    return attempt.failed and not attempt.aborted and bool(_BAD_INPUT.search(attempt.error[:_HEAD_CHARS]))


def retried(attempts: Sequence[Attempt]) -> list[bool]:
    """Per attempt: a refused input (:func:`bad_input`) after which the same tool worked (on any target: the retry
    fixes the input, which may be the target). One pass from the end."""
    worked: set[str] = set()
    found = [False] * len(attempts)
    for position in range(len(attempts) - 1, -1, -1):
        attempt = attempts[position]
        if not attempt.failed and not attempt.aborted:
            worked.add(attempt.tool.lower())
        elif bad_input(attempt):
            found[position] = attempt.tool.lower() in worked
    return found


__all__ = ["bad_input", "retried"]
