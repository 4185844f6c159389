"""A push that never ran (progress.py, steps.py): the user asked to commit and push, or the agent committed and said
it would push ("ready to push", "I'll push after the tests"), and no push ran in the region: the push is the next
step, and the commit's Done item says it waits on it; a push that ran settles it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

ASKED = st.sampled_from(["commit it and push", "ok, commit and push.", "commit this then push it up!",
                         "looks right, commit & push to origin"])
SAID = st.sampled_from(["Committed as `abc1234` — ready to push.", "Committed. I'll push after the CI run finishes.",
                        "Committed as abc1234. Ready for push once you've reviewed it.",
                        "Committed; I will push once the tests pass on CI."])
REQUEST = "Add a CSV exporter for the reports in src/export.py and test it."


def _work() -> list[dict]:
    return [user(REQUEST), assistant(call("e1", "edit", path="src/export.py", oldText="a", newText="b")),
            result("e1", "edit", "Edited."), assistant("Done: `export_csv()` added, tests pass.")]


def _commit(answer: str) -> list[dict]:
    return [assistant(call("c", "bash", command="git commit -am 'Add CSV export'")),
            result("c", "bash", "[main abc1234] Add CSV export\n 1 file changed"), assistant(answer)]


@EXAMPLES
@given(asked=ASKED)
def test_a_push_the_user_asked_for_that_never_ran_is_the_next_step(asked: str) -> None:
    text = summarize([*_work(), user(asked), *_commit("Committed as abc1234.")])
    steps = items(text, "## Next Steps")
    assert any("push" in step.lower() for step in steps)
    assert not any(step.startswith("The last request is done") for step in steps)
    assert any(line.startswith("Committed: Add CSV export") and "pending" in line for line in items(text, "### Done"))


@EXAMPLES
@given(said=SAID)
def test_a_push_the_agent_said_it_would_do_is_the_next_step(said: str) -> None:
    steps = items(summarize([*_work(), user("commit it"), *_commit(said)]), "## Next Steps")
    assert any("push" in step.lower() for step in steps)
    assert not any(step.startswith("The last request is done") for step in steps)


@EXAMPLES
@given(asked=ASKED, said=SAID)
def test_a_push_that_ran_settles_it(asked: str, said: str) -> None:
    pushed = [user("ok go"), assistant(call("p", "bash", command="git push origin main")),
              result("p", "bash", "To github.com:o/r.git\n   1a2b3c..abc1234  main -> main"), assistant("Pushed.")]
    text = summarize([*_work(), user(asked), *_commit(said), *pushed])
    assert not any("Still to do outside the code" in step for step in items(text, "## Next Steps"))
    assert not any("pending" in line for line in items(text, "### Done"))


@EXAMPLES
@given(asked=ASKED, answer=st.sampled_from([
    "Committed as abc1234 and pushed to origin/main.", "All changes are committed and pushed.",
    "✅ Already done! Working tree is clean. Branch is up to date with 'origin/main'.",
    "The fix was already pushed in the previous step.", "Done — committed (abc1234) and pushed it up."]))
def test_a_step_the_answer_reports_done_is_no_step(asked: str, answer: str) -> None:
    text = summarize([*_work(), user(asked), *_commit(answer)])
    assert not any("Still to do outside the code" in step for step in items(text, "## Next Steps")), answer
    assert not any("pending" in line for line in items(text, "### Done"))


@EXAMPLES
@given(asked=ASKED, answer=st.sampled_from([
    "Committed as abc1234. Not pushed yet: the remote rejected my key.", "Committed, but I haven't pushed it.",
    "Committed. Once it's pushed, CI will deploy it."]))
def test_an_answer_that_says_the_step_did_not_happen_keeps_it(asked: str, answer: str) -> None:
    steps = items(summarize([*_work(), user(asked), *_commit(answer)]), "## Next Steps")
    assert any("push" in step.lower() for step in steps), answer
