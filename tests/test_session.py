"""The Session API: opening, appending, the tree, labels and names, forks and pi's directory layout.

Where pi 0.73.1 has a known bug (pi-behaviour.md §9) the test name says that we do better.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
from pathlib import Path

import orjson
import pytest

import pi_compact.session as session_module
from pi_compact import (
    ROOT,
    AmbiguousEntryError,
    EntryNotFoundError,
    NotASessionError,
    Session,
    SessionFileError,
    UsageError,
    find_most_recent,
    list_sessions,
)
from pi_compact.store.jsonl import dumps_line
from sessions_fixtures import PI_DIR

PI_FIXTURES = PI_DIR
HEADER = {"type": "session", "version": 3, "id": "sess-1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}
USER = {"role": "user", "content": "hello", "timestamp": 1}


def msg(entry_id: str, parent: str | None, text: str = "x", ts: str = "2025-01-01T00:00:01.000Z", role: str = "user") -> dict:
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": ts,
        "message": {"role": role, "content": text, "timestamp": 1},
    }


def label(entry_id: str, parent: str | None, target: str, text: str | None, ts: str = "2025-01-01T00:00:05.000Z") -> dict:
    entry = {"type": "label", "id": entry_id, "parentId": parent, "timestamp": ts, "targetId": target}
    if text is not None:
        entry["label"] = text
    return entry


def write(path: Path, *entries: dict, header: dict = HEADER) -> Path:
    path.write_bytes(b"".join(dumps_line(e) for e in (header, *entries)))
    return path


def put(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def ids(entries) -> list[str]:
    return [e["id"] for e in entries]


@pytest.fixture
def sequential_ids(monkeypatch):
    """Entry ids 00000001, 00000002, ...: the lowest not taken, so two sessions that miss each other collide."""

    def lowest_free(taken) -> str:
        n = 1
        while f"{n:08x}" in taken:
            n += 1
        return f"{n:08x}"

    monkeypatch.setattr(session_module, "new_entry_id", lowest_free)


@pytest.fixture
def fails_instead_of_hanging():
    """pi loops forever on parent cycles; a regression here must fail the test, not hang the suite."""

    def timeout(signum, frame):
        raise TimeoutError("a walk did not terminate")

    previous = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def tree_file(tmp_path) -> Path:
    """root r ── a ── b (leaf of one branch), r ── c (the last line: the leaf on open); a labelled."""
    return write(
        tmp_path / "tree.jsonl",
        msg("rrrrrrrr", None, "root"),
        msg("aaaaaaaa", "rrrrrrrr", "a"),
        msg("bbbbbbbb", "aaaaaaaa", "b"),
        label("11111111", "bbbbbbbb", "aaaaaaaa", "checkpoint"),
        msg("cccccccc", "rrrrrrrr", "c", role="assistant"),
    )


# -- opening -------------------------------------------------------------------------------------------------


def test_missing_file_is_a_session_file_error(tmp_path):
    with pytest.raises(SessionFileError) as raised:
        Session.open(tmp_path / "nope.jsonl")
    assert not isinstance(raised.value, NotASessionError)
    assert not (tmp_path / "nope.jsonl").exists()


def test_a_directory_is_a_session_file_error(tmp_path):
    with pytest.raises(SessionFileError):
        Session.open(tmp_path)


@pytest.mark.parametrize(
    "content",
    [b"", b"\n\n", b"garbage\n", dumps_line(msg("aaaaaaaa", None)), b"null\n" + dumps_line(HEADER)],
    ids=["empty", "blank", "garbage", "entry-first", "null-first"],
)
def test_a_file_without_a_header_is_refused_and_left_untouched_where_pi_wipes_it(tmp_path, content):
    """pi truncates such a file to a fresh header (its bug #6); we refuse it and change nothing."""
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    before = fingerprint(path)
    with pytest.raises(NotASessionError):
        Session.open(path)
    assert fingerprint(path) == before


def test_the_leaf_on_open_is_the_last_line(tree_file):
    with Session.open(tree_file) as session:
        assert session.leaf_id == "cccccccc"
        assert ids(session.branch()) == ["rrrrrrrr", "cccccccc"]


def test_a_file_with_a_null_line_opens_where_pi_crashes(tmp_path):
    """pi's loader throws on a ``null`` line (its bug #2)."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(dumps_line(HEADER) + dumps_line(msg("aaaaaaaa", None)) + b"null\n" + dumps_line(msg("bbbbbbbb", "aaaaaaaa")))
    with Session.open(path) as session:
        assert ids(session.entries()) == ["aaaaaaaa", "bbbbbbbb"]
        assert [p.kind for p in session.problems] == ["not_object"]
        assert len(session.build_context().messages) == 2


def test_a_repeated_header_line_is_not_an_entry(tmp_path):
    """pi's duplicate-header bug (§9.1) writes the header again mid-file; pi's index skips it, so do we."""
    path = write(tmp_path / "s.jsonl", msg("aaaaaaaa", None), HEADER, msg("aaaaaaaa", None, "again"))
    with Session.open(path) as session:
        assert ids(session.entries()) == ["aaaaaaaa", "aaaaaaaa"]
        assert session.leaf_id == "aaaaaaaa" and [n.id for n in session.tree()] == ["aaaaaaaa"]


@pytest.mark.parametrize(
    "make",
    [
        lambda d: write(d / "v3.jsonl", msg("aaaaaaaa", None), label("11111111", "aaaaaaaa", "aaaaaaaa", "x"), {"type": "session_info", "id": "22222222", "parentId": "11111111", "timestamp": "t", "name": "n"}),
        lambda d: write(d / "cycle.jsonl", msg("aaaaaaaa", "bbbbbbbb"), msg("bbbbbbbb", "aaaaaaaa"), msg("ssssssss", "ssssssss")),
        lambda d: put(d / "torn.jsonl", dumps_line(HEADER) + dumps_line(msg("aaaaaaaa", None)) + b'{"type":"mess'),
        lambda d: put(d / "nonl.jsonl", dumps_line(HEADER).rstrip(b"\n")),
        lambda d: put(d / "v1.jsonl", (PI_FIXTURES / "before-compaction.v1.jsonl").read_bytes()),
    ],
    ids=["v3", "cycles", "torn-tail", "header-without-newline", "v1"],
)
def test_reading_never_modifies_a_file(tmp_path, make, fails_instead_of_hanging):
    path = Path(make(tmp_path))
    before = fingerprint(path)
    with Session.open(path) as session:
        session.entries(), session.tree(), session.build_context(), session.branch(), session.children(None)
        session.name, session.labels, session.problems
        for entry_id in ids(session.entries()):
            session.build_context(entry_id), session.branch(entry_id)
    list_sessions(tmp_path), find_most_recent(tmp_path)
    assert fingerprint(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_opening_pis_own_v1_fixtures_in_place_changes_nothing():
    for path in sorted(PI_FIXTURES.glob("*.jsonl")):
        before = fingerprint(path)
        with Session.open(path) as session:
            assert session.version == 1 and session.build_context().messages
        assert fingerprint(path) == before


# -- migration -----------------------------------------------------------------------------------------------


def test_a_v1_file_is_migrated_in_memory_and_written_atomically_on_the_first_append(tmp_path):
    path = tmp_path / "old.jsonl"
    shutil.copy(PI_FIXTURES / "before-compaction.v1.jsonl", path)
    original = path.read_bytes()
    with Session.open(path) as session:
        assert session.version == 1
        before_ids, before_context = ids(session.entries()), session.build_context()
        assert path.read_bytes() == original
        made = session.append_message(USER)
        assert ids(session.entries()) == [*before_ids, made["id"]]
    assert (tmp_path / "old.jsonl.v1.bak").read_bytes() == original
    lines = [orjson.loads(raw) for raw in path.read_bytes().splitlines()]
    assert lines[0]["version"] == 3 and lines[0]["id"] == "ffae836b-9420-4060-ac13-7745215f90ff"
    assert ids(lines[1:]) == [*before_ids, made["id"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.jsonl", "old.jsonl.v1.bak"]
    with Session.open(path) as reopened:
        assert reopened.version == 3 and reopened.problems == []
        assert reopened.build_context().messages == [*before_context.messages, USER]


def test_the_migrated_file_keeps_every_line_pi_wrote_and_only_adds_the_new_keys(tmp_path):
    path = put(tmp_path / "old.jsonl", (PI_FIXTURES / "large-session.v1.jsonl").read_bytes())
    old_lines = path.read_bytes().splitlines()
    with Session.open(path) as session:
        session.append_custom("probe")
    new_lines = path.read_bytes().splitlines()
    assert len(new_lines) == len(old_lines) + 1
    assert new_lines[0] == old_lines[0][:-1] + b',"version":3}'
    parent = b"null"
    for old, new in zip(old_lines[1:], new_lines[1:]):
        entry_id = orjson.loads(new)["id"].encode()
        assert new == old[:-1] + b',"id":"' + entry_id + b'","parentId":' + parent + b"}"
        parent = b'"' + entry_id + b'"'


def test_a_v2_file_is_migrated_with_a_v2_backup(tmp_path):
    header = {**HEADER, "version": 2}
    hook = {**msg("aaaaaaaa", None), "message": {"role": "hookMessage", "customType": "x", "content": "c", "display": True, "timestamp": 1}}
    path = write(tmp_path / "old.jsonl", hook, header=header)
    original = path.read_bytes()
    with Session.open(path) as session:
        assert session.entry("aaaaaaaa")["message"]["role"] == "custom"
        session.append_message(USER)
    assert (tmp_path / "old.jsonl.v2.bak").read_bytes() == original
    assert b'"role":"custom"' in path.read_bytes() and b"hookMessage" not in path.read_bytes()


# -- two writers ---------------------------------------------------------------------------------------------


def test_two_sessions_appending_alternately_to_one_file(tmp_path, sequential_ids):
    path = tmp_path / "s.jsonl"
    with Session.create_at(path, "/p") as first:
        root = first.append_message(USER)
        with Session.open(path) as second:
            made = []
            for n in range(4):
                made.append(first.append_message({**USER, "content": f"first {n}"}))
                made.append(second.append_message({**USER, "content": f"second {n}"}))
            assert second.get(made[-2]["id"]) is not None  # the second caught up before each append
            assert first.get(made[-3]["id"]) is not None
    assert len({e["id"] for e in made}) == len(made)
    with Session.open(path) as reopened:
        assert reopened.problems == []
        assert ids(reopened.entries()) == [root["id"], *ids(made)]
        assert [reopened.entry(e["id"])["parentId"] for e in made[2:]] == ids(made[:-2])


# -- labels --------------------------------------------------------------------------------------------------


def test_labels_set_clear_and_last_wins(tmp_path):
    with Session.create_at(tmp_path / "s.jsonl", "/p") as session:
        target = session.append_message(USER)["id"]
        made = session.append_label(target, "one")
        assert session.label(target) == "one" and session.leaf_id == made["id"] and made["parentId"] == target
        session.append_label(target, "two")
        assert session.labels == {target: "two"}
        cleared = session.append_label(target, None)
        assert "label" not in cleared and session.label(target) is None
        session.append_label(target, "three")
        session.append_label(target, "")
        assert session.labels == {}
        session.append_label(target, "kept")
    with Session.open(tmp_path / "s.jsonl") as reopened:
        assert reopened.labels == {target: "kept"}


def test_labelling_an_unknown_entry_raises_and_writes_nothing(tmp_path):
    with Session.create_at(tmp_path / "s.jsonl", "/p") as session:
        session.append_message(USER)
        before = (tmp_path / "s.jsonl").read_bytes()
        with pytest.raises(EntryNotFoundError, match="Entry nope not found"):
            session.append_label("nope", "x")
    assert (tmp_path / "s.jsonl").read_bytes() == before


def test_labels_are_global_and_shown_on_tree_nodes(tree_file):
    with Session.open(tree_file) as session:
        assert session.leaf_id == "cccccccc"  # on the other branch than the label entry
        assert session.labels == {"aaaaaaaa": "checkpoint"}
        node_a = session.tree()[0].children[0]
        assert (node_a.id, node_a.label, node_a.label_timestamp) == ("aaaaaaaa", "checkpoint", "2025-01-01T00:00:05.000Z")


def test_a_label_of_an_empty_object_is_set_as_in_javascript(tmp_path):
    path = write(tmp_path / "s.jsonl", msg("aaaaaaaa", None), {**label("11111111", "aaaaaaaa", "aaaaaaaa", None), "label": {}})
    with Session.open(path) as session:
        assert session.labels == {"aaaaaaaa": {}}


# -- session name --------------------------------------------------------------------------------------------


def test_the_latest_session_info_names_the_session_on_any_branch(tmp_path):
    with Session.create_at(tmp_path / "s.jsonl", "/p") as session:
        root = session.append_message(USER)["id"]
        assert session.name is None
        stored = session.append_session_info("  first name \n")
        assert stored["name"] == "first name" and session.name == "first name"
        session.move_leaf(root)
        session.append_session_info("second")
        session.move_leaf(stored["id"])
        assert session.name == "second"
        session.append_session_info("   ")
        assert session.name is None
        session.append_session_info("final")
    with Session.open(tmp_path / "s.jsonl") as reopened:
        assert reopened.name == "final"


# -- the tree ------------------------------------------------------------------------------------------------


def test_children_are_in_file_order_not_timestamp_order(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        msg("rrrrrrrr", None),
        msg("late0000", "rrrrrrrr", ts="2025-01-01T00:00:09.000Z"),
        msg("early000", "rrrrrrrr", ts="2025-01-01T00:00:02.000Z"),
    )
    with Session.open(path) as session:
        assert ids(session.children("rrrrrrrr")) == ["late0000", "early000"]
        assert ids(session.children(None)) == ["rrrrrrrr"]
        assert [n.id for n in session.tree()[0].children] == ["early000", "late0000"]


def test_tree_roots_are_null_self_and_dangling_parents_in_file_order(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        msg("selfself", "selfself"),
        msg("rrrrrrrr", None),
        msg("orphan00", "gone0000"),
        msg("kid00002", "rrrrrrrr", ts="2025-01-01T00:00:03.000Z"),
        msg("kid00001", "rrrrrrrr", ts="2025-01-01T00:00:02.000Z"),
        msg("kid00003", "rrrrrrrr", ts="2025-01-01T00:00:02.000Z"),
    )
    with Session.open(path) as session:
        roots = session.tree()
        assert [n.id for n in roots] == ["selfself", "rrrrrrrr", "orphan00"]
        assert [n.id for n in roots[1].children] == ["kid00001", "kid00003", "kid00002"]  # equal times keep file order
        assert ids(session.branch("orphan00")) == ["orphan00"]
        assert session.build_context("orphan00").messages == [msg("orphan00", "gone0000")["message"]]


def test_parent_cycles_never_hang_and_are_reported_where_pi_loops_forever(tmp_path, fails_instead_of_hanging):
    """pi's getBranch and buildSessionContext loop forever on a cycle (its bug #10)."""
    path = write(
        tmp_path / "s.jsonl",
        msg("rrrrrrrr", None),
        msg("aaaaaaaa", "bbbbbbbb"),
        msg("bbbbbbbb", "aaaaaaaa"),
        msg("dddddddd", "aaaaaaaa"),
        msg("ssssssss", "ssssssss"),
    )
    with Session.open(path) as session:
        assert ids(session.branch("dddddddd")) == ["bbbbbbbb", "aaaaaaaa", "dddddddd"]
        assert ids(session.branch("ssssssss")) == ["ssssssss"]
        assert len(session.build_context("dddddddd").messages) == 3
        assert len(session.build_context().messages) == 1  # the leaf is the self-parent
        for _ in range(2):
            roots = session.tree()
        assert [n.id for n in roots] == ["rrrrrrrr", "ssssssss", "aaaaaaaa"]
        cycles = [p for p in session.problems if p.kind == "cycle"]
        assert cycles and len(cycles) == len(set(cycles))
        session.move_leaf("dddddddd")
        assert session.append_message(USER)["parentId"] == "dddddddd"


def test_duplicate_ids_later_entry_wins_and_is_reported(tmp_path):
    path = write(tmp_path / "s.jsonl", msg("aaaaaaaa", None, "first"), msg("bbbbbbbb", "aaaaaaaa"), msg("aaaaaaaa", None, "second"))
    with Session.open(path) as session:
        assert session.entry("aaaaaaaa")["message"]["content"] == "second"
        assert [(p.kind, p.line, p.entry_id) for p in session.problems] == [("duplicate_id", 4, "aaaaaaaa")]
        assert [m["content"] for m in session.build_context("bbbbbbbb").messages] == ["second", "x"]
        assert [n.entry["message"]["content"] for n in session.tree()] == ["second"]


def test_moving_the_leaf(tree_file):
    with Session.open(tree_file) as session:
        session.move_leaf("bbbbbbbb")
        assert session.append_message(USER)["parentId"] == "bbbbbbbb"
        with pytest.raises(EntryNotFoundError):
            session.move_leaf("nope")
        session.move_leaf(None)
        assert session.build_context().messages == []
        assert session.append_message(USER)["parentId"] is None


def test_a_branch_summary_at_the_root_starts_a_new_root(tree_file):
    with Session.open(tree_file) as session:
        made = session.append_branch_summary(None, "left that")
        assert (made["parentId"], made["fromId"], session.leaf_id) == (None, ROOT, made["id"])
        attached = session.append_branch_summary("aaaaaaaa", "again", {"files": []}, False)
        assert list(attached) == ["type", "id", "parentId", "timestamp", "fromId", "summary", "details", "fromHook"]
        assert attached["fromId"] == attached["parentId"] == "aaaaaaaa"


@pytest.mark.parametrize("key", ["type", "id", "parentId", "timestamp"])
def test_the_session_owns_the_base_keys(tmp_path, key):
    with Session.in_memory("/p") as session:
        with pytest.raises(UsageError):
            session.append("message", {key: "x", "message": USER})
        with pytest.raises(UsageError):
            session.append("custom", {key: "x", "customType": "c"})
        assert len(session) == 0


# -- resolve -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("aaaaaaaa", "aaaaaaaa"),
        ("bbb", "bbbbbbbb"),
        ("checkpoint", "aaaaaaaa"),
        (ROOT, None),
        ("r", "rrrrrrrr"),
    ],
    ids=["exact-id", "unique-prefix", "label", "root", "one-letter-prefix"],
)
def test_resolve(tree_file, ref, expected):
    with Session.open(tree_file) as session:
        assert session.resolve(ref) == expected


