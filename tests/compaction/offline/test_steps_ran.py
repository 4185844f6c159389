"""A step outside the code that the region's commands did (steps.py): "push both" asked by the user or "I'll push
both branches" announced by the agent, then both pushes ran and succeeded: the step is finished, neither In
Progress nor the next step; one push of two leaves it open."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

REQUEST = "Fix the date parsing bug in src/dates.py on both the main and the release-1.2 branches."
FIXED = [user(REQUEST), assistant(call("e1", "edit", path="src/dates.py", oldText="a", newText="b")),
         result("e1", "edit", "Edited."),
         assistant("Fixed the parser on main and cherry-picked it to release-1.2; both are committed.")]
ASKED = st.sampled_from([("push both", "I'll push both branches."),
                         ("ok looks right, go ahead", "I'll push both branches now."),
                         ("push them", "Pushing both branches to origin.")])


def _push(number: int, branch: str) -> list[dict]:
    return [assistant(call(f"p{number}", "bash", command=f"git push origin {branch}")),
            result(f"p{number}", "bash", f"To github.com:o/r.git\n   1a2b3c4..5d6e7f8  {branch} -> {branch}")]


@EXAMPLES
@given(asked=ASKED)
def test_a_step_every_object_of_which_ran_is_finished(asked: tuple[str, str]) -> None:
    request, announced = asked
    text = summarize([*FIXED, user(request), assistant(announced), *_push(1, "main"), *_push(2, "release-1.2")])
    steps = items(text, "## Next Steps")
    assert not any("push" in step.lower() for step in steps), steps
    assert not any("push" in line.lower() for line in items(text, "### In Progress"))


def test_a_step_with_an_object_left_is_still_to_do() -> None:
    text = summarize([*FIXED, user("push both"), assistant("I'll push both branches."), *_push(1, "main")])
    assert any("push" in step.lower() for step in items(text, "## Next Steps"))
