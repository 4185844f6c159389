"""Reading an earlier summary back into pi's sections: what of it is state, and what is the harness talking."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction.offline.sections import parse

RESUME_NOTES = [
    "Please continue the conversation from where we left it off without asking the user any further questions.",
    "Continue with the last task that you were asked to work on.",
    "continue from where you left off, do not ask again",
    "If you need specific details from before compaction (like exact code snippets), read the full transcript at: "
    "/home/someone/.agent/projects/x/1234.jsonl",
    "If you need more details, see the full transcript at C:\\Users\\me\\log.jsonl",
]
STATE_LINES = [
    "The parser rejects tabs because `strict_mode` is on",
    "Continue migrating the billing tables after the `orders` table is done",
    "If the retry fails, read the server log before changing `timeout_ms`",
    "Please keep the public API of `Ledger.post` unchanged",
]


@settings(max_examples=30, deadline=None)
@given(note=st.sampled_from(RESUME_NOTES), state=st.sampled_from(STATE_LINES),
       marker=st.sampled_from(["- ", "* ", "", "9. "]), heading=st.sampled_from(["## Critical Context", "## Notes",
                                                                               "## Next Steps"]))
def test_a_harness_note_on_how_to_resume_is_no_item(note: str, state: str, marker: str, heading: str) -> None:
    parsed = parse(f"{heading}\n{marker}{state}\n{marker}{note}\n")
    kept = [item for items in [*parsed.items.values(), *parsed.extra.values()] for item in items]
    assert state in kept
    assert all(note[:30] not in item for item in kept)


@pytest.mark.parametrize("state", STATE_LINES)
def test_a_state_line_that_starts_like_advice_stays(state: str) -> None:
    assert parse(f"## Critical Context\n- {state}\n").items["critical"] == [state]


def test_a_note_ends_the_item_it_follows() -> None:
    """A continuation line after the note is not glued onto the item before it."""
    parsed = parse("## Critical Context\n- `make check` passes\n- Please continue the conversation from where we "
                   "left off.\n  without asking the user\n")
    assert parsed.items["critical"][0] == "`make check` passes"
