"""pydantic-ai: ``ModelMessage`` lists to and from pi messages, and a history processor that compacts them.

:class:`PiHistoryProcessor` mirrors the agent's history into a pi session (in memory unless one is given)
and, when the context passes ``window - reserveTokens``, runs pi-compact's compaction pipeline on the mirror.
The history it then returns is the compacted context: the summary first (after the system prompt), then the
kept messages — the agent's own ``ModelMessage`` objects, untouched, wherever the mirror kept one whole.
pydantic-ai stores what a history processor returns, so the next request continues from there.

    >>> agent = Agent(model, capabilities=[ProcessHistory(pi_history_processor(window=128_000))])  # doctest: +SKIP

The mapping: ``UserPromptPart`` ↔ user (text and images; other files become a ``[kind: url]`` text),
``ToolReturnPart`` ↔ toolResult (an outcome other than success is an error), a retry prompt → user text,
``ModelResponse`` ↔ assistant (text, thinking with its signature, tool calls, usage, model and provider),
``SystemPromptPart`` ↔ a ``custom`` message (:data:`SYSTEM_PROMPT_TYPE`). Parts that only carry pydantic-ai's
own state (instruction deltas, hosted-tool calls, files a model returned) have no pi message and are left out.
"""

from __future__ import annotations

import base64
import dataclasses
from datetime import datetime, timezone
from typing import Any

try:
    from pydantic_ai.messages import (
        BinaryContent,
        ModelMessage,
        ModelRequest,
        ModelResponse,
        SystemPromptPart,
        TextPart,
        ThinkingPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )
    from pydantic_ai.usage import RequestUsage
except ImportError as exc:  # pragma: no cover - exercised without the extra installed
    raise ImportError(
        "pi_compact.adapters.pydantic_ai needs the pydantic-ai-slim package: pip install 'pi-compact[pydantic-ai]'"
    ) from exc

from ..accessors import content_text
from ..compaction import AutoCompactor, CompactionResult, CompactionSettings, Summarizer
from ..session import Session
from ._common import context_sources, model_view

SYSTEM_PROMPT_TYPE = "pydantic-ai/system-prompt"
"""``customType`` of the pi message that holds a ``SystemPromptPart``."""
API = "pydantic-ai"
"""The ``api`` recorded on assistant messages (pydantic-ai does not say which wire API a model used)."""
_STOP = {"tool_call": "toolUse", "length": "length", "error": "error"}
_FINISH = {"toolUse": "tool_call", "length": "length", "error": "error"}


# -- pydantic-ai → pi ---------------------------------------------------------------------------------------------


def to_pi_messages(messages: list[ModelMessage]) -> list[dict]:
    """pydantic-ai messages as pi messages, in order (see the module docstring for the mapping)."""
    return [converted for message in messages for _, converted in _pi_pieces(message)]


def _pi_pieces(message: ModelMessage) -> list[tuple[int | None, dict]]:
    """``(part index, pi message)`` for a request's parts; ``(None, assistant)`` for a response."""
    if isinstance(message, ModelResponse):
        return [(None, _assistant(message))]
    pieces = ((index, _request_part(part)) for index, part in enumerate(message.parts))
    return [(index, converted) for index, converted in pieces if converted is not None]


def _request_part(part: Any) -> dict | None:
    stamp = _ms(getattr(part, "timestamp", None))
    if isinstance(part, SystemPromptPart):
        return {"role": "custom", "customType": SYSTEM_PROMPT_TYPE, "content": part.content, "display": False,
                "timestamp": stamp}
    if isinstance(part, UserPromptPart):
        content = part.content if isinstance(part.content, str) else [_user_block(c) for c in part.content]
        return {"role": "user", "content": content, "timestamp": stamp}
    if isinstance(part, ToolReturnPart):
        return {"role": "toolResult", "toolCallId": part.tool_call_id, "toolName": part.tool_name,
                "content": [{"type": "text", "text": part.model_response_str()}],
                "isError": part.outcome != "success", "timestamp": stamp}
    if getattr(part, "part_kind", None) in ("retry-prompt", "retry-feedback"):
        return {"role": "user", "content": [{"type": "text", "text": part.model_response()}], "timestamp": stamp}
    return None


def _user_block(item: Any) -> dict:
    if isinstance(item, str):
        return {"type": "text", "text": item}
    if isinstance(item, BinaryContent) and item.is_image:
        return {"type": "image", "data": item.base64, "mimeType": item.media_type}
    if getattr(item, "kind", None) == "image-url" and item.url.startswith("data:"):
        header, _, data = item.url.partition(",")
        return {"type": "image", "data": data, "mimeType": header[5:].split(";")[0]}
    where = getattr(item, "url", None) or getattr(item, "media_type", None) or ""
    return {"type": "text", "text": f"[{getattr(item, 'kind', type(item).__name__)}: {where}]"}


