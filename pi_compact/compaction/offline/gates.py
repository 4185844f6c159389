"""The checks a session runs before it commits or pushes: the project's quality gate, as the agent kept it.

A continuing agent that commits without running ``mise run lint`` or ``uv run mypy`` first breaks the routine the
session followed (often a rule of the project's own instructions, which the region does not show). The gate is
read from what the agent did: the commands that succeeded after its last change and before a commit or push,
without the git commands themselves and without commands that only look at files. Where the region commits more
than once, only the commands run before at least two of them count (a one-off test run is no routine).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .errors import command_key
from .facts import EDIT_TOOLS, WRITE_TOOLS, Attempt, is_shell_tool
from .shell import shell_effects

_PUBLISHES = re.compile(r"\bgit\s{1,4}(?:-C\s{1,4}\S{1,300}\s{1,4})?(?:commit|push)\b")
_PARTS = re.compile(r"\s{0,4}(?:&&|;|\|\|)\s{0,4}")
_NOT_A_CHECK = frozenset({"git", "gh", "cd", "echo", "cat", "ls", "sleep", "export", "source", "open", "pwd", "printf",
                          "true", "mkdir", "rm", "mv", "cp", "sed", "awk", "grep", "rg", "find", "head", "tail", "wc",
                          "jq", "kill", "pkill", "for", "while", "until", "if", "then", "else", "elif", "fi", "do",
                          "done", "case", "esac", "{", "}", "(", ")"})
"""First words of no check: git itself, inspection, file moves, shell syntax."""
_KEY_WORDS = 3
"""Runs of one check compare by their first words (``go test ./pkg/ -run X`` and ``… -run Y`` are one check)."""
_SHOWN = 5
_CHARS = 70


def commit_gates(attempts: Iterable[Attempt]) -> list[str]:
    """The checks (as last run, e.g. ``mise run test:ci``) that preceded the region's commits and pushes."""
    before: list[dict[str, str]] = []  # per commit or push: check key -> the command as run
    pending: dict[str, str] = {}
    for attempt in attempts:
        tool = attempt.tool.lower()
        if attempt.failed or attempt.aborted:
            continue
        if tool in WRITE_TOOLS or tool in EDIT_TOOLS:
            pending = {}  # checks run before a change checked other code
        elif is_shell_tool(tool) and attempt.target:
            command = attempt.target[:2000]
            if _PUBLISHES.search(command):
                if pending:
                    before.append(pending)
                pending = {}
            elif shell_effects(command).writes:
                pending = {}
            elif not attempt.lookup:
                pending.update(_checks(command))
    counted: dict[str, int] = {}
    shown: dict[str, str] = {}
    for checks in before:
        for key, command in checks.items():
            counted[key] = counted.get(key, 0) + 1
            shown[key] = command
    needed = 2 if len(before) > 1 else 1
    return [shown[key] for key, count in counted.items() if count >= needed][:_SHOWN]


def _checks(command: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for part in _PARTS.split(command_key(command)):
        words = part.split(" | ", 1)[0].replace("2>&1", "").split()
        if words and words[0].lower() not in _NOT_A_CHECK and "=" not in words[0] and not any(
                quote in " ".join(words[:_KEY_WORDS]) for quote in "'\"`$"):
            found[" ".join(words[:_KEY_WORDS]).lower()] = _clipped(words)
    return found


def _clipped(words: list[str]) -> str:
    """The command as run, cut at a word within :data:`_CHARS` (a long test selection is named by its start)."""
    shown = words[0]
    for word in words[1:]:
        if len(shown) + 1 + len(word) > _CHARS:
            return shown + " …"
        shown += " " + word
    return shown


__all__ = ["commit_gates"]
