"""AnthropicSummarizer against the fake server, through the real ``anthropic`` SDK over HTTP (no monkeypatching).

Also checks that the fake server's streaming Messages API satisfies the SDK's own stream helpers.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pi_compact.compaction.summarizer import Summarizer, SummaryRequest
from pi_compact.errors import SummarizerError, UsageError
from pi_compact.llm import is_context_overflow, make_summarizer
from pi_compact.llm.anthropic import AnthropicSummarizer
from pi_compact.testing import FakeLLMServer, FakeReply

KEY = "sk-ant-test-9f8e7d6c5b4a"
FAST_RETRY = {"retry-after-ms": "1"}


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's own credentials must neither leak into nor change these tests."""
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_PROFILE"):
        monkeypatch.delenv(var, raising=False)


def _summarizer(server: FakeLLMServer, **options: object) -> AnthropicSummarizer:
    settings: dict[str, object] = {"api_key": KEY, "base_url": server.url, "timeout": 2.0, "max_retries": 0}
    return AnthropicSummarizer("claude-test", **{**settings, **options})  # type: ignore[arg-type]


REQUEST = SummaryRequest(system="You summarize.", prompt="<conversation>hello</conversation>", max_tokens=321)


def _failure(server: FakeLLMServer, *replies: FakeReply, **options: object) -> SummarizerError:
    server.push(*replies)
    with pytest.raises(SummarizerError) as info:
        _summarizer(server, **options).summarize(REQUEST)
    return info.value


# -- the request and the result -----------------------------------------------------------------------------


def test_sends_model_max_tokens_system_and_one_user_text(server: FakeLLMServer) -> None:
    server.push(FakeReply(text="## Goal\nsummary", usage=(1234, 56)))
    result = _summarizer(server).summarize(REQUEST)
    [sent] = server.requests
    assert sent.path == "/v1/messages"
    assert sent.body["model"] == "claude-test" and sent.body["max_tokens"] == 321
    assert sent.body["system"] == "You summarize."
    assert sent.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "<conversation>hello</conversation>"}]}
    ]
    assert (result.text, result.input_tokens, result.output_tokens, result.model) == (
        "## Goal\nsummary", 1234, 56, "claude-test"
    )


def test_is_a_summarizer(server: FakeLLMServer) -> None:
    summarizer = _summarizer(server)
    assert isinstance(summarizer, Summarizer)
    assert (summarizer.name, summarizer.context_window) == ("anthropic", 200_000)
    assert KEY not in repr(summarizer)


def test_text_blocks_are_joined_and_other_blocks_ignored(server: FakeLLMServer) -> None:
    content = [
        {"type": "thinking", "thinking": "hmm", "signature": "s"},
        {"type": "text", "text": "part one"},
        {"type": "text", "text": "part two"},
    ]
    message = {"id": "m", "type": "message", "role": "assistant", "model": "claude-test", "content": content,
               "stop_reason": "end_turn", "usage": {"input_tokens": 10, "output_tokens": 4,
                                                    "cache_read_input_tokens": 90}}  # fmt: skip
    server.push(FakeReply(body=json.dumps(message)))
    result = _summarizer(server).summarize(REQUEST)
    assert result.text == "part one\npart two"
    assert result.input_tokens == 100


