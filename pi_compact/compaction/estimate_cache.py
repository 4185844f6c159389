"""A persistent cache of what ``session show`` makes of each session line, so that a session shown before is
shown fast: token estimates, and the rows the tree is drawn from.

``session show`` puts an estimate beside every message, and on a 100k-entry session estimating is nine tenths
of the command (:mod:`~pi_compact.compaction.tokens` costs tens of µs per KB and reads every character); once
the estimates are kept, parsing every line and building its preview is most of the rest. A session only grows,
so showing it again does the same work for the same lines: here each line's figure, and its row (what the
tree needs of it: type, id, parentId, timestamp, role, kind, preview; then what a listing reads of it, for
``session info``), are kept under a key of its bytes and read back the next time; only lines not seen before
are parsed, previewed and estimated. ``session info`` reads the rows (of a few columns) and never writes.

What makes a stale figure or row impossible:

- the key is the line's content: its CRC-32 and its length (the entry's id and timestamp are in the line).
  An edited line is read again, and a file rewritten (by pi's migration, a copy, a repair) keeps the figures
  and rows of the lines it kept; a wrong one would need an edited line to take the length and CRC of another
  line of the session (one chance in 2^32 per line of that length);
- the file holds the estimator's version, a hash of the bytes of ``tokens.py``, ``token_bounds.py`` and
  ``token_tables.py``, Python's Unicode version (NFKC) and the byte order: a cache of any other estimator is
  ignored and replaced, never read. Rows hold their own version besides (:func:`rows_version_of`: a hash of
  the code that makes them, with Python's and orjson's versions): rows of any other are ignored, the figures
  kept;
- a row is kept only of a line whose slot it can stand for however the file is scanned (the scanner's prefix
  and a parser read the same type, id, parentId and timestamp, strings, and reading it reported nothing:
  :func:`~pi_compact.store.scan.plain_fields`); other lines are read every time;
- a file that is truncated, corrupt (its own CRCs, one for the figures and one for the rows), foreign or
  unreadable is ignored; one that cannot be written leaves the command as it was without the cache, with one
  warning.

Where: ``$PI_COMPACT_CACHE_DIR`` (empty: no cache; ``session show --no-cache`` neither reads nor writes it), else
``$XDG_CACHE_HOME/pi-compact``, else ``~/.cache/pi-compact``; never beside the session. One file per session,
named by a hash of its resolved path. The figures are numbers (16 bytes a line), but the rows hold text of the
session: each entry's id and the start of what it says, as ``session show`` prints it (made visible, cut to
160 characters; show redacts nothing), about 230 bytes a line (23 MB for 100,000 entries). Files are 0600 in
a 0700 folder (a folder another user could write to is not used), written whole to a temporary file and
renamed over the old one (two commands writing at once leave one of their files, each valid), and hold the
lines the session has now, no more (``show --json`` keeps figures only: a file it rewrites loses its rows).
Past :data:`MAX_FILES` files or :data:`MAX_BYTES` in all, the least recently used files of other sessions
are removed; a file is written without its rows rather than past :data:`MAX_BYTES`.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import stat
import struct
import sys
import tempfile
import time
import unicodedata
from array import array
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from zlib import crc32

from ..store.stream import line_key

__all__ = ["CACHE_DIR_ENV", "ESTIMATOR_FILES", "MAX_BYTES", "MAX_FILES", "EstimateCache", "cache_folder",
           "estimator_version", "line_key", "prune", "rows_version_of", "version_of"]

CACHE_DIR_ENV = "PI_COMPACT_CACHE_DIR"
MAX_FILES = 256
"""Cache files kept at most (one per session shown); the least recently used go first."""
MAX_BYTES = 256 * 1024 * 1024
"""Bytes of cache files kept at most in all (about ten sessions of 100,000 entries with their rows); a file
whose rows would make it larger is written without them."""
STALE_TEMP_SECONDS = 3600
"""A temporary file this old was left by a command that died while writing: removed when pruning."""

_MAGIC = b"PICOMPACT-EST-2\n"
_HEAD = struct.Struct("<16s16s16sQIIQ")
"""magic, estimator version, rows version (zeros: no rows), number of figures, CRC-32 of the keys and figures
that follow, CRC-32 and size of the rows after them."""
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


def rows_version_of(files: Iterable[str | os.PathLike]) -> bytes:
    """A rows version (for :meth:`EstimateCache.open`): a hash of the bytes of ``files``, the source of the code
    that makes the rows, with Python's version (marshal's format, ``str`` of numbers, Unicode) and orjson's."""
    import orjson

    digest = hashlib.blake2b(_MAGIC + b"rows", digest_size=16)
    for name in files:
        digest.update(os.fsencode(os.path.basename(name)) + b"\0" + Path(name).read_bytes())
    digest.update(f"{sys.version} {orjson.__version__} {unicodedata.unidata_version} {sys.byteorder}".encode())
    return digest.digest()


