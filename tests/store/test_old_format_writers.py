"""v1 and v2 files with more than one writer, and the ids their entries get (issue 23, items 1 and 2).

A writer holding an unmigrated file used to write it whole from its memory at its first append, wiping what
another writer appended meanwhile; and every read gave v1 entries new random ids. Now the migration happens
under the lock from the file as it is then, and a v1 entry's id derives from its line.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_compact import ConcurrentModificationError, Session
from pi_compact.store.repair import repair
from sessions_fixtures import PI_DIR
from tests.conformance.pi_ref import pi_contexts
from tests.reliability.clirun import assert_clean_outcome, run_cli
from tests.reliability.test_old_format_writers import old_file


def contents(path: Path) -> list[str]:
    with Session.open(path) as session:
        assert session.problems == []
        return [e["message"]["content"] for e in session.entries() if e.get("type") == "message"]


def say(session: Session, text: str) -> dict:
    return session.append_message({"role": "user", "content": text, "timestamp": 1})


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("order", ["second-first", "first-second"])
def test_two_writers_opened_before_either_appends_keep_both_entries(tmp_path: Path, version: int, order: str) -> None:
    path = tmp_path / "old.jsonl"
    original = old_file(path, version, 3)
    first, second = Session.open(path), Session.open(path)
    writers = [second, first] if order == "second-first" else [first, second]
    for n, writer in enumerate(writers):
        say(writer, f"appended {n}")
    assert contents(path) == [*original, "appended 0", "appended 1"]
    # Both hang from the file's last original entry: two branches, neither lost.
    with Session.open(path) as reopened:
        leaf_of_original = reopened.entries()[len(original) - 1]["id"]
        assert len(reopened.children(leaf_of_original)) == 2


def test_each_writer_goes_on_appending_after_the_other_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    old_file(path, 1, 2)
    first, second = Session.open(path), Session.open(path)
    for n in range(3):
        say(first, f"first {n}")
        say(second, f"second {n}")
    assert sorted(contents(path)[2:]) == sorted([f"first {n}" for n in range(3)] + [f"second {n}" for n in range(3)])
    assert len(list(tmp_path.glob("old.jsonl.v1.bak*"))) == 1  # migrated once, by the first to append


def test_an_old_format_line_appended_meanwhile_is_migrated_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    old_file(path, 1, 2)
    session = Session.open(path)
    with open(path, "ab") as out:  # an old program appending a v1 line (no id) after we read the file
        out.write(b'{"type":"message","timestamp":"2025-03-01T10:00:02.000Z",'
                  b'"message":{"role":"user","content":"old writer","timestamp":2}}\n')
    say(session, "ours")
    assert contents(path) == ["original 0", "original 1", "old writer", "ours"]


def test_refresh_sees_what_another_writer_appended_to_an_unmigrated_file(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    old_file(path, 1, 2)
    reader, writer = Session.open(path), Session.open(path)
    added = say(writer, "from the other")
    assert [e["id"] for e in reader.refresh()] == [added["id"]]
    assert reader.entry(added["id"])["message"]["content"] == "from the other"


def test_a_file_migrated_meanwhile_with_other_ids_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    old_file(path, 1, 2)
    session = Session.open(path)
    lines = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    lines[0]["version"] = 3
    for n, line in enumerate(lines[1:]):  # as pi migrates: ids drawn at random
        line["id"], line["parentId"] = f"pi{n:06d}", (f"pi{n - 1:06d}" if n else None)
    migrated = b"".join(orjson.dumps(line) + b"\n" for line in lines)
    temp = tmp_path / "pi.tmp"
    temp.write_bytes(migrated)
    os.replace(temp, path)
    with pytest.raises(ConcurrentModificationError, match="migrated or rewritten by another program"):
        say(session, "lost?")
    assert path.read_bytes() == migrated


@pytest.mark.parametrize("version", [1, 2])
def test_migrated_ids_are_the_same_on_every_read_and_are_the_ids_written(tmp_path: Path, version: int) -> None:
    path = tmp_path / "old.jsonl"
    old_file(path, version, 4)
    reads = []
    for _ in range(3):
        with Session.open(path) as session:
            reads.append([e["id"] for e in session.entries()])
    assert reads[0] == reads[1] == reads[2]
    _, repaired = repair(path.read_bytes())  # doctor --repair migrates the same way
    assert [orjson.loads(line)["id"] for line in repaired.data.splitlines()[1:]] == reads[0]
    with Session.open(path) as session:
        say(session, "migrates the file")
    written = [orjson.loads(line)["id"] for line in path.read_bytes().splitlines()[1:-1]]
    assert written == reads[0]


def test_an_id_copied_from_a_read_only_command_works_in_the_next(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    old_file(path, 1, 3)
    tree = run_cli("session", "tree", "--json", str(path))
    assert_clean_outcome(tree, 0)
    second = orjson.loads(tree.stdout)
    entry_id = _ids_in(second)[1]
    context = run_cli("session", "context", "--json", "--leaf", entry_id, str(path))
    assert_clean_outcome(context, 0)
    assert [m["content"] for m in orjson.loads(context.stdout)["messages"]] == ["original 0", "original 1"]


def _ids_in(tree: object) -> list[str]:
    found: list[str] = []
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("id"), str) and "children" in item:
                found.append(item["id"])
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found


def test_naming_a_v1_file_from_the_command_line_survives_a_writer_that_held_it_open(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    old_file(path, 1, 2)
    with Session.open(path) as chat:  # a chat left open on the file
        named = run_cli("session", "name", str(path), "Kept")
        assert_clean_outcome(named, 0)
        say(chat, "a prompt")
    with Session.open(path) as reopened:
        assert reopened.name == "Kept"
        assert [e["message"]["content"] for e in reopened.entries() if e["type"] == "message"][-1] == "a prompt"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(version=st.sampled_from([1, 2]), original=st.integers(0, 3),
       turns=st.lists(st.tuples(st.integers(0, 2), st.booleans()), min_size=1, max_size=12))
def test_any_interleaving_of_writers_keeps_every_acknowledged_entry(tmp_path_factory, version, original, turns):
    """``(writer, open_first)``: writer n appends next, re-opening the file first when asked."""
    path = tmp_path_factory.mktemp("mix") / "old.jsonl"
    texts = old_file(path, version, original)
    writers = [Session.open(path) for _ in range(3)]
    acknowledged = []
    for step, (n, reopen) in enumerate(turns):
        if reopen:
            writers[n].close()
            writers[n] = Session.open(path)
        acknowledged.append(say(writers[n], f"step {step}")["message"]["content"])
    for writer in writers:
        writer.close()
    found = contents(path)
    assert found[: len(texts)] == texts
    assert sorted(found[len(texts):]) == sorted(acknowledged)


# -- doctor: an entry an older migration left only in a backup ----------------------------------------------

V1_HEADER = b'{"type":"session","id":"s","timestamp":"2025-03-01T10:00:00.000Z","cwd":"/p"}\n'
V3_HEADER = b'{"type":"session","id":"s","timestamp":"2025-03-01T10:00:00.000Z","cwd":"/p","version":3}\n'


def message_line(text: str, entry_id: str | None = None, parent: str | None = None) -> bytes:
    ids = f'"id":"{entry_id}","parentId":{orjson.dumps(parent).decode()},' if entry_id else ""
    return (f'{{"type":"message",{ids}"timestamp":"2025-03-01T10:00:01.000Z",'
            f'"message":{{"role":"user","content":"{text}","timestamp":1}}}}\n').encode()


def test_doctor_names_an_entry_that_survives_only_in_a_migration_backup(tmp_path: Path) -> None:
    """What an older pi-compact did with two writers: B migrated and appended (its file went to .v1.bak.1 when
    A migrated again from its memory, with other random ids); B's entry is only in that backup."""
    path = tmp_path / "s.jsonl"
    (tmp_path / "s.jsonl.v1.bak").write_bytes(V1_HEADER + message_line("original"))
    (tmp_path / "s.jsonl.v1.bak.1").write_bytes(V3_HEADER + message_line("original", "11111111")
                                                + message_line("from b", "22222222", "11111111"))
    path.write_bytes(V3_HEADER + message_line("original", "aaaaaaaa") + message_line("from a", "bbbbbbbb", "aaaaaaaa"))
    run = run_cli("session", "doctor", "--json", str(path))
    assert_clean_outcome(run, 1)
    [problem] = orjson.loads(run.stdout)["problems"]
    assert (problem["kind"], problem["severity"], problem["entryId"]) == ("only_in_backup", "error", "22222222")
    assert "line 3 of s.jsonl.v1.bak.1" in problem["message"]
    human = run_cli("session", "doctor", str(path))
    assert_clean_outcome(human, 1)
    assert b"only_in_backup" in human.stdout


