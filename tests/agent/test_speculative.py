"""Speculative compaction (issue 15.2): the summary is prepared in the background near the threshold and
committed at once when the threshold is crossed, if the region it covers is unchanged; every compaction
leaves the context under 80% of the threshold. The model is the fake server through the real SDK; the
summarizer is a local double that counts its calls.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.agent import Agent, make_provider
from pi_compact.agent.speculative import SETTLE_FRACTION, margin, settled_window
from pi_compact.compaction import CompactionSettings
from pi_compact.compaction.summarizer import SummaryRequest, SummaryResult
from pi_compact.store.paths import AGENT_DIR_ENV
from pi_compact.testing import FakeLLMServer, FakeReply
from tests.prose import prose

WINDOW = 40_000
SETTINGS = CompactionSettings(reserve_tokens=16_384, keep_recent_tokens=2_000)
THRESHOLD = SETTINGS.threshold(WINDOW)  # 23,616; the background summary starts at 15,616
SUMMARY = ("## Goal\nShip the parser.\n\n## Constraints & Preferences\n(none)\n\n## Progress\n### Done\n- [x] a lot\n\n"
           "## Key Decisions\n(none)\n\n## Next Steps\n1. go on\n\n## Critical Context\n(none)")


class CountingSummarizer:
    """Answers every request with the same summary; ``gate`` (if given) holds each answer until it is set."""

    name = "anthropic"
    context_window = 200_000

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.calls: list[SummaryRequest] = []
        self.gate = gate

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.calls.append(request)
        if self.gate is not None:
            self.gate.wait(30)
        return SummaryResult(SUMMARY, 100, 50)


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(AGENT_DIR_ENV, str(tmp_path / "agent"))


def near_threshold_session(tmp_path: Path, tokens: int = 17_000) -> Session:
    session = Session.create_at(tmp_path / "s.jsonl", str(tmp_path))
    per_turn = 1_000
    for turn in range(tokens // per_turn // 2):
        session.append_message({"role": "user", "content": f"question {turn}: " + prose(1000), "timestamp": turn})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": prose(1000)}],
                                "stopReason": "stop", "timestamp": turn})
    return session


def make_agent(server: FakeLLMServer, session: Session, summarizer, speculate: bool = True) -> Agent:
    llm = make_provider("anthropic", "claude-test", base_url=server.url, api_key="sk-ant-test", max_retries=0)
    return Agent(session, llm, cwd=str(session.header.get("cwd") or "."), window=WINDOW, settings=SETTINGS,
                 summarizer=summarizer, speculate=speculate)


def wait_for(agent: Agent, state: str) -> None:
    for _ in range(600):
        if agent.context_size().speculation == state:
            return
        time.sleep(0.05)
    raise AssertionError(f"speculation never became {state!r}: {agent.context_size().speculation!r}")


def first_summaries(summarizer: CountingSummarizer) -> int:
    """Requests for a first summary of the history. After a compaction the agent may start preparing the next
    one at once (a small window's margin reaches below 80% of its threshold); those update a summary."""
    return sum(1 for call in summarizer.calls if call.kind == "compaction" and call.previous_summary is None)


def compactions(session: Session) -> list[dict]:
    return [e for e in session.entries() if e["type"] == "compaction"]


@pytest.mark.parametrize(("threshold", "expected"), [(10_000, 8_000), (64_000, 8_000), (100_000, 12_500),
                                                     (183_616, 22_952), (400_000, 32_000), (2_000_000, 32_000)])
def test_the_margin_is_an_eighth_of_the_threshold_between_8k_and_32k(threshold: int, expected: int) -> None:
    assert margin(threshold) == expected


def test_the_settled_window_puts_the_target_under_80_percent_of_the_threshold() -> None:
    assert SETTINGS.threshold(settled_window(WINDOW, SETTINGS)) < SETTLE_FRACTION * THRESHOLD
    assert SETTINGS.threshold(settled_window(WINDOW, SETTINGS)) >= SETTLE_FRACTION * THRESHOLD - 1


def test_a_summary_prepared_near_the_threshold_is_committed_without_asking_again(server: FakeLLMServer,
                                                                                 tmp_path: Path) -> None:
    summarizer = CountingSummarizer()
    agent = make_agent(server, near_threshold_session(tmp_path), summarizer)
    assert THRESHOLD - margin(THRESHOLD) < agent.context_size().tokens < THRESHOLD
    server.push(FakeReply(text="A long answer. " * 2_400), FakeReply(text="Short."))
    agent.prompt("first question")  # the background summary starts before this request is sent
    wait_for(agent, "ready")
    assert agent.context_size().tokens > THRESHOLD
    asked = first_summaries(summarizer)  # the history, and the opening of the turn the cut splits

    agent.prompt("second question")
    assert first_summaries(summarizer) == asked  # committed from the background answer: nothing asked at the crossing
    [entry] = compactions(agent.session)
    assert entry["details"]["speculative"] is True and SUMMARY in entry["summary"]
    assert entry["details"]["tokensAfter"] < SETTLE_FRACTION * THRESHOLD
    assert agent.context_size().tokens < SETTLE_FRACTION * THRESHOLD
    sent = server.requests[-1].body["messages"]
    assert "Ship the parser." in str(sent[0]) and "second question" in str(sent[-1])
    assert "A long answer." in str(sent)  # what came after the background summary started is kept verbatim


def test_a_pinned_region_too_big_to_settle_is_summarized_afresh(server: FakeLLMServer,
                                                                            tmp_path: Path) -> None:
    # The prepared summary covers the region as it was; committing it would keep everything since verbatim and
    # drop messages to fit. The normal path summarizes what it can instead (a small window fills in a turn).
    summarizer = CountingSummarizer()
    agent = make_agent(server, near_threshold_session(tmp_path), summarizer)
    server.push(FakeReply(text="Short."), FakeReply(text="Huge. " * 14_000), FakeReply(text="After."))
    agent.prompt("first")
    wait_for(agent, "ready")
    asked = first_summaries(summarizer)
    agent.prompt("now say a lot")  # ~21k tokens after the pinned cut point: more than 80% of the threshold
    agent.prompt("and then")
    assert first_summaries(summarizer) > asked
    [entry] = compactions(agent.session)
    assert "speculative" not in entry["details"]  # the huge reply alone outgrows the room: only it is dropped
    assert entry["details"]["messagesSummarized"] > entry["details"]["messagesDropped"] == 1
    assert entry["details"]["tokensAfter"] < SETTLE_FRACTION * THRESHOLD


def test_a_changed_region_falls_back_to_the_normal_path(server: FakeLLMServer, tmp_path: Path) -> None:
    summarizer = CountingSummarizer()
    session = near_threshold_session(tmp_path)
    agent = make_agent(server, session, summarizer)
    server.push(FakeReply(text="Short."), FakeReply(text="Done."))
    agent.prompt("first")
    wait_for(agent, "ready")
    asked = first_summaries(summarizer)
    earlier = [e for e in session.entries() if e["type"] == "message"][-4]
    session.move_leaf(earlier["id"])  # /tree: the summarized path is no longer the start of this branch
    assert agent.context_size().speculation == ""
    session.append_message({"role": "user", "content": "pasted log: " + "line " * 9_000, "timestamp": 1})
    agent.prompt("then")
    assert first_summaries(summarizer) > asked
    [entry] = compactions(agent.session)
    assert "speculative" not in entry["details"]
    assert entry["details"]["tokensAfter"] < SETTLE_FRACTION * THRESHOLD


def test_crossing_while_the_summary_is_still_written_waits_for_it_instead_of_asking_twice(
        server: FakeLLMServer, tmp_path: Path) -> None:
    gate = threading.Event()
    summarizer = CountingSummarizer(gate)
    agent = make_agent(server, near_threshold_session(tmp_path), summarizer)
    server.push(FakeReply(text="A long answer. " * 1_900), FakeReply(text="Done."))  # ~8,800 tokens
    agent.prompt("first")
    assert agent.context_size().speculation == "summarizing"
    threading.Timer(0.2, gate.set).start()
    agent.prompt("second")
    assert first_summaries(summarizer) == 1 and compactions(agent.session)[0]["details"]["speculative"] is True


def test_without_speculation_nothing_runs_in_the_background(server: FakeLLMServer, tmp_path: Path) -> None:
    summarizer = CountingSummarizer()
    agent = make_agent(server, near_threshold_session(tmp_path), summarizer, speculate=False)
    server.push(FakeReply(text="Short."))
    agent.prompt("first")
    assert agent.context_size().speculation == "" and summarizer.calls == []
