"""Aligned ``key  value`` lines printed without rich, where rich would print the very same characters.

Importing rich and drawing a dozen lines with it was a fifth of ``pi-compact session info`` on a small file
(~30 ms of ~150). On a stream that is no terminal rich adds no style; what it may still change is a tab
(expanded to the next column of 8, by cells). Lines with one are left to rich (:func:`key_value_lines` says
``None``), as is any stream rich would style (a terminal, ``FORCE_COLOR``, ``TTY_COMPATIBLE=1``, a notebook):
what is printed here is what :func:`pi_compact.cli.render.key_values` prints, byte for byte. (Whitespace ending
a line longer than the console is kept: rich dropped it before 14.3, which pyproject.toml no longer allows.)
"""

from __future__ import annotations

import builtins
import os
import sys

from .visible import visible_line


def rich_adds_nothing() -> bool:
    """Whether rich, printing on stdout, would write plain text: no terminal, and nothing in the environment
    that makes it style one anyway (rich's own tests, in the order it makes them)."""
    if hasattr(builtins, "get_ipython"):  # a notebook: rich draws in its own way
        return False
    if os.environ.get("TTY_COMPATIBLE", "") == "1" or os.environ.get("FORCE_COLOR"):
        return False
    try:
        return not sys.stdout.isatty()
    except ValueError:  # a closed stream: rich's own answer is "no terminal", and writing will say the rest
        return True


def key_value_lines(rows: list[tuple[str, object]]) -> str | None:
    """The lines of :func:`pi_compact.cli.render.key_values`, or ``None`` when rich might print them otherwise
    (a tab)."""
    width = max((len(key) for key, _ in rows), default=0) + 2
    lines = [key.ljust(width) + visible_line(str(value)) for key, value in rows]
    if any("\t" in line for line in lines):
        return None
    return "".join(line + "\n" for line in lines)
