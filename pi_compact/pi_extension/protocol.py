"""The extension's wire format: one JSON request in, one JSON response out, both versioned.

Every request carries ``protocol`` (the version its sender speaks) and ``type``; every response carries
``protocol`` (the version this pi-compact speaks) and ``ok``. A request that is not JSON, not an object, of an
unknown type, of a protocol this pi-compact does not speak, or with a field of the wrong type gets
``{"ok": false, "code": …, "error": one line}``; so does a request whose handling fails. Nothing here
raises past :func:`serve`: the extension reads a JSON answer whatever happens.
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable

from ..errors import PiCompactError, UsageError

PROTOCOL_VERSION = 1
"""The protocol this pi-compact speaks. A change that an older extension would misread gets a new number."""
MIN_PROTOCOL = 1
"""The oldest protocol still answered."""
REQUEST_TYPES = ("version", "compact", "branch_summary", "recall")
MAX_REQUEST_BYTES = 512 * 1024 * 1024
"""A request larger than this is refused before it is parsed (a session of hundreds of MB is already absurd)."""
_MAX_ERROR_CHARS = 500


class ProtocolError(UsageError):
    """A request that does not follow the protocol; ``code`` says which way."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


Handler = Callable[[dict], dict]


def serve(raw: bytes, handlers: dict[str, Handler]) -> tuple[dict, int]:
    """Answer one raw request: ``(response, exit status)``, 0 when ``ok``, 2 otherwise."""
    try:
        request = parse(raw)
        response = handlers[request["type"]](request)
    except ProtocolError as exc:
        return error_response(str(exc), exc.code), 2
    except PiCompactError as exc:
        return error_response(str(exc), "failed"), 2
    except Exception as exc:  # noqa: BLE001 - the extension must get JSON whatever broke, never a traceback
        return error_response(f"{type(exc).__name__}: {exc}", "failed"), 2
    return {"protocol": PROTOCOL_VERSION, "ok": True, "type": request["type"], **response}, 0


def error_response(message: str, code: str) -> dict:
    line = " ".join(message.split())
    if len(line) > _MAX_ERROR_CHARS:
        line = line[: _MAX_ERROR_CHARS - 1] + "…"
    return {"protocol": PROTOCOL_VERSION, "ok": False, "code": code, "error": line or code}


def parse(raw: bytes) -> dict:
    """The request object, checked for ``protocol`` and ``type``."""
    if len(raw) > MAX_REQUEST_BYTES:
        raise ProtocolError(f"request of {len(raw):,} bytes is over the {MAX_REQUEST_BYTES:,}-byte limit")
    if not raw.strip():
        raise ProtocolError("empty request: send one JSON object on stdin")
    try:
        request = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"request is not JSON: {exc}") from None
    if not isinstance(request, dict):
        raise ProtocolError(f"request must be a JSON object, got {_json_type(type(request))}")
    version = request.get("protocol")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ProtocolError("request has no integer 'protocol' field", "protocol")
    if not MIN_PROTOCOL <= version <= PROTOCOL_VERSION:
        raise ProtocolError(f"protocol {version} is not spoken here: this pi-compact speaks {MIN_PROTOCOL} to "
                            f"{PROTOCOL_VERSION}; upgrade {'pi-compact' if version > PROTOCOL_VERSION else 'the extension'}",
                            "protocol")
    if request.get("type") not in REQUEST_TYPES:
        raise ProtocolError(f"unknown request type {request.get('type')!r}: use one of {', '.join(REQUEST_TYPES)}",
                            "unknown_type")
    return request


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# -- typed field access ---------------------------------------------------------------------------------------


def field(obj: dict, name: str, kind: type | tuple[type, ...], *, required: bool = False, where: str = "request") -> Any:
    """``obj[name]`` when it has the type ``kind`` (``None`` when absent or null, unless ``required``)."""
    value = obj.get(name)
    if value is None:
        if required:
            raise ProtocolError(f"{where} has no '{name}' field")
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    wrong_bool = isinstance(value, bool) and bool not in kinds
    if not isinstance(value, kinds) or wrong_bool:
        names = " or ".join(_json_type(k) for k in kinds)
        raise ProtocolError(f"{where}.{name} must be {names}, got {_json_type(type(value))}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ProtocolError(f"{where}.{name} must be a finite number")
    return value


def count(obj: dict, name: str, *, where: str = "request", default: int | None = None) -> int | None:
    """A non-negative integer field (a JSON number with no fraction)."""
    value = field(obj, name, (int, float), where=where)
    if value is None:
        return default
    if value != int(value) or value < 0:
        raise ProtocolError(f"{where}.{name} must be a non-negative whole number, got {value!r}")
    return int(value)


def objects(obj: dict, name: str, *, where: str = "request", required: bool = False) -> list[dict]:
    """A list field whose items are all objects."""
    value = field(obj, name, list, where=where, required=required) or []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise ProtocolError(f"{where}.{name}[{index}] must be an object, got {_json_type(type(item))}")
    return value


def strings(obj: dict, name: str, *, where: str = "request") -> list[str]:
    value = field(obj, name, list, where=where) or []
    return [item for item in value if isinstance(item, str)]


def _json_type(kind: type) -> str:
    return {dict: "an object", list: "an array", str: "a string", int: "a number", float: "a number",
            bool: "a boolean", type(None): "null"}.get(kind, kind.__name__)


__all__ = ["MIN_PROTOCOL", "PROTOCOL_VERSION", "REQUEST_TYPES", "ProtocolError", "error_response", "parse", "serve"]
