"""Running ``pi-compact`` for the reliability tests: as ``python -m pi_compact`` in a fresh interpreter, or
through the same ``main()`` in a process forked from this one (the interpreter start is paid once).

Both give the exit status, stdout and stderr of one command in its own process, so a crash, a hang (killed
at the timeout) or a traceback is seen exactly as a user would see it.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

_UNSET_ENV = ("FORCE_COLOR", "NO_COLOR", "COLUMNS", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL",
              "OPENAI_BASE_URL")


@dataclass(frozen=True)
class Run:
    args: tuple[str, ...]
    returncode: int
    stdout: bytes
    stderr: bytes
    seconds: float
    timed_out: bool = False

    def describe(self) -> str:
        tail = self.stderr.decode("utf-8", "replace")[-600:]
        return f"pi-compact {' '.join(self.args)} → exit {self.returncode} in {self.seconds:.1f}s; stderr: {tail!r}"


def clean_env(**extra: str | None) -> dict[str, str]:
    """This environment without colour forcing, terminal size or provider credentials."""
    env = {k: v for k, v in os.environ.items() if k not in _UNSET_ENV}
    env.update({k: v for k, v in extra.items() if v is not None})
    for key in [k for k, v in extra.items() if v is None]:
        env.pop(key, None)
    return env


def run_cli(*args: str, timeout: float = 120, env: dict[str, str] | None = None) -> Run:
    """``python -m pi_compact ARGS`` in a fresh interpreter; a command still running at ``timeout`` is killed."""
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "pi_compact", *args], capture_output=True, timeout=timeout,
                              env=env if env is not None else clean_env(), stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        return Run(args, -9, exc.stdout or b"", exc.stderr or b"", time.monotonic() - started, timed_out=True)
    return Run(args, done.returncode, done.stdout, done.stderr, time.monotonic() - started)


def run_forked(*args: str, timeout: float = 120) -> Run:
    """``main(ARGS)`` in a child forked from this process, with its own stdin, stdout and stderr."""
    _prewarm()
    started = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:
            _child(args, out.fileno(), err.fileno())
        status, timed_out = _wait(pid, timeout)
        out.seek(0)
        err.seek(0)
        code = os.waitstatus_to_exitcode(status) if status is not None else -9
        return Run(args, code, out.read(), err.read(), time.monotonic() - started, timed_out)


def _prewarm() -> None:
    """Import what every command imports, once, here: each child then starts with it loaded."""
    import typer

    import pi_compact.cli.render  # noqa: F401
    import pi_compact.store.repair  # noqa: F401
    from pi_compact.cli.app import app

    typer.main.get_command(app).make_context("pi-compact", ["session", "show", "x"], resilient_parsing=True)


def _child(args: tuple[str, ...], out_fd: int, err_fd: int) -> None:
    """Become a fresh ``pi-compact`` process as far as the command can tell; never returns."""
    code = 70
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        sys.stdin = open(0, closefd=False)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False, buffering=1)
        for key in _UNSET_ENV:
            os.environ.pop(key, None)
        _default_warning_filters()
        code = _main(args)
    except BaseException:  # noqa: BLE001 - a child must never return into pytest
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:  # noqa: BLE001
                pass
        os._exit(code)


def _main(args: tuple[str, ...]) -> int:
    from pi_compact.cli import main

    try:
        main(list(args))
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1
    return 0


def _default_warning_filters() -> None:
    """A fresh interpreter's filters (pytest's ``error`` filter is for the tests, not the command)."""
    import warnings

    warnings.resetwarnings()
    for category in (ResourceWarning, ImportWarning, PendingDeprecationWarning, DeprecationWarning):
        warnings.simplefilter("ignore", category)


def _wait(pid: int, timeout: float) -> tuple[int | None, bool]:
    deadline = time.monotonic() + timeout
    delay = 0.001
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status, False
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None, True
        time.sleep(delay)
        delay = min(delay * 2, 0.02)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def assert_clean_outcome(run: Run, expected_exit: int | None = None) -> None:
    """Exit 0 (warnings allowed), 1 (doctor: problems) or 2 with exactly one line; never a traceback or hang."""
    assert not run.timed_out, run.describe()
    assert b"Traceback" not in run.stderr and b"Traceback" not in run.stdout, run.describe()
    assert run.returncode in (0, 1, 2), run.describe()
    if run.returncode == 2:
        assert run.stderr.count(b"\n") == 1 and run.stderr.startswith(b"pi-compact: error: "), run.describe()
    if expected_exit is not None:
        assert run.returncode == expected_exit, run.describe()


__all__ = ["Run", "assert_clean_outcome", "clean_env", "run_cli", "run_forked", "sha256"]