@pytest.mark.parametrize(
    ("extra", "ref", "error"),
    [
        ((msg("aaaabbbb", "rrrrrrrr"),), "aaaa", AmbiguousEntryError),
        ((label("22222222", "cccccccc", "bbbbbbbb", "checkpoint"),), "checkpoint", AmbiguousEntryError),
        ((), "zzz", EntryNotFoundError),
        ((), "", EntryNotFoundError),
        ((label("22222222", "cccccccc", "aaaaaaaa", "ccc"),), "ccc", AmbiguousEntryError),
        ((label("22222222", "cccccccc", "aaaaaaaa", "bbbbbbbb"),), "bbbbbbbb", AmbiguousEntryError),
        ((msg(ROOT, "cccccccc"),), ROOT, AmbiguousEntryError),
        ((msg("abcd0001", "cccccccc"), msg("abcd0002", "abcd0001"), label("22222222", "abcd0002", "cccccccc", "abcd")),
         "abcd", AmbiguousEntryError),
    ],
    ids=["ambiguous-prefix", "ambiguous-label", "unknown", "empty", "label-shadows-a-unique-prefix",
         "label-shadows-an-id", "an-entry-named-root-shadows-the-keyword", "label-and-an-ambiguous-prefix"],
)
def test_resolve_refuses(tree_file, extra, ref, error):
    with open(tree_file, "ab") as handle:
        handle.write(b"".join(dumps_line(e) for e in extra))
    with Session.open(tree_file) as session:
        with pytest.raises(error):
            session.resolve(ref)


