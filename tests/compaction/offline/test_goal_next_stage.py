"""The goal follows the user's latest work-setting request in a staged, planning-heavy session (goal.py,
summary.py): once a stage is finished, "let's now plan phase 3" or "now let's review the design of phase 3" sets the
objective, even though planning changes no file; the finished stage is no goal any more."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

STAGE = "Implement phase 2 of the plan in docs/plan.md: the exporter registry and its tests."
NEXT = st.sampled_from(["let's now plan phase 3", "now plan phase 3", "Great. Now let's plan phase 3: review the design "
                        "in docs/design.md and propose the changes.", "ok, let's design phase 3",
                        "next, review phase 3 of the plan with me"])


@EXAMPLES
@given(request=NEXT)
def test_planning_the_next_stage_is_the_goal(request: str) -> None:
    edit = [assistant(call("e1", "edit", path="src/registry.py", oldText="a", newText="b")), result("e1", "edit", "Ok."),
            assistant("Done: phase 2 is in, the registry and its tests pass.")]
    review = [assistant(call("r", "read", path="docs/design.md")), result("r", "read", "# Design\n"),
              assistant("My review: option A keeps one store; option B splits it per tenant. I recommend B.")]
    goal = items(summarize([user(STAGE), *edit, user(request), *review]), "## Goal")
    assert len(goal) == 1 and "phase 3" in goal[0] and not goal[0].startswith("Implement phase 2")
