"""``SessionIndex.path_ids`` walks without a set of the ids seen: for any parent links (dangling, self, cycles)
it gives the ids of ``walk`` root first, and reports the cycle ``walk`` reports, once."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.store.index import SessionIndex
from tests.store.test_index_forward import _ENTRIES, _IDS, _index


def _walked(index: SessionIndex, from_id: str | None) -> list[str]:
    ids = [slot.id for slot in index.walk(from_id)]
    ids.reverse()
    return ids


@settings(max_examples=400, deadline=None)
@given(_ENTRIES, st.none() | _IDS)
def test_the_path_is_the_walk_reversed_with_the_same_problems(entries, from_id):
    walked_index, index = _index(entries), _index(entries)
    assert index.path_ids(from_id) == _walked(walked_index, from_id)
    assert index.problems == walked_index.problems
    index.path_ids(from_id)  # asked again: the cycle is not reported twice
    assert index.problems == walked_index.problems


@pytest.mark.parametrize(("entries", "path", "cycle"), [
    ([("a", None, "t"), ("b", "a", "t"), ("c", "b", "t")], ["a", "b", "c"], False),
    ([("a", "c", "t"), ("b", "a", "t"), ("c", "b", "t")], ["a", "b", "c"], True),  # the whole index a cycle
    ([("a", "a", "t"), ("c", "a", "t")], ["a", "c"], True),  # a self-parent: a cycle of one
    ([("a", "missing", "t"), ("c", "a", "t")], ["a", "c"], False),  # a dangling parent ends the path
])
def test_paths_that_end_and_paths_that_come_back(entries, path, cycle):
    index = _index(entries)
    assert index.path_ids("c") == path
    assert any(problem.kind == "cycle" for problem in index.problems) == cycle
