"""Token figures: an estimate calibrated per kind of text, and the context size pi computes.

pi estimates ``ceil(chars / 4)``. Against a real Claude tokenizer that is close for English prose, but it
undercounts JSON by an eighth to a third, log lines, hex and Cyrillic by half and base64 almost three
times, while CJK is about one token per character. The window guarantee rests on this figure, and tool
results are mostly JSON, logs and encoded blobs. Here every character costs a weight by its class
(lowercase, uppercase, digit, space, newline, quotes, brackets, other punctuation; non-ASCII text by its
Unicode block, read off the UTF-8 lead byte), fitted on ``bench/token_corpus`` by
``bench/token_corpus/fit.py``: 0.98-1.19 of the real count on every class there, on the half it was
fitted on and on the half it was not. Uppercase letters and digits weigh most because runs of mixed case
and digits (base64, hex, ids, timestamps) split into one- and two-character tokens; the price is that
PascalCase-heavy code (Java, C#, Go) comes out up to 1.6 times high, which only compacts a little early.

The sum is taken in C, since it runs before every request: ``bytes.translate`` maps each byte of the UTF-8
text to its weight in 1/32 token (continuation bytes to 0), and ``zlib.adler32`` started at 0 adds the bytes
up (its low half is the byte sum modulo 65521, so it is read per chunk small enough never to wrap). That is
1.5-5 µs per KB of any text; the former estimate cost nothing on pure ASCII but 30-130 µs per KB on text
with a single non-ASCII character (a regular expression over every character), see ``make bench``.

Images count 1,200 tokens, wherever they are (pi counts them only in tool results).

The context size is pi's: the last usable assistant message's reported usage (measured) plus estimates of
the messages after it; estimates alone when no usage exists. Usage recorded before the latest compaction
describes a context that no longer exists and is ignored.
"""

from __future__ import annotations

import string
import zlib
from dataclasses import dataclass
from typing import Any

import orjson

IMAGE_TOKENS = 1200

# -- per-character weights ------------------------------------------------------------------------------------

UNITS_PER_TOKEN = 32
"""Weights are whole 1/32 tokens, so that each character maps to one byte."""

ASCII_CLASSES: dict[str, str] = {
    "lower": string.ascii_lowercase,
    "upper": string.ascii_uppercase,
    "digit": string.digits,
    "space": " ",
    "tab": "\t",
    "newline": "\n\r",
    "quote": "\"'`",
    "bracket": "{}[]()<>",
    "stop": ".,;:!?",
    "joiner": "/\\|",
    "rule": "-=_*#~",  # drawn lines: a long run of them is one token
    "symbol": "+&%$@^",
}
"""ASCII characters by class; the rest (control characters) are "control"."""

LEAD_BYTE_CLASSES: dict[str, tuple[int, int]] = {
    "latin": (0xC2, 0xCB),  # U+0080-02FF: accented Latin, IPA
    "greek": (0xCC, 0xCF),  # U+0300-03FF: combining marks, Greek
    "cyrillic": (0xD0, 0xD3),  # U+0400-04FF
    "rtl": (0xD4, 0xDF),  # U+0500-07FF: Armenian, Hebrew, Arabic, Syriac
    "indic": (0xE0, 0xE0),  # U+0800-0FFF: Devanagari and the other Indic scripts, Thai, Tibetan
    "u1000": (0xE1, 0xE1),  # U+1000-1FFF: Georgian, Hangul jamo, Vietnamese (Latin Extended Additional)
    "symbols": (0xE2, 0xE2),  # U+2000-2FFF: dashes, quotes, arrows, box drawing, dingbats
    "kana": (0xE3, 0xE3),  # U+3000-3FFF: CJK punctuation, hiragana, katakana
    "han": (0xE4, 0xE9),  # U+4000-9FFF: CJK ideographs
    "hangul": (0xEA, 0xED),  # U+A000-DFFF: Hangul syllables (and Yi, Vai)
    "fullwidth": (0xEE, 0xEF),  # U+E000-FFFF: private use, compatibility, fullwidth forms
    "astral": (0xF0, 0xF4),  # U+10000 and up: emoji, rare ideographs
}
"""Non-ASCII characters by the lead byte of their UTF-8 encoding (continuation bytes weigh nothing)."""

