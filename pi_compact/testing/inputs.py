"""What a request adds to the conversation: the user messages and tool results after its last assistant turn.

A cassette matches requests on these, whatever API they speak: each request is read as a run of turns
(assistant turns, user messages, tool results), and what follows the last assistant turn is compared, as
:class:`Item` values, with what the recording has before the answer it is about to give. System prompts,
tool definitions and sampling options are left out, so an agent may change them without breaking its
cassettes. Consecutive user texts count as one (an agent may send two pi messages as one, or the reverse).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_ASSISTANT = object()
"""Marks an assistant turn in the run of a request's messages."""


@dataclass(frozen=True)
class Item:
    """One user-side input of a request, as compared: its kind, its text, and the tool call it answers."""

    kind: str
    """``user`` or ``tool``."""
    text: str
    call_id: str | None = None

    def describe(self) -> str:
        return f"the tool result for {self.call_id}" if self.kind == "tool" else "the user message"


def split_request(api: str, body: Any) -> tuple[int, list[Any]]:
    """``(assistant turns, the raw messages or items after the last one)`` of a request body."""
    raw = _raw_messages(api, body)
    turns, tail = 0, []
    previous_assistant = False
    for message in raw:
        if _is_assistant(api, message):
            turns += 0 if previous_assistant else 1
            previous_assistant, tail = True, []
        elif not _is_instruction(message):
            previous_assistant = False
            tail.append(message)
    return turns, tail


def request_items(api: str, body: Any) -> list[Item]:
    """The :class:`Item` values a request adds after its last assistant turn."""
    return merge_user_texts(items_of(api, split_request(api, body)[1]))


def items_of(api: str, messages: list[Any]) -> list[Item]:
    reader = {"anthropic": _anthropic_items, "chat": _chat_items, "responses": _responses_items}[api]
    return [item for message in messages for item in reader(message)]


def merge_user_texts(items: list[Item]) -> list[Item]:
    merged: list[Item] = []
    for item in items:
        if item.kind == "user" and merged and merged[-1].kind == "user":
            merged[-1] = Item("user", merged[-1].text + "\n" + item.text)
        else:
            merged.append(item)
    return merged


def _raw_messages(api: str, body: Any) -> list[Any]:
    if not isinstance(body, dict):
        return []
    if api == "responses":
        given = body.get("input")
        return [{"role": "user", "content": given}] if isinstance(given, str) else list(given or [])
    return list(body.get("messages") or [])


def _is_assistant(api: str, message: Any) -> bool:
    if not isinstance(message, dict):
        return False
    if api == "responses" and message.get("type") in ("reasoning", "function_call"):
        return True
    return message.get("role") == "assistant"


def _is_instruction(message: Any) -> bool:
    return not isinstance(message, dict) or message.get("role") in ("system", "developer")


def _text(content: Any) -> str:
    """Text parts joined by newlines; an image counts as ``[image]``, so a missing image is still a difference."""
    if isinstance(content, str):
        return content
    return "\n".join(_part_texts(content))


def _part_texts(content: Any) -> Iterator[str]:
    for part in content if isinstance(content, list) else []:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in ("text", "input_text", "output_text"):
            yield str(part.get("text", ""))
        elif kind in ("image", "image_url", "input_image"):
            yield "[image]"


def _anthropic_items(message: dict) -> Iterator[Item]:
    content = message.get("content")
    if isinstance(content, str):
        yield Item("user", content)
        return
    texts: list[Any] = []
    for block in content if isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            if texts:
                yield Item("user", _text(texts))
                texts = []
            yield Item("tool", _text(block.get("content")), str(block.get("tool_use_id")))
        else:
            texts.append(block)
    if texts:
        yield Item("user", _text(texts))


def _chat_items(message: dict) -> Iterator[Item]:
    if message.get("role") == "tool":
        yield Item("tool", _text(message.get("content")), str(message.get("tool_call_id")))
    else:
        yield Item("user", _text(message.get("content")))


def _responses_items(item: dict) -> Iterator[Item]:
    if item.get("type") == "function_call_output":
        yield Item("tool", _text(item.get("output")), str(item.get("call_id")))
    elif item.get("role") == "user":
        yield Item("user", _text(item.get("content")))
