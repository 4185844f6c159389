"""A go-ahead wrapped in words that ask nothing else (goal.py): praise, an aside taken back, an apology around
"continue" or "keep going" carry no task of their own, so neither the goal's "now" nor In Progress quotes them; a
request that says "continue" with work of its own stays a request."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.goal import go_ahead, sets_work

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

PRAISE = st.sampled_from(["", "looks good so far, ", "you're doing great, ", "nice work, ", "perfect, "])
ASIDE = st.sampled_from(["", "nevermind my request, ", "sorry, ignore that — ", "forget what I said, ",
                         "sorry, my bad. "])
GO_ON = st.sampled_from(["carry on", "keep going with the rest", "continue", "go on", "proceed with it"])
REQUEST = "Add a CSV exporter for the reports in src/export.py and test it."


@pytest.mark.parametrize("text", ["nevermind my request, you're doing great, carry on",
                                  "looks good so far, keep going with the rest", "sorry, ignore that — continue",
                                  "Sorry, ignore that. Continue.", "you’re doing great, keep going"])
def test_a_go_on_wrapped_in_praise_or_an_apology_is_a_go_ahead(text: str) -> None:
    assert go_ahead(text) and not sets_work(text)


@pytest.mark.parametrize("text", ["continue the migration for the users table",
                                  "looks good, now continue with the PDF export", "sorry, ignore that and fix the parser",
                                  "you're doing great, keep going and add a test for the empty file",
                                  "looks good so far", "nevermind, why is it slow?"])
def test_a_message_with_work_of_its_own_is_no_go_ahead(text: str) -> None:
    assert not go_ahead(text)


@EXAMPLES
@given(praise=PRAISE, aside=ASIDE, go_on=GO_ON)
def test_a_wrapped_go_ahead_continues_the_request_in_progress(praise: str, aside: str, go_on: str) -> None:
    reply = f"{aside}{praise}{go_on}"
    edit = [assistant(call("e1", "edit", path="src/export.py", oldText="a", newText="b")), result("e1", "edit", "Ok."),
            assistant("I added `export_csv()`. Next I'll write the tests in tests/test_export.py.")]
    reading = [assistant(call("r", "read", path="tests/test_export.py")), result("r", "read", "import pytest\n")]
    text = summarize([user(REQUEST), *edit, user(reply), *reading])
    goal, progress = items(text, "## Goal"), items(text, "### In Progress")
    assert len(goal) == 1 and "now:" not in goal[0]
    assert not any(line.startswith(f"“{reply}”") for line in progress)
    assert any("CSV exporter" in line and "under way" in line for line in progress)