class EstimateCache:
    """The figures of one session's lines, and its rows when asked for: read at :meth:`open`, used and
    completed by :meth:`keyed`'s function (and :meth:`row` and :meth:`keep_rows`), written back by :meth:`save`
    when they changed. Never raises an ``OSError``: a cache that cannot be read is empty, one that cannot be
    written says so in :attr:`problem` (one sentence, for a warning)."""

    def __init__(self, file: Path | None, known: dict[int, int] | None = None) -> None:
        self.file = file
        """The cache file; ``None``: no cache (turned off), every figure computed."""
        self.problem: str | None = None
        self._known = known or {}
        self._seen: dict[int, int] = {}
        """The figures of the lines met this time: what the file holds after :meth:`save`."""
        self._missed = 0
        self.rows_version: bytes | None = None
        """The version of the rows this command reads and keeps (:func:`rows_version_of`); ``None``: no rows."""
        self._row_keys = array("Q")
        """The keys of the rows read, in the order they were kept (the file's order when it was last shown)."""
        self._kept_keys: list[int] = []
        self._kept_rows: list[tuple] = []
        """The keys and rows of the lines met this time, in order: what the file holds after :meth:`save`."""
        self.row: Callable[[int], tuple | None] = lambda key: None
        """The row kept for a line's key, or ``None``: asked for the lines of the session in order."""
        self._rows: list[tuple] = []
        self._pieces: tuple[Piece, ...] = ()
        """The pieces of the session read last time (:meth:`piece_rows`), as the file holds them."""
        self._plans: dict[tuple[int, int], Piece] | None = None
        self._seek: Callable[[int], None] = lambda at: None
        """Where :attr:`row` looks first next: after the rows of a piece taken whole."""
        self._met: list[tuple[int, int, list[int]]] = []
        """The pieces read this time: their size, CRC-32 and the keys of their lines (:meth:`piece_met`)."""

    @classmethod
    def open(cls, session_path: str | os.PathLike, folder: Path | None | object = ..., *,
             rows_version: bytes | None = None, columns: tuple[int, ...] | None = None,
             figures: bool = True) -> EstimateCache:
        """The cache of the session at ``session_path`` in ``folder`` (default :func:`cache_folder`; ``None``:
        no cache), with its rows of ``rows_version`` (none without). Whatever is wrong with the file, this
        returns a cache (an empty one).

        For a reader of a few values of each row (``session info``): ``columns``, the indexes of the values its
        rows keep (rows with fewer values than those are not read), and ``figures=False``, no
        figure read. Such a cache is for reading: it must not be saved."""
        where = cache_folder() if folder is ... else folder
        if where is None:
            return cls(None)
        try:
            estimator_version()
        except OSError:  # installed without its sources: no version to trust, so no cache
            return cls(None)
        cache = cls(Path(where) / _file_name(session_path))  # type: ignore[arg-type]
        cache.problem = _unsafe(cache.file.parent)  # type: ignore[union-attr]
        if cache.problem is not None:
            cache.file = None
            return cache
        cache.rows_version = rows_version
        cache._known, cache._row_keys, cache._rows, cache._pieces = _read(cache.file, rows_version, columns, figures)  # type: ignore[arg-type]
        cache.row, cache._seek = _in_order(cache._row_keys, cache._rows)
        return cache

    @staticmethod
    def exists(session_path: str | os.PathLike) -> bool:
        """Whether the session at ``session_path`` has a cache file in :func:`cache_folder`: a reader may skip
        :meth:`open` (and making its rows version) when not."""
        where = cache_folder()
        return where is not None and (where / _file_name(session_path)).is_file()

    @property
    def rows_read(self) -> int:
        """How many rows :meth:`open` read (of its ``rows_version``)."""
        return len(self._row_keys)

    @property
    def hits(self) -> int:
        """Lines whose figure was read from the cache (not estimated) so far."""
        return len(self._seen) - self._missed

    def keyed(self, tokens: Callable[[dict], int | None]) -> Callable[[dict, Any], int | None]:
        """``tokens(entry)`` as a function of the entry and its line's bytes (or the line's :func:`line_key`),
        read from the cache when the line was seen before. A line of ``None`` (an entry of a file migrated in
        memory) is not cached. Only the figures of ``tokens`` that :func:`estimator_version` describes may be
        cached: the caller's promise."""
        if self.file is None:
            return lambda entry, line=None: tokens(entry)
        known, seen = self._known.get, self._seen

        def cached(entry: dict, line: Any = None) -> int | None:
            if line is None or entry.get("type") != "message":  # nothing estimated: nothing to keep
                return tokens(entry)
            # line_key, inlined: once per message of the file
            key = line if type(line) is int else crc32(line) << 32 | len(line) & 0xFFFFFFFF
            figure = known(key)
            if figure is None:
                value = tokens(entry)
                figure = _NONE if value is None else value
                self._missed += 1
            seen[key] = figure
            return None if figure == _NONE else figure

        return cached

    def keep_rows(self, keys: list[int], rows: list[tuple]) -> None:
        """Keep the ``rows`` of the lines of ``keys`` (in the session's order) for the next command: each a tuple
        of values :mod:`marshal` writes (strings, numbers, ``None``), the row the caller makes of a line, or the
        :meth:`row` it read for it. The rows of the lines not met again are dropped at :meth:`save`. A message's
        row holds no figure but the one :meth:`keyed` gave for its line (the caller's promise): that figure is
        kept beside it."""
        if self.rows_version is not None:
            self._kept_keys += keys
            self._kept_rows += rows

    def piece_rows(self, size: int, check: int) -> tuple[array, list[tuple], bytes] | None:
        """The rows of a piece of the session (a run of whole lines) of ``size`` bytes and CRC-32 ``check`` as it
        was read last time, or ``None``: the keys and rows of its lines that had one, in order, and a byte per
        line of the piece, 1 for a line whose row is the next of these (its key is the row's, its length in
        the key), else for a line to read (a line without a row, a blank one): 0 when no row of this cache has
        its key (:attr:`row` need not be asked), 2 when one may.

        The piece's bytes are those read last time (one chance in 2^32 that bytes of the same size differ and
        share the CRC, as for a line's key), so its lines are, each with the key it had: a reader may take
        the rows of a piece without splitting it into lines and keying each (a tenth of ``session show``)."""
        if self._plans is None:
            self._plans = {(piece[0], piece[1]): piece for piece in self._pieces}
        piece = self._plans.get((size, check))
        if piece is None:
            return None
        _, _, first, flags = piece
        after = first + flags.count(1)
        self._seek(after)  # the next piece's rows follow these
        return self._row_keys[first:after], self._rows[first:after], flags

    def piece_met(self, size: int, check: int, keys: list[int]) -> None:
        """A piece of the session read (in order) of ``size`` bytes and CRC-32 ``check``, whose lines have the
        ``keys``: :meth:`piece_rows` finds its rows next time (those kept of its lines by :meth:`keep_rows`)."""
        if self.rows_version is not None:
            self._met.append((size, check, keys))

    def save(self) -> None:
        """Write the figures and rows of the lines met, when they differ from the file's; prune old caches after."""
        if self.file is None:
            return
        figures, known, kept = self._seen, self._known, self._kept_keys
        # A line read from its row was not estimated: its figure is the one kept (a message's row is kept with
        # its figure). Unchanged: every figure known is a line's met, and the lines estimated were known.
        if kept:
            unchanged = figures.items() <= known.items() and not (known.keys() - figures.keys()).difference(kept)
        else:
            unchanged = figures == known
        # The same rows of pieces of the same bytes in the same order: the same pieces (their lines' keys too)
        if unchanged and (self.rows_version is None or (kept == self._row_keys.tolist() and [
                met[:2] for met in self._met] == [piece[:2] for piece in self._pieces])):
            _touch(self.file)  # used: the last to be pruned
            return
        if kept:
            figures = {key: known[key] for key in kept if key in known}
            figures.update(self._seen)
        try:
            _write(self.file, figures, self.rows_version, kept, self._kept_rows, _pieces_of(self._met, kept))
        except OSError as exc:
            self.problem = _problem(f"cannot write the token estimate cache in {self.file.parent}: {exc.strerror or exc}")
            return
        prune(self.file.parent, keep=self.file)


