"""Recording a conversation with a real provider as a pi session, the cassette a later test replays.

The fake server forwards each request unchanged to the provider and streams the answer back; once the
answer is complete, the recorder appends to the session what the request added (its user messages and
tool results after the last assistant turn) and the answer as a pi assistant message, through the store's
writer (append-only, locked, fsynced). A request that carries fewer assistant turns than the path
recorded so far (a retry, a new conversation) starts a branch where its history ends, so one file holds
every script. Secrets in message text and tool arguments are redacted before they are written
(:func:`~pi_compact.compaction.redact.redact_secrets`); the API key travels in headers and is never written.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pi_compact.compaction.redact import redact_secrets
from pi_compact.convert import from_anthropic_response, from_openai_chat_response, from_openai_responses_output
from pi_compact.session import Session
from pi_compact.store.jsonl import now_ms

from .inputs import split_request
from .wire import anthropic_id, split_call_id

if TYPE_CHECKING:
    from .cassette import Player

_KEPT = frozenset({"id", "toolCallId", "toolName", "thinkingSignature", "textSignature", "api", "provider", "model",
                   "responseId", "type", "role", "stopReason", "mimeType", "data", "name"})
"""Fields that are identifiers or binary data, never redacted (a signature must come back unchanged)."""


class Recorder:
    """Appends each forwarded exchange to a session file."""

    def __init__(self, session: Session, upstream: str, base: str | None, answers: list[str], calls: dict) -> None:
        self.session = session
        self.upstream = upstream
        """The provider's base URL, e.g. ``https://api.anthropic.com``."""
        self.answers = answers
        """Ids of the assistant entries on the path being recorded, in order."""
        self.errors: list[str] = []
        """Answers that were passed to the client but could not be recorded."""
        self._base = base
        self._leaf = answers[-1] if answers else base
        self._calls: dict[str, tuple[str, str]] = calls
        self._lock = threading.Lock()

    @classmethod
    def start(cls, path: str | os.PathLike[str], upstream: str, *, after: Player | None = None) -> "Recorder":
        """Record into ``path``: after a replayed path (``after``), or on a new branch from the root."""
        if after is not None:  # the same Session: a v1/v2 file's migrated ids are drawn once
            session = after.session
            calls = _known_calls(step.message for step in after.steps)
            return cls(session, upstream, after.last_entry_id, [s.entry_id for s in after.steps], calls)
        session = Session.open(path) if os.path.exists(path) else Session.create_at(path, cwd=os.getcwd())
        return cls(session, upstream, None, [], {})

    def record(self, api: str, body: Any, raw: bytes, streaming: bool) -> None:
        """Append the inputs of ``body`` and the answer in ``raw`` (an SSE stream when ``streaming``).

        An answer that cannot be read (not JSON, not the API's shape) is not written; it is listed in
        :attr:`errors` instead, since the client already has it and the test decides what that means.
        """
        try:
            answer = _redacted(parse_answer(api, raw, streaming))
        except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError) as error:
            self.errors.append(f"not recorded: the {api} answer could not be read ({type(error).__name__}: {error})")
            return
        turns, tail = split_request(api, body)
        with self._lock:
            parent = self._parent(turns)
            for message in pi_inputs(api, tail, self._calls):
                parent = self.session.append("message", {"message": _redacted(message)}, parent_id=parent)["id"]
            entry = self.session.append("message", {"message": answer}, parent_id=parent)
            self.answers.append(entry["id"])
            self._leaf = entry["id"]
            self._calls.update(_known_calls([answer]))

    def _parent(self, turns: int) -> str | None:
        """Where a request with ``turns`` assistant turns continues: after its last answer on the path."""
        if turns > len(self.answers):
            return self._leaf
        del self.answers[turns:]
        return self.answers[-1] if turns else self._base

    def close(self) -> None:
        self.session.close()


