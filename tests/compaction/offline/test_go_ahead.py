"""A bare go-ahead (goal.py, state.py, steps.py, summary.py): "continue", "ok do it", "keep going", a lone "?" carry no
task of their own. In Progress and the next step say the request they go on with, or, after the agent's question,
what they agree to; the goal's "now" never becomes those words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.goal import go_ahead

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

GO_AHEAD = st.sampled_from(["continue", "go on", "proceed", "yes", "ok do it", "keep going", "?", "Continue please.",
                            "yes, go ahead", "はい", "weiter"])
REQUEST = "Add a CSV exporter for the reports in src/export.py and test it."


def _edited(path: str, words: str, tag: str) -> list[dict]:
    return [assistant(call(tag, "edit", path=path, oldText="a", newText="b")), result(tag, "edit", "Edited."),
            assistant(words)]


def _reading(path: str) -> list[dict]:
    return [assistant(call("r", "read", path=path)), result("r", "read", "import pytest\n")]


@pytest.mark.parametrize("text", ["continue", "go on", "proceed", "yes", "ok do it", "keep going", "?", "??",
                                  "Keep going!", "yes please, continue", "はい"])
def test_go_on_words_alone_are_a_go_ahead(text: str) -> None:
    assert go_ahead(text)


@pytest.mark.parametrize("text", ["continue with the PDF export", "yes, and add tests for the parser", "fix it",
                                  "why?", "do it in src/export.py", "go on with phase 2", REQUEST])
def test_a_reply_with_work_of_its_own_is_no_go_ahead(text: str) -> None:
    assert not go_ahead(text)


@given(text=st.text(max_size=120))
def test_go_ahead_takes_any_text(text: str) -> None:
    assert go_ahead(text) in (True, False)


@EXAMPLES
@given(reply=GO_AHEAD)
def test_a_go_ahead_continues_the_request_in_progress(reply: str) -> None:
    messages = [user(REQUEST),
                *_edited("src/export.py", "I added `export_csv()`. Next I'll write the tests in tests/test_export.py.",
                         "e1"),
                user(reply), *_reading("tests/test_export.py")]
    text = summarize(messages)
    progress, steps = items(text, "### In Progress"), items(text, "## Next Steps")
    assert not any(line.startswith(f"“{reply}”") for line in progress)
    assert any("CSV exporter" in line and "under way" in line for line in progress)
    assert not any(f"latest request: “{reply}”" in step for step in steps)
    assert any("CSV exporter" in step for step in steps)


@EXAMPLES
@given(reply=st.sampled_from(["yes", "ok do it", "go on", "proceed", "sure"]))
def test_a_go_ahead_after_the_agents_question_carries_out_what_it_asked(reply: str) -> None:
    asked = "I added `export_csv()`. Should I also write the tests in tests/test_export.py now?"
    messages = [user(REQUEST), *_edited("src/export.py", asked, "e1"), user(reply), *_reading("tests/test_export.py")]
    text = summarize(messages)
    progress, steps = items(text, "### In Progress"), items(text, "## Next Steps")
    assert not any(line.startswith(f"“{reply}”") for line in progress)
    assert any("tests/test_export.py" in line for line in progress)
    assert any("tests/test_export.py" in step and reply in step for step in steps)


@EXAMPLES
@given(reply=st.sampled_from(["ok do it", "keep going please", "yes, go ahead", "proceed then"]))
def test_a_go_ahead_after_finished_work_is_never_the_goals_now(reply: str) -> None:
    messages = [user(REQUEST), *_edited("src/export.py", "Done: I added `export_csv()` and its tests pass.", "e1"),
                user(reply), *_edited("src/pdf.py", "Started.", "e2")]
    goal = items(summarize(messages), "## Goal")
    assert len(goal) == 1 and reply not in goal[0]


@EXAMPLES
@given(reply=GO_AHEAD)
def test_the_request_a_go_ahead_resumes_is_not_also_an_earlier_request_done(reply: str) -> None:
    """Listed under Critical Context too, it read "Earlier request: … — done" beside "… — under way"."""
    later = "The integration tests in tests/integration/test_export.py are also failing."
    messages = [user(REQUEST), *_edited("src/export.py", "I added `export_csv()` and its tests pass.", "e1"),
                user(later), *_reading("tests/integration/test_export.py"), assistant("The fixture path is stale."),
                user(reply), *_reading("tests/integration/conftest.py")]
    text = summarize(messages)
    assert any("integration tests" in line and "under way" in line for line in items(text, "### In Progress"))
    assert not any(line.startswith("Earlier request:") and "integration tests" in line
                   for line in items(text, "## Critical Context"))
