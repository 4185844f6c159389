"""Reading the two things almost every module asks of an entry or message, safely on untrusted JSON.

Session files are hand-editable and come from other programs, so a ``content`` may be a string, a list of
blocks, or anything else, and a block's ``text`` may not be a string. These accessors answer for every
shape without raising; they sit at the bottom of the layers (beside :mod:`pi_compact.types`), so the
store, context and compaction modules can all use them.
"""

from __future__ import annotations

from typing import Any


def content_text(content: Any, separator: str = "") -> str:
    """The text of a message's ``content``: a string as it is, or the ``text`` blocks of a list joined by
    ``separator``; anything else (and any block whose text is not a string) contributes nothing."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return separator.join(
        block["text"] for block in content if isinstance(block, dict) and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    )


def message_role(message: Any) -> str | None:
    """A message's ``role`` when it is a string (a role that is an array or object is no role)."""
    role = message.get("role") if isinstance(message, dict) else None
    return role if isinstance(role, str) else None


def entry_role(entry: Any) -> str | None:
    """The role of the message a ``message`` entry holds, or ``None`` for any other entry."""
    if not isinstance(entry, dict) or entry.get("type") != "message":
        return None
    return message_role(entry.get("message"))


SYNTHETIC_MODEL = "<synthetic>"
"""The model a harness names on an assistant message it wrote itself (Claude Code: "No response requested." for a
turn no model answered, an API error's text)."""


def synthetic(message: Any) -> bool:
    """An assistant message the harness wrote, not a model: no answer of the agent's."""
    return isinstance(message, dict) and message.get("model") == SYNTHETIC_MODEL


def placeholder(message: Any) -> bool:
    """A message the harness wrote in place of an answer that says nothing ("No response requested."): a
    :func:`synthetic` one that reports no error (an API error or a usage limit the harness writes is a failure met)."""
    return synthetic(message) and message.get("stopReason") != "error" and not message.get("errorMessage")


def json_strings(value: Any) -> list[str]:
    """Every string inside a JSON value (a tool call's arguments, say), in document order. Walked with a stack, not
    recursion: a session file may nest values deeper than Python's recursion limit."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found