def test_backups_left_by_migrations_under_the_lock_hold_nothing_the_file_lost(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    old_file(path, 1, 3)
    writers = [Session.open(path) for _ in range(3)]
    for n, writer in enumerate(writers):
        say(writer, f"writer {n}")
    (tmp_path / "old.jsonl.v1.bak.1").write_bytes((tmp_path / "old.jsonl.v1.bak").read_bytes())  # a second one
    run = run_cli("session", "doctor", str(path))
    assert_clean_outcome(run, 0)


@pytest.mark.parametrize("fixture", ["large-session.v1.jsonl", "before-compaction.v1.jsonl"])
def test_pi_reads_a_v1_file_two_writers_migrated_as_we_do(tmp_path: Path, fixture: str) -> None:
    """pi's own v1 fixtures, migrated by the first of two writers' appends: pi (the pinned real one) builds
    the same context as we do, at the file's leaf and at an id a read-only run showed before the migration."""
    path = tmp_path / fixture
    shutil.copyfile(PI_DIR / fixture, path)
    with Session.open(path) as before:
        middle = before.entries()[len(before) // 2]["id"]
    first, second = Session.open(path), Session.open(path)
    say(second, "from the second writer")
    say(first, "from the first writer")
    with Session.open(path) as session:
        ours = [session.build_context().to_json(), session.build_context(middle).to_json()]
    theirs = pi_contexts([{"file": path}, {"file": path, "leaf": middle}])
    assert [answer["ok"] for answer in theirs] == [True, True]
    assert [answer["context"] for answer in theirs] == ours
    assert ours[0]["messages"][-1]["content"] == "from the first writer"


def test_an_unmigrated_file_rewritten_meanwhile_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    old_file(path, 1, 3)
    session = Session.open(path)
    edited = path.read_bytes().replace(b"original 2", b"edited by hand")  # still v1: its last line's id changes
    temp = tmp_path / "edit.tmp"
    temp.write_bytes(edited)
    os.replace(temp, path)
    with pytest.raises(ConcurrentModificationError, match="open it again"):
        say(session, "would hang from a line that is gone")
    assert path.read_bytes() == edited
