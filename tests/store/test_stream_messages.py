"""``session info``'s own pass over a big file (StreamedFile.messages, no slot per message line of pi's) gives
exactly what the plain pass gives: Piece.readable("message") of every piece, indexed by TallyIndex.add.

Compared on every bundled session, the damaged corpus, hostile files (hypothesis: deep nesting, broken lines
of pi's shape, duplicates, garbage, torn tails, ``\\u`` escapes, invalid UTF-8...) and lines longer than a
piece, with the big-file rules (only lines pi did not write parsed at open) and pieces of a few bytes to 8 MB.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_compact.errors import PiCompactError
from pi_compact.session import Session
from pi_compact.session_json import file_info_json, session_info_json
from pi_compact.store import scan, stream
from pi_compact.store.stream import StreamedFile
from sessions_fixtures import BRANCHES, DEMO, PI_SESSIONS, REALISTIC

from .test_scan_stream import CORPUS, HEADER, _entry, _line, as_v3, hostile_files

PIECES = [5, 64, 4096, 8 * 1024 * 1024]


def plain(path: Path) -> tuple:
    """The messages and figures of the plain pass: every piece's slots, then Piece.readable."""
    return _read(path, lambda file: [entry for piece in file.pieces() for entry in piece.readable("message")])


def fast(path: Path) -> tuple:
    return _read(path, lambda file: list(file.messages()))


def _read(path: Path, messages) -> tuple:
    try:
        file = StreamedFile.open(path, tally=True)
        if file is None:
            return ("whole",)
        read = messages(file)
        index = file.finish()
        return ("ok", read, [p.to_json() for p in index.problems], len(index), index.last_id(), index.labels,
                index.name())
    except PiCompactError as exc:
        return (type(exc).__name__, str(exc))


@pytest.fixture(autouse=True)
def big_file_rules(monkeypatch):
    """The big-file rules on small files: the fast pass is the one a file over 8 MB gets."""
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)


def bundled(tmp_path: Path) -> list[Path]:
    return [DEMO, REALISTIC, BRANCHES, *PI_SESSIONS, *(as_v3(p, tmp_path / f"{p.stem}.v3.jsonl") for p in PI_SESSIONS)]


@pytest.mark.parametrize("piece_bytes", PIECES)
def test_bundled_sessions(tmp_path, monkeypatch, piece_bytes):
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    for path in bundled(tmp_path):
        expected = plain(path)
        assert expected[0] in ("ok", "whole"), path
        assert fast(path) == expected, path
        if expected[0] == "ok":
            assert expected[1], path  # messages were read, not an empty pass on both sides


@pytest.mark.parametrize("piece_bytes", PIECES)
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_damaged_corpus(monkeypatch, path, piece_bytes):
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    assert fast(path) == plain(path)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hostile_files(), piece_bytes=st.sampled_from([5, 16, 64, 4096]))
def test_hostile_files(tmp_path, monkeypatch, data, piece_bytes):
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    assert fast(path) == plain(path)


_BROKEN_MESSAGES = [
    b'{"type":"message","id":"b1","parentId":null,"timestamp":"t","message":{"role":"user","content":"x"}',
    b'{"type":"message","id":"b2","parentId":null,"timestamp":"t","message":{"role":"user","content":"x\tx"}}',
    b'{"type":"message","id":"b3","parentId":null,"timestamp":"t","message":{"role":"user"},"x":1},{"a":1}',
    b'{"type":"message","id":"b4","parentId":null,"timestamp":"t","message":{"role":"user","content":"\xff"}}',
    b'{"type":"message","id":"b5","parentId":null,"timestamp":"t","message":{"role":"user","content":"\\ud800"}}',
    b'{"type":"message","id":"b6","parentId":null,"timestamp":"t","message":{"role":"user","content":"a"}}  \r',
    b'{"type":"message","id":"b7","parentId":null,"timestamp":"t","message":NaN}',
    b'{"type":"message","id":"b1","parentId":null,"timestamp":"t","message":{"role":"assistant","content":[]}}',
    b'{"type":"message","id":"b8","parentId":null,"timestamp":"t","n":' + b"[" * 150 + b"]" * 150 + b"}",
    b'{"type":"message","id":"b9","parentId":null,"timestamp":"t","n":' + b"[" * 80 + b"]" * 80 + b',"s":"'
    + b"{" * 60 + b'"}',
    b'{"type":"message","id":"c1","parentId":null,"timestamp":"t","n":' + b"[" * 1100 + b"]" * 1100 + b"}",
]


