"""The token estimate cache: figures keyed by line content, read back only for the same estimator, never
trusted when damaged, written whole, and bounded."""

from __future__ import annotations

import multiprocessing
import os
import shutil
import stat
import time
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction import estimate_cache
from pi_compact.compaction.estimate_cache import (
    CACHE_DIR_ENV,
    ESTIMATOR_FILES,
    EstimateCache,
    cache_folder,
    estimator_version,
    line_key,
    prune,
    version_of,
)
from pi_compact.compaction.tokens import estimate_tokens
from pi_compact.session_json import entry_tokens

SESSION = "/somewhere/session.jsonl"


def message_line(entry_id: str, text: str) -> tuple[dict, bytes]:
    entry = {"type": "message", "id": entry_id, "parentId": None, "timestamp": "2025-01-01T00:00:00.000Z",
             "message": {"role": "user", "content": text, "timestamp": 1}}
    return entry, orjson.dumps(entry)


class Counting:
    """``entry_tokens(estimate_tokens)`` that counts the entries it really estimated."""

    def __init__(self) -> None:
        self.estimated: list[str] = []
        self._tokens = entry_tokens(estimate_tokens)

    def __call__(self, entry: dict) -> int | None:
        self.estimated.append(entry.get("id"))
        return self._tokens(entry)


def show(folder: Path, lines: list[tuple[dict, bytes]]) -> tuple[list[int | None], list[str]]:
    """One ``session show`` through the cache: the figures, and the ids estimated (not read from the cache)."""
    cache = EstimateCache.open(SESSION, folder)
    counting = Counting()
    tokens = cache.keyed(counting)
    figures = [tokens(entry, line) for entry, line in lines]
    cache.save()
    assert cache.problem is None
    return figures, counting.estimated


def cache_file(folder: Path) -> Path:
    (found,) = folder.glob("*.est")
    return found


LINES = [message_line(f"e{n}", f"message {n} " + "word " * n) for n in range(30)]


# -- figures -------------------------------------------------------------------------------------------------


def test_a_second_show_estimates_nothing_and_gives_the_same_figures(tmp_path: Path) -> None:
    cold, estimated = show(tmp_path, LINES)
    assert estimated == [entry["id"] for entry, _ in LINES]
    warm, estimated_again = show(tmp_path, LINES)
    assert warm == cold == [estimate_tokens(entry["message"]) for entry, _ in LINES]
    assert estimated_again == []


def test_an_edited_line_is_estimated_again(tmp_path: Path) -> None:
    show(tmp_path, LINES)
    edited = list(LINES)
    edited[7] = message_line("e7", "a different text, and a longer one " * 20)
    figures, estimated = show(tmp_path, edited)
    assert estimated == ["e7"]
    assert figures[7] == estimate_tokens(edited[7][0]["message"]) != estimate_tokens(LINES[7][0]["message"])


def test_the_key_is_the_lines_content() -> None:
    _, line = message_line("a", "same text")
    _, other = message_line("b", "same text")
    assert line_key(line) != line_key(other)  # the id is part of the line
    assert line_key(line) != line_key(line + b" ")
    assert line_key(line) == line_key(memoryview(line)) == line_key(bytes(line))


def test_a_file_rewritten_keeps_the_figures_of_the_lines_it_kept(tmp_path: Path) -> None:
    show(tmp_path, LINES)
    reordered = [LINES[5], *LINES[10:], message_line("new", "a new line")]  # a repair dropped some, moved one
    figures, estimated = show(tmp_path, reordered)
    assert estimated == ["new"]
    assert figures == [estimate_tokens(entry["message"]) for entry, _ in reordered]


def test_appended_lines_alone_are_estimated(tmp_path: Path) -> None:
    show(tmp_path, LINES[:20])
    _, estimated = show(tmp_path, LINES)
    assert estimated == [f"e{n}" for n in range(20, 30)]


def test_the_file_holds_the_current_lines_only_and_no_text(tmp_path: Path) -> None:
    secret = "the session's own words " * 40
    show(tmp_path, [*LINES, message_line("gone", secret)])
    show(tmp_path, LINES)  # the line left the session: its figure leaves the cache
    data = cache_file(tmp_path).read_bytes()
    assert len(data) == estimate_cache._HEAD.size + 16 * len(LINES)
    assert b"session's" not in data and b"message" not in data


