"""The chat agent's ``recall`` tool (issue 15.3), scripted through the fake server with the real SDK: after a
compaction whose summary dropped an error message, the model calls recall and gets the exact message back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.agent import Agent, make_provider
from pi_compact.agent.loop import RECALL_NOTE
from pi_compact.store.paths import AGENT_DIR_ENV
from pi_compact.testing import FakeLLMServer, FakeReply
from tests.test_recaller import ERROR, compacted, worked_session


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(AGENT_DIR_ENV, str(tmp_path / "agent"))


def agent_on(server: FakeLLMServer, session: Session, **options) -> Agent:
    llm = make_provider("anthropic", "claude-test", base_url=server.url, api_key="sk-ant-test", max_retries=0)
    return Agent(session, llm, cwd="/srv/app", **options)


def test_after_compaction_the_model_recalls_the_exact_error_the_summary_dropped(server: FakeLLMServer,
                                                                                tmp_path: Path) -> None:
    session = compacted(worked_session(tmp_path / "s.jsonl"))
    server.push(FakeReply(tool_calls=[{"id": "r1", "name": "recall", "arguments": {"query": "ENOENT"}}]),
                FakeReply(text="The error was a missing config.yml."))
    agent = agent_on(server, session, recall=True)
    agent.prompt("What exactly did node say when it failed?")

    first, second = (r.body for r in server.requests)
    assert "recall" in [tool["name"] for tool in first["tools"]]
    sent_summary = first["messages"][0]["content"][0]["text"]
    assert RECALL_NOTE in sent_summary and "ENOENT" not in json.dumps(first["messages"])
    result = second["messages"][-1]["content"][0]
    assert result["type"] == "tool_result" and ERROR in json.dumps(result)
    stored = [e for e in Session.open(tmp_path / "s.jsonl").entries() if e["type"] == "compaction"][0]
    assert RECALL_NOTE not in stored["summary"]  # the note is in the request only: pi reads the same context


def test_without_recall_the_tool_is_not_offered_and_the_summary_is_as_stored(server: FakeLLMServer) -> None:
    server.push(FakeReply(text="ok"))
    agent_on(server, compacted(worked_session())).prompt("hi")
    body = server.requests[0].body
    assert "recall" not in [tool["name"] for tool in body["tools"]]
    assert RECALL_NOTE not in json.dumps(body["messages"])


def test_recall_of_an_unknown_text_is_a_plain_answer(server: FakeLLMServer) -> None:
    server.push(FakeReply(tool_calls=[{"id": "r1", "name": "recall", "arguments": {"query": "EXDEV"}}]),
                FakeReply(text="Nothing like that."))
    agent = agent_on(server, compacted(worked_session()), recall=True)
    agent.prompt("any cross-device errors?")
    result = server.requests[1].body["messages"][-1]["content"][0]
    assert "No match for 'EXDEV'" in json.dumps(result) and not result.get("is_error")