@pytest.mark.parametrize("piece_bytes", [64, 4096])
@pytest.mark.parametrize("number", range(len(_BROKEN_MESSAGES)))
def test_message_lines_of_pis_shape_that_do_not_read_as_they_look(tmp_path, monkeypatch, piece_bytes, number):
    """Lines with pi's prefix and a closing brace, yet broken, joined to the next, invalid UTF-8, a lone
    surrogate, nested too deep (in brackets, or only in a string's characters), or an id seen before."""
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    path = tmp_path / "s.jsonl"
    good = _line("message", 1, "hi", None)
    path.write_bytes(b"\n".join([orjson.dumps(HEADER), good, *_BROKEN_MESSAGES[: number + 1], good, b""]))
    expected = plain(path)
    assert expected[0] == "ok"
    assert fast(path) == expected


def test_a_line_longer_than_a_piece(tmp_path, monkeypatch):
    monkeypatch.setattr(stream, "PIECE_BYTES", 4096)
    path = tmp_path / "s.jsonl"
    lines = [orjson.dumps(HEADER), _line("message", 1, "hi", None), _line("message", 2, "x" * 20000, "e0000001"),
             b"\x00" * 9000, _line("label", 3, "a label", "e0000002"), _line("message", 4, "after", "e0000002")]
    path.write_bytes(b"\n".join(lines))  # the last line has no newline
    expected = plain(path)
    assert expected[0] == "ok" and len(expected[1]) == 3
    assert fast(path) == expected