def test_entries_that_are_no_messages_are_not_kept(tmp_path: Path) -> None:
    label = {"type": "label", "id": "l1", "parentId": "e1", "targetId": "e1", "label": "x"}
    figures, _ = show(tmp_path, [(label, orjson.dumps(label)), *LINES[:2]])
    assert figures[0] is None
    assert len(cache_file(tmp_path).read_bytes()) == estimate_cache._HEAD.size + 16 * 2


def test_a_message_without_an_estimate_is_kept_as_none(tmp_path: Path) -> None:
    broken = {"type": "message", "id": "b", "message": "not an object"}
    lines = [(broken, orjson.dumps(broken))]
    assert show(tmp_path, lines)[0] == [None]
    assert show(tmp_path, lines) == ([None], [])


def test_a_line_of_none_is_estimated_every_time(tmp_path: Path) -> None:
    cache = EstimateCache.open(SESSION, tmp_path)
    counting = Counting()
    tokens = cache.keyed(counting)
    entry, _ = LINES[3]
    assert tokens(entry, None) == tokens(entry, None) == estimate_tokens(entry["message"])
    assert counting.estimated == ["e3", "e3"]


def test_without_a_folder_nothing_is_kept(tmp_path: Path) -> None:
    cache = EstimateCache.open(SESSION, None)
    counting = Counting()
    tokens = cache.keyed(counting)
    for entry, line in LINES:
        tokens(entry, line)
    cache.save()
    assert cache.file is None and len(counting.estimated) == len(LINES)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.integers(0, 2**64 - 1), st.integers(-1, 2**40), max_size=50))
def test_figures_read_back_as_written(tmp_path_factory: pytest.TempPathFactory, figures: dict[int, int]) -> None:
    file = tmp_path_factory.mktemp("roundtrip") / "x.est"
    estimate_cache._write(file, figures)
    assert estimate_cache._read(file)[0] == figures


# -- the estimator's version ---------------------------------------------------------------------------------


def test_the_version_is_that_of_the_estimators_sources(tmp_path: Path) -> None:
    source = Path(estimate_cache.__file__).parent
    for name in ESTIMATOR_FILES:
        shutil.copy(source / name, tmp_path / name)
    assert version_of(tmp_path) == estimator_version()


@pytest.mark.parametrize("name", ESTIMATOR_FILES)
def test_a_change_of_any_estimator_file_changes_the_version(tmp_path: Path, name: str) -> None:
    source = Path(estimate_cache.__file__).parent
    for each in ESTIMATOR_FILES:
        shutil.copy(source / each, tmp_path / each)
    (tmp_path / name).write_bytes((tmp_path / name).read_bytes() + b"\n")
    assert version_of(tmp_path) != estimator_version()


def test_figures_of_another_estimator_version_are_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    show(tmp_path, LINES)
    monkeypatch.setattr(estimate_cache, "estimator_version", lambda: b"another estimator")
    cache = EstimateCache.open(SESSION, tmp_path)
    counting = Counting()
    tokens = cache.keyed(counting)
    assert [tokens(entry, line) for entry, line in LINES] == [estimate_tokens(e["message"]) for e, _ in LINES]
    assert len(counting.estimated) == len(LINES)
    cache.save()
    assert cache_file(tmp_path).read_bytes()[16:32] == b"another estimator"[:16]


def test_no_cache_when_the_estimator_has_no_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> bytes:
        raise FileNotFoundError("tokens.py")

    monkeypatch.setattr(estimate_cache, "estimator_version", missing)
    assert EstimateCache.open(SESSION, tmp_path).file is None


# -- damage --------------------------------------------------------------------------------------------------


def _truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _body_flipped(data: bytes) -> bytes:
    return data[:-3] + bytes([data[-3] ^ 0x40]) + data[-2:]


def _count_changed(data: bytes) -> bytes:
    return data[:48] + bytes([data[48] ^ 1]) + data[49:]


