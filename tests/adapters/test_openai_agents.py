"""PiSession under the real openai-agents runner: a Responses model pointed at the fake server, our session as
its memory. Items land in a file pi reads with the same context; pop and clear move the leaf and keep every
byte; the runner's ``run_compaction`` compacts.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner, function_tool
from agents.memory import OpenAIResponsesCompactionAwareSession, Session as AgentsSession, SessionSettings
from agents.models.openai_responses import OpenAIResponsesModel
from openai import AsyncOpenAI

from pi_compact import Session
from pi_compact.adapters.openai_agents import ITEM_TYPE, PiSession
from pi_compact.compaction import CompactionSettings, estimate_context_tokens
from pi_compact.compaction.serialize import COMPACTION_SUMMARY_PREFIX
from pi_compact.convert import MISSING_RESULT_TEXT
from pi_compact.testing import FakeLLMServer, FakeReply, ScriptedSummarizer
from tests.conformance.jsoncmp import first_difference
from tests.conformance.pi_ref import pi_context
from tests.prose import prose

SUMMARY = ("## Goal\nAnswer arithmetic questions.\n\n## Progress\n### Done\n- [x] added numbers\n\n"
           "## Original Request\nArithmetic.\n\n## Early Progress\nSums.\n\n## Context for Suffix\nNumbers.")
"""Has the headings of both a compaction and a split turn's prefix, so either request accepts it."""
SMALL = CompactionSettings(reserve_tokens=500, keep_recent_tokens=300)


@function_tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def _agent(server: FakeLLMServer) -> Agent:
    client = AsyncOpenAI(base_url=server.url + "/v1", api_key="sk-test", max_retries=0)
    return Agent(name="calc", instructions="Be terse.", model=OpenAIResponsesModel("gpt-test", client), tools=[add])


def _run(agent: Agent, prompt: str, session: PiSession) -> Any:
    return asyncio.run(Runner.run(agent, prompt, session=session, run_config=RunConfig(tracing_disabled=True)))


def _same_in_pi(path: Path) -> None:
    difference = first_difference(pi_context(path), Session.open(path).build_context().to_json())
    assert difference is None, difference


def _items(session: PiSession, limit: int | None = None) -> list[dict]:
    return asyncio.run(session.get_items(limit))


def _stored(session: PiSession) -> list[dict]:
    """The items without the placeholder outputs ``get_items`` adds for calls that have none yet."""
    return [item for item in _items(session) if item.get("output") != MISSING_RESULT_TEXT]


ADD_CALL = FakeReply(text="adding", tool_calls=[{"id": "call_1", "name": "add", "arguments": {"a": 1, "b": 2}}])


# -- the runner ---------------------------------------------------------------------------------------------------


def test_is_an_openai_agents_session(tmp_path: Path) -> None:
    session = PiSession(tmp_path / "s.jsonl")
    assert isinstance(session, AgentsSession) and isinstance(session, OpenAIResponsesCompactionAwareSession)
    assert session.session_id == session.session.id


def test_runner_stores_the_turns_in_a_file_pi_reads(server: FakeLLMServer, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    agent = _agent(server)
    server.push(ADD_CALL, FakeReply(text="3"), FakeReply(text="you're welcome"))
    assert _run(agent, "what is 1+2?", PiSession(path, model="gpt-test")).final_output == "3"
    _run(agent, "thanks", PiSession(path, model="gpt-test"))
    context = Session.open(path).build_context()
    assert [m["role"] for m in context.messages] == ["user", "assistant", "toolResult", "assistant", "user", "assistant"]
    assert context.messages[1]["content"][1] == {"type": "toolCall", "id": "call_1|fc_call_1", "name": "add",
                                                 "arguments": {"a": 1, "b": 2}}
    assert context.model == {"provider": "openai", "modelId": "gpt-test"}
    _same_in_pi(path)
    sent = server.requests[-1].body["input"]
    assert sent[0] == {"role": "user", "content": "what is 1+2?"}
    assert {"type": "function_call_output", "call_id": "call_1", "output": "3"} in sent
    assert sent[-1] == {"role": "user", "content": "thanks"}


def test_run_compaction_compacts_after_a_turn(server: FakeLLMServer, tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    summarizer = ScriptedSummarizer([SUMMARY] * 4)
    session = PiSession(path, window=2000, settings=SMALL, summarizer=summarizer)
    agent = _agent(server)
    compacted = []
    for n in range(4):
        # ~560 estimated tokens a question: the third one crosses the 1,500-token threshold
        _run(agent, f"question {n}: " + "tell me more about numbers " * 104, session)
        compacted.append(session.last_compaction is not None)
    assert compacted[:2] == [False, False] and compacted[2] and len(summarizer.calls) == compacted.count(True)
    assert [e["type"] for e in Session.open(path).entries()].count("compaction") == compacted.count(True)
    assert estimate_context_tokens(Session.open(path).build_context().messages).tokens <= SMALL.threshold(2000)
    _run(agent, "and finally?", session)
    sent = server.requests[-1].body["input"]
    summary = sent[0]["content"][0]["text"]
    assert summary.startswith(COMPACTION_SUMMARY_PREFIX) and "Answer arithmetic questions." in summary
    assert len(sent) < 2 * 5, "the older turns went into the summary"
    _same_in_pi(path)


def test_forced_compaction_without_a_window(tmp_path: Path) -> None:
    session = PiSession(tmp_path / "s.jsonl", settings=CompactionSettings(keep_recent_tokens=10))
    asyncio.run(session.add_items([{"role": "user", "content": prose(400)}, {"role": "assistant", "content": "ok"},
                                   {"role": "user", "content": prose(30)}, {"role": "assistant", "content": prose(30)}]))
    asyncio.run(session.run_compaction({"response_id": "resp_1", "force": False}))
    assert session.last_compaction is None
    asyncio.run(session.run_compaction({"force": True}))
    assert session.last_compaction is not None and session.last_compaction.strategy
    assert _items(session)[0]["content"][0]["text"].startswith(COMPACTION_SUMMARY_PREFIX)


# -- items in and out ----------------------------------------------------------------------------------------------


REASONING = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "think"}],
             "encrypted_content": "enc"}
