"""SessionIndex.add admits a new string id without asking _admit, and reads fields only of labels and names
(opening or showing a big file indexes every line): it indexes exactly as the plain way, _admit for every line
and _read_fields for every entry, whatever the lines (headers again, ids that are no strings, duplicates,
labels, names, thinking changes, children asked for between two lines).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.store.index import SessionIndex
from pi_compact.store.scan import Slot


class PlainIndex(SessionIndex):
    """SessionIndex.add as it was written before its fast path: every line through _admit and _read_fields."""

    def add(self, slot: Slot) -> bool:
        duplicate = self._admit(slot, self.by_id)
        if duplicate is None:
            return False
        self.slots.append(slot)
        self.by_id[slot.id] = slot
        if self._trusted_chains:
            self._track_thinking(slot, duplicate)
        if self._children is not None:
            if duplicate:
                self._children = None
            else:
                self._children.setdefault(slot.parent_id, []).append(slot)
        self._read_fields(slot)
        return True


_IDS = st.one_of(st.sampled_from(["a", "b", "c", "d"]), st.none(), st.integers(0, 2), st.just(["a"]))
_KINDS = st.sampled_from(["message", "label", "session_info", "session", "thinking_level_change", "custom", 7])


@st.composite
def entries(draw) -> dict:
    entry = {"type": draw(_KINDS), "id": draw(_IDS), "parentId": draw(st.sampled_from([None, "a", "b", "c", 3])),
             "timestamp": "2025-01-01T00:00:00.000Z"}
    if entry["type"] == "label":
        entry["targetId"] = draw(st.sampled_from(["a", "b", 1]))
        entry["label"] = draw(st.sampled_from(["x", "", None, {"k": 1}, 0]))
    if entry["type"] == "session_info":
        entry["name"] = draw(st.sampled_from(["n", " ", None, 2]))
    return entry


def state(index: SessionIndex) -> tuple:
    return ([id(slot) for slot in index.slots], {key: id(slot) for key, slot in index.by_id.items()}, index.labels,
            index.name_entry, index.problems, {key: slot and id(slot) for key, slot in index._thinking_at.items()},
            index.chains_trusted, index._children and {key: [id(slot) for slot in slots]
                                                        for key, slots in index._children.items()})


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(entries(), max_size=14), for_context=st.booleans(),
       ask_children_at=st.sets(st.integers(0, 14)))
def test_add_indexes_as_admit_and_read_fields_for_every_line(lines, for_context, ask_children_at):
    fast, plain = SessionIndex(b"", for_context=for_context), PlainIndex(b"", for_context=for_context)
    for number, entry in enumerate(lines):
        if number in ask_children_at:  # a map of children kept up to date from here on
            assert fast.children(None) == plain.children(None)
        slot = Slot(number + 1, -1, -1, entry)
        assert fast.add(slot) == plain.add(slot)
        assert state(fast) == state(plain)
