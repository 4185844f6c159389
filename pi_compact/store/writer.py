"""Appending lines to a session file: one writer at a time, durable before the call returns.

Every append takes an exclusive ``flock`` on the file, looks at what other processes appended since we last
looked (the caller indexes it), cuts a torn tail left by a crash, writes one line with a single ``write``,
and ``fsync``s unless the caller opted out. Earlier bytes are never rewritten; the one exception, writing a
migrated v1/v2 file in the current format, goes through a temporary file and an atomic rename and keeps the
original beside it as a backup.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import time
from contextlib import contextmanager
from pathlib import Path

from ..errors import ConcurrentModificationError, LockTimeoutError, SessionFileError, UsageError

FILE_MODE = 0o600
DIR_MODE = 0o700
LOCK_TIMEOUT_SECONDS = 30.0


def ensure_private_dir(path: Path) -> list[Path]:
    """``mkdir -p`` with owner-only permissions on every directory it creates (``Path.mkdir`` gives the
    missing parents the default mode), leaving existing ones alone; returns those it created."""
    missing: list[Path] = []
    while not path.is_dir():
        missing.append(path)
        if path.parent == path:
            break
        path = path.parent
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=DIR_MODE)
        except FileExistsError:
            if not directory.is_dir():
                raise
    return missing


class FileWriter:
    """The open descriptor of one session file, and the lock protocol around every write."""

    def __init__(self, path: Path, *, durable: bool = True, lock_timeout: float = LOCK_TIMEOUT_SECONDS):
        self.path = path
        self.durable = durable
        self.lock_timeout = lock_timeout
        self._fd: int | None = None
        self._unsynced_dirs: list[Path] = []
        """Directories whose new entries (this file, new folders) are not on disk yet: synced on a write."""

    def _open(self) -> int:
        if self._fd is None:
            created = ensure_private_dir(self.path.parent)
            flags = os.O_RDWR | os.O_APPEND | os.O_CLOEXEC
            try:
                try:
                    self._fd = os.open(self.path, flags | os.O_CREAT | os.O_EXCL, FILE_MODE)
                    self._unsynced_dirs = [self.path.parent, *(directory.parent for directory in created)]
                except FileExistsError:
                    self._fd = os.open(self.path, flags)
            except OSError as exc:
                raise SessionFileError(f"cannot open {self.path} for writing: {exc.strerror}") from None
        return self._fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @contextmanager
    def locked(self, *, follow_replacement: bool = False):
        """Hold the file's exclusive lock; yields the current file size.

        A file replaced since it was opened is refused, unless ``follow_replacement``: then the new file at
        the path is opened and locked instead (a caller about to read the whole file again anyway, as one
        holding an unmigrated file that another process migrated).
        """
        fd = self._lock_current(follow_replacement)
        try:
            yield os.fstat(fd).st_size
        finally:
            if self._fd == fd:  # after replace_contents the old descriptor is closed, which released the lock
                fcntl.flock(fd, fcntl.LOCK_UN)

    def _lock_current(self, follow_replacement: bool) -> int:
        for _ in range(100):  # each retry means another process replaced the file meanwhile
            fd = self._open()
            self._acquire(fd)
            try:
                self._check_same_file(fd)
                return fd
            except ConcurrentModificationError:
                fcntl.flock(fd, fcntl.LOCK_UN)
                if not follow_replacement or not self.path.exists():
                    raise
                self.close()
        raise ConcurrentModificationError(f"{self.path} kept being replaced by other processes; open it again")

    def _acquire(self, fd: int) -> None:
        deadline = time.monotonic() + self.lock_timeout
        delay = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
            if time.monotonic() > deadline:
                raise LockTimeoutError(f"{self.path} stayed locked for {self.lock_timeout:.0f} s")
            time.sleep(delay)
            delay = min(delay * 2, 0.05)

    def _check_same_file(self, fd: int) -> None:
        """A rename over our file (another process migrating it) would leave us writing to a ghost."""
        try:
            on_disk = os.stat(self.path)
        except FileNotFoundError:
            raise ConcurrentModificationError(f"{self.path} was removed while open") from None
        mine = os.fstat(fd)
        if (on_disk.st_ino, on_disk.st_dev) != (mine.st_ino, mine.st_dev):
            raise ConcurrentModificationError(f"{self.path} was replaced by another process; open it again")

    def read_range(self, start: int, end: int) -> bytes:
        return os.pread(self._open(), end - start, start)

    def truncate(self, size: int) -> None:
        os.ftruncate(self._open(), size)

    def write(self, payload: bytes) -> None:
        """Write ``payload`` at the end in one call (O_APPEND), then fsync when durable.

        Call while holding :meth:`locked`. A write that fails part way (a full disk, a file size limit) is cut
        off at once, so no torn line is left for the next append or for another reader to find.
        """
        fd = self._open()
        size = os.fstat(fd).st_size
        try:
            _write_all(fd, payload)
            if self.durable:
                os.fsync(fd)
                while self._unsynced_dirs:  # a new file survives a crash only once its directory entry does
                    _fsync_dir(self._unsynced_dirs.pop())
        except OSError as exc:
            self._undo(fd, size)
            raise SessionFileError(f"cannot write {self.path}: {exc.strerror}; nothing was written") from None

    def _undo(self, fd: int, size: int) -> None:
        """Cut what a failed write left; a file it was creating is removed rather than left empty."""
        try:
            os.ftruncate(fd, size)
            if size == 0 and self._unsynced_dirs:
                os.unlink(self.path)
                self.close()
        except OSError:
            pass  # the error being reported is the write's

    def replace_contents(self, payload: bytes, backup_suffix: str) -> Path:
        """Atomically replace the file with ``payload``, keeping the old file as ``<name><backup_suffix>``.

        Call while holding :meth:`locked`; the writer reopens on the new file afterwards. An existing backup
        is never overwritten: the next free ``<name><backup_suffix>.N`` is used instead.
        """
        backup = _free_name(self.path.with_name(self.path.name + backup_suffix))
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, FILE_MODE)
        try:
            try:
                _write_all(fd, payload)
                os.fsync(fd)
            finally:
                os.close(fd)
            try:
                os.link(self.path, backup)
            except OSError:  # a file system without hard links
                shutil.copy2(self.path, backup)
            os.replace(temp, self.path)
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
        _fsync_dir(self.path.parent)
        return backup

    def reopen(self) -> None:
        self.close()
        self._open()


def write_new_file(path: Path, data: bytes) -> None:
    """Create ``path`` holding ``data``, whole or not at all: written to a temporary file beside it, fsynced,
    then linked into place. A crash or a full disk leaves no partial ``path``; an existing one is never
    replaced (``UsageError``), even one that appears meanwhile."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        ensure_private_dir(path.parent)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, FILE_MODE)
    except OSError as exc:
        raise SessionFileError(f"cannot create {path}: {exc.strerror}") from None
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        link_new(temp, path)
    except OSError as exc:
        raise SessionFileError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        temp.unlink(missing_ok=True)
    _fsync_dir(path.parent)


def link_new(temp: Path, path: Path, *, hint: str = "") -> None:
    """Give the finished file ``temp`` its name ``path``, refusing (with ``hint`` after the message) when
    anything is there already, even if it appeared a moment ago."""
    taken = f"{path} already exists; choose a new file{hint}"
    try:
        os.link(temp, path)  # fails if path exists: never replaces a file
    except FileExistsError:
        raise UsageError(taken) from None
    except OSError:  # a file system without hard links
        if path.exists() or path.is_symlink():
            raise UsageError(taken) from None
        os.rename(temp, path)


def _free_name(path: Path) -> Path:
    candidate, n = path, 0
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.name}.{n}")
    return candidate


def _write_all(fd: int, payload: bytes) -> None:
    """``os.write`` may write less than asked (large payloads, signals); loop until everything is out."""
    view = memoryview(payload)
    while view:
        view = view[os.write(fd, view) :]


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
