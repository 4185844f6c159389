"""A file read in pieces (store.stream: ``session show`` and ``info``) gives exactly what opening it whole gives.

Compared on every bundled session and on generated hostile files (escaped quotes, ``\\u`` escapes, keys in
another order, nested objects, lines deeper than the store's depth rule, BOM, CRLF, blank and garbage lines,
lines longer than a piece, holes of NULs, a torn last line), in both of the scanner's modes (every line parsed
at open, or only the lines pi did not write) and with pieces of a few bytes, so that every line is cut.
"""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_compact import session_json
from pi_compact.cli import render
from pi_compact.errors import CorruptEntryError, PiCompactError
from pi_compact.session import Session
from pi_compact.session_json import (
    counted_tree,
    entry_tokens,
    file_counted_tree,
    file_info_json,
    session_info_json,
    session_show_json,
    show_json_digest,
    show_json_document,
)
from pi_compact.store import scan, stream
from pi_compact.store.jsonl import dumps_line
from pi_compact.store.stream import StreamedFile
from sessions_fixtures import BRANCHES, DEMO, PI_SESSIONS, REALISTIC

HEADER = {"type": "session", "version": 3, "id": "s-1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}


def whole(path: Path) -> tuple:
    """What the whole-file path answers: show --json, the human show's digests and counts, info --json."""
    return _outcome(lambda: (
        session_show_json(Session.open(path)),
        _human(Session.open(path)),
        _info(Session.open(path)),
    ))


def streamed(path: Path) -> tuple:
    def human() -> tuple:
        session, roots, counts = file_counted_tree(path, _look())
        return _flat(roots), counts.to_json(), _problems(session)

    return _outcome(lambda: (show_json_document(*file_counted_tree(path, show_json_digest())), human(),
                             _info_of(*file_info_json(path))))


def _look():
    return render.entry_look(entry_tokens(render.token_estimator()))


def _human(session: Session) -> tuple:
    roots, counts = counted_tree(session, _look())
    return _flat(roots), counts.to_json(), _problems(session)


def _flat(roots: list) -> list:
    """The tree as (id, digest, label, child ids) in depth-first order: a long chain is too deep to compare."""
    nodes, stack = [], list(reversed(roots))
    while stack:
        node = stack.pop()
        nodes.append((node.id, node.digest, node.label, [child.id for child in node.children]))
        stack.extend(reversed(node.children))
    return nodes


def _info(session: Session) -> tuple:
    return _info_of(session, session_info_json(session))


def _info_of(session: Session, data: dict) -> tuple:
    return data, _problems(session), session.leaf_id, session.name


def _problems(session: Session) -> list:
    return [p.to_json() for p in session.problems]


def _outcome(run) -> tuple:
    try:
        return ("ok", run())
    except PiCompactError as exc:
        return (type(exc).__name__, str(exc))


@pytest.fixture(params=["eager", "lazy"])
def mode(request, monkeypatch):
    if request.param == "lazy":  # big-file rules: lines pi wrote are indexed from their first bytes, parsed later
        monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    return request.param


@pytest.fixture(params=[8 * 1024 * 1024, 4096, 7])
def piece(request, monkeypatch):
    monkeypatch.setattr(stream, "PIECE_BYTES", request.param)
    return request.param


def as_v3(source: Path, target: Path) -> Path:
    """A v1 file of pi's as the v3 file the store writes from it (the stream reads v3; v1/v2 are opened whole)."""
    session = Session.open(source)
    target.write_bytes(b"".join(dumps_line(e) for e in [{**session.header, "version": 3}, *session.entries()]))
    return target


def bundled(tmp_path: Path) -> list[Path]:
    return [DEMO, REALISTIC, BRANCHES, *PI_SESSIONS, *(as_v3(p, tmp_path / f"{p.stem}.v3.jsonl") for p in PI_SESSIONS)]


def test_every_bundled_session_reads_the_same(tmp_path, mode, piece):
    for path in bundled(tmp_path):
        expected = whole(path)
        assert expected[0] == "ok", path
        assert streamed(path) == expected, path


CORPUS = sorted((Path(__file__).resolve().parents[1] / "reliability" / "corpus").glob("*.jsonl"))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_every_damaged_file_of_the_corpus_reads_the_same(path, mode, piece):
    """tests/reliability/corpus: torn tails, NULs, garbage before the header, duplicate ids, cycles, deep lines,
    invalid UTF-8, lone surrogates, CRLF, BOM... what the whole read answers, or the error it raises."""
    assert streamed(path) == whole(path)


def test_a_v1_file_is_opened_whole_for_its_migration(tmp_path):
    assert StreamedFile.open(PI_SESSIONS[0]) is None
    assert streamed(PI_SESSIONS[0]) == whole(PI_SESSIONS[0])


# -- hostile files ---------------------------------------------------------------------------------------------

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30) | st.sampled_from(
    ['say "hi"\\', "\x00\x1b[2J\u2028", "ë\ud7ff😀", "}\n{", '","timestamp":1}}', "\\u0041"])


