"""A program the shell could not find (issue 20, class 4): once a later command that succeeded ran it (by its full
path, after an install), the failure is history, no blocker nor "Fix:" step; while nothing ran it, it stays open.
A failed ``which X`` is the answer "not installed", a lookup; retries after ``sleep N &&`` are the same check."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.errors import command_key, missing_program

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

NOT_FOUND = st.sampled_from([
    ("(eval):1: command not found: {p}", 127),
    ("zsh:1: command not found: {p}", 127),
    ("bash: line 1: {p}: command not found", 127),
    ("sh: 1: {p}: not found", 127),
    ("{p} : The term '{p}' is not recognized as the name of a cmdlet, function, script file, or operable program.", 1),
])
PROGRAMS = st.sampled_from([("docker", "docker compose up -d", "/Applications/Docker.app/Contents/Resources/bin/docker info"),
                            ("uv", "uv sync", "~/.local/bin/uv sync"),
                            ("terraform", "terraform plan", "/opt/tools/terraform plan -out=plan.bin")])


def _session(program: tuple, not_found: tuple, later_output: str, later_failed: bool) -> list:
    name, command, by_path = program
    text, code = not_found
    later = result("b", "bash", bash_fail(later_output, 1) if later_failed else later_output, error=later_failed)
    return [user(f"Bring the services up with {name}."),
            assistant(call("a", "bash", command=command)),
            result("a", "bash", bash_fail(text.format(p=name), code), error=True),
            assistant(f"{name} is not on the PATH; trying its full path.", call("b", "bash", command=by_path)),
            later,
            assistant(call("n", "write", path="notes/services.md", content="up")), result("n", "write", "ok"),
            assistant("Let me look at the next part.")]


def _blocked(summary: str) -> list[str]:
    return [item for item in items(summary, "### Blocked") if item != "(none)"]


@EXAMPLES
@given(program=PROGRAMS, not_found=NOT_FOUND)
def test_a_missing_program_run_since_by_a_command_that_succeeded_is_history(program: tuple, not_found: tuple) -> None:
    summary = summarize(_session(program, not_found, "Server: Docker Engine 27.1", later_failed=False))
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps")), summary
    assert _blocked(summary) == []


@EXAMPLES
@given(program=PROGRAMS, not_found=NOT_FOUND)
def test_a_missing_program_whose_later_run_failed_too_stays_open(program: tuple, not_found: tuple) -> None:
    summary = summarize(_session(program, not_found, "permission denied", later_failed=True))
    assert any(step.startswith("Fix") for step in items(summary, "## Next Steps")), summary


@pytest.mark.parametrize(("error", "command", "program"), [
    ("(eval):1: command not found: docker", "docker compose up -d", "docker"),
    ("bash: docker: command not found", "sudo docker ps", "docker"),
    ("sh: 1: uv: not found", "cd app && uv sync", "uv"),
    ("'npx' is not recognized as an internal or external command,", "npx tsc", "npx"),
    ("cat: notes.txt: No such file or directory", "cat notes.txt", None),  # a file, not the program
    ("ls: x: not found", "ls x", None),  # (a name the command does not run)
    ("Error: config not found", "make deploy", None),
])
def test_the_missing_program_is_one_the_command_runs(error: str, command: str, program: str | None) -> None:
    assert missing_program(error, command) == program


@pytest.mark.parametrize("lookup", ["which bfg && bfg --version", "command -v bfg", "type bfg", "whereis bfg",
                                    "cd repo && which bfg"])
def test_a_failed_question_whether_a_program_is_installed_is_no_open_error(lookup: str) -> None:
    messages = [user("Scrub the secrets from history with BFG."),
                assistant(call("w", "bash", command=lookup)), result("w", "bash", bash_fail("bfg not found", 1), error=True),
                assistant("BFG is not installed; git-filter-repo is.", call("g", "bash", command="git filter-repo --version")),
                result("g", "bash", "a40bce548d2c"),
                assistant("Let me scan the history first.")]
    summary = summarize(messages)
    assert _blocked(summary) == [], summary
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps"))


@pytest.mark.parametrize("retry", ["sleep 5 && brew install bfg 2>&1 | tail -10", "sleep 30; brew install bfg",
                                   "cd /tmp && sleep 2 && brew install bfg"])
def test_a_retry_after_a_wait_is_the_same_check(retry: str) -> None:
    assert command_key(retry) == command_key("brew install bfg") == "brew install bfg"
    messages = [user("Install BFG."),
                assistant(call("a", "bash", command="brew install bfg")),
                result("a", "bash", bash_fail("Error: another brew process holds the lock", 1), error=True),
                assistant(call("b", "bash", command=retry)),
                result("b", "bash", bash_fail("Error: another brew process holds the lock", 1), error=True),
                assistant("The lock is still held.")]
    assert len(_blocked(summarize(messages))) == 1
