"""How the CLI draws sessions on a terminal with rich: the tree, headers, contexts, listings.

Everything a session file holds is untrusted text. It reaches rich only inside :class:`~rich.text.Text`
objects (never as markup) and only after :func:`visible` has turned terminal control characters into
printable stand-ins, so an entry cannot restyle, move the cursor of or retitle the user's terminal.
The commands in :mod:`pi_compact.cli.session_cmds` decide what to show; this module decides how.
"""

from __future__ import annotations

import errno
import json
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice, repeat
from operator import itemgetter
from sys import intern
from typing import NamedTuple

import orjson
from rich.cells import cell_len, get_character_cell_size, set_cell_size
from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.style import Style
from rich.text import Text

from .visible import _CONTROLS, visible, visible_line  # noqa: F401 (the drawing code's own names)

PREVIEW_CHARS = 160
"""Longest one-line preview of an entry before the terminal width crops it further."""
MAX_INDENT_LEVELS = 24
"""Branch levels drawn in full; deeper ones are collapsed into a ``…N`` marker so lines stay readable."""
MAX_WARNINGS = 20
TOOL_RESULT_LINES = 12
TOOL_RESULT_CHARS = 1200
WRAP_LIMIT = 20_000
"""Characters of a message body above which ``session context`` leaves wrapping to the terminal."""

_STYLES = {
    "user": "bold cyan",
    "assistant": "bold green",
    "toolResult": "blue",
    "bashExecution": "bold blue",
    "custom": "bold white",
    "compaction": "bold yellow",
    "branch_summary": "bold magenta",
}
_SHORT_KINDS = {"thinking_level_change": "thinking_level"}


# -- untrusted text ------------------------------------------------------------------------------------------


