"""The option a user picks by its number, letter or rank is the decision, in the agent's words for it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.rules import accepted_proposal, picked_option

from ..messages import assistant, user
from .test_classes import EXAMPLES, summarize
from .test_offline import section

OPTIONS = ["Fix the broken import in executor.py first", "Implement the AST metrics by hand",
           "Log an issue and skip the orchestrator", "Rewrite the CLI on top of the orchestrator"]
LISTS = st.sampled_from([
    ("{n}. {text}", lambda n: str(n)),
    ("**Option {n}: {text}** (see below)", lambda n: str(n)),
    ("- Option {n}) {text}", lambda n: str(n)),
    ("{letter}) {text}", lambda n: "ABCD"[n - 1]),
])
PICKS = st.sampled_from(["{key}", "{key} please", "option {key}", "Option {key}, do it right", "{key}. go",
                         "{key} fix it and do it right is best"])
ORDINALS = {1: "the first one", 2: "the second one", 3: "The third option", 4: "the last one"}


@EXAMPLES
@given(fmt=LISTS, pick=PICKS, chosen=st.integers(1, 4), count=st.integers(2, 4))
def test_a_reply_that_picks_a_listed_option_names_that_option(fmt: tuple, pick: str, chosen: int, count: int) -> None:
    line, key = fmt
    chosen = min(chosen, count)
    answer = "What I found:\n1. The index references a missing object.\n2. Nothing else is broken.\n" + \
        "3. Not even the cache.\n4. Nor the refs.\n\n" + \
        "There are a few ways to go.\n\n" + "\n".join(
        line.format(n=n, letter="ABCD"[n - 1], text=text) for n, text in enumerate(OPTIONS[:count], 1)) + \
        "\n\nWhich do you prefer?"
    if not key(chosen).isdigit() and pick.startswith("{key} fix"):
        pick = "{key}, fix it and do it right is best"  # "A fix is needed" starts with no pick: a comma makes one
    reply = pick.format(key=key(chosen))
    assert picked_option(answer, reply).startswith(OPTIONS[chosen - 1])
    summary = summarize([user("The orchestrator failed, what now?"), assistant(answer), user(reply),
                         assistant("On it.")])
    assert OPTIONS[chosen - 1] in "\n".join(section(summary, "## Key Decisions"))


@pytest.mark.parametrize("chosen", [1, 2, 3, 4])
def test_a_pick_by_rank_names_that_option(chosen: int) -> None:
    answer = "\n".join(f"{n}. {text}" for n, text in enumerate(OPTIONS, 1))
    assert picked_option(answer, ORDINALS[chosen]) == OPTIONS[chosen - 1]


@pytest.mark.parametrize("reply", ["a good idea, but first check the tests", "2024 is the year in the header",
                                   "3.5 seconds is too slow", "1/2 of the rows are missing", "I think so"])
def test_a_reply_that_only_starts_like_a_pick_picks_nothing(reply: str) -> None:
    answer = "\n".join(f"{n}. {text}" for n, text in enumerate(OPTIONS, 1))
    assert picked_option(answer, reply) == ""


def test_an_approval_of_an_answer_without_options_is_still_its_proposal() -> None:
    answer = "The cache grows without bound. Shall I keep the cache in memory with an LRU of 1,000 entries?"
    assert accepted_proposal(answer, "yes") == "keep the cache in memory with an LRU of 1,000 entries"


# -- what was agreed, said as a statement: the action or the recommendation, never the question ---------------

ASKING = st.sampled_from(["Shall I {}?", "Want me to {}?", "Should I {}?", "Would you like me to {}?",
                          "Do you want me to {}?"])
ACTIONS = st.sampled_from(["remove the unused `StageFiles()` helper", "move the retry loop into client.py",
                           "rename `LastInteractionAt` to `LastInteractionTime`"])
AGREEING = st.sampled_from(["yes", "yeah let's do it", "Sounds good, go ahead.", "ok do it", "sure"])


@given(asking=ASKING, action=ACTIONS, reply=AGREEING)
def test_an_offer_the_user_accepted_is_the_action_not_the_question(asking: str, action: str, reply: str) -> None:
    agreed = accepted_proposal(f"The build passes now. {asking.format(action)}", reply)
    assert agreed == action


RECOMMENDATIONS = st.sampled_from([
    "I'd say keep the parser inline here, and #162 can be closed",
    "I recommend we use the state machine's phase instead of the stored string",
    "The simplest fix is to bail out with an error when HEAD cannot be read",
])
POINTING_BACK = st.sampled_from(["Want me to go ahead?", "Shall I do that?", "Should I proceed with this change?",
                                 "Want me to implement it?"])


@given(recommendation=RECOMMENDATIONS, asking=POINTING_BACK, reply=AGREEING)
def test_an_offer_that_points_back_is_the_recommendation_before_it(recommendation: str, asking: str,
                                                                    reply: str) -> None:
    agreed = accepted_proposal(f"Both work. {recommendation}. {asking}", reply)
    assert "?" not in agreed and recommendation.split()[-1] in agreed and recommendation.split()[3] in agreed


@given(question=st.sampled_from(["Want me to commit and push, or reply to that review thread too?",
                                 "Do you want me to fix it in this PR or create an issue?",
                                 "Should I show them? Hide them?", "Want me to go ahead?",
                                 "Want me to implement this with both variants:"]),
       reply=AGREEING)
def test_an_offer_a_bare_yes_cannot_settle_is_no_decision(question: str, reply: str) -> None:
    assert accepted_proposal(f"- item one\n- item two\n\n{question}", reply) == ""


@pytest.mark.parametrize("reply", ["let's go with option 2", "we'll go with option 2.", "I'd take option 2"])
def test_a_pick_inside_a_sentence_names_the_option_and_its_key(reply: str) -> None:
    answer = "\n".join(f"{n}. {text}" for n, text in enumerate(OPTIONS, 1))
    assert accepted_proposal(answer, reply) == f"option 2: {OPTIONS[1]}"


def test_a_list_of_questions_offers_no_option() -> None:
    answer = "Open questions:\n1. Orphaned sessions: should we show them?\n2. Hidden ones: list them too?"
    assert accepted_proposal(answer, "1 - show them greyed out") == ""


def test_a_table_row_option_is_said_without_its_cells() -> None:
    answer = "A) At commit time (Recommended) | Generate when the user commits |\nB) Never | Skip it |"
    assert accepted_proposal(answer, "A") == "option A: At commit time: Generate when the user commits"


@pytest.mark.parametrize(("reply", "agreed"), [
    ("yes - commit, push, reply to the review comment.", "“commit, push, reply to the review comment”"),
    ("yeah let's do it", ""), ("okay, so what have we got here?", ""), ("ok, check the review thread first", "“check"),
])
def test_alternatives_answered_in_words_are_the_users_choice(reply: str, agreed: str) -> None:
    said = accepted_proposal("Tests pass. Want me to commit and push, or reply to that review thread too?", reply)
    assert (agreed in said and "the user:" in said) if agreed else said == ""


def test_an_offer_that_introduces_a_list_is_the_action_and_its_items() -> None:
    answer = "The UUID is the robust one.\n\nWant me to implement this with tracking both:\n" \
             "- `LastTranscriptUUID` - the last message's uuid\n- `LastTranscriptLineCount` - the line count\n"
    assert accepted_proposal(answer, "Yes, let's do both") == \
        "implement this with tracking both: `LastTranscriptUUID` - the last message's uuid; " \
        "`LastTranscriptLineCount` - the line count"
