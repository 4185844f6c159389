"""The assertion helpers for agents built on the store, on a recorded session replayed to a small agent.

``assert_context_fits`` is checked against an agent that compacts with ``AutoCompactor`` (every request
fits) and the same agent without it (the requests outgrow the window, and the message says which);
``assert_facts_survive`` against a real compaction by the offline summarizer.
"""

from __future__ import annotations

from pathlib import Path

import openai
import pytest

from pi_compact import Session
from pi_compact.compaction import AutoCompactor, CompactionSettings, compact
from pi_compact.convert import from_openai_chat_response, to_openai_chat
from pi_compact.testing import FakeReply, assert_context_fits, assert_facts_survive, fake_llm_server
from pi_compact.testing.cassette import Player
from sessions_fixtures import REALISTIC

WINDOW = 24_000
SETTINGS = CompactionSettings(reserve_tokens=2_000, keep_recent_tokens=3_000)


def _store_agent(cassette: Path, url: str, *, compacting: bool) -> Session:
    """An agent on the store that plays the recorded session's user and tools; the model is the cassette."""
    recorded = Session.open(cassette)
    steps = Player(recorded, recorded.leaf_id, "strict").steps
    mine = Session.in_memory("/tmp/project")
    auto = AutoCompactor(window=WINDOW, settings=SETTINGS)
    client = openai.OpenAI(base_url=url + "/v1", api_key="k", max_retries=0)
    done: set[str] = set()
    for step in steps:
        for entry in recorded.branch(step.parent_id):
            message = entry.get("message") or {}
            if entry["id"] in done:
                continue
            if message.get("role") in ("user", "toolResult", "bashExecution"):
                mine.append_message(message)
            elif entry["type"] == "custom_message":
                mine.append_custom_message(entry["customType"], entry["content"], entry.get("display", True))
            done.add(entry["id"])
        if compacting:
            auto.ensure_fits(mine)
        reply = client.chat.completions.create(model="m", messages=to_openai_chat(mine.build_context()))
        answer = from_openai_chat_response(reply)
        # the recording's usage was counted by its model's tokenizer; the window is checked here with the
        # project's estimate, so the agent under test sizes its requests the same way (as with a server that
        # reports no usage)
        answer.pop("usage", None)
        mine.append_message(answer)
        done.add(step.entry_id)
    return mine


def test_a_compacting_agent_fits_the_window_at_every_request_of_a_replay() -> None:
    with fake_llm_server(session=REALISTIC) as replay:
        session = _store_agent(REALISTIC, replay.url, compacting=True)
    assert replay.mismatches == []
    sizes = assert_context_fits(replay, WINDOW)
    assert len(sizes) == 51 and max(sizes) > WINDOW // 4
    assert session.count_type("compaction") >= 1


def test_an_agent_that_never_compacts_is_told_which_requests_overflowed() -> None:
    with fake_llm_server(session=REALISTIC) as replay:
        _store_agent(REALISTIC, replay.url, compacting=False)
    with pytest.raises(AssertionError, match=r"requests did not fit 22,000 tokens \(window 24,000 - reserve 2,000\): "
                                             r"request \d+: [\d,]+"):
        assert_context_fits(replay, WINDOW, reserve=2_000)


def test_no_request_is_nothing_to_check() -> None:
    with fake_llm_server() as server, pytest.raises(AssertionError, match="no model request"):
        assert_context_fits(server, 1_000)


def test_request_sizes_grow_with_what_is_sent() -> None:
    with fake_llm_server() as server:
        server.push(FakeReply(text="a"), FakeReply(text="b"))
        client = openai.OpenAI(base_url=server.url + "/v1", api_key="k", max_retries=0)
        for n in (100, 400):
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": "word " * n}])
    small, large = assert_context_fits(server, 10_000)
    assert 0 < small < large and 3 * small <= large <= 5 * small


def _compacted(facts_text: str) -> Session:
    session = Session.in_memory("/tmp/project")
    for n in range(6):
        session.append_message({"role": "user", "content": f"Step {n}: {facts_text} " + "padding words " * 300,
                                "timestamp": n})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": f"Done with step {n}."}],
                                "stopReason": "stop", "timestamp": n})
    compact(session, window=6_000, settings=CompactionSettings(reserve_tokens=1_000, keep_recent_tokens=1_000))
    return session


def test_named_facts_survive_compaction() -> None:
    session = _compacted("The build fails with ENOENT in src/parser.py.")
    assert_facts_survive(session, ["src/parser.py", "ENOENT"])
    with pytest.raises(AssertionError, match=r"1 fact\(s\) lost in compaction: 'the deploy key'; the summary reads: "):
        assert_facts_survive(session, ["src/parser.py", "the deploy key"])


def test_facts_need_a_compaction_to_survive() -> None:
    session = Session.in_memory("/tmp/project")
    session.append_message({"role": "user", "content": "src/parser.py", "timestamp": 0})
    with pytest.raises(AssertionError, match="no compaction on the path"):
        assert_facts_survive(session, ["src/parser.py"])
