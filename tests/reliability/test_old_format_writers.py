"""Several processes appending to one v1 or v2 file, some killed at random moments: every acknowledged entry
survives (issue 23.1).

Each writer opens the old-format file before any of them appends, so each holds it unmigrated in memory; the
first append of each migrates it under the lock from the file as it is then. A writer reports an entry's id
once ``append`` returned; the parent may SIGKILL writers at any moment. After each round the file must open
cleanly, hold every reported entry and every line of the original file, and have no backup holding an
entry the file lost. Set ``PI_COMPACT_OLD_WRITERS_SEED`` to replay a run.
"""

from __future__ import annotations

import os
import random
import select
import signal
import time
from collections import Counter
from pathlib import Path

from pi_compact import Session

from .test_concurrency import Barrier

ROUNDS = 60
WRITERS = (2, 3)
APPENDS = 4


def old_file(path: Path, version: int, lines: int) -> list[str]:
    """A v1 file (no ids) or a v2 one (ids, a hookMessage); returns the contents of its messages."""
    header = '{"type":"session","id":"s","timestamp":"2025-03-01T10:00:00.000Z","cwd":"/p"'
    rows = [header + (',"version":2}' if version == 2 else "}")]
    texts = [f"original {n}" for n in range(lines)]
    for n, text in enumerate(texts):
        ids = f',"id":"e{n:07d}","parentId":{"null" if n == 0 else chr(34) + f"e{n - 1:07d}" + chr(34)}'
        rows.append('{"type":"message"' + (ids if version == 2 else "") + ',"timestamp":"2025-03-01T10:00:01.000Z",'
                    f'"message":{{"role":"user","content":"{text}","timestamp":{n}}}}}')
    path.write_text("\n".join(rows) + "\n")
    return texts


def _writer(path: Path, name: str, barrier: Barrier, report_fd: int, seed: int) -> None:
    """A child: open, wait for the others, append with small pauses, report each acknowledged id."""
    try:
        rng = random.Random(seed)
        session = Session.open(path)
        barrier.wait()
        for n in range(APPENDS):
            time.sleep(rng.uniform(0, 0.003))
            entry = session.append_message({"role": "user", "content": f"{name}-{n}", "timestamp": n})
            os.write(report_fd, f"{entry['id']} {name}-{n}\n".encode())
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which fails the test
        os.write(report_fd, b"ERROR " + repr(exc).encode()[:300] + b"\n")
    finally:
        os._exit(0)


def _round(path: Path, rng: random.Random, stats: Counter) -> None:
    original = old_file(path, rng.choice((1, 2)), rng.randrange(1, 6))
    writers = rng.choice(WRITERS)
    barrier = Barrier(writers)
    children = []
    for w in range(writers):
        reader, report = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(reader)
            _writer(path, f"w{w}", barrier, report, rng.randrange(1 << 30))
        os.close(report)
        children.append((pid, reader))
    barrier.release()
    victims = {pid for pid, _ in children if rng.random() < 0.3}
    if victims:
        time.sleep(rng.uniform(0, 0.02))
    acknowledged: dict[str, str] = {}
    for pid, reader in children:
        if pid in victims:
            os.kill(pid, signal.SIGKILL)
            stats["kills"] += 1
        acknowledged.update(_reports(pid, reader))
    _check(path, original, acknowledged, stats)


def _reports(pid: int, reader: int) -> dict[str, str]:
    data = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if select.select([reader], [], [], 0.5)[0]:
            chunk = os.read(reader, 65536)
            if not chunk:
                break
            data += chunk
    os.close(reader)
    os.waitpid(pid, 0)
    lines = data.decode().split("\n")[:-1]  # a report cut by the kill is not counted
    assert not [line for line in lines if line.startswith("ERROR")], lines
    return dict(line.split(" ", 1) for line in lines)


def _check(path: Path, original: list[str], acknowledged: dict[str, str], stats: Counter) -> None:
    with Session.open(path) as session:
        assert session.problems == []
        assert session.version == 3 or not acknowledged  # every writer may have been killed before appending
        content = {entry["id"]: entry["message"]["content"] for entry in session.entries()}
    lost = {i: text for i, text in acknowledged.items() if content.get(i) != text}
    stats["rounds"] += 1
    stats["acknowledged"] += len(acknowledged)
    stats["lost"] += len(lost)
    assert not lost, f"acknowledged entries lost: {lost}"
    assert set(original) <= set(content.values())
    for backup in path.parent.glob(path.name + ".v*.bak*"):
        backup.unlink()


def test_old_format_file_with_concurrent_writers_loses_no_acknowledged_entry(tmp_path: Path) -> None:
    seed = int(os.environ.get("PI_COMPACT_OLD_WRITERS_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    stats: Counter[str] = Counter()
    started = time.monotonic()
    for n in range(ROUNDS):
        _round(tmp_path / f"old-{n}.jsonl", rng, stats)
    print(f"\nold-format writers (seed {seed}): {stats['rounds']} rounds, {stats['kills']} writers killed, "
          f"{stats['acknowledged']} acknowledged entries, {stats['lost']} lost, {time.monotonic() - started:.1f}s")
    assert stats["acknowledged"] >= ROUNDS * 2 * APPENDS // 2  # most appends were acknowledged, not killed