def _known_calls(messages: Any) -> dict[str, tuple[str, str]]:
    """Every spelling of each tool call id an API may send back → ``(pi id, tool name)``."""
    calls: dict[str, tuple[str, str]] = {}
    for message in messages:
        for block in message.get("content") or []:
            if isinstance(block, dict) and block.get("type") == "toolCall":
                pi_id, name = str(block.get("id")), str(block.get("name") or "")
                for spelling in (pi_id, split_call_id(pi_id)[0], anthropic_id(pi_id)):
                    calls[spelling] = (pi_id, name)
    return calls


def _redacted(value: Any, key: str | None = None) -> Any:
    if isinstance(value, str):
        return value if key in _KEPT else redact_secrets(value)
    if isinstance(value, dict):
        return {k: _redacted(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_redacted(v, key) for v in value]
    return value


# -- the answer --------------------------------------------------------------------------------------------------


def parse_answer(api: str, raw: bytes, streaming: bool) -> dict[str, Any]:
    """A provider's answer, plain JSON or its SSE stream, as a pi assistant message."""
    if not streaming:
        data = json.loads(raw)
    elif api == "anthropic":
        data = _anthropic_from_stream(_sse(raw))
    elif api == "chat":
        data = _chat_from_stream(_sse(raw))
    else:
        data = _responses_from_stream(_sse(raw))
    convert = {"anthropic": from_anthropic_response, "chat": from_openai_chat_response,
               "responses": from_openai_responses_output}[api]
    return convert(data)


def _sse(raw: bytes) -> Iterator[dict[str, Any]]:
    """The JSON ``data`` of each event (``[DONE]`` and comments left out)."""
    for block in raw.decode("utf-8").replace("\r\n", "\n").split("\n\n"):
        data = "\n".join(line[5:].lstrip(" ") for line in block.split("\n") if line.startswith("data:"))
        if data and data != "[DONE]":
            yield json.loads(data)


def _anthropic_from_stream(events: Iterator[dict[str, Any]]) -> dict[str, Any]:
    message: dict[str, Any] = {"content": [], "usage": {}}
    blocks: dict[int, dict[str, Any]] = {}
    for event in events:
        kind = event.get("type")
        if kind == "message_start":
            message = dict(event["message"], content=[])
        elif kind == "content_block_start":
            block = dict(event["content_block"])
            if block.get("type") == "tool_use":
                block["_json"] = ""  # the arguments arrive as pieces of JSON text
            blocks[event["index"]] = block
        elif kind == "content_block_delta":
            _anthropic_delta(blocks[event["index"]], event["delta"])
        elif kind == "message_delta":
            message.update({k: v for k, v in event.get("delta", {}).items() if v is not None})
            message["usage"] = {**(message.get("usage") or {}), **(event.get("usage") or {})}
    for block in blocks.values():
        if "_json" in block:
            block["input"] = json.loads(block.pop("_json") or "{}")
    message["content"] = [blocks[i] for i in sorted(blocks)]
    return message


def _anthropic_delta(block: dict[str, Any], delta: dict[str, Any]) -> None:
    kind = delta.get("type")
    if kind == "text_delta":
        block["text"] = block.get("text", "") + delta.get("text", "")
    elif kind == "thinking_delta":
        block["thinking"] = block.get("thinking", "") + delta.get("thinking", "")
    elif kind == "signature_delta":
        block["signature"] = delta.get("signature", "")
    elif kind == "input_json_delta":
        block["_json"] += delta.get("partial_json", "")


def _chat_from_stream(chunks: Iterator[dict[str, Any]]) -> dict[str, Any]:
    completion: dict[str, Any] = {"choices": [], "usage": None}
    message: dict[str, Any] = {"role": "assistant", "content": "", "reasoning_content": ""}
    calls: dict[int, dict[str, Any]] = {}
    finish = None
    for chunk in chunks:
        completion.update(id=chunk.get("id"), model=chunk.get("model"))
        completion["usage"] = chunk.get("usage") or completion["usage"]
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            message["content"] += delta.get("content") or ""
            message["reasoning_content"] += delta.get("reasoning_content") or ""
            for call in delta.get("tool_calls") or []:
                _chat_call_delta(calls.setdefault(call.get("index", 0), {"function": {"arguments": ""}}), call)
            finish = choice.get("finish_reason") or finish
    message["content"] = message["content"] or None
    if calls:
        message["tool_calls"] = [calls[i] for i in sorted(calls)]
    completion["choices"] = [{"index": 0, "message": message, "finish_reason": finish}]
    return completion


def _chat_call_delta(call: dict[str, Any], delta: dict[str, Any]) -> None:
    if delta.get("id"):
        call["id"] = delta["id"]
    function = delta.get("function") or {}
    if function.get("name"):
        call["function"]["name"] = function["name"]
    call["function"]["arguments"] += function.get("arguments") or ""


def _responses_from_stream(events: Iterator[dict[str, Any]]) -> dict[str, Any]:
    response: dict[str, Any] = {}
    done: dict[int, dict[str, Any]] = {}
    for event in events:
        if event.get("type") == "response.output_item.done":
            done[event.get("output_index", len(done))] = event["item"]
        elif isinstance(event.get("response"), dict):
            response = event["response"]
    if not response.get("output") and done:
        response = dict(response, output=[done[i] for i in sorted(done)])
    return response


# -- the inputs --------------------------------------------------------------------------------------------------


def pi_inputs(api: str, tail: list[Any], calls: dict[str, tuple[str, str]]) -> list[dict[str, Any]]:
    """The user messages and tool results of a request's tail as pi messages, in order."""
    reader = {"anthropic": _anthropic_inputs, "chat": _chat_inputs, "responses": _responses_inputs}[api]
    return [message for raw in tail for message in reader(raw, calls)]


def _tool_result(call_id: Any, content: Any, calls: dict[str, tuple[str, str]], is_error: bool = False) -> dict[str, Any]:
    pi_id, name = calls.get(str(call_id), (str(call_id), ""))
    blocks = _blocks(content)
    return {"role": "toolResult", "toolCallId": pi_id, "toolName": name, "content": blocks, "isError": is_error,
            "timestamp": now_ms()}


def _user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content if isinstance(content, str) else _blocks(content), "timestamp": now_ms()}


