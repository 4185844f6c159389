"""The chat's ``/tree`` selector: the session tree, one entry a line, chosen with the arrow keys as in pi.

↑/↓ (or k/j) move, PgUp/PgDn move a page, Home/End go to the ends, Enter goes to the entry under the cursor,
Esc or Ctrl-C stays. Typed characters (an id prefix, a label, ``root``) go to a "go to" field instead, which
Enter then resolves, as the plain question does. Only a terminal gets the selector; with piped input the
chat prints the tree and asks for an id (:meth:`pick_entry` returns ``None`` then).

The terminal is put in cbreak mode only while the selector is up, and restored however it ends; the lines
it drew are erased, so the screen goes on where it was.
"""

from __future__ import annotations

import os
import select
import sys
import termios
import tty
from dataclasses import dataclass

from rich.console import Console

from . import render

STAY = ""
"""What :func:`pick_entry` returns when the user stays where they are."""
HELP = "↑/↓ move · PgUp/PgDn page · Enter go there · Esc stay · type an id or label to go to it"
_KEYS = {"\x1b[A": "up", "\x1bOA": "up", "\x1b[B": "down", "\x1bOB": "down",
         "\x1b[5~": "page_up", "\x1b[6~": "page_down", "\x1b[H": "home", "\x1b[1~": "home", "\x1bOH": "home",
         "\x1b[F": "end", "\x1b[4~": "end", "\x1bOF": "end", "\r": "enter", "\n": "enter", "\x1b": "escape",
         "\x03": "escape", "\x04": "escape", "\x7f": "backspace", "\x08": "backspace"}


@dataclass
class Picker:
    """The selector's state: the entry ids in drawing order, the cursor, and what was typed."""

    ids: list[str]
    cursor: int
    height: int
    typed: str = ""
    top: int = 0

    def key(self, name: str) -> str | None:
        """Apply one key; the chosen reference when the key ends the selection, else ``None``."""
        moves = {"up": -1, "down": 1, "page_up": -self.height, "page_down": self.height,
                 "home": -len(self.ids), "end": len(self.ids)}
        if not self.typed:  # vi's keys move, unless they are part of what is being typed
            name = {"k": "up", "j": "down"}.get(name, name)
        if name in moves:
            self.cursor = max(0, min(len(self.ids) - 1, self.cursor + moves[name]))
        elif name == "enter":
            return self.typed.strip() or self.ids[self.cursor]
        elif name == "escape":
            return STAY
        elif name == "backspace":
            self.typed = self.typed[:-1]
        elif len(name) == 1 and name.isprintable():
            self.typed += name
        self.top = min(max(self.top, self.cursor - self.height + 1), self.cursor)
        return None


def preorder_ids(roots: list) -> list[str]:
    """Entry ids in the order :func:`~pi_compact.cli.render.tree_lines` draws them (depth first, oldest child
    first); iterative, as the drawing is."""
    ids, stack = [], list(reversed(roots))
    while stack:
        node = stack.pop()
        ids.append(node.id)
        stack.extend(reversed(node.children))
    return ids


def pick_entry(console: Console, session) -> str | None:
    """The reference the user chose (:data:`STAY` to stay), or ``None`` when this is not a terminal."""
    if not (sys.stdin.isatty() and console.is_terminal):
        return None
    on_path = frozenset(str(e.get("id")) for e in session.branch())
    roots = session.digest_tree(render.entry_look())
    if not roots:
        return None
    style = render.TreeStyle(session.leaf_id, on_path)
    lines = list(render.tree_lines(roots, style, console.width - 2))
    ids = preorder_ids(roots)
    leaf = ids.index(session.leaf_id) if session.leaf_id in ids else len(ids) - 1
    height = max(3, min(len(ids), console.height - 4))
    picker = Picker(ids, leaf, height, top=max(0, leaf - height + 1))
    return _run(console, picker, lines)


def _run(console: Console, picker: Picker, lines: list[render.Line]) -> str:
    painter = render._Painter(console)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    drawn = 0
    try:
        tty.setcbreak(fd)
        while True:
            drawn = _draw(console, painter, picker, lines, drawn)
            chosen = picker.key(_read_key(fd))
            if chosen is not None:
                return chosen
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        _erase(console, drawn)


def _draw(console: Console, painter, picker: Picker, lines: list[render.Line], drawn: int) -> int:
    _erase(console, drawn)
    out = []
    for index in range(picker.top, min(len(lines), picker.top + picker.height)):
        text = painter.paint(lines[index]).rstrip(" ")
        out.append(("\x1b[7m> " + render.visible_line(_plain(lines[index])) + "\x1b[0m") if index == picker.cursor
                   else "  " + text)
    field = f"go to: {picker.typed}" if picker.typed else HELP
    # one screen line each, or the erasing (so many lines up) would miss what wrapped
    out.append(f"\x1b[2m{render.one_line(field, max(10, console.width - 1))}\x1b[0m")
    console.file.write("\n".join(out) + "\n")
    console.file.flush()
    return len(out)


def _plain(line: render.Line) -> str:
    return "".join(text for text, _ in line).rstrip(" ")


def _erase(console: Console, drawn: int) -> None:
    if drawn:
        console.file.write(f"\x1b[{drawn}F\x1b[J")
        console.file.flush()


def _read_key(fd: int) -> str:
    """One key press: a character, or a whole escape sequence (an Esc alone when nothing follows at once)."""
    first = os.read(fd, 1)
    if first != b"\x1b":
        return _decode(first, fd)
    sequence = first
    while select.select([fd], [], [], 0.05)[0]:
        sequence += os.read(fd, 1)
        if sequence[-1:].isalpha() or sequence.endswith(b"~"):
            break
    return _KEYS.get(sequence.decode("ascii", "replace"), "escape" if sequence == b"\x1b" else "")


def _decode(first: bytes, fd: int) -> str:
    """A key from its first byte, reading the rest of a UTF-8 character."""
    if not first:
        return "escape"  # end of input
    need = 0 if first[0] < 0xC0 else 1 if first[0] < 0xE0 else 2 if first[0] < 0xF0 else 3
    data = first + (os.read(fd, need) if need else b"")
    text = data.decode("utf-8", "replace")
    return _KEYS.get(text, text)


__all__ = ["HELP", "STAY", "Picker", "pick_entry", "preorder_ids"]
