"""Label coverage (facts present / partly / absent / wrong, the next step) and the rank correlation the quality
bench reports; and the hand labels of the agents' corpus, which must name regions that exist."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.evaluation.coverage import coverage, spearman
from pi_compact.evaluation.quality import score_quality
from sessions_fixtures import AGENTS_DIR, HERE
from tests.compaction.messages import assistant, user

LABELS = {
    "goal": {"text": "Port the exporter", "keys": ["exporter", "port"]},
    "decisions": [{"text": "CSV first", "keys": ["CSV"]}],
    "done": [{"text": "Reader done", "keys": ["reader.py", "reader", "ported"]}],
    "next": [{"text": "Write the CSV writer", "keys": ["writer.py", "CSV writer"]}],
    "errors": [], "constraints": [], "in_progress": [], "files": [],
}
REGION = [user("Port the exporter; CSV first."), assistant("The reader is in reader.py now.")]


@pytest.mark.parametrize(("summary", "counts", "right"), [
    ("## Goal\nPort the exporter\n## Key Decisions\n- CSV first\n## Progress\n### Done\n- reader.py ported\n"
     "## Next Steps\n1. Write the CSV writer in writer.py", (4, 0, 0), True),
    ("## Goal\nthe exporter\n## Next Steps\n1. wait", (1, 0, 3), False),  # half the keys: present
    ("## Progress\n### Done\n- the reader", (0, 1, 3), False),
    ("## Goal\nsomething else", (0, 0, 4), False),
])
def test_facts_are_present_partly_or_absent_by_their_keys(summary: str, counts: tuple, right: bool) -> None:
    found = coverage(summary, LABELS, score_quality(REGION, summary))
    assert (found.present, found.partly, found.absent) == counts
    assert found.next_right is right and found.facts == 4


def test_what_the_scorer_finds_wrong_counts_as_wrong() -> None:
    messages = [user("Add the verbose flag to the export command."), assistant("It is done: the flag is in cli.py.")]
    summary = ("## Goal\nAdd the flag\n\n## Next Steps\n1. Finish the last request: “Add the verbose flag to the "
               "export command.”")
    assert coverage(summary, LABELS, score_quality(messages, summary)).wrong >= 1


@given(st.lists(st.floats(-100, 100, allow_nan=False), min_size=3, max_size=30, unique=True))
def test_spearman_of_a_ranking_with_itself_and_its_reverse(values: list[float]) -> None:
    assert spearman(values, values) == pytest.approx(1.0)
    assert spearman(values, [-v for v in values]) == pytest.approx(-1.0)
    assert spearman(values[:2], values[:2]) is None


def test_every_agents_label_names_a_validation_region_of_the_corpus() -> None:
    index = json.loads((AGENTS_DIR / "INDEX.json").read_text(encoding="utf-8"))
    split = json.loads((HERE / "labels" / "split.json").read_text(encoding="utf-8"))["halves"]
    assert not set(split["calibration"]) & set(split["validation"])
    regions = {(row["repository"], cid) for row in index["files"] for cid, messages in row["regions"] if messages}
    assert {repo for repo, _ in regions} <= set(split["calibration"]) | set(split["validation"])
    files = sorted((HERE / "labels" / "agents").glob("*.json"))
    assert len(files) == sum(repo in split["validation"] for repo, _ in regions)  # every validation region
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert (data["repository"], data["region"]["compactionId"]) in regions, path.name
        assert data["repository"] in split["validation"]
        for section in ("constraints", "decisions", "done", "in_progress", "next", "errors", "files"):
            assert all(item["text"] and item["keys"] for item in data[section]), (path.name, section)
        assert data["goal"]["keys"] and all(e["status"] in ("open", "resolved") for e in data["errors"])