Piece = tuple[int, int, int, bytes]
"""A piece of a session as the cache keeps it: its size, CRC-32, the index of its first row, a byte per line (1:
the line has the next row, 0: no row has its key, 2: a row may; :meth:`EstimateCache.piece_rows`)."""


def _pieces_of(met: list[tuple[int, int, list[int]]], kept: list[int]) -> tuple[Piece, ...]:
    """The pieces read (size, CRC-32, keys of the lines), each with the index of its first row among the rows
    ``kept`` (keys in the session's order) and a byte per line: 1 when its key is the next row's, else 0 when
    no row has its key, 2 when one has."""
    pieces = []
    at, count = 0, len(kept)
    kept_keys: set[int] | None = None
    for size, check, keys in met:
        first = at
        flags = bytearray(len(keys))
        for line, key in enumerate(keys):
            if at < count and kept[at] == key:
                flags[line] = 1
                at += 1
            else:
                if kept_keys is None:
                    kept_keys = set(kept)
                if key in kept_keys:
                    flags[line] = 2
        pieces.append((size, check, first, bytes(flags)))
    return tuple(pieces)


def _file_name(session_path: str | os.PathLike) -> str:
    """The name of the cache file of the session at ``session_path``: a hash of its resolved path."""
    return hashlib.blake2b(os.fsencode(os.path.realpath(session_path)), digest_size=16).hexdigest() + _SUFFIX


