"""A shell call's runnable part is what is left after its comment lines: a call of comments only (``# Check if the
fixture exists``) ran nothing, so it is no work done, no last action and no failure; a call with a comment line and
then a runnable line is named by the runnable line. A ``#`` line of a heredoc's body or a quoted string is text."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.shell import runnable

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items

FORMATS = {
    "pi": lambda command: ("bash", {"command": command}),
    "claude": lambda command: ("Bash", {"command": command, "description": "Look around"}),
    "codex": lambda command: ("exec_command", {"cmd": command}),
}
COMMENTS = ["# Check if the fixture exists", "# Look at the orders fixture\n# (it may be missing)\n",
            "\n  # TODO: seed the database later"]


def _session(agent: str, steps: list[tuple[str, str, bool]], reply: str | None = "Let me continue.") -> list[dict]:
    messages = [user("Add a fixture for the orders API test and make the orders tests pass."),
                assistant(call("e", "edit", path="tests/test_orders.py", oldText="x = 1", newText="x = 2")),
                result("e", "edit", "Successfully replaced text in tests/test_orders.py.")]
    for number, (command, output, failed) in enumerate(steps):
        tool, arguments = FORMATS[agent](command)
        messages += [assistant(call(f"s{number}", tool, **arguments)),
                     result(f"s{number}", tool, bash_fail(output, 1) if failed else output, error=failed)]
    return messages + ([assistant(reply)] if reply else [])


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("comment", COMMENTS)
@pytest.mark.parametrize("reply", [None, "Let me continue."])
def test_a_call_of_comments_only_is_no_command(agent: str, comment: str, reply: str | None) -> None:
    summary = summarize(_session(agent, [("pytest tests/test_orders.py", "3 passed in 0.2s", False),
                                         (comment, "", False)], reply))
    assert "`#" not in summary and "TODO: seed" not in summary and "(it may be missing)" not in summary
    assert "pytest tests/test_orders.py" in summary  # (the last command that ran is the one named)


@pytest.mark.parametrize("agent", sorted(FORMATS))
def test_a_command_after_a_comment_line_is_named_by_its_runnable_line(agent: str) -> None:
    failing = "# Run only the orders tests\npytest tests/test_orders.py"
    summary = summarize(_session(agent, [(failing, "FAILED tests/test_orders.py::test_total - KeyError: 'qty'\n"
                                                   "1 failed in 0.1s", True)]))
    blocked = [item for item in items(summary, "### Blocked") if item != "(none)"]
    assert blocked and blocked[0].startswith("`pytest tests/test_orders.py` failed")
    assert "Run only the orders tests" not in summary


@pytest.mark.parametrize(("command", "left"), [
    ("# Check if the fixture exists", ""),
    ("# one\n\n# two\n", ""),
    ("# Look first\nls tests/fixtures", "ls tests/fixtures"),
    ("set -e\n# step 1\nmake build\n# step 2\nmake test", "set -e\nmake build\nmake test"),
    ("ls tests  # the fixtures", "ls tests  # the fixtures"),
    ("python3 - <<'EOF'\n# a comment of the script\nprint(1)\nEOF", "python3 - <<'EOF'\n# a comment of the script\n"
                                                                    "print(1)\nEOF"),
    ('git commit -m "Fix totals\n\n# not a shell comment"', 'git commit -m "Fix totals\n\n# not a shell comment"'),
    ("echo issue#12", "echo issue#12"),
])
def test_the_runnable_part_of_a_command(command: str, left: str) -> None:
    assert runnable(command) == left
