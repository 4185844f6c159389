"""Token figures: pi's chars/4 estimate (made script-aware), and the context size pi computes.

pi estimates ``ceil(chars / 4)``. That undercounts Chinese, Japanese and Korean text two to six times (one
CJK character is about one token), so compaction would trigger late; here every CJK character counts as a
token and the rest of the text as pi counts it. pi also ignores images in user messages; here every image
counts as pi counts one in a tool result (1,200 tokens).

The context size is pi's: the last usable assistant message's reported usage (measured) plus estimates of
the messages after it; estimates alone when no usage exists. Usage recorded before the latest compaction
describes a context that no longer exists and is ignored.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import orjson

IMAGE_TOKENS = 1200
_CJK_RUN = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
                      r"\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f]+")


@dataclass
class _Tally:
    chars: int = 0
    cjk: int = 0
    images: int = 0

    def text(self, text: Any) -> None:
        if not isinstance(text, str):
            return
        self.chars += len(text)
        if not text.isascii():
            self.cjk += sum(len(run) for run in _CJK_RUN.findall(text))

    def tokens(self) -> int:
        return math.ceil((self.chars - self.cjk) / 4) + self.cjk + self.images * IMAGE_TOKENS


def text_tokens(text: str) -> int:
    """Estimated tokens of a plain string."""
    tally = _Tally()
    tally.text(text)
    return tally.tokens()


def estimate_tokens(message: Any) -> int:
    """Estimated tokens of one message of any role (0 for what no model ever sees)."""
    if not isinstance(message, dict):
        return 0
    tally = _Tally()
    role = message.get("role")
    if role in ("user", "custom", "toolResult"):
        _content(tally, message.get("content"))
    elif role == "assistant":
        _assistant(tally, message.get("content"))
    elif role == "bashExecution":
        tally.text(message.get("command"))
        tally.text(message.get("output"))
    elif role in ("branchSummary", "compactionSummary"):
        tally.text(message.get("summary"))
    return tally.tokens()


def _content(tally: _Tally, content: Any) -> None:
    if isinstance(content, str):
        tally.text(content)
        return
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            tally.text(block.get("text"))
        elif block.get("type") == "image":
            tally.images += 1


def _assistant(tally: _Tally, content: Any) -> None:
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            tally.text(block.get("text"))
        elif kind == "thinking":
            tally.text(block.get("thinking"))
        elif kind == "toolCall":
            tally.text(block.get("name"))
            tally.text(_compact_json(block.get("arguments")))


def _compact_json(value: Any) -> str:
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return str(value)


# -- context size ---------------------------------------------------------------------------------------------


def calculate_context_tokens(usage: dict) -> int:
    """pi: ``totalTokens``, or the sum of the parts when it is 0 or missing."""
    total = usage.get("totalTokens")
    if isinstance(total, (int, float)) and total:
        return int(total)
    return int(sum(v for k in ("input", "output", "cacheRead", "cacheWrite") if isinstance(v := usage.get(k), (int, float))))


def usable_usage(message: Any) -> dict | None:
    """The usage of an assistant message that completed (not aborted, not an error), or ``None``."""
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return None
    if message.get("stopReason") in ("aborted", "error"):
        return None
    usage = message.get("usage")
    return usage if isinstance(usage, dict) and calculate_context_tokens(usage) > 0 else None


@dataclass(frozen=True)
class ContextTokens:
    """How big a context is, and how much of that figure was measured by the provider."""

    tokens: int
    usage_tokens: int
    """The provider-reported part (0 when nothing was measured)."""
    trailing_tokens: int
    """The estimated part: messages after the last usable usage, or all of them."""
    last_usage_index: int | None

    @property
    def measured(self) -> bool:
        return self.last_usage_index is not None

    def describe(self) -> str:
        """``12,345 tokens (measured 10,000 + estimated 2,345)`` or ``… (estimated)``."""
        if self.measured:
            return f"{self.tokens:,} tokens (measured {self.usage_tokens:,} + estimated {self.trailing_tokens:,})"
        return f"{self.tokens:,} tokens (estimated)"


def estimate_context_tokens(messages: list[dict], *, trust_usage: bool = True) -> ContextTokens:
    """pi's ``estimateContextTokens``, ignoring usage older than a leading compaction summary."""
    index = _last_usage_index(messages) if trust_usage else None
    if index is None:
        estimated = sum(map(estimate_tokens, messages))
        return ContextTokens(estimated, 0, estimated, None)
    measured = calculate_context_tokens(messages[index]["usage"])
    trailing = sum(map(estimate_tokens, messages[index + 1 :]))
    return ContextTokens(measured + trailing, measured, trailing, index)


def _last_usage_index(messages: list[dict]) -> int | None:
    compacted_at = _compaction_time(messages)
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if usable_usage(message) is None:
            continue
        stamp = message.get("timestamp")
        if compacted_at is not None and (not isinstance(stamp, (int, float)) or stamp <= compacted_at):
            return None
        return index
    return None


def _compaction_time(messages: list[dict]) -> int | None:
    first = messages[0] if messages else None
    if isinstance(first, dict) and first.get("role") == "compactionSummary":
        stamp = first.get("timestamp")
        return stamp if isinstance(stamp, (int, float)) else 0
    return None