@pytest.mark.parametrize("damage", [
    _truncated, _body_flipped, _count_changed,
    lambda data: b"", lambda data: data[:10], lambda data: b"not a cache at all\n" * 50,
    lambda data: b"X" + data[1:], lambda data: data + b"\0" * 16,
], ids=["truncated", "body-flipped", "count-changed", "empty", "head-torn", "garbage", "magic", "longer"])
def test_a_damaged_cache_is_ignored_and_replaced(tmp_path: Path, damage) -> None:
    show(tmp_path, LINES)
    file = cache_file(tmp_path)
    file.write_bytes(damage(file.read_bytes()))
    figures, estimated = show(tmp_path, LINES)
    assert figures == [estimate_tokens(entry["message"]) for entry, _ in LINES]
    assert len(estimated) == len(LINES)  # nothing read from a damaged file
    assert show(tmp_path, LINES)[1] == []  # replaced by a sound one


def test_a_folder_in_place_of_the_file_is_ignored(tmp_path: Path) -> None:
    cache = EstimateCache.open(SESSION, tmp_path)
    cache.file.mkdir()  # type: ignore[union-attr]
    tokens = cache.keyed(entry_tokens(estimate_tokens))
    assert [tokens(entry, line) for entry, line in LINES[:3]] == [estimate_tokens(e["message"]) for e, _ in LINES[:3]]
    cache.save()
    assert cache.problem is not None and "cannot write" in cache.problem


def test_an_unwritable_folder_is_reported_once(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    cache = EstimateCache.open(SESSION, blocker / "cache")
    tokens = cache.keyed(entry_tokens(estimate_tokens))
    assert [tokens(entry, line) for entry, line in LINES] == [estimate_tokens(e["message"]) for e, _ in LINES]
    cache.save()
    assert cache.problem is not None and str(blocker) in cache.problem and CACHE_DIR_ENV in cache.problem


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="ownership is a POSIX idea")
def test_a_folder_others_may_write_in_is_not_used(tmp_path: Path) -> None:
    folder = tmp_path / "open_to_all"
    folder.mkdir()
    folder.chmod(0o777)
    cache = EstimateCache.open(SESSION, folder)
    assert cache.file is None and cache.problem is not None and "not private" in cache.problem
    cache.save()
    assert list(folder.iterdir()) == []


def test_files_are_private(tmp_path: Path) -> None:
    folder = tmp_path / "made" / "here"
    show(folder, LINES)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(cache_file(folder).stat().st_mode) == 0o600


def _write_many(folder: str, start: int, rounds: int) -> None:
    lines = [message_line(f"w{start}-{n}", "text " * n) for n in range(200)]
    for round_ in range(rounds):
        cache = EstimateCache.open(SESSION, Path(folder))
        tokens = cache.keyed(entry_tokens(estimate_tokens))
        for entry, line in lines[: 100 + round_ % 100]:
            tokens(entry, line)
        cache.save()


def test_two_processes_writing_at_once_leave_a_valid_cache(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_write_many, args=(str(tmp_path), n, 60)) for n in range(2)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
        assert writer.exitcode == 0
    figures, _, _, _ = estimate_cache._read(cache_file(tmp_path))
    assert 100 <= len(figures) < 200
    assert not list(tmp_path.glob("*.tmp"))


# -- where, and how much ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("environ", "expected"), [
    ({CACHE_DIR_ENV: "/c/here", "XDG_CACHE_HOME": "/x"}, "/c/here"),
    ({CACHE_DIR_ENV: "", "XDG_CACHE_HOME": "/x"}, None),
    ({"XDG_CACHE_HOME": "/x"}, "/x/pi-compact"),
    ({"XDG_CACHE_HOME": "relative"}, "~/.cache/pi-compact"),
    ({}, "~/.cache/pi-compact"),
])
def test_the_cache_folder(environ: dict[str, str], expected: str | None) -> None:
    found = cache_folder(environ)
    assert found == (None if expected is None else Path(os.path.expanduser(expected)))


def test_the_test_suite_never_writes_to_the_users_cache() -> None:
    assert cache_folder() == Path(os.environ[CACHE_DIR_ENV])
    assert Path(os.environ[CACHE_DIR_ENV]) != Path.home() / ".cache" / "pi-compact"


def _cache_files(folder: Path, ages: list[tuple[int, int]]) -> list[Path]:
    now = time.time()
    files = []
    for number, (size, age) in enumerate(ages):
        path = folder / f"{number:04d}.est"
        path.write_bytes(b"x" * size)
        os.utime(path, (now - age, now - age))
        files.append(path)
    return files


