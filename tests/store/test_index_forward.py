"""The tree built from the end of the file (every child after its parent, as pi writes) is the tree the walk
from the roots builds, for any file: children first or last, duplicates, dangling parents, cycles, labels."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.store.index import SessionIndex
from pi_compact.store.scan import Slot

_IDS = st.sampled_from([f"id{n}" for n in range(8)])
_ENTRIES = st.lists(
    st.tuples(_IDS, st.none() | _IDS | st.just("missing"), st.sampled_from(["2025-01-01T00:00:01.000Z",
                                                                            "2025-01-01T00:00:02.000Z", "bad", None])),
    max_size=14,
)


def _index(entries: list[tuple]) -> SessionIndex:
    index = SessionIndex(b"", for_context=False)
    for line, (entry_id, parent, stamp) in enumerate(entries, start=2):
        index.add(Slot(line, -1, -1, {"type": "message", "id": entry_id, "parentId": parent, "timestamp": stamp}))
    if entries:
        target = entries[0][0]
        index.add(Slot(99, -1, -1, {"type": "label", "id": "lab", "parentId": None, "targetId": target, "label": "L"}))
    return index


def _shape(nodes) -> list:
    return [(node.id, node.digest, node.label, _shape(node.children)) for node in nodes]


def _walked(entries: list[tuple], monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as patch:
        patch.setattr(SessionIndex, "_forward_nodes", lambda self, kids, make, digests=None: None)  # the walk from the roots only
        index = _index(entries)
        return _shape(index.digest_nodes({slot.id: slot.line for slot in index.slots})), index.problems


@settings(max_examples=400, deadline=None)
@given(_ENTRIES)
def test_the_tree_built_backwards_is_the_tree_walked_from_the_roots(entries):
    with pytest.MonkeyPatch.context() as monkeypatch:
        walked, walked_problems = _walked(entries, monkeypatch)
    index = _index(entries)
    assert _shape(index.digest_nodes({slot.id: slot.line for slot in index.slots})) == walked
    assert index.problems == walked_problems


@pytest.mark.parametrize(("entries", "forward"), [
    ([("a", None, "t"), ("b", "a", "t"), ("c", "b", "t")], True),  # as pi writes: built backwards
    ([("b", "a", "t"), ("a", None, "t")], False),  # a child before its parent: walked
    ([("a", "b", "t"), ("b", "a", "t")], False),  # a cycle: walked (and reported)
])
def test_which_files_are_built_backwards(entries, forward):
    index = _index(entries)
    kids: dict[str, list[Slot]] = {}
    for slot in index.slots:
        if slot.parent_id in index.by_id and slot.parent_id != slot.id:
            kids.setdefault(slot.parent_id, []).append(slot)
    assert (index._forward_nodes(kids, lambda slot, children, label: slot.id) is not None) == forward
