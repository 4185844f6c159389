"""Finding sessions on disk: one project folder, every project folder, and the most recent session.

The fields follow pi's ``SessionManager.list``; unlike pi, a header longer than 512 bytes never hides a file.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pi_compact import find_most_recent, list_all_sessions, list_sessions
from pi_compact.store.jsonl import dumps_line, iso_to_ms

HEADER = {"type": "session", "version": 3, "id": "sess-1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}


def message(entry_id: str, parent: str | None, role: str, content, ms: int | None = 1_000) -> dict:
    body = {"role": role, "content": content}
    if ms is not None:
        body["timestamp"] = ms
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "2025-01-01T00:00:09.000Z", "message": body}


def write(path: Path, *entries: dict, header: dict | None = None, mtime: int | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(dumps_line(e) for e in (header or HEADER, *entries)))
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


@pytest.fixture
def folder(tmp_path) -> Path:
    """Three sessions plus files that are not sessions."""
    write(
        tmp_path / "a.jsonl",
        message("aaaaaaa1", None, "assistant", [{"type": "text", "text": "no user yet"}], ms=5_000),
        message("aaaaaaa2", "aaaaaaa1", "user", ""),
        message("aaaaaaa3", "aaaaaaa2", "user", [{"type": "image"}, {"type": "text", "text": "look"}, {"type": "text", "text": "here"}], ms=2_000),
        message("aaaaaaa4", "aaaaaaa3", "toolResult", [], ms=99_000),
        {"type": "session_info", "id": "aaaaaaa5", "parentId": "aaaaaaa4", "timestamp": "t", "name": " first "},
        {"type": "session_info", "id": "aaaaaaa6", "parentId": None, "timestamp": "t", "name": "Alpha"},
        header={**HEADER, "id": "id-a", "cwd": "/a", "parentSession": "/x/parent.jsonl"},
    )
    write(
        tmp_path / "b.jsonl",
        message("bbbbbbb1", None, "user", "hello b", ms=None),  # falls back to the entry's ISO time
        header={**HEADER, "id": "id-b", "parentSession": "/" + "p" * 600},  # header > 512 bytes
    )
    write(tmp_path / "c.jsonl", header={**HEADER, "id": "id-c", "timestamp": "2025-01-01T00:00:01.000Z"})
    (tmp_path / "garbage.jsonl").write_bytes(b"garbage\n")
    write(tmp_path / "entry-first.jsonl", header=message("xxxxxxxx", None, "user", "x"))
    (tmp_path / "empty.jsonl").write_bytes(b"")
    write(tmp_path / "notes.txt")
    (tmp_path / "dir.jsonl").mkdir()
    return tmp_path


def test_list_sessions_newest_first_with_pis_fields(folder):
    infos = list_sessions(folder)
    assert [info.id for info in infos] == ["id-b", "id-c", "id-a"]
    b, c, a = infos
    assert (a.name, a.first_message, a.message_count, a.modified_ms) == ("Alpha", "look here", 4, 5_000)
    assert (a.cwd, a.parent_session, a.created, a.path) == ("/a", "/x/parent.jsonl", HEADER["timestamp"], folder / "a.jsonl")
    assert (b.first_message, b.message_count, b.modified_ms) == ("hello b", 1, iso_to_ms("2025-01-01T00:00:09.000Z"))
    assert (c.name, c.first_message, c.message_count) == (None, "(no messages)", 0)
    assert c.modified_ms == iso_to_ms("2025-01-01T00:00:01.000Z")  # no messages: the header's time
    assert a.modified.year == 1970


def test_an_empty_name_clears_it(tmp_path):
    write(
        tmp_path / "s.jsonl",
        {"type": "session_info", "id": "11111111", "parentId": None, "timestamp": "t", "name": "named"},
        {"type": "session_info", "id": "22222222", "parentId": "11111111", "timestamp": "t", "name": ""},
    )
    assert list_sessions(tmp_path)[0].name is None


def test_a_header_without_a_time_falls_back_to_the_file_time(tmp_path):
    write(tmp_path / "s.jsonl", header={**HEADER, "timestamp": "not a time"}, mtime=1_700_000_000)
    assert list_sessions(tmp_path)[0].modified_ms == 1_700_000_000_000


def test_odd_content_never_breaks_the_listing(tmp_path):
    write(tmp_path / "s.jsonl", message("aaaaaaaa", None, "user", [{"type": "text", "text": 5}, {"type": "text"}, "x"]), message("bbbbbbbb", "aaaaaaaa", "user", None), {"type": "message", "id": "cccccccc", "parentId": None, "timestamp": "t"})
    [info] = list_sessions(tmp_path)
    assert info.message_count == 3


def test_missing_folder_lists_nothing(tmp_path):
    assert list_sessions(tmp_path / "missing") == []
    assert list_all_sessions(tmp_path / "missing") == []
    assert find_most_recent(tmp_path / "missing") is None


def test_list_all_sessions_covers_every_project_folder(tmp_path, monkeypatch):
    root = tmp_path / "agent" / "sessions"
    write(root / "--one--" / "x.jsonl", message("aaaaaaaa", None, "user", "one", ms=1_000), header={**HEADER, "id": "one"})
    write(root / "--two--" / "y.jsonl", message("aaaaaaaa", None, "user", "two", ms=3_000), header={**HEADER, "id": "two"})
    write(root / "--two--" / "z.jsonl", message("aaaaaaaa", None, "user", "three", ms=2_000), header={**HEADER, "id": "three"})
    write(root / "loose.jsonl", header={**HEADER, "id": "loose"})  # files directly in the root are not listed
    assert [info.id for info in list_all_sessions(root)] == ["two", "three", "one"]
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    assert [info.id for info in list_all_sessions()] == ["two", "three", "one"]


def test_find_most_recent_takes_the_newest_mtime_of_valid_sessions(folder):
    for n, name in enumerate(["b.jsonl", "c.jsonl", "a.jsonl", "garbage.jsonl", "entry-first.jsonl"]):
        os.utime(folder / name, (1_700_000_000 + n, 1_700_000_000 + n))
    assert find_most_recent(folder) == folder / "a.jsonl"
    os.utime(folder / "b.jsonl", (1_800_000_000, 1_800_000_000))
    assert find_most_recent(folder) == folder / "b.jsonl"  # its 600-byte header hides it from pi (bug #7)


def test_find_most_recent_reads_a_header_after_a_bom(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + dumps_line(HEADER))
    assert find_most_recent(tmp_path) == path
    assert [info.id for info in list_sessions(tmp_path)] == ["sess-1"]
