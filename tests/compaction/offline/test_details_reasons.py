"""The room a large region's named things leave goes to what the agent found or did, said in plain words: a reason
names no file or identifier ("the hooks ran the old installed binary"), and is what the next agent would ask."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.details import LOG_LABEL

from ..messages import assistant
from .test_classes import EXAMPLES, summarize
from .test_details import CWD, _region
from .test_offline import section

REASONS = st.sampled_from([
    "The failure happened because the hooks ran the older installed release instead of the fresh build.",
    "I found that the scheduler skipped weekends since nobody configured holidays properly.",
    "The dashboard showed stale totals because caching survived every deploy without invalidation.",
    "Confirmed: uploads stalled whenever antivirus scanning locked temporary folders during quarantine.",
])
CHATTER = st.sampled_from([
    "Let me look at that again and check.",
    "Now I will continue with the next part.",
])


def _log(text: str) -> str:
    return "\n".join(section(text, "## Critical Context")).partition(LOG_LABEL)[2]


@EXAMPLES
@given(reason=REASONS, chatter=CHATTER)
def test_a_reason_in_plain_words_is_logged_when_room_is_left(reason: str, chatter: str) -> None:
    later = ["The importer reads every part again after the change.", "All parts pass their checks now."]
    text = summarize(_region([reason, later[0], chatter, later[1]]), metadata={"cwd": CWD})
    assert reason in _log(text)
    assert chatter not in _log(text)  # an announcement says nothing found or done


@EXAMPLES
@given(reason=REASONS)
def test_a_reason_said_twice_is_quoted_once(reason: str) -> None:
    again = f"In short: {reason[0].lower()}{reason[1:]}"
    core = reason.split(" ", 1)[1]
    findings = [reason, "The importer reads every part again.", again, "All parts pass their checks now."]
    assert summarize(_region(findings), metadata={"cwd": CWD}).count(core) == 1


def test_a_sentence_of_few_new_words_is_no_reason() -> None:
    """Three words of five letters or more the summary lacks, at least: a short remark is no finding."""
    text = summarize(_region(["Fixed it now, works."]) + [assistant("Done.")], metadata={"cwd": CWD})
    assert "Fixed it now" not in _log(text)


def test_a_plain_statement_without_a_result_word_is_a_reason_too() -> None:
    """No "because", "found", "fixed" is needed: a sentence that states something the summary lacks is news."""
    statement = "The quarterly ledger export runs nightly against the replica database."
    later = ["The importer reads every part again after the change.", "All parts pass their checks now."]
    assert statement in _log(summarize(_region([statement, later[0], "Nothing else to report here.", later[1]]),
                                       metadata={"cwd": CWD}))
