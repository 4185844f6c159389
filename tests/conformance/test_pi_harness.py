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


# -- the spinning pi child (stop 26's "Merge fixes") -------------------------------------------------------
# pi 0.73.1's v1 migration draws 8-hex ids "collision-checked" against a set it never fills, so two entries can
# share one; pi then walks a parent cycle forever. The harness seeds the ids and answers such files as pi's bug.

CLASH = ["aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002",
         "aaaaaaaa-0000-4000-8000-000000000003"]


def test_migrated_ids_are_the_same_on_every_run_and_in_entries_and_tree() -> None:
    request = {"file": BEFORE_COMPACTION, "entries": True, "tree": True}
    first, second = pi_contexts([request, request])
    [third] = pi_contexts([request])
    ids = [entry["id"] for entry in first["entries"][1:]]
    assert first == second == third
    assert len(set(ids)) == len(ids)
    assert [node["entry"]["id"] for node in first["tree"]] == ids


@pytest.mark.parametrize("extra", [{}, {"tree": True}, {"leaf": None, "tree": True}],
                         ids=["context", "tree", "null-leaf-tree"])
def test_a_clash_of_pis_migrated_ids_is_reported_as_pis_bug_not_walked(extra: dict) -> None:
    [answer] = pi_contexts([{"file": BEFORE_COMPACTION, "uuids": CLASH, **extra}])
    assert not answer["ok"] and answer["piBug"]
    assert "gave two entries the id aaaaaaaa" in answer["error"]


def test_a_clash_pi_never_walks_is_answered_as_pi_answers_it() -> None:
    # the null leaf: pi returns the empty context before walking anything
    [answer] = pi_contexts([{"file": BEFORE_COMPACTION, "uuids": CLASH, "leaf": None}])
    assert answer == {"ok": True, "context": {"messages": [], "thinkingLevel": "off", "model": None}}


def test_ids_that_do_not_clash_are_used_as_pi_draws_them() -> None:
    [answer] = pi_contexts([{"file": BEFORE_COMPACTION, "entries": True, "uuids": CLASH[:2]}])
    assert answer["ok"]
    assert [entry["id"] for entry in answer["entries"][1:3]] == ["aaaaaaaa", "bbbbbbbb"]


def _entry(entry_id: str, parent: str | None, text: str) -> dict:
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "2025-01-01T00:00:00.000Z",
            "message": {"role": "user", "content": text, "timestamp": 1}}


@pytest.mark.parametrize("leaf, looping", [(None, True), ("c", True), ("b", True), ("d", False), ("x", True)],
                         ids=["default-leaf", "into-loop", "on-loop", "beside-loop", "unknown-leaf-falls-back"])
def test_a_parent_cycle_on_the_walk_is_reported_and_one_beside_it_is_not(tmp_path: Path, leaf, looping) -> None:
    header = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/"}
    entries = [_entry("d", None, "root"), _entry("a", "b", "one"), _entry("b", "a", "two"), _entry("c", "a", "three")]
    path = tmp_path / "cycle.jsonl"
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in [header, *entries]))
    [answer] = pi_contexts([{"file": path} | ({} if leaf is None else {"leaf": leaf})])
    if looping:
        assert not answer["ok"] and answer["piBug"] and "loops through" in answer["error"]
    else:
        assert answer["ok"] and [m["content"] for m in answer["context"]["messages"]] == ["root"]
