"""The calibration half's hand labels: each names one calibration region of the corpus, every calibration region
has one, and every item can be matched (a text, keys, an error's status)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import corpus
from sessions_fixtures import AGENTS_DIR, HERE

SECTIONS = ("constraints", "decisions", "done", "in_progress", "next", "errors", "files")
CALIBRATION_FILES = sorted((HERE / "labels" / "calibration").glob("*.json"))


def _regions_of(half: str) -> set[tuple[str, str]]:
    index = json.loads((AGENTS_DIR / "INDEX.json").read_text(encoding="utf-8"))
    repos = set(json.loads((HERE / "labels" / "split.json").read_text(encoding="utf-8"))["halves"][half])
    return {(row["repository"], cid) for row in index["files"] if row["repository"] in repos
            for cid, messages in row["regions"] if messages}


def test_every_calibration_region_has_exactly_one_label() -> None:
    named = [(data["repository"], data["region"]["compactionId"])
             for data in (json.loads(path.read_text(encoding="utf-8")) for path in CALIBRATION_FILES)]
    assert len(named) == len(set(named))  # no region labelled twice
    assert set(named) == _regions_of("calibration")


@pytest.mark.parametrize("path", CALIBRATION_FILES, ids=lambda p: p.stem)
def test_a_calibration_label_is_well_formed(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["goal"]["text"] and data["goal"]["keys"]
    assert data["session"].endswith(".jsonl.gz") and (AGENTS_DIR / data["session"].removeprefix("agents/")).exists()
    for section in SECTIONS:
        for item in data[section]:
            assert item["text"] and 1 <= len(item["keys"]) <= 5 and all(k.strip() for k in item["keys"]), section
    assert all(error["status"] in ("open", "resolved") for error in data["errors"])


def test_label_files_map_each_labelled_compaction_to_its_file() -> None:
    files = corpus.label_files()
    assert set(CALIBRATION_FILES) <= set(files.values())
    for cid, path in files.items():
        assert json.loads(path.read_text(encoding="utf-8"))["region"]["compactionId"] == cid


def test_no_region_of_the_corpus_is_left_unlabelled() -> None:
    left = corpus.unlabelled()
    assert [region.key for region in left] == []
    assert {(r.repository, r.compaction_id) for r in corpus.regions()} == _regions_of("calibration") | _regions_of(
        "validation")
