"""Stage 1 of compaction: a condensed transcript, made without any model.

Most of an old context is tool output the agent has already acted on: a 45,000-character file it read, the full
log of a test run. What it still needs is the skeleton (what was asked, what was done, how each step ended), so
:func:`condense` keeps user messages verbatim, trims assistant text to its head and tail, writes every tool call
on one line with long arguments shortened inside the parsed JSON, and every tool result as a one-line brief with
its first error line.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from ..accessors import content_text
from .offline.facts import (EDIT_TOOLS, READ_TOOLS, WRITE_TOOLS, exit_status, failure_line, message_dicts,
                    output_body, shell_command, tool_path)

USER_HEAD, USER_TAIL = 3000, 1000
"""A user message longer than their sum keeps this many characters of its head and its tail."""
_CUSTOM_LIMIT = 500
_INLINE_OUTPUT = 160
_LABEL_LIMIT = 120
_MAX_ITEMS = 20
_MAX_DEPTH = 12


def clip(text: str, head: int, tail: int) -> str:
    """``text`` if it is at most ``head + tail`` characters long, else its head and tail around a marker."""
    if len(text) <= head + tail:
        return text
    cut = len(text) - head - tail
    return f"{text[:head]}\n[… {cut:,} characters omitted …]\n{text[len(text) - tail:] if tail else ''}"


def shorten(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters, keeping head and tail on one line."""
    if len(text) <= limit:
        return text
    head, tail = max(1, limit * 2 // 3), max(0, limit // 3)
    return f"{text[:head]}…[+{len(text) - head - tail:,} chars]…{text[len(text) - tail:] if tail else ''}"


def shorten_value(value: Any, limit: int, depth: int = 0) -> Any:
    """A JSON value with every long string shortened, long lists and objects cut: still valid JSON."""
    if isinstance(value, str):
        return shorten(value, limit)
    if isinstance(value, bool) or value is None or isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if depth >= _MAX_DEPTH:
        return "…"
    if isinstance(value, dict):
        items = list(value.items())
        short = {str(k): shorten_value(v, limit, depth + 1) for k, v in items[:_MAX_ITEMS]}
        if len(items) > _MAX_ITEMS:
            short["…"] = f"{len(items) - _MAX_ITEMS} more keys"
        return short
    if isinstance(value, (list, tuple)):
        short_list = [shorten_value(v, limit, depth + 1) for v in value[:_MAX_ITEMS]]
        if len(value) > _MAX_ITEMS:
            short_list.append(f"… {len(value) - _MAX_ITEMS} more items")
        return short_list
    return shorten(str(value), limit)


def format_call(name: str, arguments: Any, arg_limit: int) -> str:
    """``name(k1=<json>, k2=<json>)`` as pi writes tool calls, each long string shortened inside the JSON."""
    if isinstance(arguments, str):
        try:
            arguments = orjson.loads(arguments)  # not json: its recursion would crash on arguments nested deep
        except ValueError:
            pass
    if not isinstance(arguments, dict):
        return f"{name}({_json(shorten_value(arguments, arg_limit))})" if arguments is not None else f"{name}()"
    short = shorten_value(arguments, arg_limit)
    return f"{name}({', '.join(f'{k}={_json(v)}' for k, v in short.items())})"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def command_label(command: str, limit: int = _LABEL_LIMIT) -> str:
    """A command's first line, cut to ``limit`` characters (``…`` marks what was left out)."""
    stripped = command.strip()
    line = stripped.split("\n", 1)[0]
    if len(line) > limit:
        return line[: limit - 1] + "…"
    return line + (" …" if len(line) < len(stripped) else "")


def line_count(text: str) -> int:
    return text.count("\n") + 1 if text else 0


@dataclass
class _Call:
    name: str
    arguments: Any


class _Condenser:
    def __init__(self, text_head: int, text_tail: int, arg_limit: int) -> None:
        self.head, self.tail, self.arg_limit = text_head, text_tail, arg_limit
        self.calls: dict[str, _Call] = {}
        self.seen: set[tuple[str, str, str]] = set()
        self.lines: list[str] = []

    def add(self, message: dict) -> None:
        handler = _HANDLERS.get(message.get("role"))  # type: ignore[arg-type]
        if handler is not None:
            handler(self, message)

    def _user(self, message: dict) -> None:
        text = clip(content_text(message.get("content")), USER_HEAD, USER_TAIL)
        text += " [image omitted]" * _images(message.get("content"))
        if text.strip():
            self.lines.append(f"[User]: {text.strip()}")

    def _assistant(self, message: dict) -> None:
        content = message.get("content") if isinstance(message.get("content"), list) else []
        blocks = [b for b in content if isinstance(b, dict)]
        text = content_text(blocks, "\n")
        if text.strip():
            self.lines.append(f"[Assistant]: {clip(text.strip(), self.head, self.tail)}")
        for block in blocks:
            if block.get("type") == "toolCall":
                self._call(block)
        if message.get("stopReason") == "error" and isinstance(message.get("errorMessage"), str):
            self.lines.append(f"[Assistant error]: {shorten(message['errorMessage'], 300)}")

    def _call(self, block: dict) -> None:
        name = block.get("name") if isinstance(block.get("name"), str) else "tool"
        call_id = block.get("id")
        self.calls[call_id if isinstance(call_id, str) else f"#{len(self.calls)}"] = _Call(name, block.get("arguments"))
        self.lines.append(f"[Assistant tool call]: {format_call(name, block.get('arguments'), self.arg_limit)}")

    def _pair(self, message: dict) -> _Call | None:
        call_id = message.get("toolCallId")
        if isinstance(call_id, str) and call_id in self.calls:
            return self.calls.pop(call_id)
        for key in reversed(self.calls):
            if self.calls[key].name == message.get("toolName"):
                return self.calls.pop(key)
        return None

    def _tool_result(self, message: dict) -> None:
        call = self._pair(message)
        tool_name = message.get("toolName") if isinstance(message.get("toolName"), str) else "tool"
        name = call.name if call else tool_name
        arguments = call.arguments if call else None
        text = content_text(message.get("content"))
        key = (name, _json_key(arguments), text)
        duplicate = key in self.seen
        self.seen.add(key)
        brief = tool_brief(name, arguments, message, text, duplicate)
        self.lines.append(f"[Tool result]: {brief}" + " [image omitted]" * _images(message.get("content")))

    def _bash_execution(self, message: dict) -> None:
        if message.get("excludeFromContext"):
            return
        command = message.get("command") if isinstance(message.get("command"), str) else ""
        output = message.get("output") if isinstance(message.get("output"), str) else ""
        code = message.get("exitCode")
        code = code if isinstance(code, int) and not isinstance(code, bool) else None
        status = "cancelled" if message.get("cancelled") else f"exit {code}" if code is not None else "done"
        failed = bool(message.get("cancelled")) or (code is not None and code != 0)
        self.lines.append(f"[User bash]: {_shell_brief(command, status, output, failed, False)}")

    def _custom(self, message: dict) -> None:
        kind = message.get("customType") if isinstance(message.get("customType"), str) else "custom"
        text = clip(content_text(message.get("content")).strip(), _CUSTOM_LIMIT * 2 // 3, _CUSTOM_LIMIT // 3)
        self.lines.append(f"[Custom {kind}]: {text}".rstrip())

    def _summary(self, message: dict) -> None:
        summary = message.get("summary")
        tag = "Branch summary" if message.get("role") == "branchSummary" else "Previous summary"
        if isinstance(summary, str) and summary.strip():
            self.lines.append(f"[{tag}]: {summary.strip()}")


_HANDLERS = {
    "user": _Condenser._user,
    "assistant": _Condenser._assistant,
    "toolResult": _Condenser._tool_result,
    "bashExecution": _Condenser._bash_execution,
    "custom": _Condenser._custom,
    "branchSummary": _Condenser._summary,
    "compactionSummary": _Condenser._summary,
}


def tool_brief(name: str, arguments: Any, message: dict, text: str, duplicate: bool = False) -> str:
    """One line saying what a tool call did and how it ended: ``[read] src/app.py → 45,210 chars``."""
    command = shell_command(name, arguments)
    code, failed = exit_status(message, text, shell=command is not None)
    lowered = name.lower()
    if command is not None:
        status = f"exit {code}" if code is not None else "failed" if failed else "done"
        return _shell_brief(command, status, text, failed, duplicate, name)
    target = tool_path(arguments) or _first_string(arguments)
    label = f"[{name}] {shorten(target, _LABEL_LIMIT)}".rstrip()
    if failed:
        error = failure_line(text, shell=False)
        outcome = f"error: {error}" if error else "error"
    elif lowered in READ_TOOLS:
        outcome = f"{len(text):,} chars"
    elif lowered in WRITE_TOOLS or lowered in EDIT_TOOLS:
        outcome = "ok"
    else:
        outcome = _inline(text) if not duplicate and _inline(text) else f"{line_count(text.rstrip())} lines"
    return f"{label} → {outcome}" + (" (same output as before)" if duplicate else "")


def _shell_brief(command: str, status: str, output: str, failed: bool, duplicate: bool, tool: str = "") -> str:
    body = output_body(output)
    prefix = f"[{tool}] " if tool else ""
    brief = f'{prefix}"{command_label(command)}" → {status}'
    if duplicate:
        return f"{brief}, {line_count(body)} lines (same output as before)"
    error = failure_line(body, shell=True) if failed else ""
    if error:
        return f"{brief}, {line_count(body)} lines — {error}"
    inline = _inline(body)
    return f"{brief}: {inline}" if inline else f"{brief}, {line_count(body)} lines"


def _inline(text: str) -> str:
    """Short single-line output, worth more than a line count."""
    stripped = text.strip()
    return stripped if stripped and "\n" not in stripped and len(stripped) <= _INLINE_OUTPUT else ""


def _first_string(arguments: Any) -> str:
    if isinstance(arguments, dict):
        for value in arguments.values():
            if isinstance(value, str) and value.strip():
                return command_label(value)
    return ""


def _json_key(arguments: Any) -> str:
    try:
        return json.dumps(arguments, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return repr(arguments)


def _images(content: Any) -> int:
    if not isinstance(content, list):
        return 0
    return sum(1 for b in content if isinstance(b, dict) and b.get("type") == "image")


def condense(messages: Iterable[Any], *, text_head: int = 800, text_tail: int = 400, arg_limit: int = 200) -> str:
    """The condensed transcript of pi agent messages (any roles), one ``[Role]:``-tagged entry per item.

    User messages are kept verbatim up to :data:`USER_HEAD` + :data:`USER_TAIL` characters; assistant text longer
    than ``text_head + text_tail`` keeps its head and tail; thinking is dropped; string arguments longer than
    ``arg_limit`` are shortened inside the JSON; tool results become one-line briefs; images are omitted.
    Anything that is not a message dict is skipped. Deterministic.
    """
    condenser = _Condenser(max(0, text_head), max(0, text_tail), max(8, arg_limit))
    for message in message_dicts(messages):
        condenser.add(message)
    return "\n".join(condenser.lines)
