"""The conformance harness itself works: it runs the real pi, reads without writing, and round-trips."""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson
import pytest
from sessions_fixtures import BEFORE_COMPACTION, LARGE_SESSION, PI_DIR

from .pi_ref import pi_context, pi_contexts, pi_write

FIXTURES = PI_DIR

USAGE = {
    "input": 10,
    "output": 5,
    "cacheRead": 0,
    "cacheWrite": 0,
    "totalTokens": 15,
    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def user(text: str, ts: int) -> dict:
    return {"op": "message", "message": {"role": "user", "content": text, "timestamp": ts}}


def assistant(content: list[dict], ts: int, stop: str = "stop") -> dict:
    message = {
        "role": "assistant",
        "content": content,
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": "claude-test",
        "usage": USAGE,
        "stopReason": stop,
        "timestamp": ts,
    }
    return {"op": "message", "message": message}


def tool_result(call_id: str, text: str, ts: int) -> dict:
    message = {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": "read",
        "content": [{"type": "text", "text": text}],
        "isError": False,
        "timestamp": ts,
    }
    return {"op": "message", "message": message}


# Indices in the comments are what "index"/"firstKeptIndex" refer to.
SCRIPT = [
    {"op": "model", "provider": "anthropic", "modelId": "claude-test"},  # 0
    {"op": "thinking", "level": "high"},  # 1
    user("read the file", 1000),  # 2
    assistant([{"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a.txt"}}], 1001, "toolUse"),  # 3
    tool_result("c1", "contents of a.txt", 1002),  # 4
    assistant([{"type": "text", "text": "done"}], 1003),  # 5
    {"op": "branch", "index": 2},  # 6
    user("actually, the other file ✓", 1004),  # 7
    assistant([{"type": "text", "text": "ok"}], 1005),  # 8
    {"op": "label", "index": 7, "label": "retry"},  # 9
    {"op": "compaction", "summary": "read a.txt", "firstKeptIndex": 7, "tokensBefore": 15,
     "details": {"readFiles": ["a.txt"], "modifiedFiles": []}, "fromHook": False},  # 10
    user("continue", 1006),  # 11
]


@pytest.fixture(scope="module")
def fixture_answers() -> list[dict]:
    hashes = {path: sha256(path) for path in (BEFORE_COMPACTION, LARGE_SESSION)}
    answers = pi_contexts([{"file": BEFORE_COMPACTION}, {"file": LARGE_SESSION}])
    assert {path: sha256(path) for path in hashes} == hashes, "pi_context.mjs modified a fixture"
    return answers


def test_fixture_contexts_come_from_pi(fixture_answers: list[dict]) -> None:
    before, large = fixture_answers
    assert before["ok"] and large["ok"]
    assert len(before["context"]["messages"]) > 100
    assert len(large["context"]["messages"]) > 100
    assert before["context"]["messages"][0]["role"] == "compactionSummary"
    assert before["context"]["model"] == {"provider": "anthropic", "modelId": "claude-opus-4-5"}


def test_entries_and_tree_show_the_v1_migration_without_writing() -> None:
    digest = sha256(BEFORE_COMPACTION)
    [answer] = pi_contexts([{"file": BEFORE_COMPACTION, "entries": True, "tree": True}])
    assert sha256(BEFORE_COMPACTION) == digest
    header, *entries = answer["entries"]
    assert header["version"] == 3
    assert [e["parentId"] for e in entries] == [None] + [e["id"] for e in entries[:-1]]
    assert "firstKeptEntryIndex" not in next(e for e in entries if e["type"] == "compaction")
    assert [node["depth"] for node in answer["tree"]] == list(range(len(entries)))


def test_explicit_null_leaf_and_missing_file() -> None:
    assert pi_context(BEFORE_COMPACTION, leaf=None) == {"messages": [], "thinkingLevel": "off", "model": None}
    [missing] = pi_contexts([{"file": FIXTURES / "no-such-file.jsonl"}])
    assert not missing["ok"] and "no such file" in missing["error"]


def test_pi_write_round_trip(tmp_path: Path) -> None:
    written = pi_write(SCRIPT, tmp_path)
    path = Path(written["file"])
    lines = path.read_text(encoding="utf-8").splitlines()
    header = orjson.loads(lines[0])
    assert path.parent == tmp_path
    assert header["type"] == "session" and header["version"] == 3
    assert len(lines) == 1 + sum(1 for op in SCRIPT if op["op"] != "branch")
    assert written["ids"][6] is None and written["leaf"] == written["ids"][11]

    context = written["context"]
    assert [m["role"] for m in context["messages"]] == ["compactionSummary", "user", "assistant", "user"]
    assert context["thinkingLevel"] == "high"
    assert pi_context(path) == context
    assert pi_context(path, leaf=written["ids"][5])["messages"][-1]["content"] == [{"type": "text", "text": "done"}]


def test_pi_write_reports_bad_scripts(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="does not name an earlier op"):
        pi_write([{"op": "branch", "index": 3}], tmp_path)
