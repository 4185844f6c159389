"""Entries that survive only in a migration backup (``<name>.v1.bak``, ``<name>.v2.bak.N``).

Migrating a v1/v2 file keeps the original beside it. Before pi-compact migrated under the lock from the file
as it then was (issue 23.1), a second writer holding the file unmigrated wrote it whole from its memory,
and what another writer had appended meanwhile was left only in such a backup. The doctor compares each
backup with the file: every entry of a backup should be in the file, migrated; one that is not is reported.
Entries are compared by content, without what migration changes (ids, parent links, the kept-entry
reference, the ``hookMessage`` role), since an older migration drew its ids at random.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from .doctor import ERROR, Finding
from .jsonl import dumps
from .scan import parse_line_depth

_MIGRATED_KEYS = ("id", "parentId", "firstKeptEntryId", "firstKeptEntryIndex")


def backups_of(path: Path) -> list[Path]:
    """The migration backups beside ``path``, oldest first (by the number after ``.bak``)."""
    found = [p for p in path.parent.glob(f"{_glob_escape(path.name)}.v[12].bak*") if p.is_file()]
    return sorted(found, key=_order)


def _order(backup: Path) -> tuple[str, int]:
    base, _, number = backup.name.partition(".bak")
    return base, int(number[1:]) if number[1:].isdigit() else 0


def lost_to_backups(path: Path, data: bytes) -> list[Finding]:
    """One finding per backup entry that the file (``data``) no longer holds."""
    backups = backups_of(path)
    if not backups:
        return []
    present = Counter(key for _, _, key in _entry_keys(data))
    findings = []
    for backup in backups:
        remaining = present.copy()
        for line, entry_id, key in _entry_keys(backup.read_bytes()):
            if remaining[key] > 0:
                remaining[key] -= 1
                continue
            shown = f"entry {entry_id}" if entry_id else "an entry"
            findings.append(Finding("only_in_backup", ERROR, f"{shown} on line {line} of {backup.name} is not in "
                                    "this file (lost by an older migration?); copy it back from there", None,
                                    entry_id))
    return findings


def _entry_keys(data: bytes):
    """``(line, id, key)`` for each entry line: ``key`` is its content as migration leaves it."""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            value, _ = parse_line_depth(raw)
        except ValueError:
            continue  # blank, torn or broken: migration drops it too
        if not isinstance(value, dict) or value.get("type") == "session":
            continue
        entry_id = value.get("id")
        yield number, entry_id if isinstance(entry_id, str) else None, _content_key(value)


def _content_key(entry: dict) -> bytes:
    kept = {key: value for key, value in entry.items() if key not in _MIGRATED_KEYS}
    message = kept.get("message")
    if isinstance(message, dict) and message.get("role") == "hookMessage":
        kept["message"] = {**message, "role": "custom"}
    return dumps(dict(sorted(kept.items())))


def _glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)
