"""Decisions settled in a design review (issue 20): the agent asks numbered questions and the user answers them one
by one ("1. yes, 2. use Postgres, 3. skip auth for now"), or picks one of the options it listed ("go with B, we
already run Redis"). Each answer is a decision, said with the question it settles; a reply that answers nothing by
number settles nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.rules import answered_questions

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

QUESTIONS = """I read the service. Before I build the store I need a few answers:

{m}1. Should the store keep data across restarts, or is memory enough?{m}
{m}2. Which database: Postgres or SQLite?{m}
{m}3. Do we need authentication in the first version?{m}

Let me know and I'll start."""
REPLIES = st.sampled_from([
    ("1. yes, 2. use Postgres, 3. skip auth for now", ["yes", "use Postgres", "skip auth for now"]),
    ("1) keep data across restarts\n2) Postgres\n3) no, later", ["keep data across restarts", "Postgres", "no, later"]),
    ("1: yes; 2: SQLite is enough; 3: no", ["yes", "SQLite is enough", "no"]),
    ("Q1. memory is fine\nQ2. SQLite", ["memory is fine", "SQLite"]),
])
OPTIONS = """There are three ways to cache the parser:

A) Memoize in process with an LRU dict
B) Redis shared by all workers
C) A disk cache under .cache/

Which one do you prefer?"""


def _session(answer: str, reply: str) -> list:
    return [user("Build the store service."), assistant(answer), user(reply),
            assistant("On it.", call("w", "write", path="src/store.py", content="store = {}")),
            result("w", "write", "ok"),
            assistant("Let me now wire it up.")]


@EXAMPLES
@given(reply=REPLIES, marker=st.sampled_from(["", "**"]))
def test_numbered_answers_to_the_agents_questions_are_decisions(reply: tuple, marker: str) -> None:
    said, answers = reply
    decisions = " ".join(items(summarize(_session(QUESTIONS.format(m=marker), said)), "## Key Decisions"))
    assert "Which database →" in decisions and "Should the store keep data across restarts" in decisions, decisions
    for answer in answers:
        assert f"“{answer}”" in decisions, decisions


@pytest.mark.parametrize("reply", ["go with B, we already run Redis", "let's take B. We run Redis anyway"])
def test_an_option_picked_with_a_reason_is_the_option(reply: str) -> None:
    decisions = " ".join(items(summarize(_session(OPTIONS, reply)), "## Key Decisions"))
    assert "Redis shared by all workers" in decisions, decisions


@pytest.mark.parametrize(("answer", "reply"), [
    (QUESTIONS.format(m=""), "Sounds good, start with the store."),  # no answer by number
    (QUESTIONS.format(m=""), "2. Postgres"),  # one answer is no review of the questions
    ("Plan:\n1. Add the store.\n2. Wire it up.\n3. Test it.\n\nShall I proceed?", "1. yes, 2. yes"),  # no questions
])
def test_no_numbered_answers_no_review(answer: str, reply: str) -> None:
    assert answered_questions(answer, reply) == ""
