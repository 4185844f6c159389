"""Comparing our JSON with pi's as JSON values, strictly, and saying where they first differ.

Python's ``==`` is too lenient for a conformance check (``True == 1``, ``0 == False``) and too strict about
one thing JSON does not distinguish: JavaScript writes the number ``1.0`` as ``1``, so a float we wrote
comes back from pi as an int. Here booleans, numbers, strings, null, arrays and objects are separate kinds,
numbers compare by value (as doubles when either side is a float: JavaScript writes 3.8e16 as
38000000000000000), and object key order is ignored (key order is checked where it matters, on written
lines).
"""

from __future__ import annotations

from typing import Any

import orjson


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _show(value: Any, limit: int = 300) -> str:
    try:
        text = orjson.dumps(value).decode()
    except TypeError:
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} chars)"


# None when both are the same JSON value, otherwise where and how they first differ (objects are walked
# with a stack, arrays recursively: contexts are wide and shallow).
def first_difference(ours: Any, pi: Any, where: str = "$") -> str | None:
    stack = [(ours, pi, where)]
    while stack:
        a, b, at = stack.pop()
        kind_a, kind_b = _kind(a), _kind(b)
        if kind_a != kind_b:
            return f"{at}: ours is {kind_a} {_show(a)}, pi's is {kind_b} {_show(b)}"
        if kind_a == "object":
            only_ours = sorted(set(a) - set(b))
            only_pi = sorted(set(b) - set(a))
            if only_ours or only_pi:
                return f"{at}: keys only in ours {only_ours}, only in pi's {only_pi}"
            stack.extend((a[k], b[k], f"{at}.{k}") for k in reversed(list(a)))
        elif kind_a == "array":
            for i, (x, y) in enumerate(zip(a, b)):
                found = first_difference(x, y, f"{at}[{i}]")
                if found is not None:
                    return found
            if len(a) != len(b):
                extra = a[len(b)] if len(a) > len(b) else b[len(a)]
                return f"{at}: ours has {len(a)} items, pi's {len(b)}; first extra item {_show(extra)}"
        elif kind_a == "number" and (isinstance(a, float) or isinstance(b, float)):
            if float(a) != float(b):
                return f"{at}: ours {_show(a)}, pi's {_show(b)}"
        elif a != b:
            return f"{at}: ours {_show(a)}, pi's {_show(b)}"
    return None


# ``value`` as JSON would carry it: through orjson and back (tuples become lists, and so on).
def normalise(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value))
