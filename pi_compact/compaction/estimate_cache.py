"""A persistent cache of token estimates per session line, so that a session shown before is shown fast.

``session show`` puts an estimate beside every message, and on a 100k-entry session estimating is nine tenths
of the command (:mod:`~pi_compact.compaction.tokens` costs tens of µs per KB and reads every character). A
session only grows, so showing it again estimates the same lines again: here each figure is kept under a key
of its line's bytes and read back the next time, and only lines not seen before are estimated.

What makes a stale figure impossible:

- the key is the line's content: its CRC-32 and its length (the entry's id and timestamp are in the line).
  An edited line is estimated again, and a file rewritten (by pi's migration, a copy, a repair) keeps the
  figures of the lines it kept; a wrong figure would need an edited line to take the length and CRC of
  another line of the session (one chance in 2^32 per line of that length);
- the file holds the estimator's version, a hash of the bytes of ``tokens.py``, ``token_bounds.py`` and
  ``token_tables.py``, Python's Unicode version (NFKC) and the byte order: a cache of any other estimator is
  ignored and replaced, never read;
- a file that is truncated, corrupt (its own CRC), foreign or unreadable is ignored; one that cannot be
  written leaves the command as it was without the cache, with one warning.

Where: ``$PI_COMPACT_CACHE_DIR`` (empty: no cache), else ``$XDG_CACHE_HOME/pi-compact``, else
``~/.cache/pi-compact``; never beside the session. One file per session, named by a hash of its resolved
path, holding only numbers (keys and figures, 16 bytes a line: 1.6 MB for 100,000 messages) and no text of
the session. Files are 0600 in a 0700 folder (a folder another user could write to is not used), written
whole to a temporary file and renamed over the old one (two commands writing at once leave one of their
files, each valid), and hold the keys of the lines the session has now, no more. Past :data:`MAX_FILES`
files or :data:`MAX_BYTES` in all, the least recently used files of other sessions are removed.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
import struct
import sys
import tempfile
import time
import unicodedata
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zlib import crc32

CACHE_DIR_ENV = "PI_COMPACT_CACHE_DIR"
MAX_FILES = 256
"""Cache files kept at most (one per session shown); the least recently used go first."""
MAX_BYTES = 64 * 1024 * 1024
"""Bytes of cache files kept at most in all (40 sessions of 100,000 messages)."""
STALE_TEMP_SECONDS = 3600
"""A temporary file this old was left by a command that died while writing: removed when pruning."""

_MAGIC = b"PICOMPACT-EST-1\n"
_HEAD = struct.Struct("<16s16sQI4x")
"""magic, estimator version, number of lines, CRC-32 of the keys and figures that follow."""
_SUFFIX = ".est"
_NONE = -1
"""The figure stored for a line the estimate gives ``None`` (an entry that is no message, a broken message)."""
ESTIMATOR_FILES = ("tokens.py", "token_bounds.py", "token_tables.py")
"""The estimator's source files, whose bytes make its version."""


def cache_folder(environ: dict[str, str] | os._Environ = os.environ) -> Path | None:
    """Where estimate caches live; ``None`` when ``$PI_COMPACT_CACHE_DIR`` is set and empty (no cache)."""
    chosen = environ.get(CACHE_DIR_ENV)
    if chosen is not None:
        return Path(chosen).expanduser() if chosen else None
    xdg = environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"  # XDG: a relative value is ignored
    return base / "pi-compact"


@functools.lru_cache(maxsize=1)
def estimator_version() -> bytes:
    """16 bytes that change whenever the estimate may: a hash of the estimator's source files (any edit, even
    of a comment, starts a new cache: a stale figure is worse than a cold show), Python's Unicode version and
    this machine's byte order (the figures are stored in it)."""
    return version_of(Path(__file__).resolve().parent)


def version_of(folder: Path) -> bytes:
    """:func:`estimator_version` of the estimator whose source files are in ``folder``."""
    digest = hashlib.blake2b(_MAGIC, digest_size=16)
    for name in ESTIMATOR_FILES:
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes())
    digest.update(f"{unicodedata.unidata_version} {sys.byteorder}".encode())
    return digest.digest()


def line_key(line: bytes | memoryview) -> int:
    """The cache key of one line: its CRC-32, then its length (the id, timestamp and text are in the line)."""
    return crc32(line) << 32 | len(line) & 0xFFFFFFFF


