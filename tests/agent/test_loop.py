"""The agent loop against the fake LLM server through the real ``anthropic`` and ``openai`` SDKs.

What is checked is what reaches the provider (every request body the fake server received) and what reaches
the session file: text turns, tool loops that change files, compaction before a request that would not fit
(inside a tool loop too), the overflow error → compact → one retry, rules re-read from disk, no orphaned
tool calls or results in any request, and Ctrl-C keeping what was already written.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.agent import Agent, AgentEvent, make_provider
from pi_compact.agent.loop import OVERFLOW_FAILED, SKIPPED_TEXT, deferred_interrupt
from pi_compact.compaction import CompactionSettings
from pi_compact.convert import MISSING_RESULT_TEXT
from pi_compact.store.paths import AGENT_DIR_ENV
from pi_compact.testing import FakeLLMServer, FakeReply

from tests.prose import prose

ANTHROPIC_KEY = "sk-ant-test-0123456789"
OVERFLOW = "prompt is too long: 250000 tokens > 200000 maximum"
MODELS = {"anthropic": "claude-test", "openai": "gpt-test"}


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(AGENT_DIR_ENV, str(tmp_path / "agent"))
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "app.py").write_text("def greet():\n    return 'hello'\n")
    (root / "AGENTS.md").write_text("Rule one: use tabs.\n")
    return root


def make_agent(server: FakeLLMServer, project: Path, provider: str = "anthropic", **options) -> tuple[Agent, list]:
    events: list[AgentEvent] = []
    url = server.url if provider == "anthropic" else server.url + "/v1"
    llm = make_provider(provider, MODELS[provider], base_url=url, api_key=ANTHROPIC_KEY, max_retries=0)
    session = options.pop("session", None) or Session.create(str(project))
    agent = Agent(session, llm, cwd=str(project), on_event=events.append, **options)
    return agent, events


def entry_kinds(session: Session) -> list[str]:
    kinds = []
    for entry in session.entries():
        message = entry.get("message")
        kinds.append(f"{message['role']}" if isinstance(message, dict) else entry["type"])
    return kinds


def assert_no_orphans(body: dict) -> None:
    """Anthropic: each tool_result answers a tool_use of the message just before; every tool_use is answered."""
    messages = body["messages"]
    for index, message in enumerate(messages):
        blocks = message["content"] if isinstance(message["content"], list) else []
        calls = {b["id"] for b in blocks if b.get("type") == "tool_use"}
        if calls:
            following = messages[index + 1]["content"] if index + 1 < len(messages) else []
            answered = {b["tool_use_id"] for b in following if b.get("type") == "tool_result"}
            assert calls == answered, (calls, answered)
        results = {b["tool_use_id"] for b in blocks if b.get("type") == "tool_result"}
        if results:
            before = messages[index - 1]["content"] if index else []
            assert results <= {b["id"] for b in before if b.get("type") == "tool_use"}


def history(session: Session, turns: int, words: int) -> None:
    """Earlier turns of plain text (about ``words`` tokens each side), as if from an earlier run."""
    stamp = 1_700_000_000_000
    for turn in range(turns):
        session.append_message({"role": "user", "content": f"question {turn} " + prose(words), "timestamp": stamp})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": f"answer {turn} " + prose(words)}],
                                "api": "anthropic-messages", "provider": "anthropic", "model": "claude-test",
                                "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                                          "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                                "stopReason": "stop", "timestamp": stamp + 1})
        stamp += 10


# -- plain turns --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_text_answer_streams_and_lands_in_the_session(server, project, provider) -> None:
    server.push(FakeReply(text="Hello there, how can I help?", usage=(1200, 8)))
    agent, events = make_agent(server, project, provider)
    result = agent.prompt("hi")
    assert (result.stop_reason, result.requests) == ("stop", 1)
    assert "".join(e.text for e in events if e.kind == "text") == "Hello there, how can I help?"
    assert len([e for e in events if e.kind == "text"]) > 1
    assert entry_kinds(agent.session) == ["model_change", "thinking_level_change", "user", "assistant"]
    model_change, thinking = agent.session.entries()[:2]
    assert (model_change["provider"], model_change["modelId"], thinking["thinkingLevel"]) == (provider, MODELS[provider], "off")
    reply = agent.session.entries()[-1]["message"]
    assert reply["content"] == [{"type": "text", "text": "Hello there, how can I help?"}]
    assert (reply["provider"], reply["model"], reply["stopReason"]) == (provider, MODELS[provider], "stop")
    assert reply["usage"]["input"] == 1200 and reply["usage"]["output"] == 8
    assert agent.session.path.exists() and agent.context_size().measured


def test_the_request_carries_system_prompt_rules_and_tools(server, project) -> None:
    agent, _ = make_agent(server, project)
    agent.prompt("hi")
    body = server.requests[0].body
    assert body["model"] == "claude-test" and body["stream"] is True
    assert "Rule one: use tabs." in body["system"][0]["text"]
    assert [t["name"] for t in body["tools"]] == ["read", "write", "edit", "bash", "ls", "grep"]
    assert body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]}]


def test_resuming_records_only_what_changed(server, project) -> None:
    agent, _ = make_agent(server, project)
    agent.prompt("hi")
    again, _ = make_agent(server, project, session=Session.open(agent.session.path))
    again.prompt("more")
    assert entry_kinds(again.session).count("model_change") == 1
    assert again.set_thinking_level("off") is False and again.set_thinking_level("high") is True
    assert again.session.entries()[-1]["thinkingLevel"] == "high"
    body = server.requests[-1].body
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    third, _ = make_agent(server, project, session=Session.open(agent.session.path), thinking_level="low")
    third.prompt("low now")
    levels = [e["thinkingLevel"] for e in third.session.entries() if e["type"] == "thinking_level_change"]
    assert levels == ["off", "high", "low"] and entry_kinds(third.session).count("model_change") == 1
    assert server.requests[-1].body["thinking"] == {"type": "enabled", "budget_tokens": 2048}


# -- tool loops ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_tool_loop_reads_edits_and_runs_on_the_project(server, project, provider) -> None:
    server.push(
        FakeReply(tool_calls=[{"id": "c1", "name": "read", "arguments": {"path": "app.py"}}]),
        FakeReply(text="I will fix it.", tool_calls=[
            {"id": "c2", "name": "edit", "arguments": {"path": "app.py", "oldText": "'hello'", "newText": "'bye'"}},
            {"id": "c3", "name": "bash", "arguments": {"command": "python3 -c 'import app; print(app.greet())'"}},
        ]),
        FakeReply(text="Done: greet() now says bye."),
    )
    agent, events = make_agent(server, project, provider)
    result = agent.prompt("make greet say bye")
    assert (result.stop_reason, result.requests) == ("stop", 3)
    assert (project / "app.py").read_text() == "def greet():\n    return 'bye'\n"
    assert entry_kinds(agent.session)[2:] == ["user", "assistant", "toolResult", "assistant", "toolResult",
                                               "toolResult", "assistant"]
    results = [e["message"] for e in agent.session.entries() if e.get("message", {}).get("role") == "toolResult"]
    assert [(r["toolCallId"], r["toolName"], r["isError"]) for r in results] == [
        ("c1", "read", False), ("c2", "edit", False), ("c3", "bash", False)]
    assert results[2]["content"][0]["text"] == "bye"
    assert [e.call["name"] for e in events if e.kind == "tool_start"] == ["read", "edit", "bash"]
    last = server.requests[-1].body["messages"]
    if provider == "anthropic":
        assert_no_orphans(server.requests[-1].body)
        assert last[-1]["content"][1]["tool_use_id"] == "c3"
    else:
        assert [m["role"] for m in last] == ["system", "user", "assistant", "tool", "assistant", "tool", "tool"]
        assert last[-1] == {"role": "tool", "tool_call_id": "c3", "content": "bye"}


def test_rules_are_read_again_before_every_request(server, project) -> None:
    server.push(FakeReply(tool_calls=[{"name": "write", "arguments": {"path": "AGENTS.md", "content": "Rule two: no tabs."}}]),
                FakeReply(text="ok"))
    agent, _ = make_agent(server, project)
    agent.prompt("change the rules")
    first, second = (r.body["system"][0]["text"] for r in server.requests)
    assert "Rule one: use tabs." in first and "Rule two: no tabs." in second and "Rule one" not in second


def test_orphaned_tool_calls_and_results_are_never_sent(server, project) -> None:
    session = Session.create(str(project))
    history(session, 1, 5)
    dangling = {"role": "assistant", "content": [{"type": "toolCall", "id": "lost", "name": "bash", "arguments": {"command": "make"}}],
                "api": "anthropic-messages", "provider": "anthropic", "model": "claude-test",
                "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                          "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                "stopReason": "toolUse", "timestamp": 1_700_000_100_000}
    session.append_message(dangling)
    session.append_message({"role": "toolResult", "toolCallId": "stray", "toolName": "read",
                            "content": [{"type": "text", "text": "old"}], "isError": False, "timestamp": 1_700_000_100_001})
    for provider in ("anthropic", "openai"):
        agent, _ = make_agent(server, project, provider, session=session)
        agent.prompt("go on")
    anthropic_body, openai_body = (r.body for r in server.requests)
    assert_no_orphans(anthropic_body)
    answered = anthropic_body["messages"][-1]["content"][0]
    assert (answered["tool_use_id"], answered["content"][0]["text"]) == ("lost", MISSING_RESULT_TEXT)
    assert "stray" not in str(anthropic_body) and "stray" not in str(openai_body)
    tools = [m for m in openai_body["messages"] if m["role"] == "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in tools] == [("lost", MISSING_RESULT_TEXT)]


# -- compaction -----------------------------------------------------------------------------------------------------


def test_a_tool_result_over_the_threshold_is_compacted_before_the_next_request(server, project) -> None:
    # about 3,900 estimated tokens (2,200 real: the estimate prices zero-padded counters' digits like hex)
    (project / "big.txt").write_text(" ".join(f"token{i:05d}" for i in range(740)))
    session = Session.create(str(project))
    history(session, 3, 1700)
    settings = CompactionSettings(reserve_tokens=1500, keep_recent_tokens=2500)
    window = 17000  # a tool's output is at most half a byte per token of the window: big.txt is returned whole
    server.push(FakeReply(tool_calls=[{"id": "r1", "name": "read", "arguments": {"path": "big.txt"}}]),
                FakeReply(text="It is a list of tokens."))
    agent, events = make_agent(server, project, session=session, window=window, settings=settings)
    agent.prompt("what is in big.txt?")
    kinds = entry_kinds(agent.session)
    assert kinds[-5:] == ["user", "assistant", "toolResult", "compaction", "assistant"]
    compaction = agent.session.entries()[-2]
    assert compaction["details"]["strategy"] and compaction["tokensBefore"] > settings.threshold(window)
    started = [e.compaction.reason for e in events if e.kind == "compaction" and e.compaction.type == "compaction_start"]
    assert started == ["threshold"]
    order = [e.kind for e in events if e.kind in ("tool_end", "compaction", "request")]
    assert order.index("compaction") > order.index("tool_end") and order[-1] == "request"
    second = server.requests[-1]
    assert len(second.raw) // 4 <= window, len(second.raw) // 4
    assert_no_orphans(second.body)
    assert "token00739" in str(second.body["messages"])  # the result the model asked for is still there
    assert "compacted into the following summary" in second.body["messages"][0]["content"][0]["text"]
    assert agent.context_size().tokens <= window


def test_an_overflow_error_is_compacted_and_retried_once(server, project) -> None:
    session = Session.create(str(project))
    history(session, 4, 300)
    settings = CompactionSettings(reserve_tokens=2000, keep_recent_tokens=500)
    server.push(FakeReply(status=400, text=OVERFLOW), FakeReply(text="Fits now."))
    agent, events = make_agent(server, project, session=session, settings=settings)
    result = agent.prompt("and now?")
    assert (result.stop_reason, result.requests) == ("stop", 2)
    assert entry_kinds(agent.session)[-4:] == ["user", "assistant", "compaction", "assistant"]
    error = agent.session.entries()[-3]["message"]
    assert error["stopReason"] == "error" and OVERFLOW in error["errorMessage"]
    reasons = [e.compaction.reason for e in events if e.kind == "compaction" and e.compaction.type == "compaction_done"]
    assert reasons == ["overflow"]
    retried = server.requests[-1].body["messages"]
    assert "compacted into the following summary" in retried[0]["content"][0]["text"]
    assert retried[-1]["content"][0]["text"] == "and now?" and len(retried) < len(server.requests[0].body["messages"])


def test_a_second_overflow_is_not_retried_again(server, project) -> None:
    session = Session.create(str(project))
    history(session, 4, 300)
    server.push(FakeReply(status=400, text=OVERFLOW), FakeReply(status=400, text=OVERFLOW))
    agent, events = make_agent(server, project, session=session,
                               settings=CompactionSettings(reserve_tokens=2000, keep_recent_tokens=500))
    result = agent.prompt("and now?")
    assert (result.stop_reason, result.requests, len(server.requests)) == ("error", 2, 2)
    assert [e.text for e in events if e.kind == "notice" and e.level == "error"] == [OVERFLOW_FAILED]


def test_manual_compact_needs_two_messages(server, project) -> None:
    agent, _ = make_agent(server, project)
    with pytest.raises(Exception, match="Nothing to compact"):
        agent.compact()


# -- Ctrl-C ---------------------------------------------------------------------------------------------------------


def test_ctrl_c_while_streaming_keeps_the_partial_reply_as_aborted(server, project) -> None:
    server.push(FakeReply(text="one two three four five six"))
    agent, events = make_agent(server, project)

    def cancel_at_second_word(event: AgentEvent) -> None:
        events.append(event)
        if event.kind == "text" and len([e for e in events if e.kind == "text"]) == 2:
            raise KeyboardInterrupt

    agent.on_event = cancel_at_second_word
    result = agent.prompt("count")
    assert result.stop_reason == "aborted"
    partial = agent.session.entries()[-1]["message"]
    assert partial["stopReason"] == "aborted" and partial["content"] == [{"type": "text", "text": "one two "}]
    server.push(FakeReply(text="fine"))
    agent.on_event = events.append
    agent.prompt("again")
    assert [m["role"] for m in server.requests[-1].body["messages"]] == ["user"]  # the aborted reply is not sent


def test_ctrl_c_during_a_tool_stores_its_output_and_skips_the_rest(server, project) -> None:
    marker = project / "started"
    server.push(FakeReply(tool_calls=[
        {"id": "b1", "name": "bash", "arguments": {"command": f"echo partial; touch {marker}; sleep 30"}},
        {"id": "b2", "name": "bash", "arguments": {"command": "touch never"}},
    ]))
    agent, _ = make_agent(server, project)

    def interrupt() -> None:
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt, daemon=True).start()
    result = agent.prompt("run things")
    assert (result.stop_reason, len(server.requests)) == ("aborted", 1)
    cancelled, skipped = (e["message"] for e in agent.session.entries()[-2:])
    assert cancelled["isError"] and cancelled["content"][0]["text"].startswith("partial")
    assert "aborted by the user" in cancelled["content"][0]["text"]
    assert (skipped["toolCallId"], skipped["content"][0]["text"]) == ("b2", SKIPPED_TEXT)
    assert not (project / "never").exists()


def test_an_interrupt_during_a_write_waits_for_the_line() -> None:
    done = []
    with pytest.raises(KeyboardInterrupt):
        with deferred_interrupt():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            done.append("written")
    assert done == ["written"]
