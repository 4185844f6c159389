"""How one line of a session file is written and read, byte for byte as pi does.

pi writes each line with JavaScript's ``JSON.stringify``: no whitespace, non-ASCII characters raw, explicit
``null`` kept, numbers in JavaScript's shortest form (``1``, not ``1.0``). orjson produces the same bytes for
nearly every value a session holds, ten times faster than ``json``; the few numbers it writes differently are
rewritten afterwards. Timestamps, ids and the few other JavaScript semantics pi's files depend on
(``new Date(text).getTime()``, ``String.prototype.trim``) live here too.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import time
import uuid
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

import orjson

# -- writing -----------------------------------------------------------------------------------------------

_LEAVES = (str, int, type(None))


def dumps(obj: Any) -> bytes:
    """``JSON.stringify(obj)`` as UTF-8 bytes (integers are written exactly, as Python holds them).

    Values up to ``DEEPEST`` levels are written (a tree drawn as JSON nests deep); ``ValueError`` for a value
    nested deeper. Session lines obey the store's own, far lower limit (:mod:`pi_compact.store.depth`).
    """
    try:
        return _dumps(obj)
    except RecursionError:
        pass
    with recursion_room(DEEPEST):  # the rare deep value only: the limit is process-wide
        try:
            return _dumps(obj)
        except RecursionError:
            raise ValueError(f"value nested too deeply to write as JSON (more than {DEEPEST:,} levels)") from None


DEEPEST = 4_000
"""Levels a value may have and still be written by :func:`dumps` (orjson writes 255; ``json`` the rest)."""


@contextmanager
def recursion_room(levels: int):
    """Python's recursion limit raised, while held, to fit ``levels`` more levels (one each) on the stack."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _stack_depth() + levels + 20))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def _stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def _dumps(obj: Any) -> bytes:
    try:
        return orjson.dumps(_js_numbers(obj))
    except TypeError:  # lone surrogates (JSON.stringify escapes them) or over 255 levels: orjson refuses
        return _dumps_slow(obj)


def dumps_line(obj: Any) -> bytes:
    """One JSONL line, newline included."""
    return dumps(obj) + b"\n"


def _js_numbers(value: Any) -> Any:
    """``value``, or a copy in which the floats orjson writes unlike JavaScript are rendered already.

    orjson writes ``1.0`` and ``1e-6`` where JavaScript writes ``1`` and ``0.000001``; every other finite
    float comes out identical (shortest round-trip digits in both), and NaN and infinities become ``null`` in
    both. Walking the value costs far less than scanning the bytes, and copies nothing in the common case.
    """
    kind = type(value)
    if kind is float or (kind not in _LEAVES and isinstance(value, float)):
        if value.is_integer() or 1e-6 <= abs(value) < 1e-5:
            return orjson.Fragment(js_number(value))
        return value
    if kind is dict:
        changed = None
        for key, item in value.items():
            new = _js_numbers(item)
            if new is not item:
                if changed is None:
                    changed = dict(value)
                changed[key] = new
        return value if changed is None else changed
    if kind is list or kind is tuple:
        changed = None
        for index, item in enumerate(value):  # a loop, not a comprehension: one stack frame per level
            new = _js_numbers(item)
            if new is not item:
                if changed is None:
                    changed = list(value)
                changed[index] = new
        return value if changed is None else changed
    return value


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|NaN|-?Infinity')


def _dumps_slow(obj: Any) -> bytes:
    """The rare value orjson refuses, through ``json`` and then JavaScript's spelling of its numbers."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    text = _LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    return _TOKEN.sub(_js_token, text.encode("utf-8"))


def _js_token(found: re.Match) -> bytes:
    token = found.group()
    if token[:1] == b'"' or token.lstrip(b"-").isdigit():
        return token
    if token in (b"NaN", b"Infinity", b"-Infinity"):
        return b"null"
    return js_number(float(token)).encode()


def js_number(value: float) -> str:
    """JavaScript's ``Number.prototype.toString()``: shortest digits, exponent only below 1e-6 or from 1e21."""
    if not math.isfinite(value):
        return "null"
    if value == 0:
        return "0"
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    sign = "-" if value < 0 else ""
    k, n = len(digits), point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    rest = "." + digits[1:] if k > 1 else ""
    return f"{sign}{digits[0]}{rest}e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"


# -- reading -----------------------------------------------------------------------------------------------