@settings(max_examples=30, deadline=None)
@given(
    ages=st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 10**6)), max_size=12),
    max_files=st.integers(1, 8),
    max_bytes=st.integers(0, 8000),
)
def test_pruning_keeps_the_newest_files_within_bounds(tmp_path_factory: pytest.TempPathFactory,
                                                      ages: list[tuple[int, int]], max_files: int, max_bytes: int) -> None:
    folder = tmp_path_factory.mktemp("prune")
    files = _cache_files(folder, ages)
    keep = files[0] if files else None
    prune(folder, keep, max_files=max_files, max_bytes=max_bytes)
    left = sorted(folder.glob("*.est"))
    others = [path for path in left if path != keep]
    assert keep is None or keep in left
    assert len(others) <= max_files and sum(p.stat().st_size for p in others) <= max_bytes
    gone = [path for path in files if path not in left]
    age = {path: seconds for path, (_, seconds) in zip(files, ages)}
    if others and gone:  # the least recently used went first
        assert min(age[path] for path in gone) >= max(age[path] for path in others)


def test_pruning_removes_temporary_files_of_writers_that_died(tmp_path: Path) -> None:
    old, fresh = tmp_path / "a.est.1.tmp", tmp_path / "b.est.2.tmp"
    for path in (old, fresh):
        path.write_bytes(b"half")
    long_ago = time.time() - 2 * estimate_cache.STALE_TEMP_SECONDS
    os.utime(old, (long_ago, long_ago))
    prune(tmp_path)
    assert not old.exists() and fresh.exists()


def test_showing_many_sessions_keeps_the_folder_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(estimate_cache, "MAX_FILES", 5)
    for number in range(12):
        cache = EstimateCache.open(f"/sessions/{number}.jsonl", tmp_path)
        tokens = cache.keyed(entry_tokens(estimate_tokens))
        for entry, line in LINES[:3]:
            tokens(entry, line)
        cache.save()
    assert len(list(tmp_path.glob("*.est"))) == 5
    assert cache.file in list(tmp_path.glob("*.est"))


# -- rows ------------------------------------------------------------------------------------------------------

ROWS_VERSION = b"rows of a test.."


def row_of(entry: dict) -> tuple:
    return ("message", entry["id"], entry["parentId"], entry["timestamp"], "user", "user", entry["message"]["content"][:20], 7)


def show_rows(folder: Path, lines: list[tuple[dict, bytes]], version: bytes = ROWS_VERSION) -> tuple[list, list[str]]:
    """A show that keeps a row per line: the rows it found (``None``: made anew), and the ids it estimated."""
    cache = EstimateCache.open(SESSION, folder, rows_version=version)
    counting = Counting()
    tokens = cache.keyed(counting)
    found = []
    for entry, line in lines:
        key = line_key(line)
        row = cache.row(key)
        found.append(row)
        if row is None:
            tokens(entry, key)
            row = row_of(entry)
        cache.keep_rows([key], [row])
    cache.save()
    assert cache.problem is None
    return found, counting.estimated


def test_a_second_show_reads_every_row_and_estimates_nothing(tmp_path: Path) -> None:
    cold, estimated = show_rows(tmp_path, LINES)
    assert cold == [None] * len(LINES) and len(estimated) == len(LINES)
    warm, estimated = show_rows(tmp_path, LINES)
    assert warm == [row_of(entry) for entry, _ in LINES] and estimated == []
    assert show(tmp_path, LINES) == ([estimate_tokens(e["message"]) for e, _ in LINES], [])  # figures kept too


def test_rows_are_found_out_of_order_and_only_for_the_lines_they_were_made_of(tmp_path: Path) -> None:
    show_rows(tmp_path, LINES)
    edited = message_line("e7", "said otherwise")
    shuffled = [LINES[20], LINES[3], edited, *LINES[4:7], LINES[3], message_line("new", "a new line"), *LINES[25:]]
    found, estimated = show_rows(tmp_path, shuffled)
    assert found == [None if entry["id"] in ("new",) or line == edited[1] else row_of(entry) for entry, line in shuffled]
    assert estimated == ["e7", "new"]


def test_the_file_holds_the_rows_of_the_lines_met_last(tmp_path: Path) -> None:
    show_rows(tmp_path, [*LINES, message_line("gone", "words that left the session")])
    show_rows(tmp_path, LINES)
    data = cache_file(tmp_path).read_bytes()
    assert b"words that left" not in data and b"message 29" in data  # rows hold the text they preview
    _, keys, rows, _ = estimate_cache._read(cache_file(tmp_path), ROWS_VERSION)
    assert list(keys) == [line_key(line) for _, line in LINES] and rows == [row_of(e) for e, _ in LINES]


