"""LangChain: a pi session file as a ``BaseChatMessageHistory``, and conversions between the two message kinds.

:class:`PiChatMessageHistory` reads the active branch's context (what pi would send after its last
compaction) as LangChain messages and appends new ones at the leaf; ``clear`` starts a new branch and keeps
the old one in the file. The mapping, both ways:

=====================  ===========================================================================
pi                     LangChain
=====================  ===========================================================================
user                   ``HumanMessage`` (text, and ``image`` blocks with ``base64``/``mime_type``)
assistant              ``AIMessage``: text, ``reasoning`` blocks (signature in ``extras``),
                       ``tool_calls``, ``usage_metadata``; model, provider and pi's own fields in
                       ``response_metadata``
toolResult             ``ToolMessage`` (``status="error"`` for a failed call)
compactionSummary      ``SystemMessage`` with pi's summary text (always first in a context)
branchSummary, custom, ``HumanMessage`` with the text pi sends the model
bashExecution
``SystemMessage`` in   a ``custom_message`` entry (:data:`SYSTEM_TYPE`), which pi sends as user text
=====================  ===========================================================================

``messages`` repairs tool pairs as every provider request must be (a call without a result gets a
placeholder result), so the list can go straight to a chat model.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

try:
    from langchain_core.chat_history import BaseChatMessageHistory
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
except ImportError as exc:  # pragma: no cover - exercised without the extra installed
    raise ImportError(
        "pi_compact.adapters.langchain needs the langchain-core package: pip install 'pi-compact[langchain]'"
    ) from exc

from ..accessors import content_text
from ..session import Session
from ..store.jsonl import now_ms
from ._common import model_view, move_to, open_session

SYSTEM_TYPE = "langchain/system"
"""``customType`` of the ``custom_message`` entry that stores a ``SystemMessage`` added to the history."""


class PiChatMessageHistory(BaseChatMessageHistory):
    """A LangChain chat history over a pi session file (or any :class:`~pi_compact.Session`).

    ``model`` and ``provider`` are recorded on assistant messages whose ``response_metadata`` does not name
    them.
    """

    def __init__(self, session: Session | str | os.PathLike, *, model: str = "", provider: str = "") -> None:
        self.session = open_session(session)
        self.model = model
        self.provider = provider

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The active branch's context as LangChain messages."""
        return to_langchain_messages(self.session.build_context().messages)

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Append the messages at the leaf, in order."""
        for message in messages:
            if isinstance(message, SystemMessage):
                self.session.append_custom_message(SYSTEM_TYPE, _content(message.content), False)
                continue
            [converted] = from_langchain_messages([message], model=self.model, provider=self.provider,
                                                  calls=self._call_names())
            self.session.append_message(converted)

    def clear(self) -> None:
        """Start a new, empty branch; the old one stays in the file."""
        if self.session.leaf_id is not None:
            move_to(self.session, None)

    def close(self) -> None:
        self.session.close()

    def _call_names(self) -> dict[str, str]:
        """Tool-call id → tool name in the context, for ``ToolMessage``s that do not repeat the name."""
        return {b["id"]: b.get("name", "") for m in self.session.build_context().messages if m.get("role") == "assistant"
                for b in m.get("content") or [] if isinstance(b, dict) and b.get("type") == "toolCall"}


# -- pi → LangChain -------------------------------------------------------------------------------------------


def to_langchain_messages(messages: list[dict]) -> list[BaseMessage]:
    """pi context messages as LangChain messages, tool pairs repaired (see the module docstring)."""
    return [_to_langchain(original, sent) for original, sent in model_view(messages)]


def _to_langchain(original: dict | None, sent: dict) -> BaseMessage:
    if original is not None and (original.get("role") == "compactionSummary" or _is_system(original)):
        return SystemMessage(content=content_text(sent["content"], "\n"))
    if sent["role"] == "assistant":
        return _ai_message(sent)
    if sent["role"] == "toolResult":
        return ToolMessage(content=_lc_content(sent.get("content")), tool_call_id=str(sent.get("toolCallId")),
                           name=sent.get("toolName"), status="error" if sent.get("isError") else "success")
    return HumanMessage(content=_lc_content(sent.get("content")))


def _ai_message(message: dict) -> AIMessage:
    blocks = [b for b in message.get("content") or [] if isinstance(b, dict)]
    parts = [p for p in map(_lc_block, blocks) if p is not None]
    content: Any = parts[0]["text"] if len(parts) == 1 and parts[0]["type"] == "text" else parts
    calls = [{"name": b.get("name", ""), "args": b.get("arguments") or {}, "id": b.get("id"), "type": "tool_call"}
             for b in blocks if b.get("type") == "toolCall"]
    pi = {k: message[k] for k in ("api", "stopReason", "usage", "responseId", "timestamp") if k in message}
    metadata = {"model_name": message.get("model", ""), "model_provider": message.get("provider", ""), "pi": pi}
    usage = message.get("usage") or {}
    tokens = {"input_tokens": int(usage.get("input") or 0), "output_tokens": int(usage.get("output") or 0)}
    tokens["total_tokens"] = tokens["input_tokens"] + tokens["output_tokens"]
    return AIMessage(content=content, tool_calls=calls, response_metadata=metadata, usage_metadata=tokens)


def _is_system(message: dict) -> bool:
    return message.get("role") == "custom" and message.get("customType") == SYSTEM_TYPE


def _lc_block(block: dict) -> dict | None:
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": block.get("text", "")}
    if kind == "image":
        return {"type": "image", "base64": block.get("data", ""), "mime_type": block.get("mimeType", "image/png")}
    if kind == "thinking":
        extras = {k: block[k] for k in ("thinkingSignature", "redacted") if k in block}
        return {"type": "reasoning", "reasoning": block.get("thinking", ""), **({"extras": extras} if extras else {})}
    return None


def _lc_content(content: Any) -> Any:
    if isinstance(content, str):
        return content
    parts = [p for p in map(_lc_block, [b for b in content or [] if isinstance(b, dict)]) if p is not None]
    return parts[0]["text"] if len(parts) == 1 and parts[0]["type"] == "text" else parts


# -- LangChain → pi -------------------------------------------------------------------------------------------


def from_langchain_messages(
    messages: Sequence[BaseMessage], *, model: str = "", provider: str = "", calls: dict[str, str] | None = None
) -> list[dict]:
    """LangChain messages as pi messages (``HumanMessage``, ``AIMessage`` and ``ToolMessage``).

    ``calls`` (tool-call id → tool name) names the tool of a ``ToolMessage`` without a ``name``; calls made in
    ``messages`` are found there. A ``SystemMessage`` or any other kind raises :class:`ValueError`: pi has no
    such message (:class:`PiChatMessageHistory` stores system messages as custom entries).
    """
    names = dict(calls or {})
    converted = []
    for message in messages:
        if isinstance(message, AIMessage):
            converted.append(_assistant(message, model, provider))
            names.update({c["id"]: c["name"] for c in message.tool_calls if c.get("id")})
        elif isinstance(message, ToolMessage):
            converted.append(_tool_result(message, names))
        elif isinstance(message, HumanMessage):
            converted.append({"role": "user", "content": _content(message.content), "timestamp": now_ms()})
        else:
            raise ValueError(f"pi has no message for a LangChain {type(message).__name__}")
    return converted


def _assistant(message: AIMessage, model: str, provider: str) -> dict:
    metadata = message.response_metadata or {}
    pi = metadata.get("pi") if isinstance(metadata.get("pi"), dict) else {}
    # v1-format content repeats the tool calls as blocks; they are taken from ``tool_calls`` instead
    parts = message.content if isinstance(message.content, str) else [
        p for p in message.content if not (isinstance(p, dict) and p.get("type") == "tool_call")]
    content = _content(parts)
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    blocks = [b for b in blocks if b.get("type") != "text" or b.get("text")]
    blocks += [{"type": "toolCall", "id": c.get("id") or "", "name": c["name"], "arguments": c.get("args") or {}}
               for c in message.tool_calls]
    usage = pi.get("usage") or _usage(message.usage_metadata)
    return {
        "role": "assistant",
        "content": blocks,
        "api": pi.get("api", "langchain"),
        "provider": metadata.get("model_provider") or provider,
        "model": metadata.get("model_name") or metadata.get("model") or model,
        **({"responseId": pi["responseId"]} if "responseId" in pi else {}),
        "usage": usage,
        "stopReason": pi.get("stopReason", "toolUse" if message.tool_calls else "stop"),
        "timestamp": pi.get("timestamp", now_ms()),
    }


def _usage(tokens: Any) -> dict:
    tokens = tokens or {}
    used = [int(tokens.get("input_tokens") or 0), int(tokens.get("output_tokens") or 0)]
    return {"input": used[0], "output": used[1], "cacheRead": 0, "cacheWrite": 0, "totalTokens": sum(used),
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}


def _tool_result(message: ToolMessage, names: dict[str, str]) -> dict:
    content = _content(message.content)
    return {
        "role": "toolResult",
        "toolCallId": message.tool_call_id,
        "toolName": message.name or names.get(message.tool_call_id, ""),
        "content": [{"type": "text", "text": content}] if isinstance(content, str) else content,
        "isError": message.status == "error",
        "timestamp": now_ms(),
    }


def _content(content: Any) -> str | list[dict]:
    """LangChain content (a string, or strings and blocks) as pi content."""
    if isinstance(content, str):
        return content
    return [_pi_block(part) for part in content]


def _pi_block(part: Any) -> dict:
    if isinstance(part, str):
        return {"type": "text", "text": part}
    kind = part.get("type")
    if kind == "text":
        return {"type": "text", "text": part.get("text", "")}
    if kind == "reasoning":
        extras = part.get("extras") or {}
        signature = extras.get("thinkingSignature") or extras.get("signature")
        return {"type": "thinking", "thinking": part.get("reasoning", ""),
                **({"thinkingSignature": signature} if signature else {}),
                **({"redacted": True} if extras.get("redacted") else {})}
    if kind == "thinking":  # langchain-anthropic's own block
        return {"type": "thinking", "thinking": part.get("thinking", ""), "thinkingSignature": part.get("signature", "")}
    if kind == "image" and (part.get("base64") or part.get("data")):
        return {"type": "image", "data": part.get("base64") or part["data"], "mimeType": part.get("mime_type", "image/png")}
    if kind == "image_url" and str((part.get("image_url") or {}).get("url", "")).startswith("data:"):
        header, _, data = part["image_url"]["url"].partition(",")
        return {"type": "image", "data": data, "mimeType": header[5:].split(";")[0]}
    raise ValueError(f"pi has no content block for a LangChain {kind!r} block")


__all__ = ["SYSTEM_TYPE", "PiChatMessageHistory", "from_langchain_messages", "to_langchain_messages"]