def loads(raw: bytes | bytearray | memoryview | str) -> Any:
    """Parse one JSON value; raises ``orjson.JSONDecodeError`` (a ``ValueError``)."""
    return orjson.loads(raw)


_JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def js_trim(text: str) -> str:
    """``String.prototype.trim``: JavaScript's whitespace differs from ``str.strip``'s (BOM in, ``\\x1c`` out)."""
    return text.strip(_JS_WHITESPACE)


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness: only ``false``, ``0``, ``NaN``, ``""``, ``null`` and ``undefined`` are falsy.

    ``[]`` and ``{}`` are truthy in JavaScript, unlike in Python; pi tests labels and summaries this way.
    """
    if value is None or value is False:
        return False
    if isinstance(value, (int, float)):
        return value == value and value != 0
    if isinstance(value, str):
        return value != ""
    return True


# -- time --------------------------------------------------------------------------------------------------


def now_iso() -> str:
    """``new Date().toISOString()``: UTC, three millisecond digits, ``Z``."""
    now = datetime.now(timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def now_ms() -> int:
    """``Date.now()``: the Unix time in milliseconds, as message timestamps hold it."""
    return time.time_ns() // 1_000_000


MAX_TIME_MS = 8.64e15
"""JavaScript dates span ±100,000,000 days around the epoch; beyond that ``getTime()`` is ``NaN``."""

_ISO_DATE = re.compile(
    r"(?P<year>\d{4}|[+-]\d{6})(?:-(?P<month>\d{2})(?:-(?P<day>\d{2}))?)?"
    r"(?:[Tt](?P<hour>\d{2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:\.(?P<fraction>\d+))?)?"
    r"(?P<offset>[Zz]|[+-]\d{2}:\d{2})?)?"
)


def iso_to_ms(value: Any) -> int | None:
    """``new Date(value).getTime()``; ``None`` where JavaScript gives ``NaN``.

    Strings follow the ECMAScript date-time format as V8 reads it (``Z`` or an offset, else local time for
    a date-time and UTC for a date alone; any number of fraction digits, truncated to milliseconds).
    ``None`` stands for ``undefined`` (a missing key), hence ``NaN``. Other strings, which V8's lenient
    legacy parser sometimes accepts, give ``None``: pi never writes them.
    """
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return int(value) if math.isfinite(value) and abs(value) <= MAX_TIME_MS else None
    if not isinstance(value, str):
        return None
    found = _ISO_DATE.fullmatch(value)
    if found is None or found["year"] == "-000000":
        return None
    ms = _iso_fields_to_ms(found)
    return ms if ms is not None and abs(ms) <= MAX_TIME_MS else None


def _iso_fields_to_ms(found: re.Match) -> int | None:
    month, day = int(found["month"] or 1), int(found["day"] or 1)
    hour, minute, second = int(found["hour"] or 0), int(found["minute"] or 0), int(found["second"] or 0)
    millis = int((found["fraction"] or "0")[:3].ljust(3, "0"))
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour <= 24 and minute <= 59 and second <= 59):
        return None
    if hour == 24 and (minute or second or millis):
        return None
    days = _days_from_civil(int(found["year"]), month) + day - 1
    ms = (((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + millis
    offset = found["offset"]
    if offset is None:
        return _local_to_utc(ms) if found["hour"] is not None else ms
    if offset in ("Z", "z"):
        return ms
    off_hours, off_minutes = int(offset[1:3]), int(offset[4:6])
    if off_hours > 23 or off_minutes > 59:
        return None
    sign = 1 if offset[0] == "+" else -1
    return ms - sign * (off_hours * 60 + off_minutes) * 60_000


def _days_from_civil(year: int, month: int) -> int:
    """Days from 1970-01-01 to the first of ``month`` in ``year`` (proleptic Gregorian, any year)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _local_to_utc(local_ms: int) -> int | None:
    """A wall-clock time in this machine's zone → UTC milliseconds (the earlier one when ambiguous, as V8)."""
    try:
        naive = datetime(1970, 1, 1) + timedelta(milliseconds=local_ms)
        aware = naive.astimezone()
    except (OverflowError, ValueError, OSError):
        return None
    offset = aware.utcoffset() or timedelta(0)
    return local_ms - int(offset.total_seconds() * 1000)


# -- ids ---------------------------------------------------------------------------------------------------


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
