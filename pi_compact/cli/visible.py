"""Untrusted text made safe to print on a terminal, without rich: the rules :mod:`pi_compact.cli.render` draws
with, here so that what prints plain lines (:mod:`pi_compact.cli.plain`) applies them without importing rich.

Everything a session file holds is untrusted: terminal control characters (C0, DEL, C1), direction overrides
and lone surrogates become printable stand-ins, so an entry cannot restyle, move the cursor of or retitle the
user's terminal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def _control_table() -> dict[int, str]:
    table = {code: chr(0x2400 + code) for code in range(0x20)}  # U+2400.. "control pictures": ␛ for ESC
    del table[ord("\n")], table[ord("\t")]
    table[0x7F] = "␡"
    table.update({code: f"\\x{code:02x}" for code in range(0x80, 0xA0)})  # C1, including the one-byte CSI
    bidi = [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C]
    table.update({code: f"\\u{code:04x}" for code in bidi})  # direction overrides could disguise text
    table.update({code: "\ufffd" for code in range(0xD800, 0xE000)})  # lone surrogates: no terminal encodes them
    return table


def _any_of(codes: Iterable[int]) -> re.Pattern:
    """A pattern matching one character of ``codes``, written as ranges."""
    ranges: list[list[int]] = []
    for code in sorted(codes):
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return re.compile("[" + "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in ranges) + "]")


_CONTROLS = _control_table()
_ANY_CONTROL = _any_of(_CONTROLS)


def visible(text: str) -> str:
    """``text`` with every terminal control character (except newline and tab) replaced by a visible sign."""
    # Searching is many times faster than translating, and most text has nothing to replace.
    return text.translate(_CONTROLS) if _ANY_CONTROL.search(text) else text


def visible_line(text: str) -> str:
    """``text`` made visible and kept on one line: a newline shows as ``␊`` (a value must not fake rows)."""
    return visible(text).replace("\n", "\u240a")