@pytest.mark.parametrize(
    ("extra", "ref", "expected"),
    [
        ((label("22222222", "cccccccc", "aaaaaaaa", "aaa"),), "aaa", "aaaaaaaa"),
        ((label("22222222", "cccccccc", "aaaaaaaa", "aaaaaaaa"),), "aaaaaaaa", "aaaaaaaa"),
        ((msg("bbbb", "cccccccc"),), "bbbb", "bbbb"),
    ],
    ids=["label-on-the-entry-it-prefixes", "label-equal-to-its-own-id", "an-exact-id-is-not-a-prefix"],
)
def test_resolve_when_every_reading_names_the_same_entry(tree_file, extra, ref, expected):
    with open(tree_file, "ab") as handle:
        handle.write(b"".join(dumps_line(e) for e in extra))
    with Session.open(tree_file) as session:
        assert session.resolve(ref) == expected


# -- fork ----------------------------------------------------------------------------------------------------


def test_fork_copies_the_path_and_the_labels_on_it(tmp_path):
    path = write(
        tmp_path / "s.jsonl",
        msg("rrrrrrrr", None),
        msg("aaaaaaaa", "rrrrrrrr"),
        label("11111111", "aaaaaaaa", "rrrrrrrr", "start", ts="2025-01-02T00:00:00.000Z"),
        msg("bbbbbbbb", "11111111"),
        msg("offpath0", "rrrrrrrr"),
        label("22222222", "offpath0", "offpath0", "elsewhere"),
        label("33333333", "22222222", "bbbbbbbb", "tip", ts="2025-01-03T00:00:00.000Z"),
    )
    original = path.read_bytes()
    with Session.open(path) as source, source.fork("bbbbbbbb") as forked:
        assert forked.path.parent == tmp_path and forked.path != path
        assert forked.header["parentSession"] == str(path)
        assert forked.header["version"] == 3 and forked.header["cwd"] == "/p"
        entries = forked.entries()
        assert entries[:3] == [source.entry(i) for i in ("rrrrrrrr", "aaaaaaaa", "bbbbbbbb")]
        labels = entries[3:]
        assert [(e["type"], e["targetId"], e["label"], e["timestamp"]) for e in labels] == [
            ("label", "rrrrrrrr", "start", "2025-01-02T00:00:00.000Z"),
            ("label", "bbbbbbbb", "tip", "2025-01-03T00:00:00.000Z"),
        ]
        assert [e["parentId"] for e in labels] == ["bbbbbbbb", labels[0]["id"]]
        assert forked.labels == {"rrrrrrrr": "start", "bbbbbbbb": "tip"}
        assert forked.leaf_id == labels[-1]["id"]
        fork_path = forked.path
    assert path.read_bytes() == original
    with Session.open(fork_path) as reopened:
        assert reopened.entries() == entries and reopened.problems == []


