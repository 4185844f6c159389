"""A non-blocking, cross-process exclusive lock on a side file, for work that must not run twice at once.

Compaction holds it: a second compaction of the same session, in this process or another, is refused at
once instead of waiting and then summarizing a conversation that was just compacted.
"""

from __future__ import annotations

import errno
import fcntl
import os
from contextlib import contextmanager
from pathlib import Path

from .writer import FILE_MODE


@contextmanager
def try_exclusive(path: Path):
    """Yield ``True`` while holding the lock, ``False`` when somebody else holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
