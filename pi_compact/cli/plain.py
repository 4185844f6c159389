"""Aligned ``key  value`` lines printed without rich's console, where it would print the very same characters.

Importing rich and drawing a dozen lines with it was a fifth of ``pi-compact session info`` on a small file
(~30 ms of ~150). On a stream that is no terminal rich adds no style; what it still changes is a tab, expanded
to the next column of 8, by cells: done here as rich does it, with rich's own count of cells (``rich.cells``, a
few ms to import, not its console's ~35). Whitespace ending a line longer than the console is kept, as rich
keeps it since 14.3 (pyproject.toml asks for 14.3.2 on; 13.x to 14.2 dropped it). Any stream rich would
style (a terminal, ``FORCE_COLOR``, ``TTY_COMPATIBLE=1``, a notebook) is left to rich: what is printed here is
what :func:`pi_compact.cli.render.key_values` prints, byte for byte.
"""

from __future__ import annotations

import builtins
import os
import sys
from collections.abc import Iterable

from .visible import visible_line

_TAB_SIZE = 8
"""rich's console's tab size (``Console.tab_size``, which render's consoles leave as it is)."""


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
    (a newline left in a line: :func:`visible_line` leaves none)."""
    width = max((len(key) for key, _ in rows), default=0) + 2
    lines = [key.ljust(width) + visible_line(str(value)) for key, value in rows]
    if any("\n" in line for line in lines):
        return None
    return "".join((_expand_tabs(line) if "\t" in line else line) + "\n" for line in lines)


def soft_wrapped(texts: Iterable[str]) -> str:
    """What rich's console prints for each of ``texts`` with ``soft_wrap=True`` on a stream it does not style:
    the text, its tabs expanded line by line, then a newline."""
    return "".join("\n".join(_expand_tabs(line) if "\t" in line else line for line in text.split("\n")) + "\n"
                   for text in texts)


def counted(number: int, one: str, many: str | None = None) -> str:
    """``1 compaction``, ``2 compactions``, ``0 branch summaries``: a count with its noun in agreement."""
    return f"{number:,} {one if number == 1 else (many or one + 's')}"


def _expand_tabs(line: str) -> str:
    """rich's ``Text.expand_tabs`` of one line: each tab becomes a space, then spaces up to the next multiple
    of the tab size in cells, the cells of each part up to a tab counted apart (as rich counts them)."""
    from rich.cells import cell_len  # rich's cells alone: a few ms (its console: ~35)

    *parts, last = line.split("\t")
    expanded, position = [], 0
    for part in parts:
        part += " "
        position += cell_len(part)
        padding = -position % _TAB_SIZE
        position += padding
        expanded.append(part + " " * padding)
    expanded.append(last)
    return "".join(expanded)
