"""A request that opens with the problem and asks for the work after it (goal.py): the goal holds the ask too."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.goal import task_goal


@pytest.mark.parametrize("request_text, ask", [
    ("Users can read each other's uploads. Fix the storage rules so a user reads only their own files.",
     "Fix the storage rules"),
    ("Here is a plan, we already refactored the CLI base structure. Update the plan to the current plugin setup.",
     "Update the plan"),
])
def test_the_ask_after_a_stated_problem_is_in_the_goal(request_text: str, ask: str) -> None:
    assert ask in task_goal(request_text)


def test_an_opening_that_asks_for_work_stands_alone() -> None:
    goal = task_goal("Fix the flaky upload test in tests/test_upload.py. Remove the sleep calls from it.")
    assert goal.startswith("Fix the flaky upload test") and "Remove the sleep" not in goal
