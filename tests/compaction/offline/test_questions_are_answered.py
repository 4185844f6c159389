"""A user's reply that only asks a question (goal.py, state.py, summary.py) is answered, it sets no objective: the
goal stays the latest request that set work, with no "now:" of the question; a question that asks for work ("can
you add X?") is a request."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.goal import only_asks

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

REQUEST = "Add a CSV exporter for the reports in src/export.py and test it."
QUESTIONS = st.sampled_from(["what does the export_csv function do with empty rows?",
                             "why did the test for the header fail before you changed it?",
                             "is that the final version?", "Thanks. How does it quote commas inside a field?",
                             "where is the delimiter configured and which one is the default?"])


@pytest.mark.parametrize("text", ["can you add a PDF exporter in src/pdf.py as well?",
                                  "Could you also write the docs for it?", "should we cache the parsed rows?",
                                  "Add a PDF exporter. Why is the CSV one slow?", "how about a --delimiter flag?"])
def test_a_question_that_asks_for_work_is_a_request(text: str) -> None:
    assert not only_asks(text)


@EXAMPLES
@given(question=QUESTIONS)
def test_a_question_is_no_objective(question: str) -> None:
    assert only_asks(question)
    edit = [assistant(call("e1", "edit", path="src/export.py", oldText="a", newText="b")), result("e1", "edit", "Ok."),
            assistant("I added `export_csv()` in src/export.py; its tests pass.")]
    text = summarize([user(REQUEST), *edit, user(question), assistant("It skips them: see `_rows()`.")])
    assert items(text, "## Goal") == [REQUEST]


def test_a_request_after_the_question_is_the_objective_now() -> None:
    edit = [assistant(call("e1", "edit", path="src/export.py", oldText="a", newText="b")), result("e1", "edit", "Ok."),
            assistant("I added `export_csv()` in src/export.py; its tests pass.")]
    later = "can you add a PDF exporter in src/pdf.py with the same columns?"
    text = summarize([user(REQUEST), *edit, user("why is it slow on big files?"), assistant("It re-reads the rows."),
                      user(later), assistant(call("e2", "edit", path="src/pdf.py", oldText="a", newText="b")),
                      result("e2", "edit", "Ok.")])
    goal = items(text, "## Goal")
    assert len(goal) == 1 and goal[0].endswith(f"now: {later}")
