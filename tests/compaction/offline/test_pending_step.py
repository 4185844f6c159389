"""Work finished in code that waits on a step outside the region (progress.py, steps.py, summary.py): a deploy, a
release, a restart, a migration to run, a push, the user's check in the browser. The Done item says it is done
pending that step, and the step stays the next thing until a later command does it or the user says it happened."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

WAITS = st.sampled_from([
    ("It needs `firebase deploy --only storage` before it takes effect.", "firebase deploy"),
    ("Please verify in the browser once it's deployed.", "verify in the browser"),
    ("Run `make migrate` to apply it, then restart the API server.", "make migrate"),
    ("You'll need to restart the dev server for the new route to load.", "restart the dev server"),
    ("Once you push, the CI pipeline publishes the package.", "Once you push"),
])
FIX = "Users can read each other's uploads. Fix the storage rules so a user reads only their own files."


def _fixed(answer: str, request: str = FIX) -> list[dict]:
    edit = [assistant(call("e1", "edit", path="storage.rules", oldText="a", newText="b")), result("e1", "edit", "Edited.")]
    return [user(request), *edit, assistant(f"Done. I've updated `storage.rules`: reads now require the owner's uid. {answer}")]


def _ran(command: str, output: str = "ok") -> list[dict]:
    return [assistant(call("b1", "bash", command=command)), result("b1", "bash", output)]


@EXAMPLES
@given(waits=WAITS)
def test_finished_work_that_waits_on_a_step_is_done_pending_it(waits: tuple[str, str]) -> None:
    sentence, words = waits
    text = summarize(_fixed(sentence))
    done, steps = items(text, "### Done"), items(text, "## Next Steps")
    assert any("storage.rules" in line and "pending" in line and words in line for line in done)
    assert any(words in step for step in steps)
    assert not any(step.startswith("The last request is done") for step in steps)


@EXAMPLES
@given(waits=WAITS)
def test_a_later_command_that_did_the_step_settles_it(waits: tuple[str, str]) -> None:
    sentence, _ = waits
    command = {"firebase": "firebase deploy --only storage", "verify": "npm run deploy", "migrate": "make migrate && "
               "systemctl restart api", "restart": "npm run dev:restart", "push": "git push origin main"}
    key = next(k for k in command if k in sentence.lower())
    messages = [*_fixed(sentence), user("go ahead and do that now please, then tell me"), *_ran(command[key]),
                assistant("Done: it ran without errors and the change is live.")]
    text = summarize(messages)
    assert not any("pending a step" in line for line in items(text, "### Done"))
    assert not any(step.startswith("Still to do outside the code") for step in items(text, "## Next Steps"))


def test_the_user_saying_it_happened_settles_it() -> None:
    messages = [*_fixed("It needs `firebase deploy --only storage` before it takes effect."),
                user("deployed it, works. Now add a size limit of 5 MB to the uploads in storage.rules."),
                assistant(call("e2", "edit", path="storage.rules", oldText="b", newText="c")),
                result("e2", "edit", "Edited."), assistant("Added the 5 MB limit.")]
    text = summarize(messages)
    assert not any("firebase deploy" in step for step in items(text, "## Next Steps"))


def test_a_request_to_deploy_the_agent_did_not_carry_out_stays_to_do() -> None:
    request = "The login button does nothing on mobile. Fix it, then deploy it and let me know."
    edit = [assistant(call("e1", "edit", path="src/Login.tsx", oldText="a", newText="b")),
            result("e1", "edit", "Edited.")]
    text = summarize([user(request), *edit,
                      assistant("Fixed: the button's handler now listens to `onPointerUp` as well as `onClick`.")])
    assert any("deploy it" in step for step in items(text, "## Next Steps"))
    assert any("pending" in line and "onPointerUp" in line for line in items(text, "### Done"))


@pytest.mark.parametrize("answer", [
    "I committed the fix and pushed it to origin; then I deployed it with `firebase deploy`.",
    "Run 10 reviews per reviewer before deploying next.",
    "The e2e test showed 0 applied (expected 1) after migrate --execute.",
    "Two artifacts confuse users; you'd have to pick which one is the release.",
])
def test_words_of_deploys_and_releases_that_leave_nothing_waiting(answer: str) -> None:
    text = summarize(_fixed(answer))
    assert not any("pending" in line for line in items(text, "### Done"))
    assert not any(step.startswith("Still to do outside the code") for step in items(text, "## Next Steps"))
