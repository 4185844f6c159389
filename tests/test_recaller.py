"""recall (issue 15.3): the entries behind the current branch's compactions stay searchable by text, file path
and entry id, with bounded excerpts, newest first; abandoned branches on request; nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact import RecallHit, RecallResult, Session, recall
from pi_compact.compaction import CompactionSettings, compact
from pi_compact.recaller import EXCERPT_CHARS, format_hits
from pi_compact.testing import ScriptedSummarizer
from tests.prose import prose

ERROR = "Error: ENOENT: no such file or directory, open '/srv/app/config.yml'"
SUMMARY = "## Goal\nStart the app.\n\n## Progress\n### Done\n- [x] tried to start it (it failed)"


def worked_session(path: Path | None = None) -> Session:
    session = Session.create_at(path, "/srv/app") if path else Session.in_memory("/srv/app")
    session.append_message({"role": "user", "content": "Start the app. " + prose(300), "timestamp": 1})
    session.append_message({"role": "assistant", "stopReason": "toolUse", "timestamp": 2, "content": [
        {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "node server.js --config /srv/app/config.yml"}}]})
    session.append_message({"role": "toolResult", "toolCallId": "c1", "toolName": "bash", "isError": True,
                            "content": [{"type": "text", "text": "filler line\n" * 80 + ERROR + "\n" + "trace\n" * 80}],
                            "timestamp": 3})
    for n in range(4):
        session.append_message({"role": "user", "content": f"Next step {n}. " + prose(400), "timestamp": 4 + n})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": prose(300)}],
                                "stopReason": "stop", "timestamp": 4 + n})
    return session


def compacted(session: Session) -> Session:
    settings = CompactionSettings(reserve_tokens=1_000, keep_recent_tokens=1_000)
    compact(session, window=6_000, settings=settings, summarizer=ScriptedSummarizer([SUMMARY] * 4, name="anthropic"))
    return session


def test_the_exact_error_the_summary_dropped_is_found_with_its_entry_id() -> None:
    session = compacted(worked_session())
    context_text = str(session.build_context().messages)
    assert "ENOENT" not in context_text  # the summary (and the kept region) lost it
    found = recall(session, "enoent: no such file")
    assert isinstance(found, RecallResult) and found.total_matches == 1 and not found.by_id
    [hit] = found.hits
    assert isinstance(hit, RecallHit) and hit.kind == "toolResult(bash)" and not hit.abandoned
    assert ERROR in hit.excerpt and len(hit.excerpt) <= EXCERPT_CHARS + 2
    assert hit.entry_id == [e for e in session.entries() if e.get("message", {}).get("role") == "toolResult"][0]["id"]


def test_a_file_path_finds_the_call_and_its_result_newest_first() -> None:
    session = compacted(worked_session())
    found = recall(session, "/srv/app/config.yml")
    assert [h.kind for h in found.hits] == ["toolResult(bash)", "assistant"]
    assert "node server.js --config /srv/app/config.yml" in found.hits[1].excerpt


def test_an_entry_id_shows_that_entry_at_length() -> None:
    session = compacted(worked_session())
    first = recall(session, "ENOENT").hits[0]
    found = recall(session, first.entry_id[:6])
    assert found.by_id and [h.entry_id for h in found.hits] == [first.entry_id]
    assert ERROR in found.hits[0].excerpt and found.hits[0].excerpt.startswith("filler line")


def test_all_the_words_match_when_the_phrase_does_not() -> None:
    session = compacted(worked_session())
    assert recall(session, "config.yml ENOENT").total_matches == 1
    assert recall(session, "config.yml EXDEV").total_matches == 0


def test_only_what_left_the_context_is_searched_unless_branches_are_asked_for() -> None:
    session = worked_session()
    assert recall(session, "ENOENT").entries_searched == 0  # nothing compacted yet: everything is in context
    assert "Nothing to search" in format_hits(recall(session, "ENOENT"))
    fork_point = session.entries()[2]["id"]
    session.append_message({"role": "user", "content": "kept in context: needle", "timestamp": 99})
    session.move_leaf(fork_point)
    session.append_message({"role": "user", "content": "another way", "timestamp": 100})
    assert recall(session, "needle").hits == ()
    [hit] = recall(session, "needle", include_abandoned=True).hits
    assert hit.abandoned and hit.kind == "user"


def test_recall_writes_nothing(tmp_path: Path) -> None:
    file = tmp_path / "s.jsonl"
    compacted(worked_session(file)).close()
    before = file.read_bytes()
    recall(Session.open(file), "ENOENT", include_abandoned=True)
    assert file.read_bytes() == before


def test_the_limit_bounds_the_hits_and_says_how_many_more() -> None:
    session = compacted(worked_session())
    found = recall(session, "e", limit=2)
    assert len(found.hits) == 2 and found.total_matches > 2
    assert "more matches" in format_hits(found)


@settings(max_examples=30, deadline=None)
@given(st.text(min_size=1, max_size=40))
def test_any_query_gives_bounded_excerpts(query: str) -> None:
    found = recall(_SESSION, query, limit=50)
    assert len(found.hits) <= 50
    assert all(len(h.excerpt) <= (4002 if found.by_id else EXCERPT_CHARS + 2) for h in found.hits)


_SESSION = compacted(worked_session())


@pytest.mark.parametrize("query", ["", "   "])
def test_an_empty_query_finds_nothing(query: str) -> None:
    assert recall(_SESSION, query).hits == ()
