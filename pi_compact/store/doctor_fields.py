"""The doctor's checks of single lines: the header's fields, and each entry's fields against its type.

A field of the wrong type is fixed in the repaired copy when a neutral value exists (a timestamp borrowed
from the entry before, a token count of 0); otherwise the entry is left out of the copy, since pi would hand
it to the model as it is. Unknown types and roles are kept: a newer pi may have written them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..types import CURRENT_SESSION_VERSION
from .jsonl import iso_to_ms

if TYPE_CHECKING:
    from .doctor import Doctor, Entry

MISSING: Any = object()
"""A key the line does not have (JavaScript's ``undefined``)."""

_KNOWN_TYPES = frozenset(
    {"message", "thinking_level_change", "model_change", "compaction", "branch_summary", "custom",
     "custom_message", "label", "session_info"}
)
_KNOWN_ROLES = frozenset(
    {"user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary", "compactionSummary"}
)


def js_type(value: Any) -> str:
    """How JavaScript would name the value's type, for messages (``null``, ``number``, ``array`` …)."""
    if value is None or value is MISSING:
        return "null" if value is None else "missing"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


_CANONICAL_DATE = re.compile(
    r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z"
)
"""``toISOString()``'s shape, with valid fields: read without the general parser (a million entries add up)."""


def is_date(value: Any) -> bool:
    """Whether ``new Date(value)`` is a valid date, for a string."""
    return isinstance(value, str) and (_CANONICAL_DATE.fullmatch(value) is not None or iso_to_ms(value) is not None)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# -- the header ------------------------------------------------------------------------------------------------


def check_header(doctor: "Doctor") -> None:
    header, line = doctor.header, 1
    assert header is not None
    version = header.get("version", MISSING)
    if version is not MISSING and version is not None and not _is_number(version):
        doctor.warning("bad_version", f"the header's version is a {js_type(version)}, not a number", line)
        header["version"] = CURRENT_SESSION_VERSION
        doctor.header_changed = True
    elif _is_number(version) and version not in (1, 2, 3):
        doctor.warning("unknown_version", f"unknown session version {version!r}", line)
    if "cwd" in header and not isinstance(header["cwd"], str):
        doctor.error("bad_field", f"the header's cwd is a {js_type(header['cwd'])}, not a string", line)
        del header["cwd"]
        doctor.header_changed = True
    if not is_date(header.get("timestamp")):
        doctor.error("bad_timestamp", "the header's timestamp is missing or not a date", line)
        header["timestamp"] = doctor.first_timestamp()
        doctor.header_changed = True


# -- entries ---------------------------------------------------------------------------------------------------


def check_entry(doctor: "Doctor", entry: "Entry") -> None:
    value = entry.value
    kind = value.get("type", MISSING)
    if not isinstance(kind, str):
        doctor.error("bad_type", f"the entry's type is {js_type(kind)}, not a string", entry.line, value.get("id"))
        entry.drop = "no type"
        return
    if kind not in _KNOWN_TYPES:
        doctor.warning("unknown_type", f"unknown entry type {kind!r} (kept; context building ignores it)",
                       entry.line, value.get("id"))
    _check_timestamp(doctor, entry)
    check = _TYPE_CHECKS.get(kind)
    problem = check(value) if check is not None else None
    if problem is not None:
        doctor.error("bad_field", problem, entry.line, value.get("id"))
        entry.drop = problem
    elif kind == "message":
        _check_message_extras(doctor, entry)
    elif kind == "compaction" and not _is_number(value.get("tokensBefore")):
        doctor.error("bad_field", f"compaction tokensBefore is {js_type(value.get('tokensBefore', MISSING))}, "
                     "not a number", entry.line, value.get("id"))
        _fix(entry, "tokensBefore", 0)


def _check_timestamp(doctor: "Doctor", entry: "Entry") -> None:
    stamp = entry.value.get("timestamp", MISSING)
    if is_date(stamp):
        doctor.last_good_stamp = stamp
        return
    shown = repr(stamp[:40]) if isinstance(stamp, str) else js_type(stamp)
    doctor.error("bad_timestamp", f"the entry's timestamp ({shown}) is not a date", entry.line, entry.value.get("id"))
    _fix(entry, "timestamp", doctor.fresh_timestamp())


def _check_message_extras(doctor: "Doctor", entry: "Entry") -> None:
    message = entry.value["message"]
    role = message["role"]
    if role not in _KNOWN_ROLES:
        doctor.warning("unknown_role", f"unknown message role {role!r} (kept as it is)", entry.line,
                       entry.value.get("id"))
    stamp = message.get("timestamp", MISSING)
    if not _is_number(stamp):
        doctor.error("bad_field", f"the message's timestamp is {js_type(stamp)}, not a number (ms)",
                     entry.line, entry.value.get("id"))
        message["timestamp"] = iso_to_ms(entry.value.get("timestamp")) or 0
        entry.changed = True


def _fix(entry: "Entry", key: str, value: Any) -> None:
    entry.value[key] = value
    entry.changed = True


# -- per-type field checks: a message saying what is wrong, or None ---------------------------------------------


def _blocks(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in value)


def _text_or_blocks(value: Any) -> bool:
    return isinstance(value, str) or _blocks(value)


_CONTENT_RULES = {"user": _text_or_blocks, "custom": _text_or_blocks, "assistant": _blocks, "toolResult": _blocks}


def _message(entry: dict) -> str | None:
    message = entry.get("message", MISSING)
    if not isinstance(message, dict):
        return f"the message is {js_type(message)}, not an object"
    role = message.get("role", MISSING)
    if not isinstance(role, str):
        return f"the message's role is {js_type(role)}, not a string"
    rule = _CONTENT_RULES.get(role)
    content = message.get("content", MISSING)
    if rule is not None and not rule(content):
        wanted = "an array of blocks" if rule is _blocks else "a string or an array of blocks"
        return f"{role} message content is {js_type(content)}, not {wanted}"
    if role == "bashExecution":
        return _strings(message, "command", "output", where="bashExecution message")
    return None


def _strings(value: dict, *keys: str, where: str, optional: tuple[str, ...] = ()) -> str | None:
    """The first of ``keys`` that is not a string (``optional`` ones may also be missing or null)."""
    for key in keys:
        field = value.get(key, MISSING)
        if key in optional and (field is MISSING or field is None):
            continue
        if not isinstance(field, str):
            return f"{where} {key} is {js_type(field)}, not a string"
    return None


_TYPE_CHECKS = {
    "message": _message,
    "compaction": lambda e: _strings(e, "summary", where="compaction"),
    "branch_summary": lambda e: _strings(e, "summary", "fromId", where="branch_summary"),
    "label": lambda e: _strings(e, "targetId", "label", where="label", optional=("label",)),
    "session_info": lambda e: _strings(e, "name", where="session_info"),
    "model_change": lambda e: _strings(e, "provider", "modelId", where="model_change"),
    "thinking_level_change": lambda e: _strings(e, "thinkingLevel", where="thinking_level_change"),
    "custom": lambda e: _strings(e, "customType", where="custom entry"),
    "custom_message": lambda e: _strings(e, "customType", where="custom_message")
    or (None if _text_or_blocks(e.get("content", MISSING)) else
        f"custom_message content is {js_type(e.get('content', MISSING))}, not a string or an array of blocks"),
}