WEIGHTS: dict[str, float] = {
    # tokens per character, fitted by bench/token_corpus/fit.py (multiples of 1/32)
    "lower": 0.21875, "upper": 1.21875, "digit": 0.8125, "space": 0.125, "tab": 0.46875, "newline": 1.125,
    "quote": 0.59375, "bracket": 0.84375, "stop": 0.25, "joiner": 0.28125, "rule": 0.25, "symbol": 0.65625,
    "control": 1, "latin": 1.34375, "greek": 1.28125, "cyrillic": 0.59375, "rtl": 1.1875, "indic": 1.375,
    "u1000": 1.03125, "symbols": 0.875, "kana": 1.03125, "han": 0.9375, "hangul": 1.375, "fullwidth": 1,
    "astral": 2.03125,
}


def byte_classes() -> list[str | None]:
    """The class of each of the 256 byte values of UTF-8 text (``None``: a continuation byte)."""
    classes: list[str | None] = ["control"] * 128 + [None] * 128
    for name, chars in ASCII_CLASSES.items():
        for char in chars:
            classes[ord(char)] = name
    for name, (first, last) in LEAD_BYTE_CLASSES.items():
        classes[first : last + 1] = [name] * (last + 1 - first)
    return classes


def _unit_table(weights: dict[str, float]) -> bytes:
    """Byte value -> its weight in 1/``UNITS_PER_TOKEN`` tokens, as a ``bytes.translate`` table."""
    return bytes(0 if name is None else round(weights[name] * UNITS_PER_TOKEN) for name in byte_classes())


_BYTE_UNITS = _unit_table(WEIGHTS)
# the byte sum is read from adler32's low half, which wraps at 65521
_CHUNK = 65520 // max(1, max(_BYTE_UNITS))


def text_units(text: str) -> int:
    """The weight of a string in 1/``UNITS_PER_TOKEN`` tokens."""
    # encoding ASCII text is a copy; bytes.translate beats str.translate below some 64 KB
    data = text.encode("utf-8", "surrogatepass").translate(_BYTE_UNITS)
    if len(data) <= _CHUNK:
        return zlib.adler32(data, 0) & 0xFFFF
    view = memoryview(data)
    return sum(zlib.adler32(view[start : start + _CHUNK], 0) & 0xFFFF for start in range(0, len(data), _CHUNK))


# -- messages -------------------------------------------------------------------------------------------------


def text_tokens(text: str) -> int:
    """Estimated tokens of a plain string."""
    return -(-text_units(text) // UNITS_PER_TOKEN)


def estimate_tokens(message: Any) -> int:
    """Estimated tokens of one message of any role (0 for what no model ever sees)."""
    if not isinstance(message, dict):
        return 0
    units = images = 0
    role = message.get("role")
    if role in ("user", "custom", "toolResult"):
        units, images = _content_units(message.get("content"))
    elif role == "assistant":
        units = _assistant_units(message.get("content"))
    elif role == "bashExecution":
        units = _units(message.get("command")) + _units(message.get("output"))
    elif role in ("branchSummary", "compactionSummary"):
        units = _units(message.get("summary"))
    return -(-units // UNITS_PER_TOKEN) + images * IMAGE_TOKENS


def _units(text: Any) -> int:
    return text_units(text) if isinstance(text, str) else 0


# A tree view estimates every message of a 100,000-entry file: plain loops and locals, no object per message.
def _content_units(content: Any) -> tuple[int, int]:
    """(units of the text, number of images) of a user, custom or tool result ``content``."""
    if isinstance(content, str):
        return text_units(content), 0
    units = images = 0
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if isinstance(text, str):
                units += text_units(text)
        elif kind == "image":
            images += 1
    return units, images


def _assistant_units(content: Any) -> int:
    units = 0
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            units += _units(block.get("text"))
        elif kind == "thinking":
            units += _units(block.get("thinking"))
        elif kind == "toolCall":
            units += _units(block.get("name")) + text_units(_compact_json(block.get("arguments")))
    return units


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
