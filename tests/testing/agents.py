"""A tiny coding agent in each API the fake server speaks, run by the cassette tests through the real SDKs.

Each loop sends the conversation, runs the tool calls it gets back with ``tools`` (name → function of the
arguments) and sends the results, until an answer has no tool call; it returns the raw bodies the SDK
received (read through an httpx event hook: public API, nothing patched), so record and replay can be
compared byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anthropic
import openai

Tools = dict[str, Callable[[dict[str, Any]], str]]
COMMAND = {"type": "object", "properties": {"command": {"type": "string"}}}
TOOLS_SPEC = [{"name": "bash", "description": "run a command", "parameters": COMMAND}]


def run_agent(api: str, base_url: str, prompt: str, tools: Tools, *, stream: bool) -> list[bytes]:
    received: list[bytes] = []

    def keep(response: Any) -> None:
        received.append(response.read())

    sdk = anthropic if api == "anthropic" else openai
    loop = {"anthropic": _anthropic_loop, "chat": _chat_loop, "responses": _responses_loop}[api]
    with sdk.DefaultHttpxClient(event_hooks={"response": [keep]}) as http:
        loop(base_url, http, prompt, tools, stream)
    return received


def _anthropic_loop(url: str, http: Any, prompt: str, tools: Tools, stream: bool) -> None:
    client = anthropic.Anthropic(base_url=url, api_key="sk-test", http_client=http, max_retries=0)
    spec = [{"name": t["name"], "description": t["description"], "input_schema": t["parameters"]} for t in TOOLS_SPEC]
    messages: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
    for _ in range(10):
        options = {"model": "claude-test", "max_tokens": 1024, "system": "You are terse.", "tools": spec, "messages": messages}
        if stream:
            with client.messages.stream(**options) as events:
                reply = events.get_final_message()
        else:
            reply = client.messages.create(**options)
        messages.append({"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in reply.content]})
        calls = [b for b in reply.content if b.type == "tool_use"]
        if not calls:
            return
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": c.id, "content": tools[c.name](dict(c.input))} for c in calls]})


def _chat_loop(url: str, http: Any, prompt: str, tools: Tools, stream: bool) -> None:
    client = openai.OpenAI(base_url=url + "/v1", api_key="sk-test", http_client=http, max_retries=0)
    spec = [{"type": "function", "function": t} for t in TOOLS_SPEC]
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": prompt}]
    for _ in range(10):
        options = {"model": "gpt-test", "messages": messages, "tools": spec}
        if stream:
            with client.chat.completions.stream(**options, stream_options={"include_usage": True}) as events:
                message = events.get_final_completion().choices[0].message
        else:
            message = client.chat.completions.create(**options).choices[0].message
        calls = message.tool_calls or []
        sent: dict[str, Any] = {"role": "assistant", "content": message.content}
        if calls:
            sent["tool_calls"] = [{"id": c.id, "type": "function", "function": {"name": c.function.name,
                                   "arguments": c.function.arguments}} for c in calls]
        messages.append(sent)
        if not calls:
            return
        for call in calls:
            output = tools[call.function.name](json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": output})


def _responses_loop(url: str, http: Any, prompt: str, tools: Tools, stream: bool) -> None:
    client = openai.OpenAI(base_url=url + "/v1", api_key="sk-test", http_client=http, max_retries=0)
    spec = [{"type": "function", **t} for t in TOOLS_SPEC]
    items: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
    for _ in range(10):
        options = {"model": "gpt-test", "instructions": "You are terse.", "input": items, "tools": spec}
        if stream:
            with client.responses.stream(**options) as events:
                reply = events.get_final_response()
        else:
            reply = client.responses.create(**options)
        output = [item.model_dump(exclude_none=True) for item in reply.output]
        items += [{k: v for k, v in item.items() if k not in ("parsed_arguments", "parsed")} for item in output]
        calls = [item for item in reply.output if item.type == "function_call"]
        if not calls:
            return
        items += [{"type": "function_call_output", "call_id": c.call_id, "output": tools[c.name](json.loads(c.arguments))}
                  for c in calls]