def _assistant(response: ModelResponse) -> dict:
    content: list[dict] = []
    for part in response.parts:
        if isinstance(part, TextPart):
            content.append({"type": "text", "text": part.content})
        elif isinstance(part, ThinkingPart):
            signature = {"thinkingSignature": part.signature} if part.signature else {}
            content.append({"type": "thinking", "thinking": part.content, **signature})
        elif isinstance(part, ToolCallPart):
            content.append({"type": "toolCall", "id": part.tool_call_id, "name": part.tool_name,
                            "arguments": part.args_as_dict()})
    usage = response.usage
    calls = any(block["type"] == "toolCall" for block in content)
    stop = _STOP.get(response.finish_reason or "", "toolUse" if calls else "stop")
    message = {"role": "assistant", "content": content, "api": API, "provider": response.provider_name or "",
               "model": response.model_name or ""}
    if response.provider_response_id:
        message["responseId"] = response.provider_response_id
    message.update({"usage": _usage(usage), "stopReason": stop, "timestamp": _ms(response.timestamp)})
    return message


def _usage(usage: RequestUsage) -> dict:
    parts = [usage.input_tokens, usage.output_tokens, usage.cache_read_tokens, usage.cache_write_tokens]
    return {"input": parts[0], "output": parts[1], "cacheRead": parts[2], "cacheWrite": parts[3],
            "totalTokens": parts[0] + parts[1], "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0,
                                                          "total": 0}}


def _ms(stamp: datetime | None) -> int:
    moment = stamp or datetime.now(timezone.utc)
    return int(moment.timestamp() * 1000)


# -- pi → pydantic-ai ---------------------------------------------------------------------------------------------


def from_pi_messages(messages: list[dict]) -> list[ModelMessage]:
    """pi messages as a pydantic-ai history a model can be sent: consecutive request parts share a request.

    Summaries, bash runs and custom messages become user text (pi's ``convertToLlm``), tool pairs are
    repaired, and a ``custom`` message of :data:`SYSTEM_PROMPT_TYPE` becomes a ``SystemPromptPart`` again.
    """
    history: list[ModelMessage] = []
    parts: list[Any] = []
    for original, sent in model_view(messages):
        if sent["role"] == "assistant":
            if parts:
                history.append(ModelRequest(parts=parts))
                parts = []
            history.append(_response(sent))
        else:
            parts.append(_part(original, sent))
    if parts:
        history.append(ModelRequest(parts=parts))
    return history


def _part(original: dict | None, sent: dict) -> Any:
    stamp = _datetime(sent.get("timestamp"))
    if original is not None and original.get("role") == "custom" and original.get("customType") == SYSTEM_PROMPT_TYPE:
        return SystemPromptPart(content_text(sent.get("content"), "\n"), timestamp=stamp)
    if sent["role"] == "toolResult":
        outcome = "failed" if sent.get("isError") else "success"
        return ToolReturnPart(sent.get("toolName") or "", content_text(sent.get("content"), "\n"), str(sent.get("toolCallId")),
                              timestamp=stamp, outcome=outcome)
    content = sent.get("content")
    if not isinstance(content, str):
        blocks = [b for b in content or [] if isinstance(b, dict) and b.get("type") in ("text", "image")]
        content = content_text(blocks, "\n") if all(b["type"] == "text" for b in blocks) else [_user_content(b) for b in blocks]
    return UserPromptPart(content, timestamp=stamp)


def _user_content(block: dict) -> Any:
    if block["type"] == "text":
        return block.get("text", "")
    return BinaryContent(base64.b64decode(block.get("data", "")), media_type=block.get("mimeType", "image/png"))


def _response(message: dict) -> ModelResponse:
    parts: list[Any] = []
    for block in message.get("content") or []:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            parts.append(TextPart(block.get("text", "")))
        elif kind == "thinking":
            parts.append(ThinkingPart(block.get("thinking", ""), signature=block.get("thinkingSignature")))
        elif kind == "toolCall":
            parts.append(ToolCallPart(block.get("name", ""), block.get("arguments") or {}, str(block.get("id"))))
    usage = message.get("usage") or {}
    tokens = RequestUsage(input_tokens=int(usage.get("input") or 0), output_tokens=int(usage.get("output") or 0),
                          cache_read_tokens=int(usage.get("cacheRead") or 0),
                          cache_write_tokens=int(usage.get("cacheWrite") or 0))
    return ModelResponse(parts=parts, usage=tokens, model_name=message.get("model") or None,
                         timestamp=_datetime(message.get("timestamp")), provider_name=message.get("provider") or None,
                         provider_response_id=message.get("responseId"),
                         finish_reason=_FINISH.get(message.get("stopReason", ""), "stop"))


