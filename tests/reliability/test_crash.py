"""Crash safety: processes appending to a session are killed with SIGKILL at random moments, hundreds of times.

A child appends (durably) in a loop and reports each id on a pipe once ``append`` has returned; the parent
kills it at a random moment, then checks that the file opens, that every reported entry is there with its
parent, that at most the entry in flight is missing, and that earlier bytes are untouched. A few appends
carry megabytes, so some kills land inside a ``write`` and leave a torn last line: the next append must cut
it and leave a file that opens with no problems. Set ``PI_COMPACT_CRASH_SEED`` to replay a run.
"""

from __future__ import annotations

import hashlib
import os
import random
import select
import signal
import time
from collections import Counter
from pathlib import Path

from pi_compact import Session

KILLS = 220
KILLS_PER_FILE = 22
SIZES = (10, 10, 50, 200, 1_000, 10_000, 100_000, 1_000_000, 4_000_000)
"""Content sizes the children pick from: most appends are small, a few take long enough to be torn."""
BIG = 1_000_000


def test_sigkill_at_random_moments_loses_at_most_the_entry_in_flight(tmp_path: Path) -> None:
    seed = int(os.environ.get("PI_COMPACT_CRASH_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    stats: Counter[str] = Counter()
    started = time.monotonic()
    files = 0
    while stats["kills"] < KILLS:
        path = tmp_path / f"crash-{files}.jsonl"
        files += 1
        _new_session(path)
        state = _snapshot(path)
        for _ in range(KILLS_PER_FILE):
            state = _kill_one_appender(path, state, rng, stats)
    elapsed = time.monotonic() - started
    print(f"\ncrash test (seed {seed}): {stats['kills']} kills survived in {elapsed:.1f}s over {files} files; "
          f"{stats['reported']} reported appends and {stats['entries_checked']} entries checked; "
          f"{stats['torn']} torn tails cut by the next append; {stats['in_flight_kept']} in-flight entries kept, "
          f"{stats['in_flight_lost']} lost")
    assert stats["kills"] >= 200
    assert stats["reported"] > stats["kills"]  # the kills really landed among appends
    assert stats["torn"] >= 1  # some landed inside a write


def _new_session(path: Path) -> None:
    with Session.create_at(path, cwd="/crash") as session:
        session.append_message({"role": "user", "content": "start", "timestamp": 0})


def _kill_one_appender(path: Path, before: "_Snapshot", rng: random.Random, stats: Counter) -> "_Snapshot":
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        _append_forever(path, writer, rng.randrange(1 << 30))
    os.close(writer)
    try:
        reported = _reports_until_killed(pid, reader, rng)
    finally:
        os.close(reader)
    stats["kills"] += 1
    stats["reported"] += len(reported)
    return _check_after_kill(path, before, reported, stats)


def _append_forever(path: Path, report_fd: int, seed: int) -> None:
    """The child: append until killed, reporting each id after ``append`` returned. Never returns."""
    try:
        rng = random.Random(seed)
        session = Session.open(path)  # durable: fsync before append returns
        while True:
            size = rng.choice(SIZES)
            content = "x" * size
            if size >= BIG:
                os.write(report_fd, b"big\n")  # lets the parent aim some kills at the long writes
            entry = session.append_message({"role": "user", "content": content, "timestamp": size})
            os.write(report_fd, entry["id"].encode() + b"\n")
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which fails the test
        os.write(report_fd, b"ERROR " + repr(exc).encode()[:500] + b"\n")
    finally:
        os._exit(3)


def _reports_until_killed(pid: int, reader: int, rng: random.Random) -> list[str]:
    """Kill the child at a random moment: after 0 to 5 reports, or (every other time) just after it starts a
    multi-megabyte append, then a random delay; return every complete id it reported."""
    aim_at_big = rng.random() < 1 / 2
    wanted = rng.choice((0, 1, 1, 2, 3, 5))
    data = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (
        data.endswith(b"big\n") if aim_at_big else data.count(b"\n") - data.count(b"big\n") >= wanted
    ):
        if select.select([reader], [], [], 0.5)[0]:
            chunk = os.read(reader, 65536)
            if not chunk:
                break
            data += chunk
    time.sleep(rng.uniform(0, 0.004 if aim_at_big else 0.012))
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    while chunk := os.read(reader, 65536):
        data += chunk
    lines = [line for line in data.split(b"\n")[:-1] if line != b"big"]  # a cut report is not counted
    errors = [line for line in lines if line.startswith(b"ERROR")]
    assert not errors, errors
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status
    return [line.decode() for line in lines]


class _Snapshot:
    """What must survive a kill: the entries, and the bytes of every complete line."""

    def __init__(self, ids: list[str], stable_end: int, digest: bytes) -> None:
        self.ids, self.stable_end, self.digest = ids, stable_end, digest


def _snapshot(path: Path) -> _Snapshot:
    with Session.open(path) as session:
        ids = [slot.id for slot in session._index.slots]
    return _snapshot_of(path.read_bytes(), ids)


def _snapshot_of(data: bytes, ids: list[str]) -> _Snapshot:
    stable_end = data.rfind(b"\n") + 1
    return _Snapshot(ids, stable_end, _window_digest(data, stable_end))


def _window_digest(data: bytes, end: int) -> bytes:
    """The header and the last megabyte before ``end``: appends through O_APPEND cannot touch the rest."""
    return hashlib.sha256(data[: min(4096, end)] + data[max(0, end - (1 << 20)) : end]).digest()


def _check_after_kill(path: Path, before: _Snapshot, reported: list[str], stats: Counter) -> _Snapshot:
    data = path.read_bytes()
    assert len(data) >= before.stable_end and _window_digest(data, before.stable_end) == before.digest
    with Session.open(path) as session:
        problems = session.problems
        slots = session._index.slots
        ids = [slot.id for slot in slots]
        assert all(slot.parent_id is None or slot.parent_id in session for slot in slots)
    assert all(p.kind == "torn_tail" and p.line > slots[-1].line for p in problems), problems
    assert ids[: len(before.ids)] == before.ids
    new = ids[len(before.ids) :]
    assert new[: len(reported)] == reported, "an append that had returned is missing"
    assert len(new) - len(reported) <= 1, "more than the entry in flight appeared"
    stats["entries_checked"] += len(ids)
    stats["in_flight_kept" if len(new) > len(reported) else "in_flight_lost"] += 1
    if not problems:
        return _snapshot_of(data, ids)
    stats["torn"] += 1
    _append_after_torn_tail(path, ids)
    return _snapshot(path)


def _append_after_torn_tail(path: Path, ids: list[str]) -> None:
    """The next append cuts the torn line; the file then opens with no problems and nothing else lost."""
    with Session.open(path) as session:
        added = session.append_message({"role": "user", "content": "after the crash", "timestamp": 1})
    with Session.open(path) as reopened:
        assert reopened.problems == []
        assert [slot.id for slot in reopened._index.slots] == [*ids, added["id"]]
        assert reopened.leaf_id == added["id"]
