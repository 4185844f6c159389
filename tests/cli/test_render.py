"""The tree drawing's shortcuts give exactly what the straightforward code gives.

``one_line`` flattens only a prefix when that is enough, ``visible`` translates only text that needs it, and
``_fit`` cuts text whose characters are all one column wide without rich's grapheme machinery. Each is
checked against the plain version it replaced, on text made to hit the edges: whitespace runs across the
prefix's end, control characters, wide, zero-width and joining characters.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len, set_cell_size

from pi_compact.cli import render

SETTINGS = settings(max_examples=300, deadline=None)

_AWKWARD = [
    *[" ", "  ", "\n", "\t", "\r\n", "\x0b", "\x1c", "\x85", "\xa0", "\u2028", "\u3000"],  # whitespace
    *["\x1b", "\x07", "\x7f", "\x9b", "\u202e", "\u2066", "\ud800"],  # controls, shown as signs
    *["a", "word", "é", "→", "•", "✓", "—", "Ü"],  # one column
    *["日本", "😀", "\u0301", "\u200d", "\ufe0f", "👍\ufe0f", "❤\ufe0f", "👩\u200d💻"],  # wide, zero-width, joining
]
texts = st.lists(st.sampled_from(_AWKWARD) | st.text(max_size=5), max_size=120).map("".join)


def reference_one_line(text: str, limit: int | None = None) -> str:
    if limit is not None:
        text = text[: 8 * limit + 256]
    flat = re.sub(r"\s+", " ", text.translate(render._CONTROLS)).strip()
    if limit is not None and len(flat) > limit:
        return flat[: max(limit - 1, 0)] + "…"
    return flat


def reference_fit(text: str, cells: int) -> str:
    if cells <= 0:
        return ""
    if text.isascii():
        return text if len(text) <= cells else text[: cells - 1] + "…"
    return set_cell_size(text, cells - 1).rstrip() + "…" if cell_len(text) > cells else text


@SETTINGS
@given(texts)
def test_visible_is_the_translation(text):
    assert render.visible(text) == text.translate(render._CONTROLS)


@SETTINGS
@given(texts, st.none() | st.integers(min_value=0, max_value=60))
def test_one_line_is_the_plain_flattening(text, limit):
    assert render.one_line(text, limit) == reference_one_line(text, limit)


@pytest.mark.parametrize("code", range(128))
@pytest.mark.parametrize("around", ["a{}b", "{}", " {} ", "a {}\nb"])
def test_one_line_of_each_ascii_character_is_the_plain_flattening(code, around):
    text = around.format(chr(code))
    assert render.one_line(text) == reference_one_line(text)


@SETTINGS
@given(st.lists(st.sampled_from(["word", " ", "\n", "\t", "\r", "\x0b", "\x1c", "\x1f", "\x00", "\x07", "\x1b",
                                 "\x7f", "~"]), max_size=200).map("".join), st.none() | st.integers(0, 60))
def test_one_line_of_ascii_with_controls_is_the_plain_flattening(text, limit):
    """ASCII text is asked for controls through its bytes (render._flat): the same line as the reference's."""
    assert render.one_line(text, limit) == reference_one_line(text, limit)


@SETTINGS
@given(st.lists(st.sampled_from(["x", "  ", "\n\n", " \t ", "y z"]), max_size=400).map("".join), st.integers(0, 60))
def test_one_line_looks_further_when_whitespace_collapses(text, limit):
    assert render.one_line(text, limit) == reference_one_line(text, limit)


@SETTINGS
@given(st.integers(0, 3_000), st.integers(0, 200), st.sampled_from(["late", "x" * 300, "a b " * 100]))
def test_one_line_finds_text_after_a_run_of_whitespace(spaces, limit, text):
    padded = " \n" * spaces + text
    assert render.one_line(padded, limit) == reference_one_line(padded, limit)


def test_one_line_of_long_previews():
    cases = [(" " * 100 + "late", "late"), (" " * 5_000 + "late", ""), ("a  " * 1_000, "a " * 79 + "a…")]
    for text, expected in cases:
        assert render.one_line(text, 160) == reference_one_line(text, 160) == expected


@SETTINGS
@given(texts, st.integers(min_value=-2, max_value=50))
def test_fit_cuts_as_rich_does(text, cells):
    flat = render.one_line(text, render.PREVIEW_CHARS)  # what _fit is given in a tree
    assert render._fit(flat, cells) == reference_fit(flat, cells)
    assert render._fit(text, cells) == reference_fit(text, cells)


# -- the context view: linear in the size of a message -----------------------------------------------------------


