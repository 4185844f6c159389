"""`replay -o/--output` and `--plot` write whole files or none (issue 23 item 8): through a temporary
``.NAME.PID.tmp`` beside the target that takes its name when complete; a full disk (a file-size limit) or a
kill leaves no partial target, and the next run removes what a dead process left; ``--force`` overwrites."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.cli.output import new_file, remove_stale_temporaries, temporary_name
from pi_compact.errors import UsageError
from pi_compact.store.paths import AGENT_DIR_ENV

PROJECT = Path(__file__).resolve().parents[2]
REALISTIC = PROJECT / "sessions_fixtures" / "realistic.jsonl"


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "pi_compact", "replay", str(REALISTIC), "--window", "16000", *args]


def environment(tmp_path: Path) -> dict:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    (tmp_path / "agent").mkdir(exist_ok=True)
    return {**clean, AGENT_DIR_ENV: str(tmp_path / "agent"), "PYTHONDONTWRITEBYTECODE": "1"}


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def _limit_file_size(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG, as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


@pytest.mark.parametrize("option", ["-o", "--output", "--out"])
def test_a_full_disk_leaves_no_file(tmp_path: Path, option: str):
    out = tmp_path / "replayed.jsonl"
    done = subprocess.run(command(option, str(out)), capture_output=True, text=True, timeout=120,
                          env=environment(tmp_path), cwd=tmp_path, preexec_fn=_limit_file_size(40_000))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"pi-compact: error: cannot write {out}: ")  # the name given, not the temporary's
    assert not out.exists() and leftovers(tmp_path) == []


def test_a_full_disk_while_drawing_leaves_no_png(tmp_path: Path):
    plot = tmp_path / "curve.png"
    done = subprocess.run(command("--plot", str(plot)), capture_output=True, text=True, timeout=120,
                          env=environment(tmp_path), cwd=tmp_path, preexec_fn=_limit_file_size(4_000))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert not plot.exists() and leftovers(tmp_path) == []


def test_a_kill_leaves_no_file_and_the_next_run_clears_what_it_left(tmp_path: Path):
    out = tmp_path / "replayed.jsonl"
    process = subprocess.Popen(command("-o", str(out)), env=environment(tmp_path), cwd=tmp_path,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    partial = temporary_name(out, process.pid)
    deadline = time.monotonic() + 60
    while not (partial.exists() and partial.stat().st_size > 1000) and process.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.005)
    process.kill()
    process.wait()
    # the replay writes for about a second after its file passes 1,000 bytes: it is killed mid-write
    assert partial.exists(), "the replay finished before it could be killed (give it a longer session)"
    assert not out.exists() and leftovers(tmp_path) == [partial.name]
    done = subprocess.run(command("-o", str(out)), capture_output=True, text=True, timeout=120,
                          env=environment(tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert leftovers(tmp_path) == [] and len(Session.open(out)) > 100


def test_force_overwrites_and_a_refusal_comes_before_the_replay(tmp_path: Path):
    out, plot = tmp_path / "replayed.jsonl", tmp_path / "curve.png"
    out.write_text("keep me")
    refused = subprocess.run(command("-o", str(out)), capture_output=True, text=True, timeout=120,
                             env=environment(tmp_path), cwd=tmp_path)
    assert refused.returncode == 2 and "already exists" in refused.stderr and out.read_text() == "keep me"
    plot.symlink_to(tmp_path / "elsewhere.png")
    done = subprocess.run(command("-o", str(out), "--plot", str(plot), "--force"), capture_output=True, text=True,
                          timeout=120, env=environment(tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(Session.open(out)) > 100
    assert not plot.is_symlink() and plot.read_bytes().startswith(b"\x89PNG")
    assert not (tmp_path / "elsewhere.png").exists()  # the link was replaced, never followed


def test_only_a_dead_processes_temporaries_are_removed(tmp_path: Path):
    target = tmp_path / "x.jsonl"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale, live, other = temporary_name(target, dead.pid), temporary_name(target, os.getppid()), \
        temporary_name(tmp_path / "y.jsonl", dead.pid)
    for path in (stale, live, other):
        path.write_text("partial")
    assert remove_stale_temporaries(target) == [stale]
    assert not stale.exists() and live.exists() and other.exists()


def test_an_error_inside_the_block_leaves_nothing(tmp_path: Path):
    target = tmp_path / "x.jsonl"
    with pytest.raises(RuntimeError):
        with new_file(target) as partial:
            partial.write_text("half")
            raise RuntimeError("disk full")
    assert not target.exists() and leftovers(tmp_path) == []
    target.write_text("there")
    with pytest.raises(UsageError, match="already exists"):
        with new_file(target):
            pass