def test_fork_to_an_explicit_path_and_in_memory(tmp_path, tree_file):
    with Session.open(tree_file) as source:
        with source.fork("cccccccc", tmp_path / "out.jsonl") as forked:
            assert forked.path == tmp_path / "out.jsonl" and ids(forked.entries()) == ["rrrrrrrr", "cccccccc"]
        with pytest.raises(UsageError):
            source.fork("cccccccc", tmp_path / "out.jsonl")
        with pytest.raises(EntryNotFoundError):
            source.fork("nope")
    with Session.in_memory("/p") as memory:
        first = memory.append_message(USER)["id"]
        memory.append_label(first, "l")
        with memory.fork(first) as forked:
            assert forked.path is None and "parentSession" not in forked.header
            assert forked.labels == {first: "l"}


def test_a_v1_source_forks_with_migrated_ids_where_pi_copies_it_raw(tmp_path):
    """pi's forkFrom copies v1/v2 entries unmigrated under a v3 header (its bug #5): no ids, no tree."""
    source_path = tmp_path / "old.jsonl"
    shutil.copy(PI_FIXTURES / "large-session.v1.jsonl", source_path)
    original = source_path.read_bytes()
    with Session.open(source_path) as source:
        leaf = source.leaf_id
        expected = source.branch(leaf)
        with source.fork(leaf) as forked:
            fork_path = forked.path
    assert source_path.read_bytes() == original
    with Session.open(fork_path) as reopened:
        assert reopened.version == 3 and reopened.problems == []
        assert reopened.entries() == expected
        assert all(len(e["id"]) == 8 for e in reopened.entries())


