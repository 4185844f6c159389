"""Short requests in scripts whose words are not told by spaces (goal.py): Chinese and Japanese write none, Korean
spaces phrases with their particles fused on, so they are measured by characters. A short request there moves
the work on as a short English one does, never leaving a finished earlier request as the goal's "now"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.goal import NUDGE_WORDS, word_count

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

FIRST = "Add a CSV exporter for the reports in src/export.py and test it."
SECOND = "Now add a PDF exporter in src/pdf.py with the same columns as the CSV one."


@pytest.mark.parametrize("text", ["実装してください", "修复这个bug", "테스트 추가해줘", "버그를 수정해 주세요"])
def test_a_short_request_in_any_script_is_no_nudge(text: str) -> None:
    assert word_count(text) >= NUDGE_WORDS


@pytest.mark.parametrize("text", ["네", "はい", "好的"])
def test_a_one_word_answer_stays_a_nudge(text: str) -> None:
    assert word_count(text) < NUDGE_WORDS


@given(text=st.text(alphabet=st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3), min_size=1, max_size=40))
def test_hangul_counts_by_its_syllables(text: str) -> None:
    assert word_count(text) == len(text) // 2


def _edited(path: str, words: str, tag: str) -> list[dict]:
    return [assistant(call(tag, "edit", path=path, oldText="a", newText="b")), result(tag, "edit", "Edited."),
            assistant(words)]


@pytest.mark.parametrize("reply", ["実装してください", "修复这个bug", "테스트 추가해줘"])
@pytest.mark.parametrize("working", [True, False])
def test_a_short_request_after_finished_work_is_the_goals_now(reply: str, working: bool) -> None:
    after = [assistant(call("r", "read", path="src/pdf.py")), result("r", "read", "def pdf(): ...\n")] if working \
        else _edited("src/pdf.py", "Fixed.", "e3")
    messages = [user(FIRST), *_edited("src/export.py", "Done: `export_csv()` added and tested.", "e1"),
                user(SECOND), *_edited("src/pdf.py", "Done: the PDF exporter is in.", "e2"), user(reply), *after]
    goal = items(summarize(messages), "## Goal")
    assert len(goal) == 1 and goal[0].endswith(f"now: {reply}" + ("" if working else " (done)"))  # "Fixed."