def test_key_from_environment(server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-env")
    AnthropicSummarizer("claude-test", base_url=server.url, max_retries=0).summarize(REQUEST)
    headers = server.requests[0].headers
    # anthropic 2.x sends the key as a Bearer token; 0.x sent x-api-key.
    assert "sk-ant-from-env" in headers.get("x-api-key", "") + headers.get("authorization", "")


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-from-env")
    summarizer = AnthropicSummarizer()
    assert (summarizer.model, summarizer.timeout, summarizer.context_window) == ("claude-sonnet-4-6", 60.0, 200_000)


def test_missing_key_is_reported_before_any_request() -> None:
    with pytest.raises(SummarizerError, match="^ANTHROPIC_API_KEY is not set$"):
        AnthropicSummarizer()


def test_sdk_is_not_imported_with_the_module() -> None:
    code = "import sys, pi_compact.llm, pi_compact.llm.anthropic; print('anthropic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# -- failure paths ------------------------------------------------------------------------------------------


def test_timeout(server: FakeLLMServer) -> None:
    error = _failure(server, FakeReply(delay=5), timeout=0.2)
    assert str(error) == "anthropic request timed out after 0.2s"


def test_dropped_connection(server: FakeLLMServer) -> None:
    error = _failure(server, FakeReply(drop_connection=True))
    assert str(error).startswith("cannot reach the anthropic API")


def test_rate_limit_is_retried_by_the_sdk(server: FakeLLMServer) -> None:
    server.push(FakeReply(status=429, text="slow down", headers={"retry-after": "0"}), FakeReply(text="fine"))
    assert _summarizer(server, max_retries=1).summarize(REQUEST).text == "fine"
    assert len(server.requests) == 2


def test_repeated_server_errors_give_up(server: FakeLLMServer) -> None:
    error = _failure(server, *[FakeReply(status=500, text="boom", headers=FAST_RETRY)] * 2, max_retries=1)
    assert str(error) == "anthropic API error 500: boom"
    assert len(server.requests) == 2


def test_overflow_message_survives_for_the_caller(server: FakeLLMServer) -> None:
    error = _failure(server, FakeReply(status=400, text="prompt is too long: 250000 tokens > 200000 maximum"))
    assert is_context_overflow(str(error))


@pytest.mark.parametrize("body", ["{not json", '{"unexpected": true}', "[]"], ids=["not-json", "no-content", "list"])
def test_malformed_response(server: FakeLLMServer, body: str) -> None:
    assert str(_failure(server, FakeReply(body=body))).startswith("malformed anthropic response")


@pytest.mark.parametrize("text", ["", "  \n\t "], ids=["empty", "whitespace"])
def test_empty_summary(server: FakeLLMServer, text: str) -> None:
    assert str(_failure(server, FakeReply(text=text))) == "empty summary"


@pytest.mark.parametrize(
    "reply",
    [
        FakeReply(status=401, text=f"invalid x-api-key: {KEY}"),
        FakeReply(status=500, body=f"<html>\n  proxy error for key {KEY}\n</html>"),
        FakeReply(drop_connection=True),
        FakeReply(delay=5),
        FakeReply(body="{not json"),
    ],
    ids=["echoed-in-401", "echoed-in-html-500", "dropped", "timeout", "malformed"],
)
def test_key_never_appears_in_the_error(server: FakeLLMServer, reply: FakeReply) -> None:
    error = _failure(server, reply, timeout=0.3)
    assert KEY not in str(error) and KEY not in repr(error)
    assert "\n" not in str(error)


# -- make_summarizer ----------------------------------------------------------------------------------------


def test_make_summarizer_builds_anthropic_with_options(server: FakeLLMServer) -> None:
    summarizer = make_summarizer(" Anthropic ", model="claude-x", base_url=server.url, api_key=KEY, timeout=1.5)
    assert isinstance(summarizer, AnthropicSummarizer)
    assert (summarizer.model, summarizer.timeout) == ("claude-x", 1.5)
    assert summarizer.summarize(REQUEST).text
    assert server.requests[0].body["model"] == "claude-x"


def test_make_summarizer_rejects_unknown_provider() -> None:
    with pytest.raises(UsageError, match="unknown summarizer 'gemini'"):
        make_summarizer("gemini")


# -- the fake server's streaming endpoint, for chat code --------------------------------------------------------


def _client(server: FakeLLMServer):  # noqa: ANN202 - the SDK type is imported lazily
    import anthropic

    return anthropic.Anthropic(api_key=KEY, base_url=server.url, max_retries=0, timeout=2.0)


def test_stream_helper_accumulates_text_and_tool_use(server: FakeLLMServer) -> None:
    call = {"id": "toolu_9", "name": "read", "arguments": {"path": "a.txt", "lines": [1, 2]}}
    server.push(FakeReply(text="Let me look at the file.", tool_calls=[call], usage=(40, 12)))
    with _client(server) as client, client.messages.stream(
        model="claude-x", max_tokens=50, messages=[{"role": "user", "content": "read a.txt"}]
    ) as stream:
        pieces = list(stream.text_stream)
        final = stream.get_final_message()
    assert len(pieces) > 1 and "".join(pieces) == "Let me look at the file."
    assert [block.type for block in final.content] == ["text", "tool_use"]
    tool = final.content[1]
    assert (tool.id, tool.name, tool.input) == ("toolu_9", "read", {"path": "a.txt", "lines": [1, 2]})
    assert (final.stop_reason, final.usage.input_tokens, final.usage.output_tokens) == ("tool_use", 40, 12)
    assert server.requests[0].body["stream"] is True


def test_raw_stream_events(server: FakeLLMServer) -> None:
    server.push(FakeReply(text="cut", stop_reason="max_tokens"))
    with _client(server) as client:
        messages = [{"role": "user", "content": "x"}]
        stream = client.messages.create(model="m", max_tokens=1, messages=messages, stream=True)
        with stream:
            events = list(stream)
    assert [e.type for e in events] == [
        "message_start", "content_block_start", "content_block_delta", "content_block_stop",
        "message_delta", "message_stop",
    ]  # fmt: skip
    assert events[2].delta.text == "cut" and events[4].delta.stop_reason == "max_tokens"
