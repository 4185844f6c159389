"""Arguments several commands share, checked before a command runs.

FILE names a session the way ``chat -r`` and ``pi --resume`` do: a path, or the id (or an id prefix) of a
session in pi's folder for this directory (then every project's), or, with ``-c``/``--latest``, the newest
session there. :class:`FileCommand` is the command class that understands ``-c`` in FILE's place.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperCommand, TyperOption

from ..errors import UsageError
from ..store.session_file import file_kind

LATEST = "\0latest"
"""What ``-c``/``--latest`` puts in FILE's place: no path can hold a NUL, so it never names a file."""
LATEST_FLAGS = ("-c", "--latest")


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


def session_path(value: str) -> Path:
    """FILE as given (a path, an id prefix, or ``-c``), made the path of a session file."""
    from ..store.listing import find_session, latest_session

    cwd = os.getcwd()
    found = latest_session(cwd) if value == LATEST else find_session(value, cwd)
    return regular_file(found)  # type: ignore[return-value]


FileArg = Annotated[
    Path,
    typer.Argument(
        metavar="FILE",
        help="A session file (.jsonl), or the id (or a unique id prefix) of a session in pi's folder for this "
        "directory; -c/--latest: the newest session there.",
        show_default=False,
        parser=session_path,  # not typer's Path conversion, which would stat -c's stand-in
    ),
]
"""A session to read (and perhaps append to)."""


class FileCommand(TyperCommand):
    """A command whose FILE may be given as ``-c``/``--latest`` (the newest session of this directory).

    The flag stands in for FILE, so ``session label -c ENTRY TEXT`` works as ``session label FILE ENTRY
    TEXT``: it is turned into FILE's value before click parses the rest.
    """

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        # Listed in --help with the other options; parse_args takes it out before click could see it.
        self.params.append(TyperOption(param_decls=list(LATEST_FLAGS), is_flag=True, default=False,
                                       expose_value=False, help="The newest session of pi's folder for this "
                                       "directory, as FILE."))

    def parse_args(self, ctx, args):  # type: ignore[no-untyped-def]
        return super().parse_args(ctx, self._latest_as_file(list(args)))

    def _latest_as_file(self, args: list[str]) -> list[str]:
        positionals, flag_at = self._scan(args)
        if flag_at is None:
            return args
        if positionals and os.path.lexists(args[positionals[0]]):
            raise UsageError(f"give a FILE ({args[positionals[0]]}) or -c/--latest, not both")
        return [LATEST, *args[:flag_at], *args[flag_at + 1 :]]

    def _scan(self, args: list[str]) -> tuple[list[int], int | None]:
        """Indexes of the positional arguments, and of the first -c/--latest (options' values skipped)."""
        takes_value = {name for param in self.params if getattr(param, "is_flag", True) is False
                       for name in getattr(param, "opts", ())}
        positionals, flag_at, index = [], None, 0
        while index < len(args):
            token = args[index]
            if token == "--":
                positionals += range(index + 1, len(args))
                break
            if token in LATEST_FLAGS and flag_at is None:
                flag_at = index
            elif token in takes_value:
                index += 1  # its value, even one that looks like -c
            elif not token.startswith("-") or token == "-":
                positionals.append(index)
            index += 1
        return positionals, flag_at


# -- numbers: one wording for every bad one ---------------------------------------------------------------------


def number(option: str, low: int, high: int | None = None):
    """A parser for a whole-number option: anything else (``abc``, ``1.5``, out of range) is refused with one
    wording, ``--window 0: use a whole number from 1 up`` (or ``from 1 to 50``)."""
    allowed = f"from {low:,} to {high:,}" if high is not None else f"from {low:,} up"

    def parse(text: str | int) -> int:
        try:
            value = int(str(text).replace("_", "").replace(",", "")) if not isinstance(text, int) else text
        except ValueError:
            raise UsageError(f"{option} {text}: use a whole number {allowed}") from None
        if value < low or (high is not None and value > high):
            raise UsageError(f"{option} {value:,}: use a whole number {allowed}")
        return value

    parse.__name__ = "INTEGER"  # what typer shows as the type in --help
    return parse
