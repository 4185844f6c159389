"""An earlier summary in a model's numbered format ("1. Primary Request and Intent:" … "9. Optional Next Step:")
states the objective in its first section. A region that holds no request of its own (the agent went on unprompted
after the compaction) keeps that objective as its goal, never "(no user request in this part)"."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.intent import INTENT_CHARS, earlier_intent

from ..messages import assistant, call, result
from .test_classes import summarize
from .test_offline import items

AIMS = ("Fix the checkpoint ID reuse bug in the commit hook", "Port the billing export to the new ledger API",
        "Make the rate limiter per-key and add its tests")
HEADINGS = ("1. Primary Request and Intent:", "1. **Primary Request and Intent**:", "## 1. Primary Request and Intent:",
            "1. Primary Request:", "1) User's Goal:")
LATER = ("2. Key Technical Concepts:", "## 2. Key Technical Concepts", "2. **Files and Code Sections**:")


def _numbered(heading: str, body: str, later: str = LATER[0]) -> str:
    return (f"Analysis:\nThe conversation went through several steps.\n\nSummary:\n{heading}\n{body}\n\n{later}\n"
            "   - Shadow branches keep checkpoint data\n\n7. Pending Tasks:\n   - Run the tests\n\n"
            "9. Optional Next Step:\n   Run the integration tests again.")


@pytest.mark.parametrize("later", LATER)
@pytest.mark.parametrize("heading", HEADINGS)
def test_the_intent_section_is_read_as_one_line(heading: str, later: str) -> None:
    body = f"   - {AIMS[0]}\n   - {AIMS[1]}\n   - User explicitly requested: \"keep it agent-agnostic\""
    intent = earlier_intent(_numbered(heading, body, later))
    assert intent.startswith(AIMS[0]) and AIMS[1] in intent and "agent-agnostic" in intent, intent
    assert "Shadow branches" not in intent and "Run the tests" not in intent, intent


def test_a_prose_intent_is_read_whole_and_clipped_to_its_room() -> None:
    body = "   The user asked to " + " ".join(["refactor the exporter"] * 60) + "."
    intent = earlier_intent(_numbered(HEADINGS[0], body))
    assert intent.startswith("The user asked to refactor") and len(intent) <= INTENT_CHARS


@pytest.mark.parametrize("summary", [
    "## Goal\nShip the exporter\n\n## Next Steps\n1. Run the tests",  # pi's own layout: its Goal section serves
    "Summary:\n1. Key Technical Concepts:\n   - Go modules\n2. Pending Tasks:\n   - Intent of the API is unclear",
    "",
])
def test_a_summary_without_a_numbered_intent_has_none(summary: str) -> None:
    assert earlier_intent(summary) == ""


@given(st.text(alphabet=st.sampled_from(list("1. Primary Request and Intent:\n -*#Goal")), max_size=400))
def test_any_text_gives_a_bounded_line(text: str) -> None:
    intent = earlier_intent(text)
    assert "\n" not in intent and len(intent) <= INTENT_CHARS


def _unprompted() -> list[dict]:
    """A region after a compaction: the agent goes on with the work, no user message in it."""
    return [assistant("Let me run the integration test again.", call("b1", "bash", command="go test ./...")),
            result("b1", "bash", "ok  \tgithub.com/acme/cli\t0.41s"),
            assistant("The tests pass now.")]


@pytest.mark.parametrize("aim", AIMS)
def test_a_region_without_a_request_keeps_the_earlier_summarys_objective(aim: str) -> None:
    previous = _numbered(HEADINGS[0], f"   - {aim}\n   - Keep the public API unchanged")
    goal = " ".join(items(summarize(_unprompted(), previous_summary=previous), "## Goal"))
    assert aim in goal and "no user request" not in goal, goal


def test_a_region_without_a_request_or_an_earlier_summary_says_so() -> None:
    goal = " ".join(items(summarize(_unprompted()), "## Goal"))
    assert "no user request" in goal, goal
