"""``pi-compact replay --plot``: a new PNG only (never over a file or through a link), readable, markers on the curve."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from pi_compact.evaluation.replayer import replay
from sessions_fixtures import REALISTIC

WINDOW = "16000"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    clean["PI_CODING_AGENT_DIR"] = str(cwd / "agent")
    return subprocess.run([sys.executable, "-m", "pi_compact", "replay", str(REALISTIC), "--window", WINDOW, *args],
                          capture_output=True, cwd=cwd, env=clean, timeout=120)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_plot_is_a_new_file_large_enough_to_read(tmp_path):
    done = run("--plot", "context.png", cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    width, height = png_size(tmp_path / "context.png")
    assert width >= 1600 and height >= 800  # 10 × 4 inches at 100 dpi before: about 1000 × 400


@pytest.mark.parametrize("kind", ["file", "link-to-nothing", "link-to-a-file"])
def test_the_plot_never_replaces_or_follows_what_is_there(tmp_path, kind):
    target = tmp_path / "precious.txt"
    plot = tmp_path / "context.png"
    if kind == "file":
        plot.write_bytes(b"keep me")
    else:
        plot.symlink_to(target)
        if kind == "link-to-a-file":
            target.write_bytes(b"keep me")
    done = run("--plot", str(plot), "--out", str(tmp_path / "replayed.jsonl"), cwd=tmp_path)
    stderr = done.stderr.decode()
    assert done.returncode == 2 and stderr == f"pi-compact: error: {plot} already exists; choose a new file (or --force)\n"
    assert not (tmp_path / "replayed.jsonl").exists()  # refused before any work
    if kind == "file":
        assert plot.read_bytes() == b"keep me"
    else:
        assert plot.is_symlink() and os.readlink(plot) == str(target)
        assert target.read_bytes() == b"keep me" if kind == "link-to-a-file" else not target.exists()


def test_each_before_compaction_marker_sits_on_the_curve():
    from pi_compact.cli.replay_cmds import plot_curve
    from pi_compact.compaction import CompactionSettings
    from pi_compact.evaluation.replayer import settings_for_window

    report = replay(REALISTIC, window=int(WINDOW), settings=settings_for_window(int(WINDOW), CompactionSettings()))
    assert len(report.compactions) >= 2
    points = list(zip(*plot_curve(report)))
    for compaction in report.compactions:
        at = points.index((compaction.message_index, compaction.tokens_before))
        assert points[at + 1] == (compaction.message_index, compaction.tokens_after)  # then the drop
    assert len(points) == len(report.requests) + len(report.compactions)
