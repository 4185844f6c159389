"""Provider message formats: pi's context to Anthropic / OpenAI requests, and provider replies back to pi.

Plain functions over dicts; no SDK is imported (SDK response objects are accepted and read through
``model_dump()``). Every request is made well-formed first by :func:`repair_tool_pairs`: a tool call without
a result gets a placeholder result, a result without its call is dropped — the orphan that makes providers
answer HTTP 400 after a compaction or an interrupted turn.
"""

from __future__ import annotations

from typing import Any

import orjson

from .compaction.serialize import convert_to_llm
from .context import SessionContext
from .store.jsonl import now_ms

MISSING_RESULT_TEXT = "[No result: the tool call was interrupted, or its result was compacted away]"


# -- shared ------------------------------------------------------------------------------------------------


def _messages_of(context: SessionContext | list[dict]) -> list[dict]:
    return list(context.messages) if isinstance(context, SessionContext) else list(context)


def _blocks(content: Any) -> list[dict]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _tool_calls(message: dict) -> list[dict]:
    return [b for b in _blocks(message.get("content")) if b.get("type") == "toolCall"]


def _placeholder(call: dict, timestamp: Any) -> dict:
    return {
        "role": "toolResult",
        "toolCallId": call.get("id"),
        "toolName": call.get("name"),
        "content": [{"type": "text", "text": MISSING_RESULT_TEXT}],
        "isError": True,
        "timestamp": timestamp,
    }


def repair_tool_pairs(llm_messages: list[dict]) -> list[dict]:
    """Every tool call answered right after its assistant message; stray results dropped.

    Assistant messages that ended in an error or were aborted are left out: their tool calls never ran.
    """
    repaired: list[dict] = []
    pending: dict[str, dict] = {}
    for message in llm_messages:
        role = message.get("role")
        if role == "toolResult":
            if message.get("toolCallId") in pending:
                pending.pop(message["toolCallId"])
                repaired.append(message)
            continue
        repaired.extend(_placeholder(call, message.get("timestamp")) for call in pending.values())
        pending = {}
        if role == "assistant":
            if message.get("stopReason") in ("error", "aborted"):
                continue
            pending = {c.get("id"): c for c in _tool_calls(message) if isinstance(c.get("id"), str)}
        repaired.append(message)
    repaired.extend(_placeholder(call, None) for call in pending.values())
    return repaired


def prepare_messages(context: SessionContext | list[dict]) -> list[dict]:
    """pi's ``convertToLlm`` followed by :func:`repair_tool_pairs`."""
    return repair_tool_pairs(convert_to_llm(_messages_of(context)))


def _text_of(blocks: list[dict]) -> str:
    return "\n".join(b.get("text", "") for b in blocks if b.get("type") == "text")


def _json_args(arguments: Any) -> str:
    return orjson.dumps(arguments if arguments is not None else {}).decode()


def _parse_args(raw: Any) -> dict:
    if isinstance(raw, dict):
        return raw
    try:
        value = orjson.loads(raw or "{}")
    except (orjson.JSONDecodeError, TypeError):
        return {"_raw": raw}
    return value if isinstance(value, dict) else {"_value": value}


def _dump(response: Any) -> dict:
    if isinstance(response, dict):
        return response
    if hasattr(response, "model_dump"):
        return response.model_dump(mode="json", exclude_none=False)
    raise TypeError(f"expected a dict or an SDK response object, got {type(response).__name__}")


# -- Anthropic Messages ------------------------------------------------------------------------------------


def _anthropic_block(block: dict) -> dict | None:
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": block.get("text", "")} if block.get("text") else None
    if kind == "image":
        source = {"type": "base64", "media_type": block.get("mimeType", "image/png"), "data": block.get("data", "")}
        return {"type": "image", "source": source}
    if kind == "thinking":
        if block.get("redacted"):
            return {"type": "redacted_thinking", "data": block.get("thinkingSignature", "")}
        if block.get("thinkingSignature"):
            return {"type": "thinking", "thinking": block.get("thinking", ""), "signature": block["thinkingSignature"]}
        return {"type": "text", "text": block.get("thinking", "")} if block.get("thinking") else None
    if kind == "toolCall":
        return {"type": "tool_use", "id": block.get("id"), "name": block.get("name"), "input": block.get("arguments") or {}}
    return None


def _anthropic_message(message: dict) -> dict | None:
    role = message.get("role")
    if role == "toolResult":
        content = [b for b in map(_anthropic_block, _blocks(message.get("content"))) if b is not None]
        result = {"type": "tool_result", "tool_use_id": message.get("toolCallId"), "content": content or ""}
        if message.get("isError"):
            result["is_error"] = True
        return {"role": "user", "content": [result]}
    blocks = [b for b in map(_anthropic_block, _blocks(message.get("content"))) if b is not None]
    if not blocks:
        return None
    return {"role": "assistant" if role == "assistant" else "user", "content": blocks}


