"""The next step says the action to take (steps.py): where the agent stopped, its announced move is said in the
imperative with its object ("Let me write the plan." → "Write the plan", with the request when it names no thing);
its narration and self-talk ("Now I have the full picture.", "Perfect!") are dropped, never quoted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.steps import imperative

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

NARRATION = st.sampled_from(["Now I have the full picture.", "Perfect!", "I see what's happening.",
                             "Now I understand the flow.", "Great, I have everything I need."])
MOVES = st.sampled_from([("Let me write the plan.", "Write the plan"), ("Now I'll draft the cache design.",
                         "Draft the cache design"), ("Let me check the handlers next.", "Check the handlers next"),
                         ("Now I need to update `routes.py`.", "Update `routes.py`")])
REQUEST = "Design the caching layer for the API: read src/api/*.py and write a plan in docs/cache-plan.md."


@pytest.mark.parametrize(("said", "step"), [("Let me write the plan.", "Write the plan."),
                                            ("Now I need to update the lockfile.", "Update the lockfile."),
                                            ("I'll rerun the migration.", "Rerun the migration."),
                                            ("Now I have the full picture.", "Now I have the full picture.")])
def test_an_announced_move_is_said_as_the_action(said: str, step: str) -> None:
    assert imperative(said) == step


@EXAMPLES
@given(narration=NARRATION, move=MOVES, working=st.booleans())
def test_the_step_where_the_agent_stopped_is_the_action_not_its_words(narration: str, move: tuple[str, str],
                                                                      working: bool) -> None:
    said, action = move
    last = assistant(f"{narration} {said}", *([call("g", "bash", command="ls src/api")] if working else []))
    messages = [user(REQUEST), assistant(call("r", "read", path="src/api/routes.py")),
                result("r", "read", "def route(): ..."), last]
    steps = items(summarize(messages), "## Next Steps")
    stopped = next(step for step in steps if step.startswith("Continue where the agent stopped"))
    assert action in stopped and said not in stopped and narration not in stopped
    if "`" not in action:  # a step that names no thing says which request it serves
        assert "caching layer" in stopped
