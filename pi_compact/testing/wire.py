"""One answer of the fake server in the three wire formats: Anthropic Messages, OpenAI Chat and Responses.

An :class:`Answer` holds the reply as pi stores an assistant message (content blocks ``text``, ``thinking``,
``toolCall``; usage; pi's stop reason), so a scripted reply and a reply replayed from a session file go
through the same renderers, and a recording made through the fake server replays byte for byte. Each API
gets what it has a place for: thinking is an Anthropic ``thinking`` block and a Responses ``reasoning``
item; Chat Completions has none. Standard library only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

ANTHROPIC_STOP = {"toolUse": "tool_use", "length": "max_tokens", "stop": "end_turn"}
CHAT_STOP = {"toolUse": "tool_calls", "length": "length", "stop": "stop"}


@dataclass(frozen=True)
class Answer:
    """A reply resolved against its request: pi content blocks, model, ids and token usage filled in."""

    blocks: tuple[dict[str, Any], ...]
    """pi assistant content blocks, tool calls with their ids (as pi stores them: ``call|item`` for Responses)."""
    model: str
    serial: int
    usage: tuple[int, int, int, int]
    """``(input, output, cacheRead, cacheWrite)`` as pi counts them (input without the cached part)."""
    stop: str
    """pi's stop reason: ``stop``, ``length`` or ``toolUse``."""
    stop_reason: str | None = None
    """The provider's own stop reason, sent verbatim when set (a scripted ``max_tokens``)."""
    response_id: str | None = None
    delta_words: int = 1
    """Words per streamed text delta."""

    def texts(self) -> list[str]:
        return [b.get("text", "") for b in self.blocks if b.get("type") == "text" and b.get("text")]

    def calls(self) -> list[dict[str, Any]]:
        return [b for b in self.blocks if b.get("type") == "toolCall"]


def chunks(text: str, words: int = 1) -> list[str]:
    """Split text in runs of ``words`` words, so streaming clients really have to join deltas."""
    pieces = re.findall(r"\s*\S+\s*|\s+", text)
    return ["".join(pieces[i : i + words]) for i in range(0, len(pieces), words)]


