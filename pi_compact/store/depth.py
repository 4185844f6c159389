"""How deep the JSON of a session line may nest: one rule for the writer, every reader and the converters.

A line's depth counts its containers: the entry object is level 1, its ``message`` level 2, a tool call's
``arguments`` level 5. The store writes no line deeper than :data:`MAX_DEPTH` (:func:`check` raises
:class:`~pi_compact.errors.NestingTooDeepError`), so everything downstream (context building, converters,
search, replay, the summarizers, the SDKs, ``orjson`` with its 255 levels) handles what it reads with room to
spare. A line written elsewhere that nests deeper is read with its containers below that level replaced by
:data:`CUT_MARK` (:func:`clip`, or :func:`cut_text` for a line too deep for the JSON parser itself), and
reported, by line and entry, as a ``too_deep`` problem. Every walk here is iterative: the values being
measured are exactly those too deep for recursion.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import NestingTooDeepError

MAX_DEPTH = 100
"""The deepest a session line may nest (the entry object is level 1): far beyond real tool arguments, far
below what any reader's recursion or ``orjson`` (255 levels) can take."""

CUT_MARK = f"[pi-compact: nested deeper than {MAX_DEPTH} levels, not read]"
"""What a reader sees in place of a container below :data:`MAX_DEPTH`."""

_CONTAINERS = (dict, list)
_SIGN = re.compile(r'["\[\]{}]')
"""A bracket, or the quote that opens a string."""
_STRING_REST = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"')
"""A string's body and closing quote, matched from just after its opening quote (anchored: each character is
read once, so an unterminated string cannot make the scan quadratic)."""


def depth(value: Any, limit: int | None = None) -> int:
    """How many containers deep ``value`` nests (a scalar: 0); with ``limit``, stops as soon as it is
    exceeded and returns ``limit + 1``."""
    deepest = 0
    stack = [(value, 1)] if isinstance(value, _CONTAINERS) else []
    while stack:
        item, level = stack.pop()
        if level > deepest:
            deepest = level
            if limit is not None and deepest > limit:
                return limit + 1
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, level + 1) for child in children if isinstance(child, _CONTAINERS))
    return deepest


def check(value: Any, what: str = "entry") -> None:
    """Refuse a value the store may not write: nested deeper than :data:`MAX_DEPTH` levels."""
    if depth(value, MAX_DEPTH) > MAX_DEPTH:
        raise NestingTooDeepError(
            f"{what} nested too deeply: more than {MAX_DEPTH} levels (a session line may nest {MAX_DEPTH})"
        )


def may_be_too_deep(raw: bytes) -> bool:
    """Cheap test on a line's bytes: fewer opening brackets than the limit cannot nest past it."""
    return raw.count(b"[") + raw.count(b"{") > MAX_DEPTH


def clip(value: Any) -> tuple[Any, int]:
    """``value`` with every container below :data:`MAX_DEPTH` replaced by :data:`CUT_MARK`, and the depth it
    had; ``value`` itself (not a copy) when it fits."""
    found = depth(value)
    if found <= MAX_DEPTH:
        return value, found
    return _copy_clipped(value), found


def _copy_clipped(value: Any) -> Any:
    """A copy down to :data:`MAX_DEPTH` levels, built top-down with a stack (no recursion)."""
    root = _empty_like(value)
    stack = [(value, root, 1)]
    while stack:
        source, target, level = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, child in items:
            if not isinstance(child, _CONTAINERS):
                copied = child
            elif level >= MAX_DEPTH:
                copied = CUT_MARK
            else:
                copied = _empty_like(child)
                stack.append((child, copied, level + 1))
            if isinstance(target, dict):
                target[key] = copied
            else:
                target.append(copied)
    return root


def _empty_like(value: Any) -> Any:
    return {} if isinstance(value, dict) else []


def cut_text(text: str) -> tuple[str, int]:
    """A JSON text with each container that opens below :data:`MAX_DEPTH` replaced by :data:`CUT_MARK` as a
    JSON string, and the deepest level it reached; for lines too deep for the parser itself. Brackets inside
    strings do not count. An unbalanced container is left as it is, so a broken line stays broken."""
    pieces: list[str] = []
    level = deepest = kept_to = pos = 0
    cut_from: int | None = None
    while (found := _SIGN.search(text, pos)) is not None:
        sign, pos = found.group(), found.end()
        if sign == '"':
            rest = _STRING_REST.match(text, pos)
            if rest is None:
                break  # an unterminated string: nothing after it counts, and the line will not parse
            pos = rest.end()
        elif sign in "[{":
            level += 1
            deepest = max(deepest, level)
            if level == MAX_DEPTH + 1:
                cut_from = found.start()
        else:
            if level == MAX_DEPTH + 1 and cut_from is not None:
                pieces += [text[kept_to:cut_from], _MARK_JSON]
                kept_to, cut_from = pos, None
            level -= 1
    pieces.append(text[kept_to:])
    return "".join(pieces), deepest


_MARK_JSON = '"' + CUT_MARK + '"'