def _datetime(ms: Any) -> datetime:
    if isinstance(ms, (int, float)):
        return datetime.fromtimestamp(ms / 1000, timezone.utc)
    return datetime.now(timezone.utc)


# -- the history processor ------------------------------------------------------------------------------------------


class PiHistoryProcessor:
    """A pydantic-ai history processor that compacts the history with pi-compact's pipeline.

    Use it as ``Agent(..., capabilities=[ProcessHistory(processor)])``. ``session`` is the mirror (a new
    in-memory session by default; pass a file-backed one to keep a pi-format record of the conversation).
    After a compaction :attr:`last_compaction` says what was done.
    """

    def __init__(
        self,
        *,
        window: int,
        settings: CompactionSettings | None = None,
        summarizer: Summarizer | None = None,
        session: Session | None = None,
    ) -> None:
        self.session = session if session is not None else Session.in_memory()
        self.compactor = AutoCompactor(window=window, settings=settings or CompactionSettings(), summarizer=summarizer)
        self.last_compaction: CompactionResult | None = None
        self._origin: dict[str, tuple[ModelMessage, int | None]] = {}
        """Entry id → the pydantic-ai message (and request part) it mirrors."""
        self._system: list[Any] = []
        self._seen: list[ModelMessage] = []

    def __call__(self, messages: list[ModelMessage]) -> list[ModelMessage]:
        for message in self._new(messages):
            self._mirror(message)
        result = self.compactor.ensure_fits(self.session, reason="pydantic-ai")
        if result is not None:
            self.last_compaction = result
            messages = self._rebuild(messages[-1])
        self._seen = list(messages)
        return messages

    def _new(self, messages: list[ModelMessage]) -> list[ModelMessage]:
        """What was added since the last call; a history that does not continue ours starts a new branch."""
        seen = self._seen
        if len(messages) >= len(seen) and all(a is b or a == b for a, b in zip(messages, seen)):
            return messages[len(seen):]
        self.session.move_leaf(None)
        self._system = []
        return messages

    def _mirror(self, message: ModelMessage) -> None:
        if isinstance(message, ModelRequest):
            self._system += [part for part in message.parts if isinstance(part, SystemPromptPart)]
        for index, converted in _pi_pieces(message):
            if converted.get("customType") != SYSTEM_PROMPT_TYPE:
                entry = self.session.append_message(converted)
                self._origin[entry["id"]] = (message, index)

    def _rebuild(self, current: ModelMessage) -> list[ModelMessage]:
        """The compacted context as pydantic-ai messages, the agent's own objects wherever possible."""
        history: list[ModelMessage] = []
        parts: list[Any] = list(self._system)
        template: ModelRequest | None = None
        for entry, message in context_sources(self.session.branch()):
            origin, index = self._origin.get(entry["id"], (None, None))
            if isinstance(origin, ModelResponse):
                history += _request(parts, template)
                parts, template = [], None
                history.append(origin)
            elif isinstance(origin, ModelRequest) and index is not None:
                parts.append(origin.parts[index])
                template = origin
            else:
                for converted in from_pi_messages([message]):
                    parts += converted.parts if isinstance(converted, ModelRequest) else []
        history += _request(parts, template)
        if not history or not isinstance(history[-1], ModelRequest):
            history.append(current)  # pydantic-ai sends a history that ends in a request
        return history


def _request(parts: list[Any], template: ModelRequest | None) -> list[ModelMessage]:
    """One request of ``parts``: the original itself when it is whole, else a copy holding just these parts."""
    if not parts:
        return []
    if template is None:
        return [ModelRequest(parts=parts)]
    whole = [p for p in template.parts if _request_part(p) is not None]
    return [template if parts == whole else dataclasses.replace(template, parts=parts)]


def pi_history_processor(
    *, window: int, settings: CompactionSettings | None = None, summarizer: Summarizer | None = None,
    session: Session | None = None,
) -> PiHistoryProcessor:
    """A :class:`PiHistoryProcessor` (the spelling pydantic-ai's own examples use for processors)."""
    return PiHistoryProcessor(window=window, settings=settings, summarizer=summarizer, session=session)


__all__ = ["API", "SYSTEM_PROMPT_TYPE", "PiHistoryProcessor", "from_pi_messages", "pi_history_processor",
           "to_pi_messages"]
