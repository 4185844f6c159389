"""PiChatMessageHistory through LangChain's public API: messages in and out (tool calls, images, reasoning),
a fake chat model fed from the history, ``clear`` as a new branch, and files pi reads the same way.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from pi_compact import Session
from pi_compact.adapters.langchain import (
    SYSTEM_TYPE,
    PiChatMessageHistory,
    from_langchain_messages,
    to_langchain_messages,
)
from pi_compact.compaction import CompactionSettings, compact
from pi_compact.compaction.serialize import COMPACTION_SUMMARY_PREFIX
from pi_compact.convert import MISSING_RESULT_TEXT
from tests.conformance.jsoncmp import first_difference
from tests.conformance.pi_ref import pi_context
from tests.prose import prose

CALL = {"name": "add", "args": {"a": 1, "b": 2}, "id": "call_1", "type": "tool_call"}
CONVERSATION: list[BaseMessage] = [
    HumanMessage("what is 1+2?"),
    AIMessage("let me add", tool_calls=[CALL], usage_metadata={"input_tokens": 20, "output_tokens": 5,
                                                                "total_tokens": 25},
              response_metadata={"model_name": "gpt-test", "model_provider": "openai"}),
    ToolMessage("3", tool_call_id="call_1"),
    AIMessage("1+2 is 3"),
]


def _shape(messages: list[BaseMessage]) -> list[tuple]:
    """What a chat model reads of each message."""
    return [(type(m).__name__, m.content, getattr(m, "tool_calls", None), getattr(m, "tool_call_id", None))
            for m in messages]


def _same_in_pi(path: Path) -> None:
    difference = first_difference(pi_context(path), Session.open(path).build_context().to_json())
    assert difference is None, difference


def test_is_a_langchain_history(tmp_path: Path) -> None:
    assert isinstance(PiChatMessageHistory(tmp_path / "h.jsonl"), BaseChatMessageHistory)


def test_round_trip_with_tool_calls_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    history = PiChatMessageHistory(path)
    history.add_messages(CONVERSATION)
    assert _shape(history.messages) == _shape(CONVERSATION)
    reopened = PiChatMessageHistory(path).messages
    assert _shape(reopened) == _shape(CONVERSATION)
    assert reopened[1].usage_metadata["input_tokens"] == 20
    assert reopened[1].response_metadata["model_name"] == "gpt-test"
    assert isinstance(reopened[2], ToolMessage) and reopened[2].name == "add", "the name comes from the call"
    context = Session.open(path).build_context()
    assert [m["role"] for m in context.messages] == ["user", "assistant", "toolResult", "assistant"]
    assert context.model == {"provider": "", "modelId": ""}
    _same_in_pi(path)


def test_a_chat_model_reads_the_history_and_its_answer_is_stored(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    history = PiChatMessageHistory(path, model="fake-model", provider="fake")
    history.add_user_message("hello")
    model = GenericFakeChatModel(messages=iter([AIMessage("hi there")]))
    history.add_messages([model.invoke(history.messages)])
    assert _shape(history.messages)[-1] == ("AIMessage", "hi there", [], None)
    assert Session.open(path).build_context().messages[-1]["model"] == "fake-model"
    _same_in_pi(path)


def test_images_reasoning_and_tool_errors(tmp_path: Path) -> None:
    history = PiChatMessageHistory(tmp_path / "h.jsonl")
    image = {"type": "image", "base64": "iVBORw0KGgo=", "mime_type": "image/png"}
    reasoning = {"type": "reasoning", "reasoning": "think", "extras": {"thinkingSignature": "sig"}}
    history.add_messages([
        HumanMessage(content=[{"type": "text", "text": "look"}, image]),
        AIMessage(content=[reasoning, {"type": "text", "text": "checking"}], tool_calls=[CALL]),
        ToolMessage("boom", tool_call_id="call_1", name="add", status="error"),
    ])
    human, ai, tool = history.messages
    assert human.content == [{"type": "text", "text": "look"}, image]
    assert ai.content == [reasoning, {"type": "text", "text": "checking"}] and ai.tool_calls == [CALL]
    assert tool.status == "error"
    thinking = history.session.build_context().messages[1]["content"][0]
    assert thinking == {"type": "thinking", "thinking": "think", "thinkingSignature": "sig"}


def test_system_messages_are_kept_as_custom_entries(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    history = PiChatMessageHistory(path)
    history.add_messages([SystemMessage("Answer in French."), HumanMessage("hello")])
    assert _shape(history.messages) == [("SystemMessage", "Answer in French.", None, None),
                                        ("HumanMessage", "hello", None, None)]
    [entry] = [e for e in Session.open(path).entries() if e["type"] == "custom_message"]
    assert (entry["customType"], entry["content"]) == (SYSTEM_TYPE, "Answer in French.")
    _same_in_pi(path)


def test_an_unanswered_call_reads_as_a_placeholder_result(tmp_path: Path) -> None:
    history = PiChatMessageHistory(tmp_path / "h.jsonl")
    history.add_messages(CONVERSATION[:2])
    last = history.messages[-1]
    assert isinstance(last, ToolMessage) and last.tool_call_id == "call_1" and last.content == MISSING_RESULT_TEXT


def test_clear_starts_a_new_branch_and_keeps_every_byte(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    history = PiChatMessageHistory(path)
    history.add_messages(CONVERSATION)
    before = path.read_bytes()
    history.clear()
    assert history.messages == [] and PiChatMessageHistory(path).messages == []
    assert path.read_bytes().startswith(before)
    history.add_user_message("new topic")
    assert _shape(PiChatMessageHistory(path).messages) == [("HumanMessage", "new topic", None, None)]
    assert len(Session.open(path).tree()) == 2
    _same_in_pi(path)


def test_a_compacted_history_starts_with_the_summary(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    history = PiChatMessageHistory(path)
    for n in range(4):
        history.add_messages([HumanMessage(f"question {n} " + prose(100)), AIMessage(f"answer {n} " + prose(100))])
    compact(history.session, settings=CompactionSettings(keep_recent_tokens=200))
    messages = PiChatMessageHistory(path).messages
    assert isinstance(messages[0], SystemMessage) and messages[0].content.startswith(COMPACTION_SUMMARY_PREFIX)
    assert len(messages) < 8
    _same_in_pi(path)


PI_MESSAGES = [
    {"role": "user", "content": "hi", "timestamp": 1},
    {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "thinkingSignature": "s"},
                                      {"type": "text", "text": "reading"},
                                      {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"p": "a"}}],
     "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-6",
     "usage": {"input": 3, "output": 4, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 7,
               "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
     "stopReason": "toolUse", "timestamp": 2},
    {"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": [{"type": "text", "text": "x"}],
     "isError": False, "timestamp": 3},
]


def test_pi_messages_survive_the_trip_through_langchain() -> None:
    back = from_langchain_messages(to_langchain_messages(PI_MESSAGES))
    assert back[1] == PI_MESSAGES[1]
    assert back[0]["content"] == "hi" and back[2]["content"] == PI_MESSAGES[2]["content"]
    assert back[2]["toolName"] == "read"


@pytest.mark.parametrize("message", [
    {"role": "branchSummary", "summary": "tried X", "fromId": "a", "timestamp": 1},
    {"role": "custom", "customType": "note", "content": "remember X", "display": True, "timestamp": 1},
    {"role": "bashExecution", "command": "ls X", "output": "", "exitCode": 0, "timestamp": 1},
], ids=["branch-summary", "custom", "bash"])
def test_other_roles_read_as_human_text(message: dict) -> None:
    [converted] = to_langchain_messages([message])
    assert isinstance(converted, HumanMessage) and "X" in converted.content


def test_unsupported_messages_and_blocks_are_refused() -> None:
    with pytest.raises(ValueError, match="SystemMessage"):
        from_langchain_messages([SystemMessage("s")])
    with pytest.raises(ValueError, match="'file'"):
        from_langchain_messages([HumanMessage(content=[{"type": "file", "url": "https://x"}])])


def test_v1_content_with_tool_call_blocks_stores_each_call_once() -> None:
    message = AIMessage(content=[{"type": "text", "text": "adding"}, {**CALL}], tool_calls=[CALL])
    [converted] = from_langchain_messages([message])
    assert [b["type"] for b in converted["content"]] == ["text", "toolCall"]
