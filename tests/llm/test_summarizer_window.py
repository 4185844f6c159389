"""The summarizer's own window: a local OpenAI-compatible server with an 8k-32k context gets requests that fit
it (the region folded in chunks, the summary carried from one to the next), through the real ``openai`` SDK
against the fake server; the window comes from the settings, the CLI, the model, or the server's refusal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.compaction import CompactionSettings, compact, load_settings
from pi_compact.compaction.summarize import OVERFLOW_SHRINK, REQUEST_SHARE
from pi_compact.compaction.tokens import text_tokens
from pi_compact.errors import UsageError
from pi_compact.llm import make_summarizer, model_window, summarizer_for
from pi_compact.store.paths import AGENT_DIR_ENV
from pi_compact.testing import FakeLLMServer, FakeReply

SUMMARY = ("## Goal\nRefactor the modules.\n\n## Constraints & Preferences\n(none)\n\n## Progress\n### Done\n"
           "- [x] read the modules\n\n### In Progress\n- [ ] refactor\n\n### Blocked\n(none)\n\n## Key Decisions\n"
           "(none)\n\n## Next Steps\n1. go on\n\n## Critical Context\n(none)")
PI_SECTION_HINTS = ("## Goal\n[", "## Constraints & Preferences\n- [", "### Done\n- [x] [", "### In Progress\n- [ ] [",
                    "### Blocked\n- [", "## Key Decisions\n- **[", "## Next Steps\n1. [", "## Critical Context\n- [")
"""Each of pi's sections with its bracketed hint, as the prompt must keep them."""


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(var, raising=False)


def long_session(path: Path, turns: int = 24) -> Session:
    """About 80,000 tokens (45,000 as the summarizer sees them, tool results cut): long requests (so the condensed transcript is no cheaper than a summary) and reads."""
    session = Session.create_at(path, cwd=str(path.parent), durable=False)
    for n in range(turns):
        session.append_message({"role": "user", "content": f"Request {n}: refactor module {n}. " + "Details. " * 600,
                                "timestamp": n})
        call = {"type": "toolCall", "id": f"c{n}", "name": "read", "arguments": {"path": f"src/m{n}.py"}}
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": f"Reading {n}."}, call],
                                "stopReason": "toolUse", "timestamp": n})
        session.append_message({"role": "toolResult", "toolCallId": f"c{n}", "toolName": "read", "isError": False,
                                "content": [{"type": "text", "text": f"def f{n}():\n    return {n}\n" * 300}],
                                "timestamp": n})
    return session


def chat_requests(server: FakeLLMServer) -> list[dict]:
    return [r.body for r in server.requests if r.path.endswith("/chat/completions")]


def request_tokens(body: dict) -> int:
    """The estimated size of a Chat Completions request: every message's text plus the answer it may take."""
    text = "".join(m["content"] for m in body["messages"])
    return text_tokens(text) + body["max_tokens"]


def local(server: FakeLLMServer, **options) -> object:
    return make_summarizer("openai", model="local-model", base_url=server.url + "/v1", **options)


