"""The goal across the phases of a staged plan (issue 20, class 1): once the user moves on ("now Phase 30", "on to
step 3", "next let's do X", a new plan file), the goal is that stage, not the one finished before it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.goal import moves_on

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

PLAN = ("Implement the following plan:\n\n# Phase 29: CSV export of the reports\n\n## Steps\n"
        "1. Add the exporter in src/export.py\n")
MOVED_ON = st.sampled_from([
    "Now Phase 30: add the PDF export in src/pdf.py with a test.",
    "ok, on to phase 30 — the PDF export in src/pdf.py",
    "next let's do the PDF export in src/pdf.py, that's phase 30",
    "Great. Now implement the plan in docs/plans/phase-30.md, it covers the PDF export.",
    "let's continue with step 30, the PDF export in src/pdf.py",
])
OPENING = st.sampled_from([PLAN, "The focus of this phase is Phase 29: the CSV export of the reports in src/export.py."])


def _edited(path: str, words: str, key: str) -> list[dict]:
    return [assistant(call(key, "edit", path=path, oldText="a", newText="b")), result(key, "edit", "ok"),
            assistant(words)]


@EXAMPLES
@given(opening=OPENING, moved_on=MOVED_ON)
def test_a_move_on_after_committed_work_keeps_the_finished_stage_as_history(opening: str, moved_on: str) -> None:
    commit = [assistant(call("c", "bash", command='git commit -am "Phase 29"')),
              result("c", "bash", "[main 1a2b3c4] Phase 29\n 1 file changed"), assistant("Phase 29 is committed.")]
    messages = [user(opening), *_edited("src/export.py", "The exporter is in.", "e1"), *commit,
                user(moved_on), *_edited("src/pdf.py", "Started the PDF export.", "e2")]
    goal = items(summarize(messages), "## Goal")[0]
    assert "30" in goal.partition(" — now: ")[2] or "29" not in goal
    assert "29" not in goal or "(done and committed)" in goal


@EXAMPLES
@given(opening=OPENING, moved_on=MOVED_ON)
def test_the_goal_is_the_stage_the_user_moved_on_to(opening: str, moved_on: str) -> None:
    messages = [user(opening), *_edited("src/export.py", "Phase 29 is done: the exporter is in.", "e1"),
                user(moved_on), *_edited("src/pdf.py", "Started the PDF export.", "e2")]
    goal = items(summarize(messages), "## Goal")
    assert len(goal) == 1
    assert "29" not in goal[0] and "CSV" not in goal[0]
    assert "30" in goal[0]


@given(text=st.sampled_from(["let's do it", "Step 2 failed, see the log.", "I did phase 1 yesterday.",
                             "What is the next step?", "the plan in my head is simple"]))
def test_agreeing_or_telling_about_a_step_moves_nothing_on(text: str) -> None:
    assert not moves_on(text)


@EXAMPLES
@given(moved_on=st.sampled_from(["go ahead with phase 1", "ok, on to step 2", "now phase 1 please"]))
def test_a_goal_over_all_the_stages_stays_while_they_go_by(moved_on: str) -> None:
    messages = [user("Redesign the website so that it is modern and easy to navigate, and plan the work first."),
                *_edited("docs/plan.md", "The plan is in docs/plan.md.", "e1"),
                user(moved_on), *_edited("website/index.js", "Started the homepage.", "e2")]
    goal = items(summarize(messages), "## Goal")[0]
    assert goal.startswith("Redesign the website") and goal.endswith(f" — now: {moved_on}")
