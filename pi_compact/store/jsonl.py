"""How one line of a session file is written and read, byte for byte as pi does.

pi writes each line with JavaScript's ``JSON.stringify``: no whitespace, non-ASCII characters raw, explicit
``null`` kept. orjson produces the same bytes for the values a session holds, ten times faster than ``json``.
Timestamps and ids are generated here too, in pi's shapes.
"""

from __future__ import annotations

import math
import os
import time
import uuid
from datetime import datetime, timezone
from typing import Any

import orjson


def dumps_line(obj: Any) -> bytes:
    """One JSONL line, newline included."""
    return orjson.dumps(obj) + b"\n"


def loads(raw: bytes | bytearray | memoryview | str) -> Any:
    """Parse one JSON value; raises ``orjson.JSONDecodeError`` (a ``ValueError``)."""
    return orjson.loads(raw)


def now_iso() -> str:
    """``new Date().toISOString()``: UTC, three millisecond digits, ``Z``."""
    now = datetime.now(timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def now_ms() -> int:
    """``Date.now()``: the Unix time in milliseconds, as message timestamps hold it."""
    return time.time_ns() // 1_000_000


def iso_to_ms(value: Any) -> int | None:
    """``new Date(value).getTime()`` for the values sessions hold; ``None`` where JS would give ``NaN``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return int(value) if math.isfinite(value) and abs(value) <= 8.64e15 else None
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        # ISO date-only strings are UTC in JS; date-time strings without an offset are local time.
        parsed = parsed.replace(tzinfo=timezone.utc) if "T" not in text else parsed.astimezone()
    # Whole seconds first, so float rounding never shifts a millisecond.
    return int(parsed.replace(microsecond=0).timestamp()) * 1000 + parsed.microsecond // 1000


def new_entry_id(taken: "set[str] | dict[str, Any]") -> str:
    """8 lowercase hex characters, unique among ``taken``; pi's scheme, full UUID after 100 collisions."""
    for _ in range(100):
        candidate = uuid.uuid4().hex[:8]
        if candidate not in taken:
            return candidate
    return str(uuid.uuid4())


def new_session_id() -> str:
    """A UUIDv7 (time-ordered), as pi 0.73 uses for session ids."""
    ms = now_ms() & ((1 << 48) - 1)
    rand = int.from_bytes(os.urandom(10), "big")
    value = (ms << 80) | (0x7 << 76) | ((rand >> 62) & 0xFFF) << 64 | (0b10 << 62) | (rand & ((1 << 62) - 1))
    return str(uuid.UUID(int=value))
