"""Every bundled session replays as a cassette through the real SDKs, strictly matched, answer for answer.

The client is a pi-like agent: before each recorded answer it sends what pi would have sent, converted by
``pi_compact.convert`` for its API: the whole context on the small fixtures, and from the previous answer on
(which is what a cassette compares) on all of them, since whole contexts of pi's long sessions would make the
SDKs' own request building the cost of the run. Each request goes through the
next of the six clients (Anthropic Messages, OpenAI Chat Completions, OpenAI Responses; streaming and not),
so every fixture meets all of them (streamed eight words a delta, to keep the SDKs' event parsing cheap),
and each reply, read back by the SDK, must be the recorded message:
its text, its tool calls (ids as the API spells them, names, arguments), its thinking where the API has it.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest

from pi_compact import Session
from pi_compact.convert import (
    from_anthropic_response,
    from_openai_chat_response,
    from_openai_responses_output,
    to_anthropic,
    to_openai_chat,
    to_openai_responses,
)
from pi_compact.testing import fake_llm_server
from pi_compact.testing.cassette import Player
from pi_compact.testing.wire import anthropic_id, split_call_id
from sessions_fixtures import BRANCHES, DEMO, PI_SESSIONS, REALISTIC

FIXTURES = [DEMO, REALISTIC, BRANCHES, *PI_SESSIONS]
RUNS = [(path, False) for path in FIXTURES] + [(DEMO, True), (BRANCHES, True)]
CLIENTS = list(itertools.product(["anthropic", "chat", "responses"], [False, True]))


def _view(message: dict[str, Any], api: str) -> tuple[str, list[tuple], str]:
    """What an API can carry of an assistant message: text, tool calls as it names them, thinking."""
    blocks = [b for b in message.get("content") or [] if isinstance(b, dict)]
    texts = [b["text"] for b in blocks if b.get("type") == "text" and b.get("text")]
    spell = {"anthropic": anthropic_id}.get(api, lambda i: split_call_id(i)[0])
    calls = [(spell(b["id"]), b["name"], b.get("arguments") or {}) for b in blocks if b.get("type") == "toolCall"]
    thinking = "" if api == "chat" else "".join(b.get("thinking") or "" for b in blocks
                                                if b.get("type") == "thinking" and not b.get("redacted"))
    return "\n".join(texts), calls, thinking


def _send(api: str, stream: bool, clients: dict[str, Any], messages: list[dict]) -> dict:
    client = clients[api]
    if api == "anthropic":
        options = {"model": "m", "max_tokens": 64, "messages": to_anthropic(messages)[1]}
        if stream:
            with client.messages.stream(**options) as events:
                return from_anthropic_response(events.get_final_message())
        return from_anthropic_response(client.messages.create(**options))
    if api == "chat":
        options = {"model": "m", "messages": to_openai_chat(messages)}
        if stream:
            with client.chat.completions.stream(**options, stream_options={"include_usage": True}) as events:
                return from_openai_chat_response(events.get_final_completion())
        return from_openai_chat_response(client.chat.completions.create(**options))
    options = {"model": "m", "input": to_openai_responses(messages)[1]}
    if stream:
        with client.responses.stream(**options) as events:
            return from_openai_responses_output(events.get_final_response())
    return from_openai_responses_output(client.responses.create(**options))


def _since_last_answer(messages: list[dict]) -> list[dict]:
    answered = [i for i, m in enumerate(messages)
                if m.get("role") == "assistant" and m.get("stopReason") not in ("error", "aborted")]
    return messages[answered[-1]:] if answered else messages


@pytest.mark.parametrize(("path", "whole"), RUNS, ids=[f"{p.name}-{'whole' if w else 'tail'}" for p, w in RUNS])
def test_every_fixture_replays_through_both_sdks(path: Path, whole: bool) -> None:
    session = Session.open(path)
    steps = Player(session, session.leaf_id, "strict").steps
    assert len(steps) >= 8
    clients = itertools.cycle(CLIENTS)
    with fake_llm_server(session=path, delta_words=8) as replay:
        openai_client = openai.OpenAI(base_url=replay.url + "/v1", api_key="k", max_retries=0)
        sdks = {"anthropic": anthropic.Anthropic(base_url=replay.url, api_key="k", max_retries=0),
                "chat": openai_client, "responses": openai_client}
        for step in steps:
            api, stream = next(clients)
            context = session.build_context(step.parent_id).messages
            answer = _send(api, stream, sdks, context if whole else _since_last_answer(context))
            assert _view(answer, api) == _view(step.message, api), (step.entry_id, api, stream)
            assert answer["stopReason"] == (step.message["stopReason"] if step.message["stopReason"] != "error" else "stop")
            assert answer["usage"]["output"] == step.message["usage"]["output"]
    assert replay.mismatches == []
