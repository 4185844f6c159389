"""OpenAISummarizer against the fake server, through the real ``openai`` SDK over HTTP (no monkeypatching).

Also checks that the fake server's Chat Completions streaming (with tool calls) and Responses API satisfy the
SDK, so chat code can be tested the same way.
"""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

from pi_compact.compaction.summarizer import Summarizer, SummaryRequest
from pi_compact.errors import SummarizerError
from pi_compact.llm import is_context_overflow, make_summarizer
from pi_compact.llm.openai import LOCAL_API_KEY, OpenAISummarizer
from pi_compact.testing import FakeLLMServer, FakeReply

KEY = "sk-proj-test-0a1b2c3d4e5f"
FAST_RETRY = {"retry-after-ms": "1"}
REQUEST = SummaryRequest(system="You summarize.", prompt="<conversation>hello</conversation>", max_tokens=321)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's own credentials must neither leak into nor change these tests."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_ADMIN_KEY"):
        monkeypatch.delenv(var, raising=False)


def _summarizer(server: FakeLLMServer, **options: object) -> OpenAISummarizer:
    settings: dict[str, object] = {"api_key": KEY, "base_url": server.url + "/v1", "timeout": 2.0, "max_retries": 0}
    return OpenAISummarizer("gpt-test", **{**settings, **options})  # type: ignore[arg-type]


def _failure(server: FakeLLMServer, *replies: FakeReply, **options: object) -> SummarizerError:
    server.push(*replies)
    with pytest.raises(SummarizerError) as info:
        _summarizer(server, **options).summarize(REQUEST)
    return info.value


# -- the request and the result -----------------------------------------------------------------------------


def test_sends_model_token_limit_and_system_then_user(server: FakeLLMServer) -> None:
    server.push(FakeReply(text="## Goal\nsummary", usage=(1234, 56)))
    result = _summarizer(server).summarize(REQUEST)
    [sent] = server.requests
    assert sent.path == "/v1/chat/completions"
    assert sent.body["model"] == "gpt-test" and sent.body["max_tokens"] == 321
    assert "max_completion_tokens" not in sent.body
    assert sent.body["messages"] == [
        {"role": "system", "content": "You summarize."},
        {"role": "user", "content": "<conversation>hello</conversation>"},
    ]
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert (result.text, result.input_tokens, result.output_tokens, result.model) == (
        "## Goal\nsummary", 1234, 56, "gpt-test"
    )


@pytest.mark.parametrize(
    ("base_url", "field"),
    [(None, "max_completion_tokens"), ("https://api.openai.com/v1", "max_completion_tokens"),
     ("http://localhost:8080/v1", "max_tokens")],
    ids=["default", "official", "local"],
)  # fmt: skip
def test_token_limit_field_follows_the_endpoint(base_url: str | None, field: str) -> None:
    summarizer = OpenAISummarizer(api_key=KEY, base_url=base_url)
    assert summarizer._token_limit(99) == {field: 99}


def test_is_a_summarizer(server: FakeLLMServer) -> None:
    summarizer = _summarizer(server)
    assert isinstance(summarizer, Summarizer)
    assert (summarizer.name, summarizer.context_window, summarizer.model) == ("openai", 128_000, "gpt-test")
    assert KEY not in repr(summarizer)


def test_local_server_gets_a_dummy_key(server: FakeLLMServer) -> None:
    OpenAISummarizer("llama", base_url=server.url + "/v1", max_retries=0).summarize(REQUEST)
    assert server.requests[0].headers["authorization"] == f"Bearer {LOCAL_API_KEY}"