def _entry(kind: str, index: int, text: str, parent: str | None) -> dict:
    entry = {"type": kind, "id": f"e{index:07d}", "parentId": parent, "timestamp": f"2025-01-01T00:00:{index % 60:02d}.000Z"}
    if kind == "message":
        role = ("user", "assistant", "toolResult")[index % 3]
        content = [{"type": "text", "text": text}] if role != "assistant" else [
            {"type": "thinking", "thinking": text}, {"type": "toolCall", "id": "c", "name": "bash", "arguments": {"command": text, "n": {"deep": [1, 2.5]}}}]
        entry["message"] = {"role": role, "content": content if index % 4 else text, "timestamp": 1_700_000_000_000 + index}
    elif kind == "label":
        entry.update(targetId=parent, label=text or None)
    elif kind == "session_info":
        entry["name"] = text
    elif kind == "custom":  # pi writes these with their own fields first
        entry = {"customType": "x", "data": {"text": text}, **entry}
    return entry


def _deep(levels: int) -> object:
    value: object = "bottom"
    for _ in range(levels):
        value = {"k": [value]}
    return value


def _line(kind: str, index: int, text: str, parent: str | None) -> bytes:
    if kind == "deep":  # pi's prefix, nested past the depth rule
        return orjson.dumps({**_entry("message", index, text, parent), "details": _deep(60)})
    if kind == "reordered":
        entry = _entry("message", index, text, parent)
        return orjson.dumps(dict(reversed(list(entry.items()))))
    if kind == "escaped":  # \\u escapes in place of raw characters (another writer's JSON)
        return orjson.dumps(_entry("message", index, text, parent)).decode().encode("ascii", "backslashreplace").replace(b"\\x", b"\\u00")
    if kind == "duplicate":
        return orjson.dumps(_entry("message", max(index - 2, 0), text, parent))
    if kind == "no_id":
        return b'{"type":"message","parentId":null,"message":{"role":"user","content":"x"}}'
    if kind == "header_again":
        return orjson.dumps(HEADER)
    if kind == "not_object":
        return b'[1,2,3]'
    if kind == "broken":  # pi's prefix, then cut: parsed only when somebody reads it
        return orjson.dumps(_entry("message", index, text, parent))[:-9] + b"}"
    if kind == "garbage":
        return b"\x00" * (len(text) * 7 + 1)
    if kind == "blank":
        return b" \t\x0b\x0c" * (len(text) + 1)
    if kind == "spaces_then_entry":
        return b" " * (len(text) * 5) + orjson.dumps(_entry("message", index, text, parent))
    return orjson.dumps(_entry(kind, index, text, parent))


KINDS = ["message", "message", "label", "session_info", "custom", "model_change", "deep", "reordered", "escaped",
         "duplicate", "no_id", "header_again", "not_object", "broken", "garbage", "blank", "spaces_then_entry"]


@st.composite
def hostile_files(draw) -> bytes:
    lines = []
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from([b"", b"\x00\x00\x00", b"not json", b"   "])))
    lines.append(orjson.dumps(HEADER))
    for index in range(1, draw(st.integers(0, 14)) + 1):
        kind = draw(st.sampled_from(KINDS))
        parent = None if index == 1 else f"e{draw(st.integers(1, index - 1)):07d}"
        lines.append(_line(kind, index, draw(_TEXT), parent))
    end = draw(st.sampled_from([b"\n", b"\r\n"]))
    data = end.join(lines) + end
    tail = draw(st.sampled_from(["none", "no_newline", "torn", "nuls"]))
    if tail == "no_newline":
        data = data[: -len(end)]
    elif tail == "torn":
        data += orjson.dumps(_entry("message", 99, "cut", None))[:25]
    elif tail == "nuls":
        data += b"\x00" * 40
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hostile_files(), lazy=st.booleans(), piece_bytes=st.sampled_from([5, 16, 64, 4096]))
def test_hostile_files_read_the_same(tmp_path, monkeypatch, data, lazy, piece_bytes):
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0 if lazy else 8 * 1024 * 1024)
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    assert streamed(path) == whole(path)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hostile_files(), lazy=st.booleans(), piece_bytes=st.sampled_from([5, 64, 4096]))
def test_a_piece_parses_its_entries_as_entry_parses_each(tmp_path, monkeypatch, data, lazy, piece_bytes):
    """Piece.entries (show's pass, with the parse inlined) gives what Piece.entry gives slot by slot, or its error."""
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0 if lazy else 8 * 1024 * 1024)
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    opened = _outcome(lambda: StreamedFile.open(path))
    if opened[0] != "ok" or opened[1] is None:
        return
    for piece in opened[1].pieces():
        assert _outcome(lambda: list(piece.entries())) == _outcome(lambda: [piece.entry(slot) for slot in piece.slots])


