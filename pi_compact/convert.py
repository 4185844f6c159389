"""Provider message formats: pi's context to Anthropic / OpenAI requests, and provider replies back to pi.

Plain functions over dicts; no SDK is imported (SDK response objects are accepted and read through
``model_dump()``). Every request is made well-formed first by :func:`repair_tool_pairs`: a tool call without
a result gets a placeholder result, a result without its call is dropped — the orphan that makes providers
answer HTTP 400 after a compaction or an interrupted turn.

Every pi role and content block has a mapping:

* ``user``, ``toolResult`` and ``assistant`` map to their provider counterparts; ``bashExecution``, ``custom``,
  ``branchSummary`` and ``compactionSummary`` become user text first (pi's ``convertToLlm``), and a bash run
  marked ``excludeFromContext`` is left out, as pi does.
* ``text`` and ``image`` blocks map one to one (OpenAI Chat has no images in tool messages: they follow the
  tool messages in one user message, as pi sends them).
* ``thinking`` and ``toolCall`` follow pi's cross-provider rule: an assistant message written through another
  API (its ``api`` field) loses its signatures — thinking becomes plain text, redacted thinking is dropped.
  Through its own API, thinking is replayed (an Anthropic ``thinking`` block with its signature; the
  Responses ``reasoning`` item pi keeps in ``thinkingSignature``); Chat Completions has no place for it.
* Tool-call ids are made acceptable to each API the way pi makes them: Anthropic's ``[a-zA-Z0-9_-]{1,64}``,
  and the ``call_id|item_id`` pairs pi stores for Responses calls split again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from .accessors import content_text
from .compaction.serialize import convert_to_llm
from .context import SessionContext
from .store import depth
from .store.jsonl import now_ms

MISSING_RESULT_TEXT = "[No result: the tool call was interrupted, or its result was compacted away]"
TOOL_IMAGES_TEXT = "Attached image(s) from tool result:"
"""Opens the user message that carries tool-result images in a Chat Completions request (pi's wording)."""
ANTHROPIC_API = "anthropic-messages"
OPENAI_CHAT_API = "openai-completions"
OPENAI_RESPONSES_API = "openai-responses"
_RESPONSES_APIS = (OPENAI_RESPONSES_API, "openai-codex-responses", "azure-openai-responses")


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


def _json_args(arguments: Any) -> str:
    """A tool call's arguments as the APIs take them: JSON text. Arguments read from a session file fit
    (the store's depth rule); deeper ones built in memory get a clear error rather than orjson's."""
    depth.check(arguments, "tool call arguments")
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


def _assistant_blocks(message: dict, apis: tuple[str, ...]) -> list[dict]:
    """The content of an assistant message as one of ``apis`` may receive it (pi's ``transformMessages``).

    A message written through another API keeps no signature: its thinking becomes text (blank thinking
    and redacted thinking are dropped). A message without an ``api`` field is taken as native.
    """
    blocks = _blocks(message.get("content"))
    if message.get("api") in (None, *apis):
        return blocks
    portable: list[dict] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "thinking":
            if not block.get("redacted") and str(block.get("thinking") or "").strip():
                portable.append({"type": "text", "text": block["thinking"]})
        elif kind == "text":
            portable.append({"type": "text", "text": block.get("text", "")})
        else:
            portable.append(block)
    return portable


def _split_call_id(call_id: Any) -> tuple[str, str | None]:
    """pi stores a Responses call as ``call_id|item_id``; other APIs use the part before the bar."""
    call, _, item = str(call_id if call_id is not None else "").partition("|")
    return call, item or None


def _anthropic_id(call_id: Any) -> str:
    """Anthropic accepts tool-use ids matching ``[a-zA-Z0-9_-]{1,64}`` (pi's normalisation)."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", str(call_id if call_id is not None else ""))[:64] or "_"


def _data_url(block: dict) -> str:
    return f"data:{block.get('mimeType', 'image/png')};base64,{block.get('data', '')}"


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
        arguments = block.get("arguments") if isinstance(block.get("arguments"), dict) else {}
        return {"type": "tool_use", "id": _anthropic_id(block.get("id")), "name": block.get("name"), "input": arguments}
    return None


def _anthropic_message(message: dict) -> dict | None:
    role = message.get("role")
    if role == "toolResult":
        content = [b for b in map(_anthropic_block, _blocks(message.get("content"))) if b is not None]
        result = {"type": "tool_result", "tool_use_id": _anthropic_id(message.get("toolCallId")), "content": content or ""}
        if message.get("isError"):
            result["is_error"] = True
        return {"role": "user", "content": [result]}
    source = _assistant_blocks(message, (ANTHROPIC_API,)) if role == "assistant" else _blocks(message.get("content"))
    blocks = [b for b in map(_anthropic_block, source) if b is not None]
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
        api=ANTHROPIC_API,
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
        return content_text(blocks, "\n")
    parts = []
    for block in blocks:
        if block.get("type") == "text":
            parts.append({"type": "text", "text": block.get("text", "")})
        elif block.get("type") == "image":
            parts.append({"type": "image_url", "image_url": {"url": _data_url(block)}})
    return parts


def _openai_chat_message(message: dict) -> dict:
    role = message.get("role")
    if role == "toolResult":
        blocks = _blocks(message.get("content"))
        text = content_text(blocks, "\n") or ("(see attached image)" if _images(blocks) else "")
        return {"role": "tool", "tool_call_id": _split_call_id(message.get("toolCallId"))[0], "content": text}
    if role == "assistant":
        blocks = [b for b in _assistant_blocks(message, (OPENAI_CHAT_API,)) if b.get("type") != "thinking"]
        out: dict[str, Any] = {"role": "assistant", "content": content_text(blocks, "\n") or None}
        calls = [
            {"id": _split_call_id(c.get("id"))[0], "type": "function",
             "function": {"name": c.get("name"), "arguments": _json_args(c.get("arguments"))}}
            for c in blocks if c.get("type") == "toolCall"
        ]
        if calls:
            out["tool_calls"] = calls
        return out
    return {"role": "user", "content": _openai_user_content(_blocks(message.get("content")))}


def _images(blocks: list[dict]) -> list[dict]:
    return [b for b in blocks if b.get("type") == "image"]


def to_openai_chat(context: SessionContext | list[dict], *, system: str | None = None) -> list[dict]:
    """The ``messages`` of a Chat Completions request (system prompt first when given)."""
    messages = [{"role": "system", "content": system}] if system else []
    tool_images: list[dict] = []
    for message in prepare_messages(context):
        if message.get("role") != "toolResult" and tool_images:
            messages.append(_tool_images_message(tool_images))
            tool_images = []
        converted = _openai_chat_message(message)
        if converted["role"] == "assistant" and not converted["content"] and "tool_calls" not in converted:
            continue
        if message.get("role") == "toolResult":
            tool_images += _images(_blocks(message.get("content")))
        messages.append(converted)
    if tool_images:
        messages.append(_tool_images_message(tool_images))
    return messages


def _tool_images_message(images: list[dict]) -> dict:
    """Tool messages carry only text: their images follow them in one user message."""
    return {"role": "user", "content": _openai_user_content([{"type": "text", "text": TOOL_IMAGES_TEXT}, *images])}


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
    if message.get("content") or message.get("refusal"):
        content.append({"type": "text", "text": message.get("content") or message["refusal"]})
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        content.append({"type": "toolCall", "id": call.get("id"), "name": function.get("name"),
                        "arguments": _parse_args(function.get("arguments"))})
    usage = data.get("usage") or {}
    cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0
    return _assistant(
        content,
        api=OPENAI_CHAT_API,
        provider=provider,
        model=data.get("model", ""),
        usage=_usage((usage.get("prompt_tokens") or 0) - cached, usage.get("completion_tokens"), cached, 0),
        stop=_OPENAI_STOP.get(choice.get("finish_reason") or "", "stop"),
        response_id=data.get("id"),
    )


# -- OpenAI Responses ----------------------------------------------------------------------------------------


def _responses_user(blocks: list[dict], content: Any) -> list[dict]:
    if isinstance(content, str):
        return [{"role": "user", "content": content}]
    parts = []
    for block in blocks:
        if block.get("type") == "text":
            parts.append({"type": "input_text", "text": block.get("text", "")})
        elif block.get("type") == "image":
            parts.append({"type": "input_image", "detail": "auto", "image_url": _data_url(block)})
    return [{"role": "user", "content": parts}] if parts else []


def _responses_tool_output(message: dict) -> dict:
    blocks = _blocks(message.get("content"))
    text, images = content_text(blocks, "\n"), _images(blocks)
    output: str | list[dict] = text
    if images:
        output = [{"type": "input_text", "text": text}] if text else []
        output += [{"type": "input_image", "detail": "auto", "image_url": _data_url(b)} for b in images]
    return {"type": "function_call_output", "call_id": _split_call_id(message.get("toolCallId"))[0], "output": output}


def _reasoning_item(block: dict) -> dict | None:
    """The Responses ``reasoning`` item pi keeps (as JSON) in a thinking block's signature."""
    try:
        item = orjson.loads(block.get("thinkingSignature") or "")
    except orjson.JSONDecodeError:
        return None
    return item if isinstance(item, dict) and item.get("type") == "reasoning" else None


def _text_item_id(block: dict) -> str | None:
    """The output message id in a text block's signature: pi's ``{"v":1,"id":…}`` or a bare id."""
    signature = block.get("textSignature")
    if not isinstance(signature, str) or not signature:
        return None
    if signature.startswith("{"):
        try:
            parsed = orjson.loads(signature)
        except orjson.JSONDecodeError:
            parsed = None
        signature = parsed.get("id") if isinstance(parsed, dict) else None
    return signature if isinstance(signature, str) and 0 < len(signature) <= 64 else None


def _responses_assistant(message: dict) -> list[dict]:
    native = message.get("api") in (None, *_RESPONSES_APIS)
    items: list[dict] = []
    for block in _assistant_blocks(message, _RESPONSES_APIS):
        kind = block.get("type")
        if kind == "thinking" and (reasoning := _reasoning_item(block)) is not None:
            items.append(reasoning)
        elif kind == "text" and (item_id := _text_item_id(block)) is not None:
            text = {"type": "output_text", "text": block.get("text", ""), "annotations": []}
            items.append({"type": "message", "role": "assistant", "content": [text], "status": "completed", "id": item_id})
        elif kind == "text" and block.get("text"):
            items.append({"role": "assistant", "content": block["text"]})
        elif kind == "toolCall":
            call_id, item_id = _split_call_id(block.get("id"))
            call = {"type": "function_call", "call_id": call_id, "name": block.get("name"),
                    "arguments": _json_args(block.get("arguments"))}
            if native and item_id and item_id.startswith("fc"):
                call["id"] = item_id
            items.append(call)
    return items


def to_openai_responses_items(message: dict) -> list[dict]:
    """One model-ready pi message (``user``, ``assistant`` or ``toolResult``) as Responses input items.

    No repair and no ``convertToLlm``: for callers that prepared the messages themselves.
    """
    role = message.get("role")
    if role == "toolResult":
        return [_responses_tool_output(message)]
    if role == "assistant":
        return _responses_assistant(message)
    return _responses_user(_blocks(message.get("content")), message.get("content"))


def to_openai_responses(context: SessionContext | list[dict], *, system: str | None = None) -> tuple[str | None, list[dict]]:
    """``(instructions, input)`` for the Responses API."""
    items = [item for message in prepare_messages(context) for item in to_openai_responses_items(message)]
    return system, items


def _responses_blocks(item: dict) -> list[dict]:
    """The pi content blocks of one Responses output item (pi's signatures keep what a replay needs)."""
    kind = item.get("type")
    if kind == "reasoning":
        summary = "\n\n".join(s.get("text", "") for s in item.get("summary") or [])
        text = summary or "\n\n".join(c.get("text", "") for c in item.get("content") or [])
        signature = orjson.dumps({k: v for k, v in item.items() if v is not None}).decode()
        return [{"type": "thinking", "thinking": text, "thinkingSignature": signature}]
    if kind == "message" or (kind is None and item.get("role") == "assistant"):
        content = item.get("content")
        parts = [{"type": "output_text", "text": content}] if isinstance(content, str) else content or []
        text = "".join(p.get("text") or p.get("refusal") or "" for p in parts if isinstance(p, dict))
        block = {"type": "text", "text": text}
        if item.get("id"):
            signature = {"v": 1, "id": item["id"], **({"phase": item["phase"]} if item.get("phase") else {})}
            block["textSignature"] = orjson.dumps(signature).decode()
        return [block] if text or item.get("id") else []
    if kind == "function_call":
        call_id = f"{item.get('call_id')}|{item['id']}" if item.get("id") else item.get("call_id")
        return [{"type": "toolCall", "id": call_id, "name": item.get("name"), "arguments": _parse_args(item.get("arguments"))}]
    return []


def from_openai_responses_output(response: Any, *, provider: str = "openai") -> dict:
    """A Responses API reply as a pi assistant message.

    As pi records one: a reasoning item is kept whole (JSON) in its thinking block's ``thinkingSignature``,
    an output message's id in ``textSignature``, and a call's id as ``call_id|item_id``, so a replay through
    :func:`to_openai_responses` sends the items the API expects back.
    """
    data = _dump(response)
    content = [block for item in data.get("output") or [] for block in _responses_blocks(item)]
    usage = data.get("usage") or {}
    cached = (usage.get("input_tokens_details") or {}).get("cached_tokens") or 0
    stop = "toolUse" if any(b["type"] == "toolCall" for b in content) else "stop"
    if data.get("status") == "incomplete":
        stop = "length"
    return _assistant(
        content,
        api=OPENAI_RESPONSES_API,
        provider=provider,
        model=data.get("model", ""),
        usage=_usage((usage.get("input_tokens") or 0) - cached, usage.get("output_tokens"), cached, 0),
        stop=stop,
        response_id=data.get("id"),
    )


def from_openai_responses_items(
    items: Iterable[Mapping[str, Any]], *, known_calls: Mapping[str, str] | None = None, provider: str = "openai",
    model: str = "",
) -> list[dict]:
    """Responses *input* items (a stored conversation) as pi messages, in order.

    Messages of role ``user`` become user messages; consecutive assistant-side items (output messages,
    ``reasoning``, ``function_call``) become one assistant message; a ``function_call_output`` becomes a
    tool result whose ``toolCallId`` is its call's pi id (found among ``items``, else in ``known_calls``:
    call id → pi id). Any other item (system and developer messages, hosted-tool calls) raises
    :class:`ValueError`: pi has no message for it, and the caller decides where it goes.
    """
    calls = dict(known_calls or {})
    messages: list[dict] = []
    pending: list[dict] = []
    for item in map(dict, items):
        if _is_assistant_item(item):
            pending += _responses_blocks(item)
            calls.update({_split_call_id(b["id"])[0]: b["id"] for b in pending if b["type"] == "toolCall"})
            continue
        if pending:
            messages.append(_items_assistant(pending, provider, model))
            pending = []
        messages.append(_user_side_message(item, calls))
    if pending:
        messages.append(_items_assistant(pending, provider, model))
    return messages


def _is_assistant_item(item: dict) -> bool:
    return item.get("type") in ("reasoning", "function_call") or (
        item.get("role") == "assistant" and item.get("type") in (None, "message"))


def _items_assistant(content: list[dict], provider: str, model: str) -> dict:
    stop = "toolUse" if any(b["type"] == "toolCall" for b in content) else "stop"
    return _assistant(content, api=OPENAI_RESPONSES_API, provider=provider, model=model, usage=_usage(0, 0, 0, 0),
                      stop=stop, response_id=None)


def _user_side_message(item: dict, calls: Mapping[str, str]) -> dict:
    if item.get("type") == "function_call_output":
        call_id = str(item.get("call_id"))
        output = item.get("output")
        content = [{"type": "text", "text": output}] if isinstance(output, str) else _input_blocks(output)
        return {"role": "toolResult", "toolCallId": calls.get(call_id, call_id), "toolName": item.get("name") or "",
                "content": content, "isError": False, "timestamp": now_ms()}
    if item.get("role") == "user" and item.get("type") in (None, "message"):
        content = item.get("content")
        return {"role": "user", "content": content if isinstance(content, str) else _input_blocks(content),
                "timestamp": now_ms()}
    raise ValueError(f"no pi message for a Responses item of type {item.get('type') or item.get('role')!r}")


def _input_blocks(parts: Any) -> list[dict]:
    blocks: list[dict] = []
    for part in parts if isinstance(parts, list) else []:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in ("input_text", "output_text", "text"):
            blocks.append({"type": "text", "text": part.get("text", "")})
        elif kind == "input_image" and str(part.get("image_url") or "").startswith("data:"):
            header, _, data = part["image_url"].partition(",")
            blocks.append({"type": "image", "data": data, "mimeType": header[5:].split(";")[0]})
        elif kind is not None:
            raise ValueError(f"no pi content block for a Responses content part of type {kind!r}")
    return blocks


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
    "from_openai_responses_items",
    "from_openai_responses_output",
    "prepare_messages",
    "repair_tool_pairs",
    "to_anthropic",
    "to_openai_chat",
    "to_openai_responses",
    "to_openai_responses_items",
]

to_anthropic_messages = to_anthropic
"""The name the chat issue uses; the same function."""
to_openai_messages = to_openai_chat
"""The name the chat issue uses; the same function."""
__all__ += ["to_anthropic_messages", "to_openai_messages"]
