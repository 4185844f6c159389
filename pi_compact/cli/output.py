"""The one way the CLI prints JSON: the store's writer (``JSON.stringify``'s bytes), one document per line.

Every ``--json`` output goes through :func:`write_json`, so numbers come out as pi and the library write them
(``1``, ``0.000001``, never ``1.0`` or ``1e-06``) and a terminal never receives a raw C1 control character.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from ..session_json import json_bytes

_C1_IN_UTF8 = re.compile(rb"\xc2([\x80-\x9f])")


def write_json(value: Any) -> None:
    """Print ``value`` (or JSON bytes already made by :func:`~pi_compact.session_json.json_bytes`) and a newline."""
    data = value if isinstance(value, (bytes, bytearray)) else json_bytes(value)
    if sys.stdout.isatty():
        # Raw C1 controls (U+0080-U+009F, such as the one-character CSI) can drive some terminals; the JSON
        # escape means the same string to any reader. Only a terminal gets it: pipes get pi's exact bytes.
        data = _C1_IN_UTF8.sub(lambda found: b"\\u%04x" % found[1][0], data)
    sys.stdout.flush()  # anything printed before stays before
    _write_all(sys.stdout.buffer, bytes(data) + b"\n")
    sys.stdout.flush()


def _write_all(out, data: bytes) -> None:
    """Every byte, or an error: unbuffered (``PYTHONUNBUFFERED``), stdout's ``write`` may write only part."""
    view = memoryview(data)
    while view:
        written = out.write(view)
        view = view[len(view) if written is None else written :]
