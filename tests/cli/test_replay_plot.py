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


@pytest.fixture(scope="module")
def report():
    from pi_compact.compaction import CompactionSettings
    from pi_compact.evaluation.replayer import settings_for_window

    found = replay(REALISTIC, window=int(WINDOW), settings=settings_for_window(int(WINDOW), CompactionSettings()))
    assert len(found.compactions) >= 2
    return found


def test_the_line_is_what_was_sent_and_stays_under_the_window(report):
    from pi_compact.cli.replay_cmds import plot_series

    series = plot_series(report)
    assert series.requests == tuple(range(1, len(report.requests) + 1))  # requests, not messages, on the x-axis
    assert max(series.sent) == report.peak_tokens
    assert (max(series.sent) <= report.window) == (report.violations == 0)


def test_each_compaction_is_drawn_apart_at_its_request_by_strategy(report):
    from pi_compact.cli.replay_cmds import plot_series

    series = plot_series(report)
    drawn = sorted((at, before, after) for peaks in series.peaks.values() for at, before, after in peaks)
    assert len(drawn) == len(report.compactions)
    assert set(series.peaks) == {c.strategy for c in report.compactions}
    for at, before, after in drawn:
        assert series.sent[at - 1] == after < before  # the line holds what was sent; the peak stands apart
        assert before not in series.sent or before <= report.window


def test_the_baseline_is_the_context_without_compaction(report):
    from pi_compact.cli.replay_cmds import plot_series

    series = plot_series(report)
    assert all(a <= b for a, b in zip(series.uncompacted, series.uncompacted[1:]))  # it only grows
    assert all(sent <= whole for sent, whole in zip(series.sent, series.uncompacted))
    first = report.compactions[0]
    at = next(n for n, p in enumerate(report.requests) if p.message_index == first.message_index)
    assert series.uncompacted[at] == first.tokens_before  # nothing compacted before the first compaction
    assert series.uncompacted[-1] > report.window  # the reason compaction was needed


def test_force_replaces_a_plot(tmp_path):
    plot = tmp_path / "context.png"
    plot.write_bytes(b"old")
    done = run("--plot", str(plot), "--force", cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert png_size(plot)[0] >= 1600
