"""The goal a request states (goal.py): a numbered list's items are the work, and a list number ends no sentence."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.goal import sentences, task_goal

ITEMS = st.lists(st.sampled_from(["lint failing", "update from main", "new review comments", "flaky e2e test",
                                  "bump the schema version"]), min_size=2, max_size=5, unique=True)


@given(items=ITEMS, separator=st.sampled_from(["\n", "\n\n", " "]), close=st.sampled_from([".", ")"]))
def test_a_request_that_is_a_numbered_list_has_its_items_as_the_goal(items: list[str], separator: str,
                                                                     close: str) -> None:
    request = separator.join(f"{number}{close} {item}" for number, item in enumerate(items, 1))
    goal = task_goal(request)
    assert all(f"{number}{close} {item}" in goal for number, item in enumerate(items, 1))


@pytest.mark.parametrize(("request_text", "opening"), [
    ("can you fix:   1. Critical: Duplicate Code (~55 LOC)\n\nThree functions are duplicated.",
     "can you fix: 1. Critical: Duplicate Code (~55 LOC)"),
    ("OK, two things: 1 audit your permissions 2. make sure CLAUDE.md matches the workflow",
     "OK, two things: 1 audit your permissions 2. make sure CLAUDE.md matches the workflow"),
])
def test_a_list_number_inside_a_request_ends_no_sentence(request_text: str, opening: str) -> None:
    assert task_goal(request_text).startswith(opening)


@pytest.mark.parametrize(("text", "expected"), [
    ("Fix the parser. Then run the tests.", ["Fix the parser.", "Then run the tests."]),
    ("Steps:\n1. build\n2. test", ["Steps:", "1. build", "2. test"]),
])
def test_sentences_still_end_where_a_sentence_ends(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


@pytest.mark.parametrize("text", ["Step 1: handle case 1. You must keep module_1 importable.",
                                  "We moved to version 2. Then the tests broke."])
def test_a_number_that_ends_a_sentence_still_ends_it(text: str) -> None:
    assert len(sentences(text)) == 2
