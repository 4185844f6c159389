"""Schema migrations, v1 → v2 → v3, exactly as pi performs them on load.

Each step is a named function over the parsed lines (header first) that mutates them in place, so new keys
land at the end of each object as they do in pi's files. They run in memory only; the store writes the
result (atomically, keeping a backup) the first time somebody appends to a migrated file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from ..types import CURRENT_SESSION_VERSION
from .jsonl import new_entry_id


_DECIMAL = re.compile(r"[+-]?(?:\d++(?:\.\d*+)?|\.\d++)(?:[eE][+-]?\d++)?")
"""Possessive: ``\\d+\\.?\\d*`` split a run of digits every way before failing (quadratic)."""


def header_version(header: dict) -> int:
    """The header's version as pi compares it (``header.version ?? 1``, JavaScript's ``<`` and ``>=``).

    A missing or null version means 1. A numeric string compares as its number, so ``"3"`` is current. A
    value JavaScript cannot read as a number makes every comparison false: pi then runs no step, so it
    counts as current here.
    """
    version = _js_to_number(header.get("version", None))
    if math.isnan(version) or version == math.inf:
        return CURRENT_SESSION_VERSION
    return 1 if version == -math.inf else math.floor(version)


def _js_to_number(value: object) -> float:
    if value is None:
        return 1.0
    if isinstance(value, (bool, int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        return 0.0 if not text else float(text) if _DECIMAL.fullmatch(text) else math.nan
    return math.nan


def migrate_v1_to_v2(lines: list[dict]) -> None:
    """Give every entry an id and chain them linearly; ``firstKeptEntryIndex`` becomes ``firstKeptEntryId``.

    The index counts the header as line 0. An index pointing forward (to an entry without an id yet) leaves
    no ``firstKeptEntryId`` at all, as in pi.
    """
    taken: set[str] = set()
    previous: str | None = None
    for entry in lines:
        if entry.get("type") == "session":
            entry["version"] = 2  # every header-typed line, as pi does; none of them gets an id
            continue
        entry["id"] = new_entry_id(taken)
        taken.add(entry["id"])
        entry["parentId"] = previous
        previous = entry["id"]
        if entry.get("type") == "compaction":
            _resolve_first_kept(entry, lines)


def _resolve_first_kept(entry: dict, lines: list[dict]) -> None:
    """pi's ``entries[firstKeptEntryIndex]``: only a number is converted (and removed); other values stay."""
    index = entry.get("firstKeptEntryIndex")
    if isinstance(index, bool) or not isinstance(index, (int, float)):
        return
    del entry["firstKeptEntryIndex"]
    if not (float(index).is_integer() and 0 <= index < len(lines)):
        return
    target = lines[int(index)]
    if target.get("type") == "session":
        return
    if "id" in target:
        entry["firstKeptEntryId"] = target["id"]
    else:  # a forward index: pi assigns undefined, which JSON.stringify leaves out
        entry.pop("firstKeptEntryId", None)


def migrate_v2_to_v3(lines: list[dict]) -> None:
    """The ``hookMessage`` role was renamed ``custom``."""
    for entry in lines:
        if entry.get("type") == "session":
            entry["version"] = 3
            continue
        message = entry.get("message")
        if entry.get("type") == "message" and isinstance(message, dict) and message.get("role") == "hookMessage":
            message["role"] = "custom"


MIGRATIONS: tuple[tuple[int, Callable[[list[dict]], None]], ...] = (
    (2, migrate_v1_to_v2),
    (3, migrate_v2_to_v3),
)
"""(version reached, step): a step runs when the file's version is below the version it reaches."""


def migrate(lines: list[dict]) -> bool:
    """Bring parsed lines (header first) to the current version in place; return whether anything changed."""
    version = header_version(lines[0])
    if version >= CURRENT_SESSION_VERSION:
        return False
    for reaches, step in MIGRATIONS:
        if version < reaches:
            step(lines)
    return True
