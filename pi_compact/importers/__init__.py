"""Other agents' transcripts (Claude Code, Codex) read as pi session trees, so every tool here works on them.

One reader per format turns a transcript's bytes into an :class:`ImportedSession` (header, entries, notes);
:func:`import_transcript` writes it as a new pi v3 file through the store's writer. The input is only read.
The format is told from the rows themselves, not from the file's name or place.
"""

from __future__ import annotations

import os
from pathlib import Path

import orjson

from ..errors import TranscriptError, UsageError
from .claude_code import read_claude_code
from .codex import read_codex
from .references import ReferenceSummary, reference_summaries
from .source import read_bytes
from .tree import ImportedSession, write_session

FORMATS: tuple[str, ...] = ("claude-code", "codex")
_CODEX_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})
_BARE_CODEX_ITEMS = frozenset({"message", "reasoning", "function_call", "function_call_output"})
"""Items written without an envelope by rollouts older than ``session_meta``."""
_CLAUDE_KEYS = ("parentUuid", "leafUuid", "isSidechain", "sessionId")
_SNIFF_LINES = 200


def detect_format(data: bytes, name: str = "input") -> str:
    """``claude-code`` or ``codex``, from the first rows that say which; :class:`TranscriptError` otherwise."""
    for line in data.split(b"\n", _SNIFF_LINES)[:_SNIFF_LINES]:
        try:
            row = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if not isinstance(row, dict):
            continue
        if row.get("type") == "session" and "version" in row:
            raise TranscriptError(f"{name} is a pi session already; open it directly")
        if (row.get("type") in _CODEX_TYPES and "payload" in row) or "record_type" in row or (
                row.get("type") in _BARE_CODEX_ITEMS and "uuid" not in row):
            return "codex"
        if any(key in row for key in _CLAUDE_KEYS):
            return "claude-code"
    raise TranscriptError(f"{name}: not a Claude Code or Codex transcript (no row says which); "
                          "name the format with --format")


def read_transcript(path: str | os.PathLike, *, format: str | None = None, strict: bool = False) -> ImportedSession:
    """The transcript at ``path`` (``.gz`` allowed) as a pi session, in memory."""
    if format is not None and format not in FORMATS:
        raise UsageError(f"unknown transcript format {format!r}; choose one of {', '.join(FORMATS)}")
    data = read_bytes(path)
    name = str(path)
    kind = format or detect_format(data, name)
    reader = read_claude_code if kind == "claude-code" else read_codex
    return reader(data, strict=strict, name=name)


def import_transcript(
    path: str | os.PathLike, out: str | os.PathLike, *, format: str | None = None, strict: bool = False,
    force: bool = False,
) -> ImportedSession:
    """Read the transcript at ``path`` and write it as a new pi session file at ``out`` (replaced with ``force``)."""
    imported = read_transcript(path, format=format, strict=strict)
    write_session(imported, out, force=force)
    return imported


def transcript_files(folder: str | os.PathLike) -> list[Path]:
    """The ``*.jsonl`` and ``*.jsonl.gz`` files under ``folder``, at any depth, in name order."""
    folder = Path(folder)
    found = [p for p in folder.rglob("*") if p.name.endswith((".jsonl", ".jsonl.gz")) and p.is_file()]
    return sorted(found)


__all__ = [
    "FORMATS",
    "ImportedSession",
    "ReferenceSummary",
    "detect_format",
    "import_transcript",
    "read_transcript",
    "reference_summaries",
    "transcript_files",
    "write_session",
]