def _blocks(content: Any) -> list[dict[str, Any]]:
    """Provider content parts (any of the three APIs) as pi text and image blocks."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks: list[dict[str, Any]] = []
    for part in content if isinstance(content, list) else []:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in ("text", "input_text", "output_text"):
            blocks.append({"type": "text", "text": str(part.get("text", ""))})
        elif kind == "image" and isinstance(part.get("source"), dict):
            source = part["source"]
            blocks.append({"type": "image", "data": source.get("data", ""), "mimeType": source.get("media_type", "")})
        elif kind in ("image_url", "input_image"):
            url = part.get("image_url")
            url = url.get("url", "") if isinstance(url, dict) else str(url or "")
            header, _, data = url.partition(",")
            blocks.append({"type": "image", "data": data, "mimeType": header[5:].split(";")[0]})
    return blocks


def _anthropic_inputs(message: Any, calls: dict[str, tuple[str, str]]) -> Iterator[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        yield _user(content)
        return
    others: list[Any] = []
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            if others:
                yield _user(others)
                others = []
            yield _tool_result(block.get("tool_use_id"), block.get("content"), calls, bool(block.get("is_error")))
        else:
            others.append(block)
    if others:
        yield _user(others)


def _chat_inputs(message: Any, calls: dict[str, tuple[str, str]]) -> Iterator[dict[str, Any]]:
    if message.get("role") == "tool":
        yield _tool_result(message.get("tool_call_id"), message.get("content"), calls)
    else:
        yield _user(message.get("content"))


def _responses_inputs(item: Any, calls: dict[str, tuple[str, str]]) -> Iterator[dict[str, Any]]:
    if item.get("type") == "function_call_output":
        yield _tool_result(item.get("call_id"), item.get("output"), calls)
    elif item.get("role") == "user":
        yield _user(item.get("content"))
