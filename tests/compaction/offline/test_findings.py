"""The agent's conclusions, in its own words, however it opens them, cut before what it will do."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.details import FOUND_LABEL
from pi_compact.compaction.offline.findings import findings

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_details import CWD, _region

OPENINGS = st.sampled_from(["Found it! {}", "Found the bug! {}", "I see the issue now. {}", "**Found it** — {}",
                            "The root cause is that {}", "**Root cause**: {}", "The issue is that {}",
                            "Now I see the real problem: {}", "**Problem:** {}"])
CAUSES = st.sampled_from([
    "the walk stops at the first commit reachable from main instead of skipping it.",
    "`initializeSession` never sets `PendingPromptAttribution`, so the hooks compute nothing.",
    "the worktree index keeps a cache-tree entry whose tree object was pruned by gc.",
])
AFTER = st.sampled_from(["", " Let me fix that.", "\n\nI'll change the loop now.", " Should I also add a test?"])


@EXAMPLES
@given(opening=OPENINGS, cause=CAUSES, after=AFTER)
def test_a_conclusion_is_kept_in_the_agents_words_without_what_it_will_do(opening: str, cause: str,
                                                                          after: str) -> None:
    found = findings(["Let me check the loop.", opening.format(cause) + after])
    assert len(found) == 1 and cause.split(" ", 1)[1].rstrip(".") in found[0]
    assert "Let me" not in found[0] and "I'll" not in found[0] and "?" not in found[0]


def test_a_list_under_the_opening_is_the_conclusion() -> None:
    text = ("Found the bug! The issue is:\n\n1. We iterate in `CommitterTime` order\n"
            "2. We hit `d3a182c` (from main) and stop instead of skipping it\n\nThe fix: return nil instead of "
            "`errStopIteration`, so the walk goes on.")
    assert findings([text]) == [
        "We iterate in `CommitterTime` order We hit `d3a182c` (from main) and stop instead of skipping it",
        "The fix: return nil instead of `errStopIteration`, so the walk goes on."]


@pytest.mark.parametrize("text", [
    "The root cause is: why does the session have no checkpoint ID?",  # a question, not a conclusion
    "I see the issue. Let me look at the loop.",
    "Found it.\n\n```go\nreturn nil\n```",
    "The fix options are:\n\n- skip\n- stop",  # an introduction (its list names options, not what was found)
    "Let me check why the issue is there.",  # a conclusion opens a line; it is not a word in passing
])
def test_what_concludes_nothing_is_no_finding(text: str) -> None:
    assert findings([text]) == []


def test_a_large_regions_summary_keeps_the_conclusion_among_the_agents_many_words() -> None:
    said = [f"Let me look at `part_{n}.py` next." for n in range(30)]
    messages = _region(said) + [
        user("why does the importer drop rows?"), assistant(call("g", "bash", command="grep -n split src/a.py")),
        result("g", "bash", "12: rows = text.split('\\n')[:-1]"),
        assistant("Found it! The importer drops the last row because the file has no final newline."),
        assistant("Fixed."), user("thanks")]
    text = summarize(messages, metadata={"cwd": CWD})
    found = text.split(FOUND_LABEL, 1)[1].split("\n- ", 1)[0]
    assert "drops the last row because the file has no final newline" in found
