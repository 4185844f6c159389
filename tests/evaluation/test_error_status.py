"""Error status (no labels): the scorer judges an error's status only where the region decides it. A failure
the agent acted on by editing a file its output names, with no rerun since, is being fixed: calling it open is
as fair as calling it resolved. A path's bare last part with no extension (``…/worktrees/2/index``) is a common
word, so it does not tie a summary's error to an unrelated failure that happens to print that word."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.evaluation.quality import score_quality
from tests.compaction.messages import assistant, bash_fail, call, result, user

FAILURES = (
    ("go build ./...", "cmd/app/handlers.go:634:64: not enough arguments in call to InitializeSession",
     "cmd/app/handlers.go"),
    ("git merge origin/feature --no-edit", "CONFLICT (content): Merge conflict in pkg/session/state.go\n"
     "Automatic merge failed; fix conflicts and then commit the result.", "pkg/session/state.go"),
    ("npx tsc --noEmit", "src/chat.ts(28,2): error TS2739: missing selectedPrefix", "src/chat.ts"),
)


def _failed_then(command: str, output: str, *after: dict) -> list[dict]:
    return [user("build it"), assistant(call("c1", "bash", command=command)),
            result("c1", "bash", bash_fail(output, 1), error=True), *after]


def _edit(path: str, number: int = 2) -> list[dict]:
    return [assistant(call(f"e{number}", "edit", path=path, oldText="a", newText="b")),
            result(f"e{number}", "edit", f"Successfully replaced text in {path}.")]


def _open_claim(command: str, output: str) -> str:
    return f"## Blocked\n- `{command}` failed: {output.splitlines()[-1]}\n"


def _resolved_claim(command: str, output: str) -> str:
    return f"## Progress\n### Done\n- [x] Fixed: `{command}` failed: {output.splitlines()[-1]}\n"


@pytest.mark.parametrize(("command", "output", "path"), FAILURES)
@pytest.mark.parametrize("claim", [_open_claim, _resolved_claim])
def test_a_failure_being_fixed_and_not_rerun_is_not_judged(command, output, path, claim):
    messages = _failed_then(command, output, *_edit(path))
    assert score_quality(messages, claim(command, output)).error_mistakes == ()


@pytest.mark.parametrize(("command", "output", "path"), FAILURES)
def test_a_failure_rerun_and_passing_is_resolved_even_after_edits(command, output, path):
    messages = _failed_then(command, output, *_edit(path), assistant(call("c3", "bash", command=command)),
                            result("c3", "bash", "ok"))
    assert score_quality(messages, _open_claim(command, output)).error_mistakes
    assert score_quality(messages, _resolved_claim(command, output)).error_mistakes == ()


@pytest.mark.parametrize(("command", "output", "path"), FAILURES)
def test_a_failure_left_alone_is_open(command, output, path):
    messages = _failed_then(command, output, assistant("I will look at it later."))
    assert score_quality(messages, _open_claim(command, output)).error_mistakes == ()
    assert score_quality(messages, _resolved_claim(command, output)).error_mistakes


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(["index", "config", "HEAD", "main", "build"]),
       depth=st.integers(min_value=1, max_value=4))
def test_a_bare_path_tail_does_not_tie_an_error_to_another_failure(name, depth):
    path = "/".join(["/repo/.git"] + [f"d{n}" for n in range(depth)] + [name])
    messages = [
        user("why is the repo broken?"),
        assistant(call("c1", "bash", command="git status")),
        result("c1", "bash", bash_fail("fatal: unable to read e53647ba1f1e5203bedff558b482f178db045555", 128),
               error=True),
        # a later, unrelated failure that prints the bare word, then settled by its own rerun
        assistant(call("c2", "bash", command=f"chmod -x {name}-hook")),
        result("c2", "bash", bash_fail(f"chmod: {name}-hook: No such file or directory", 1), error=True),
        assistant(call("c3", "bash", command=f"chmod -x {name}-hook")),
        result("c3", "bash", "ok"),
    ]
    summary = (f"## Blocked\n- `git status` failed: fatal: unable to read e53647ba1f1e5203bedff558b482f178db045555"
               f" (the index `{path}` points at it)\n")
    assert score_quality(messages, summary).error_mistakes == ()


@pytest.mark.parametrize("product", ["ClickHouse", "PostgreSQL", "GitHub"])
def test_one_shared_name_does_not_make_another_failure_the_same_error(product):
    messages = [
        user("make the e2e tests pass"),
        assistant(call("c1", "bash", command="bun verify")),
        result("c1", "bash", bash_fail(f"@chkit/{product.lower()}: typecheck failed", 1), error=True),
        assistant(call("c2", "bash", command="bun verify")),
        result("c2", "bash", "all green"),
        assistant(f"Same 4 failures: `select_sequential_consistency` alone is not enough on {product}."),
    ]
    summary = (f"## Next Steps\n1. Same 4 failures: `select_sequential_consistency` alone is not enough on "
               f"{product}; look at async inserts.\n")
    assert score_quality(messages, summary).error_mistakes == ()


@pytest.mark.parametrize("condition", ["when {x} fails", "if {x} errors out", "whenever {x} fails",
                                       "in case {x} fails", "unless {x} fails"])
@pytest.mark.parametrize("section", ["## Next Steps\n1. ", "## Blocked\n- "])
def test_a_condition_in_a_plan_item_is_no_error_report(condition, section):
    output = "--- FAIL: TestRewind (0.01s)\nrewind.go:40: restoreFromStrategy returned nil, restoreFromShadow not called"
    messages = _failed_then("go test ./...", output,
                            assistant(call("c2", "bash", command="go test ./...")), result("c2", "bash", "ok"))
    item = ("Update the callers in `rewind.go` to use `restoreFromShadow` "
            + condition.format(x="`restoreFromStrategy`") + ".")
    assert score_quality(messages, section + item + "\n").error_mistakes == ()
    # the same item reporting the failure itself is judged
    assert score_quality(messages, section + "`go test ./...` fails in `rewind.go`: TestRewind\n").error_mistakes


@pytest.mark.parametrize("name", ["plugin-error.ts", "error_handler.py", "src/errors/index.ts"])
def test_the_word_error_inside_a_backticked_file_name_is_no_error_report(name):
    messages = _failed_then("npm test", f"FAIL {name}\n  TypeError: x is undefined",
                            assistant(call("c2", "bash", command="npm test")), result("c2", "bash", "ok"))
    assert score_quality(messages, f"## Next Steps\n1. Read `{name}` and add a case\n").error_mistakes == ()


FIXES_HEADINGS = ("4. Errors and fixes:", "## Errors and Fixes", "## Problems solved", "### Issues resolved")


@pytest.mark.parametrize("heading", FIXES_HEADINGS)
@pytest.mark.parametrize("entry", ["- {x}", "**Error 1:**\n- {x}"])
def test_an_errors_and_fixes_log_reports_its_errors_settled(heading, entry):
    output = "src/chat.ts(28,2): error TS2739: missing selectedPrefix"
    fixed = _failed_then("npx tsc --noEmit", output, assistant(call("c3", "bash", command="npx tsc --noEmit")),
                         result("c3", "bash", "ok"))
    still = _failed_then("npx tsc --noEmit", output, assistant("I will look at it later."))
    past = "`npx tsc --noEmit` failed: error TS2739 in `src/chat.ts`, added the prefix"
    summary = f"{heading}\n{entry.format(x=past)}\n"
    assert score_quality(fixed, summary).error_mistakes == ()
    assert score_quality(still, summary).error_mistakes  # the log calls it settled: wrong where it is open


@pytest.mark.parametrize("marker", ["Ongoing:", "Still failing:", "Current issue:", "Not yet fixed:"])
def test_an_entry_marked_open_is_open_whatever_its_heading_or_explanation(marker):
    output = "src/chat.ts(28,2): error TS2739: missing selectedPrefix"
    still = _failed_then("npx tsc --noEmit", output, assistant("I will look at it later."))
    item = f"{marker} `npx tsc --noEmit` fails with error TS2739 in `src/chat.ts`; the root cause is the old type"
    for heading in ("## Errors and fixes", "## Blocked"):
        assert score_quality(still, f"{heading}\n- {item}\n").error_mistakes == ()


@pytest.mark.parametrize("tool", ["bash", "Bash", "BASH", "exec_command", "shell", "run_terminal_cmd"])
def test_a_chain_that_passes_settles_its_parts_whatever_the_shell_tool_is_called(tool):
    """Each agent names its shell tool its own way (pi's ``bash``, Claude Code's ``Bash``, Codex's
    ``exec_command``): a later ``ruff check . && pytest -q`` that passes settles an earlier ``pytest -q`` in all."""
    output = "FAILED tests/test_api.py::test_get - AssertionError"
    messages = [user("make the tests pass"), assistant(call("c1", tool, command="pytest -q")),
                result("c1", tool, bash_fail(output, 1), error=True),
                assistant(call("c2", tool, command="ruff check . && pytest -q")), result("c2", tool, "12 passed")]
    assert score_quality(messages, _open_claim("pytest -q", output)).error_mistakes
    assert score_quality(messages, _resolved_claim("pytest -q", output)).error_mistakes == ()


@pytest.mark.parametrize(("command", "output", "path"), FAILURES)
@pytest.mark.parametrize("heading", ["Key Decisions", "Decisions", "Decided with the user"])
def test_a_decision_naming_a_settled_error_claims_no_status(command, output, path, heading):
    """A decision names the errors a design handles ("catch the error the build printed"); it says nothing of
    whether the failure is still open, so a rerun that settled the failure makes it no mistake."""
    messages = _failed_then(command, output, *_edit(path), assistant(call("c3", "bash", command=command)),
                            result("c3", "bash", "ok"))
    decision = f"- Agreed with the user: handle the error `{command}` printed: {output.splitlines()[-1]}\n"
    assert score_quality(messages, f"## {heading}\n{decision}").error_mistakes == ()
    assert score_quality(messages, f"## In Progress\n{decision}").error_mistakes
