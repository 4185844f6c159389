"""The next step when the transcript shows a concrete one (steps.py, tasks.py): one task in progress however many the
agent marked, the stage after a finished numbered stage, each question of a list the agent asks, and no "Fix:" of
a command that only looked at something."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.steps import _inspects, imperative
from pi_compact.compaction.offline.tasks import ACTIVE, PENDING, task_list

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

TITLES = ["Wire the cache into the orchestrator", "Rewrite the reviewer prompts", "Add the ingestion tests",
          "Document the cache flags"]


def _all_active(style: str) -> list[dict]:
    if style == "codex":
        block = call("t", "update_plan", plan=[{"step": t, "status": "in_progress"} for t in TITLES])
    else:
        block = call("t", "TodoWrite", todos=[{"content": t, "status": "in_progress", "activeForm": t} for t in TITLES])
    return [assistant(block), result("t", block["name"], "Todos have been modified successfully.")]


@EXAMPLES
@given(style=st.sampled_from(["claude", "codex"]), named=st.sampled_from([None, 1, 2, 3]))
def test_several_tasks_in_progress_leave_one_in_progress_and_the_others_to_do(style: str, named: int | None) -> None:
    words = [] if named is None else [assistant(f"Now: {TITLES[named].lower()}, starting with the file layout.")]
    messages = [user("Implement the review cache plan."), *_all_active(style), *words]
    kept = task_list(messages)
    assert kept is not None
    current = TITLES[0 if named is None else named]
    assert kept.with_status(ACTIVE) == [current]
    assert kept.with_status(PENDING) == [t for t in TITLES if t != current]
    summary = summarize([*messages, assistant("Let me read the orchestrator.", call("r", "read", path="o.py")),
                         result("r", "read", "x")])
    ongoing, steps = "\n".join(items(summary, "### In Progress")), "\n".join(items(summary, "## Next Steps"))
    assert current in ongoing and all(t in steps and t not in ongoing for t in TITLES if t != current)


@EXAMPLES
@given(kind=st.sampled_from(["phase", "Phase", "step", "milestone"]), first=st.integers(0, 5),
       about=st.sampled_from(["the SVG encoder replaces the PNG renderer", "the gallery moves to the new endpoint"]))
def test_a_finished_numbered_stage_names_the_next_stage(kind: str, first: int, about: str) -> None:
    messages = [user(f"Start with {kind} {first}: fix the broken links."),
                assistant(f"{kind} {first} is done. {kind} {first + 2} then: {about}."),
                user(f"go ahead with {kind} {first + 1}"),
                assistant(call("e", "edit", path="site/index.js", oldText="a", newText="b")),
                result("e", "edit", "ok"),
                assistant(f"All changes are verified against the build output, nothing else is left in {kind} "
                          f"{first + 1}.")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert f"{kind} {first + 2}" in steps and about in steps
    assert "wait for the user's next request" not in steps


def test_a_stage_the_region_numbers_once_names_no_next_stage() -> None:
    messages = [user("Do step 2 of the migration guide: rename the column."),
                assistant(call("e", "edit", path="m.sql", oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant("Renamed the column in m.sql.")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert "step 3" not in steps and "wait for the user's next request" in steps


@EXAMPLES
@given(marker=st.sampled_from(["-", "1.", "*"]), bold=st.booleans())
def test_an_answer_that_ends_on_a_list_of_questions_waits_on_each(marker: str, bold: bool) -> None:
    questions = ["Keep the evals/ directory or remove it?", "Should the old command stay as an alias?"]
    shown = [f"**{q}**" if bold else q for q in questions]
    listed = "\n".join(f"{marker if marker != '1.' else f'{n}.'} {q}" for n, q in enumerate(shown, 1))
    messages = [user("Turn the docs command into a skill."),
                assistant(call("w", "write", path=".claude/skills/docs/SKILL.md", content="x")),
                result("w", "write", "ok"),
                assistant(f"The skill is written to .claude/skills/docs/SKILL.md.\n\nTwo questions:\n{listed}")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert all(q in steps for q in questions)


@EXAMPLES
@given(command=st.sampled_from(["git show HEAD:uv.lock", "xxd .git/index", "gh api repos/o/r/pulls/1/comments",
                                "cat notes.md | head -5", "git log --oneline -3"]))
def test_a_failed_look_is_no_fix_step_but_a_failed_check_is(command: str) -> None:
    messages = [user("Find out why the release build fails and fix it."),
                assistant(call("a", "bash", command=command)),
                result("a", "bash", bash_fail("fatal: unable to read 4b825dc6", 128), error=True),
                assistant(call("b", "bash", command="make release")),
                result("b", "bash", bash_fail("error: missing symbol ffi_call", 2), error=True),
                assistant("The link step fails on ffi_call. Let me check the linker flags in the Makefile.")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert "make release" in steps and command not in steps


@given(command=st.sampled_from(["gh api -X POST repos/o/r/pulls/1/comments", "gh pr merge 3", "git commit -m x",
                                "cat a | tee b", "go test ./...", "git push"]))
def test_a_command_that_changes_or_checks_something_is_no_look(command: str) -> None:
    assert not _inspects(f"`{command}` failed: error")


CHEERS = st.sampled_from(["Perfect!", "Great.", "Ah!", "Okay.", "You're right to question that.", "Excellent!"])
STATES = st.sampled_from(["Now the collaboration plan has all three phases.", "Now the config file holds both ports.",
                          "Now `docs/setup.md` lists every step."])
ANNOUNCEMENTS = st.sampled_from(["Let me also check the README.", "Now let me run the linter.",
                                 "I'll update the changelog next."])


@EXAMPLES
@given(cheer=CHEERS, state=STATES, announced=ANNOUNCEMENTS, tool=st.sampled_from(["write", "Write", "apply_patch"]))
def test_the_step_where_the_agent_stopped_holds_no_chatter_nor_a_result(cheer, state, announced, tool) -> None:
    """Issue 20, class 4: an agent that stopped after "Perfect! Now the plan has all three phases. Let me also check
    the README." stopped at checking the README: the cheer is no step, and what now exists is no work left."""
    messages = [user("Write the collaboration plan in docs/plan.md"),
                assistant("Writing it.", call("w", tool, path="docs/plan.md", content="# Plan\n")),
                result("w", tool, "File written: docs/plan.md"), assistant(f"{cheer} {state} {announced}")]
    steps = " ".join(items(summarize(messages), "## Next Steps"))
    assert imperative(announced) in steps
    assert cheer not in steps and state not in steps