def _in_order(keys: array, rows: list[tuple]) -> tuple[Callable[[int], tuple | None], Callable[[int], None]]:
    """The row of a key among ``keys`` (``rows`` in the same order), asked for in the order they were kept: a
    session is read in the order it was read last time, so the next row is tried first, then any (a line
    edited, moved or dropped), and the next after the one found. Building a map of 100,000 keys at open cost
    more than asking in order. Second, a function that says which row is the next (rows taken otherwise)."""
    count, at = len(keys), 0
    where: dict[int, int] | None = None

    def row(key: int) -> tuple | None:
        nonlocal at, where
        if at < count and keys[at] == key:
            at += 1
            return rows[at - 1]
        if where is None:
            where = dict(zip(reversed(keys), range(count - 1, -1, -1)))  # the first of equal lines
        found = where.get(key)
        if found is None:
            return None
        at = found + 1
        return rows[found]

    def seek(position: int) -> None:
        nonlocal at
        at = position

    return row, seek


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


def _read(file: Path, rows_version: bytes | None = None, columns: tuple[int, ...] | None = None,
          figures: bool = True) -> tuple[dict[int, int], array, list[tuple], tuple[Piece, ...]]:
    """The figures by key that ``file`` holds (none unless ``figures``), and the keys, rows and pieces of its
    rows when they are of ``rows_version`` (of their ``columns`` only, if given); nothing when it is missing,
    unreadable, torn, corrupt or foreign (rows alone are dropped when theirs are)."""
    nothing: tuple[dict[int, int], array, list[tuple], tuple[Piece, ...]] = ({}, array("Q"), [], ())
    try:
        with open(file, "rb") as handle:
            head = handle.read(_HEAD.size)
            if len(head) != _HEAD.size:
                return nothing
            magic, version, rows_of, count, check, rows_check, rows_size = _HEAD.unpack(head)
            if magic != _MAGIC or version != estimator_version() or \
                    os.fstat(handle.fileno()).st_size != _HEAD.size + 16 * count + rows_size:
                return nothing
            body = handle.read(16 * count)
            wanted = rows_size and rows_version is not None and rows_of == rows_version
            blob = handle.read(rows_size) if wanted else b""
    except (OSError, ValueError):  # ValueError: a name the system cannot take (a NUL in the variable)
        return nothing
    if len(body) != 16 * count or crc32(body) != check:
        return nothing
    row_keys, rows, pieces = _rows(blob, columns) if wanted and crc32(blob) == rows_check else (array("Q"), [], ())
    if not figures:  # a reader of rows only: 100,000 figures in a map cost more than the rows it reads
        return {}, row_keys, rows, pieces
    keys, values = array("Q"), array("q")
    keys.frombytes(body[: 8 * count])
    values.frombytes(body[8 * count :])
    return dict(zip(keys, values)), row_keys, rows, pieces


