"""Running a shell command for the agent (the ``bash`` tool) or for the user (``!cmd``), as pi runs them.

The command runs in ``bash -c`` in its own process group, so Ctrl-C reaches the chat and not the child: the
chat then kills the whole group and keeps what was printed so far. Output (stdout and stderr together) goes
to a temporary file first; when it is longer than the model should read (pi's 2,000 lines or 50 KB), only the
tail is returned and the file is kept, its path given as ``fullOutputPath``. Otherwise the file is removed.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..store.jsonl import now_ms

MAX_LINES = 2000
"""pi's ``DEFAULT_MAX_LINES``: longest output, in lines, a tool returns to the model."""
MAX_BYTES = 50 * 1024
"""pi's ``DEFAULT_MAX_BYTES``: longest output, in UTF-8 bytes, a tool returns to the model."""
KILL_GRACE_S = 0.5
"""How long a killed command gets to exit after SIGTERM before SIGKILL."""
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


@dataclass(frozen=True)
class Truncation:
    """How a text was cut to fit ``MAX_LINES``/``MAX_BYTES`` (pi's ``TruncationResult``, fewer fields)."""

    content: str
    truncated: bool
    truncated_by: str | None
    """``lines``, ``bytes`` or ``None``."""
    total_lines: int
    total_bytes: int
    output_lines: int
    output_bytes: int
    max_lines: int = MAX_LINES
    max_bytes: int = MAX_BYTES

    def details(self) -> dict:
        """The ``details.truncation`` object stored with a tool result (pi's field names)."""
        return {
            "truncated": self.truncated,
            "truncatedBy": self.truncated_by,
            "totalLines": self.total_lines,
            "totalBytes": self.total_bytes,
            "outputLines": self.output_lines,
            "outputBytes": self.output_bytes,
            "maxLines": self.max_lines,
            "maxBytes": self.max_bytes,
        }


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def truncate_head(text: str, max_lines: int = MAX_LINES, max_bytes: int = MAX_BYTES) -> Truncation:
    """The first whole lines of ``text`` that fit both limits (for ``read``)."""
    lines = text.split("\n")
    kept, size, by = [], 0, None
    for line in lines:
        if len(kept) == max_lines:
            by = "lines"
            break
        cost = _utf8_len(line) + (1 if kept else 0)
        if size + cost > max_bytes:
            by = "bytes"
            break
        kept.append(line)
        size += cost
    return Truncation("\n".join(kept), by is not None, by, len(lines), _utf8_len(text), len(kept), size,
                      max_lines, max_bytes)


def truncate_tail(text: str, max_lines: int = MAX_LINES, max_bytes: int = MAX_BYTES) -> Truncation:
    """The last lines of ``text`` that fit both limits (for command output: the end is what matters).

    When even the last line is too long, its end is kept.
    """
    lines = text.split("\n")
    kept: list[str] = []
    size, by = 0, None
    for line in reversed(lines):
        if len(kept) == max_lines:
            by = "lines"
            break
        cost = _utf8_len(line) + (1 if kept else 0)
        if size + cost > max_bytes:
            by = "bytes"
            if not kept:
                tail = line.encode("utf-8", "surrogatepass")[-max_bytes:].decode("utf-8", "ignore")
                kept.append(tail)
                size = _utf8_len(tail)
            break
        kept.append(line)
        size += cost
    kept.reverse()
    return Truncation("\n".join(kept), by is not None, by, len(lines), _utf8_len(text), len(kept), size,
                      max_lines, max_bytes)


def clean_output(raw: bytes) -> str:
    """Command output as text: UTF-8 (bad bytes replaced), terminal escapes removed, CR-LF as LF."""
    text = raw.decode("utf-8", "replace")
    text = _ANSI.sub("", text).replace("\r\n", "\n")
    return text.rstrip("\n")


@dataclass(frozen=True)
class BashRun:
    """What running one command produced."""

    command: str
    output: str
    """The output returned to the model: all of it, or its tail when ``truncated``."""
    exit_code: int | None
    """``None`` when the command was killed (cancelled or timed out)."""
    cancelled: bool
    timed_out: bool
    truncation: Truncation
    full_output_path: str | None
    """The file holding the whole output, kept only when the output was truncated."""

    @property
    def truncated(self) -> bool:
        return self.truncation.truncated


def run_bash(command: str, cwd: str, *, timeout: float | None = None, max_bytes: int = MAX_BYTES) -> BashRun:
    """Run ``command`` with ``bash -c`` in ``cwd``; Ctrl-C (KeyboardInterrupt) cancels it, never raises.

    Output longer than ``max_bytes`` (or :data:`MAX_LINES`) is cut to its tail."""
    handle, path = tempfile.mkstemp(prefix="pi-bash-", suffix=".log")
    try:
        with os.fdopen(handle, "wb") as sink:
            with held_interrupts() as early:  # a Ctrl-C during the start still finds a process to stop
                process = subprocess.Popen(
                    ["bash", "-c", command], cwd=cwd, stdin=subprocess.DEVNULL, stdout=sink,
                    stderr=subprocess.STDOUT, start_new_session=True,
                )
            try:
                cancelled, timed_out = (True, False) if early else _wait(process, timeout)
            finally:
                if process.poll() is None:
                    _kill_group(process)
        with open(path, "rb") as source:
            output = clean_output(source.read())
    except BaseException:
        _remove(path)
        raise
    truncation = truncate_tail(output, max_bytes=max_bytes)
    exit_code = None if cancelled or timed_out else process.returncode
    if not truncation.truncated:
        _remove(path)
    return BashRun(command, truncation.content, exit_code, cancelled, timed_out, truncation,
                   path if truncation.truncated else None)


@contextmanager
def held_interrupts() -> Iterator[list[int]]:
    """Hold Ctrl-C (SIGINT) back during the block; the list says whether one came. Main thread only."""
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield received
    finally:
        signal.signal(signal.SIGINT, previous)


def _wait(process: subprocess.Popen, timeout: float | None) -> tuple[bool, bool]:
    """``(cancelled, timed_out)`` once the process ended or was killed."""
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        return False, True
    except KeyboardInterrupt:
        _kill_group(process)
        return True, False
    return False, False


def _kill_group(process: subprocess.Popen) -> None:
    """SIGTERM the command's process group, then SIGKILL what is left; wait for the shell itself."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except (ProcessLookupError, PermissionError):
            break
        deadline = time.monotonic() + KILL_GRACE_S
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        if process.poll() is not None:
            break
    process.wait()


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def bash_execution_message(run: BashRun, *, exclude_from_context: bool = False) -> dict:
    """The ``bashExecution`` message pi stores for a user's ``!cmd`` (``!!cmd``: excluded from context)."""
    message: dict = {"role": "bashExecution", "command": run.command, "output": run.output}
    if run.exit_code is not None:  # pi leaves it undefined for a killed command
        message["exitCode"] = run.exit_code
    message.update({"cancelled": run.cancelled, "truncated": run.truncated})
    if run.full_output_path:
        message["fullOutputPath"] = run.full_output_path
    message["timestamp"] = now_ms()
    if exclude_from_context:
        message["excludeFromContext"] = True
    return message


__all__ = [
    "MAX_BYTES",
    "MAX_LINES",
    "BashRun",
    "Truncation",
    "bash_execution_message",
    "clean_output",
    "held_interrupts",
    "run_bash",
    "truncate_head",
    "truncate_tail",
]
