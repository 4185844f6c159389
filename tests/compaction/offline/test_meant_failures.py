"""A failure the agent meant is no blocker (issue 20): a negative test (an invalid flag, a missing file, a call
without credentials) exits non-zero on purpose. The call says so itself (a comment, a printed label, its
description), or the agent's words before it say it checks an error path, or its words after accept the failure as
the outcome wanted, in any agent's format and several languages. A deliberate failure whose outcome the agent then
doubted or looked into stays open, as does a run of the project's own checks."""

from __future__ import annotations

import pytest

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items

FORMATS = {
    "pi": lambda command, described: ("bash", {"command": command}),
    "claude": lambda command, described: ("Bash", {"command": command, "description": described}),
    "codex": lambda command, described: ("exec_command", {"cmd": command}),
}
ERROR = "Error: unknown option '--bogus'\nUsage: mycli [options] <file>"


def _session(command: str, before: str = "", after: str = "", described: str = "Run the CLI",
             agent: str = "pi") -> list[dict]:
    tool, arguments = FORMATS[agent](command, described)
    blocks = [before] if before else []
    said = [after] if after else []
    return [user("Add input validation to the CLI, cover its error paths, then update docs/cli.md."),
            assistant(*blocks, call("t", tool, **arguments)),
            result("t", tool, bash_fail(ERROR, 2), error=True),
            assistant(*said, call("w", "write", path="docs/cli.md", content="# CLI\n")),
            result("w", "write", "ok")]


def _open(summary: str) -> bool:
    fixes = [step for step in items(summary, "## Next Steps") if step.startswith("Fix")]
    return items(summary, "### Blocked") != ["(none)"] or bool(fixes)


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("command", [
    "mycli --bogus data.json  # should fail",
    "mycli --bogus data.json # expect error: unknown option",
    'echo "negative test: unknown flag"; mycli --bogus data.json',
    "mycli --bogus data.json  # 应该失败",
])
def test_a_command_that_says_it_should_fail_is_no_blocker(agent: str, command: str) -> None:
    assert not _open(summarize(_session(command, agent=agent)))


@pytest.mark.parametrize("described", ["Verify an unknown flag is rejected", "Test error handling for a bad flag",
                                       "Check that invalid options are refused"])
def test_a_call_described_as_a_check_of_an_error_path_is_no_blocker(described: str) -> None:
    assert not _open(summarize(_session("mycli --bogus data.json", described=described, agent="claude")))


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("before", [
    "Now let me verify that an unknown flag is rejected:",
    "Testing the error path with a missing file.",
    "Let me make sure requests without auth are refused.",
    "现在测试无效参数是否被拒绝：",
    "不正な入力が拒否されるか確認します。",
    "Jetzt prüfe ich, ob ungültige Eingaben abgelehnt werden.",
    "Vérifions que l'option invalide est rejetée.",
])
def test_a_call_the_agent_said_checks_an_error_path_is_no_blocker(agent: str, before: str) -> None:
    assert not _open(summarize(_session("mycli --bogus data.json", before=before, agent=agent)))


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("after", [
    "The CLI correctly rejects the unknown flag. Now the docs.",
    "As expected, it exits 2 on an unknown option.",
    "✓ unknown flag refused. Moving on to the docs.",
    "Error handling works. Updating the docs.",
    "Good — the bad flag gets rejected as it should.",
    "未知参数被正确拒绝。接下来更新文档。",
    "期待通りエラーになりました。",
    "Die unbekannte Option wird korrekt abgelehnt.",
    "La opción desconocida se rechaza correctamente.",
])
def test_a_failure_the_agent_accepted_as_the_outcome_wanted_is_no_blocker(agent: str, after: str) -> None:
    assert not _open(summarize(_session("mycli --bogus data.json", after=after, agent=agent)))


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("after", [
    "Hmm, it should have failed with 1, not 2. Let me look at the exit codes.",
    "That is wrong: the flag is valid. Let me look at the parser.",
    "Let me look at why it exits 2 here.",
    "It rejects the flag, but the message is wrong.",
])
def test_a_meant_failure_whose_outcome_the_agent_doubted_stays_open(agent: str, after: str) -> None:
    before = "Now let me verify that an unknown flag is rejected:"
    assert _open(summarize(_session("mycli --bogus data.json", before=before, after=after, agent=agent)))


@pytest.mark.parametrize(("command", "before"), [
    ("mycli --bogus data.json", ""),
    ("pytest tests/test_cli.py -k invalid_flag", "Let me run the tests for the invalid flag handling."),
    ("pytest tests/test_cli.py -k invalid_flag", "Now verify that an unknown flag is rejected:"),
    ("mycli --bogus data.json", "Let me check why the unknown flag is rejected:"),
    ("mycli load missing.json", "Let me test the fix for the missing file crash."),
    ("mycli --bogus data.json", "Let me try again without the invalid flag."),
])
def test_a_failure_nobody_meant_stays_open(command: str, before: str) -> None:
    """No word of the call's or the agent's says it was meant (looking into why a call is rejected, testing a fix
    for a bad input, retrying are not); a run of the project's checks is never meant to fail, whatever it tests."""
    assert _open(summarize(_session(command, before=before)))


@pytest.mark.parametrize(("text", "wanted"), [
    ("The API correctly returns 401 for a missing token.", True),
    ("Unauthenticated requests get 403 as they should.", True),
    ("It exits 1 as expected.", True),
    ("The parser now correctly reports the error line.", False),
    ("All tests pass as expected.", False),
    ("It does not correctly reject the flag.", False),
    ("It fails as expected? No, it should have passed.", False),
])
def test_accepting_words_are_read_next_to_the_failure(text: str, wanted: bool) -> None:
    from pi_compact.compaction.offline.explained import accepted

    assert accepted(text) is wanted
