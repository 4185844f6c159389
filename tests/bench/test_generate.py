"""The benchmark's generator writes valid, deterministic, pi-shaped sessions that our store (and pi) read."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import orjson
import pytest

PROJECT = Path(__file__).resolve().parents[2]
if str(PROJECT) not in sys.path:  # `bench` is a top-level folder, not part of the installed package
    sys.path.insert(0, str(PROJECT))

from bench import generate  # noqa: E402
from pi_compact.session import Session  # noqa: E402
from pi_compact.store.scan import scan  # noqa: E402
from tests.conformance.pi_ref import pi_context  # noqa: E402

ENTRIES = 1_500
ID = re.compile(r"[0-9a-f]{8}")
BASE_KEYS = ["type", "id", "parentId", "timestamp"]
LATE_BASE = ("custom", "custom_message")


@pytest.fixture(scope="module")
def session_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bench") / "session.jsonl"
    generate.write_session(path, ENTRIES)
    return path


@pytest.fixture(scope="module")
def lines(session_file: Path) -> list[dict]:
    return [orjson.loads(line) for line in session_file.read_bytes().splitlines()]


def test_store_opens_it_with_every_entry(session_file: Path) -> None:
    session = Session.open(session_file)
    assert len(session) == ENTRIES
    assert session.version == 3
    assert session.problems == []
    assert session.name == "Refactor the session store"


def test_header_then_entries_with_unique_pi_ids(lines: list[dict]) -> None:
    header, entries = lines[0], lines[1:]
    assert header["type"] == "session" and header["version"] == 3
    ids = [entry["id"] for entry in entries]
    assert all(ID.fullmatch(entry_id) for entry_id in ids)
    assert len(set(ids)) == len(ids)
    assert entries[0]["parentId"] is None
    known = set()
    for entry in entries:
        assert entry["parentId"] is None or entry["parentId"] in known
        known.add(entry["id"])


def test_keys_in_pis_order(lines: list[dict]) -> None:
    for entry in lines[1:]:
        keys = list(entry)
        if entry["type"] in LATE_BASE:
            assert keys[:2] == ["type", "customType"] and keys[-3:] == BASE_KEYS[1:]
        else:
            assert keys[:4] == BASE_KEYS


def test_a_long_session_has_everything(lines: list[dict]) -> None:
    kinds = Counter(e["type"] if e["type"] != "message" else e["message"]["role"] for e in lines[1:])
    for kind in ("user", "assistant", "toolResult", "model_change", "thinking_level_change", "compaction", "label"):
        assert kinds[kind] > 0, kind
    assert kinds["toolResult"] > ENTRIES // 3
    big = [e for e in lines[1:] if e["type"] == "message" and len(orjson.dumps(e)) > 40_000]
    assert big, "some tool results are ~50 KB"


def test_compacts_as_pi_would_when_the_context_reaches_the_window(lines: list[dict], session_file: Path) -> None:
    windows = {model[1]: model[4] for model in generate.MODELS}
    smallest = min(windows.values())
    compactions = [e for e in lines[1:] if e["type"] == "compaction"]
    assert len(compactions) >= 2
    assert all(e["tokensBefore"] > smallest - generate.RESERVE_TOKENS for e in compactions)
    context = Session.open(session_file).build_context()
    estimated = len(orjson.dumps(context.messages)) // 4
    assert estimated < windows[context.model["modelId"]], "what follows the latest compaction fits the window"
    reported = [
        e["message"]["usage"]["cacheRead"] for e in lines[1:] if e["type"] == "message" and e["message"]["role"] == "assistant"
    ]
    assert max(reported) > smallest // 2, "usage reports the context's real size, not a constant"


def test_the_leaf_moves_back_at_least_once(lines: list[dict]) -> None:
    parents = Counter(e["parentId"] for e in lines[1:])
    assert max(parents.values()) >= 2


def test_context_follows_the_latest_compaction(session_file: Path) -> None:
    context = Session.open(session_file).build_context()
    assert context.messages[0]["role"] == "compactionSummary"
    assert context.model is not None


def test_deterministic(session_file: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.jsonl"
    generate.write_session(again, ENTRIES)
    assert again.read_bytes() == session_file.read_bytes()


def test_numbers_as_javascript_writes_them(session_file: Path) -> None:
    text = session_file.read_text()
    assert not re.search(r'[:\[,]-?\d+\.0[,}\]]', text), "JSON.stringify writes 1, not 1.0"
    assert not re.search(r"[:\[,]-?\d+(\.\d+)?e-", text), "JSON.stringify writes 0.000009, not 9e-6"


def test_every_line_but_custom_and_label_indexed_lazily(session_file: Path) -> None:
    eager = {"label", "session_info", *LATE_BASE}
    result = scan(session_file.read_bytes(), eager=False)
    assert all((slot.entry is None) == (slot.type not in eager) for slot in result.slots)


def test_append_messages_are_messages() -> None:
    messages = generate.append_messages(50)
    assert len(messages) == 50
    assert {m["role"] for m in messages} >= {"user", "assistant", "toolResult"}
    assert messages == generate.append_messages(50)


def test_ensure_regenerates_only_when_outdated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(generate.SIZES, "tiny", 20)
    path = generate.ensure("tiny", tmp_path)
    stamp = path.stat().st_mtime_ns
    assert generate.ensure("tiny", tmp_path).stat().st_mtime_ns == stamp
    meta = path.with_suffix(".meta.json")
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "generator": 0}))
    generate.ensure("tiny", tmp_path)
    assert json.loads(meta.read_text())["generator"] == generate.GENERATOR_VERSION


def test_pi_reads_the_same_context(session_file: Path) -> None:
    assert pi_context(session_file) == Session.open(session_file).build_context().to_json()