def to_anthropic(context: SessionContext | list[dict], *, system: str | None = None) -> tuple[str | None, list[dict]]:
    """``(system, messages)`` for the Messages API: roles alternate, tool results follow their calls."""
    messages: list[dict] = []
    for converted in map(_anthropic_message, prepare_messages(context)):
        if converted is None:
            continue
        if messages and messages[-1]["role"] == converted["role"]:
            messages[-1]["content"].extend(converted["content"])
        else:
            messages.append(converted)
    return system, messages


_ANTHROPIC_STOP = {"end_turn": "stop", "stop_sequence": "stop", "tool_use": "toolUse", "max_tokens": "length",
                   "pause_turn": "stop", "refusal": "stop"}


def from_anthropic_response(response: Any, *, provider: str = "anthropic") -> dict:
    """A Messages API reply as a pi assistant message."""
    data = _dump(response)
    content: list[dict] = []
    for block in data.get("content") or []:
        kind = block.get("type")
        if kind == "text":
            content.append({"type": "text", "text": block.get("text", "")})
        elif kind == "thinking":
            content.append({"type": "thinking", "thinking": block.get("thinking", ""), "thinkingSignature": block.get("signature", "")})
        elif kind == "redacted_thinking":
            content.append({"type": "thinking", "thinking": "", "thinkingSignature": block.get("data", ""), "redacted": True})
        elif kind == "tool_use":
            content.append({"type": "toolCall", "id": block.get("id"), "name": block.get("name"), "arguments": block.get("input") or {}})
    usage = data.get("usage") or {}
    return _assistant(
        content,
        api="anthropic-messages",
        provider=provider,
        model=data.get("model", ""),
        usage=_usage(usage.get("input_tokens"), usage.get("output_tokens"),
                     usage.get("cache_read_input_tokens"), usage.get("cache_creation_input_tokens")),
        stop=_ANTHROPIC_STOP.get(data.get("stop_reason") or "", "stop"),
        response_id=data.get("id"),
    )


# -- OpenAI Chat Completions ---------------------------------------------------------------------------------


def _openai_user_content(blocks: list[dict]) -> str | list[dict]:
    if all(b.get("type") == "text" for b in blocks):
        return _text_of(blocks)
    parts = []
    for block in blocks:
        if block.get("type") == "text":
            parts.append({"type": "text", "text": block.get("text", "")})
        elif block.get("type") == "image":
            url = f"data:{block.get('mimeType', 'image/png')};base64,{block.get('data', '')}"
            parts.append({"type": "image_url", "image_url": {"url": url}})
    return parts


def _openai_chat_message(message: dict) -> dict:
    role = message.get("role")
    blocks = _blocks(message.get("content"))
    if role == "toolResult":
        text = _text_of(blocks) or ("[image]" if blocks else "")
        return {"role": "tool", "tool_call_id": message.get("toolCallId"), "content": text}
    if role == "assistant":
        out: dict[str, Any] = {"role": "assistant", "content": _text_of(blocks) or None}
        calls = [
            {"id": c.get("id"), "type": "function", "function": {"name": c.get("name"), "arguments": _json_args(c.get("arguments"))}}
            for c in blocks if c.get("type") == "toolCall"
        ]
        if calls:
            out["tool_calls"] = calls
        return out
    return {"role": "user", "content": _openai_user_content(blocks)}


def to_openai_chat(context: SessionContext | list[dict], *, system: str | None = None) -> list[dict]:
    """The ``messages`` of a Chat Completions request (system prompt first when given)."""
    messages = [{"role": "system", "content": system}] if system else []
    for message in prepare_messages(context):
        converted = _openai_chat_message(message)
        if converted["role"] == "assistant" and not converted["content"] and "tool_calls" not in converted:
            continue
        messages.append(converted)
    return messages


_OPENAI_STOP = {"stop": "stop", "tool_calls": "toolUse", "function_call": "toolUse", "length": "length",
                "content_filter": "stop"}


