"""The library side of naming a session: :func:`find_session` (a path or an id prefix) and
:func:`latest_session`, reading headers only, and within a bound."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pi_compact.errors import UsageError
from pi_compact.store.jsonl import dumps_line
from pi_compact.store.listing import FULL_READ_BYTES, HEAD_BYTES, TAIL_BYTES, find_session, latest_session, list_sessions
from pi_compact.store.paths import project_dir_name


def header(session_id: str, **extra) -> dict:
    return {"type": "session", "version": 3, "id": session_id, "timestamp": "2025-01-01T00:00:00.000Z",
            "cwd": "/w", **extra}


@pytest.fixture
def agent(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    return tmp_path / "agent" / "sessions" / project_dir_name("/w")


def write(path: Path, value: dict, mtime: int = 1_000, tail: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(dumps_line(value) + tail)
    os.utime(path, (mtime, mtime))
    return path


def test_a_prefix_finds_the_one_session(agent):
    wanted = write(agent / "x.jsonl", header("abc-1"))
    write(agent / "y.jsonl", header("abd-2"))
    assert find_session("abc", "/w") == wanted


def test_a_path_is_returned_as_given_even_when_missing(agent):
    assert find_session("nowhere/s.jsonl", "/w") == Path("nowhere/s.jsonl")
    assert find_session("s.jsonl", "/w") == Path("s.jsonl")


@pytest.mark.parametrize("count", [2, 9])
def test_an_ambiguous_prefix_names_the_candidates(agent, count):
    for index in range(count):
        write(agent / f"s{index}.jsonl", header(f"dup-{index}"))
    with pytest.raises(UsageError, match=f"matches {count} sessions") as raised:
        find_session("dup", "/w")
    shown = str(raised.value).count("dup-")
    assert shown == min(count, 5)
    assert (f"and {count - 5} more" in str(raised.value)) == (count > 5)


def test_latest_is_the_newest_by_mtime(agent):
    write(agent / "old.jsonl", header("a"), mtime=1_000)
    newest = write(agent / "new.jsonl", header("b"), mtime=5_000)
    (agent / "junk.jsonl").write_bytes(b"not json\n")
    assert latest_session("/w") == newest


def test_latest_without_sessions_is_an_error(agent):
    with pytest.raises(UsageError, match="no session in"):
        latest_session("/w")


def test_a_header_past_the_head_bound_is_not_read(agent):
    # A first line longer than the bound is never read whole to find out whether it is a header.
    write(agent / "huge.jsonl", header("big", pad="x" * HEAD_BYTES))
    write(agent / "ok.jsonl", header("ok", pad="x" * 1000))
    with pytest.raises(UsageError, match="no session id starts"):
        find_session("big", "/w")
    assert [info.id for info in list_sessions(agent)] == ["ok"]


def _sparse_session(path: Path, gap: int) -> Path:
    """A header and the first prompt, ``gap`` bytes of hole (NULs, no newline), then a last prompt and a name."""
    first = {"type": "message", "id": "m1", "parentId": None, "timestamp": "2025-01-01T00:00:01.000Z",
             "message": {"role": "user", "content": "the first prompt", "timestamp": 1_735_689_601_000}}
    last = {"type": "message", "id": "m2", "parentId": "m1", "timestamp": "2025-01-02T00:00:00.000Z",
            "message": {"role": "user", "content": "the last prompt", "timestamp": 1_735_776_000_000}}
    name = {"type": "session_info", "id": "n1", "parentId": "m2", "timestamp": "2025-01-02T00:00:01.000Z",
            "name": " late name "}
    with open(path, "wb") as handle:
        handle.write(dumps_line(header("sparse")) + dumps_line(first))
        handle.seek(gap, os.SEEK_CUR)
        handle.write(b"\n" + dumps_line(last) + dumps_line(name))
    return path


def test_a_huge_file_is_listed_from_its_ends_in_bounded_memory(tmp_path):
    import tracemalloc

    _sparse_session(tmp_path / "big.jsonl", 2 * 1024**3)  # 2 GB, nearly all of it a hole
    tracemalloc.start()
    try:
        [info] = list_sessions(tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (info.first_message, info.name, info.message_count) == ("the first prompt", "late name", None)
    assert info.modified_ms == 1_735_776_000_000
    assert peak < 4 * (HEAD_BYTES + TAIL_BYTES)  # what it shows, not what the file holds
    assert info.to_json()["messageCount"] is None


@pytest.mark.parametrize("gap", [0, FULL_READ_BYTES // 2])
def test_a_file_within_the_bound_is_counted_exactly(tmp_path, gap):
    _sparse_session(tmp_path / "s.jsonl", gap)
    [info] = list_sessions(tmp_path)
    assert (info.message_count, info.name) == (2, "late name")
