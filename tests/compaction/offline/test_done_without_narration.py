"""A Done item says the result (progress.py): the agent's narration around it ("Now I have the full picture — …",
"Great, now I see it: …", "… — let me verify") is left out, by the form of the clause (the agent as subject, no thing
named, no result said), so a first-person result ("I fixed `parse()`") stays whole."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.progress import without_narration

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

OPENERS = st.sampled_from(["Now I have the full picture — ", "Great, now I see it: ", "I understand now, ",
                           "OK, I've got it. ", "Now I can see the whole flow; "])
CLOSERS = st.sampled_from(["", " — let me know if the columns should change.", ", so let me know what to adjust."])
RESULT = "`export_csv()` is added and writes one row per report"


@pytest.mark.parametrize("sentence", ["I fixed `parse()` so empty files pass.", "I added the CSV exporter.",
                                      "I've done a full audit and the codebase is now clean.",
                                      "We now have 3 exporters in src/export.py."])
def test_a_first_person_result_stays_whole(sentence: str) -> None:
    assert without_narration(sentence) == sentence


@pytest.mark.parametrize("sentence", ["Now I have the full picture.", "I see.", "Let me verify the tests."])
def test_narration_alone_leaves_nothing(sentence: str) -> None:
    assert without_narration(sentence) == ""


@given(text=st.text(max_size=200))
def test_without_narration_keeps_a_tail_of_the_text(text: str) -> None:
    assert without_narration(text) in text or without_narration(text)[1:] in text


@EXAMPLES
@given(opener=OPENERS, closer=CLOSERS)
def test_a_done_item_says_the_result_without_the_narration(opener: str, closer: str) -> None:
    edit = [assistant(call("e1", "edit", path="src/export.py", oldText="a", newText="b")), result("e1", "edit", "Ok.")]
    messages = [user("Add a CSV exporter for the reports in src/export.py and test it."), *edit,
                assistant(f"{opener}{RESULT}{closer}"), user("thanks"), assistant("You're welcome.")]
    done = items(summarize(messages), "### Done")
    assert any(RESULT in line for line in done)
    assert not any(opener.strip(" —:;,.") in line or "let me" in line.lower() for line in done)
