"""The shipped test doubles: the scripted summarizer, and the fake LLM server spoken to over raw HTTP."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from pi_compact.compaction.summarizer import Summarizer, SummaryRequest
from pi_compact.errors import SummarizerError
from pi_compact.testing import DEFAULT_FAKE_TEXT, FakeReply, ScriptedSummarizer, fake_llm_server


def _request(kind: str = "compaction") -> SummaryRequest:
    return SummaryRequest(system="be brief", prompt="<conversation>hi</conversation>", max_tokens=100, kind=kind)


def _post(url: str, path: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One POST with the standard library; the connection is always closed."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    try:
        data = json.dumps(body).encode()
        conn.request("POST", path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def _sse_events(raw: bytes) -> list[tuple[str | None, str]]:
    """``(event, data)`` pairs of an SSE body."""
    events = []
    for block in raw.decode().strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((fields.get("event"), fields["data"]))
    return events


# -- ScriptedSummarizer -------------------------------------------------------------------------------------


def test_scripted_summarizer_is_a_summarizer() -> None:
    summarizer = ScriptedSummarizer([], name="double", context_window=1000)
    assert isinstance(summarizer, Summarizer)
    assert (summarizer.name, summarizer.context_window) == ("double", 1000)


def test_scripted_summarizer_replays_in_order_and_records_calls() -> None:
    summarizer = ScriptedSummarizer(iter(["first", "second"]))
    first = summarizer.summarize(_request("compaction"))
    second = summarizer.summarize(_request("branch"))
    assert (first.text, second.text) == ("first", "second")
    assert [call.kind for call in summarizer.calls] == ["compaction", "branch"]
    assert first.model == "scripted" and first.input_tokens > 0
    assert summarizer.remaining == 0


def test_scripted_exception_is_raised_and_the_call_recorded() -> None:
    boom = SummarizerError("provider down")
    summarizer = ScriptedSummarizer([boom, "after"])
    with pytest.raises(SummarizerError) as info:
        summarizer.summarize(_request())
    assert info.value is boom
    assert summarizer.summarize(_request()).text == "after"
    assert len(summarizer.calls) == 2


def test_scripted_summarizer_runs_out() -> None:
    summarizer = ScriptedSummarizer(["only"])
    summarizer.summarize(_request())
    with pytest.raises(SummarizerError, match="no scripted summary left"):
        summarizer.summarize(_request())
    assert len(summarizer.calls) == 2


# -- fake_llm_server: plumbing ------------------------------------------------------------------------------


def test_server_records_requests_with_lowercased_headers() -> None:
    with fake_llm_server() as server:
        _post(server.url, "/v1/messages", {"model": "m", "max_tokens": 5}, {"X-Api-Key": "secret"})
    [recorded] = server.requests
    assert (recorded.method, recorded.path) == ("POST", "/v1/messages")
    assert recorded.headers["x-api-key"] == "secret"
    assert recorded.body == {"model": "m", "max_tokens": 5}


def test_scripted_replies_come_in_order_then_the_default() -> None:
    with fake_llm_server(default_text="fallback") as server:
        server.push(FakeReply(text="one"), FakeReply(text="two"))
        bodies = [json.loads(_post(server.url, "/v1/messages", {"model": "m"})[2]) for _ in range(3)]
    texts = [body["content"][0]["text"] for body in bodies]
    assert texts == ["one", "two", "fallback"]
    assert server.pending == 0


def test_default_text_and_usage_estimate() -> None:
    with fake_llm_server() as server:
        status, headers, raw = _post(server.url, "/v1/chat/completions", {"model": "gpt", "messages": []})
    body = json.loads(raw)
    assert status == 200 and headers["content-type"] == "application/json"
    assert body["choices"][0]["message"] == {"role": "assistant", "content": DEFAULT_FAKE_TEXT}
    assert body["usage"]["completion_tokens"] == len(DEFAULT_FAKE_TEXT) // 4
    assert body["usage"]["total_tokens"] == body["usage"]["prompt_tokens"] + body["usage"]["completion_tokens"]


def test_unknown_route_is_404() -> None:
    with fake_llm_server() as server:
        status, _, raw = _post(server.url, "/v2/nothing", {})
    assert status == 404 and "no route" in json.loads(raw)["error"]["message"]


@pytest.mark.parametrize(
    ("path", "status", "expected"),
    [
        ("/v1/messages", 429, {"type": "error", "error": {"type": "rate_limit_error", "message": "slow"}}),
        ("/v1/messages", 500, {"type": "error", "error": {"type": "api_error", "message": "slow"}}),
        ("/v1/messages", 400, {"type": "error", "error": {"type": "invalid_request_error", "message": "slow"}}),
        ("/v1/chat/completions", 429, {"error": {"message": "slow", "type": "requests", "param": None,
                                                 "code": "rate_limit_exceeded"}}),
        ("/v1/responses", 500, {"error": {"message": "slow", "type": "server_error", "param": None, "code": None}}),
    ],
    ids=["anthropic-429", "anthropic-500", "anthropic-400", "chat-429", "responses-500"],
)  # fmt: skip
def test_error_status_sends_the_provider_error_shape(path: str, status: int, expected: dict[str, Any]) -> None:
    with fake_llm_server() as server:
        server.push(FakeReply(status=status, text="slow", headers={"retry-after": "0"}))
        got_status, headers, raw = _post(server.url, path, {"model": "m"})
    assert got_status == status and headers["retry-after"] == "0"
    assert json.loads(raw) == expected


def test_raw_body_is_sent_verbatim() -> None:
    with fake_llm_server() as server:
        server.push(FakeReply(body="{not json"))
        status, _, raw = _post(server.url, "/v1/messages", {"model": "m"})
    assert (status, raw) == (200, b"{not json")


def test_dropped_connection_gives_no_response() -> None:
    with fake_llm_server() as server:
        server.push(FakeReply(drop_connection=True))
        with pytest.raises((ConnectionError, http.client.HTTPException)):
            _post(server.url, "/v1/messages", {"model": "m"})
        assert len(server.requests) == 1


def test_exit_cuts_a_delayed_reply_short_and_stops_serving(deadline) -> None:
    with deadline(10, "leaving the server while a reply is delayed by 30 s"):
        with fake_llm_server() as server:
            server.push(FakeReply(delay=30))
            with pytest.raises(TimeoutError):
                parts = urlsplit(server.url)
                conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=0.2)
                try:
                    conn.request("POST", "/v1/messages", body=b"{}")
                    conn.getresponse()
                finally:
                    conn.close()
            assert len(server.requests) == 1 and server.pending == 0  # received; its reply still delayed
    with pytest.raises(ConnectionError):
        _post(server.url, "/v1/messages", {})


# -- fake_llm_server: wire formats --------------------------------------------------------------------------


def test_anthropic_json_with_tool_use_and_explicit_usage() -> None:
    call = {"id": "toolu_1", "name": "read", "arguments": {"path": "a.txt"}}
    with fake_llm_server() as server:
        server.push(FakeReply(text="reading", tool_calls=[call], usage=(11, 7)))
        body = json.loads(_post(server.url, "/v1/messages", {"model": "claude-x"})[2])
    assert body["type"] == "message" and body["model"] == "claude-x" and body["role"] == "assistant"
    assert body["content"] == [
        {"type": "text", "text": "reading"},
        {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.txt"}},
    ]
    assert body["stop_reason"] == "tool_use"
    assert body["usage"] == {"input_tokens": 11, "output_tokens": 7}


def test_anthropic_stream_event_sequence() -> None:
    with fake_llm_server() as server:
        server.push(FakeReply(text="two words", stop_reason="max_tokens"))
        status, headers, raw = _post(server.url, "/v1/messages", {"model": "m", "stream": True})
    events = _sse_events(raw)
    assert status == 200 and headers["content-type"] == "text/event-stream"
    assert [name for name, _ in events] == [
        "message_start", "content_block_start", "content_block_delta", "content_block_delta",
        "content_block_stop", "message_delta", "message_stop",
    ]  # fmt: skip
    deltas = [json.loads(data)["delta"]["text"] for name, data in events if name == "content_block_delta"]
    assert "".join(deltas) == "two words"
    assert json.loads(events[5][1])["delta"]["stop_reason"] == "max_tokens"


def test_openai_chat_stream_ends_with_usage_and_done() -> None:
    with fake_llm_server() as server:
        server.push(FakeReply(text="hi", usage=(3, 1)))
        body = {"model": "m", "stream": True, "stream_options": {"include_usage": True}}
        _, _, raw = _post(server.url, "/v1/chat/completions", body)
    datas = [data for _, data in _sse_events(raw)]
    assert datas[-1] == "[DONE]"
    usage_chunk = json.loads(datas[-2])
    assert usage_chunk["choices"] == [] and usage_chunk["usage"]["total_tokens"] == 4
    assert json.loads(datas[-3])["choices"][0]["finish_reason"] == "stop"


def test_openai_responses_json() -> None:
    with fake_llm_server() as server:
        server.push(FakeReply(text="done", tool_calls=[{"id": "c1", "name": "ls", "arguments": {}}]))
        body = json.loads(_post(server.url, "/v1/responses", {"model": "m", "input": "x"})[2])
    assert body["object"] == "response" and body["status"] == "completed"
    message, call = body["output"]
    assert message["content"] == [{"type": "output_text", "text": "done", "annotations": []}]
    assert (call["type"], call["call_id"], call["name"], call["arguments"]) == ("function_call", "c1", "ls", "{}")


def test_anthropic_thinking_streams_its_text_and_then_its_signature() -> None:
    with fake_llm_server() as server:
        server.push(*[FakeReply(text="done", thinking="think hard", usage=(5, 2, 7, 3))] * 2)
        body = json.loads(_post(server.url, "/v1/messages", {"model": "m"})[2])
        _, _, raw = _post(server.url, "/v1/messages", {"model": "m", "stream": True})
    assert body["content"][0] == {"type": "thinking", "thinking": "think hard", "signature": "sig_fake1"}
    assert body["usage"] == {"input_tokens": 5, "output_tokens": 2, "cache_creation_input_tokens": 3,
                             "cache_read_input_tokens": 7}
    deltas = [json.loads(data)["delta"] for name, data in _sse_events(raw) if name == "content_block_delta"]
    assert [d["type"] for d in deltas[:3]] == ["thinking_delta", "thinking_delta", "signature_delta"]
    assert deltas[2]["signature"] == "sig_fake2"  # signatures differ from answer to answer


def test_openai_responses_stream_events_are_numbered_and_end_completed() -> None:
    call = {"id": "c1", "name": "ls", "arguments": {"path": "src"}}
    with fake_llm_server() as server:
        server.push(FakeReply(text="two words", thinking="why", tool_calls=[call], response_id="resp_x"))
        _, headers, raw = _post(server.url, "/v1/responses", {"model": "m", "input": "x", "stream": True})
    events = [json.loads(data) for _, data in _sse_events(raw)]
    assert headers["content-type"] == "text/event-stream"
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    assert events[0]["type"] == "response.created" and events[-1]["type"] == "response.completed"
    final = events[-1]["response"]
    assert final["id"] == "resp_x" and [item["type"] for item in final["output"]] == ["reasoning", "message", "function_call"]
    texts = [e["delta"] for e in events if e["type"] == "response.output_text.delta"]
    arguments = [e["delta"] for e in events if e["type"] == "response.function_call_arguments.delta"]
    assert "".join(texts) == "two words" and json.loads("".join(arguments)) == {"path": "src"}


def test_chat_usage_counts_cached_tokens_in_the_prompt() -> None:
    with fake_llm_server() as server:
        server.push(FakeReply(text="hi", usage=(10, 2, 30, 0)))
        body = json.loads(_post(server.url, "/v1/chat/completions", {"model": "m", "messages": []})[2])
    assert body["usage"] == {"prompt_tokens": 40, "completion_tokens": 2, "total_tokens": 42,
                             "prompt_tokens_details": {"cached_tokens": 30}}
