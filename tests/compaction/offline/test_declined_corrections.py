"""What the user says while declining a call is their instruction for the rest of the work (issue 20): it is kept
under Constraints in the user's words, whatever harness put it there (Claude Code's "the user said:", Codex's and a
permission gate's "rejected by user: …", a "Feedback:" line); the declined call stays no error, no blocker and no
changed file; and the rule binds until the user lifts it or the region reverses it."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.outcome import refusal_reason

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import changed_files, items

DECLINES = [
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the "
    "new_string was NOT written to the file). To tell you how to proceed, the user said:\n{}",
    "exec command rejected by user\nReason: {}",
    "patch rejected by user: {}",
    "User rejected the tool call. Feedback: {}",
    "Blocked by user — {}",
    "Tool call was rejected by the user. The user said: {}",
]
REASONS = [
    "don't mock the DB, use the real one",
    "no, use pnpm not npm",
    "stop editing generated files, change the template instead",
    "不要修改生成的文件，改模板",
    "生成ファイルは編集しないでください",
]


def _declined(decline: str, reason: str, tool: str = "write") -> list[dict]:
    arguments = {"command": "cat > tests/test_repo.py <<'EOF'\nmock\nEOF"} if tool == "bash" else \
        {"path": "tests/test_repo.py", "content": "mock"}
    return [user("Add tests for the repository layer."),
            assistant("I'll write the test.", call("x", tool, **arguments)),
            result("x", tool, decline.format(reason), error=True),
            assistant("Understood.", call("y", "write", path="tests/test_store.py", content="real")),
            result("y", "write", "ok")]


@pytest.mark.parametrize("decline", DECLINES)
@pytest.mark.parametrize("reason", REASONS)
def test_what_the_user_said_on_declining_is_read_in_every_harness_form(decline: str, reason: str) -> None:
    assert refusal_reason(decline.format(reason)) == reason


@pytest.mark.parametrize("decline", DECLINES)
@pytest.mark.parametrize("reason", REASONS)
@pytest.mark.parametrize("tool", ["write", "bash"])
def test_the_reason_for_declining_is_a_constraint_and_the_call_no_error(decline: str, reason: str,
                                                                       tool: str) -> None:
    summary = summarize(_declined(decline, reason, tool))
    assert any(reason in rule for rule in items(summary, "## Constraints & Preferences")), summary
    assert items(summary, "### Blocked") == ["(none)"]
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps"))
    assert "tests/test_repo.py" not in changed_files(summary)


@pytest.mark.parametrize("lifted", [
    "Actually, go back to mocking the DB, the real one is too slow for these tests.",
    "Feel free to mock the DB in these tests, the real one is too slow.",
])
def test_a_correction_the_user_lifted_later_binds_no_more(lifted: str) -> None:
    messages = [*_declined(DECLINES[0], "don't mock the DB, use the real one"),
                assistant("The repository tests run against the real DB now."),
                user(lifted)]
    rules = items(summarize(messages), "## Constraints & Preferences")
    assert not any(rule == "don't mock the DB, use the real one" for rule in rules), rules


def test_a_correction_nothing_lifted_still_binds_after_other_work() -> None:
    messages = [*_declined(DECLINES[0], "don't mock the DB, use the real one"),
                assistant("The repository tests run against the real DB now."),
                user("Now add a README section about the repository layer."),
                assistant(call("r", "edit", path="README.md", oldText="a", newText="b")), result("r", "edit", "ok"),
                assistant("Added the README section.")]
    rules = items(summarize(messages), "## Constraints & Preferences")
    assert any("don't mock the DB" in rule for rule in rules), rules