# -- creating, pi's layout -----------------------------------------------------------------------------------


def test_create_uses_pis_layout_under_the_agent_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    with Session.create("/home/u/my.proj") as session:
        header = session.header
        name = header["timestamp"].replace(":", "-").replace(".", "-") + "_" + header["id"] + ".jsonl"
        assert session.path == tmp_path / "agent" / "sessions" / "--home-u-my.proj--" / name
        assert list(header) == ["type", "version", "id", "timestamp", "cwd"] and header["cwd"] == "/home/u/my.proj"
        assert not session.path.exists()
        session.append_message(USER)
        assert session.path.read_bytes().startswith(dumps_line(header))


@pytest.mark.parametrize(
    ("cwd", "folder"),
    [("/Users/a/proj", "--Users-a-proj--"), ("C:\\Users\\a", "--C--Users-a--"), ("//srv/x", "---srv-x--"), ("rel/dir", "--rel-dir--")],
    ids=["posix", "windows", "double-slash", "relative"],
)
def test_project_folder_names(tmp_path, monkeypatch, cwd, folder):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    with Session.create(cwd) as session:
        assert session.path.parent == tmp_path / "sessions" / folder


def test_agent_dir_defaults_to_home_and_expands_tilde(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    monkeypatch.delenv("PI_CODING_AGENT_DIR", raising=False)
    with Session.create("/p") as session:
        assert session.path.parent == tmp_path / ".pi" / "agent" / "sessions" / "--p--"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", "~/elsewhere")
    with Session.create("/p") as session:
        assert session.path.parent == tmp_path / "elsewhere" / "sessions" / "--p--"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("~", "HOME"), ("~/x", "HOME/x"), ("~bob/x", "~bob/x"), ("a~/x", "a~/x")],
    ids=["tilde", "tilde-slash", "tilde-user-kept", "inner-tilde"],
)
def test_tilde_expands_only_as_pi_does(tmp_path, monkeypatch, value, expected):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PI_CODING_AGENT_SESSION_DIR", value)
    with Session.create("/p") as session:
        assert session.path.parent == Path(os.path.abspath(expected.replace("HOME", str(tmp_path))))


