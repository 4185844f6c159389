"""A question the agent handed back on stays open when only notices came after it (state.py): a sub-agent's
task notification or a command's output is no answer of the user's, and the agent's words about it close nothing."""

from __future__ import annotations

from ..messages import assistant, user
from .test_classes import summarize
from .test_offline import items

NOTICE = ("<task-notification>\n<task-id>a1b2c3</task-id>\n<status>completed</status>\n<summary>Agent \"Eval 2\" "
          "completed</summary>\n<result>Here is the page.</result>\n</task-notification>")
ASKED = "I deleted the workspace. Want me to also remove the `evals/` directory, or keep it around?"


def test_a_question_followed_only_by_notices_still_waits_for_the_user() -> None:
    messages = [user("also are we getting rid of the documentation workspace afterwards?"), assistant(ASKED),
                user(NOTICE), assistant("That eval agent finished too; its page uses `sh` fences. Anything else?"),
                user(NOTICE), assistant("That's the final straggler. The skill is doing its job.")]
    text = summarize(messages)
    assert any("`evals/`" in step for step in items(text, "## Next Steps"))
    assert not any(step.startswith("The last request is done") for step in items(text, "## Next Steps"))


def test_a_question_the_user_answered_is_closed() -> None:
    messages = [user("also are we getting rid of the documentation workspace afterwards?"), assistant(ASKED),
                user(NOTICE), assistant("That's the final straggler."), user("keep it"),
                assistant("Kept `evals/` as it is.")]
    assert not any("`evals/` directory" in step for step in items(summarize(messages), "## Next Steps"))
