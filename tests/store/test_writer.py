"""Appending to a session file: one line at a time, earlier bytes never touched, torn tails repaired.

The low-level :class:`FileWriter` (permissions, the lock, the atomic replace) is tested directly; what a
line looks like on disk is tested through :class:`Session`, which decides where each line goes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.errors import ConcurrentModificationError, LockTimeoutError
from pi_compact.store import writer as writer_module
from pi_compact.store.jsonl import dumps_line
from pi_compact.store.writer import FileWriter, ensure_private_dir

HEADER = {"type": "session", "version": 3, "id": "sess-1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}
ENTRY = {
    "type": "message",
    "id": "aaaaaaaa",
    "parentId": None,
    "timestamp": "2025-01-01T00:00:01.000Z",
    "message": {"role": "user", "content": "hi", "timestamp": 1735689601000},
}
USER = {"role": "user", "content": "next", "timestamp": 1}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_writer(tmp_path):
    """FileWriters that are closed after the test."""
    made: list[FileWriter] = []

    def make(path: Path | None = None, **options) -> FileWriter:
        made.append(FileWriter(path or tmp_path / "s.jsonl", **options))
        return made[-1]

    yield make
    for item in made:
        item.close()


def append_one(path: Path, **options) -> bytes:
    """Open ``path``, append a user message, close; return the file's bytes afterwards."""
    with Session.open(path, **options) as session:
        session.append_message(USER)
    return path.read_bytes()


# -- FileWriter ----------------------------------------------------------------------------------------------


def test_missing_directories_are_created_owner_only_and_existing_ones_left_alone(tmp_path):
    existing = tmp_path / "existing"
    existing.mkdir(mode=0o755)
    os.chmod(existing, 0o755)
    ensure_private_dir(existing / "a" / "b" / "c")
    assert mode(existing) == 0o755
    assert [mode(existing / p) for p in ("a", "a/b", "a/b/c")] == [0o700, 0o700, 0o700]
    ensure_private_dir(existing / "a")  # already there: nothing happens


def test_the_file_is_created_owner_only(open_writer, tmp_path):
    target = tmp_path / "new" / "s.jsonl"
    writer = open_writer(target)
    with writer.locked() as size:
        assert size == 0
        writer.write(b"x\n")
    assert mode(target) == 0o600 and mode(target.parent) == 0o700


def test_locked_yields_the_current_size(open_writer, tmp_path):
    target = tmp_path / "s.jsonl"
    target.write_bytes(b"12345\n")
    with open_writer(target).locked() as size:
        assert size == 6


def test_the_lock_excludes_another_writer(open_writer, tmp_path):
    first, second = open_writer(), open_writer(lock_timeout=0.05)
    with first.locked():
        with pytest.raises(LockTimeoutError):
            with second.locked():
                pass
    with second.locked():  # free again
        pass


def test_a_file_replaced_under_the_writer_is_detected(open_writer, tmp_path):
    target = tmp_path / "s.jsonl"
    writer = open_writer(target)
    with writer.locked():
        writer.write(b"x\n")
    (tmp_path / "other").write_bytes(b"y\n")
    os.replace(tmp_path / "other", target)
    with pytest.raises(ConcurrentModificationError):
        with writer.locked():
            pass


def test_a_file_removed_under_the_writer_is_detected(open_writer, tmp_path):
    target = tmp_path / "s.jsonl"
    writer = open_writer(target)
    with writer.locked():
        writer.write(b"x\n")
    target.unlink()
    with pytest.raises(ConcurrentModificationError):
        with writer.locked():
            pass


def test_replace_contents_is_atomic_and_keeps_every_backup(open_writer, tmp_path):
    target = tmp_path / "s.jsonl"
    target.write_bytes(b"old\n")
    (tmp_path / "s.jsonl.v1.bak").write_bytes(b"an older backup\n")
    writer = open_writer(target)
    with writer.locked():
        backup = writer.replace_contents(b"new\n", ".v1.bak")
        writer.reopen()
    assert target.read_bytes() == b"new\n" and mode(target) == 0o600
    assert backup == tmp_path / "s.jsonl.v1.bak.1" and backup.read_bytes() == b"old\n"
    assert (tmp_path / "s.jsonl.v1.bak").read_bytes() == b"an older backup\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl", "s.jsonl.v1.bak", "s.jsonl.v1.bak.1"]
    with writer.locked() as size:  # the writer now works on the new file
        assert size == 4


def test_a_failed_replace_leaves_the_original_and_no_temporary_file(open_writer, tmp_path, monkeypatch):
    target = tmp_path / "s.jsonl"
    target.write_bytes(b"old\n")

    def crash(*args):
        raise OSError("disk gone")

    monkeypatch.setattr(writer_module.os, "replace", crash)
    writer = open_writer(target)
    with pytest.raises(OSError, match="disk gone"):
        with writer.locked():
            writer.replace_contents(b"new\n", ".v1.bak")
    assert target.read_bytes() == b"old\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(("durable", "syncs"), [(True, 2), (False, 0)], ids=["durable", "bulk"])