def test_the_session_dir_override_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PI_CODING_AGENT_SESSION_DIR", str(tmp_path / "flat"))
    with Session.create("/p") as session:
        assert session.path.parent == tmp_path / "flat"
    with Session.create("/p", session_dir=tmp_path / "explicit") as session:
        assert session.path.parent == tmp_path / "explicit"


def test_create_at_refuses_an_existing_file(tmp_path):
    write(tmp_path / "s.jsonl")
    with pytest.raises(UsageError):
        Session.create_at(tmp_path / "s.jsonl")


def test_an_in_memory_session_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with Session.in_memory("/p") as session:
        session.append_message(USER)
        assert session.path is None and len(session) == 1
    assert list(tmp_path.iterdir()) == []


# -- continue_recent -----------------------------------------------------------------------------------------


def test_continue_recent_opens_the_newest_valid_session(tmp_path):
    older = write(tmp_path / "older.jsonl", msg("aaaaaaaa", None))
    newer = write(tmp_path / "newer.jsonl", header={**HEADER, "id": "sess-2", "parentSession": "/x" * 400})
    (tmp_path / "newest.jsonl").write_bytes(b"not a session\n")
    for n, path in enumerate([older, newer, tmp_path / "newest.jsonl"]):
        os.utime(path, (1_700_000_000 + n, 1_700_000_000 + n))
    with Session.continue_recent("/p", session_dir=tmp_path) as session:
        assert session.path == newer  # a header longer than 512 bytes, which pi's --continue misses (bug #7)
        assert session.id == "sess-2"


def test_continue_recent_without_sessions_starts_a_new_one(tmp_path):
    with Session.continue_recent("/p", session_dir=tmp_path / "none") as session:
        assert session.path.parent == tmp_path / "none" and len(session) == 0
        assert not session.path.exists()