def one_line(text: str, limit: int | None = None) -> str:
    """``text`` made visible, its whitespace runs collapsed to one space, cut to ``limit`` characters."""
    if limit is None:
        return _flat(text)
    # Flattening a prefix gives a prefix of the flattened whole (give or take a trailing space), so when a
    # short prefix already overflows, the cut is the same as the whole's: a tree previews every entry, and
    # looks further only where collapsed whitespace left that prefix short.
    # Flattening costs a string per word: the shortest prefix that may do is tried first (it does for nearly
    # every entry), longer ones where blanks collapsed; previews of 50 KB tool outputs look at the start only.
    short = limit + 16
    flat = _flat(text[:short])
    if len(flat) <= limit and len(text) > short:
        for size in (limit + limit // 2 + 16, 8 * limit + 256):
            flat = _flat(text[:size])
            if len(flat) > limit or len(text) <= size:
                break
    return flat if len(flat) <= limit else flat[: max(limit - 1, 0)] + "…"


def one_line_reads(limit: int) -> int:
    """How much of a text :func:`one_line` reads with ``limit``: two texts that start with the same this many
    characters, and both have more (or are the same), give the same line."""
    return max(limit + 16, limit + limit // 2 + 16, 8 * limit + 256) + 1


def _flat(text: str) -> str:
    if text.isascii():
        # One pass over the bytes decides what the printable and blank-control tests below decide: in ASCII, a
        # control that is no tab or newline is either a blank to str.split (\r, \x0b...) or left in a word, so
        # without one there is nothing to make visible. str.isprintable reads a table per character: three
        # times slower on the 176 characters a tree flattens per entry.
        if not text.encode().translate(_ASCII_CONTROLS_HIGH).isascii():
            return " ".join(visible(text).split())
        if "  " not in text and "\n" not in text and "\t" not in text and text[:1] != " " and text[-1:] != " ":
            return text  # nothing to collapse: ids, kinds (a tree flattens several per entry)
        return " ".join(text.split())
    flat = " ".join(text.split())  # whitespace runs collapsed to one space, none at either end
    # Every control character is unprintable to Python: printable words, and no control among the blanks
    # between them, leave nothing to make visible. Cheaper than searching for controls (a tree flattens the
    # start of every entry), and the same line.
    if flat.isprintable() and not _blank_control_in(text):
        return flat
    return " ".join(visible(text).split())


_ASCII_CONTROLS_HIGH = bytes(0x80 if (code < 0x20 and code not in b"\t\n") or code == 0x7F else code for code in range(256))
"""Bytes as they are, but the ASCII control characters other than tab and newline made bytes that are not ASCII."""


_BLANK_CONTROLS = tuple(char for char in map(chr, _CONTROLS) if char.isspace())
"""Control characters that ``str.split`` takes for blanks (vertical tab, carriage return, NEL...)."""


def _blank_control_in(text: str) -> bool:
    """Whether ``text`` holds one of :data:`_BLANK_CONTROLS` (spelt out: four times faster than a loop over them)."""
    return ("\r" in text or "\x0b" in text or "\x0c" in text or "\x1c" in text or "\x1d" in text or "\x1e" in text
            or "\x1f" in text or "\x85" in text)


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich would exit 1 on its own; the CLI's entry point decides how a closed pipe ends the command.
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")


def stdout_console() -> Console:
    return _Console(highlight=False, markup=False, emoji=False)


def stderr_console() -> Console:
    return _Console(stderr=True, highlight=False, markup=False, emoji=False)


def warn(problems: Iterable[object], *, console: Console | None = None) -> None:
    """Problems found in a file, one ``warning:`` line each (at most :data:`MAX_WARNINGS`), on stderr."""
    items = [str(p) for p in problems]
    if not items:
        return
    console = console or stderr_console()
    for item in items[:MAX_WARNINGS]:
        console.print(Text("warning: ", style="yellow") + Text(one_line(item)))
    if len(items) > MAX_WARNINGS:
        console.print(Text(f"warning: … and {len(items) - MAX_WARNINGS} more problems", style="yellow"))


# -- what an entry is, in a few words ------------------------------------------------------------------------


def text_of(content: object, *, images: bool = True, room: int | None = None) -> str:
    """The text of a message's ``content`` (a string or blocks), blocks joined by spaces; images as
    ``[image image/png]`` where they stand, since a person reading the view should see a picture was there
    (the library's :func:`~pi_compact.accessors.content_text` is what a model reads: text only).

    With ``room``, the start of the text, at least ``room`` characters long (or all of it), for a preview that
    shows no more: the blocks after the first ``room`` characters are left out, and a longer text is cut there
    (a preview puts it after a name: a 50 KB tool output need not be copied whole).
    """
    if isinstance(content, str):
        return content if room is None or len(content) <= room else content[:room]
    if not isinstance(content, list):
        return ""
    if len(content) == 1:  # one text block, as most tool results hold: no list to join
        block = content[0]
        if isinstance(block, dict) and block.get("type") == "text":
            text = block.get("text")
            return (text if room is None else text[:room]) if isinstance(text, str) else ""
    parts: list[str] = []
    size = 0
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if not isinstance(text, str):
                continue
        elif kind == "image" and images:
            text = _image_text(block)
        else:
            continue
        parts.append(text)
        size += len(text) + 1
        if room is not None and size > room:
            return " ".join(parts)[:room]
    return " ".join(parts)


def _image_text(block: dict) -> str:
    return f"[image {block.get('mimeType', '')}]".replace(" ]", "]")


def entry_kind(entry: dict) -> str:
    """The role of a message entry, otherwise the entry type."""
    if entry.get("type") == "message":
        message = entry.get("message")
        role = message.get("role") if isinstance(message, dict) else None
        return str(role) if role is not None else "message"
    return str(entry.get("type"))


def entry_preview(entry: dict, room: int | None = None) -> str:
    """What the entry says, on one line (not yet made visible or cut).

    With ``room``: the start of it, at least ``room`` characters long (or all of it). A tree shows the first
    characters of each entry, and a 50 KB tool output or a long run of text blocks need not be copied whole.
    """
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        return message_preview(message, room) if isinstance(message, dict) else "(no message)"
    if kind == "model_change":
        return f"{entry.get('provider')}/{entry.get('modelId')}"
    if kind == "thinking_level_change":
        return str(entry.get("thinkingLevel"))
    if kind == "compaction":
        return f"{entry.get('tokensBefore')} tokens before; kept from {entry.get('firstKeptEntryId')}: {entry.get('summary', '')}"
    if kind == "branch_summary":
        return f"from {entry.get('fromId')}: {entry.get('summary', '')}"
    if kind == "label":
        label = entry.get("label")
        return f"{entry.get('targetId')} → {label}" if label else f"{entry.get('targetId')} → (cleared)"
    if kind == "session_info":
        return f"name: {entry.get('name')}"
    if kind == "custom":
        return str(entry.get("customType"))
    if kind == "custom_message":
        return f"{entry.get('customType')}: {text_of(entry.get('content'), room=room)}"
    return ""


def message_preview(message: dict, room: int | None = None) -> str:
    """What a message says, on one line; ``room`` as for :func:`entry_preview`."""
    return _message_preview(message, message.get("role"), room)


def _message_preview(message: dict, role: object, room: int | None) -> str:
    if role == "toolResult":  # first: nearly half the entries of a session
        error = " (error)" if message.get("isError") else ""
        return f"{message.get('toolName')}{error}: {text_of(message.get('content'), room=room)}"
    if role == "assistant":
        return _assistant_preview(message, room)
    if role == "bashExecution":
        code = message.get("exitCode")
        status = f" → exit {code}" if code not in (None, 0) else ""
        return f"$ {message.get('command')}{status}"
    if role in ("branchSummary", "compactionSummary"):
        return str(message.get("summary", ""))
    return text_of(message.get("content"), room=room)


def _assistant_preview(message: dict, room: int | None) -> str:
    """The text, then ``→ call(…)`` per tool call; ``(thinking)`` when it only thought."""
    content = message.get("content")
    if isinstance(content, list):
        text, calls, thought = _assistant_blocks(content, room)
    else:
        text, calls, thought = text_of(content, room=room), [], False
    if not text and thought:
        text = "(thinking)"
    parts, size = [text], len(text)
    cut = room is not None and size >= room  # the calls are past the room: left out
    if not cut:
        for block in calls:
            parts.append("→ " + tool_call_line(block))
            size += len(parts[-1]) + 1
            if room is not None and size >= room:
                cut = True
                break
    said = " ".join(parts).strip()
    if cut and len(said) < room:  # type: ignore[operator]
        # stripping took the room back (blanks at the cut): the start of the whole is not known from this part
        return _assistant_preview(message, None)
    stop = message.get("stopReason")
    return f"[{stop}] {said}" if stop in ("error", "aborted") else said


def _assistant_blocks(blocks: list, room: int | None) -> tuple[str, list[dict], bool]:
    """An assistant message's blocks read in one pass: :func:`text_of` them, the tool calls, whether it thought."""
    texts, calls, thought, size = [], [], False, 0
    for block in blocks:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "toolCall":
            calls.append(block)
        elif kind == "thinking":
            thought = True
        elif room is None or size <= room:  # past the room, text is not read further (as text_of does)
            if kind == "text":
                text = block.get("text")
                if isinstance(text, str):
                    texts.append(text)
                    size += len(text) + 1
            elif kind == "image":
                texts.append(_image_text(block))
                size += len(texts[-1]) + 1
    return " ".join(texts)[:room], calls, thought


def tool_call_line(block: dict) -> str:
    arguments = block.get("arguments")
    if isinstance(arguments, dict) and len(arguments) == 1:
        shown = str(next(iter(arguments.values())))  # read(path) / bash(command): the value says it all
    else:
        try:  # orjson: a tree previews every call of a 100k-entry session; json.dumps took a tenth of `show`
            shown = orjson.dumps(arguments, default=str).decode()
        except (TypeError, orjson.JSONEncodeError):  # keys that are not strings, integers beyond 64 bits
            shown = json.dumps(arguments, ensure_ascii=False, separators=(",", ":"), default=str)
    return f"{block.get('name')}({shown})"


# -- token estimates -----------------------------------------------------------------------------------------


def token_estimator() -> Callable[[dict], int]:
    """The library's estimator when it is installed, else pi's chars/4 rule computed here."""
    try:
        from pi_compact.compaction.tokens import estimate_tokens
    except ImportError:
        return _estimate_tokens
    return estimate_tokens


def _estimate_tokens(message: dict) -> int:
    """About chars/4 of what the message says; only used when the library's estimator is not installed."""
    said = [message.get(key) for key in ("content", "command", "output", "summary")]
    chars = sum(len(s) if isinstance(s, str) else len(json.dumps(s, default=str)) for s in said if s)
    return math.ceil(chars / 4)


def short_count(tokens: int) -> str:
    return f"{tokens / 1000:.1f}k" if tokens >= 10_000 else str(tokens)


# -- the tree ------------------------------------------------------------------------------------------------


class EntryLook(NamedTuple):
    """What the tree drawing shows of one entry, taken from it once: the entry itself need not be kept."""

    id: str
    type: str
    kind: str
    """The role of a message entry, otherwise the entry type (:func:`entry_kind`)."""
    preview: str
    """What the entry says, on one line, made visible, at most :data:`PREVIEW_CHARS` long."""
    tokens: int | None


def entry_look(tokens: Callable[..., int | None] | None = None) -> Callable[..., EntryLook]:
    """The digest :func:`print_tree` draws (for ``SessionIndex.digest_tree``), with ``tokens(entry, line)``
    counts if given: ``line`` is what the digest is given after the entry (``file_counted_tree``'s
    ``with_lines``), ``None`` when it is given the entry alone."""
    room = one_line_reads(PREVIEW_CHARS)  # a tree shows the start of each entry: only that much is put together
    make = tuple.__new__  # an EntryLook without its Python-level __new__: this runs once per line of the file

    def look(entry: dict, line: object = None) -> EntryLook:
        # entry_kind and entry_preview, with the message read once: most entries of a session are messages
        entry_type = entry.get("type")
        message = entry.get("message") if entry_type == "message" else None
        if isinstance(message, dict):
            role = message.get("role")
            kind = "message" if role is None else str(role)
            said = _message_preview(message, role, room)
        else:
            kind, said = str(entry_type), entry_preview(entry, room)
        return make(EntryLook, (
            str(entry.get("id")),
            intern(str(entry_type)),  # a handful of names, 100,000 times: one copy each
            intern(kind),
            one_line(said, PREVIEW_CHARS),
            tokens(entry, line) if tokens else None,
        ))

    return look


def look_row(slot: object, role: object, look: EntryLook) -> tuple | None:
    """What a cached row of a line keeps of its look (``session_json.RowsOf``'s ``pack``): the kind, the
    preview and the count; the id and type are the slot's, and the look is not kept when they are not."""
    if look[0] != slot.id or look[1] != slot.type:  # type: ignore[attr-defined]
        return None
    return look[2:]


def looks_of_rows(rows: list[tuple]) -> Iterator[EntryLook]:
    """The looks cached rows stand for (``session_json.RowsOf``'s ``unpack``), made as :func:`entry_look` made
    them (a row: the type, id, parentId, timestamp, role, then what :func:`look_row` kept), by C-level loops."""
    return map(_make_tuple, repeat(EntryLook), map(_LOOK_FIELDS, rows))


_make_tuple = tuple.__new__
_LOOK_FIELDS = itemgetter(1, 0, 5, 6, 7)

ROW_SOURCES = ("cli/render.py", "cli/visible.py", "session_json.py", "store/scan.py", "store/stream.py")
"""The package's files whose code makes a cached row of ``session show``: their bytes make the rows' version."""


@dataclass(frozen=True)
class TreeStyle:
    """What the tree drawing marks: the leaf and the entries on the path to it."""

    leaf_id: str | None
    on_path: frozenset[str]


class _Gutter:
    """The left margin of a run of entries: a parent margin plus one piece (``│  `` or spaces)."""

    __slots__ = ("parent", "piece", "depth", "_text")

    def __init__(self, parent: "_Gutter | None", piece: str) -> None:
        self.parent, self.piece = parent, piece
        self.depth = (parent.depth + 1) if parent is not None else 0
        self._text: str | None = None

    def text(self) -> str:
        if self._text is None:
            pieces, gutter = [], self
            while gutter is not None and len(pieces) < MAX_INDENT_LEVELS:
                pieces.append(gutter.piece)
                gutter = gutter.parent
            hidden = f"…{gutter.depth} " if gutter is not None and gutter.depth > 0 else ""
            self._text = hidden + "".join(reversed(pieces))
        return self._text


_ROOT_GUTTER = _Gutter(None, "")


Line = list[tuple[str, str]]
"""One drawn line: (text, style) pieces; texts are already made visible."""


def tree_lines(roots: list, style: TreeStyle, width: int) -> Iterator[Line]:
    """One line per entry, depth-first, children oldest first, as pi's ``/tree`` draws it.

    A run of single children stays in the same column; only a real branch point indents, with ``├─``/``└─``
    connectors. Iterative, so a 100,000-entry chain draws in constant stack depth.
    """
    for node, head in _drawing_order(roots):
        yield _entry_line(node, head, style, width)


def _drawing_order(roots: list) -> Iterator[tuple[object, str]]:
    """Each node of the tree with the margin drawn before it, in :func:`tree_lines`' order."""
    stack: list[tuple[object, str, _Gutter]] = []
    _push_children(stack, roots, _ROOT_GUTTER, branching=len(roots) > 1)
    while stack:
        node, head, body = stack.pop()
        yield node, head
        children = node.children  # type: ignore[attr-defined]
        if len(children) == 1:  # a run of single children, most of a session: drawn without the stack
            head = body.text()
            while len(children) == 1:
                node = children[0]
                yield node, head
                children = node.children  # type: ignore[attr-defined]
        _push_children(stack, children, body, branching=True)


def _push_children(stack: list, children, body: _Gutter, *, branching: bool) -> None:
    last = len(children) - 1
    for index in range(last, -1, -1):  # pushed in reverse, so the oldest child is drawn first
        child = children[index]
        if not branching:
            stack.append((child, body.text(), body))
            continue
        connector, piece = ("└─ ", "   ") if index == last else ("├─ ", "│  ")
        stack.append((child, body.text() + connector, _Gutter(body, piece)))


def _entry_line(node, head: str, style: TreeStyle, width: int) -> Line:
    # Once per entry of the file: the columns are measured as they are made (the few that repeat, once).
    entry_id, entry_type, kind, preview, tokens = node.digest  # an EntryLook: unpacked, it is read faster
    on_path = entry_id in style.on_path
    marker, marker_style, used = _MARKERS.get(entry_type, _ON_PATH_DOT if on_path else _OFF_PATH_DOT)
    ident, ident_cells = _id_column(entry_id)
    used += ident_cells
    kind_column, kind_cells = _kind_column(kind)
    count = _count_column(tokens)
    line: Line = [
        (head, "dim"),
        (marker, marker_style),
        (ident, "bold" if on_path else "dim"),
        (kind_column, _STYLES.get(entry_type, _STYLES.get(kind, "")) if on_path else "dim"),
        (count, "dim"),
    ]
    used += _repeated_cells(head) + kind_cells + len(count)
    if node.label:
        label = f"[{one_line(_label_text(node.label), 40)}] "
        line.append((label, "bold cyan"))
        used += _cells(label)
    if entry_id == style.leaf_id:
        line.append(("◀ leaf", "bold reverse green"))
        line.append((" ", ""))
        used += _cells("◀ leaf") + 1
    preview_style = _STYLES[entry_type] if entry_type in _MARKERS else ("" if on_path else "dim")
    line.append((_fit(preview, width - used), preview_style))
    return line


def _id_column(entry_id: str) -> tuple[str, int]:
    """The id column of a tree line (the id's first 8 characters, made one line, padded) and its cells."""
    short_id = entry_id[:8]
    if short_id.isascii() and short_id.isprintable() and " " not in short_id:  # what one_line leaves as it is
        ident = f"{short_id:<8} "
        return ident, len(ident)
    ident = f"{one_line(short_id):<8} "
    return ident, _cells(ident)


def _label_text(label: object) -> str:
    """A label as text: a hand-edited file may label with an object or a number (pi keeps any truthy value)."""
    return label if isinstance(label, str) else json.dumps(label, ensure_ascii=False, default=str)


def _cells(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)


def _marker(text: str, style: str) -> tuple[str, str, int]:
    return text, style, _cells(text)


_MARKERS = {"compaction": _marker("▣ ", "bold yellow"), "branch_summary": _marker("◈ ", "bold magenta")}
_ON_PATH_DOT, _OFF_PATH_DOT = _marker("• ", "bold"), _marker("· ", "dim")


@lru_cache(maxsize=1024)
def _repeated_cells(text: str) -> int:
    """:func:`_cells` of a text met again and again (a margin: one per column of the tree)."""
    return _cells(text)


@lru_cache(maxsize=1024)
def _kind_column(kind: str) -> tuple[str, int]:
    column = f"{one_line(_SHORT_KINDS.get(kind, kind), 14):<14}"
    return column, _cells(column)


@lru_cache(maxsize=4096)
def _count_column(tokens: int | None) -> str:
    return f"{'~' + short_count(tokens) if tokens is not None else '':>7} "


def _fit(text: str, cells: int) -> str:
    """``text`` cut to ``cells`` terminal columns, with an ellipsis when cut."""
    if cells <= 0:
        return ""
    if text.isascii():  # one column per character: the common case, and much cheaper than measuring
        return text if len(text) <= cells else text[: cells - 1] + "…"
    if _one_cell_each(text[: cells + 1]):  # what rich's measuring and cutting come to then, without their cost
        # (the characters after these cannot change the cut: they only add columns past it)
        return text if len(text) <= cells else text[: cells - 1].rstrip() + "…"
    return set_cell_size(text, cells - 1).rstrip() + "…" if cell_len(text) > cells else text


_ONE_CELL = set(map(chr, range(0x20, 0x7F)))
"""Characters rich measures as one column each, learnt as they are met."""


def _one_cell_each(text: str) -> bool:
    """Whether rich measures every character of ``text`` as one column, none joining or widening another."""
    if _ONE_CELL.issuperset(text):
        return True
    unknown = set(text).difference(_ONE_CELL)
    if any(char in "\u200d\ufe0f" or get_character_cell_size(char) != 1 for char in unknown):
        return False  # a zero-width joiner or variation selector 16 changes its neighbour's width
    _ONE_CELL.update(unknown)
    return True


class _Painter:
    """Turns drawn lines into terminal text: rich's styles, without rich's per-line layout work.

    A 100,000-entry tree through ``Console.print`` takes tens of seconds; writing pre-rendered style codes
    takes about one. Plain text when the console has no colours (a pipe, ``NO_COLOR``...).
    """

    def __init__(self, console: Console) -> None:
        self.console = console
        self._codes: dict[str, tuple[str, str]] = {}

    def _wrap(self, name: str) -> tuple[str, str]:
        codes = self._codes.get(name)
        if codes is None:
            style = Style.parse(name) if name else Style()
            if self.console.no_color:
                style = style.without_color
            before, _, after = style.render("\0", color_system=self.console.color_system).partition("\0")
            codes = self._codes[name] = (before, after)
        return codes

    def paint(self, line: Line) -> str:
        if self.console.color_system is None:
            return "".join([text for text, _ in line])
        parts = []
        for text, name in line:
            if not text:
                continue
            before, after = self._wrap(name)
            parts.append(before + text + after)
        return "".join(parts)


class _PaintedLines:
    """Tree lines made as terminal text at once: ``_Painter.paint(_entry_line(...))``, with what repeats from
    line to line (a marker, a kind column in its style, a count, a margin) painted and measured once.

    :func:`_entry_line` builds a list of pieces per line and the painter walks it: for a 100k-entry tree that
    was a tenth of ``session show``. The tests hold this to the pieces' way, byte for byte."""

    def __init__(self, console: Console, style: TreeStyle, width: int) -> None:
        painter = _Painter(console)
        self._codes = painter._wrap if console.color_system is not None else lambda name: ("", "")
        self._on_path, self._leaf_id, self._width = style.on_path, style.leaf_id, width
        self._columns: dict[tuple, tuple] = {}
        self._styled: dict[tuple, tuple] = {}
        self._heads: dict[str, tuple[str, int]] = {}

    def _painted(self, text: str, name: str) -> str:
        before, after = self._codes(name)
        return before + text + after if text else ""

    def _columns_of(self, key: tuple) -> tuple:
        """Per (entry type, kind, on the path, token count): the marker painted with the ident's opening code;
        the ident's closing code, the kind column and the count painted; the cells of the marker, kind and
        count columns; and the preview's codes."""
        styles = key[:3]
        before_ident, after_ident, cells, *preview_codes = self._styled.get(styles) or self._styled_of(styles)
        count = _count_column(key[3])
        columns = self._columns[key] = (before_ident, after_ident + self._painted(count, "dim"), cells + len(count),
                                        *preview_codes)
        return columns

    def _styled_of(self, key: tuple) -> tuple:
        """:meth:`_columns_of` without the count, per (entry type, kind, on the path)."""
        entry_type, kind, on_path = key
        marker, marker_style, marker_cells = _MARKERS.get(entry_type, _ON_PATH_DOT if on_path else _OFF_PATH_DOT)
        kind_column, kind_cells = _kind_column(kind)
        kind_style = _STYLES.get(entry_type, _STYLES.get(kind, "")) if on_path else "dim"
        ident_before, ident_after = self._codes("bold" if on_path else "dim")
        preview_style = _STYLES[entry_type] if entry_type in _MARKERS else ("" if on_path else "dim")
        styled = self._styled[key] = (self._painted(marker, marker_style) + ident_before,
                                      ident_after + self._painted(kind_column, kind_style), marker_cells + kind_cells,
                                      *self._codes(preview_style))
        return styled

    def _head_of(self, head: str) -> tuple[str, int]:
        painted = self._heads[head] = (self._painted(head, "dim"), _cells(head))
        return painted

    def lines(self, roots: list) -> Iterator[str]:
        """The tree's lines, :func:`_drawing_order`'s order, each what ``_Painter.paint(_entry_line(...))`` makes
        of it, without the trailing blanks."""
        on_path, leaf_id, width = self._on_path, self._leaf_id, self._width
        columns_known, heads_known = self._columns.get, self._heads.get
        for node, head in _drawing_order(roots):  # once per entry of the file: the columns' work inlined
            entry_id, entry_type, kind, preview, tokens = node.digest  # an EntryLook: unpacked, it is read faster
            key = (entry_type, kind, entry_id in on_path, tokens)
            before_ident, after_ident, used, before, after = columns_known(key) or self._columns_of(key)
            painted_head, head_cells = heads_known(head) or self._head_of(head)
            short_id = entry_id[:8]
            if short_id.isascii() and short_id.isprintable() and " " not in short_id:  # _id_column's common case
                text = f"{painted_head}{before_ident}{short_id:<8} {after_ident}"
                used += head_cells + 9
            else:
                ident, ident_cells = _id_column(entry_id)
                text = f"{painted_head}{before_ident}{ident}{after_ident}"
                used += head_cells + ident_cells
            if node.label or entry_id == leaf_id:
                text, used = self._label_and_leaf(node, entry_id, text, used)
            cells = width - used
            if cells <= 0:
                shown = ""
            elif preview.isascii():  # _fit's common cases, inlined
                shown = preview if len(preview) <= cells else preview[: cells - 1] + "…"
            elif preview[: cells + 1].isascii():  # printable too: a preview is made visible (no ASCII control)
                shown = preview[: cells - 1].rstrip() + "…"  # what _fit makes of a cut within a one-column start
            else:
                shown = _fit(preview, cells)
            yield f"{text}{before}{shown}{after}".rstrip(" ") if shown else text.rstrip(" ")

    def _label_and_leaf(self, node, entry_id: str, text: str, used: int) -> tuple[str, int]:
        if node.label:
            label = f"[{one_line(_label_text(node.label), 40)}] "
            text += self._painted(label, "bold cyan")
            used += _cells(label)
        if entry_id == self._leaf_id:
            text += self._painted("◀ leaf", "bold reverse green") + self._painted(" ", "")
            used += _cells("◀ leaf") + 1
        return text, used


def print_tree(console: Console, roots: list, style: TreeStyle) -> None:
    if not roots:
        console.print(Text("(no entries)", style="dim"))
        return
    lines = _PaintedLines(console, style, console.width).lines(roots)
    out = console.file
    while batch := list(islice(lines, 4096)):  # a few writes of a few hundred KB, not one per line
        out.write("\n".join(batch) + "\n")
    out.flush()


# -- session header, info, listings --------------------------------------------------------------------------


def key_values(console: Console, rows: list[tuple[str, object]]) -> None:
    """Aligned ``key  value`` lines; values are untrusted and shown as plain text."""
    width = max((len(key) for key, _ in rows), default=0) + 2
    for key, value in rows:
        console.print(Text(key.ljust(width), style="bold") + Text(visible_line(str(value))), soft_wrap=True)


def print_counts(console: Console, total: int, types: dict[str, int], roles: dict[str, int]) -> None:
    line = Text(f"{total} entries" + (": " if types else ""), style="bold")
    line.append(", ".join(f"{n} {one_line(t)}" for t, n in sorted(types.items(), key=lambda kv: -kv[1])))
    console.print(line, soft_wrap=True)
    if roles:
        shown = ", ".join(f"{n} {one_line(r)}" for r, n in roles.items())
        console.print(Text("messages: ", style="bold") + Text(shown), soft_wrap=True)


def print_listing(console: Console, rows: list[dict], *, show_cwd: bool) -> None:
    """Two lines per session: when, how many messages and the title; then its id and file."""
    for row in rows:
        head = Text(row["modified"][:16].replace("T", " "), style="green")
        count = row["messageCount"]
        head.append(f" {'—' if count is None else count:>6} msgs  ", style="dim")  # None: too big to count
        if row["name"]:
            head.append(one_line(row["name"]), style="bold")
        else:
            head.append(one_line(row["firstMessage"]))
        head.truncate(console.width, overflow="ellipsis")
        console.print(head, no_wrap=True)
        where = [row["id"], row["path"]] + ([f"(cwd {row['cwd']})"] if show_cwd else [])
        console.print(Text(" " * 17 + "  ".join(one_line(part) for part in where), style="dim"), soft_wrap=True)


# -- a context, readable -------------------------------------------------------------------------------------


def print_context(console: Console, context: dict) -> None:
    """The context for people: a rule per message (a panel per summary), bodies word-wrapped.

    A body longer than :data:`WRAP_LIMIT` characters is written as it is, for the terminal to wrap: rich's
    word wrapping of a message of megabytes took seconds per megabyte and more on one long line (an 8 MB
    message took 23 s); a plain write is linear in the size.
    """
    model = context.get("model")
    model_text = f"{model.get('provider')}/{model.get('modelId')}" if isinstance(model, dict) else "none"
    messages = context.get("messages") or []
    summary = f"{len(messages)} messages · model {model_text} · thinking {context.get('thinkingLevel')}"
    console.print(Text(one_line(summary), style="bold"))
    for message in messages:
        for renderable in _message_renderables(message):
            if isinstance(renderable, Text) and len(renderable) > WRAP_LIMIT:
                console.file.write(renderable.plain + "\n")  # already made visible; only its colours are lost
            else:
                console.print(renderable)


def _message_renderables(message: object) -> list:
    if not isinstance(message, dict):
        return [Rule(Text("(no message)", style="dim"), align="left")]
    role = str(message.get("role"))
    if role in ("compactionSummary", "branchSummary"):
        return _summary_panel(message, role)
    return [Rule(_role_title(message, role), align="left", style="dim"), _message_body(message, role)]


def _role_title(message: dict, role: str) -> Text:
    title = Text(one_line(role, 30), style=_STYLES.get(role, "bold"))
    if role == "toolResult":
        title.append(f" {one_line(str(message.get('toolName')), 40)}", style="blue")
        if message.get("isError"):
            title.append(" error", style="bold red")
    elif role == "custom":
        title.append(f" {one_line(str(message.get('customType')), 40)}")
    return title


def _message_body(message: dict, role: str) -> Text:
    if role == "assistant":
        return _assistant_body(message)
    if role == "toolResult":
        return Text(_shorten(text_of(message.get("content"))), style="dim")
    if role == "bashExecution":
        body = Text(f"$ {visible(str(message.get('command')))}\n", style="bold")
        body.append(_shorten(str(message.get("output", ""))), style="dim")
        if message.get("exitCode") not in (None, 0):
            body.append(f"\n(exit {message.get('exitCode')})", style="red")
        return body
    if role in ("user", "custom"):
        return Text(visible(text_of(message.get("content"))))
    shown = json.dumps(message, ensure_ascii=False, default=str)
    return Text(one_line(shown, 400), style="dim")


def _assistant_body(message: dict) -> Text:
    body = Text()
    content = message.get("content")
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            body.append(visible(str(block.get("text", ""))) + "\n")
        elif kind == "thinking":
            body.append("(thinking) " + one_line(str(block.get("thinking", "")), 300) + "\n", style="dim italic")
        elif kind == "toolCall":
            body.append("→ " + one_line(tool_call_line(block), 200) + "\n", style="yellow")
    if message.get("stopReason") in ("error", "aborted"):
        body.append(one_line(f"[{message.get('stopReason')}] {message.get('errorMessage', '')}"), style="red")
    body.rstrip()
    return body


def _summary_panel(message: dict, role: str) -> list:
    if role == "compactionSummary":
        title, colour = f"compaction summary · {message.get('tokensBefore')} tokens before", "yellow"
    else:
        title, colour = f"branch summary · from {message.get('fromId')}", "magenta"
    heading = Text(one_line(title), style=f"bold {colour}")
    body = Text(visible(str(message.get("summary", ""))))
    if len(body) > WRAP_LIMIT:  # a panel wraps its content: a huge summary goes under a rule instead
        return [Rule(heading, align="left", style=colour), body]
    return [Panel(body, title=heading, border_style=colour)]


def _shorten(text: str) -> str:
    """The first lines of a long output, and how much was left out."""
    lines = text.splitlines()
    kept = "\n".join(lines[:TOOL_RESULT_LINES])[:TOOL_RESULT_CHARS]
    rest = len(text) - len(kept)
    note = f"\n… ({rest} more characters, {max(len(lines) - TOOL_RESULT_LINES, 0)} more lines)" if rest > 0 else ""
    return visible(kept) + note