def test_rows_of_another_version_are_ignored_and_the_figures_kept(tmp_path: Path) -> None:
    show_rows(tmp_path, LINES)
    found, estimated = show_rows(tmp_path, LINES, version=b"another drawing.")
    assert found == [None] * len(LINES) and estimated == []
    assert show_rows(tmp_path, LINES, version=b"another drawing.")[0] == [row_of(e) for e, _ in LINES]


def test_a_command_without_rows_keeps_the_file_it_does_not_change(tmp_path: Path) -> None:
    show_rows(tmp_path, LINES)
    assert show(tmp_path, LINES)[1] == []  # show --json: the figures alone, the file untouched
    assert show_rows(tmp_path, LINES)[0] == [row_of(e) for e, _ in LINES]


def test_damaged_rows_are_dropped_and_the_figures_kept(tmp_path: Path) -> None:
    show_rows(tmp_path, LINES)
    file = cache_file(tmp_path)
    data = file.read_bytes()
    file.write_bytes(data[:-40] + bytes([data[-40] ^ 0x20]) + data[-39:])  # in the rows, past the figures
    found, estimated = show_rows(tmp_path, LINES)
    assert found == [None] * len(LINES) and estimated == []
    assert show_rows(tmp_path, LINES)[0] == [row_of(e) for e, _ in LINES]  # written again


@pytest.mark.parametrize("blob", [b"", b"\x00", b"not marshal", __import__("marshal").dumps((b"\0" * 8, ("a", "b"))),
                                  __import__("marshal").dumps((b"\0" * 16, (("a",), ("b", "c"))))])
def test_a_rows_section_that_is_no_rows_gives_none(blob: bytes) -> None:
    keys, rows, pieces = estimate_cache._rows(blob)
    assert len(keys) == 0 and rows == [] and pieces == ()


def test_rows_that_would_pass_the_size_limit_are_left_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(estimate_cache, "MAX_BYTES", estimate_cache._HEAD.size + 16 * len(LINES) + 100)
    show_rows(tmp_path, LINES)
    assert cache_file(tmp_path).stat().st_size <= estimate_cache.MAX_BYTES
    found, estimated = show_rows(tmp_path, LINES)
    assert found == [None] * len(LINES) and estimated == []  # the figures alone were kept


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**64 - 1), st.tuples(st.text(max_size=8), st.none() | st.text(max_size=4),
                                                                 st.integers(-2**70, 2**70))), min_size=1, max_size=40))
def test_rows_read_back_as_written(tmp_path_factory: pytest.TempPathFactory, kept: list[tuple[int, tuple]]) -> None:
    file = tmp_path_factory.mktemp("rows") / "x.est"
    keys, rows = [key for key, _ in kept], [row for _, row in kept]
    estimate_cache._write(file, {}, ROWS_VERSION, keys, rows)
    _, read_keys, read_rows, _ = estimate_cache._read(file, ROWS_VERSION)
    assert list(read_keys) == keys and read_rows == rows
    assert estimate_cache._read(file, b"other version...")[1:] == (estimate_cache.array("Q"), [], ())


@pytest.mark.parametrize("columns", [(0, 1, 4, -1), (7,), (1, 1)])
def test_a_reader_of_some_columns_gets_those_of_each_row_and_no_figure(tmp_path: Path, columns: tuple) -> None:
    show_rows(tmp_path, LINES)
    cache = EstimateCache.open(SESSION, tmp_path, rows_version=ROWS_VERSION, columns=columns, figures=False)
    assert cache.rows_read == len(LINES)
    assert [cache.row(line_key(line)) for _, line in LINES] == [tuple(row_of(e)[at] for at in columns) for e, _ in LINES]
    assert cache._known == {}


@pytest.mark.parametrize("columns", [(8,), (0, -9)])
def test_columns_the_rows_have_not_give_no_rows(tmp_path: Path, columns: tuple) -> None:
    show_rows(tmp_path, LINES)
    cache = EstimateCache.open(SESSION, tmp_path, rows_version=ROWS_VERSION, columns=columns)
    assert cache.rows_read == 0 and cache.row(line_key(LINES[0][1])) is None