class EstimateCache:
    """The figures of one session's lines: read at :meth:`open`, used and completed by :meth:`keyed`'s
    function, written back by :meth:`save` when they changed. Never raises an ``OSError``: a cache that cannot
    be read is empty, one that cannot be written says so in :attr:`problem` (one sentence, for a warning)."""

    def __init__(self, file: Path | None, known: dict[int, int] | None = None) -> None:
        self.file = file
        """The cache file; ``None``: no cache (turned off), every figure computed."""
        self.problem: str | None = None
        self._known = known or {}
        self._seen: dict[int, int] = {}
        """The figures of the lines met this time: what the file holds after :meth:`save`."""
        self._missed = 0

    @classmethod
    def open(cls, session_path: str | os.PathLike, folder: Path | None | object = ...) -> EstimateCache:
        """The cache of the session at ``session_path`` in ``folder`` (default :func:`cache_folder`; ``None``:
        no cache). Whatever is wrong with the file, this returns a cache (an empty one)."""
        where = cache_folder() if folder is ... else folder
        if where is None:
            return cls(None)
        try:
            estimator_version()
        except OSError:  # installed without its sources: no version to trust, so no cache
            return cls(None)
        name = hashlib.blake2b(os.fsencode(os.path.realpath(session_path)), digest_size=16).hexdigest() + _SUFFIX
        cache = cls(Path(where) / name)  # type: ignore[arg-type]
        cache.problem = _unsafe(cache.file.parent)  # type: ignore[union-attr]
        if cache.problem is not None:
            cache.file = None
            return cache
        cache._known = _read(cache.file)  # type: ignore[arg-type]
        return cache

    @property
    def hits(self) -> int:
        """Lines whose figure was read from the cache (not estimated) so far."""
        return len(self._seen) - self._missed

    def keyed(self, tokens: Callable[[dict], int | None]) -> Callable[[dict, Any], int | None]:
        """``tokens(entry)`` as a function of the entry and its line's bytes, read from the cache when the line
        was seen before. A line of ``None`` (an entry of a file migrated in memory) is not cached. Only the
        figures of ``tokens`` that :func:`estimator_version` describes may be cached: the caller's promise."""
        if self.file is None:
            return lambda entry, line=None: tokens(entry)
        known, seen = self._known.get, self._seen

        def cached(entry: dict, line: Any = None) -> int | None:
            if line is None or entry.get("type") != "message":  # nothing estimated: nothing to keep
                return tokens(entry)
            key = crc32(line) << 32 | len(line) & 0xFFFFFFFF  # line_key, inlined: once per message of the file
            figure = known(key)
            if figure is None:
                value = tokens(entry)
                figure = _NONE if value is None else value
                self._missed += 1
            seen[key] = figure
            return None if figure == _NONE else figure

        return cached

    def save(self) -> None:
        """Write the figures of the lines met, when they differ from the file's; prune old caches after."""
        if self.file is None:
            return
        if self._seen == self._known:
            _touch(self.file)  # used: the last to be pruned
            return
        try:
            _write(self.file, self._seen)
        except OSError as exc:
            self.problem = _problem(f"cannot write the token estimate cache in {self.file.parent}: {exc.strerror or exc}")
            return
        prune(self.file.parent, keep=self.file)


def _unsafe(folder: Path) -> str | None:
    """Why ``folder`` must not hold caches (another user owns it or may write in it), or ``None``."""
    try:
        status = folder.stat()
    except FileNotFoundError:
        return None  # made 0700 when first written
    except OSError as exc:
        return _problem(f"cannot use the token estimate cache folder {folder}: {exc.strerror or exc}")
    if hasattr(os, "getuid") and (status.st_uid != os.getuid() or status.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
        return _problem(f"the token estimate cache folder {folder} is not private (another user owns it or may "
                        "write in it)")
    return None


def _problem(what: str) -> str:
    return f"{what}; estimates are computed every time ({CACHE_DIR_ENV} chooses another folder, empty: no cache)"


def _read(file: Path) -> dict[int, int]:
    """The figures by key that ``file`` holds; empty when it is missing, unreadable, torn, corrupt or foreign."""
    try:
        with open(file, "rb") as handle:
            head = handle.read(_HEAD.size)
            if len(head) != _HEAD.size:
                return {}
            magic, version, count, check = _HEAD.unpack(head)
            if magic != _MAGIC or version != estimator_version() or os.fstat(handle.fileno()).st_size != _HEAD.size + 16 * count:
                return {}
            body = handle.read(16 * count)
    except (OSError, ValueError):  # ValueError: a name the system cannot take (a NUL in the variable)
        return {}
    if len(body) != 16 * count or crc32(body) != check:
        return {}
    keys, figures = array("Q"), array("q")
    keys.frombytes(body[: 8 * count])
    figures.frombytes(body[8 * count :])
    return dict(zip(keys, figures))


def _write(file: Path, figures: dict[int, int]) -> None:
    """``figures`` to ``file``, all or nothing: a temporary file in the same folder renamed over it."""
    folder = file.parent
    if not folder.is_dir():
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    body = array("Q", figures.keys()).tobytes() + array("q", figures.values()).tobytes()
    head = _HEAD.pack(_MAGIC, estimator_version(), len(figures), crc32(body))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=file.name + ".", suffix=".tmp")  # 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(head + body)
        os.replace(temporary, file)
    except BaseException:
        _remove(Path(temporary))
        raise


def prune(folder: Path, keep: Path | None = None, *, max_files: int | None = None, max_bytes: int | None = None) -> None:
    """Remove the least recently used cache files of ``folder`` (never ``keep``) until at most ``max_files``
    (:data:`MAX_FILES`) files of at most ``max_bytes`` (:data:`MAX_BYTES`) in all remain, and temporary files of
    writers that died."""
    max_files = MAX_FILES if max_files is None else max_files
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    files = []
    now = time.time()
    try:
        with os.scandir(folder) as found:
            for item in found:
                try:
                    status = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if item.name.endswith(".tmp") and now - status.st_mtime > STALE_TEMP_SECONDS:
                    _remove(Path(item.path))
                elif item.name.endswith(_SUFFIX) and stat.S_ISREG(status.st_mode):
                    files.append((status.st_mtime, status.st_size, Path(item.path)))
    except OSError:
        return
    files.sort(reverse=True)  # newest first: the oldest are dropped from the end
    count, total = len(files), sum(size for _, size, _ in files)
    while files and (count > max_files or total > max_bytes):
        _, size, path = files.pop()
        if keep is not None and path == keep:
            continue
        if _remove(path):
            count, total = count - 1, total - size


def _touch(file: Path) -> None:
    try:
        os.utime(file)
    except OSError:
        pass  # a cache that cannot be touched is pruned a little early


def _remove(path: Path) -> bool:
    try:
        path.unlink()
    except FileNotFoundError:
        return True  # another command pruned it first
    except OSError:
        return False
    return True