def test_environment_variables_are_honoured(server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    summarizer = OpenAISummarizer(max_retries=0)
    summarizer.summarize(REQUEST)
    assert server.requests[0].headers["authorization"] == "Bearer sk-from-env"
    assert server.requests[0].body["model"] == "gpt-4o-mini"


def test_missing_key_without_base_url() -> None:
    with pytest.raises(SummarizerError, match="^OPENAI_API_KEY is not set$"):
        OpenAISummarizer()


def test_sdk_is_not_imported_with_the_module() -> None:
    code = "import sys, pi_compact.llm, pi_compact.llm.openai; print('openai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# -- failure paths ------------------------------------------------------------------------------------------


def test_timeout(server: FakeLLMServer) -> None:
    assert str(_failure(server, FakeReply(delay=5), timeout=0.2)) == "openai request timed out after 0.2s"


def test_dropped_connection(server: FakeLLMServer) -> None:
    assert str(_failure(server, FakeReply(drop_connection=True))).startswith("cannot reach the openai API")


def test_rate_limit_is_retried_by_the_sdk(server: FakeLLMServer) -> None:
    server.push(FakeReply(status=429, text="Rate limit reached", headers={"retry-after": "0"}), FakeReply(text="ok"))
    assert _summarizer(server, max_retries=1).summarize(REQUEST).text == "ok"
    assert len(server.requests) == 2


def test_repeated_server_errors_give_up(server: FakeLLMServer) -> None:
    error = _failure(server, *[FakeReply(status=500, text="boom", headers=FAST_RETRY)] * 2, max_retries=1)
    assert str(error) == "openai API error 500: boom"
    assert len(server.requests) == 2


def test_overflow_message_survives_for_the_caller(server: FakeLLMServer) -> None:
    text = "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."
    assert is_context_overflow(str(_failure(server, FakeReply(status=400, text=text))))


@pytest.mark.parametrize("body", ["{not json", '{"choices": []}', '"text"'], ids=["not-json", "no-choices", "string"])
def test_malformed_response(server: FakeLLMServer, body: str) -> None:
    assert str(_failure(server, FakeReply(body=body))).startswith("malformed openai response")


@pytest.mark.parametrize(
    "reply",
    [FakeReply(text=""), FakeReply(text=" \n "), FakeReply(tool_calls=[{"name": "x", "arguments": {}}])],
    ids=["empty", "whitespace", "tool-call-only"],
)
def test_empty_summary(server: FakeLLMServer, reply: FakeReply) -> None:
    assert str(_failure(server, reply)) == "empty summary"


@pytest.mark.parametrize(
    "reply",
    [
        FakeReply(status=401, text=f"Incorrect API key provided: {KEY}"),
        FakeReply(status=502, body=f"<html>\n bad gateway {KEY}\n</html>"),
        FakeReply(drop_connection=True),
        FakeReply(delay=5),
        FakeReply(body="{not json"),
    ],
    ids=["echoed-in-401", "echoed-in-html-502", "dropped", "timeout", "malformed"],
)
def test_key_never_appears_in_the_error(server: FakeLLMServer, reply: FakeReply) -> None:
    error = _failure(server, reply, timeout=0.3)
    assert KEY not in str(error) and KEY not in repr(error)
    assert "\n" not in str(error)


# -- make_summarizer ----------------------------------------------------------------------------------------


def test_make_summarizer_builds_openai_with_options(server: FakeLLMServer) -> None:
    summarizer = make_summarizer("openai", model="qwen", base_url=server.url + "/v1", timeout=1.5)
    assert isinstance(summarizer, OpenAISummarizer)
    assert (summarizer.model, summarizer.timeout) == ("qwen", 1.5)
    assert summarizer.summarize(REQUEST).text
    assert server.requests[0].body["model"] == "qwen"


def test_make_summarizer_delegates_offline_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    """The offline module is someone else's: it is imported only when asked for, whatever it contains."""
    stand_in = types.ModuleType("pi_compact.compaction.offline")
    stand_in.OfflineSummarizer = type("OfflineSummarizer", (), {})  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pi_compact.compaction.offline", stand_in)
    assert isinstance(make_summarizer("offline", model="ignored"), stand_in.OfflineSummarizer)


def test_make_summarizer_builds_the_real_offline_summarizer() -> None:
    from pi_compact.compaction.offline import OfflineSummarizer

    assert isinstance(make_summarizer("offline"), OfflineSummarizer)


# -- the fake server's other endpoints, for chat code ----------------------------------------------------------


def _client(server: FakeLLMServer):  # noqa: ANN202 - the SDK type is imported lazily
    import openai

    return openai.OpenAI(api_key=KEY, base_url=server.url + "/v1", max_retries=0, timeout=2.0)


CALLS = [
    {"id": "call_a", "name": "read", "arguments": {"path": "a.txt"}},
    {"id": "call_b", "name": "bash", "arguments": {"command": "ls -la", "timeout": 5}},
]


def test_chat_stream_with_tool_calls_and_usage(server: FakeLLMServer) -> None:
    server.push(FakeReply(text="Checking two things.", tool_calls=CALLS, usage=(30, 9)))
    text, calls, finish, usage = "", {}, None, None
    with _client(server) as client:
        stream = client.chat.completions.create(
            model="gpt-x", messages=[{"role": "user", "content": "go"}], stream=True,
            stream_options={"include_usage": True},
        )  # fmt: skip
        with stream:
            for chunk in stream:
                usage = chunk.usage or usage
                for choice in chunk.choices:
                    text += choice.delta.content or ""
                    finish = choice.finish_reason or finish
                    for delta in choice.delta.tool_calls or []:
                        call = calls.setdefault(delta.index, {"id": "", "name": "", "arguments": ""})
                        call["id"] += delta.id or ""
                        call["name"] += (delta.function and delta.function.name) or ""
                        call["arguments"] += (delta.function and delta.function.arguments) or ""
    assert text == "Checking two things." and finish == "tool_calls"
    assert [(c["id"], c["name"], json.loads(c["arguments"])) for c in calls.values()] == [
        (c["id"], c["name"], c["arguments"]) for c in CALLS
    ]
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (30, 9, 39)


def test_chat_stream_helper_final_completion(server: FakeLLMServer) -> None:
    server.push(FakeReply(text="Reading.", tool_calls=CALLS[:1]))
    with _client(server) as client, client.chat.completions.stream(
        model="gpt-x", messages=[{"role": "user", "content": "go"}]
    ) as stream:
        final = stream.get_final_completion()
    message = final.choices[0].message
    assert message.content == "Reading." and final.choices[0].finish_reason == "tool_calls"
    assert [(c.id, c.function.name) for c in message.tool_calls] == [("call_a", "read")]


def test_chat_stream_helper_refuses_a_length_stop(server: FakeLLMServer) -> None:
    """Worth knowing for chat code: the SDK helper raises on ``finish_reason == "length"``."""
    import openai

    server.push(FakeReply(text="cut sh", stop_reason="length"))
    with _client(server) as client, client.chat.completions.stream(
        model="gpt-x", messages=[{"role": "user", "content": "go"}]
    ) as stream, pytest.raises(openai.LengthFinishReasonError):
        stream.get_final_completion()


def test_responses_api(server: FakeLLMServer) -> None:
    server.push(FakeReply(text="Reading the file.", tool_calls=CALLS[:1], usage=(20, 6)))
    with _client(server) as client:
        response = client.responses.create(model="gpt-x", input="read a.txt")
    assert response.output_text == "Reading the file."
    call = response.output[1]
    assert (call.type, call.call_id, call.name, json.loads(call.arguments)) == (
        "function_call", "call_a", "read", {"path": "a.txt"}
    )  # fmt: skip
    assert (response.usage.input_tokens, response.usage.output_tokens) == (20, 6)
    assert server.requests[0].path == "/v1/responses" and server.requests[0].body["input"] == "read a.txt"