ITEMS: list[dict] = [
    {"role": "developer", "content": "Answer in French."},
    {"role": "user", "content": "hello"},
    REASONING,
    {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
     "content": [{"type": "output_text", "text": "checking", "annotations": []}]},
    {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}},
    {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "add", "arguments": '{"a":1,"b":2}'},
    {"type": "function_call_output", "call_id": "call_1", "output": "3"},
    {"role": "assistant", "content": "bonjour, 3"},
]


def _filled(path: Path) -> PiSession:
    session = PiSession(path)
    asyncio.run(session.add_items(ITEMS))
    return session


def test_items_come_back_as_they_went_in(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    assert _items(_filled(path)) == ITEMS
    assert _items(PiSession(path)) == ITEMS
    assert _items(PiSession(path), 2) == ITEMS[-2:]
    assert _items(PiSession(path, session_settings=SessionSettings(limit=3))) == ITEMS[-3:]
    kept = [e for e in Session.open(path).entries() if e["type"] == "custom_message"]
    assert [e["customType"] for e in kept] == [ITEM_TYPE, ITEM_TYPE]
    assert kept[0]["content"] == "Answer in French."
    _same_in_pi(path)


def test_an_unanswered_call_is_answered_when_read(tmp_path: Path) -> None:
    session = PiSession(tmp_path / "s.jsonl")
    asyncio.run(session.add_items(ITEMS[1:2] + ITEMS[5:6]))
    items = _items(session)
    assert items[-1]["type"] == "function_call_output" and items[-1]["call_id"] == "call_1"


def test_a_call_answered_in_a_later_batch_keeps_its_pi_id(tmp_path: Path) -> None:
    session = PiSession(tmp_path / "s.jsonl")
    asyncio.run(session.add_items(ITEMS[1:2] + ITEMS[5:6]))
    asyncio.run(session.add_items(ITEMS[6:7]))
    result = session.session.build_context().messages[-1]
    assert result["toolCallId"] == "call_1|fc_1"


# -- nothing is deleted ----------------------------------------------------------------------------------------------


def test_pop_item_steps_back_one_item_at_a_time_and_keeps_every_byte(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = _filled(path)
    for expected in reversed(ITEMS):
        before = path.read_bytes()
        assert asyncio.run(session.pop_item()) == expected
        assert path.read_bytes().startswith(before)
        remaining = ITEMS[: ITEMS.index(expected)]
        assert _stored(session) == remaining
        assert _stored(PiSession(path)) == remaining, "the new position outlives the process"
    assert asyncio.run(session.pop_item()) is None
    _same_in_pi(path)


def test_add_after_pop_grows_a_new_branch(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = _filled(path)
    asyncio.run(session.pop_item())
    asyncio.run(session.add_items([{"role": "assistant", "content": "3, bonjour"}]))
    assert _items(PiSession(path)) == ITEMS[:-1] + [{"role": "assistant", "content": "3, bonjour"}]
    assert sum(e["type"] == "message" for e in Session.open(path).entries()) == 6, "five before, one after"
    _same_in_pi(path)


def test_clear_session_starts_a_new_branch(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = _filled(path)
    before = path.read_bytes()
    asyncio.run(session.clear_session())
    assert path.read_bytes().startswith(before)
    assert _items(session) == [] and _items(PiSession(path)) == []
    asyncio.run(session.clear_session())
    asyncio.run(session.add_items([{"role": "user", "content": "fresh start"}]))
    assert _items(PiSession(path)) == [{"role": "user", "content": "fresh start"}]
    assert len(Session.open(path).tree()) == 2, "two roots: the old conversation and the new one"
    _same_in_pi(path)


def test_pop_back_through_a_compaction(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    session = PiSession(path, settings=CompactionSettings(keep_recent_tokens=20))
    turns = [{"role": "user", "content": prose(60)}, {"role": "assistant", "content": prose(60)},
             {"role": "user", "content": "short"}, REASONING, {"role": "assistant", "content": "reply"}]
    asyncio.run(session.add_items(turns))
    asyncio.run(session.run_compaction({"force": True}))
    asyncio.run(session.add_items([{"role": "user", "content": "after"}]))
    items = _items(session)
    assert items[0]["content"][0]["text"].startswith(COMPACTION_SUMMARY_PREFIX)
    while items:
        before = path.read_bytes()
        assert asyncio.run(session.pop_item()) == items[-1]
        items = items[:-1]
        assert _items(session) == items == _items(PiSession(path))
        assert path.read_bytes().startswith(before)
        _same_in_pi(path)
