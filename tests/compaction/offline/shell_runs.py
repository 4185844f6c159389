"""What the tests of a failed shell run that a later run may settle share: the shell tools of three agents, a session
of the failed run and the later one, what a summary leaves open, and a timed lookup of wider runs."""

from __future__ import annotations

from collections.abc import Callable

from pi_compact.compaction.offline.paths import PathNames
from pi_compact.compaction.offline.wider import WiderRuns

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items

CWD = "/home/dev/proj"
FORMATS = {  # an agent's shell tool: its name and arguments for a command
    "pi": lambda command: ("bash", {"command": command}),
    "claude": lambda command: ("Bash", {"command": command, "description": "Run it"}),
    "codex": lambda command: ("exec_command", {"cmd": command}),
}


def failed_then_later(agent: str, request: str, failed: str, error: str, later: str, output: str, *,
                      later_failed: bool = False, cwd: str | None = None) -> list[dict]:
    """``failed`` with ``error``, then ``later`` with ``output``, then a read: the region ends mid-turn, where only the
    later run can settle the failure. With ``cwd`` the session runs from that folder."""
    first, first_arguments = FORMATS[agent](failed)
    if cwd and agent == "claude" and failed.startswith("cd "):
        # Claude Code's one shell stays where the failed run's `cd` took it: the agent goes back first
        later = f"cd {cwd} && {later}"
    second, second_arguments = FORMATS[agent](later)
    return [user(request),
            assistant(call("a", first, **first_arguments)), result("a", first, bash_fail(error, 1), error=True),
            assistant(call("b", second, **second_arguments)),
            result("b", second, bash_fail(output, 1) if later_failed else output, error=later_failed),
            assistant(call("r", "read", path=f"{cwd}/docs/notes.md" if cwd else "docs/notes.md")),
            result("r", "read", "# Notes\n")]


def summary_in_cwd(messages: list[dict]) -> str:
    return summarize(messages, metadata={"cwd": CWD})


def open_failures(summary: str) -> list[str]:
    """The failures a summary still holds open: its blocked items and the next steps that fix something."""
    return [item for item in items(summary, "### Blocked") if item != "(none)"] + \
        [step for step in items(summary, "## Next Steps") if step.startswith("Fix")]


def wider_lookups(passed: list[str], failed: list[str]) -> Callable[[], None]:
    """A run to time: the ``passed`` commands are added as wider runs, then each ``failed`` one asks if they settle
    it."""
    def run() -> None:
        runs = WiderRuns(PathNames(CWD, ()))
        for command in passed:
            runs.add(command, "")
        for command in failed:
            runs.settles(command, "")
    return run