class _MeasuringConsole(render.Console):
    """A console that records the longest text it was asked to lay out (rich's wrapping is superlinear)."""

    longest = 0

    def print(self, *objects, **kwargs):  # type: ignore[override]
        for item in objects:
            for text in _texts_in(item):
                self.longest = max(self.longest, len(text))
        super().print(*objects, **kwargs)


def _texts_in(item) -> list:
    if isinstance(item, render.Text):
        return [item]
    inner = getattr(item, "renderable", None) or getattr(item, "renderables", None)
    if isinstance(inner, list):
        return [text for part in inner for text in _texts_in(part)]
    return _texts_in(inner) if inner is not None else []


def _context(*messages: dict) -> dict:
    return {"messages": list(messages), "thinkingLevel": "off", "model": None}


def _print(context: dict) -> tuple[str, int]:
    import io

    out = io.StringIO()
    console = _MeasuringConsole(file=out, width=80, highlight=False, markup=False, emoji=False, color_system=None)
    render.print_context(console, context)
    return out.getvalue(), console.longest


@pytest.mark.parametrize("role", ["user", "assistant", "compactionSummary"])
def test_a_huge_message_is_written_without_rich_laying_it_out(role):
    body = "x" * 300 + "\n" + ("words and more words \x1b " * 20 + "\n") * 5_000  # 2.5 MB, a 300-character line
    if role == "user":
        message = {"role": "user", "content": body}
    elif role == "assistant":
        message = {"role": "assistant", "content": [{"type": "text", "text": body}], "stopReason": "stop"}
    else:
        message = {"role": "compactionSummary", "summary": body, "tokensBefore": 1}
    out, longest = _print(_context(message))
    assert longest <= render.WRAP_LIMIT  # rich never lays out the body: the cost stays linear in its size
    assert "x" * 300 + "\n" in out  # the long line is left whole, for the terminal to wrap
    assert out.count("words and more words ␛") == 20 * 5_000 and "\x1b" not in out


def test_an_ordinary_message_is_still_word_wrapped():
    out, _ = _print(_context({"role": "user", "content": "word " * 100}))
    assert all(len(line) <= 80 for line in out.splitlines()) and out.count("word") == 100


@pytest.mark.parametrize(("number", "one", "many", "expected"), [
    (0, "compaction", None, "0 compactions"),
    (1, "compaction", None, "1 compaction"),
    (2, "branch summary", "branch summaries", "2 branch summaries"),
    (1, "branch summary", "branch summaries", "1 branch summary"),
    (12345, "match", "matches", "12,345 matches"),
])
def test_counts_agree_with_their_noun(number, one, many, expected):
    from pi_compact.cli.plain import counted

    assert counted(number, one, many) == expected


# -- a tree previews the start of each entry: the start is put together, not the whole --------------------------

_LONG = st.sampled_from(["", " ", "  \n ", "word " * 40, "\t" * 30, "x" * 90, "日本 " * 20]) | texts
_BLOCKS = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, _LONG),
    st.builds(lambda t: {"type": "thinking", "thinking": t}, _LONG),
    st.builds(lambda name, args: {"type": "toolCall", "name": name, "arguments": args},
              st.sampled_from(["read", "bash", None]),
              st.dictionaries(st.sampled_from(["path", "command", "n"]), _LONG | st.integers(), max_size=3)),
    st.builds(lambda mime: {"type": "image", "mimeType": mime}, st.sampled_from(["image/png", "", None])),
    st.sampled_from([{"type": "text", "text": 5}, {"type": "text"}, "a string", None]),
)
_MESSAGES = st.builds(
    lambda role, content, extra: {"role": role, "content": content, **extra},
    st.sampled_from(["user", "assistant", "toolResult", "bashExecution", "custom", "compactionSummary", None]),
    _LONG | st.lists(_BLOCKS, max_size=6) | st.sampled_from([None, 5]),
    st.fixed_dictionaries({}, optional={"stopReason": st.sampled_from(["error", "stop"]), "isError": st.booleans(),
                                        "toolName": st.sampled_from(["read", None]), "command": _LONG,
                                        "summary": _LONG, "exitCode": st.sampled_from([0, 1, None])}),
)
_ENTRIES = st.one_of(
    st.builds(lambda m: {"type": "message", "message": m}, _MESSAGES | st.sampled_from([None, "text"])),
    st.builds(lambda c, t: {"type": "custom_message", "customType": t, "content": c},
              _LONG | st.lists(_BLOCKS, max_size=4), st.sampled_from(["note", None])),
    st.builds(lambda s: {"type": "compaction", "summary": s, "tokensBefore": 5, "firstKeptEntryId": "a"}, _LONG),
    st.builds(lambda s: {"type": "branch_summary", "summary": s, "fromId": "a"}, _LONG),
)