@pytest.mark.parametrize("window", [8_000, 16_000, 32_000])
def test_every_request_to_a_small_local_server_fits_its_window(server: FakeLLMServer, tmp_path: Path, window: int) -> None:
    server.default_text = SUMMARY
    session = long_session(tmp_path / "s.jsonl")
    # The kept tail holds the whole last turn (about 4,500 estimated tokens): no split turn, whose prefix request
    # would want other sections than the fake answer has; this test is about the chunks' sizes.
    result = compact(session, settings=CompactionSettings(keep_recent_tokens=6_000),
                     summarizer=local(server, context_window=window))

    bodies = chat_requests(server)
    assert result.strategy == "summarize" and result.fallback_reason is None
    assert len(bodies) >= max(2, 40_000 // window)  # the region went in chunks, not in one request
    assert max(request_tokens(body) for body in bodies) <= window
    for number, body in enumerate(bodies):
        prompt = body["messages"][1]["content"]
        assert all(hint in prompt for hint in PI_SECTION_HINTS)
        assert ("<previous-summary>" in prompt) == (number > 0)  # each chunk updates the summary of the ones before
    sent = "".join(body["messages"][1]["content"] for body in bodies)
    assert all(f"Request {n}:" in sent for n in range(20))


def test_without_a_window_an_unknown_local_model_gets_the_providers_usual_window(server: FakeLLMServer,
                                                                                   tmp_path: Path) -> None:
    server.default_text = SUMMARY
    session = long_session(tmp_path / "s.jsonl")
    summarizer = local(server)
    assert summarizer.context_window == 128_000
    compact(session, settings=CompactionSettings(keep_recent_tokens=6_000), summarizer=summarizer)
    [body] = chat_requests(server)
    assert request_tokens(body) > 40_000  # what a local 8k server would refuse: hence --summarizer-window


def test_a_server_that_refuses_a_request_as_too_long_gets_smaller_chunks(server: FakeLLMServer, tmp_path: Path) -> None:
    refusal = FakeReply(status=400, text="the request exceeds the available context size, try increasing it")
    server.push(refusal, refusal)
    server.default_text = SUMMARY
    session = long_session(tmp_path / "s.jsonl")
    result = compact(session, settings=CompactionSettings(keep_recent_tokens=6_000),
                     summarizer=local(server, context_window=32_000))

    sizes = [request_tokens(body) for body in chat_requests(server)]
    assert result.strategy == "summarize" and result.fallback_reason is None
    assert sizes[1] < sizes[0] and sizes[2] < sizes[1]  # refused twice, each time smaller
    assert max(sizes[2:]) <= int(int(int(32_000 * REQUEST_SHARE) * OVERFLOW_SHRINK) * OVERFLOW_SHRINK)  # and stay so


def test_a_server_that_always_refuses_falls_back_offline_after_a_few_tries(server: FakeLLMServer,
                                                                           tmp_path: Path) -> None:
    server.push(*[FakeReply(status=400, text="prompt is too long: 9000 tokens > 8192 maximum")] * 10)
    session = long_session(tmp_path / "s.jsonl", turns=8)
    result = compact(session, settings=CompactionSettings(keep_recent_tokens=6_000),
                     summarizer=local(server, context_window=32_000))
    assert result.strategy == "offline" and "prompt is too long" in result.fallback_reason
    assert len(chat_requests(server)) == 5  # the first try and four smaller ones


@pytest.mark.parametrize("provider, model, window", [
    ("openai", "gpt-4o-mini", 128_000), ("openai", "gpt-4.1", 1_047_576), ("openai", "gpt-4", 8_192),
    ("anthropic", "claude-sonnet-4-6", 200_000), ("openai", "qwen2.5-coder:7b", 128_000),
    ("anthropic", None, 200_000),
])
def test_the_default_window_comes_from_the_model(provider: str, model: str | None, window: int) -> None:
    assert model_window(provider, model) == window


def test_the_window_is_a_setting(tmp_path: Path) -> None:
    # where data goes is the user's to choose; how big the summarizer's requests are, a project may say too
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "settings.json").write_text(json.dumps(
        {"compaction": {"summarizer": "openai", "baseUrl": "http://127.0.0.1:9/v1", "summarizerWindow": 32000}}))
    (tmp_path / ".pi").mkdir()
    (tmp_path / ".pi" / "settings.json").write_text(json.dumps({"compaction": {"summarizerWindow": 8192}}))
    settings = load_settings(tmp_path, home=tmp_path / "home")
    assert settings.summarizer_window == 8192
    assert summarizer_for(settings).context_window == 8192
    assert summarizer_for(settings.replace(summarizer_window=0)).context_window == 128_000  # 0: the model's


@pytest.mark.parametrize("window", [-1, -8000])
def test_a_negative_window_is_a_usage_error(window: int) -> None:
    with pytest.raises(UsageError, match="positive number of tokens"):
        summarizer_for(CompactionSettings(summarizer="openai", base_url="http://127.0.0.1:9/v1",
                                          summarizer_window=window))


def cli(*args: str, home: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    return subprocess.run([sys.executable, "-m", "pi_compact", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env={**env, AGENT_DIR_ENV: str(home)})


@pytest.mark.parametrize("command", [["session", "compact"], ["replay", "--window", "16000"]])
def test_the_cli_option_bounds_every_request(server: FakeLLMServer, tmp_path: Path, command: list[str]) -> None:
    server.default_text = SUMMARY
    path = tmp_path / "s.jsonl"
    long_session(path).close()
    (tmp_path / "agent").mkdir()
    done = cli(*command, str(path), "--summarizer", "openai", "--model", "local-model", "--base-url",
               server.url + "/v1", "--summarizer-window", "8000", "--json", home=tmp_path / "agent", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    bodies = chat_requests(server)
    assert len(bodies) >= 2 and max(request_tokens(body) for body in bodies) <= 8000


def test_a_negative_cli_window_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    long_session(path, turns=2).close()
    (tmp_path / "agent").mkdir()
    done = cli("session", "compact", str(path), "--summarizer", "openai", "--base-url", "http://127.0.0.1:9/v1",
               "--summarizer-window", "-5", home=tmp_path / "agent", cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "--summarizer-window -5: use a whole number from 1 up" in done.stderr
