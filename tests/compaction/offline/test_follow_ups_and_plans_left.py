"""Classes of the goal, the work in progress and the next steps (tuned on calibration sessions):

1. a short follow-up fragment ("and also drop the header, like <pasted example>", "continue, use subagents")
   refines the standing request; it is not the goal;
3. a region that ends mid-work on a plan the user wrote out: the plan's files no call changed, and its checks not
   run, are the rest of the work (a next step);
4. a region that ends on a shell call whose result is not in it: that call is what the agent was doing last, the
   outcome to check first.
"""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.goal import follows_up
from pi_compact.compaction.offline.plan_left import plan_left

from ..messages import assistant, call, result, user
from .test_offline import items, summarize


def _sed(key: str, path: str) -> list[dict]:
    return [assistant(call(key, "bash", command=f"sed -i '/^<!-- skip/d' {path}")), result(key, "bash", "")]


# -- 1. a follow-up fragment refines the goal -------------------------------------------------------------------


@pytest.mark.parametrize("fragment", [
    "and also strip the header block, like\n---\ntitle: Intro\nsummary: the first page of the guide\n"
    "category: tutorial\nread_when:\n  - starting out\n  - reading the guide for the first time\n---",
    "also the notes folder please, the same markers are in there too",
    "only the guide folder please, leave the changelog as it is",
])
def test_a_follow_up_fragment_does_not_replace_the_standing_goal(fragment: str) -> None:
    messages = [user("hello, anyone there?"), assistant("Yes. What can I do for you?"),
                user("Please remove every skip marker of the linter from the markdown files of the guide and delete "
                     "its config file, so that the repository looks as if the linter was never used."),
                *_sed("s1", "guide/intro.md"), assistant("Done: the markers are gone from guide/intro.md."),
                user(fragment), *_sed("s2", "guide/setup.md"), assistant("Done for guide/setup.md as well.")]
    goal = items(summarize(messages), "## Goal")[0]
    assert goal.startswith("Please remove every skip marker")


def test_continue_with_a_rule_leaves_the_attached_plan_as_the_goal() -> None:
    messages = [user("@docs/plans/2025-01-10-export-plan.md Go."), assistant("Task 1 is done. Continue?"),
                user("continue"), assistant("Task 2 is done."),
                user("continue, use subagents"), assistant("Two agents launched for task 3.")]
    goal = items(summarize(messages), "## Goal")[0]
    assert "2025-01-10-export-plan.md" in goal


@pytest.mark.parametrize("request_text, expected", [
    ("and pls remove the starting part, like\n---\ntitle: a b c d e f g h i j k l m n o p\n---", True),
    ("continue, use subagents", True),
    ("only README", True),
    ("Please remove every skip marker from the docs and delete the config file.", False),
    ("Only after the tests pass should you start on the export: first fix the three failing parser tests in "
     "tests/test_parse.py, then the flaky one", False),
])
def test_follows_up(request_text: str, expected: bool) -> None:
    assert follows_up(request_text) is expected


# -- 3. the plan's parts never written --------------------------------------------------------------------------

PLAN = """Implement the following plan:

# Plan: Report export in three formats

## Context

The reports page (`src/app/pages.py`) only renders HTML. Add CSV, JSON and PDF exports.

## 1. CSV export (`src/app/export/csv_export.py`)

Write rows with the stdlib csv module.

## 2. JSON export

- `src/app/export/json_export.py` — dump the rows as a list of objects
- Reuses `render_rows()` from `src/app/rows.py`

## 3. PDF export

- `src/app/export/pdf_export.py` — one page per 40 rows

## Tests (new files)

- `tests/export/test_csv_export.py`
- `tests/export/test_json_export.py`
- `tests/export/test_pdf_export.py`

## Verification

```bash
make lint        # style
make test        # unit tests
make integration # the export end to end
# Manual:
open http://localhost:8000/reports
```
"""


def _write(key: str, path: str) -> list[dict]:
    return [assistant(call(key, "write", path=path, content="x = 1\n")), result(key, "write", "ok")]


