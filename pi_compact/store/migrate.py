"""Schema migrations, v1 → v2 → v3, exactly as pi performs them on load.

Each step is a named function over the parsed lines (header first) that mutates them in place, so new keys
land at the end of each object as they do in pi's files. They run in memory only; the store writes the
result (atomically, keeping a backup) the first time somebody appends to a migrated file.

One departure from pi: the ids a v1 entry gets are derived from the line (its number and its content), not
drawn at random. A file that stays v1 because nobody appends to it then shows the same ids on every read,
so an id copied from one command works in the next, and they are the ids written when it is migrated.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Sequence

from ..types import CURRENT_SESSION_VERSION
from .jsonl import dumps


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


def derived_id(line_number: int, entry: dict, taken: "set[str] | dict") -> str:
    """The id a v1 entry gets: 8 hex characters of a hash of its line number and its content (as JSON), the
    same on every read of the same file; a clash with ``taken`` hashes again with a counter, so the result is
    still fixed by the file alone."""
    seed = b"%d:" % line_number + dumps(entry)
    for attempt in range(1000):
        candidate = hashlib.sha256(seed if not attempt else seed + b"#%d" % attempt).hexdigest()[:8]
        if candidate not in taken:
            return candidate
    return hashlib.sha256(seed).hexdigest()  # a thousand clashes: the full hash, as pi falls back to a UUID


def migrate_v1_to_v2(lines: list[dict], line_numbers: Sequence[int] | None = None) -> None:
    """Give every entry an id and chain them linearly; ``firstKeptEntryIndex`` becomes ``firstKeptEntryId``.

    The index counts the header as line 0. An index pointing forward (to an entry without an id yet) leaves
    no ``firstKeptEntryId`` at all, as in pi. Ids come from :func:`derived_id`, with each line's number in
    the file from ``line_numbers`` (default: its position, the header being line 1).
    """
    numbers = line_numbers if line_numbers is not None else range(1, len(lines) + 1)
    taken: set[str] = set()
    previous: str | None = None
    for entry, number in zip(lines, numbers):
        if entry.get("type") == "session":
            entry["version"] = 2  # every header-typed line, as pi does; none of them gets an id
            continue
        entry["id"] = derived_id(number, entry, taken)
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


def migrate_v2_to_v3(lines: list[dict], line_numbers: Sequence[int] | None = None) -> None:
    """The ``hookMessage`` role was renamed ``custom`` (``line_numbers``: unused, as every step takes them)."""
    for entry in lines:
        if entry.get("type") == "session":
            entry["version"] = 3
            continue
        message = entry.get("message")
        if entry.get("type") == "message" and isinstance(message, dict) and message.get("role") == "hookMessage":
            message["role"] = "custom"


MIGRATIONS: tuple[tuple[int, Callable[[list[dict], Sequence[int] | None], None]], ...] = (
    (2, migrate_v1_to_v2),
    (3, migrate_v2_to_v3),
)
"""(version reached, step): a step runs when the file's version is below the version it reaches."""


def migrate(lines: list[dict], line_numbers: Sequence[int] | None = None) -> bool:
    """Bring parsed lines (header first) to the current version in place; return whether anything changed.

    ``line_numbers`` (one per line) are where the lines stand in the file, which the ids of a v1 file's
    entries derive from; without them a line's position counts (the header as line 1).
    """
    version = header_version(lines[0])
    if version >= CURRENT_SESSION_VERSION:
        return False
    if line_numbers is not None and len(line_numbers) != len(lines):
        raise ValueError(f"{len(line_numbers)} line numbers for {len(lines)} lines")
    for reaches, step in MIGRATIONS:
        if version < reaches:
            step(lines, line_numbers)
    return True
