"""The side-file lock: exclusive across threads and processes, refused at once when held, and its file
removed on release without letting two holders in (the unlink race), with real files and processes."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from pi_compact import list_sessions
from pi_compact.store.jsonl import dumps_line
from pi_compact.store.locks import try_exclusive

PROJECT = Path(__file__).resolve().parents[2]

TRY_ONCE = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from pi_compact.store.locks import try_exclusive

    with try_exclusive(Path(sys.argv[1])) as acquired:
        print("acquired" if acquired else "busy")
    """
)


def try_in_another_process(path: Path) -> str:
    done = subprocess.run([sys.executable, "-c", TRY_ONCE, str(path)], cwd=PROJECT, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode().strip()


def test_the_file_exists_owner_only_while_held_and_is_removed_on_release(tmp_path) -> None:
    lock = tmp_path / ".s.jsonl.compact.lock"
    old = os.umask(0)
    try:
        with try_exclusive(lock) as acquired:
            assert acquired
            assert stat.S_IMODE(lock.stat().st_mode) == 0o600
    finally:
        os.umask(old)
    assert not lock.exists()
    with try_exclusive(lock) as acquired:  # and it can be taken again
        assert acquired
    assert list(tmp_path.iterdir()) == []


def test_a_second_process_is_refused_while_held_and_served_after(tmp_path) -> None:
    lock = tmp_path / ".s.jsonl.compact.lock"
    with try_exclusive(lock) as acquired:
        assert acquired
        assert try_in_another_process(lock) == "busy"
        assert lock.exists()  # the refused taker leaves the holder's file alone
    assert try_in_another_process(lock) == "acquired"
    assert not lock.exists()


def test_a_second_taker_in_this_process_is_refused_and_leaves_the_file(tmp_path) -> None:
    lock = tmp_path / ".s.jsonl.compact.lock"
    with try_exclusive(lock) as first:
        with try_exclusive(lock) as second:
            assert (first, second) == (True, False)
        refused: list[bool] = []
        thread = threading.Thread(target=lambda: refused.append(_take(lock)))
        thread.start()
        thread.join(30)
        assert refused == [False] and lock.exists()
    assert not lock.exists()


def _take(lock: Path) -> bool:
    with try_exclusive(lock) as acquired:
        return acquired


def test_the_file_is_removed_when_the_holder_raises(tmp_path) -> None:
    lock = tmp_path / ".s.jsonl.compact.lock"
    with pytest.raises(RuntimeError):
        with try_exclusive(lock) as acquired:
            assert acquired
            raise RuntimeError("boom")
    assert not lock.exists()
    assert _take(lock)


def test_a_file_left_by_an_older_version_is_taken_and_removed(tmp_path) -> None:
    lock = tmp_path / ".s.jsonl.compact.lock"
    lock.write_bytes(b"")
    os.chmod(lock, 0o600)
    with try_exclusive(lock) as acquired:
        assert acquired and lock.exists()
    assert not lock.exists()


def test_a_holder_whose_file_was_deleted_by_hand_leaves_the_next_holders_file(tmp_path) -> None:
    lock = tmp_path / ".s.jsonl.compact.lock"
    first, second = try_exclusive(lock), try_exclusive(lock)
    assert first.__enter__()
    lock.unlink()  # by hand: nothing excludes a new taker any more, and nothing can be done about that
    assert second.__enter__()
    first.__exit__(None, None, None)
    assert lock.exists()  # the first holder's release did not remove the second holder's file
    assert try_in_another_process(lock) == "busy"
    second.__exit__(None, None, None)
    assert not lock.exists()


def test_a_missing_folder_is_an_error(tmp_path) -> None:
    with pytest.raises(FileNotFoundError):
        with try_exclusive(tmp_path / "gone" / ".s.jsonl.compact.lock"):
            pass


def test_a_held_lock_file_is_not_listed_as_a_session(tmp_path) -> None:
    session = tmp_path / "s.jsonl"
    session.write_bytes(dumps_line({"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z",
                                    "cwd": "/p"}))
    with try_exclusive(tmp_path / ".s.jsonl.compact.lock") as acquired:
        assert acquired
        assert [info.path.name for info in list_sessions(tmp_path)] == ["s.jsonl"]


# -- the unlink race: never two holders at once ------------------------------------------------------------------

HAMMER = textwrap.dedent(
    """
    import os, sys, threading
    from pathlib import Path
    from pi_compact.store.locks import try_exclusive

    lock, marker, counter = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    threads, rounds = int(sys.argv[4]), int(sys.argv[5])
    failures = []

    def critical_section():
        # A second holder would find the marker there: O_EXCL fails instead of silently sharing.
        try:
            fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            failures.append("two holders at once")
            return
        os.close(fd)
        value = int(counter.read_text())
        os.sched_yield()
        counter.write_text(str(value + 1))
        marker.unlink()

    def worker():
        done = 0
        while done < rounds:
            with try_exclusive(lock) as acquired:
                if acquired:
                    critical_section()
                    done += 1
            if not acquired:
                os.sched_yield()

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    print(len(failures))
    """
)


def test_many_processes_and_threads_never_hold_it_at_once(tmp_path) -> None:
    lock, marker, counter = tmp_path / ".s.jsonl.compact.lock", tmp_path / "marker", tmp_path / "counter"
    counter.write_text("0")
    processes, threads, rounds = 4, 4, 60
    children = [subprocess.Popen([sys.executable, "-c", HAMMER, str(lock), str(marker), str(counter), str(threads),
                                  str(rounds)], cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for _ in range(processes)]
    outputs = [child.communicate(timeout=300) for child in children]
    for child, (out, err) in zip(children, outputs):
        assert child.returncode == 0, err.decode()
        assert out.decode().strip() == "0", "two holders at once"
    assert int(counter.read_text()) == processes * threads * rounds  # no lost update
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counter"]  # no lock file, no marker left
