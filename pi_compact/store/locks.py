"""A non-blocking, cross-process exclusive lock on a side file, for work that must not run twice at once.

Compaction holds it: a second compaction of the same session, in this process or another, is refused at
once instead of waiting and then summarizing a conversation that was just compacted.

The side file exists only while the lock is held: the holder removes it before letting go, so no
``.<name>.compact.lock`` files pile up next to the sessions. Removing a lock file is racy unless every
taker checks, after its ``flock`` succeeded, that the path still names the file it locked: a process that
opened the file just before the holder removed it would otherwise lock the removed file while another
process creates and locks a new one at the same path, and both would think they hold the lock. So:

* a taker opens (creating if needed) the path, ``flock``\\ s it, then compares ``fstat`` of its descriptor
  with ``stat`` of the path; a different file, or none, means it locked a removed file: it lets go and
  starts over (a bounded number of times, since every retry means somebody else just released the lock);
* a taker whose ``flock`` is refused reports "busy" only if the path still names the file it tried, i.e.
  the lock is really held; otherwise the holder was just letting go, and it starts over too;
* the holder removes the path while it still holds the lock, and only then unlocks and closes.
"""

from __future__ import annotations

import errno
import fcntl
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .writer import FILE_MODE

ATTEMPTS = 100
"""How many times a taker starts over after finding it raced with a holder letting go."""


@contextmanager
def try_exclusive(path: Path) -> Iterator[bool]:
    """Yield ``True`` while holding the lock, ``False`` when somebody else holds it.

    The file at ``path`` (mode 0600) exists while the lock is held and is removed when it is released.
    """
    fd = _acquire(path)
    if fd is None:
        yield False
        return
    try:
        yield True
    finally:
        _release(path, fd)


def _acquire(path: Path) -> int | None:
    """A descriptor of the file at ``path``, locked and still at ``path``; ``None`` if the lock is held."""
    for _ in range(ATTEMPTS):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
        try:
            locked = _try_flock(fd)
            current = _is_at(fd, path)
        except BaseException:
            os.close(fd)
            raise
        if locked and current:
            return fd
        os.close(fd)
        if current:
            return None  # really held: its holder has not let go yet
        # Locked or not, that file was removed by a holder letting go: try the one now at the path.
    return None


def _try_flock(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno not in (errno.EAGAIN, errno.EACCES):
            raise
        return False
    return True


def _release(path: Path, fd: int) -> None:
    """Remove the lock file while still holding it, then let go."""
    try:
        # Only if it is still ours: somebody may have deleted it by hand and another taker made a new one.
        if _is_at(fd, path):
            os.unlink(path)
    except FileNotFoundError:
        pass
    finally:
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)  # even if a forked child shares the descriptor
        finally:
            os.close(fd)


def _is_at(fd: int, path: Path) -> bool:
    """Whether ``path`` names the file open at ``fd``."""
    try:
        named = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)
