"""Comparing two branches (``pi_compact.diff_branches``): where the paths meet and what each side holds.

The sessions are built in memory from the same small tree as the checkout tests; a property checks, on
random trees, that each side plus the shared part is exactly the path to its end.
"""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pi_compact
from pi_compact import ROOT, BranchDiff, EntryNotFoundError, Session, diff_branches
from pi_compact.branch_diff import RELATIONS
from tests.test_branching import assistant, grow, tool_result, user


@pytest.fixture
def tree() -> tuple[Session, dict[str, str]]:
    """u1 → a1 → u2 ┬ u3 → a3 (edits x.py, reads notes.md) → t3 → a4 (the leaf)
                     └ u5 → a5 (edits y.py)
    and a second tree r1 → r2, started after a reset."""
    s = Session.in_memory("/p")
    ids: dict[str, str] = {}
    ids["u1"], ids["a1"], ids["u2"] = grow(s, None, user("fix the parser"), assistant("looking"), user("try X"))
    ids["u5"], ids["a5"] = grow(s, ids["u2"], user("try Y instead"), assistant("Y done", ("edit", "y.py")))
    ids["r1"], ids["r2"] = grow(s, None, user("unrelated"), assistant("answer"))
    ids["u3"], ids["a3"], ids["t3"], ids["a4"] = grow(
        s, ids["u2"], user("go on with X"), assistant("X", ("edit", "x.py"), ("read", "notes.md")), tool_result("ok"),
        assistant("X done"))
    return s, ids


def _name(ids: dict[str, str], key: str | None) -> str | None:
    return ids[key] if key is not None else None


@pytest.mark.parametrize(
    ("a", "b", "relation", "ancestor", "in_common"),
    [
        ("a4", "a5", "diverged", "u2", 3),
        ("a4", "a4", "same", "a4", 7),
        ("u2", "a4", "a-before-b", "u2", 3),
        ("a4", "u2", "b-before-a", "u2", 3),
        ("a4", "r2", "separate-roots", None, 0),
        (None, "a4", "a-before-b", None, 0),
        ("a5", None, "b-before-a", None, 0),
        (None, None, "same", None, 0),
    ],
    ids=["siblings", "same", "ancestor-first", "ancestor-second", "two-trees", "root-first", "root-second", "root-root"],
)
def test_relation_common_ancestor_and_shared_entries(tree, a, b, relation, ancestor, in_common) -> None:
    s, ids = tree
    diff = diff_branches(s, _name(ids, a), _name(ids, b))
    assert (diff.relation, diff.common_ancestor, diff.shared_entries) == (relation, _name(ids, ancestor), in_common)
    assert diff.relation in RELATIONS
    assert (diff.a, diff.b) == (_name(ids, a) or ROOT, _name(ids, b) or ROOT)


def test_each_side_counts_its_messages_tokens_and_files(tree) -> None:
    s, ids = tree
    diff = diff_branches(s, ids["a4"], ids["a5"])
    x, y = diff.side_a, diff.side_b
    assert diff.common_ancestor_type == "user"
    assert (x.entries, x.first_entry_id, x.last_entry_id, x.messages) == (4, ids["u3"], ids["a4"], 4)
    assert dict(x.by_kind) == {"user": 1, "assistant": 2, "toolResult": 1}
    assert (x.read_files, x.modified_files) == (("notes.md",), ("x.py",))
    assert (y.entries, y.first_entry_id, y.last_entry_id, y.messages) == (2, ids["u5"], ids["a5"], 2)
    assert dict(y.by_kind) == {"user": 1, "assistant": 1}
    assert (y.read_files, y.modified_files) == ((), ("y.py",))
    assert x.tokens > y.tokens > 0


def test_an_empty_side_has_no_first_or_last_entry(tree) -> None:
    s, ids = tree
    side = diff_branches(s, ids["u2"], ids["a4"]).side_a
    assert (side.entries, side.first_entry_id, side.last_entry_id, side.messages, side.tokens) == (0, None, None, 0, 0)
    assert dict(side.by_kind) == {} and side.read_files == side.modified_files == ()


def test_to_json_is_what_session_diff_prints(tree) -> None:
    s, ids = tree
    data = diff_branches(s, ids["a4"], None).to_json()
    assert list(data) == ["a", "b", "relation", "commonAncestor", "commonAncestorType", "sharedEntries", "sides"]
    assert (data["b"], data["relation"], data["commonAncestor"], data["commonAncestorType"]) == (ROOT, "b-before-a", None, None)
    assert list(data["sides"]["a"]) == ["entries", "firstEntryId", "lastEntryId", "messages", "byKind", "tokens",
                                        "readFiles", "modifiedFiles"]
    assert data["sides"]["a"]["modifiedFiles"] == ["x.py"] and data["sides"]["b"]["entries"] == 0
    assert orjson.loads(orjson.dumps(data)) == data


def test_an_unknown_entry_is_an_error(tree) -> None:
    s, ids = tree
    with pytest.raises(EntryNotFoundError, match="nope"):
        diff_branches(s, ids["a4"], "nope")


def test_the_api_is_exported() -> None:
    for name in ("diff_branches", "BranchDiff", "BranchSide"):
        assert name in pi_compact.__all__
    assert pi_compact.BranchDiff is BranchDiff


@st.composite
def random_tree(draw) -> tuple[Session, list[str]]:
    """A session whose every entry hangs under a random earlier one (or starts a new tree)."""
    s = Session.in_memory("/p")
    ids: list[str] = []
    for n in range(draw(st.integers(1, 25))):
        parent = draw(st.sampled_from([None, *ids])) if ids else None
        message = user(f"u{n}") if n % 2 == 0 else assistant(f"a{n}")
        ids += grow(s, parent, message)
    return s, ids


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_shared_part_and_each_side_make_up_the_path_to_each_end(data) -> None:
    s, ids = data.draw(random_tree())
    a, b = data.draw(st.sampled_from([None, *ids])), data.draw(st.sampled_from([None, *ids]))
    diff, swapped = diff_branches(s, a, b), diff_branches(s, b, a)
    for end, side in ((a, diff.side_a), (b, diff.side_b)):
        path = s.ancestor_ids(end) if end is not None else []
        assert diff.shared_entries + side.entries == len(path)
        assert side.last_entry_id == (end if side.entries else None)
    assert (swapped.side_a, swapped.side_b, swapped.common_ancestor) == (diff.side_b, diff.side_a, diff.common_ancestor)
    assert swapped.relation == {"a-before-b": "b-before-a", "b-before-a": "a-before-b"}.get(diff.relation, diff.relation)
