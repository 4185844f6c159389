"""Failures the agent got past the same way are one story (issue 20): ``jj file show REV:a.tsx`` refused, ``jj cat
REV a.tsx`` too, then ``jj diff … -- a.tsx`` showed the file. The list of failures met and settled says them in one
line with that way once (the way said twice takes the room of another failure the next agent needs); failures got
past different ways stay lines of their own. Each case in three agents' shell tools."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.details import MET_LABEL

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize

FORMATS = {
    "pi": lambda command: ("bash", {"command": command}),
    "claude": lambda command: ("Bash", {"command": command, "description": "Run it"}),
    "codex": lambda command: ("exec_command", {"cmd": command}),
}
TRIES = [
    ("jj file show ticket/L-4:apps/demo/page.tsx", "Error: Failed to parse fileset: Syntax error"),
    ("jj cat --revision ticket/L-4 apps/demo/page.tsx", "error: unrecognized subcommand 'cat'"),
]
WAY = "jj diff --from ticket/L-4~ --to ticket/L-4 -- apps/demo/page.tsx"


def _met(summary: str) -> list[str]:
    lines = summary.splitlines()
    start = next((n for n, line in enumerate(lines) if line.endswith(MET_LABEL)), None)
    if start is None:
        return []
    return [line for line in lines[start + 1:] if line.startswith("  > ")][:10]


@pytest.mark.parametrize("agent", sorted(FORMATS))
def test_tries_got_past_the_same_way_are_one_line(agent: str) -> None:
    session = [user("Show me what page.tsx held at ticket/L-4 and fix the stats.")]
    for number, (command, error) in enumerate(TRIES):
        tool, arguments = FORMATS[agent](command)
        session += [assistant(call(f"t{number}", tool, **arguments)),
                    result(f"t{number}", tool, bash_fail(error, 1), error=True)]
    tool, arguments = FORMATS[agent](WAY)
    session += [assistant(call("w", tool, **arguments)),
                result("w", tool, "Modified regular file apps/demo/page.tsx:\n   1    1: import { Hero } from './hero'"),
                assistant(call("r", "read", path="docs/notes.md")), result("r", "read", "# Notes\n")]
    met = _met(summarize(session))
    assert len([line for line in met if "then ran" in line]) == 1, met
    assert any("Failed to parse fileset" in line and "unrecognized subcommand" in line for line in met), met
