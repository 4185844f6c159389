"""Plain ``key  value`` lines (``session info`` on a pipe) are, byte for byte, what rich prints there, and rich is
left to print what it would style."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.cli import plain, render, search_cmds
from pi_compact.recaller import RecallHit, RecallResult
from sessions_fixtures import BRANCHES

_KEYS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=14)
_VALUES = st.one_of(st.text(), st.text(alphabet=" \t\n\r\x1b\x85\u2028\u3000界a\u0301\ud800", max_size=12),
                    st.text(alphabet="\tab界\u0301\u200d\U0001f469\ufe0f\u240a ", max_size=40),
                    st.integers(), st.none(), st.text(min_size=70, max_size=120))


def rich_lines(rows: list[tuple[str, object]], monkeypatch, width: int) -> str:
    """What render.key_values prints on stdout when stdout is no terminal (a console as the CLI makes it)."""
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", str(width))
    render.key_values(render.stdout_console(), rows)
    return out.getvalue()


@given(rows=st.lists(st.tuples(_KEYS, _VALUES), min_size=1, max_size=6), width=st.sampled_from([20, 80, 150]))
def test_the_plain_lines_are_riches(rows, width):
    with pytest.MonkeyPatch.context() as monkeypatch:
        expected = rich_lines(rows, monkeypatch, width)
    assert plain.key_value_lines(rows) == expected


@pytest.mark.parametrize("value", ["a " * 60, "word\u3000" * 30, "x" * 90 + "   ", "", " "])
@pytest.mark.parametrize("width", [20, 80])
def test_whitespace_ending_a_long_line_is_printed_plain(monkeypatch, value, width):
    """rich 14.3 on keeps whitespace ending a soft-wrapped line longer than the console: so do the plain lines
    (the first message of a session often ends with a space; info then needed rich for it)."""
    rows = [("firstMessage", value), ("n", 1)]
    lines = plain.key_value_lines(rows)
    assert lines is not None and lines == rich_lines(rows, monkeypatch, width)


@pytest.mark.parametrize("environment, styled", [
    ({}, False), ({"FORCE_COLOR": "1"}, True), ({"FORCE_COLOR": ""}, False), ({"TTY_COMPATIBLE": "1"}, True),
    ({"TTY_COMPATIBLE": "0"}, False),
], ids=["pipe", "force-color", "force-color-empty", "tty-compatible", "tty-incompatible"])
def test_rich_is_left_to_style_what_it_would_style(monkeypatch, environment, styled):
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert plain.rich_adds_nothing() is not styled
    assert render.stdout_console().is_terminal is styled


def test_info_on_a_pipe_imports_no_rich():
    """What the plain lines are for: ``session info`` piped starts without rich (a fifth of its time)."""
    code = ("import sys; from pi_compact.cli import main\n"
            "try:\n    main(['session', 'info', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "print(any(name == 'rich' or name.startswith('rich.') for name in sys.modules), file=sys.stderr)")
    run = subprocess.run([sys.executable, "-c", code, str(BRANCHES)], capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin:/bin", "PI_COMPACT_CACHE_DIR": ""})
    assert run.stderr.strip() == "False" and "messageCount" in run.stdout


@pytest.mark.parametrize("value", ["\t", "a\tb", "\t\t", "界\tx", "e\u0301\t", "\U0001f469\u200d\U0001f469\tz",
                                   "1234567\t8", "12345678\t", "x\u240a\ty\t", "tail\t"])
@pytest.mark.parametrize("key", ["k", "firstMessage"])
def test_tabs_are_expanded_as_rich_expands_them(monkeypatch, key, value):
    """A tab goes to the next column of 8 by cells, wide and zero-width characters counted as rich counts them
    (the bench's first message holds one: info then imported rich for it)."""
    rows = [(key, value), ("n", 1)]
    lines = plain.key_value_lines(rows)
    assert lines is not None and "\t" not in lines and lines == rich_lines(rows, monkeypatch, 80)


def test_info_of_a_first_message_with_a_tab_and_a_trailing_space_imports_no_rich_console(tmp_path):
    """The bench's first message holds a tab and ends with a space: info prints it plain, with rich's cells only."""
    header = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}
    text = "界 run\tthe tests " * 9
    message = {"type": "message", "id": "e1", "parentId": None, "timestamp": "2025-01-01T00:00:01.000Z",
               "message": {"role": "user", "content": text, "timestamp": 1735689601000}}
    path = tmp_path / "tab.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(message) + "\n", encoding="utf-8")
    code = ("import sys; from pi_compact.cli import main\n"
            "try:\n    main(['session', 'info', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "print(sorted(name for name in sys.modules if name.startswith('rich.co')), file=sys.stderr)")
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin:/bin", "PI_COMPACT_CACHE_DIR": "", "COLUMNS": "80"})
    assert run.stderr.strip() == "[]" and "\t" not in run.stdout and "firstMessage" in run.stdout


_EXCERPTS = st.one_of(st.text(), st.text(alphabet="\tab界\u0301\u200d\U0001f469\ufe0f\n \x1b\r", max_size=60),
                      st.text(min_size=70, max_size=200))
_HITS = st.builds(RecallHit, entry_id=st.text("0123456789abcdef", min_size=8, max_size=8),
                  kind=st.sampled_from(["user", "assistant", "toolResult(bash)", "branch_summary"]),
                  timestamp=st.one_of(st.none(), st.just("2025-01-01T00:00:01.000Z")), excerpt=_EXCERPTS,
                  abandoned=st.booleans())


@given(hits=st.lists(_HITS, max_size=4), more=st.integers(0, 3), compacted=st.booleans(),
       width=st.sampled_from([20, 80]))
def test_search_prints_plain_what_rich_prints(hits, more, compacted, width):
    """``session search`` on a pipe writes, without rich's console, the very bytes rich writes (tabs, wide and
    joined characters, newlines in an excerpt, a header longer than a narrow console)."""
    found = RecallResult("q", tuple(hits), len(hits) + more, 1234567, False)
    with pytest.MonkeyPatch.context() as monkeypatch:
        for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("COLUMNS", str(width))
        outputs = []
        for plain_allowed in (True, False):
            monkeypatch.setattr(plain, "rich_adds_nothing", lambda allowed=plain_allowed: allowed)
            out = io.StringIO()
            monkeypatch.setattr(sys, "stdout", out)
            search_cmds._print_human(found, compacted)
            outputs.append(out.getvalue())
    assert outputs[0] == outputs[1]


def test_search_on_a_pipe_imports_no_rich_console():
    code = ("import sys; from pi_compact.cli import main\n"
            "try:\n    main(['session', 'search', sys.argv[1], 'the'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(name for name in sys.modules if name.startswith('rich.co')), file=sys.stderr)")
    run = subprocess.run([sys.executable, "-c", code, str(BRANCHES)], capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin:/bin", "PI_COMPACT_CACHE_DIR": "", "COLUMNS": "80"})
    assert run.stderr.strip() == "[]" and " in " in run.stdout.splitlines()[0]