def test_a_cache_exists_once_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(estimate_cache.CACHE_DIR_ENV, str(tmp_path))
    assert not EstimateCache.exists(SESSION)
    show_rows(tmp_path, LINES)
    assert EstimateCache.exists(SESSION)
    monkeypatch.setenv(estimate_cache.CACHE_DIR_ENV, "")
    assert not EstimateCache.exists(SESSION)


def test_the_rows_of_a_piece_met_are_found_by_its_size_and_crc(tmp_path: Path) -> None:
    keys = [line_key(line) for _, line in LINES]
    cache = EstimateCache.open(SESSION, tmp_path, rows_version=ROWS_VERSION)
    cache.keep_rows(keys[:10] + keys[11:20], [row_of(e) for e, _ in LINES[:10] + LINES[11:20]])  # line 10: no row
    cache.piece_met(1000, 7, keys[:12])
    cache.piece_met(900, 8, [99, *keys[12:20]])  # a line without a row first
    cache.save()
    cache = EstimateCache.open(SESSION, tmp_path, rows_version=ROWS_VERSION)
    first_keys, first_rows, first_flags = cache.piece_rows(1000, 7)
    assert list(first_keys) == keys[:10] + [keys[11]] and first_flags == bytes([1] * 10 + [0, 1])
    assert first_rows == [row_of(e) for e, _ in LINES[:10] + LINES[11:12]]
    second_keys, second_rows, second_flags = cache.piece_rows(900, 8)
    assert list(second_keys) == keys[12:20] and second_flags == bytes([0] + [1] * 8)
    assert cache.piece_rows(1000, 8) is None and cache.piece_rows(999, 7) is None  # other bytes


def test_pieces_met_again_leave_the_file_as_it_was(tmp_path: Path) -> None:
    keys = [line_key(line) for _, line in LINES]
    rows = [row_of(e) for e, _ in LINES]
    for _ in range(2):
        cache = EstimateCache.open(SESSION, tmp_path, rows_version=ROWS_VERSION)
        cache.keep_rows(keys, rows)
        cache.piece_met(5000, 1, keys)
        cache.save()
        written = cache_file(tmp_path).read_bytes()
    cache = EstimateCache.open(SESSION, tmp_path, rows_version=ROWS_VERSION)
    cache.keep_rows(keys, rows)
    cache.piece_met(5000, 2, keys)  # the same lines, read in a piece of other bytes: written again
    cache.save()
    assert cache_file(tmp_path).read_bytes() != written
    assert cache.piece_rows(5000, 2) is None and EstimateCache.open(
        SESSION, tmp_path, rows_version=ROWS_VERSION).piece_rows(5000, 2) is not None


@pytest.mark.parametrize("pieces", [
    [(1, 2, 0)],  # too short
    [(1, 2, 0, "flags")],  # flags no bytes
    [(1, 2, -1, b"\x01")],  # a first row before the first
    [(1, 2, 0, b"\x01" * 3)],  # more rows than kept
    [(1, 2, 0, b"\x03")],  # a flag neither 0, 1 nor 2
    "pieces",
])
def test_pieces_that_are_no_pieces_drop_the_rows(pieces) -> None:
    blob = __import__("marshal").dumps((estimate_cache.array("Q", [1, 2]).tobytes(), (("a", "b"), ("c", "d")),
                                        tuple(tuple(p) if isinstance(p, tuple) else p for p in pieces)
                                        if isinstance(pieces, list) else pieces))
    assert estimate_cache._rows(blob) == (estimate_cache.array("Q"), [], ())


def test_a_line_of_a_piece_without_the_next_row_says_whether_a_row_has_its_key(tmp_path: Path) -> None:
    keys = [line_key(line) for _, line in LINES]
    cache = EstimateCache.open(SESSION, tmp_path, rows_version=ROWS_VERSION)
    cache.keep_rows(keys[:3], [row_of(e) for e, _ in LINES[:3]])
    cache.piece_met(100, 1, [keys[0], 5, keys[2], keys[1], keys[2]])  # a line again: a row has its key
    cache.save()
    cache = EstimateCache.open(SESSION, tmp_path, rows_version=ROWS_VERSION)
    assert cache.piece_rows(100, 1)[2] == bytes([1, 0, 2, 1, 1])
    assert cache.row(keys[2]) == row_of(LINES[2][0])  # the next row after the piece's: looked at first