def _rows(blob: bytes, picked: tuple[int, ...] | None = None) -> tuple[array, list[tuple], tuple[Piece, ...]]:
    """The keys, rows and pieces of a rows section (:func:`_rows_blob`), the rows of their ``picked`` columns
    only when given; none when it is not one (or its rows have fewer columns than those picked)."""
    nothing: tuple[array, list[tuple], tuple[Piece, ...]] = (array("Q"), [], ())
    try:
        keys_bytes, columns, pieces = marshal.loads(blob)
        keys = array("Q")
        keys.frombytes(keys_bytes)
    except (ValueError, EOFError, TypeError):
        return nothing
    if type(columns) is not tuple or not columns or any(type(c) is not tuple or len(c) != len(keys) for c in columns):
        return nothing
    if not _are_pieces(pieces, len(keys)):
        return nothing
    if picked is not None:
        if not all(-len(columns) <= at < len(columns) for at in picked):
            return nothing
        columns = tuple(columns[at] for at in picked)
    return keys, list(zip(*columns)), pieces


def _are_pieces(pieces: object, rows: int) -> bool:
    """Whether ``pieces`` are pieces (:data:`Piece`) whose rows are among ``rows`` rows."""
    return type(pieces) is tuple and all(
        type(piece) is tuple and len(piece) == 4 and all(type(value) is int for value in piece[:3])
        and type(piece[3]) is bytes and 0 <= piece[2] and piece[2] + piece[3].count(1) <= rows
        and piece[3].count(0) + piece[3].count(1) + piece[3].count(2) == len(piece[3])
        for piece in pieces)


def _rows_blob(keys: list[int], rows: list[tuple], pieces: tuple[Piece, ...] = ()) -> bytes:
    """Rows of one width, their keys and the pieces they were read in: the keys' bytes, one tuple per column
    (marshal writes a column of strings that repeat, like types and roles, with one copy of each), the
    pieces."""
    return marshal.dumps((array("Q", keys).tobytes(), tuple(zip(*rows)), pieces))


def _write(file: Path, figures: dict[int, int], rows_version: bytes | None = None, keys: list[int] | None = None,
           rows: list[tuple] | None = None, pieces: tuple[Piece, ...] = ()) -> None:
    """``figures``, and ``rows`` of ``keys`` in order with the ``pieces`` they were read in, to ``file``, all or
    nothing: a temporary file in the same folder renamed over it. Rows that would make the file larger than
    :data:`MAX_BYTES` are left out."""
    folder = file.parent
    if not folder.is_dir():
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    body = array("Q", figures.keys()).tobytes() + array("q", figures.values()).tobytes()
    blob = _rows_blob(keys, rows, pieces) if keys and rows and rows_version is not None else b""
    if _HEAD.size + len(body) + len(blob) > MAX_BYTES:
        blob = b""
    head = _HEAD.pack(_MAGIC, estimator_version(), rows_version if blob else bytes(16), len(figures), crc32(body),
                      crc32(blob), len(blob))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=file.name + ".", suffix=".tmp")  # 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(head)
            handle.write(body)
            handle.write(blob)
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
