"""When the finished request is one item of ongoing work the user feeds item by item (a review read page by page,
a list of fixes sent one at a time), the agent's closing hands the work back ("引き続きどうぞ", "Send me the next one",
"Tell me what you notice as you read on; each fix goes to the PR"), and the next step keeps how they agreed to go
on, not a bare "wait" (steps._handed_back). Any other closing leaves the bare step."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

_DONE_STEP = "The last request is done: wait for the user's next request."


def _next(closing: str) -> list[str]:
    """Next Steps after a request, an edit, a commit and the agent's closing paragraph ``closing``."""
    messages = [user("fix the typo on page 12 of the draft"),
                assistant(call("e1", "edit", path="chapter2.md", oldText="teh", newText="the")),
                result("e1", "edit", "Edited."),
                assistant(call("b1", "bash", command="git commit -am 'ch2: typo' && git push")),
                result("b1", "bash", "[review 1a2b3c4] ch2: typo\n 1 file changed"),
                assistant(f"Fixed the typo in `chapter2.md` and pushed it to the draft PR.\n\n{closing}")]
    return items(summarize(messages), "## Next Steps")


@pytest.mark.parametrize("closing, kept", [
    ("引き続きどうぞ。", "引き続き"),
    ("読み進めて気づいた点があれば伝えてください。コミット → pushでPRに積まれます。", "読み進め"),
    ("Send me the next one when you're ready; each fix is pushed to the PR.", "next one"),
    ("Tell me what you notice as you read on, and I'll push each fix to the PR.", "read on"),
    ("Pode continuar: cada correção vai para o PR.", "Pode continuar"),
    ("Puedes continuar; cada arreglo va al PR.", "Puedes continuar"),
    ("Mach einfach weiter, jede Korrektur landet im PR.", "weiter"),
    ("계속 진행해 주세요. 수정마다 PR에 올리겠습니다.", "계속"),
    ("请继续，每个修改都会推送到 PR。", "请继续"),
])
def test_a_closing_that_hands_the_work_back_is_kept_in_the_step(closing: str, kept: str) -> None:
    steps = _next(closing)
    assert len(steps) == 1 and steps[0].startswith("The last request is done") and kept in steps[0], steps


@pytest.mark.parametrize("closing", [
    "Let me know if you need anything else.",
    "The draft PR now has two commits.",
    "Next time, run the spell checker before committing.",
    "I kept the rest of the chapter as it was, since the request named only page 12 and the other pages read well "
    "as they are; if you want the same pass over the whole draft, that is a larger job and worth a plan first, "
    "so tell me what you notice as you read on and we can decide then which parts need it.",
])
def test_any_other_closing_leaves_the_bare_step(closing: str) -> None:
    assert _next(closing) == [_DONE_STEP]
