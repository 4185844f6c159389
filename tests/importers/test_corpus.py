"""The bundled transcripts of other agents: INDEX.json names every file with its origin, and its counts are
what the importers find; every file imports into a tree with no problems."""

from __future__ import annotations

import json

import pytest

from pi_compact import Session
from pi_compact.importers import read_transcript, reference_summaries, transcript_files, write_session
from sessions_fixtures import AGENTS_DIR

INDEX = json.loads((AGENTS_DIR / "INDEX.json").read_text(encoding="utf-8"))
FILES = {row["file"]: row for row in INDEX["files"]}


def test_the_index_lists_exactly_the_files_there() -> None:
    assert sorted(FILES) == sorted(str(p.relative_to(AGENTS_DIR)) for p in transcript_files(AGENTS_DIR))
    assert INDEX["repositories"] == len({row["repository"] for row in INDEX["files"]})
    assert INDEX["readableSummaries"] == sum(row["readableSummaries"] for row in INDEX["files"])
    regions = {(row["repository"], cid) for row in INDEX["files"] for cid, messages in row["regions"] if messages}
    assert INDEX["uniqueRegions"] == len(regions)  # a region counts once, whichever files hold it
    assert INDEX["repositoriesWithRegions"] == len({repo for repo, _ in regions})


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_file_imports_with_the_counts_the_index_gives(name: str, tmp_path) -> None:
    row = FILES[name]
    assert {"repository", "path", "commit", "licence", "copyright"} <= set(row) and len(row["commit"]) == 40
    imported = read_transcript(AGENTS_DIR / name)
    assert imported.format == row["format"] == name.split("/")[0]
    assert sum(1 for e in imported.entries if e["type"] == "compaction") == row["compactions"]
    assert imported.compactions == row["readableSummaries"] == len(row["regions"])
    out = write_session(imported, tmp_path / "out.jsonl")
    with Session.open(out) as session:
        assert session.problems == []
        references = reference_summaries(session, all_branches=True)
    assert [[r.compaction_id, r.messages] for r in references] == row["regions"]
    assert all(r.summary.strip() for r in references)
