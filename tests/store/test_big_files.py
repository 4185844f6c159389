"""Whole-file reads bounded (issue 23 item 9): a torn tail of megabytes of NULs (a sparse file, a crash that
extended the file) costs no copy of itself; ``session info`` holds the file once and no entry."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from pi_compact.store.jsonl import dumps_line
from pi_compact.store.scan import parse_line, scan

HEADER = {"type": "session", "version": 3, "id": "big", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}
MESSAGE = {"type": "message", "id": "m1", "parentId": None, "timestamp": "2025-01-01T00:00:01.000Z",
           "message": {"role": "user", "content": "hi", "timestamp": 1}}


@pytest.mark.parametrize("junk", [b"\0", b"\x01\xff", b"x"], ids=["nul", "binary", "letter"])
def test_a_huge_line_of_junk_is_refused_without_a_copy(junk):
    raw = memoryview(junk * (64 * 1024 * 1024 // len(junk)))
    tracemalloc.start()
    try:
        with pytest.raises(ValueError):
            parse_line(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024


def test_a_torn_tail_of_nuls_is_reported_without_a_copy():
    data = dumps_line(HEADER) + dumps_line(MESSAGE) + b"\0" * (64 * 1024 * 1024)
    tracemalloc.start()
    try:
        result = scan(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.torn_tail and [slot.id for slot in result.slots] == ["m1"]
    assert peak < 4 * 1024 * 1024


def test_session_info_on_a_sparse_file_reports_its_torn_tail(tmp_path: Path):
    """A 256 MB hole of NULs after one entry: info answers with the entry and the torn tail (its time and peak
    memory on a 2 GB file are printed by ``make bench``, bench/cli_bench.py)."""
    hole = 256 * 1024 * 1024
    path = tmp_path / "sparse.jsonl"
    with open(path, "wb") as handle:
        handle.write(dumps_line(HEADER) + dumps_line(MESSAGE))
        handle.truncate(hole)
    done = subprocess.run([sys.executable, "-m", "pi_compact", "session", "info", str(path), "--json"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert '"messageCount":1' in done.stdout and '"kind":"torn_tail"' in done.stdout