"""Record a conversation through the fake server standing in for a provider, replay it, compare.

Every round trip runs a tiny agent (``agents.py``) through the real ``anthropic`` and ``openai`` SDKs, each
API streaming and not: the answers replayed from the recorded session are the bytes recorded, the file is
a pi session (inputs and answers on one path, thinking and tool calls kept, secrets redacted), and an
agent that changed is told what differs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import anthropic
import openai
import orjson
import pytest

from pi_compact import Session
from pi_compact.testing import FakeLLMServer, FakeReply, Mismatch, fake_llm_server
from pi_compact.testing.cassette import Player

from .agents import run_agent

APIS = ["anthropic", "chat", "responses"]
SECRET = "sk-ant-api03-" + "Q7x9Lm2Pz" * 4
PROMPT = f"Run the tests; my key is {SECRET}"


def _script() -> list[FakeReply]:
    call = {"id": "call_17", "name": "bash", "arguments": {"command": "pytest -q"}}
    return [FakeReply(text="Running the tests.", thinking="The tests say more than the code.", tool_calls=[call]),
            FakeReply(text="All 3 tests pass.")]


def _tools(output: str = "3 passed"):
    return {"bash": lambda args: output if args.get("command") == "pytest -q" else "unknown command"}


@pytest.fixture
def provider() -> Iterator[FakeLLMServer]:
    """A second fake server standing in for the real provider while recording."""
    with fake_llm_server() as upstream:
        upstream.push(*_script())
        yield upstream


def _record(path: Path, provider: FakeLLMServer, api: str, stream: bool) -> list[bytes]:
    with fake_llm_server(record=path, upstream=provider.url) as recorder:
        return run_agent(api, recorder.url, PROMPT, _tools(), stream=stream)


@pytest.mark.parametrize(("api", "stream"), list(itertools.product(APIS, [False, True])))
def test_record_then_replay_gives_the_same_bytes(tmp_path: Path, provider: FakeLLMServer, api: str, stream: bool) -> None:
    path = tmp_path / "cassette.jsonl"
    recorded = _record(path, provider, api, stream)
    with fake_llm_server(session=path) as replay:
        replayed = run_agent(api, replay.url, PROMPT, _tools(), stream=stream)
    assert len(recorded) == 2 and replayed == recorded
    assert replay.mismatches == [] and len(provider.requests) == 2


@pytest.mark.parametrize("api", APIS)
def test_the_recording_is_a_pi_session_with_secrets_redacted(tmp_path: Path, provider: FakeLLMServer, api: str) -> None:
    path = tmp_path / "cassette.jsonl"
    _record(path, provider, api, stream=True)
    assert SECRET not in path.read_text() and "sk-test" not in path.read_text()
    messages = Session.open(path).build_context().messages
    assert [m["role"] for m in messages] == ["user", "assistant", "toolResult", "assistant"]
    assert messages[0]["content"] == "Run the tests; my key is [REDACTED]"
    call = next(b for b in messages[1]["content"] if b["type"] == "toolCall")
    assert (call["name"], call["arguments"]) == ("bash", {"command": "pytest -q"})
    assert call["id"].split("|")[0] == "call_17" and messages[2]["toolCallId"] == call["id"]
    assert messages[2]["toolName"] == "bash" and messages[2]["content"] == [{"type": "text", "text": "3 passed"}]
    thinking = [b["thinking"] for b in messages[1]["content"] if b["type"] == "thinking"]
    assert thinking == ([] if api == "chat" else ["The tests say more than the code."])
    assert messages[3]["stopReason"] == "stop" and messages[1]["stopReason"] == "toolUse"


@pytest.mark.parametrize("api", APIS)
def test_a_changed_tool_result_is_reported_with_the_diff(tmp_path: Path, provider: FakeLLMServer, api: str) -> None:
    path = tmp_path / "cassette.jsonl"
    _record(path, provider, api, stream=False)
    with fake_llm_server(session=path) as replay:
        error = anthropic.BadRequestError if api == "anthropic" else openai.BadRequestError
        with pytest.raises(error) as raised:
            run_agent(api, replay.url, PROMPT, _tools("2 passed, 1 failed"), stream=False)
    tool_id = "call_17"
    expected = f"request 2: tool result for {tool_id} differs: recorded '3 passed', sent '2 passed, 1 failed'"
    assert replay.mismatches == [Mismatch(2, expected)]
    assert expected in str(raised.value)


def test_a_changed_prompt_is_reported_at_the_first_request(tmp_path: Path, provider: FakeLLMServer) -> None:
    path = tmp_path / "cassette.jsonl"
    _record(path, provider, "chat", stream=False)
    with fake_llm_server(session=path) as replay, pytest.raises(openai.BadRequestError):
        run_agent("chat", replay.url, "Run the tests, please", _tools(), stream=False)
    [mismatch] = replay.mismatches
    assert mismatch.message == ("request 1: user message differs: recorded 'Run the tests; my key is [REDACTED]', "
                                "sent 'Run the tests, please'")


def test_loose_matching_answers_in_order_regardless(tmp_path: Path, provider: FakeLLMServer) -> None:
    path = tmp_path / "cassette.jsonl"
    recorded = _record(path, provider, "anthropic", stream=False)
    with fake_llm_server(session=path, match="loose") as replay:
        replayed = run_agent("anthropic", replay.url, "something else", _tools("0 passed"), stream=False)
    assert replayed == recorded and replay.mismatches == []


def test_a_request_past_the_end_names_the_last_recorded_entry(tmp_path: Path, provider: FakeLLMServer) -> None:
    path = tmp_path / "cassette.jsonl"
    _record(path, provider, "anthropic", stream=False)
    last = Session.open(path).leaf_id
    with fake_llm_server(session=path, match="loose") as replay:
        client = anthropic.Anthropic(base_url=replay.url, api_key="k", max_retries=0)
        for _ in range(2):
            client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
        with pytest.raises(anthropic.BadRequestError, match="no reply left"):
            client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    assert replay.mismatches == [Mismatch(3, f"request 3: the recording has no reply left (2 recorded); its last "
                                             f"recorded entry is {last} (assistant, 'All 3 tests pass.')")]


def test_match_none_starts_over_for_load_tests(tmp_path: Path, provider: FakeLLMServer) -> None:
    path = tmp_path / "cassette.jsonl"
    _record(path, provider, "chat", stream=False)
    with fake_llm_server(session=path, match="none") as replay:
        client = openai.OpenAI(base_url=replay.url + "/v1", api_key="k", max_retries=0)
        texts = [client.chat.completions.create(model="m", messages=[{"role": "user", "content": str(n)}])
                 .choices[0].message.content for n in range(5)]
    assert texts == ["Running the tests.", "All 3 tests pass."] * 2 + ["Running the tests."]


def test_leaf_picks_another_branch_of_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    with fake_llm_server() as upstream:
        upstream.push(FakeReply(text="first script"), FakeReply(text="second script"))
        with fake_llm_server(record=path, upstream=upstream.url) as recorder:
            run_agent("chat", recorder.url, "one", {}, stream=False)
            run_agent("chat", recorder.url, "two", {}, stream=False)  # no assistant turn yet: a new branch
    session = Session.open(path)
    roots = [e for e in session.entries() if e.get("parentId") is None]
    assert len(roots) == 2
    first_leaf = session.children(roots[0]["id"])[0]["id"]
    for leaf, prompt, text in [(None, "two", "second script"), (first_leaf, "one", "first script")]:
        with fake_llm_server(session=path, leaf=leaf) as replay:
            [body] = run_agent("chat", replay.url, prompt, {}, stream=False)
        assert orjson.loads(body)["choices"][0]["message"]["content"] == text and replay.mismatches == []


def test_new_episodes_replays_then_records_past_the_end(tmp_path: Path, provider: FakeLLMServer) -> None:
    path = tmp_path / "cassette.jsonl"
    with fake_llm_server(record=path, upstream=provider.url) as recorder:
        client = openai.OpenAI(base_url=recorder.url + "/v1", api_key="k", max_retries=0)
        first = [{"role": "user", "content": "hello"}]
        answer = client.chat.completions.create(model="m", messages=first).choices[0].message
    assert len(provider.requests) == 1
    second = [*first, {"role": "assistant", "content": None, "tool_calls": [t.model_dump() for t in answer.tool_calls]},
              {"role": "tool", "tool_call_id": "call_17", "content": "3 passed"}]
    with fake_llm_server(session=path, record=path, upstream=provider.url) as both:
        client = openai.OpenAI(base_url=both.url + "/v1", api_key="k", max_retries=0)
        client.chat.completions.create(model="m", messages=first)
        final = client.chat.completions.create(model="m", messages=second).choices[0].message.content
    assert final == "All 3 tests pass." and len(provider.requests) == 2
    roles = [m["role"] for m in Session.open(path).build_context().messages]
    assert roles == ["user", "assistant", "toolResult", "assistant"]


def test_new_episodes_continue_a_pi_v1_file(tmp_path: Path) -> None:
    from sessions_fixtures import BEFORE_COMPACTION

    path = tmp_path / "v1.jsonl"
    path.write_bytes(BEFORE_COMPACTION.read_bytes())
    replayed = Player.load(path, match="loose")
    steps, before = replayed.steps, len(replayed.path)
    replayed.close()
    with fake_llm_server() as provider:
        provider.push(FakeReply(text="a new episode"))
        with fake_llm_server(session=path, record=path, upstream=provider.url, match="loose") as both:
            client = anthropic.Anthropic(base_url=both.url, api_key="k", max_retries=0)
            ask = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "go on"}]}
            texts = [client.messages.create(**ask).content for _ in range(len(steps) + 1)]
    assert texts[-1][0].text == "a new episode" and len(provider.requests) == 1
    session = Session.open(path)  # migrated to v3 on the first append, the new episode on the replayed path
    assert session.version == 3 and len(session.branch()) == before + 2
    assert [m["role"] for m in session.build_context().messages[-2:]] == ["user", "assistant"]
    assert session.build_context().messages[-1]["content"][0]["text"] == "a new episode"


def test_a_provider_error_passes_through_and_is_not_recorded(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    with fake_llm_server() as provider:
        provider.push(FakeReply(status=429, text="slow down", headers={"retry-after": "0", "x-request-id": "r1"}),
                      FakeReply(text="fine"))
        with fake_llm_server(record=path, upstream=provider.url) as recorder:
            client = anthropic.Anthropic(base_url=recorder.url, api_key="k", max_retries=0)
            ask = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
            with pytest.raises(anthropic.RateLimitError) as limited:
                client.messages.create(**ask)
            assert client.messages.create(**ask).content[0].text == "fine"
    assert limited.value.response.headers["x-request-id"] == "r1" and "slow down" in limited.value.message
    assert [m["role"] for m in Session.open(path).build_context().messages] == ["user", "assistant"]


def test_a_provider_that_cannot_be_reached_is_a_502(tmp_path: Path) -> None:
    with fake_llm_server() as gone:
        url = gone.url
    with fake_llm_server(record=tmp_path / "c.jsonl", upstream=url) as recorder:
        client = anthropic.Anthropic(base_url=recorder.url, api_key="k", max_retries=0)
        with pytest.raises(anthropic.APIStatusError, match="pi-compact recorder") as raised:
            client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}])
    assert raised.value.status_code == 502 and not (tmp_path / "c.jsonl").exists()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"session": "missing.jsonl"}, "no session file"),
        ({"record": "x.jsonl"}, "record= and upstream= go together"),
        ({"match": "fuzzy"}, "match must be one of strict, loose, none"),
        ({"session": "a.jsonl", "record": "b.jsonl", "upstream": "http://127.0.0.1:9"}, "give them the same file"),
    ],
    ids=["missing-file", "record-without-upstream", "bad-match", "two-files"],
)
def test_bad_options_are_usage_errors(tmp_path: Path, options: dict, message: str) -> None:
    from pi_compact.errors import UsageError

    options = {k: (tmp_path / v if k in ("session", "record") else v) for k, v in options.items()}
    with pytest.raises(UsageError, match=message):
        with fake_llm_server(**options):
            pass
