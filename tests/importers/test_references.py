"""The original agent's summaries of an imported session, each with the region it stands for; ``replay`` shows
them beside its own."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from pi_compact import Session, reference_summaries
from pi_compact.importers import import_transcript
from tests.reliability.clirun import assert_clean_outcome, run_forked

from .rows import CONTINUED, boundary, cc_assistant, cc_user, jsonl, text

ROWS = [
    cc_user("u1", None, "build the parser", 1), cc_assistant("a1", "u1", [text("built")], "m1", 2),
    boundary("b1", "a1", 150000, 3), cc_user("s1", "b1", CONTINUED + "Parser built.", 4, isCompactSummary=True),
    cc_user("u2", "s1", "test it", 5), cc_assistant("a2", "u2", [text("tested")], "m2", 6),
    cc_user("u3", "a2", "document it", 7), cc_assistant("a3", "u3", [text("documented")], "m3", 8),
    boundary("b2", "a3", 160000, 9), cc_user("s2", "b2", CONTINUED + "Parser built, tested, documented.", 10,
                                            isCompactSummary=True),
]


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(jsonl(ROWS))
    import_transcript(source, out)
    return out


def test_each_imported_compaction_is_a_reference_with_its_region(imported: Path) -> None:
    with Session.open(imported) as session:
        first, second = reference_summaries(session)
    assert (first.compaction_id, first.source, first.summary, first.tokens_before) == (
        "b1", "claude-code", "Parser built.", 150000)
    assert first.region == ("u1", "a1") and first.messages == 2
    # the second summary replaces the first one and what came after it
    assert second.region == ("b1", "u2", "a2", "u3", "a3") and second.messages == 4
    assert second.to_json()["regionStart"] == "b1" and second.to_json()["regionEntries"] == 5


def test_a_kept_tail_is_not_part_of_the_region(tmp_path: Path) -> None:
    cut = boundary("b1", "a2", 90000, 5)
    cut["compactMetadata"]["preservedSegment"] = {"headUuid": "u2", "anchorUuid": "s1", "tailUuid": "a2"}
    rows = [cc_user("u1", None, "one", 1), cc_assistant("a1", "u1", [text("1")], "m1", 2),
            cc_user("u2", "a1", "two", 3), cc_assistant("a2", "u2", [text("2")], "m2", 4),
            cut, cc_user("s1", "b1", CONTINUED + "One done.", 6, isCompactSummary=True)]
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(jsonl(rows))
    import_transcript(source, out)
    with Session.open(out) as session:
        (reference,) = reference_summaries(session)
    assert reference.region == ("u1", "a1")


def test_compactions_of_our_own_are_no_references(tmp_path: Path) -> None:
    session = Session.create_at(tmp_path / "ours.jsonl", "/p")
    first = session.append_message({"role": "user", "content": "hi", "timestamp": 0})
    session.append_compaction("our summary", first["id"], 10)
    assert reference_summaries(session) == []


def test_replay_reports_the_references_beside_its_own_compactions(imported: Path) -> None:
    run = run_forked("replay", str(imported), "--window", "32000", "--json")
    assert_clean_outcome(run, 0)
    references = orjson.loads(run.stdout)["referenceSummaries"]
    assert [(r["compactionId"], r["summary"], r["regionMessages"]) for r in references] == [
        ("b1", "Parser built.", 2), ("b2", "Parser built, tested, documented.", 4)]
    table = run_forked("replay", str(imported), "--window", "32000")
    assert_clean_outcome(table, 0)
    assert b"reference   claude-code's own summary at b2 (4 messages, 160,000 tokens before)" in table.stdout