def test_each_write_is_fsynced_unless_durable_is_off(open_writer, tmp_path, monkeypatch, durable, syncs):
    (tmp_path / "s.jsonl").write_bytes(b"")
    calls: list[int] = []
    monkeypatch.setattr(writer_module.os, "fsync", lambda fd: calls.append(fd))
    writer = open_writer(durable=durable)
    for _ in range(2):
        with writer.locked():
            writer.write(b"x\n")
    assert len(calls) == syncs


def test_a_new_file_and_new_directories_are_synced_into_their_parents(open_writer, tmp_path, monkeypatch):
    synced: list[Path] = []
    monkeypatch.setattr(writer_module, "_fsync_dir", synced.append)
    writer = open_writer(tmp_path / "a" / "b" / "s.jsonl")
    for _ in range(2):
        with writer.locked():
            writer.write(b"x\n")
    assert sorted(synced) == [tmp_path, tmp_path / "a", tmp_path / "a" / "b"]


# -- where Session puts each line ----------------------------------------------------------------------------


def test_the_file_is_created_with_its_header_on_the_first_append(tmp_path):
    target = tmp_path / "sessions" / "project" / "s.jsonl"
    with Session.create_at(target, "/p") as session:
        assert not target.exists() and not target.parent.exists()
        first = session.append_message(USER)
        assert target.read_bytes() == dumps_line(session.header) + dumps_line(first)
    assert mode(target) == 0o600
    assert mode(target.parent) == 0o700 and mode(target.parent.parent) == 0o700


def test_every_append_adds_exactly_one_line_and_never_changes_earlier_bytes(tmp_path):
    target = tmp_path / "s.jsonl"
    with Session.create_at(target, "/p") as session:
        appends = [
            lambda: session.append_message(USER),
            lambda: session.append_model_change("anthropic", "claude"),
            lambda: session.append_thinking_level_change("high"),
            lambda: session.append_custom("ext", {"k": [1, 2.5, None]}),
            lambda: session.append_custom_message("ext", "shown", True, {"d": 1}),
            lambda: session.append_compaction("summary", session.leaf_id, 1234, {"readFiles": []}, False),
            lambda: session.append_label(session.leaf_id, "mark"),
            lambda: session.append_session_info("  name  "),
            lambda: session.append_branch_summary(None, "abandoned"),
            lambda: session.append("future_type", {"x": "é"}),
        ]
        before = b""
        for append in appends:
            made = append()
            after = target.read_bytes()
            assert after.startswith(before)
            new = after[len(before) :]
            if before:
                assert new == dumps_line(made)
            before = after
    assert len(target.read_bytes().splitlines()) == 1 + len(appends)


def test_a_torn_tail_is_cut_before_the_next_append(tmp_path):
    target = tmp_path / "s.jsonl"
    complete = dumps_line(HEADER) + dumps_line(ENTRY)
    target.write_bytes(complete + b'{"type":"message","id":"bbbbbbbb","parentId":"aaaa')
    with Session.open(target) as session:
        assert [p.kind for p in session.problems] == ["torn_tail"]
        made = session.append_message(USER)
    assert target.read_bytes() == complete + dumps_line(made)
    with Session.open(target) as session:
        assert session.problems == [] and len(session) == 2


@pytest.mark.parametrize(
    "content",
    [dumps_line(HEADER) + dumps_line(ENTRY).rstrip(b"\n"), dumps_line(HEADER).rstrip(b"\n"), dumps_line(HEADER) + b"  "],
    ids=["entry", "header-only", "blanks"],
)
def test_a_last_line_without_newline_gets_one_before_the_next_line(tmp_path, content):
    target = tmp_path / "s.jsonl"
    target.write_bytes(content)
    with Session.open(target) as session:
        made = session.append_message(USER)
    assert target.read_bytes() == content + b"\n" + dumps_line(made)
    with Session.open(target) as session:
        assert session.problems == [] and session.leaf_id == made["id"]


def test_a_torn_tail_left_by_another_process_after_we_opened_is_cut_too(tmp_path):
    target = tmp_path / "s.jsonl"
    complete = dumps_line(HEADER) + dumps_line(ENTRY)
    target.write_bytes(complete)
    with Session.open(target) as session:
        with open(target, "ab") as other:
            other.write(b'{"type":"message","id":"ccc')
        made = session.append_message(USER)
    assert target.read_bytes() == complete + dumps_line(made)


def test_appending_to_a_file_that_shrank_under_us_is_refused_and_changes_nothing(tmp_path):
    target = tmp_path / "s.jsonl"
    target.write_bytes(dumps_line(HEADER) + dumps_line(ENTRY))
    with Session.open(target) as session:
        target.write_bytes(dumps_line(HEADER))
        with pytest.raises(ConcurrentModificationError):
            session.append_message(USER)
    assert target.read_bytes() == dumps_line(HEADER)


def test_a_bulk_session_does_not_fsync(tmp_path, monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr(writer_module.os, "fsync", lambda fd: calls.append(fd))
    target = tmp_path / "s.jsonl"
    target.write_bytes(dumps_line(HEADER))
    append_one(target, durable=False)
    assert calls == []
    append_one(target)
    assert len(calls) == 1
