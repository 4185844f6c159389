"""A program that is not installed, after which the agent did the same job with another program, is no open error
(issue 20): ``mgrep`` not found, then ``grep -rn`` or the agent's own Grep tool found it; ``python`` not found, then
``python3`` ran the same script. It stays open when nothing after it did that job."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

NOT_FOUND = st.sampled_from([
    "zsh:1: command not found: {p}",
    "/bin/bash: line 1: {p}: command not found",
    "'{p}' is not recognized as an internal or external command,\noperable program or batch file.",
])
WORKAROUNDS = st.sampled_from([
    ("mgrep", "mgrep 'retry policy' src", ("bash", {"command": "grep -rn 'retry' src"}, "src/net.py:12: def retry():")),
    ("rg", "rg -n retry src", ("bash", {"command": "find src -name '*.py' | xargs grep -n retry"}, "src/net.py:12")),
    ("ag", "ag retry", ("Grep", {"pattern": "retry", "path": "src"}, "Found 1 file\nsrc/net.py")),
    ("fd", "fd retry src", ("Glob", {"pattern": "src/**/*retry*"}, "src/retry.py")),
    ("python", "python scripts/report.py --all", ("bash", {"command": "python3 scripts/report.py --all"}, "wrote report")),
])


def _session(workaround: tuple, not_found: str, later_failed: bool = False) -> list[dict]:
    program, command, (tool, arguments, output) = workaround
    later = result("b", tool, bash_fail(output, 2) if later_failed else output, error=later_failed)
    return [user("Find where the retry logic lives and report it."),
            assistant(call("a", "bash", command=command)),
            result("a", "bash", bash_fail(not_found.format(p=program), 127), error=True),
            assistant(f"{program} is not installed; using another way.", call("b", tool, **arguments)), later,
            assistant(call("w", "write", path="notes/retry.md", content="src/net.py")), result("w", "write", "ok"),
            assistant("Let me look at the next part.")]


def _open(summary: str) -> list[str]:
    return [step for step in items(summary, "## Next Steps") if step.startswith("Fix")] + \
        [item for item in items(summary, "### Blocked") if item != "(none)"]


@EXAMPLES
@given(WORKAROUNDS, NOT_FOUND)
def test_a_missing_program_whose_job_another_did_is_no_open_error(workaround: tuple, not_found: str) -> None:
    summary = summarize(_session(workaround, not_found))
    assert _open(summary) == [], summary


@EXAMPLES
@given(NOT_FOUND)
def test_a_missing_program_whose_replacement_failed_too_stays_open(not_found: str) -> None:
    python = ("python", "python scripts/report.py --all", ("bash", {"command": "python3 scripts/report.py --all"},
                                                             "Traceback (most recent call last):\nKeyError: 'all'"))
    assert _open(summarize(_session(python, not_found, later_failed=True)))  # (a failed search is a lookup anyway)


@EXAMPLES
@given(NOT_FOUND)
def test_a_missing_program_whose_job_nothing_did_stays_open(not_found: str) -> None:
    messages = [user("Deploy the preview."),
                assistant(call("a", "bash", command="flyctl deploy --remote-only")),
                result("a", "bash", bash_fail(not_found.format(p="flyctl"), 127), error=True),
                assistant(call("g", "bash", command="grep -rn fly fly.toml")), result("g", "bash", "app = 'x'"),
                assistant("Let me look at the next part.")]
    assert _open(summarize(messages))


def test_a_bare_option_run_by_another_program_is_no_workaround() -> None:
    messages = [user("Deploy the preview."),
                assistant(call("a", "bash", command="flyctl --version")),
                result("a", "bash", bash_fail("zsh:1: command not found: flyctl", 127), error=True),
                assistant(call("g", "bash", command="node --version")), result("g", "bash", "v22.1.0"),
                assistant("Let me look at the next part.")]
    assert _open(summarize(messages))
