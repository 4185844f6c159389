"""``session show`` from its cache of rows: a line shown before is drawn from its row, and the drawing is, byte
for byte, the one made without the cache: cold, warm, after an append, after an edit in the middle, whatever
the file holds and however it is scanned."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pi_compact.cli import render
from pi_compact.cli.app import app
from pi_compact.compaction import estimate_cache
from pi_compact.store import scan, stream
from sessions_fixtures import PI_SESSIONS
from tests.store.test_scan_stream import _entry, _line, as_v3, hostile_files

PROJECT = Path(__file__).resolve().parents[2]
BUNDLED = [PROJECT / "sessions_fixtures" / name for name in ("demo.jsonl", "branches.jsonl")] + list(PI_SESSIONS)
CORPUS = sorted((PROJECT / "tests" / "reliability" / "corpus").glob("*.jsonl"))


def shown(path: Path, folder: Path | None, *more: str, colour: bool = False) -> tuple:
    """What ``session show`` gives (exit code, output, error type) with the cache in ``folder`` (None: off)."""
    env = {"PI_COMPACT_CACHE_DIR": str(folder) if folder is not None else "", "COLUMNS": "150",
           "FORCE_COLOR": "1" if colour else None, "NO_COLOR": None}
    result = CliRunner().invoke(app, ["session", "show", *more, str(path)], env=env)
    return result.exit_code, result.output, type(result.exception).__name__ if result.exception else None


def rows_in(folder: Path) -> int:
    """How many rows the cache files of ``folder`` hold."""
    total = 0
    for file in folder.glob("*.est"):
        head = estimate_cache._HEAD.unpack(file.read_bytes()[: estimate_cache._HEAD.size])
        total += len(estimate_cache._rows(file.read_bytes()[estimate_cache._HEAD.size + 16 * head[3] :])[1])
    return total


def assert_warm_is_cold(path: Path, folder: Path, *more: str, colour: bool = False) -> tuple:
    off = shown(path, None, *more, colour=colour)
    assert shown(path, folder, *more, colour=colour) == off  # cold, or what the cache held before
    assert shown(path, folder, *more, colour=colour) == off  # warm
    return off


@pytest.mark.parametrize("colour", [False, True], ids=["plain", "colour"])
def test_every_bundled_session_is_drawn_alike_cold_and_warm(tmp_path, colour):
    for path in [*BUNDLED, *(as_v3(p, tmp_path / f"{p.stem}.v3.jsonl") for p in PI_SESSIONS)]:
        assert_warm_is_cold(path, tmp_path / "cache", colour=colour)
    assert rows_in(tmp_path / "cache") > 0  # the v3 files were drawn from rows (v1/v2 ones are migrated: none)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_every_damaged_file_is_drawn_alike_cold_and_warm(tmp_path, path):
    assert_warm_is_cold(path, tmp_path / "cache")
    assert_warm_is_cold(path, tmp_path / "cache", "--json")


def test_a_warm_show_parses_no_line_it_has_a_row_for(tmp_path, monkeypatch):
    path = PROJECT / "sessions_fixtures" / "branches.jsonl"
    cold = shown(path, tmp_path)
    parsed = []
    real = stream.orjson_loads
    monkeypatch.setattr(stream, "orjson_loads", lambda raw: parsed.append(bytes(raw)) or real(raw))
    monkeypatch.setattr(render, "_message_preview", None)  # a preview made would fail
    assert shown(path, tmp_path) == cold
    assert parsed == [] and rows_in(tmp_path) > 0


# -- files of every kind, scanned either way, grown and edited ---------------------------------------------------


_AGAIN = {"id": "e0000001", "parentId": None, "timestamp": "2020-01-01T00:00:00.000Z", "type": "custom"}


def _written_twice(key: str, index: int, parent: str) -> bytes:
    """A message line of pi's prefix with ``key`` written again at its end, with another value: the scanner's
    prefix reads the first, a parser the last."""
    return orjson.dumps(_entry("message", index, "twice", parent))[:-1] + b',"' + key.encode() + b'":' + \
        orjson.dumps(_AGAIN[key]) + b"}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hostile_files(), lazy=st.tuples(st.booleans(), st.booleans()), piece_bytes=st.sampled_from([16, 4096]),
       twice=st.lists(st.sampled_from(sorted(_AGAIN)), max_size=3))
def test_hostile_files_are_drawn_alike_cold_warm_and_without_the_cache(tmp_path_factory, monkeypatch, data, lazy,
                                                                       piece_bytes, twice):
    """The cache is filled scanning one way (lazily: big-file rules; eagerly: every line parsed) and read
    scanning either way: a row stands for its line in both."""
    folder = tmp_path_factory.mktemp("cache")
    path = folder / "hostile.jsonl"
    if twice:  # siblings whose order, parent or id depends on which of a key's values is read
        parent = orjson.dumps(_entry("message", 399, "parent", None)) + b"\n"
        data = (data if data.endswith(b"\n") else data + b"\n") + parent + b"".join(
            _written_twice(key, 400 + n, "e0000399") + b"\n" for n, key in enumerate(twice))
    path.write_bytes(data)
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    outcomes = []
    for lazily in lazy:
        monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0 if lazily else 8 * 1024 * 1024)
        outcomes.append((shown(path, None), shown(path, folder), shown(path, folder)))
    for without, cold, warm in outcomes:
        assert cold == warm == without


_GROWN = st.lists(st.sampled_from(["message", "message", "label", "session_info", "custom", "model_change", "deep",
                                   "reordered", "duplicate", "broken", "garbage"]), min_size=1, max_size=6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hostile_files(), grown=_GROWN, edited=st.integers(0, 30), text=st.text(max_size=20),
       lazy=st.booleans(), piece_bytes=st.sampled_from([64, 8 * 1024 * 1024]))
def test_a_file_appended_to_or_edited_is_drawn_as_without_the_cache(tmp_path_factory, monkeypatch, data, grown,
                                                                    edited, text, lazy, piece_bytes):
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0 if lazy else 8 * 1024 * 1024)
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)  # pieces read before taken whole, or the file in one
    folder = tmp_path_factory.mktemp("cache")
    path = folder / "grows.jsonl"
    path.write_bytes(data)
    shown(path, folder)  # the cache filled
    complete = data if data.endswith(b"\n") else data + b"\n"
    appended = complete + b"".join(_line(kind, 200 + n, text, "e0000001") + b"\n" for n, kind in enumerate(grown))
    path.write_bytes(appended)
    assert_warm_is_cold(path, folder)
    lines = appended.split(b"\n")
    at = edited % len(lines)
    lines[at] = orjson.dumps(_entry("message", 300, text + " edited", "e0000001"))  # a line rewritten in place
    path.write_bytes(b"\n".join(lines))
    assert_warm_is_cold(path, folder)
    assert_warm_is_cold(path, folder, "--json")


def test_an_edited_line_is_drawn_anew_and_the_others_from_their_rows(tmp_path, monkeypatch):
    entries = [_entry("message", n, f"message number {n}", f"e{n - 1:07d}" if n > 1 else None) for n in range(1, 9)]
    head = orjson.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z",
                         "cwd": "/p"})
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join([head, *map(orjson.dumps, entries)]) + b"\n")
    shown(path, tmp_path / "cache")
    entries[3]["message"]["content"] = "said otherwise, and at more length than before " * 3
    path.write_bytes(b"\n".join([head, *map(orjson.dumps, entries)]) + b"\n")
    previews = []
    real = render._message_preview
    monkeypatch.setattr(render, "_message_preview", lambda *args: previews.append(args[0]) or real(*args))
    warm = shown(path, tmp_path / "cache")
    assert previews == [entries[3]["message"]]
    assert "said otherwise" in warm[1]
    monkeypatch.setattr(render, "_message_preview", real)
    assert warm == shown(path, None)


def test_rows_of_another_version_of_the_drawing_code_are_not_read(tmp_path, monkeypatch):
    path = PROJECT / "sessions_fixtures" / "branches.jsonl"
    expected = shown(path, tmp_path)
    monkeypatch.setattr(render, "ROW_SOURCES", (*render.ROW_SOURCES, "store/index.py"))  # another version
    previews = []
    real = render._message_preview
    monkeypatch.setattr(render, "_message_preview", lambda *args: previews.append(1) or real(*args))
    assert shown(path, tmp_path) == expected
    assert previews  # drawn anew, not from the rows of the other version


# -- pieces read before ------------------------------------------------------------------------------------------


def _session(texts: list[str], extra: dict[int, bytes]) -> bytes:
    """A session of messages of ``texts``, each child of the one before, with the ``extra`` lines put before
    the message of their index (a label, a name, a blank line: lines without a row)."""
    head = orjson.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z",
                         "cwd": "/p"})
    lines = [head]
    for n, text in enumerate(texts, start=1):
        if n in extra:
            lines.append(extra[n])
        lines.append(orjson.dumps(_entry("message", n, text, f"e{n - 1:07d}" if n > 1 else None)))
    return b"\n".join(lines) + b"\n"


_EXTRA = {5: _line("label", 90, "a label", "e0000004"), 11: b"", 17: _line("session_info", 91, "named", None),
          23: b"not json"}


def _keyed(monkeypatch) -> list[bytes]:
    """The bytes stream.py keys (CRC-32) from now on: whole pieces, and the lines it keys one by one."""
    keyed = []
    real = stream.crc32
    monkeypatch.setattr(stream, "crc32", lambda data, *start: keyed.append(bytes(data)) or real(data, *start))
    return keyed


@pytest.mark.parametrize("piece_bytes", [200, 700, 8 * 1024 * 1024])
def test_a_warm_show_keys_no_line_of_a_piece_read_before(tmp_path, monkeypatch, piece_bytes):
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    texts = [f"message number {n} " * (n % 4 + 1) for n in range(1, 31)]
    path = tmp_path / "s.jsonl"
    path.write_bytes(_session(texts, _EXTRA))
    cold = shown(path, tmp_path / "cache")
    keyed = _keyed(monkeypatch)
    assert shown(path, tmp_path / "cache") == cold == shown(path, None)
    messages = set(path.read_bytes().split(b"\n")[1:]) - set(_EXTRA.values())
    assert keyed and not messages.intersection(keyed)  # pieces keyed whole (with their newlines), no line alone


@pytest.mark.parametrize("piece_bytes", [200, 700, 8 * 1024 * 1024])
@pytest.mark.parametrize("edited", [1, 14, 30])
def test_an_edit_of_the_same_length_in_a_piece_read_before_is_read_anew(tmp_path, monkeypatch, piece_bytes, edited):
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    texts = [f"message number {n:02d} aaaa" for n in range(1, 31)]
    path = tmp_path / "s.jsonl"
    path.write_bytes(_session(texts, _EXTRA))
    shown(path, tmp_path / "cache")
    texts[edited - 1] = texts[edited - 1].replace("aaaa", "bbbb")  # the same size: only the bytes tell
    path.write_bytes(_session(texts, _EXTRA))
    previews = []
    real = render._message_preview
    monkeypatch.setattr(render, "_message_preview", lambda *args: previews.append(args[0]) or real(*args))
    warm = shown(path, tmp_path / "cache")
    parent = f"e{edited - 1:07d}" if edited > 1 else None
    assert previews == [_entry("message", edited, texts[edited - 1], parent)["message"]]  # that line alone
    assert "bbbb" in warm[1]
    monkeypatch.setattr(render, "_message_preview", real)
    assert warm == shown(path, None)
    assert shown(path, tmp_path / "cache") == warm