def _readable_one_by_one(piece, kind: str) -> list:
    """Piece.entry of each slot of ``kind``, a broken line skipped: what Piece.readable inlines."""
    found = []
    for slot in piece.slots:
        if slot.type == kind:
            try:
                found.append(piece.entry(slot))
            except CorruptEntryError:
                continue
    return found


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hostile_files(), lazy=st.booleans(), piece_bytes=st.sampled_from([5, 64, 4096]),
       kind=st.sampled_from(["message", "label", "custom"]))
def test_a_piece_reads_the_entries_of_a_kind_as_entry_reads_each(tmp_path, monkeypatch, data, lazy, piece_bytes, kind):
    """Piece.readable (info's pass over the messages, the parse inlined) gives what Piece.entry gives slot by
    slot for the slots of that type, the broken lines left out, and reports the same problems."""
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0 if lazy else 8 * 1024 * 1024)
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    outcomes = []
    for read in (lambda piece: list(piece.readable(kind)), lambda piece: _readable_one_by_one(piece, kind)):
        opened = _outcome(lambda: StreamedFile.open(path))
        if opened[0] != "ok" or opened[1] is None:
            return
        file = opened[1]
        outcomes.append(_outcome(lambda: ([read(piece) for piece in file.pieces()], file.finish().problems)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("before", [b"", b"\x00" * 3000 + b"\n", b" " * 3000 + b"\n", b"\r" * 3000 + b"\n",
                                    b"\x0b" * 3000 + b"\n", b"\x0b" * 3000 + b"x\n", b" " * 3000, b"\xef\xbb\xbf" + b" " * 3000])
def test_long_lines_before_the_header(tmp_path, monkeypatch, before):
    monkeypatch.setattr(stream, "PIECE_BYTES", 64)
    path = tmp_path / "s.jsonl"
    path.write_bytes(before + orjson.dumps(HEADER) + b"\n" + orjson.dumps(_entry("message", 1, "hi", None)) + b"\n")
    assert streamed(path) == whole(path)


@pytest.mark.parametrize("spaces", [b" \t" * 2000, b"\r" + b" " * 3000, b" " * 3000 + b"\r"])
def test_long_blanks_before_an_entry(tmp_path, monkeypatch, mode, spaces):
    """Blanks longer than a piece are not held, yet decide the line as they do: the scanner's prefix takes spaces
    and tabs, so after a carriage return a broken line of pi's shape is parsed at open and reported there."""
    monkeypatch.setattr(stream, "PIECE_BYTES", 64)
    path = tmp_path / "s.jsonl"
    broken = _line("broken", 2, "cut short", "e0000001")
    path.write_bytes(orjson.dumps(HEADER) + b"\n" + _line("message", 1, "hi", None) + b"\n" + spaces + broken + b"\n"
                     + _line("message", 3, "after", "e0000001") + b"\n")
    assert streamed(path) == whole(path)


def test_a_sparse_hole_is_skipped_and_reported_as_the_whole_read_reports_it(tmp_path, monkeypatch, mode):
    monkeypatch.setattr(stream, "PIECE_BYTES", 4096)
    path = tmp_path / "sparse.jsonl"
    entry = orjson.dumps(_entry("message", 1, "before the hole", None)) + b"\n"
    with open(path, "wb") as handle:
        handle.write(orjson.dumps(HEADER) + b"\n" + entry)
        handle.seek(8 * 1024 * 1024)
        handle.write(b"\n" + orjson.dumps(_entry("message", 2, "after the hole", "e0000001")))  # a hole, then a line
    expected = whole(path)
    assert streamed(path) == expected
    info = expected[1][2][0]
    assert info["entryCount"] == 2 and [p["kind"] for p in info["problems"]] == ["invalid_json"]
    with open(path, "r+b") as handle:  # the hole is the last line: a torn tail
        handle.truncate(16 * 1024 * 1024)
    assert streamed(path) == whole(path)


def test_show_on_a_file_read_in_pieces_keeps_no_bytes(tmp_path, monkeypatch):
    """What the CLI answers from: an index with no file bytes behind it (memory is not the file's)."""
    seen = []
    read_only = session_json._read_only
    monkeypatch.setattr(session_json, "_read_only", lambda s: seen.append(read_only(s)) or seen[-1])
    file_counted_tree(DEMO, show_json_digest())
    assert seen and seen[0]._index.file_bytes == b"" and len(seen[0]) == len(Session.open(DEMO))


def test_a_hole_is_neither_held_nor_read(tmp_path, monkeypatch):
    """Issue 23.9: memory and reads bounded by what is shown. A 64 MB hole after one entry, read in 1 MB pieces:
    two pieces of it are read to learn that no JSON starts there, the rest is jumped over (SEEK_DATA)."""
    monkeypatch.setattr(stream, "PIECE_BYTES", 1 << 20)
    path = tmp_path / "sparse.jsonl"
    with open(path, "wb") as handle:
        handle.write(orjson.dumps(HEADER) + b"\n" + _line("message", 1, "hi", None) + b"\n")
        handle.truncate(64 << 20)
    reads: list[int] = []
    pread = stream.os.pread

    def counted(fd: int, size: int, offset: int) -> bytes:
        reads.append(len(got := pread(fd, size, offset)))
        return got

    monkeypatch.setattr(stream.os, "pread", counted)
    session, info = file_info_json(path)
    assert info["entryCount"] == 1 and [p["kind"] for p in info["problems"]] == ["torn_tail"]
    assert max(reads) <= 1 << 20 and sum(reads) < 4 << 20  # of 64 MB
    monkeypatch.setattr(stream.os, "pread", pread)
    assert _info_of(session, info) == _info(Session.open(path))


@pytest.mark.parametrize("command", [["show"], ["show", "--json"], ["info"], ["info", "--json"]], ids=" ".join)
def test_the_cli_reads_a_file_with_a_hole_in_pieces(tmp_path, command):
    """Through the real command: the entries before a hole are shown, the hole is one warning, exit 0."""
    import subprocess
    import sys

    path = tmp_path / "sparse.jsonl"
    with open(path, "wb") as handle:
        handle.write(orjson.dumps(HEADER) + b"\n" + _line("message", 1, "before the hole", None) + b"\n")
        handle.truncate(24 << 20)  # bigger than a piece and than EAGER_PARSE_BYTES: the big-file rules
    done = subprocess.run([sys.executable, "-m", "pi_compact", "session", *command, str(path)], capture_output=True,
                          env={"NO_COLOR": "1", "COLUMNS": "200", "PATH": "/usr/bin:/bin"}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().splitlines() == ["warning: line 3: incomplete last line (a crash mid-append?), ignored"]
    out = done.stdout.decode()
    if command == ["info", "--json"]:
        assert orjson.loads(out)["entryCount"] == 1 and orjson.loads(out)["messageCount"] == 1
    elif command == ["info"]:
        assert "entryCount     1" in out.splitlines()
    elif command == ["show", "--json"]:
        data = orjson.loads(out)
        assert data["counts"]["entries"] == 1 and [node["id"] for node in data["tree"]] == ["e0000001"]
    else:
        assert "1 entries: 1 message" in out and "• e0000001 assistant" in out


def _chain_file(tmp_path: Path, count: int) -> Path:
    path = tmp_path / "chain.jsonl"
    lines = [orjson.dumps(HEADER)] + [_line("message", i, f"line {i} " * (i % 7), f"e{i - 1:07d}" if i else None)
                                      for i in range(count)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.mark.parametrize("piece_bytes", [7, 600, 4096, 8 * 1024 * 1024])
def test_pieces_are_the_reads_up_to_their_last_newline(tmp_path, monkeypatch, piece_bytes):
    """A piece is what one read gave, not a copy cut at its last newline (8 MB copied per piece was a fifth of
    ``session info``); the start of a line after its end is read again with the next piece."""
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    path = _chain_file(tmp_path, 60)
    fd = os.open(path, os.O_RDONLY)
    try:
        pieces = list(stream._line_pieces(fd, path))
    finally:
        os.close(fd)
    assert b"".join(data[:end] for data, end in pieces) == path.read_bytes()
    assert all(data[end - 1 : end] == b"\n" for data, end in pieces)
    if 600 <= piece_bytes < path.stat().st_size:  # lines shorter than a piece: reads end within a line
        assert any(end < len(data) for data, end in pieces if len(data) == piece_bytes)