def test_the_plans_unwritten_parts_are_a_next_step() -> None:
    messages = [user(PLAN), *_write("w1", "src/app/export/csv_export.py"),
                *_write("w2", "tests/export/test_csv_export.py"),
                assistant(call("l", "bash", command="make lint")), result("l", "bash", "All checks passed"),
                *_write("w3", "src/app/export/json_export.py"),
                assistant("Now the JSON tests.", call("w4", "write", path="tests/export/test_json_export.py",
                                                      content="def test_x(): pass\n")),
                result("w4", "write", "ok")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    for left in ("src/app/export/pdf_export.py", "tests/export/test_pdf_export.py", "make test", "make integration"):
        assert left in steps
    assert "src/app/rows.py" not in steps  # named in passing, no part of the plan's own work
    assert "localhost:8000" not in steps  # a manual check, no command to run
    assert "csv_export.py`," not in steps and "`make lint`" not in steps  # written, ran


def test_plan_left_needs_the_plan_begun() -> None:
    assert plan_left(PLAN, ["src/other.py"], []) == ""
    assert "pdf_export.py" in plan_left(PLAN, ["/repo/src/app/export/csv_export.py"], ["make lint"])


@pytest.mark.parametrize("ran, left, done", [
    (["make test-e2e", "make lintian"], ["make test", "make lint"], []),  # another target, word for word
    (["cd /repo && make test 2>&1 | tail -5"], [], ["make test"]),  # in its folder, its output cut
    (["FOO=1 nice -n 10 make integration"], [], ["make integration"]),  # under wrappers
    (["echo make lint"], ["make lint"], []),  # named, not run
])
def test_a_plans_check_ran_when_a_command_ran_it_word_for_word(ran, left, done) -> None:
    step = plan_left(PLAN, ["src/app/export/csv_export.py"], ran)
    for check in left:
        assert f"`{check}`" in step
    for check in done:
        assert f"`{check}`" not in step


# -- 4. the shell call the region ends on ----------------------------------------------------------------------


def test_the_shell_call_without_its_result_is_the_work_to_check() -> None:
    messages = [user("Make the architecture tests pass after the refactor of the storage layer."),
                assistant(call("e", "edit", path="src/store.py", oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant(call("t", "bash", command="pytest tests/arch -q")),
                result("t", "bash", "FAILED tests/arch/test_layers.py::test_imports - AssertionError"),
                assistant(call("r", "read", path="tests/arch/test_layers.py")), result("r", "read", "def test_imports"),
                assistant("The test wants every module to import the logger. Let me check whether it passed before "
                          "the change.", call("s", "bash", command="git stash && pytest tests/arch -q; git stash pop"))]
    text = summarize(messages)
    open_part = "\n".join(items(text, "## Next Steps") + items(text, "### In Progress"))
    assert "git stash && pytest tests/arch" in open_part


# -- 5. the batch rhythm ------------------------------------------------------------------------------------------


def _task(key: str, path: str) -> list[dict]:
    return [assistant(call(key, "write", path=path, content="x = 1\n")), result(key, "write", "ok")]


def test_a_plan_carried_out_in_batches_keeps_its_rhythm_and_names_the_batch_under_way() -> None:
    messages = [user("@docs/plans/2025-03-01-sync-plan.md go ahead"),
                assistant("I'll work in waves. **Wave 1: Steps 1 and 2.**"), *_task("a", "src/sync/queue.py"),
                assistant("**Wave 1 done (Steps 1-2).** Ready for feedback, or I can go on with **Wave 2: Steps 3-5**."),
                user("ok continue"),
                assistant("Going on with **Wave 2: Steps 3-5**."), *_task("b", "src/sync/worker.py"),
                assistant("**Wave 2 is complete.** Shall I start **Wave 3: Steps 6-8** (retries and metrics)?"),
                user("go on"),
                assistant("Starting **Wave 3: Steps 6-8**."), *_task("c", "src/sync/retry.py"),
                assistant("Now the metrics.", call("d", "write", path="src/sync/metrics.py", content="y = 2\n")),
                result("d", "write", "ok")]
    text = summarize(messages)
    rules = "\n".join(items(text, "## Constraints & Preferences"))
    assert "Wave 1" in rules and "Wave 2" in rules and "waits for the user's feedback" in rules
    steps = "\n".join(items(text, "## Next Steps"))
    assert "Finish Wave 3 (Steps 6-8)" in steps and "report it and wait" in steps