_BLANK_THEN_CALL = {"role": "assistant", "content": [{"type": "text", "text": "\t" * 30},
                                                    {"type": "toolCall", "name": "read", "arguments": {"path": "a"}}]}


@SETTINGS
@given(_ENTRIES, st.integers(min_value=1, max_value=120))
@example({"type": "message", "message": _BLANK_THEN_CALL}, 10)  # the room taken by blanks that strip() drops
@example({"type": "message", "message": {"role": "toolResult", "content": [{"type": "text", "text": "a"}] * 50}}, 7)
def test_a_preview_with_room_is_the_start_of_the_whole(entry, room):
    whole = render.entry_preview(entry)
    start = render.entry_preview(entry, room)
    assert whole.startswith(start)
    assert start == whole or len(start) >= room


@SETTINGS
@given(texts, st.integers(min_value=0, max_value=12), st.integers(min_value=0, max_value=300))
def test_one_line_reads_no_further_than_it_says(text, limit, more):
    padded = " \n" * 150 + text  # blanks at the start: one_line must look past its first window
    reads = render.one_line_reads(limit)
    assert render.one_line(padded[: reads + more], limit) == render.one_line(padded, limit)
    assert render.one_line(text[: reads + more], limit) == render.one_line(text, limit)


@SETTINGS
@given(_ENTRIES)
def test_the_tree_look_is_the_whole_preview_made_one_line(entry):
    look = render.entry_look()({"id": "a", **entry})
    assert look.preview == render.one_line(render.entry_preview(entry), render.PREVIEW_CHARS)


def test_every_control_character_is_unprintable_to_python():
    # _flat's shortcut: printable words and no control among the blanks leave nothing for visible() to do
    assert not any(chr(code).isprintable() for code in render._CONTROLS)
    assert set(render._BLANK_CONTROLS) == {chr(code) for code in render._CONTROLS if chr(code).isspace()}


def test_blank_controls_are_found_by_the_spelt_out_test():
    # _flat asks _blank_control_in rather than looping over _BLANK_CONTROLS: the two must name the same characters
    found = {chr(code) for code in range(0x11000) if render._blank_control_in(chr(code))}
    assert found == set(render._BLANK_CONTROLS)


# -- the painted tree lines are the pieces painted -------------------------------------------------------------

_PREVIEWS = st.lists(st.sampled_from(["a", "word ", " ", "…", "→", "日本", "\u0301", "x" * 30]) | texts,
                     max_size=40).map("".join)


def _painted_both_ways(rows: list[tuple], width: int, colour: bool) -> tuple[list[str], list[str]]:
    """The lines of a tree of one level of ``rows`` (preview, kind, on the path, tokens, ident), painted by
    :class:`render._PaintedLines` and by the painter from the pieces."""
    import io
    from types import SimpleNamespace

    nodes = [SimpleNamespace(digest=render.EntryLook(f"{ident}{n}", kind, kind, render.one_line(preview, 160), tokens),
                             label="lbl" if n == 1 else None, children=[])
             for n, (preview, kind, _, tokens, ident) in enumerate(rows)]
    on_path = frozenset(node.digest.id for node, (_, _, on, _, _) in zip(nodes, rows) if on)
    style = render.TreeStyle(nodes[-1].digest.id, on_path)
    console = render._Console(file=io.StringIO(), width=width, color_system="256" if colour else None,
                              force_terminal=colour, highlight=False, markup=False, emoji=False)
    painter = render._Painter(console)
    expected = [painter.paint(line).rstrip(" ") for line in render.tree_lines(nodes, style, width)]
    return list(render._PaintedLines(console, style, width).lines(nodes)), expected


@SETTINGS
@given(st.lists(st.tuples(_PREVIEWS, st.sampled_from(["message", "compaction", "custom"]), st.booleans(),
                          st.none() | st.integers(min_value=0, max_value=50_000),
                          st.sampled_from(["abc12345", "日本語ident", " sp"])),
                min_size=1, max_size=6),
       st.integers(min_value=1, max_value=200), st.booleans())
def test_painted_lines_are_the_pieces_painted(rows, width, colour):
    painted, expected = _painted_both_ways(rows, width, colour)
    assert painted == expected


@pytest.mark.parametrize("width", range(60, 66))
@pytest.mark.parametrize("preview", ["word " * 40 + "日本", "word " * 40, "word " * 20 + "→ read(x)"])
def test_a_preview_cut_at_a_blank_is_painted_as_the_pieces_are(preview, width):
    # a cut preview ends in "…": not ASCII, so the cut drops the blanks before the ellipsis; an ASCII one does not
    painted, expected = _painted_both_ways([(preview, "message", True, 7, "abc12345")], width, False)
    assert painted == expected
