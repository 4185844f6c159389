"""What a finished request left, as its Done item says it (:mod:`pi_compact.compaction.offline.progress`)."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.progress import report


@pytest.mark.parametrize(("answer", "kept"), [
    ("Fixed. The issue was `maxCheckpointsToScan = 50` which filtered out older checkpoints on main. I increased it "
     "to 200 so checkpoints on all branches are found.", ["maxCheckpointsToScan = 50", "200"]),
    ("Done. The root cause was a stale `uv.lock` pinning punt-tts 0.1.0.", ["uv.lock"]),
    ("All set. I lowered the retry count to 3 and the flaky upload test is quiet.", ["3"]),
    ("I bumped `MAX_WORKERS` to 16 for the batch job.", ["MAX_WORKERS"]),
])
def test_a_cause_found_or_a_value_changed_is_a_result(answer: str, kept: list[str]) -> None:
    said = " ".join(report(answer))
    assert all(value in said for value in kept)


@pytest.mark.parametrize("answer", [
    "If the user reverts the first prompt's changes, the reverted content would be saved. Let me know what you think.",
    "The problem is that the cache is shared between workers.",
])
def test_a_hypothesis_or_an_adjective_is_no_result(answer: str) -> None:
    assert report(answer) == []
