"""The CLI benchmark: whole ``pi-compact`` processes on hostile sizes, and speed checks moved out of the tests.

``session context FILE`` (the human view) on a session holding one message of 1, 2, 8 and 32 MB, either in
80-column lines or as a single line. Before the view left wrapping huge bodies to the terminal, an 8 MB message
took 23 s (and a single line grew quadratically); the figures here should grow linearly with the size, a
little over the start-up time. ``python -m bench.cli_bench``; :func:`main` returns True when the 32 MB
message takes under :data:`TARGET_S`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

SIZES_MB = (1, 2, 8, 32)
TARGET_S = 10.0
"""Seconds a 32 MB message may take to print (start-up included)."""
HEADER = {"type": "session", "version": 3, "id": "bench", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}


def one_message_session(path: Path, megabytes: int, *, lines: bool) -> Path:
    size = megabytes * 1_000_000
    text = ("word " * 15 + "\n") * (size // 76) if lines else "x" * size
    entry = {"type": "message", "id": "e1", "parentId": None, "timestamp": "2025-01-01T00:00:01.000Z",
             "message": {"role": "user", "content": text, "timestamp": 1}}
    path.write_bytes(orjson.dumps(HEADER) + b"\n" + orjson.dumps(entry) + b"\n")
    return path


def timed_process(*args: str) -> float:
    environ = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pi_compact", *args], stdout=subprocess.DEVNULL, check=True, env=environ)
    return time.perf_counter() - started


def main() -> bool:
    print("pi-compact session context FILE (human view), one message, whole process:")
    print(f"{'message':>10} {'80-column lines':>16} {'one line':>10}")
    worst = 0.0
    start_up = timed_process("--version")
    with tempfile.TemporaryDirectory() as scratch:
        for megabytes in SIZES_MB:
            figures = []
            for lines in (True, False):
                path = one_message_session(Path(scratch) / f"{megabytes}-{lines}.jsonl", megabytes, lines=lines)
                figures.append(timed_process("session", "context", str(path)))
                path.unlink()
            worst = max(worst, *figures) if megabytes == SIZES_MB[-1] else worst
            print(f"{megabytes:>8} MB {figures[0]:>14.2f} s {figures[1]:>8.2f} s")
    print(f"(start-up alone: {start_up:.2f} s; target for {SIZES_MB[-1]} MB: under {TARGET_S:.0f} s)")
    return worst < TARGET_S


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
