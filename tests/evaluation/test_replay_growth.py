"""A replay's work grows with the session, not with its square (issue 23.11): counted, not timed.

The work of a replay is counted as the Python and C function calls it makes (``sys.setprofile``), which is
deterministic; a path that compares every failure with every later command, or rebuilds the whole path at
every compaction, makes its calls grow with the square of the session. The substring searches of the
quality score run inside single C calls, so their work is counted as the characters they are given, and so is
the index of name runs that answers most of them (each piece indexed, each place a question is checked at).
Sessions of n, 2n and 4n generated turns are replayed through a window small enough to compact every few
turns: the work at 4n must stay near four times the work at n.
"""

from __future__ import annotations

import random
import sys
from bisect import bisect_left
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.replay_bench import generated_session
from pi_compact.evaluation import growing
from pi_compact.evaluation.growing import GrowingText
from pi_compact.evaluation.replayer import replay

SIZES = (150, 300, 600)
WINDOW = 8_000
LINEAR = 4.5
"""Work at 4n over work at n: 4 for a linear replay (counts are deterministic; before the fix: 6.5 at these sizes)."""


@pytest.fixture(scope="module")
def sessions(tmp_path_factory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("growth")
    return {size: generated_session(folder / f"s{size}.jsonl", messages=size, seed=3) for size in SIZES}


def _calls_of_replay(path: Path) -> tuple[int, int]:
    calls = 0

    def count(frame, event, arg) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    sys.setprofile(count)
    try:
        report = replay(path, window=WINDOW)
    finally:
        sys.setprofile(None)
    return calls, len(report.compactions)


def test_the_calls_a_replay_makes_grow_linearly(sessions) -> None:
    counted = {size: _calls_of_replay(path) for size, path in sessions.items()}
    (small, compactions), (large, more) = counted[SIZES[0]], counted[SIZES[-1]]
    assert compactions >= 5 and more >= 4 * compactions * 0.75  # compactions all along, so the region keeps growing
    assert large / small <= LINEAR, counted


def test_the_characters_the_quality_score_searches_grow_linearly(sessions, monkeypatch) -> None:
    searched = 0
    search, scan = growing.GrowingText._search, growing.PieceFinder._scan

    def counted_search(self, needle, start):
        nonlocal searched
        searched += sum(map(len, self.pieces[start:]))
        return search(self, needle, start)

    def counted_scan(self, needle, start):
        nonlocal searched
        searched += sum(map(len, self.pieces[start:]))
        return scan(self, needle, start)

    index, occurs_at = growing.GrowingText._index, growing.GrowingText._occurs_at

    def counted_index(self, number, piece):
        nonlocal searched
        searched += len(piece)
        return index(self, number, piece)

    def counted_occurs_at(self, needle, shift, run, start):
        nonlocal searched
        places = self._runs.get(run, [])
        searched += len(run) + len(needle) * len(places[bisect_left(places, (start, -1)):])
        return occurs_at(self, needle, shift, run, start)

    monkeypatch.setattr(growing.GrowingText, "_search", counted_search)
    monkeypatch.setattr(growing.PieceFinder, "_scan", counted_scan)
    monkeypatch.setattr(growing.GrowingText, "_index", counted_index)
    monkeypatch.setattr(growing.GrowingText, "_occurs_at", counted_occurs_at)

    def replayed(path: Path) -> int:
        nonlocal searched
        searched = 0
        replay(path, window=WINDOW)
        return searched

    _grows_linearly(sessions, replayed)


@pytest.mark.parametrize("pieces, needle, expected", [
    (["ran `python -m pytest -q tests/test_a.py` twice"], "python -m pytest -q tests/test_a.py", True),
    (["python -m pytest -q tests/test_b.py", "tests/test_a.py"], "python -m pytest -q tests/test_a.py", False),
    (["see src/app.py."], "src/app.py", True),  # a sentence's full stop after the name
    (["in (src/app.py:42)"], "app.py", True),  # the end of a longer name: only a search finds it
    (["assertionerror: x"], "assertion", True),
    (["a b", "c"], "b\nc", True),  # across the joint
    (["a", ""], "\n", True),  # the joint itself
    (["foo -m bar"], "o -m b", True),
    (["foo -m  bar"], "o -m b", False),
])
def test_the_index_answers_as_a_search_does(pieces, needle, expected) -> None:
    text = GrowingText()
    for piece in pieces:
        text.append(piece)
    assert (needle in text) is expected is (needle in "\n".join(pieces))


def test_the_index_answers_as_a_search_does_on_random_texts() -> None:
    words = ["src/a.py", "a.py", "pytest", "-q", "x", "py", "tests/t.py", "!", ".", "(", ":", "`", " ", " ", "\n"]
    rng = random.Random(2)
    for _ in range(300):
        text, pieces = GrowingText(), []
        for _ in range(5):
            pieces.append("".join(rng.choice(words) for _ in range(rng.randint(0, 12))))
            text.append(pieces[-1])
            joined = "\n".join(pieces)
            starts = [rng.randint(0, len(joined)) for _ in range(8)]
            asked = [joined[at:at + rng.randint(1, 15)] for at in starts]
            asked += ["".join(rng.choice(words) for _ in range(rng.randint(1, 4))) for _ in range(8)]
            for needle in asked:
                assert (needle in text) == (needle in joined), (pieces, needle)


def test_the_items_the_fault_checks_read_grow_linearly(sessions, monkeypatch) -> None:
    # the nine fault checks are Python loops over what the region said: read the whole session at every
    # compaction, they grow with its square (a 4n replay read 15x what an n one did)
    from pi_compact.evaluation import quality

    read = 0
    faults_of = quality.summary_faults

    def counted(said, summary, labels=None):
        nonlocal read
        read += len(said)
        return faults_of(said, summary, labels)

    monkeypatch.setattr(quality, "summary_faults", counted)

    def replayed(path: Path) -> int:
        nonlocal read
        read = 0
        replay(path, window=WINDOW)
        return read

    _grows_linearly(sessions, replayed)


def _grows_linearly(sessions: dict[int, Path], work_of: Callable[[Path], int]) -> None:
    """The work counted while replaying the 4n session is at most :data:`LINEAR` times the n one's."""
    work = {size: work_of(path) for size, path in sessions.items()}
    assert work[SIZES[0]] > 0
    assert work[SIZES[-1]] / work[SIZES[0]] <= LINEAR, work


def test_a_replay_reads_each_regions_facts_once(sessions, monkeypatch) -> None:
    # the retention score asks for the facts of the messages a compaction just summarized: read again (they came
    # with the replaced summary in front), they cost as much as the summary's own reading
    from pi_compact.compaction.offline import facts

    extractions = 0
    extract = facts._extract

    def counted(listed):
        nonlocal extractions
        extractions += 1
        return extract(listed)

    monkeypatch.setattr(facts, "_extract", counted)
    report = replay(sessions[SIZES[-1]], window=WINDOW)
    assert len(report.compactions) >= 5
    assert extractions <= len(report.compactions), (extractions, len(report.compactions))
