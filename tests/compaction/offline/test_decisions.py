"""Key Decisions: a change of approach the agent made when its first way was closed
(:func:`pi_compact.compaction.offline.state._changes_of_approach`), as the summary lists it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, bash_fail, call, result, user
from .test_offline import items, summarize


def _decisions(*messages: dict) -> list[str]:
    return items(summarize(list(messages)), "## Key Decisions")


@pytest.mark.parametrize(("words", "kept"), [
    ("The sandbox can't reach the package mirror. Let me take a different approach — I'll vendor the two wheels into "
     "third_party/ and install them from there.", ["can't reach the package mirror", "vendor the two wheels"]),
    ("The deploy key was denied by the registry, so I'll publish the image from the CI runner instead of from this "
     "machine.", ["publish the image from the CI runner"]),
    ("Since the codegen plugin is not installed here, I'll write the protobuf bindings by hand for the three messages "
     "we need.", ["codegen plugin is not installed", "by hand"]),
])
def test_a_new_way_after_a_closed_one_is_a_decision(words: str, kept: list[str]) -> None:
    found = _decisions(
        user("Package the scheduler service for the staging cluster."),
        assistant(words),
    )
    assert any(all(part in item for part in kept) for item in found), found


def test_a_new_way_after_a_failed_command_keeps_the_reason_before_it() -> None:
    found = _decisions(
        user("Generate the migration plan for the billing tables."),
        assistant(call("c1", "bash", command="python -m tools.planner billing")),
        result("c1", "bash", bash_fail("No module named tools.planner", 1), error=True),
        assistant("Since the planner is a documented procedure rather than a module, the plan comes from the schema. "
                  "Let me write the migration plan manually from the current table definitions:"),
    )
    assert any("planner is a documented procedure" in item and "write the migration plan manually" in item
               for item in found), found


@pytest.mark.parametrize("words", [
    "The test fails because the counter is 1 instead of 0 after the second flush of the queue.",  # a diagnosis
    "The new parser returns a typed error instead of silently continuing with an empty header.",  # describes code
    "The build can't find the header. Let me search the vendor directory for it instead of the system path.",  # a look
    "The upload failed. Should I retry with the smaller chunk size instead of the default one?",  # a question
    "I cannot push to the remote from here, so you need to run the push manually from your machine.",  # the user's
])
def test_a_description_a_look_or_a_question_is_no_decision(words: str) -> None:
    found = _decisions(
        user("Package the scheduler service for the staging cluster."),
        assistant(words),
    )
    assert not any(phrase in item for item in found for phrase in (
        "instead of silently", "counter is 1", "search the vendor", "smaller chunk", "push manually")), found


def test_without_a_closed_way_a_preference_is_no_change_of_course() -> None:
    """"Instead" in an ordinary step, with nothing failed or blocked before it, reports no change of approach."""
    found = _decisions(
        user("Tidy the logging setup in the worker."),
        assistant("I'll configure the logger once in main.py instead of in every module of the worker package."),
    )
    assert not any("configure the logger once" in item for item in found), found


@pytest.mark.parametrize(("words", "kept"), [
    ("Rather than patching every caller, we'll wrap the HTTP client once in the session factory.",
     "wrap the HTTP client once"),
    ("The fix: instead of raising on an empty batch, we should return an empty report and let the caller go on.",
     "return an empty report"),
    ("Both loaders work, but we'll keep the streaming loader for the nightly import because it bounds memory.",
     "keep the streaming loader"),
    ("So the correct behaviour is to **skip** the locked rows and report them at the end of the import.",
     "correct behaviour is to **skip**"),
])
def test_a_course_the_agent_takes_over_another_is_a_decision(words: str, kept: str) -> None:
    found = _decisions(user("Make the nightly import robust."), assistant(words))
    assert any(kept in item for item in found), found


def test_what_code_does_instead_of_something_is_no_decision() -> None:
    found = _decisions(user("Make the nightly import robust."),
                       assistant("The loader now returns an empty report instead of raising on an empty batch."))
    assert not any("instead of raising" in item for item in found), found


@given(question=st.text(alphabet="abcdefgh ", min_size=200, max_size=600).filter(str.strip),
       answer=st.sampled_from(["Keep OpenAI with BYOK (the user brings the key)", "5 messages a day",
                               "Simplified streaming: a typing effect over the whole answer"]))
def test_an_answered_question_keeps_the_answer_whole_and_cuts_the_question(question: str, answer: str) -> None:
    from pi_compact.compaction.offline.state import answered_question

    line = answered_question(question, answer)
    assert line.endswith(f"the user chose “{answer}”") and len(line) <= 240 + 1
