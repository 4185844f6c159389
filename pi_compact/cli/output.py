"""What the CLI writes: JSON on stdout, and the new files of ``-o/--output`` and ``--plot``.

The one way the CLI prints JSON is the store's writer (``JSON.stringify``'s bytes), one document per line.

Every ``--json`` output goes through :func:`write_json`, so numbers come out as pi and the library write them
(``1``, ``0.000001``, never ``1.0`` or ``1e-06``) and a terminal never receives a raw C1 control character.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import PiCompactError, UsageError
from ..session_json import json_bytes
from ..store.writer import link_new

_C1_IN_UTF8 = re.compile(rb"\xc2([\x80-\x9f])")


def write_json(value: Any) -> None:
    """Print ``value`` (or JSON bytes already made by :func:`~pi_compact.session_json.json_bytes`) and a newline."""
    data = value if isinstance(value, (bytes, bytearray)) else json_bytes(value)
    if sys.stdout.isatty():
        # Raw C1 controls (U+0080-U+009F, such as the one-character CSI) can drive some terminals; the JSON
        # escape means the same string to any reader. Only a terminal gets it: pipes get pi's exact bytes.
        data = _C1_IN_UTF8.sub(lambda found: b"\\u%04x" % found[1][0], data)
    sys.stdout.flush()  # anything printed before stays before
    _write_all(sys.stdout.buffer, bytes(data) + b"\n")
    sys.stdout.flush()


def _write_all(out, data: bytes) -> None:
    """Every byte, or an error: unbuffered (``PYTHONUNBUFFERED``), stdout's ``write`` may write only part."""
    view = memoryview(data)
    while view:
        written = out.write(view)
        view = view[len(view) if written is None else written :]


# -- files the commands write ---------------------------------------------------------------------------------


@contextmanager
def new_file(path: Path, *, force: bool = False) -> Iterator[Path]:
    """A temporary path beside ``path`` for a command to write; when the block ends without an error the file
    is flushed to disk and takes ``path``'s name, as ``session fork`` writes (a full disk, a failure or a kill
    never leaves a partial ``path``). ``path`` must not exist unless ``force`` (a link there is replaced, never
    followed). Temporary files that dead processes left beside ``path`` are removed first."""
    if not force and (path.exists() or path.is_symlink()):
        raise UsageError(f"{path} already exists; choose a new file (or --force)")
    remove_stale_temporaries(path)
    temp = temporary_name(path, os.getpid())
    temp.unlink(missing_ok=True)  # our own pid's, from a process long gone that had it
    try:
        try:
            yield temp
        except PiCompactError as exc:  # say what could not be written by the name the user gave
            raise type(exc)(str(exc).replace(str(temp), str(path))) from None
        except OSError as exc:
            if exc.filename == str(temp):
                exc.filename = str(path)
            raise
        _fsync_file(temp)
        _publish(temp, path, force)
        _fsync_dir(path.parent)
    finally:
        temp.unlink(missing_ok=True)


def temporary_name(path: Path, pid: int) -> Path:
    """``.NAME.PID.tmp`` beside ``path``: hidden, and naming the process that writes it."""
    return path.with_name(f".{path.name}.{pid}.tmp")


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove ``.NAME.PID.tmp`` files beside ``path`` whose process is gone (a kill mid-write); return them."""
    pattern = re.compile(rf"\.{re.escape(path.name)}\.(\d+)\.tmp")
    removed = []
    try:
        names = os.listdir(path.parent if str(path.parent) else ".")
    except OSError:
        return removed
    for name in names:
        found = pattern.fullmatch(name)
        if found and not _alive(int(found[1])):
            stale = path.with_name(name)
            stale.unlink(missing_ok=True)
            removed.append(stale)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # our own name: a leftover of an earlier process that had this pid
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process (or a pid we cannot ask about): leave its file alone
    return True


def _publish(temp: Path, path: Path, force: bool) -> None:
    if force:
        os.replace(temp, path)
    else:
        link_new(temp, path, hint=" (or --force)")


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory if str(directory) else ".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
