"""A plan still under discussion (:mod:`~pi_compact.compaction.offline.plan_review`): the user turned down the plan
the agent submitted through its plan tool and went on talking about it; the next step is to revise the plan per
what the user said and submit it again, not to wait for the user."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.plan_review import plan_under_review

from tests.growth import growth

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

PLAN = "# Rate limits for the upload API\n\n## Changes\n\n1. A token bucket per API key in `limits.py`\n2. 429 replies"
DECLINED = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
            "edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell "
            "you how to proceed.")
DECLINED_SAYING = DECLINED + " To tell you how to proceed, the user said:\nkeep the buckets in Redis, not in memory"


def _session(tool: str = "ExitPlanMode", declined: str = DECLINED, **plan: str) -> list[dict]:
    arguments = plan or {"plan": PLAN}
    return [
        user("Plan rate limiting for the upload API."),
        assistant("I'll write the plan.", call("w1", "Write", file_path="/home/me/.plans/limits.md", content=PLAN)),
        result("w1", "Write", "File created successfully"),
        assistant(call("p1", tool, **arguments)),
        result("p1", tool, declined, error=True),
        user("[Request interrupted by user for tool use]"),
        user("what happens to a client that retries at once after a 429?"),
        assistant("It is refused again until its bucket refills: one token every 200 ms."),
    ]


def _review(messages: list[dict]):
    return plan_under_review(messages, extract_facts(messages).attempts)


@pytest.mark.parametrize(("tool", "arguments"), [
    ("ExitPlanMode", {"plan": PLAN}),  # Claude Code
    ("submit_plan", {"content": PLAN}),  # a tool named for it, whatever its arguments
    ("present-plan", {"text": PLAN}),
    ("propose_changes", {"plan": PLAN}),  # any tool whose arguments hold the plan
])
def test_a_plan_turned_down_and_discussed_since_is_to_be_revised_and_submitted_again(tool, arguments) -> None:
    text = summarize(_session(tool, **arguments))
    steps = items(text, "## Next Steps")
    assert steps[0].startswith("Revise the plan") and f"submit it again through {tool}" in steps[0], steps
    assert "retries at once after a 429" in steps[0], steps  # what the user said since
    assert not any("wait for the user's next request" in step for step in steps), steps
    assert any("under discussion" in item for item in items(text, "### In Progress")), text
    # a submission turned down is the plan still being shaped, not a decision against the tool
    assert not any(f"declined {tool}" in item for item in items(text, "## Key Decisions")), text


def test_the_plan_is_named_with_its_file_and_how_often_it_was_turned_down() -> None:
    messages = _session()
    messages += [assistant(call("p2", "ExitPlanMode", plan=PLAN)), result("p2", "ExitPlanMode", DECLINED, error=True),
                 user("also limit by IP for anonymous uploads")]
    review = _review(messages)
    assert review and review.turned_down == 2 and review.title == "Rate limits for the upload API"
    assert review.plan_file == "/home/me/.plans/limits.md" and review.feedback == ("also limit by IP for anonymous uploads",)


def test_what_the_user_said_on_declining_is_the_feedback() -> None:
    messages = _session(declined=DECLINED_SAYING)[:5]
    review = _review(messages)
    assert review and review.feedback == ("keep the buckets in Redis, not in memory",)
    steps = items(summarize(messages), "## Next Steps")
    assert any("Revise the plan" in step and "Redis" in step for step in steps), steps
    assert not any(step.startswith("Wait for the user to say how to proceed") for step in steps), steps


@pytest.mark.parametrize("after", [
    # approved at last
    [assistant(call("p2", "ExitPlanMode", plan=PLAN)),
     result("p2", "ExitPlanMode", "User has approved your plan. You can now start coding.")],
    # the work went on without the plan: a source file changed
    [user("forget the plan, just add the bucket"),
     assistant(call("e1", "Edit", file_path="/src/limits.py", old_string="a", new_string="b")),
     result("e1", "Edit", "The file /src/limits.py has been updated.")],
])
def test_a_plan_approved_later_or_left_for_the_work_is_no_longer_under_review(after) -> None:
    assert _review(_session() + after) is None


def test_declined_without_a_word_since_leaves_the_user_to_say_what_to_change() -> None:
    messages = _session()[:5]
    assert _review(messages).feedback == ()
    steps = items(summarize(messages), "## Next Steps")
    assert not any(step.startswith("Revise the plan") for step in steps), steps


def test_rewriting_the_plan_file_keeps_the_plan_under_review() -> None:
    messages = _session() + [
        assistant(call("w2", "Write", file_path="/home/me/.plans/limits.md", content=PLAN + "\n3. Retry-After")),
        result("w2", "Write", "File written"),
    ]
    assert _review(messages) is not None


def test_a_task_list_with_a_plan_argument_is_no_plan_submission() -> None:
    messages = [user("Fix the upload limits."),
                assistant(call("t1", "update_plan", plan=[{"step": "add bucket", "status": "in_progress"}])),
                result("t1", "update_plan", "Plan updated")]
    assert _review(messages) is None


def _rounds(n: int) -> list[dict]:
    """``n`` submissions of the plan, each turned down with a remark, and a plan file rewritten before each."""
    region = [user("Plan rate limiting.")]
    for i in range(n):
        region += [assistant(call(f"w{i}", "Write", file_path="/p/plan.md", content=PLAN + f"\n{i}. more")),
                   result(f"w{i}", "Write", "ok"),
                   assistant(call(f"p{i}", "ExitPlanMode", plan=PLAN + f"\n{i}. more")),
                   result(f"p{i}", "ExitPlanMode", DECLINED, error=True),
                   user(f"also cover case {i}")]
    return region


def test_the_review_grows_linearly_in_the_submissions() -> None:
    regions = {size: _rounds(size) for size in (200, 400, 800)}
    found = growth("plan_under_review", lambda size: (lambda: _review(regions[size])), 200, runs=3)
    assert found.linear, str(found)
