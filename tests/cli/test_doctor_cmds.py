"""``pi-compact session doctor --repair``: the report counts every line of FILE the copy leaves out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson

from sessions_fixtures import DEMO


def damaged(path: Path) -> Path:
    """The demo's first lines, a line that is not JSON, one cut in the middle, and a torn tail."""
    lines = DEMO.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:5]) + b"not json\n" + lines[5][:40] + b"\n" + lines[6][:30])
    return path


def doctor(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pi_compact", "session", "doctor", *args], capture_output=True,
                          text=True, env=dict(os.environ), timeout=120)


def test_the_repair_report_counts_the_lines_it_lists_as_left_out(tmp_path):
    path = damaged(tmp_path / "s.jsonl")
    done = doctor(str(path), "--repair", "-o", str(tmp_path / "fixed.jsonl"))
    assert done.returncode == 1, done.stderr
    listed = [line for line in done.stdout.splitlines() if line.startswith("  line ") and "left out" in line]
    assert len(listed) == 3
    assert f"repaired copy: {tmp_path / 'fixed.jsonl'} (4 entries, 3 lines of FILE left out)" in done.stdout


def test_the_repair_json_counts_lines_and_entries_apart(tmp_path):
    path = damaged(tmp_path / "s.jsonl")
    report = orjson.loads(doctor(str(path), "--repair", "-o", str(tmp_path / "fixed.jsonl"), "--json").stdout)
    assert report["repair"]["linesLeftOut"] == 3 and report["repair"]["leftOut"] == 0
    assert report["repair"]["entries"] == 4
