"""Several processes on one session file: concurrent durable appends lose and duplicate nothing, and of two
compactions started at the same moment exactly one runs while the other reports it skipped."""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

import orjson
import pytest

from pi_compact import CompactionInProgressError, Session
from pi_compact.compaction import CompactionSettings, compact

from .sessions import new_conversation

WRITERS = 4
APPENDS = 500
SETTINGS = CompactionSettings(keep_recent_tokens=300)


def _fork(work, *args) -> int:
    """Run ``work(*args)`` in a child; its return value is the exit status, an exception is status 70."""
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            code = work(*args)
        except BaseException as exc:  # noqa: BLE001 - a child must never return into pytest
            os.write(2, f"child failed: {exc!r}\n".encode())
        finally:
            os._exit(code)
    return pid


def _wait_all(pids: list[int], timeout: float = 120) -> list[int]:
    deadline = time.monotonic() + timeout
    codes = {}
    while len(codes) < len(pids):
        assert time.monotonic() < deadline, "children still running"
        for pid in pids:
            if pid not in codes:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    codes[pid] = os.waitstatus_to_exitcode(status)
        time.sleep(0.01)
    return [codes[pid] for pid in pids]


class Barrier:
    """Two pipes: each child says it is ready (its session open), then blocks until the parent releases all."""

    def __init__(self, parties: int) -> None:
        self.parties = parties
        self._ready_r, self._ready_w = os.pipe()
        self._go_r, self._go_w = os.pipe()

    def wait(self) -> None:
        """In a child."""
        os.write(self._ready_w, b"r")
        os.read(self._go_r, 1)

    def release(self, timeout: float = 60) -> None:
        """In the parent, once every child is ready."""
        ready = b""
        deadline = time.monotonic() + timeout
        while len(ready) < self.parties:
            assert time.monotonic() < deadline, "children never got ready"
            ready += os.read(self._ready_r, self.parties - len(ready))
        os.write(self._go_w, b"g" * self.parties)


# -- appends ---------------------------------------------------------------------------------------------------


def _append_many(path: Path, writer: int, barrier: Barrier) -> int:
    session = Session.open(path)  # durable (fsync) appends
    barrier.wait()
    for n in range(APPENDS):
        session.append_message({"role": "user", "content": f"w{writer}-{n}", "timestamp": n})
    session.close()
    return 0


def test_four_processes_append_500_entries_each(tmp_path: Path) -> None:
    path = tmp_path / "shared.jsonl"
    with Session.create_at(path, cwd="/p") as session:
        root = session.append_message({"role": "user", "content": "root", "timestamp": 0})
    barrier = Barrier(WRITERS)
    pids = [_fork(_append_many, path, writer, barrier) for writer in range(WRITERS)]
    barrier.release()
    started = time.monotonic()
    assert _wait_all(pids) == [0] * WRITERS
    elapsed = time.monotonic() - started
    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    lines = [orjson.loads(line) for line in raw.split(b"\n")[:-1]]  # every line is valid JSON
    header, first, *new = lines
    assert header["type"] == "session" and first["id"] == root["id"]
    assert len(new) == WRITERS * APPENDS
    ids = [entry["id"] for entry in lines[1:]]
    assert len(set(ids)) == len(ids)
    _assert_each_writer_made_a_chain(new, root["id"])
    with Session.open(path) as reopened:
        assert reopened.problems == [] and len(reopened) == 1 + WRITERS * APPENDS
    print(f"\n{WRITERS}×{APPENDS} durable appends by concurrent processes in {elapsed:.1f}s; "
          f"{len(lines)} lines checked")


def _assert_each_writer_made_a_chain(entries: list[dict], root_id: str) -> None:
    """Every parent is an earlier line; each writer's entries hang one below the other, in order."""
    seen = {root_id}
    last_of: dict[str, str] = {}
    count: Counter[str] = Counter()
    for entry in entries:
        assert entry["parentId"] in seen
        writer, n = entry["message"]["content"][1:].split("-")
        assert entry["parentId"] == last_of.get(writer, root_id) and int(n) == count[writer]
        last_of[writer] = entry["id"]
        count[writer] += 1
        seen.add(entry["id"])
    assert count == {str(w): APPENDS for w in range(WRITERS)}


# -- compactions -----------------------------------------------------------------------------------------------

DONE, SKIPPED_LOCKED, SKIPPED_ADOPTED = 10, 11, 12


def _compact_once(path: Path, barrier: Barrier) -> int:
    with Session.open(path) as session:
        barrier.wait()
        try:
            compact(session, settings=SETTINGS)
        except CompactionInProgressError as exc:
            return SKIPPED_ADOPTED if "another process" in str(exc) else SKIPPED_LOCKED
    return DONE


def test_two_compactions_started_together_run_once(tmp_path: Path) -> None:
    outcomes: Counter[str] = Counter()
    for attempt in range(6):
        path = new_conversation(tmp_path / f"race-{attempt}.jsonl", turns=25, size=800)
        barrier = Barrier(2)
        pids = [_fork(_compact_once, path, barrier) for _ in range(2)]
        barrier.release()
        codes = sorted(_wait_all(pids))
        assert codes[0] == DONE and codes[1] in (SKIPPED_LOCKED, SKIPPED_ADOPTED), codes
        outcomes["locked" if codes[1] == SKIPPED_LOCKED else "adopted"] += 1
        with Session.open(path) as session:
            assert session.problems == []
            assert [e["type"] for e in session.entries()].count("compaction") == 1
    print(f"\ncompaction races: {dict(outcomes)}")


def test_a_compaction_by_another_process_is_adopted_not_repeated(tmp_path: Path) -> None:
    path = new_conversation(tmp_path / "two-views.jsonl", turns=25, size=800)
    first, second = Session.open(path), Session.open(path)
    result = compact(first, settings=SETTINGS)
    with pytest.raises(CompactionInProgressError, match="another process"):
        compact(second, settings=SETTINGS)
    assert second.leaf_id == result.entry["id"]
    first.close()
    second.close()
    with Session.open(path) as session:
        assert [e["type"] for e in session.entries()].count("compaction") == 1
