"""A chain's failure belongs to the part that failed, when its output says which (issue 20).

``bun test src/tests/landing/ && bun run typecheck`` printed "32 pass" and then ``error: Script not found
"typecheck"``: the tests ran and passed (``&&`` ran the type check only because they did), and what failed is the
type check's script, which is not there. Counted as one failed command, the chain would hide the pass (a narrow
test failure it settles stays open) and blame the tests. So a failed chain whose error names a missing script
(bun's ``Script not found "X"``, npm's and pnpm's ``Missing script: "X"``, yarn's ``Command "X" not found`` and
``Couldn't find a script named "X"``) that a later part of it runs (``bun run X``, ``npm run X``, ``yarn X``) is
told as two: the parts before it, which passed, and that part, which failed (run where the ``cd``s before it put
it). A part before it that is not one plain command (a pipe, ``;``, ``||``, a subshell) leaves the chain whole:
how it went is not known.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from .facts import Attempt, is_shell_tool
from .shell import command_words

_MISSING_SCRIPT = re.compile(
    r"""(?:\bscript not found|\bmissing script:?|couldn't find a script named)[ \t]{0,4}["'`]?([\w:.@/-]{1,100})"""
    r"""|\bcommand ["'`]([\w:.@/-]{1,100})["'`] not found""", re.I)
"""A package manager's words for a script the project does not have (``error: Script not found "typecheck"``,
``npm error Missing script: "lint"``, ``ERR_PNPM_NO_SCRIPT  Missing script: lint``, ``error Command "lint" not
found.``, ``Couldn't find a script named "lint".``)."""
_SCRIPT_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun"})
_RUN_WORDS = frozenset({"run", "run-script"})
_STDERR_TO_OUT = re.compile(r"\d?>&\d")
_NOT_PLAIN = re.compile(r"[;|&<>`$()\n]")
"""What makes a part more than one plain command (a pipe, a list, a redirection, a substitution, a subshell)."""
_MOVES = frozenset({"cd", "pushd"})


def missing_script(error: str) -> str:
    """The script ``error`` says the project does not have, or ``""``."""
    found = _MISSING_SCRIPT.search(error[:2000])
    return (found.group(1) or found.group(2)) if found else ""


def by_failing_part(attempts: Iterable[Attempt]) -> tuple[Attempt, ...]:
    """The attempts, each failed chain whose error says which part failed told as the parts before it (passed) and
    that part (failed), both at the chain's place in the region."""
    found: list[Attempt] = []
    for attempt in attempts:
        found.extend(_parts(attempt) or (attempt,))
    return tuple(found)


def _parts(attempt: Attempt) -> tuple[Attempt, Attempt] | None:
    if not attempt.failed or attempt.aborted or not is_shell_tool(attempt.tool):
        return None
    name = missing_script(attempt.error)
    command = attempt.target.strip()
    if not name or "&&" not in command or "\n" in command:
        return None
    parts = [part.strip() for part in command[:20_000].split("&&")]
    at = next((number for number, part in enumerate(parts)
               if any(_runs_script(words, name) for words in command_words(part))), 0)
    before = parts[:at]
    if not before or any(_NOT_PLAIN.search(_STDERR_TO_OUT.sub("", part)) or len(command_words(part)) != 1
                         for part in before):
        return None  # (the script ran first, or how a part before it went is not known)
    moves = [part for part in before if command_words(part)[0][0] in _MOVES]
    if len(moves) == len(before):
        return None  # (only `cd`s came before it: nothing else passed)
    return (replace(attempt, target=" && ".join(before), failed=False, error=""),
            replace(attempt, target=" && ".join([*moves, parts[at]])))


def _runs_script(words: list[str], name: str) -> bool:
    """``words`` run the project's script ``name`` (``bun run typecheck``, ``npm run-script lint``, ``yarn lint``)."""
    if words[0].rsplit("/", 1)[-1] not in _SCRIPT_RUNNERS or len(words) < 2:
        return False
    return words[1] == name or (words[1] in _RUN_WORDS and words[2:3] == [name])


__all__ = ["by_failing_part", "missing_script"]
