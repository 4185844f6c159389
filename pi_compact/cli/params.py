"""Arguments several commands share, checked before a command runs."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Annotated

import typer

from ..errors import UsageError
from ..store.session_file import file_kind

def regular_file(path: Path | None) -> Path | None:
    """``path`` unless it names something other than a file or folder (a FIFO, ``/dev/zero``, a socket).

    Reading one of those could block for ever or never end; a missing file or a folder is left to the
    command, which says so in its own words. Symbolic links are followed: a linked session file is fine.
    """
    if path is None:
        return None
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return path
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return path
    raise UsageError(f"{path} is {file_kind(mode)}, not a session file")


FileArg = Annotated[
    Path, typer.Argument(metavar="FILE", help="A session file (.jsonl).", show_default=False, callback=regular_file)
]
"""A session file to read (and perhaps append to)."""