def halves(raw: str) -> list[str]:
    """Tool arguments arrive in pieces that are not valid JSON on their own, as real streams do."""
    return [raw[: len(raw) // 2], raw[len(raw) // 2 :]]


def split_call_id(call_id: Any) -> tuple[str, str | None]:
    """pi stores a Responses call as ``call_id|item_id``; the other APIs use the part before the bar."""
    call, _, item = str(call_id if call_id is not None else "").partition("|")
    return call, item or None


def anthropic_id(call_id: Any) -> str:
    """Anthropic accepts tool-use ids matching ``[a-zA-Z0-9_-]{1,64}``."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", str(call_id if call_id is not None else ""))[:64] or "_"


def _arguments(block: dict[str, Any]) -> dict[str, Any]:
    args = block.get("arguments")
    return args if isinstance(args, dict) else {}


# -- Anthropic Messages ------------------------------------------------------------------------------------


def _anthropic_block(block: dict[str, Any]) -> dict[str, Any] | None:
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": block["text"]} if block.get("text") else None
    if kind == "thinking" and block.get("redacted"):
        return {"type": "redacted_thinking", "data": block.get("thinkingSignature", "")}
    if kind == "thinking":
        return {"type": "thinking", "thinking": block.get("thinking", ""), "signature": block.get("thinkingSignature", "")}
    if kind == "toolCall":
        return {"type": "tool_use", "id": anthropic_id(block.get("id")), "name": block.get("name"), "input": _arguments(block)}
    return None


def _anthropic_usage(a: Answer) -> dict[str, int]:
    usage = {"input_tokens": a.usage[0], "output_tokens": a.usage[1]}
    if a.usage[3]:
        usage["cache_creation_input_tokens"] = a.usage[3]
    if a.usage[2]:
        usage["cache_read_input_tokens"] = a.usage[2]
    return usage


def anthropic_message(a: Answer) -> dict[str, Any]:
    return {
        "id": a.response_id or f"msg_fake{a.serial}",
        "type": "message",
        "role": "assistant",
        "model": a.model,
        "content": [b for b in map(_anthropic_block, a.blocks) if b is not None],
        "stop_reason": a.stop_reason or ANTHROPIC_STOP.get(a.stop, "end_turn"),
        "stop_sequence": None,
        "usage": _anthropic_usage(a),
    }


def anthropic_events(a: Answer) -> Iterator[tuple[str, dict[str, Any]]]:
    """The SSE event sequence of one streamed Anthropic message."""
    message = anthropic_message(a)
    start = dict(message, content=[], stop_reason=None, usage=dict(_anthropic_usage(a), output_tokens=1))
    yield "message_start", {"type": "message_start", "message": start}
    for index, block in enumerate(message["content"] or [{"type": "text", "text": ""}]):
        opening, deltas = _anthropic_block_stream(block, a.delta_words)
        yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": opening}
        for delta in deltas:
            yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    stop = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    yield "message_delta", {"type": "message_delta", "delta": stop, "usage": {"output_tokens": a.usage[1]}}
    yield "message_stop", {"type": "message_stop"}


def _anthropic_block_stream(block: dict[str, Any], words: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A content block as its empty opening plus the deltas that fill it."""
    kind = block["type"]
    if kind == "text":
        return {"type": "text", "text": ""}, [{"type": "text_delta", "text": t} for t in chunks(block["text"], words)]
    if kind == "thinking":
        deltas = [{"type": "thinking_delta", "thinking": t} for t in chunks(block["thinking"], words)]
        return {"type": "thinking", "thinking": "", "signature": ""}, [
            *deltas, {"type": "signature_delta", "signature": block["signature"]}]
    if kind == "redacted_thinking":
        return block, []
    opening = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
    return opening, [{"type": "input_json_delta", "partial_json": h} for h in halves(json.dumps(block["input"]))]


# -- OpenAI Chat Completions ---------------------------------------------------------------------------------


def _chat_usage(a: Answer) -> dict[str, Any]:
    prompt = a.usage[0] + a.usage[2] + a.usage[3]
    usage: dict[str, Any] = {"prompt_tokens": prompt, "completion_tokens": a.usage[1], "total_tokens": prompt + a.usage[1]}
    if a.usage[2]:
        usage["prompt_tokens_details"] = {"cached_tokens": a.usage[2]}
    return usage


def _chat_tool_calls(a: Answer) -> list[dict[str, Any]]:
    return [
        {"id": split_call_id(c.get("id"))[0], "type": "function",
         "function": {"name": c.get("name"), "arguments": json.dumps(_arguments(c))}}
        for c in a.calls()
    ]


def _chat_finish(a: Answer) -> str:
    return a.stop_reason or CHAT_STOP.get(a.stop, "stop")


def _chat_text(a: Answer) -> str | None:
    text = "\n".join(a.texts())
    return text if text or not a.calls() else None


def chat_completion(a: Answer) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": _chat_text(a)}
    if a.calls():
        message["tool_calls"] = _chat_tool_calls(a)
    choice = {"index": 0, "message": message, "finish_reason": _chat_finish(a), "logprobs": None}
    return {
        "id": a.response_id or f"chatcmpl-fake{a.serial}",
        "object": "chat.completion",
        "created": 0,
        "model": a.model,
        "choices": [choice],
        "usage": _chat_usage(a),
    }


def _chat_deltas(a: Answer) -> Iterator[tuple[dict[str, Any], str | None]]:
    """``(delta, finish_reason)`` pairs of one streamed chat completion."""
    text = _chat_text(a)
    yield {"role": "assistant", "content": None if text is None else ""}, None
    for piece in chunks(text or "", a.delta_words):
        yield {"content": piece}, None
    for index, call in enumerate(_chat_tool_calls(a)):
        function = call["function"]
        head = {"index": index, "id": call["id"], "type": "function", "function": {"name": function["name"], "arguments": ""}}
        yield {"tool_calls": [head]}, None
        for part in halves(function["arguments"]):
            yield {"tool_calls": [{"index": index, "function": {"arguments": part}}]}, None
    yield {}, _chat_finish(a)


def chat_chunks(a: Answer, include_usage: bool) -> Iterator[dict[str, Any]]:
    completion_id = a.response_id or f"chatcmpl-fake{a.serial}"
    base = {"id": completion_id, "object": "chat.completion.chunk", "created": 0, "model": a.model}
    for delta, finish in _chat_deltas(a):
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        yield dict(base, choices=[choice], **({"usage": None} if include_usage else {}))
    if include_usage:
        yield dict(base, choices=[], usage=_chat_usage(a))


# -- OpenAI Responses ----------------------------------------------------------------------------------------


def _reasoning_item(block: dict[str, Any], a: Answer, index: int) -> dict[str, Any]:
    """pi keeps a Responses reasoning item whole (JSON) in the signature; otherwise one is made from the text."""
    try:
        item = json.loads(block.get("thinkingSignature") or "")
    except ValueError:
        item = None
    if isinstance(item, dict) and item.get("type") == "reasoning":
        return item
    summary = [{"type": "summary_text", "text": block.get("thinking", "")}]
    return {"type": "reasoning", "id": f"rs_fake{a.serial}_{index}", "summary": summary}


def _text_item_id(block: dict[str, Any]) -> str | None:
    signature = block.get("textSignature")
    if isinstance(signature, str) and signature.startswith("{"):
        try:
            signature = json.loads(signature).get("id")
        except (ValueError, AttributeError):
            signature = None
    return signature if isinstance(signature, str) and signature else None


def responses_output(a: Answer) -> list[dict[str, Any]]:
    output: list[dict[str, Any]] = []
    for index, block in enumerate(a.blocks):
        kind = block.get("type")
        if kind == "thinking" and not block.get("redacted"):
            output.append(_reasoning_item(block, a, index))
        elif kind == "text" and block.get("text"):
            item_id = _text_item_id(block) or (f"msg_fake{a.serial}" + (f"_{index}" if index else ""))
            text = {"type": "output_text", "text": block["text"], "annotations": []}
            output.append({"type": "message", "id": item_id, "status": "completed", "role": "assistant", "content": [text]})
        elif kind == "toolCall":
            call_id, item_id = split_call_id(block.get("id"))
            call = {"type": "function_call", "id": item_id or f"fc_{call_id}", "call_id": call_id, "name": block.get("name")}
            output.append(dict(call, arguments=json.dumps(_arguments(block)), status="completed"))
    return output


def responses_response(a: Answer, *, status: str | None = None) -> dict[str, Any]:
    usage = {
        "input_tokens": a.usage[0] + a.usage[2] + a.usage[3],
        "output_tokens": a.usage[1],
        "total_tokens": sum(a.usage),
        "input_tokens_details": {"cached_tokens": a.usage[2]},
        "output_tokens_details": {"reasoning_tokens": 0},
    }
    reason = a.stop_reason or ("max_output_tokens" if a.stop == "length" else None)
    incomplete = {"reason": reason} if reason else None
    return {
        "id": a.response_id or f"resp_fake{a.serial}",
        "object": "response",
        "created_at": 0,
        "status": status or ("incomplete" if incomplete else "completed"),
        "incomplete_details": incomplete,
        "error": None,
        "model": a.model,
        "output": responses_output(a) if status is None else [],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": usage if status is None else None,
    }


def responses_events(a: Answer) -> Iterator[dict[str, Any]]:
    """The SSE events of one streamed response, ``sequence_number`` in order."""
    final = responses_response(a)
    events: list[dict[str, Any]] = [{"type": "response.created", "response": responses_response(a, status="in_progress")}]
    for index, item in enumerate(final["output"]):
        events += _responses_item_events(index, item, a.delta_words)
    done = "response.incomplete" if final["status"] == "incomplete" else "response.completed"
    events.append({"type": done, "response": final})
    for number, event in enumerate(events):
        yield dict(event, sequence_number=number)


def _responses_item_events(index: int, item: dict[str, Any], words: int) -> list[dict[str, Any]]:
    at = {"output_index": index, "item_id": item["id"]}
    if item["type"] == "message":
        text = item["content"][0]["text"]
        part = {"type": "output_text", "text": "", "annotations": []}
        opening = dict(item, status="in_progress", content=[])
        events = [{"type": "response.output_item.added", "output_index": index, "item": opening},
                  {"type": "response.content_part.added", **at, "content_index": 0, "part": part}]
        events += [{"type": "response.output_text.delta", **at, "content_index": 0, "delta": d, "logprobs": []}
                   for d in chunks(text, words)]
        events += [{"type": "response.output_text.done", **at, "content_index": 0, "text": text, "logprobs": []},
                   {"type": "response.content_part.done", **at, "content_index": 0, "part": dict(part, text=text)}]
    elif item["type"] == "function_call":
        opening = dict(item, arguments="", status="in_progress")
        events = [{"type": "response.output_item.added", "output_index": index, "item": opening}]
        events += [{"type": "response.function_call_arguments.delta", **at, "delta": d} for d in halves(item["arguments"])]
        events.append({"type": "response.function_call_arguments.done", **at, "arguments": item["arguments"]})
    else:
        events = [{"type": "response.output_item.added", "output_index": index, "item": item}]
    return [*events, {"type": "response.output_item.done", "output_index": index, "item": item}]


# -- errors ----------------------------------------------------------------------------------------------------

_ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}


def error_body(api: str, status: int, message: str) -> dict[str, Any]:
    """The error JSON each provider sends with a non-2xx status."""
    message = message or f"fake error {status}"
    if api == "anthropic":
        kind = _ANTHROPIC_ERROR_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    kind = "server_error" if status >= 500 else "requests" if status == 429 else "invalid_request_error"
    code = "rate_limit_exceeded" if status == 429 else None
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


ROUTES = {"/v1/messages": "anthropic", "/v1/chat/completions": "chat", "/v1/responses": "responses"}
