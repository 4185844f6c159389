"""How the agent's tools touch files: bounded reads of regular files only, writes through symlinks, confinement.

A model chooses the paths, so nothing here trusts them: ``read("/dev/zero")`` or a FIFO must come back as an
error the model can read, never a hang or a ``MemoryError`` that ends the chat. Writes go to a private
temporary file (mode 0600 while it is written) that takes the target's mode just before it is renamed over
the target; a symlink is written through, as pi does, instead of being replaced by a regular file.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

MAX_READ_BYTES = 64 * 1024 * 1024
"""The most a tool loads from one file; the model is told to use bash (sed, head) for bigger ones."""
_DEFAULT_FILE_MODE = 0o666


class FileRefused(Exception):
    """The path is not something a tool reads or writes (a device, a FIFO, too big, outside the confinement)."""


def read_regular(path: Path, limit: int = MAX_READ_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; :class:`FileRefused` for anything else.

    Opened non-blocking, so a FIFO is refused instead of waiting for a writer that never comes.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"Not a regular file: {path} ({_kind(info.st_mode)})")
        if info.st_size > limit:
            raise FileRefused(f"File too large: {path} is {info.st_size:,} bytes, over the {limit:,} bytes a tool "
                              "reads; use bash (sed -n, head, tail) to look at parts of it")
        with os.fdopen(fd, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)  # the file may have grown since fstat
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FileRefused(f"File too large: {path} grew past the {limit:,} bytes a tool reads")
    return data


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def replace_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all, through a symlink if ``path`` is one.

    The temporary file is created 0600 next to the real target (so the rename stays on one filesystem), gets
    the target's mode (a new file: 0666 less the umask) only once its content is written, then replaces it.
    """
    target = Path(os.path.realpath(path))
    try:
        current = target.stat()
    except FileNotFoundError:
        current = None
    if current is not None and not stat.S_ISREG(current.st_mode):
        raise FileRefused(f"Not a regular file: {path} ({_kind(current.st_mode)})")
    mode = stat.S_IMODE(current.st_mode) if current is not None else _DEFAULT_FILE_MODE & ~_umask()
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".pi-tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
            os.fchmod(stream.fileno(), mode)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process umask, read without changing it (``os.umask`` would race the other threads)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def confined(path: Path, root: str) -> Path:
    """``path`` with symlinks and ``..`` resolved, if it lies inside ``root`` (itself resolved); else refused."""
    real = Path(os.path.realpath(path))
    base = os.path.realpath(root)
    if str(real) != base and not str(real).startswith(base.rstrip(os.sep) + os.sep):
        raise FileRefused(f"{path} is outside the working directory {base} (chat runs with --confine)")
    return real


__all__ = ["MAX_READ_BYTES", "FileRefused", "confined", "read_regular", "replace_file"]
