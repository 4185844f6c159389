"""``session info`` from the rows ``session show`` keeps: a line shown before is counted from its row and parsed
only when the listing must read it, and the figures are, byte for byte, those read without the cache: cold,
warm, after an append, after an edit in the middle, whatever the file holds. info never writes the cache."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pi_compact.cli import render
from pi_compact.cli.app import app
from pi_compact.store import scan, stream
from tests.cli.test_show_cache import _GROWN, BUNDLED, CORPUS, rows_in, shown
from tests.store.test_scan_stream import _entry, _line, as_v3, hostile_files


def info(path: Path, folder: Path | None, *more: str) -> tuple:
    """What ``session info`` gives (exit code, output, error type) with the cache in ``folder`` (None: off)."""
    env = {"PI_COMPACT_CACHE_DIR": str(folder) if folder is not None else "", "COLUMNS": "150"}
    result = CliRunner().invoke(app, ["session", "info", *more, str(path)], env=env)
    return result.exit_code, result.output, type(result.exception).__name__ if result.exception else None


def assert_info_alike(path: Path, folder: Path) -> None:
    """info, plain and ``--json``, is the same without the cache, with it cold (nothing written) and warm."""
    for more in ((), ("--json",)):
        off = info(path, None, *more)
        before = {file.name: file.read_bytes() for file in folder.glob("*")} if folder.exists() else None
        assert info(path, folder, *more) == off
        after = {file.name: file.read_bytes() for file in folder.glob("*")} if folder.exists() else None
        assert after == before  # read only: nothing written, created or removed
        shown(path, folder)
        assert info(path, folder, *more) == off  # warm


@pytest.fixture(params=[True, False], ids=["lazy", "eager"])
def lazy(request, monkeypatch):
    """Files read lazily (the big-file rules, where rows are read) or eagerly."""
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0 if request.param else 8 * 1024 * 1024)
    return request.param


def test_every_bundled_session_is_summarized_alike_without_cold_and_warm(tmp_path, lazy):
    for path in [*BUNDLED, *(as_v3(p, tmp_path / f"{p.stem}.v3.jsonl") for p in BUNDLED[2:])]:
        assert_info_alike(path, tmp_path / "cache")
    assert rows_in(tmp_path / "cache") > 0


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_every_damaged_file_is_summarized_alike_without_cold_and_warm(tmp_path, path, lazy):
    assert_info_alike(path, tmp_path / "cache")


def test_a_cold_info_writes_no_cache(tmp_path):
    info(BUNDLED[1], tmp_path / "cache")
    assert not (tmp_path / "cache").exists()


def _session(tmp_path: Path, entries: list[dict]) -> Path:
    head = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join(map(orjson.dumps, [head, *entries])) + b"\n")
    return path


def _message(number: int, role: str, content: object, stamp: object) -> dict:
    entry = _entry("message", number, "text", f"e{number - 1:07d}" if number > 1 else None)
    entry["message"] = {"role": role, "content": content, "timestamp": stamp}
    return entry


def _ids_a_warm_info_parses(path: Path, folder: Path, monkeypatch) -> list[str]:
    """The ids of the lines ``session info --json`` parses after a show filled the cache in ``folder``; its
    document is the one made without the cache."""
    off = info(path, None, "--json")
    shown(path, folder)
    parsed: list[str] = []
    real = stream.orjson_loads
    monkeypatch.setattr(stream, "orjson_loads", lambda raw: parsed.append(orjson.loads(bytes(raw))["id"]) or real(raw))
    assert info(path, folder, "--json") == off
    return parsed


def test_a_warm_info_parses_only_the_lines_its_listing_reads(tmp_path, monkeypatch):
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    messages = [_message(1, "user", "", 1000), _message(2, "user", [{"type": "text", "text": "hello"}], 2000)]
    messages += [_message(n, "assistant" if n % 2 else "user", f"said {n}", 1000 * n) for n in range(3, 40)]
    messages += [_message(40, "assistant", "late", "2025-02-01T00:00:00.000Z"), _message(41, "user", "x", 10)]
    parsed = _ids_a_warm_info_parses(_session(tmp_path, messages), tmp_path / "cache", monkeypatch)
    # up to the first user message with text, the one whose time is no number, then the newest (for the listing)
    assert parsed == ["e0000001", "e0000002", "e0000040", "e0000039"]


def test_the_newest_message_known_from_its_row_is_read_for_the_listing(tmp_path, monkeypatch):
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    messages = [_message(n, "user" if n == 1 else "assistant", f"said {n}", 5000 - abs(n - 20)) for n in range(1, 30)]
    parsed = _ids_a_warm_info_parses(_session(tmp_path, messages), tmp_path / "cache", monkeypatch)
    assert parsed == ["e0000001", "e0000020"]  # the first user message, and the newest, in the middle


def test_rows_of_another_version_are_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    path = BUNDLED[1]
    off = info(path, None, "--json")
    shown(path, tmp_path / "cache")
    monkeypatch.setattr(render, "ROW_SOURCES", (*render.ROW_SOURCES, "store/index.py"))
    parsed = []
    real = stream.orjson_loads
    monkeypatch.setattr(stream, "orjson_loads", lambda raw: parsed.append(1) or real(raw))
    assert info(path, tmp_path / "cache", "--json") == off
    assert len(parsed) > 3  # every message parsed: the rows of the other version were not read


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hostile_files(), shown_lazily=st.booleans(), piece_bytes=st.sampled_from([16, 4096]))
def test_hostile_files_are_summarized_alike_without_cold_and_warm(tmp_path_factory, monkeypatch, data, shown_lazily,
                                                                  piece_bytes):
    """The rows made scanning either way, read by info on the big-file path."""
    folder = tmp_path_factory.mktemp("cache")
    path = folder / "hostile.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(stream, "PIECE_BYTES", piece_bytes)
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    expected = info(path, None), info(path, None, "--json")
    assert (info(path, folder / "c"), info(path, folder / "c", "--json")) == expected
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0 if shown_lazily else 8 * 1024 * 1024)
    shown(path, folder / "c")
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    assert (info(path, folder / "c"), info(path, folder / "c", "--json")) == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hostile_files(), grown=_GROWN, edited=st.integers(0, 30), text=st.text(max_size=20))
def test_a_file_appended_to_or_edited_after_a_show_is_summarized_as_without_the_cache(tmp_path_factory, monkeypatch,
                                                                                    data, grown, edited, text):
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    folder = tmp_path_factory.mktemp("cache")
    path = folder / "grows.jsonl"
    path.write_bytes(data)
    shown(path, folder)
    complete = data if data.endswith(b"\n") else data + b"\n"
    appended = complete + b"".join(_line(kind, 200 + n, text, "e0000001") + b"\n" for n, kind in enumerate(grown))
    path.write_bytes(appended)
    for more in ((), ("--json",)):
        assert info(path, folder, *more) == info(path, None, *more)
    lines = appended.split(b"\n")
    at = edited % len(lines)
    lines[at] = orjson.dumps(_message(300, "user", text + " edited", 7))  # a line rewritten in place
    path.write_bytes(b"\n".join(lines))
    for more in ((), ("--json",)):
        assert info(path, folder, *more) == info(path, None, *more)
