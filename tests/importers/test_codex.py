"""Codex rollouts read as pi sessions: one assistant message per model turn, tool results, compactions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact import TranscriptError
from pi_compact.context import build_session_context
from pi_compact.importers import detect_format
from pi_compact.importers.codex import read_codex

from .rows import codex_call, codex_line, codex_message, codex_meta, codex_output, jsonl


def _context(rows: list[dict]) -> list[dict]:
    return build_session_context(read_codex(jsonl(rows)).entries).messages


REASONING = {"type": "reasoning", "summary": [{"type": "summary_text", "text": "**Listing files**"}],
             "content": None, "encrypted_content": "gAAAAB-opaque"}
TOKENS = {"type": "token_count", "info": {"last_token_usage": {
    "input_tokens": 1000, "cached_input_tokens": 800, "output_tokens": 50, "total_tokens": 1050}}}


def test_the_header_comes_from_session_meta() -> None:
    imported = read_codex(jsonl([codex_meta("0199-abc", "/srv/app"), codex_message("user", "hi", 3)]))
    assert (imported.header["id"], imported.header["cwd"], imported.header["timestamp"]) == (
        "0199-abc", "/srv/app", "2026-01-01T10:00:00.000Z")


def test_a_model_turn_is_one_assistant_message_with_its_reasoning_and_calls() -> None:
    messages = _context([
        codex_meta(), codex_line("turn_context", {"model": "gpt-5-codex", "cwd": "/p"}),
        codex_message("user", "list files", 1),
        codex_line("response_item", REASONING, 2),
        codex_line("event_msg", {"type": "agent_reasoning", "text": "**Listing files**"}, 2),
        codex_call("c1", ["ls"], 3),
        codex_output("c1", "a.py", 0, 4),
        codex_line("event_msg", TOKENS, 4),
        codex_message("assistant", "there is a.py", 5),
    ])
    assert [m["role"] for m in messages] == ["user", "assistant", "toolResult", "assistant"]
    turn = messages[1]
    assert [b["type"] for b in turn["content"]] == ["thinking", "toolCall"]
    assert turn["content"][0]["thinking"] == "**Listing files**"
    assert turn["content"][1] == {"type": "toolCall", "id": "c1", "name": "shell", "arguments": {"command": ["ls"]}}
    assert (turn["model"], turn["api"], turn["stopReason"]) == ("gpt-5-codex", "openai-responses", "toolUse")
    assert turn["usage"]["input"] == 200 and turn["usage"]["cacheRead"] == 800
    assert messages[2]["toolName"] == "shell" and messages[2]["isError"] is False


@pytest.mark.parametrize(("output", "failed"), [
    ('{"output":"boom","metadata":{"exit_code":2}}', True),
    ('{"output":"fine","metadata":{"exit_code":0}}', False),
    ("Exit code: 1\nWall time: 0.1 seconds\nOutput:\nno such file", True),
    ("Exit code: 0\nOutput:\nok", False),
    ({"content": "sandbox denied", "success": False}, True),
    ("plain text output", False),
], ids=["json-exit-2", "json-exit-0", "exit-line-1", "exit-line-0", "success-false", "plain"])
def test_a_failed_call_is_an_error_result(output, failed: bool) -> None:
    rows = [codex_meta(), codex_call("c1", ["x"]),
            codex_line("response_item", {"type": "function_call_output", "call_id": "c1", "output": output})]
    assert _context(rows)[-1]["isError"] is failed


def test_custom_tool_calls_become_tool_calls_with_their_input() -> None:
    patch = "*** Begin Patch\n*** Add File: a.py\n+print(1)\n*** End Patch"
    messages = _context([
        codex_meta(),
        codex_line("response_item", {"type": "custom_tool_call", "call_id": "p1", "name": "apply_patch", "input": patch}),
        codex_line("response_item", {"type": "custom_tool_call_output", "call_id": "p1", "output": "Success"}),
    ])
    assert messages[0]["content"][0]["arguments"] == {"input": patch}
    assert messages[1]["toolName"] == "apply_patch" and messages[1]["content"] == [{"type": "text", "text": "Success"}]


def test_a_readable_compaction_holds_the_summary_and_what_codex_put_back() -> None:
    history = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list files"}]},
               {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Summary: listed"}]}]
    rows = [codex_meta(), codex_message("user", "list files", 1), codex_message("assistant", "a.py", 2),
            codex_line("event_msg", TOKENS, 2),
            codex_line("compacted", {"message": "Summary: listed", "replacement_history": history}, 3),
            codex_message("user", "thanks", 4)]
    imported = read_codex(jsonl(rows))
    compaction = next(e for e in imported.entries if e["type"] == "compaction")
    assert compaction["summary"] == "Summary: listed" and compaction["tokensBefore"] == 1050
    assert imported.compactions == 1 and imported.notes == ()
    messages = build_session_context(imported.entries).messages
    assert [(m["role"], m.get("summary") or m["content"][0]["text"]) for m in messages] == [
        ("compactionSummary", "Summary: listed"), ("user", "list files"), ("user", "thanks")]


def test_an_encrypted_compaction_is_kept_empty_and_said_so() -> None:
    rows = [codex_meta(), codex_message("user", "go", 1),
            codex_line("response_item", {"type": "compaction", "encrypted_content": "gAAA"}, 2)]
    imported = read_codex(jsonl(rows))
    assert imported.compactions == 0
    assert imported.notes == ("line 3: a server-side compaction; its summary is encrypted, imported empty",)
    assert [e["details"]["encrypted"] for e in imported.entries if e["type"] == "compaction"] == [True]


def test_developer_messages_reach_the_context_as_custom_messages() -> None:
    rows = [codex_meta(), codex_message("developer", "<permissions>never push</permissions>")]
    (message,) = _context(rows)
    assert message["role"] == "custom" and message["customType"] == "codex:developer"


def test_unknown_lines_are_kept_unchanged() -> None:
    odd = {"timestamp": "2026-01-01T10:00:00Z", "type": "future_thing", "payload": {"x": [1, 2]}}
    imported = read_codex(jsonl([codex_meta(), odd, {"no": "type"}]))
    data = [e["data"] for e in imported.entries if e["type"] == "custom"]
    assert odd in data and {"no": "type"} in data


def test_an_older_rollout_without_envelopes_is_read() -> None:
    rows = [{"id": "old-1", "timestamp": "2025-05-01T00:00:00Z", "instructions": None},
            {"record_type": "state"},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hi"}]}]
    data = jsonl(rows)
    assert detect_format(data) == "codex"
    imported = read_codex(data)
    assert imported.header["id"] == "old-1"
    assert [m["role"] for m in build_session_context(imported.entries).messages] == ["user", "assistant"]


def test_strict_fails_on_a_torn_line() -> None:
    data = jsonl([codex_meta()]) + b'{"timestamp":"2026'
    with pytest.raises(TranscriptError, match="line 2: not valid JSON"):
        read_codex(data, strict=True)


_PAYLOADS = st.one_of(
    st.builds(lambda role, t: {"type": "message", "role": role, "content": [{"type": "input_text", "text": t}]},
              st.sampled_from(["user", "assistant", "developer", "system"]), st.text(max_size=5)),
    st.builds(lambda c: {"type": "function_call", "name": "shell", "arguments": "{", "call_id": c},
              st.sampled_from(["a", "b"])),
    st.builds(lambda c, o: {"type": "function_call_output", "call_id": c, "output": o},
              st.sampled_from(["a", "b", "zz"]), st.one_of(st.text(max_size=5), st.just({"success": False}))),
    st.builds(lambda s: {"type": "reasoning", "summary": [{"type": "summary_text", "text": s}]}, st.text(max_size=5)),
    st.just({"type": "compaction", "encrypted_content": "x"}),
    st.dictionaries(st.sampled_from(["type", "x"]), st.text(max_size=3), max_size=2),
)
_LINES = st.one_of(
    st.builds(lambda p: codex_line("response_item", p), _PAYLOADS),
    st.builds(lambda m: codex_line("compacted", {"message": m}), st.text(max_size=5)),
    st.builds(lambda k: codex_line(k, {"type": "token_count", "info": None}), st.sampled_from(["event_msg", "turn_context"])),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_LINES, max_size=30))
def test_any_rollout_imports_to_one_chain_whose_last_line_is_the_leaf(lines: list[dict]) -> None:
    imported = read_codex(jsonl([codex_meta(), *lines]))
    parent = None
    for entry in imported.entries:
        assert entry["parentId"] == parent  # a rollout is a list: one chain, in order
        parent = entry["id"]
    build_session_context(imported.entries)
    readable = sum(1 for line in lines if line["type"] == "compacted" and line["payload"]["message"].strip())
    assert imported.compactions == readable