def from_openai_chat_response(response: Any, *, provider: str = "openai") -> dict:
    """A Chat Completions reply (its first choice) as a pi assistant message."""
    data = _dump(response)
    choice = (data.get("choices") or [{}])[0]
    message = choice.get("message") or {}
    content: list[dict] = []
    if message.get("reasoning_content"):
        content.append({"type": "thinking", "thinking": message["reasoning_content"]})
    if message.get("content"):
        content.append({"type": "text", "text": message["content"]})
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        content.append({"type": "toolCall", "id": call.get("id"), "name": function.get("name"),
                        "arguments": _parse_args(function.get("arguments"))})
    usage = data.get("usage") or {}
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0
    return _assistant(
        content,
        api="openai-completions",
        provider=provider,
        model=data.get("model", ""),
        usage=_usage((usage.get("prompt_tokens") or 0) - cached, usage.get("completion_tokens"), cached, 0),
        stop=_OPENAI_STOP.get(choice.get("finish_reason") or "", "stop"),
        response_id=data.get("id"),
    )


# -- OpenAI Responses ----------------------------------------------------------------------------------------


def _responses_items(message: dict) -> list[dict]:
    role = message.get("role")
    blocks = _blocks(message.get("content"))
    if role == "toolResult":
        return [{"type": "function_call_output", "call_id": message.get("toolCallId"), "output": _text_of(blocks)}]
    if role == "assistant":
        items: list[dict] = []
        text = _text_of(blocks)
        if text:
            items.append({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]})
        for call in (b for b in blocks if b.get("type") == "toolCall"):
            items.append({"type": "function_call", "call_id": call.get("id"), "name": call.get("name"),
                          "arguments": _json_args(call.get("arguments"))})
        return items
    parts = []
    for block in blocks:
        if block.get("type") == "text":
            parts.append({"type": "input_text", "text": block.get("text", "")})
        elif block.get("type") == "image":
            parts.append({"type": "input_image", "image_url": f"data:{block.get('mimeType', 'image/png')};base64,{block.get('data', '')}"})
    return [{"role": "user", "content": parts}] if parts else []


def to_openai_responses(context: SessionContext | list[dict], *, system: str | None = None) -> tuple[str | None, list[dict]]:
    """``(instructions, input)`` for the Responses API."""
    items = [item for message in prepare_messages(context) for item in _responses_items(message)]
    return system, items


def from_openai_responses_output(response: Any, *, provider: str = "openai") -> dict:
    """A Responses API reply as a pi assistant message."""
    data = _dump(response)
    content: list[dict] = []
    for item in data.get("output") or []:
        kind = item.get("type")
        if kind == "reasoning":
            summary = "\n".join(s.get("text", "") for s in item.get("summary") or [])
            if summary:
                content.append({"type": "thinking", "thinking": summary})
        elif kind == "message":
            text = "".join(c.get("text", "") for c in item.get("content") or [] if c.get("type") == "output_text")
            if text:
                content.append({"type": "text", "text": text})
        elif kind == "function_call":
            content.append({"type": "toolCall", "id": item.get("call_id"), "name": item.get("name"),
                            "arguments": _parse_args(item.get("arguments"))})
    usage = data.get("usage") or {}
    cached = (usage.get("input_tokens_details") or {}).get("cached_tokens") or 0
    stop = "toolUse" if any(b["type"] == "toolCall" for b in content) else "stop"
    if data.get("status") == "incomplete":
        stop = "length"
    return _assistant(
        content,
        api="openai-responses",
        provider=provider,
        model=data.get("model", ""),
        usage=_usage((usage.get("input_tokens") or 0) - cached, usage.get("output_tokens"), cached, 0),
        stop=stop,
        response_id=data.get("id"),
    )


# -- pi assistant messages -------------------------------------------------------------------------------------


def _usage(input_tokens: Any, output_tokens: Any, cache_read: Any, cache_write: Any) -> dict:
    parts = [int(v or 0) for v in (input_tokens, output_tokens, cache_read, cache_write)]
    return {
        "input": parts[0],
        "output": parts[1],
        "cacheRead": parts[2],
        "cacheWrite": parts[3],
        "totalTokens": sum(parts),
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
    }


def _assistant(content, *, api, provider, model, usage, stop, response_id) -> dict:
    message = {"role": "assistant", "content": content, "api": api, "provider": provider, "model": model}
    if response_id:
        message["responseId"] = response_id
    message.update({"usage": usage, "stopReason": stop, "timestamp": now_ms()})
    return message


__all__ = [
    "MISSING_RESULT_TEXT",
    "from_anthropic_response",
    "from_openai_chat_response",
    "from_openai_responses_output",
    "prepare_messages",
    "repair_tool_pairs",
    "to_anthropic",
    "to_openai_chat",
    "to_openai_responses",
]

to_anthropic_messages = to_anthropic
"""The name the chat issue uses; the same function."""
to_openai_messages = to_openai_chat
"""The name the chat issue uses; the same function."""
__all__ += ["to_anthropic_messages", "to_openai_messages"]
