"""The parts of a plan the user handed over ("Implement the following plan: …") that the region never carried out,
when it ends mid-work on that plan: the files the plan names that no call changed, and the commands of its
verification section that never ran. What the agent was doing last is one step; the plan's untouched parts are the
rest of the work, which its last words do not name.
"""

from __future__ import annotations

import re

from .cores import unwrapped
from .shell import simple_commands
from .text import clip_words

_PLAN_REQUEST = re.compile(r"^\W{0,3}(?:please\s+)?(?:implement|execute|carry out) (?:the following|this|the) plan\b"
                           r"|^\s{0,3}#{1,6}[ \t]{1,4}plan\b", re.I | re.M)
"""A request that hands the agent a plan written out in it."""
_PLAN_CHARS = 60_000
_PATH = re.compile(r"`([\w.@-]{1,80}(?:/[\w.@-]{1,80}){1,12}\.[A-Za-z]{1,8})`")
"""A file the plan names by its path (a folder in it: "`tests/unit/test_x.py`", not a bare "`x.py`" said in
passing)."""
_HEADING = re.compile(r"^\s{0,3}#{1,6}[ \t]{1,4}(\S[^\n]{0,200})$")
_CHECKS = re.compile(r"\b(?:verif\w*|validat\w*|testing|test plan|checks?|how to test)\b", re.I)
"""A heading over the plan's checks ("## Verification", "### Testing")."""
_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)\s{0,3}([\w+-]{0,20})")
_SHELL_BLOCK = frozenset({"", "sh", "bash", "shell", "zsh", "console", "shell-session", "powershell", "ps1", "cmd",
                          "bat", "fish"})
"""A code block of commands: no language named, or a shell's (a ```go or ```python block under "## Testing" holds
the tests' code, no command to run)."""
_COMMENT = re.compile(r"\s#")  # a comment runs from here to the line's end (cut by hand: a regex to the end backtracks)
_SHOWN = 8
_COMMAND_CHARS = 120


def plan_request(requests: list[str]) -> str:
    """The latest of ``requests`` that hands over a written plan (:data:`_PLAN_REQUEST`), ``""`` when none does."""
    return next((request for request in reversed(requests) if _PLAN_REQUEST.search(request[:_PLAN_CHARS])), "")


_ITEM = re.compile(r"^\s{0,12}(?:[-*+]|\d{1,3}[.)]|\|)\s{0,4}(?:\[( |x|X)\]\s{1,3})?(?:\*\*)?`([^`\n]{1,300})`")
"""A list item or table row that opens on a backticked name: the plan's file list ("- `tests/test_x.py` — …",
"- [ ] `tests/test_x.py`": an unticked box is a part left, a ticked one was done before)."""
_MANUAL = re.compile(r"\bmanual", re.I)


def _named_files(plan: str) -> list[str]:
    """The files the plan lists as its own work, each once, in order: a path that opens a list item or a table row
    (:data:`_ITEM`), or stands in a heading ("### 1. Create `Manager` (`src/shared/manager.py`)"); not one named in
    passing ("- Reuses `make_client()` from `shared/client.py`")."""
    found: list[str] = []
    for line in plan.splitlines():
        item = _ITEM.match(line)
        if item and item.group(1) in ("x", "X"):
            continue  # ticked in the plan itself: done before it was handed over
        if item and _PATH.fullmatch(f"`{item.group(2)}`"):
            found.append(item.group(2))
        elif _HEADING.match(line):
            found += _PATH.findall(line)
    return list(dict.fromkeys(found))


def _without_comment(line: str) -> str:
    comment = _COMMENT.search(line)
    return line[:comment.start()].rstrip() if comment else line


def _check_commands(plan: str) -> list[str]:
    """The commands in the code blocks under the plan's verification heading (:data:`_CHECKS`), comments cut."""
    commands: list[str] = []
    checks = fenced = manual = False
    commands_in = True  # the block open holds commands (:data:`_SHELL_BLOCK`)
    for line in plan.splitlines():
        heading = _HEADING.match(line)
        if heading and not fenced:
            checks = bool(_CHECKS.search(heading.group(1)))
        elif fence := _FENCE.match(line):
            fenced, manual = not fenced, False
            commands_in = fence.group(1).lower() in _SHELL_BLOCK
        elif fenced and checks and line.strip().startswith("#"):
            manual = bool(_MANUAL.search(line))  # ("# Manual (needs Docker):" — steps for a person, no command)
        elif fenced and checks and line.strip() and not manual and commands_in:
            command = _without_comment(line.strip())
            commands += [command] if command else []
    return list(dict.fromkeys(commands))


def _changed(path: str, changed: list[str]) -> bool:
    """``path`` (as the plan writes it) is one of the ``changed`` files (absolute or relative, either end)."""
    return any(other == path or other.endswith("/" + path) or path.endswith("/" + other) for other in changed)


_SETUP = frozenset({"cd", "pushd", "popd", "source", ".", "export", "set"})


def _ran(check: str, runs: list[list[str]]) -> bool:
    """A command of ``runs`` (each simple command ran, its wrappers off) ran the plan's ``check``: each of the check's
    own simple commands begins some run, word for word (``make test`` is not ``make test-e2e``; ``uv run pytest -q
    tests`` runs ``pytest -q``); the folder it moves to and the environment it sets are left out."""
    wanted = [words for _, raw in simple_commands(check) if (words := unwrapped(raw)) and words[0] not in _SETUP]
    return bool(wanted) and all(any(run[:len(words)] == words for run in runs) for words in wanted)


def plan_left(plan: str, changed: list[str], ran: list[str]) -> str:
    """The step naming what the plan ``plan`` asks for that the region did not do: its files no call changed (of
    ``changed``) and its check commands no command of ``ran`` holds; ``""`` when nothing of it was begun (no file it
    names changed: the plan may be someone else's) or all of it was."""
    text = plan[:_PLAN_CHARS]
    files = _named_files(text)
    if not files or not any(_changed(path, changed) for path in files):
        return ""
    left = [path for path in files if not _changed(path, changed)]
    runs = [unwrapped(words) for command in ran for _, words in simple_commands(command)]
    checks = [command for command in _check_commands(text) if not _ran(command, runs)]
    if not left and not checks:
        return ""
    named = ", ".join(f"`{path}`" for path in left[:_SHOWN]) + (f" and {len(left) - _SHOWN} more"
                                                                if len(left) > _SHOWN else "")
    run = ", ".join(f"`{clip_words(command, _COMMAND_CHARS)}`" for command in checks[:_SHOWN])
    if left:
        return f"The plan's parts not written yet (it names them; no call changed them): {named}" + (
            f"; then its checks not run yet: {run}." if run else ".")
    return f"Then the plan's checks not run yet: {run}."


__all__ = ["plan_left", "plan_request"]
