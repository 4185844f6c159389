"""A program called with a subcommand or option it does not know (issue 20): the agent mistyped, then ran the
same program again correctly. The usage error is then history, no open error nor "Fix:" step, as a program the
shell could not find is once a later command ran it (test_missing_programs.py); while nothing ran the program
since, it stays open."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.errors import misused_program
from pi_compact.compaction.offline.facts import failure_line

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

MISTYPED = st.sampled_from([
    ("git unstage config.yml", "git: 'unstage' is not a git command. See 'git --help'.",
     "git restore --staged config.yml"),
    ("git unstage config.yml", "git: 'unstage' is not a git command. See 'git --help'.\n\nThe most similar command is"
     "\n\tinstaweb", "git restore --staged config.yml"),  # git's suggestion ends the output
    ("npm instal", "error: unknown command 'instal' for 'npm'", "npm install"),
    ("uv pip index versions httpx", "error: unrecognized subcommand 'index'\n\nUsage: uv pip [OPTIONS] <COMMAND>",
     "uv pip install httpx"),
    ("git gc --dry-run", "error: unknown option `dry-run'\nusage: git gc [<options>]", "git count-objects -v"),
    ("python cli.py --batch a b", "usage: cli.py [-h] skill_path\ncli.py: error: unrecognized arguments: --batch a b",
     "python cli.py a"),
    ("flask rn", "Usage: flask [OPTIONS] COMMAND [ARGS]...\nError: No such command 'rn'.", "flask routes"),
    ("cargo tets", "error: no such command: `tets`", "cargo test"),
    ("docker compose up --detatch", "unknown flag: --detatch", "docker compose up -d"),
])
FOLDERS = st.sampled_from(["", "cd app && ", "cd /work/api && "])


def _session(mistyped: tuple, folder: str, later_failed: bool) -> list:
    bad, error, good = mistyped
    later = result("b", "bash", bash_fail("fatal: not a git repository", 128) if later_failed else "done",
                   error=later_failed)
    return [user("Tidy up the staging area and the dependencies."),
            assistant(call("a", "bash", command=folder + bad)),
            result("a", "bash", bash_fail(error, 1), error=True),
            assistant(call("b", "bash", command=folder + good)), later,
            assistant(call("n", "write", path="notes/tidy.md", content="tidied")), result("n", "write", "ok"),
            assistant("Let me look at the next part.")]


@EXAMPLES
@given(mistyped=MISTYPED, folder=FOLDERS)
def test_a_mistyped_command_run_again_correctly_is_history(mistyped: tuple, folder: str) -> None:
    summary = summarize(_session(mistyped, folder, later_failed=False))
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps")), summary
    assert [item for item in items(summary, "### Blocked") if item != "(none)"] == [], summary


@EXAMPLES
@given(mistyped=MISTYPED, folder=FOLDERS)
def test_a_mistyped_command_whose_program_never_ran_since_stays_open(mistyped: tuple, folder: str) -> None:
    summary = summarize(_session(mistyped, folder, later_failed=True))
    assert any(step.startswith("Fix") for step in items(summary, "## Next Steps")), summary


@pytest.mark.parametrize(("error", "command", "program"), [
    ("git: 'unstage' is not a git command. See 'git --help'.", "git unstage x", "git"),
    ("error: unknown command 'instal' for 'npm'", "cd web && npm instal", "npm"),
    ("cli.py: error: unrecognized arguments: --batch", "python cli.py --batch", "python"),
    ("error: unknown option `dry-run'", "git fetch && git gc --dry-run", "git"),
    ("error: unknown option `dry-run'", "make a && cargo b --dry-run", None),  # which of two, the error does not say
    ("npm ERR! missing script: build", "npm run build", None),  # a project's fault, not a mistyped call
    ("OSError: [Errno 22] Invalid argument: 'out/a:b.txt'", "python export.py", None),  # EINVAL: the run failed
    ("Error: EINVAL: invalid argument, open 'dist/x'", "node build.js", None),
    ("TypeError: run() got an unexpected keyword argument 'fast'", "python cli.py", None),  # the code's fault
    ("FAILED tests/test_cli.py::test_unknown_command - AssertionError", "pytest tests/test_cli.py", None),
])
def test_the_misused_program_is_the_one_the_error_names(error: str, command: str, program: str | None) -> None:
    assert misused_program(error, command) == program


def test_a_usage_error_is_the_line_said_of_the_failure() -> None:
    output = "git: 'unstage' is not a git command. See 'git --help'.\n\nThe most similar command is\n\tinstaweb"
    assert failure_line(output, shell=True) == "git: 'unstage' is not a git command. See 'git --help'."
