"""A failure later dealt with another way is history, never a blocker nor a "Fix:" step (issue 20, class 4): the
same file changed by another tool, the chain's goal reached by another chain, the files a copy was to put in place
put there another way, a retry the user stopped, a change of approach the agent announced right after it. A failure
nothing later dealt with stays open. Each case on generated variations of tools and phrasings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

PATHS = st.sampled_from(["src/config/loader.py", "docs/guide.md", "web/app.ts"])
FAILED_CHANGES = st.sampled_from([
    ("edit", {"oldText": "timeout = 30", "newText": "timeout = 60"},
     "Could not find the exact text in {path}. The old text must match exactly."),
    ("Edit", {"old_string": "timeout = 30", "new_string": "timeout = 60"},
     "Error: old_string not found in {path}"),
    ("write", {"content": "timeout = 60\n"}, "EACCES: permission denied, open '{path}'"),  # (a hook's block: none)
])
OTHER_WAYS = st.sampled_from([
    ("write", lambda path: {"path": path, "content": "timeout = 60\n"}),
    ("bash", lambda path: {"command": f"sed -i 's/timeout = 30/timeout = 60/' {path}"}),
    ("bash", lambda path: {"command": f"cat > {path} <<'EOF'\ntimeout = 60\nEOF"}),
    ("bash", lambda path: {"command": f"cp /tmp/draft {path}"}),
])


def _no_fix(summary: str) -> None:
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps"))
    assert items(summary, "### Blocked") == ["(none)"]


@EXAMPLES
@given(path=PATHS, failed=FAILED_CHANGES, other=OTHER_WAYS)
def test_a_failed_change_of_a_file_later_changed_by_another_tool_is_history(path: str, failed: tuple,
                                                                             other: tuple) -> None:
    tool, arguments, error = failed
    later, later_arguments = other
    messages = [user("Raise the timeout to 60 seconds."),
                assistant(call("f", tool, path=path, **arguments)),
                result("f", tool, error.format(path=path), error=True),
                assistant("That did not apply; writing it another way.", call("o", later, **later_arguments(path))),
                result("o", later, "ok"),
                assistant(call("t", "bash", command="make check")), result("t", "bash", "all good")]
    _no_fix(summarize(messages))  # (mid-turn: a turn that ended finished settles its failures anyway)


@EXAMPLES
@given(path=PATHS, failed=FAILED_CHANGES, other=OTHER_WAYS)
def test_a_failed_change_stays_open_when_only_another_file_changed(path: str, failed: tuple, other: tuple) -> None:
    tool, arguments, error = failed
    later, later_arguments = other
    elsewhere = "notes/elsewhere.txt"
    messages = [user("Raise the timeout to 60 seconds."),
                assistant(call("f", tool, path=path, **arguments)),
                result("f", tool, error.format(path=path), error=True),
                assistant(call("o", later, **later_arguments(elsewhere))), result("o", later, "ok"),
                assistant("Let me look at why it did not apply.")]
    summary = summarize(messages)
    assert any(step.startswith("Fix") and path.rsplit("/", 1)[-1] in step for step in items(summary, "## Next Steps"))


@EXAMPLES
@given(chain=st.sampled_from([
    ("git fetch origin main && git rebase origin/main", "error: cannot rebase: You have unstaged changes.",
     "git stash && git rebase origin/main && git stash pop", "Successfully rebased and updated refs/heads/feature."),
    ("npm ci && npm run build", "npm ERR! code EUSAGE",
     "npm install && npm run build && ls dist/", "built in 2.1s\nindex.js"),
]))
def test_a_failed_chain_whose_goal_a_later_chain_reached_is_history(chain: tuple) -> None:
    failed, error, later, output = chain
    messages = [user("Bring the branch up to date and build it."),
                assistant(call("a", "bash", command=failed)), result("a", "bash", bash_fail(error, 1), error=True),
                assistant(call("b", "bash", command=later)), result("b", "bash", output),
                assistant("Done: the branch is up to date and builds.")]
    _no_fix(summarize(messages, kind="branch"))
    _no_fix(summarize(messages[:-1]))


@EXAMPLES
@given(source=st.sampled_from(["skills/linter", "tools/fmt"]), home=st.sampled_from(["~/.agent/skills/", "/opt/kit/"]))
def test_a_copy_that_failed_then_put_in_place_from_elsewhere_is_history(source: str, home: str) -> None:
    messages = [user("Install the skill."),
                assistant(call("c", "bash", command=f"cp -r {source} {home}")),
                result("c", "bash", bash_fail(f"cp: {source}: No such file or directory", 1), error=True),
                assistant(call("d", "bash", command=f"cp -r /work/repo/{source} {home}")), result("d", "bash", ""),
                assistant(call("l", "bash", command=f"ls {home}")), result("l", "bash", "linter")]
    _no_fix(summarize(messages))


@EXAMPLES
@given(missing=st.sampled_from([
    ("uv run python -m tools.planner 'plan the fixes'", "No module named tools.planner"),
    ("planctl generate --from REVIEW.md", "zsh:1: command not found: planctl"),
]), words=st.sampled_from([
    "There is no planner module in this repository, so I'll write the plan files by hand instead.",
    "The planner is not installed — let me create the plan manually following the review's findings.",
]))
def test_a_missing_tool_the_agent_then_worked_around_is_a_decision_not_a_blocker(missing: tuple, words: str) -> None:
    command, error = missing
    messages = [user("Plan the fixes from the review."),
                assistant(call("p", "bash", command=command)), result("p", "bash", bash_fail(error, 127), error=True),
                assistant(words, call("w", "write", path="plans/TASKS.md", content="# Tasks")),
                result("w", "write", "ok"),
                assistant(call("v", "write", path="plans/TEST-PLAN.md", content="# Tests")),
                result("v", "write", "ok")]
    summary = summarize(messages)
    _no_fix(summary)
    assert any("by hand" in item or "manually" in item for item in items(summary, "## Key Decisions"))


@EXAMPLES
@given(notice=st.sampled_from(["[Request interrupted by user for tool use]", "[Request interrupted by user]"]))
def test_a_failure_whose_retry_the_user_stopped_is_no_fix_step(notice: str) -> None:
    messages = [user("Validate the skills."),
                assistant(call("v", "bash", command="skills-ref validate ~/.agent/skills/x 2>&1")),
                result("v", "bash", bash_fail("zsh:1: command not found: skills-ref", 127), error=True),
                assistant(call("w", "bash", command="source .venv/bin/activate && skills-ref validate ~/.agent/skills/x")),
                result("w", "bash", "is there a branch for this already?", error=True), user(notice),
                user("is there a branch for this already?"),
                assistant(call("b", "bash", command="git branch -a")), result("b", "bash", "main\nskill-fixer"),
                assistant("Yes: `skill-fixer`. Shall I check it out?")]
    _no_fix(summarize(messages))


@EXAMPLES
@given(failure=st.sampled_from([("pytest -q", "FAILED tests/test_api.py::test_retry - AssertionError"),
                                ("cargo build", "error[E0308]: mismatched types")]))
def test_a_failure_nothing_later_dealt_with_stays_open(failure: tuple) -> None:
    command, error = failure
    messages = [user("Make the build green."),
                assistant(call("t", "bash", command=command)), result("t", "bash", bash_fail(error, 1), error=True),
                assistant(call("w", "write", path="notes/todo.md", content="x")), result("w", "write", "ok"),
                assistant("Let me look at the failure.")]
    summary = summarize(messages)
    assert any(step.startswith("Fix") and command in step for step in items(summary, "## Next Steps"))
