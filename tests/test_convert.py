"""Provider conversions: every pi role and content block has a mapping, tool pairs are always repaired, and a
context survives the trip through the real SDKs (sent to the fake server) and back into a file pi reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anthropic
import openai
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact import Session
from pi_compact.compaction.serialize import COMPACTION_SUMMARY_PREFIX
from pi_compact.convert import (
    MISSING_RESULT_TEXT,
    TOOL_IMAGES_TEXT,
    from_anthropic_response,
    from_openai_chat_response,
    from_openai_responses_items,
    from_openai_responses_output,
    prepare_messages,
    repair_tool_pairs,
    to_anthropic,
    to_openai_chat,
    to_openai_responses,
)
from pi_compact.testing import FakeLLMServer, FakeReply
from tests.conformance.jsoncmp import first_difference
from tests.conformance.pi_ref import pi_context

PNG = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
PNG_URL = "data:image/png;base64,iVBORw0KGgo="


def user(content: Any, ts: int = 1) -> dict:
    return {"role": "user", "content": content, "timestamp": ts}


def assistant(*blocks: dict, api: str | None = "anthropic-messages", stop: str = "stop") -> dict:
    message = {"role": "assistant", "content": list(blocks), "provider": "p", "model": "m", "stopReason": stop,
               "timestamp": 2}
    if api is not None:
        message["api"] = api
    return message


def call(call_id: str = "call_1", name: str = "read", **arguments: Any) -> dict:
    return {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}


def result(call_id: str = "call_1", *blocks: dict, error: bool = False) -> dict:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": "read",
            "content": list(blocks) or [{"type": "text", "text": "ok"}], "isError": error, "timestamp": 3}


def text(value: str) -> dict:
    return {"type": "text", "text": value}


# -- roles that become user text ------------------------------------------------------------------------------


USER_TEXT_ROLES = [
    ({"role": "bashExecution", "command": "ls", "output": "a.py", "exitCode": 0, "cancelled": False,
      "truncated": False, "timestamp": 1}, "Ran `ls`\n```\na.py\n```"),
    ({"role": "custom", "customType": "note", "content": "remember", "display": True, "timestamp": 1}, "remember"),
    ({"role": "branchSummary", "summary": "tried X", "fromId": "a", "timestamp": 1}, "tried X"),
    ({"role": "compactionSummary", "summary": "did Y", "tokensBefore": 9, "timestamp": 1}, "did Y"),
]


@pytest.mark.parametrize(("message", "fragment"), USER_TEXT_ROLES, ids=["bash", "custom", "branch", "compaction"])
def test_non_llm_roles_become_user_text_everywhere(message: dict, fragment: str) -> None:
    [sent] = to_anthropic([message])[1]
    assert sent["role"] == "user" and fragment in sent["content"][0]["text"]
    [chat] = to_openai_chat([message])
    assert chat["role"] == "user" and fragment in chat["content"]
    [item] = to_openai_responses([message])[1]
    assert item["role"] == "user" and fragment in item["content"][0]["text"]


def test_bash_run_excluded_from_context_is_left_out() -> None:
    run = {"role": "bashExecution", "command": "ls", "output": "", "exitCode": 0, "excludeFromContext": True,
           "timestamp": 1}
    assert to_anthropic([run]) == (None, []) and to_openai_chat([run]) == [] and to_openai_responses([run]) == (None, [])


def test_compaction_summary_keeps_pi_wording() -> None:
    [chat] = to_openai_chat([USER_TEXT_ROLES[3][0]])
    assert chat["content"].startswith(COMPACTION_SUMMARY_PREFIX)


# -- user content -----------------------------------------------------------------------------------------------


def test_user_text_and_images() -> None:
    message = user([text("look"), PNG])
    assert to_anthropic([message])[1] == [{"role": "user", "content": [
        {"type": "text", "text": "look"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]}]
    assert to_openai_chat([message]) == [{"role": "user", "content": [
        {"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": PNG_URL}}]}]
    assert to_openai_responses([message])[1] == [{"role": "user", "content": [
        {"type": "input_text", "text": "look"}, {"type": "input_image", "detail": "auto", "image_url": PNG_URL}]}]


def test_string_content_stays_a_string_where_the_api_allows() -> None:
    assert to_openai_chat([user("hi")]) == [{"role": "user", "content": "hi"}]
    assert to_openai_responses([user("hi")])[1] == [{"role": "user", "content": "hi"}]
    assert to_anthropic([user("hi")])[1] == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]


def test_system_prompt_placement() -> None:
    assert to_anthropic([user("hi")], system="S")[0] == "S"
    assert to_openai_chat([user("hi")], system="S")[0] == {"role": "system", "content": "S"}
    assert to_openai_responses([user("hi")], system="S")[0] == "S"


# -- assistant content ------------------------------------------------------------------------------------------


THINKING = {"type": "thinking", "thinking": "let me see", "thinkingSignature": "sig=="}
REDACTED = {"type": "thinking", "thinking": "", "thinkingSignature": "opaque", "redacted": True}
REASONING_ITEM = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "plan"}],
                  "encrypted_content": "enc"}
RESPONSES_THINKING = {"type": "thinking", "thinking": "plan", "thinkingSignature": orjson.dumps(REASONING_ITEM).decode()}


def test_anthropic_thinking_replayed_with_its_signature() -> None:
    [sent] = to_anthropic([user("q"), assistant(THINKING, REDACTED, text("a"))])[1][1:]
    assert sent["content"] == [{"type": "thinking", "thinking": "let me see", "signature": "sig=="},
                               {"type": "redacted_thinking", "data": "opaque"}, {"type": "text", "text": "a"}]


def test_unsigned_thinking_is_text_for_anthropic() -> None:
    [sent] = to_anthropic([user("q"), assistant({"type": "thinking", "thinking": "hm"}, text("a"))])[1][1:]
    assert sent["content"] == [{"type": "text", "text": "hm"}, {"type": "text", "text": "a"}]


@pytest.mark.parametrize("api", ["openai-responses", "openai-completions", "google-generative-ai"])
def test_foreign_thinking_loses_its_signature_for_anthropic(api: str) -> None:
    [sent] = to_anthropic([user("q"), assistant(THINKING, REDACTED, text("a"), api=api)])[1][1:]
    assert sent["content"] == [{"type": "text", "text": "let me see"}, {"type": "text", "text": "a"}]


def test_responses_reasoning_item_replayed_from_the_signature() -> None:
    items = to_openai_responses([user("q"), assistant(RESPONSES_THINKING, text("a"), api="openai-responses")])[1]
    assert items[1] == REASONING_ITEM
    assert items[2] == {"role": "assistant", "content": "a"}


def test_anthropic_thinking_becomes_text_for_openai() -> None:
    items = to_openai_responses([user("q"), assistant(THINKING, REDACTED, text("a"))])[1]
    assert items[1:] == [{"role": "assistant", "content": "let me see"}, {"role": "assistant", "content": "a"}]
    chat = to_openai_chat([user("q"), assistant(THINKING, text("a"))])
    assert chat[1] == {"role": "assistant", "content": "let me see\na"}


def test_native_chat_thinking_has_no_place_in_a_chat_request() -> None:
    chat = to_openai_chat([user("q"), assistant({"type": "thinking", "thinking": "hm"}, text("a"), api="openai-completions")])
    assert chat[1] == {"role": "assistant", "content": "a"}


def test_tool_calls_in_every_format() -> None:
    context = [user("q"), assistant(text("reading"), call("call_1", path="a.py"), stop="toolUse"), result("call_1")]
    anthropic_messages = to_anthropic(context)[1]
    assert anthropic_messages[1]["content"][1] == {"type": "tool_use", "id": "call_1", "name": "read",
                                                   "input": {"path": "a.py"}}
    assert anthropic_messages[2]["content"] == [{"type": "tool_result", "tool_use_id": "call_1",
                                                 "content": [{"type": "text", "text": "ok"}]}]
    chat = to_openai_chat(context)
    assert chat[1]["tool_calls"] == [{"id": "call_1", "type": "function",
                                      "function": {"name": "read", "arguments": '{"path":"a.py"}'}}]
    assert chat[2] == {"role": "tool", "tool_call_id": "call_1", "content": "ok"}
    items = to_openai_responses(context)[1]
    assert items[2:] == [{"type": "function_call", "call_id": "call_1", "name": "read", "arguments": '{"path":"a.py"}'},
                         {"type": "function_call_output", "call_id": "call_1", "output": "ok"}]


def test_tool_error_flag_reaches_anthropic() -> None:
    context = [user("q"), assistant(call(), stop="toolUse"), result(error=True)]
    assert to_anthropic(context)[1][2]["content"][0]["is_error"] is True


def test_tool_result_images() -> None:
    context = [user("q"), assistant(call(), stop="toolUse"), result("call_1", text("shot"), PNG)]
    assert to_anthropic(context)[1][2]["content"][0]["content"][1]["type"] == "image"
    chat = to_openai_chat(context)
    assert chat[2] == {"role": "tool", "tool_call_id": "call_1", "content": "shot"}
    assert chat[3] == {"role": "user", "content": [{"type": "text", "text": TOOL_IMAGES_TEXT},
                                                   {"type": "image_url", "image_url": {"url": PNG_URL}}]}
    output = to_openai_responses(context)[1][-1]["output"]
    assert output == [{"type": "input_text", "text": "shot"},
                      {"type": "input_image", "detail": "auto", "image_url": PNG_URL}]


def test_image_only_tool_result_in_chat() -> None:
    context = [user("q"), assistant(call(), stop="toolUse"), result("call_1", PNG), user("next")]
    chat = to_openai_chat(context)
    assert chat[2]["content"] == "(see attached image)"
    assert [m["role"] for m in chat] == ["user", "assistant", "tool", "user", "user"]


# -- tool-call ids ----------------------------------------------------------------------------------------------


RESPONSES_ID = "call_abc|fc_123"


def test_responses_call_ids_split_for_responses_and_chat() -> None:
    context = [user("q"), assistant(call(RESPONSES_ID), api="openai-responses", stop="toolUse"), result(RESPONSES_ID)]
    items = to_openai_responses(context)[1]
    assert (items[1]["call_id"], items[1]["id"], items[2]["call_id"]) == ("call_abc", "fc_123", "call_abc")
    chat = to_openai_chat(context)
    assert chat[1]["tool_calls"][0]["id"] == chat[2]["tool_call_id"] == "call_abc"


def test_foreign_item_ids_are_not_replayed_to_responses() -> None:
    context = [user("q"), assistant(call(RESPONSES_ID), api="anthropic-messages", stop="toolUse"), result(RESPONSES_ID)]
    assert "id" not in to_openai_responses(context)[1][1]


def test_anthropic_ids_are_normalised_on_both_sides() -> None:
    long_id = "call|" + "x" * 100
    context = [user("q"), assistant(call(long_id), stop="toolUse"), result(long_id)]
    messages = to_anthropic(context)[1]
    use_id, result_id = messages[1]["content"][0]["id"], messages[2]["content"][0]["tool_use_id"]
    assert use_id == result_id == ("call_" + "x" * 100)[:64]


# -- repair -----------------------------------------------------------------------------------------------------


def test_call_without_result_gets_a_placeholder_before_the_next_user_message() -> None:
    repaired = repair_tool_pairs([user("q"), assistant(call("a"), call("b"), stop="toolUse"), result("b"), user("next")])
    assert [m["role"] for m in repaired] == ["user", "assistant", "toolResult", "toolResult", "user"]
    placeholder = repaired[3]
    assert placeholder["toolCallId"] == "a" and placeholder["isError"] is True
    assert placeholder["content"][0]["text"] == MISSING_RESULT_TEXT


def test_result_without_call_is_dropped() -> None:
    repaired = repair_tool_pairs([user("q"), result("ghost"), assistant(text("a"))])
    assert [m["role"] for m in repaired] == ["user", "assistant"]


def test_aborted_and_failed_assistant_messages_are_left_out_with_their_results() -> None:
    for stop in ("aborted", "error"):
        repaired = repair_tool_pairs([user("q"), assistant(call("a"), stop=stop), result("a"), user("again")])
        assert [m["role"] for m in repaired] == ["user", "user"]


def test_trailing_call_is_answered() -> None:
    chat = to_openai_chat([user("q"), assistant(call("a"), stop="toolUse")])
    assert chat[-1] == {"role": "tool", "tool_call_id": "a", "content": MISSING_RESULT_TEXT}


_ROLE = st.sampled_from(["user", "call", "calls", "result", "stray", "aborted", "text"])


def _message(kind: str, n: int) -> list[dict]:
    return {
        "user": [user(f"u{n}")],
        "call": [assistant(call(f"c{n}"), stop="toolUse")],
        "calls": [assistant(call(f"c{n}"), call(f"d{n}"), stop="toolUse")],
        "result": [result(f"c{n - 1}")],
        "stray": [result(f"nope{n}")],
        "aborted": [assistant(call(f"c{n}"), stop="aborted")],
        "text": [assistant(text(f"t{n}"))],
    }[kind]


@settings(max_examples=150, deadline=None)
@given(st.lists(_ROLE, max_size=12))
def test_every_request_is_well_paired(kinds: list[str]) -> None:
    context = [m for n, kind in enumerate(kinds) for m in _message(kind, n)]
    chat = to_openai_chat(context)
    for index, message in enumerate(chat):
        calls = [c["id"] for c in message.get("tool_calls", [])]
        answers = [m["tool_call_id"] for m in chat[index + 1 : index + 1 + len(calls)]]
        assert answers == calls
        if message["role"] == "tool":
            assert chat[index - 1]["role"] in ("assistant", "tool")
    pending: set[str] = set()
    for item in to_openai_responses(context)[1]:
        if item.get("type") == "function_call":
            pending.add(item["call_id"])
        elif item.get("type") == "function_call_output":
            pending.remove(item["call_id"])
        else:
            assert not pending
    assert not pending
    _anthropic_alternates(to_anthropic(context)[1])


def _anthropic_alternates(messages: list[dict]) -> None:
    roles = [m["role"] for m in messages]
    assert all(a != b for a, b in zip(roles, roles[1:]))
    for index, message in enumerate(messages):
        uses = [b["id"] for b in message["content"] if b["type"] == "tool_use"]
        if uses:
            answered = [b["tool_use_id"] for b in messages[index + 1]["content"] if b["type"] == "tool_result"]
            assert answered == uses


# -- provider replies back to pi ---------------------------------------------------------------------------------


def test_anthropic_reply_as_pi_message() -> None:
    reply = {"id": "msg_1", "model": "claude-sonnet-4-6", "stop_reason": "tool_use", "content": [
        {"type": "thinking", "thinking": "hm", "signature": "s"}, {"type": "redacted_thinking", "data": "r"},
        {"type": "text", "text": "reading"}, {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"p": 1}}],
        "usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 3}}
    message = from_anthropic_response(reply)
    assert message["content"] == [
        {"type": "thinking", "thinking": "hm", "thinkingSignature": "s"},
        {"type": "thinking", "thinking": "", "thinkingSignature": "r", "redacted": True},
        text("reading"), call("toolu_1", p=1) | {"name": "read"}]
    assert (message["stopReason"], message["api"], message["responseId"]) == ("toolUse", "anthropic-messages", "msg_1")
    assert message["usage"]["totalTokens"] == 18
    assert to_anthropic([user("q"), message])[1][1]["content"][:2] == [
        {"type": "thinking", "thinking": "hm", "signature": "s"}, {"type": "redacted_thinking", "data": "r"}]


def test_chat_reply_as_pi_message() -> None:
    reply = {"id": "c1", "model": "gpt", "choices": [{"finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": "x", "reasoning_content": "why",
        "tool_calls": [{"id": "call_9", "type": "function", "function": {"name": "ls", "arguments": '{"d":"."}'}}]}}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 2, "prompt_tokens_details": {"cached_tokens": 4}}}
    message = from_openai_chat_response(reply)
    assert message["content"] == [{"type": "thinking", "thinking": "why"}, text("x"),
                                  {"type": "toolCall", "id": "call_9", "name": "ls", "arguments": {"d": "."}}]
    assert (message["usage"]["input"], message["usage"]["cacheRead"], message["stopReason"]) == (3, 4, "toolUse")


def test_chat_refusal_and_bad_arguments() -> None:
    reply = {"choices": [{"finish_reason": "stop", "message": {"content": None, "refusal": "no", "tool_calls": [
        {"id": "c", "function": {"name": "f", "arguments": "{not json"}}]}}]}
    message = from_openai_chat_response(reply)
    assert message["content"][0] == text("no")
    assert message["content"][1]["arguments"] == {"_raw": "{not json"}


RESPONSES_REPLY = {"id": "resp_1", "model": "gpt-5", "status": "completed", "output": [
    REASONING_ITEM | {"status": None},
    {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
     "content": [{"type": "output_text", "text": "reading", "annotations": []}]},
    {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "read", "arguments": '{"p":1}'}],
    "usage": {"input_tokens": 9, "output_tokens": 4, "input_tokens_details": {"cached_tokens": 0}}}


def test_responses_reply_keeps_what_a_replay_needs() -> None:
    message = from_openai_responses_output(RESPONSES_REPLY)
    thinking, said, used = message["content"]
    assert thinking["thinking"] == "plan" and orjson.loads(thinking["thinkingSignature"]) == REASONING_ITEM
    assert said == {"type": "text", "text": "reading", "textSignature": '{"v":1,"id":"msg_1"}'}
    assert used == {"type": "toolCall", "id": "call_1|fc_1", "name": "read", "arguments": {"p": 1}}
    assert message["stopReason"] == "toolUse"
    replay = to_openai_responses([user("q"), message, result("call_1|fc_1")])[1]
    assert replay[1:] == [
        REASONING_ITEM,
        {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
         "content": [{"type": "output_text", "text": "reading", "annotations": []}]},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "read", "arguments": '{"p":1}'},
        {"type": "function_call_output", "call_id": "call_1", "output": "ok"}]


def test_incomplete_responses_reply_stopped_for_length() -> None:
    assert from_openai_responses_output(RESPONSES_REPLY | {"status": "incomplete"})["stopReason"] == "length"


def test_reply_must_be_a_dict_or_an_sdk_object() -> None:
    with pytest.raises(TypeError, match="expected a dict"):
        from_anthropic_response("nope")


# -- stored Responses items back to pi ------------------------------------------------------------------------


def test_responses_items_to_pi_messages_and_back() -> None:
    items = [
        {"role": "user", "content": "q"},
        {"role": "user", "content": [{"type": "input_text", "text": "see"},
                                     {"type": "input_image", "detail": "auto", "image_url": PNG_URL}]},
        *RESPONSES_REPLY["output"][1:],
        {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        {"role": "assistant", "content": "done"},
    ]
    messages = from_openai_responses_items(items, model="gpt-5")
    assert [m["role"] for m in messages] == ["user", "user", "assistant", "toolResult", "assistant"]
    assert messages[1]["content"] == [text("see"), PNG]
    assert messages[2]["content"][1]["id"] == messages[3]["toolCallId"] == "call_1|fc_1"
    assert (messages[2]["stopReason"], messages[4]["stopReason"], messages[4]["model"]) == ("toolUse", "stop", "gpt-5")
    assert to_openai_responses(messages)[1] == [
        items[0], items[1],
        {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
         "content": [{"type": "output_text", "text": "reading", "annotations": []}]},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "read", "arguments": '{"p":1}'},
        items[4], items[5]]


def test_output_of_a_call_made_earlier_uses_known_calls() -> None:
    [message] = from_openai_responses_items([{"type": "function_call_output", "call_id": "c", "output": "x"}],
                                            known_calls={"c": "c|fc_c"})
    assert message["toolCallId"] == "c|fc_c"


@pytest.mark.parametrize("item", [
    {"role": "system", "content": "be brief"},
    {"role": "developer", "content": "be brief"},
    {"type": "web_search_call", "id": "ws_1", "status": "completed"},
    {"role": "user", "content": [{"type": "input_file", "file_id": "f"}]},
], ids=["system", "developer", "hosted-tool", "file"])
def test_items_without_a_pi_message_are_refused(item: dict) -> None:
    with pytest.raises(ValueError, match="no pi"):
        from_openai_responses_items([item])


# -- round trips through the real SDKs and the real pi -------------------------------------------------------------


def _seeded(path: Path) -> Session:
    """A session whose context holds every role and content block (including an orphan call)."""
    session = Session.create_at(path, "/tmp/project")
    session.append_message(user([text("look at this"), PNG]))
    session.append_message(assistant(THINKING, text("reading"), call("call_1", path="a.py"), stop="toolUse"))
    session.append_message(result("call_1", text("print(1)"), PNG))
    session.append_message({"role": "bashExecution", "command": "ls", "output": "a.py", "exitCode": 0,
                            "cancelled": False, "truncated": False, "timestamp": 4})
    session.append_custom_message("note", "keep tests green", True)
    session.append_message(assistant(call("call_2", name="ls"), api="openai-responses", stop="toolUse"))
    session.append_message(user("and now?"))
    return session


def _continue(session: Session, reply: dict, path: Path) -> None:
    """Record the reply and answer its tool call, then check pi reads the file as we do."""
    session.append_message(reply)
    tool_call = next(b for b in reply["content"] if b["type"] == "toolCall")
    session.append_message(result(tool_call["id"], text("done")))
    ours = Session.open(path).build_context().to_json()
    difference = first_difference(pi_context(path), ours)
    assert difference is None, difference
    assert ours["messages"][-2]["content"] == reply["content"]


TOOL_REPLY = FakeReply(text="calling", tool_calls=[{"id": "call_9", "name": "grep", "arguments": {"q": "x"}}])


def test_anthropic_round_trip(server: FakeLLMServer, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = _seeded(path)
    system, messages = to_anthropic(session.build_context(), system="You help.")
    client = anthropic.Anthropic(api_key="k", base_url=server.url, max_retries=0)
    server.push(TOOL_REPLY)
    reply = client.messages.create(model="claude-sonnet-4-6", max_tokens=100, system=system, messages=messages)
    assert server.requests[-1].body["messages"] == messages
    _continue(session, from_anthropic_response(reply), path)
    server.push(FakeReply(text="ok"))
    client.messages.create(model="claude-sonnet-4-6", max_tokens=100, messages=to_anthropic(session.build_context())[1])
    _anthropic_alternates(server.requests[-1].body["messages"])


def test_openai_chat_round_trip(server: FakeLLMServer, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = _seeded(path)
    messages = to_openai_chat(session.build_context(), system="You help.")
    client = openai.OpenAI(api_key="k", base_url=server.url + "/v1", max_retries=0)
    server.push(TOOL_REPLY)
    reply = client.chat.completions.create(model="gpt-test", messages=messages)  # type: ignore[arg-type]
    assert server.requests[-1].body["messages"] == messages
    _continue(session, from_openai_chat_response(reply), path)
    server.push(FakeReply(text="ok"))
    again = to_openai_chat(session.build_context())
    client.chat.completions.create(model="gpt-test", messages=again)  # type: ignore[arg-type]
    assert server.requests[-1].body["messages"][-2]["tool_calls"][0]["id"] == "call_9"


def test_openai_responses_round_trip(server: FakeLLMServer, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = _seeded(path)
    instructions, items = to_openai_responses(session.build_context(), system="You help.")
    client = openai.OpenAI(api_key="k", base_url=server.url + "/v1", max_retries=0)
    server.push(TOOL_REPLY)
    reply = client.responses.create(model="gpt-test", instructions=instructions, input=items)  # type: ignore[arg-type]
    assert server.requests[-1].body["input"] == items
    recorded = from_openai_responses_output(reply)
    assert recorded["content"][1]["id"] == "call_9|fc_call_9"
    _continue(session, recorded, path)
    server.push(FakeReply(text="ok"))
    client.responses.create(model="gpt-test", input=to_openai_responses(session.build_context())[1])  # type: ignore[arg-type]
    sent = server.requests[-1].body["input"]
    assert {"type": "function_call", "call_id": "call_9", "id": "fc_call_9", "name": "grep",
            "arguments": '{"q":"x"}'} in sent
    assert sent[-1] == {"type": "function_call_output", "call_id": "call_9", "output": "done"}


def test_prepare_messages_is_convert_then_repair() -> None:
    context = [USER_TEXT_ROLES[0][0], assistant(call("z"), stop="toolUse")]
    assert [m["role"] for m in prepare_messages(context)] == ["user", "assistant", "toolResult"]