def test_the_fast_pass_makes_no_slot_for_a_message_line_of_pis(tmp_path, monkeypatch):
    """What makes it fast (issue 24: `session info` within a second on 100,000 entries): of a file of pi's
    message lines, not one goes through the scanner's code for a line or the index's add."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join([orjson.dumps(HEADER)] + [_line("message", i, "m", None) for i in range(1, 40)]) + b"\n")
    calls = []
    monkeypatch.setattr(scan, "lazy_line_slot", lambda *args: calls.append(args))
    monkeypatch.setattr(stream.TallyIndex, "add", lambda self, slot: calls.append(slot))
    read = fast(path)
    assert calls == [] and len(read[1]) == 39 and read[3] == 39 and read[4] == "e0000039"


def test_an_eager_read_is_the_plain_pass(tmp_path, monkeypatch):
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 8 * 1024 * 1024)
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join([orjson.dumps(HEADER), _line("message", 1, "hi", None), *_BROKEN_MESSAGES, b""]))
    assert fast(path) == plain(path)


@pytest.mark.parametrize("path", [*PI_SESSIONS, *CORPUS], ids=lambda p: p.stem)
def test_info_of_the_file_is_info_of_the_session_opened_whole(path):
    """file_info_json (the fast pass) against session_info_json of the file opened whole, v1/v2 files included."""
    _assert_info_is_info_of_the_session_opened_whole(path)


@settings(max_examples=100, deadline=None)
@given(texts=st.lists(st.text(max_size=20), min_size=1, max_size=6), stamps=st.lists(
    st.one_of(st.none(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False), st.text(max_size=5)), min_size=1))
def test_the_summary_of_generated_messages(texts, stamps):
    """Firsts and newest times over generated message lines (numbers, strings, nothing as timestamps)."""
    import tempfile

    lines = [orjson.dumps(HEADER)]
    for index, text in enumerate(texts):
        entry = _entry("message", index + 1, text, None)
        entry["message"]["timestamp"] = stamps[index % len(stamps)]
        lines.append(orjson.dumps(entry))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        assert fast(path) == plain(path)
        assert file_info_json(path)[1] == session_info_json(Session.open(path))


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(["message", "message", "label", "custom", "escaped", "broken", "reordered", "no_id"]),
       text=st.text(max_size=8), start=st.sampled_from([b"", b" \t", b"\r"]),
       kind_written=st.sampled_from(["message", "messages", "Message", "mess", "model_change"]))
def test_the_message_prefix_is_the_scanners_prefix_of_a_message(kind, text, start, kind_written):
    line = start + _line(kind, 3, text, "e0000001").replace(b'"type":"message"', f'"type":"{kind_written}"'.encode(), 1)
    found, general = stream._MESSAGE_PREFIX.match(line), scan._PREFIX.match(line)
    if general is None or general.group(1) != b"message":
        assert found is None
    else:
        assert found is not None and found.groups() == general.groups()[1:] and found.end() == general.end()


_DAMAGE = {
    "torn": lambda line, at: line[:at],
    "joined": lambda line, at: line[:at] + _line("message", 99, "next", None),
    "nul": lambda line, at: line[:at] + b"\x00" + line[at:],
    "bad_utf8": lambda line, at: line[:at] + b"\xc3\x28" + line[at:],
    "control": lambda line, at: line[:at] + b"\x01" + line[at:],
    "tab": lambda line, at: line[:at] + b"\t" + line[at:],
    "backslash": lambda line, at: line[:at] + b"\\" + line[at:],
    "brackets": lambda line, at: line[:at] + b"[" * 60 + b"{" * 50 + line[at:],
    "nested": lambda line, at: line[:-1] + b',"n":' + b"[" * (90 + at % 20) + b"]" * (90 + at % 20) + b"}",
    "quote": lambda line, at: line[:at] + b'"' + line[at:],
    "closed": lambda line, at: line[:at] + b"}",
}
"""Ways a line of pi's shape breaks at a byte: torn (alone, or joined with another line), a NUL, invalid UTF-8, a raw
control character or tab (invalid inside a string), a stray backslash or quote, brackets in a string (counted
by the depth rule's cheap test, not nesting), nesting around the depth limit, a closing brace too early."""


@st.composite
def damaged_sessions(draw) -> bytes:
    """Message lines of pi's shape (some with brackets and escapes in their text), a few of them damaged at a
    byte drawn anywhere in the line (the prefix included)."""
    lines = [orjson.dumps(HEADER)]
    count = draw(st.integers(1, 12))
    for index in range(1, count + 1):
        text = draw(st.text(alphabet=st.sampled_from('ab{}[]"\\\n\t é'), max_size=30))
        line = _line("message", index, text, None if index == 1 else f"e{index - 1:07d}")
        if draw(st.integers(0, 2)) == 0:
            harm = draw(st.sampled_from(sorted(_DAMAGE)))
            line = _DAMAGE[harm](line, draw(st.integers(0, len(line) - 1)))
        lines.append(line)
    return b"\n".join(lines) + draw(st.sampled_from([b"\n", b""]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=damaged_sessions(), piece_bytes=st.sampled_from([64, 4096]))
def test_the_fast_pass_reads_damaged_lines_as_the_line_by_line_pass(tmp_path, monkeypatch, data, piece_bytes):
    """Damage injected at random places in message lines of pi's shape: the fast pass (no slot, one bracket
    count per piece, the quick prefix) gives the messages, counts and problems of the plain pass, and
    ``session info`` the document of the file opened whole."""
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    assert fast(path) == plain(path)
    _assert_info_is_info_of_the_session_opened_whole(path)


@pytest.mark.parametrize("line", [
    b'{"type":"message","id":"a\\u0062","parentId":null,"timestamp":"t","message":{"role":"user","content":"x"}}',
    b'{"type":"message","id":"c","parentId":"a\\\\","timestamp":"t","message":{"role":"user","content":"x"}}',
    b'{"type":"message","id":"d","parentId":null,"timestamp":"t\\"","message":{"role":"user","content":"x"}}',
], ids=["id", "parent", "timestamp"])
def test_a_backslash_in_the_prefix_takes_the_scanners_way(tmp_path, line):
    """The quick prefix reads strings with a backslash too; such a line is left to the scanner, whose prefix
    does not match it (the id is the parsed entry's: ``ab``, not ``a\\u0062``)."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join([orjson.dumps(HEADER), _line("message", 1, "hi", None), line, b""]))
    assert stream._QUICK_MESSAGE_PREFIX.match(line) is not None and scan._PREFIX.match(line) is None
    assert fast(path) == plain(path)


def _assert_info_is_info_of_the_session_opened_whole(path):
    """file_info_json (the fast pass) gives session_info_json of the file opened whole, or fails as opening it does."""
    try:
        expected = session_info_json(Session.open(path))
    except PiCompactError as exc:
        with pytest.raises(type(exc)):
            file_info_json(path)
        return
    assert file_info_json(path)[1] == expected
