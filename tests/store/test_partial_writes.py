"""Outputs are whole or absent, and a failed append leaves no torn line (issue 13.13).

A full disk is simulated for real with ``RLIMIT_FSIZE`` in a child process: a write that crosses the limit
is cut short (``SIGXFSZ`` ignored, as Python does: the write fails with ``EFBIG``, as it would with
``ENOSPC``), or the process is killed in the middle of it (``SIGXFSZ``'s default action), as a crash would.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.errors import SessionFileError
from pi_compact.store.writer import write_new_file

from tests.reliability.sessions import new_conversation

CHILD = """
import resource, signal, sys
limit, ignore, args = int(sys.argv[1]), sys.argv[2] == "ignore", sys.argv[3:]
signal.signal(signal.SIGXFSZ, signal.SIG_IGN if ignore else signal.SIG_DFL)  # Python ignores it by default
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
if args[0] == "append":
    from pi_compact import Session
    from pi_compact.errors import SessionFileError
    session = Session.open(args[1])
    try:
        session.append_message({"role": "user", "content": "x" * 5000, "timestamp": 1})
    except SessionFileError as exc:
        print("refused:", exc)
        sys.exit(3)
else:
    from pi_compact.cli import main
    main(args)
"""


def run_limited(limit: int, *args: str, ignore_signal: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, str(limit), "ignore" if ignore_signal else "die", *args],
                          capture_output=True, timeout=120)


def test_a_failed_append_cuts_its_torn_bytes_at_once(tmp_path: Path) -> None:
    path = new_conversation(tmp_path / "s.jsonl", turns=2)
    before = path.read_bytes()
    done = run_limited(len(before) + 100, "append", str(path))
    assert done.returncode == 3 and b"refused: cannot write" in done.stdout, done.stderr
    assert path.read_bytes() == before  # no torn line waiting for the next append
    assert Session.open(path).problems == []


def test_a_failed_first_append_leaves_no_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "new.jsonl"
    script = ("import resource, signal\n"
              "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
              "resource.setrlimit(resource.RLIMIT_FSIZE, (50, 50))\n"
              "from pi_compact import Session\n"
              f"Session.create_at({str(path)!r}, cwd='/p').append_message("
              "{'role': 'user', 'content': 'x' * 5000, 'timestamp': 1})\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert b"SessionFileError" in done.stderr
    assert not path.exists()


def test_fork_on_a_full_disk_leaves_no_output(tmp_path: Path) -> None:
    path = new_conversation(tmp_path / "s.jsonl", turns=4)
    out = tmp_path / "fork.jsonl"
    with Session.open(path) as session:
        leaf = session.leaf_id
    done = run_limited(path.stat().st_size - 100, "session", "fork", str(path), leaf, "-o", str(out))
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1, done.stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]


@pytest.mark.parametrize("ignore_signal", [True, False], ids=["disk-full", "killed-mid-write"])
def test_repair_output_is_whole_or_absent(ignore_signal: bool, tmp_path: Path) -> None:
    path = new_conversation(tmp_path / "s.jsonl", turns=4)
    with open(path, "ab") as damaged:
        damaged.write(b'{"type":"message","id":"torn')
    out = tmp_path / "repaired.jsonl"
    done = run_limited(path.stat().st_size // 2, "session", "doctor", str(path), "--repair", "-o", str(out),
                       ignore_signal=ignore_signal)
    assert done.returncode == (2 if ignore_signal else -25), done.stderr  # 25: SIGXFSZ
    assert not out.exists()


def test_write_new_file_never_replaces_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er" / "out.jsonl"
    write_new_file(target, b"one\n")
    assert target.read_bytes() == b"one\n" and (target.stat().st_mode & 0o777) == 0o600
    with pytest.raises(Exception, match="already exists"):
        write_new_file(target, b"two\n")
    assert target.read_bytes() == b"one\n"
    assert [p.name for p in target.parent.iterdir()] == ["out.jsonl"]


def test_a_write_error_is_a_session_file_error(tmp_path: Path) -> None:
    with pytest.raises(SessionFileError):
        write_new_file(Path("/proc/no-such-dir-for-pi-compact/out.jsonl"), b"x")
