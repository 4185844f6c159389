"""Reading another agent's JSONL transcript: one JSON object per line, bad lines named and skipped.

Agents write their transcripts while they run, so a crash leaves a torn last line, and a hand edit or a
bad merge leaves worse. The importers take the rows that parse and report every other line by its number;
``strict`` turns the first such line into an error instead. ``.gz`` files are read through gzip, so a corpus
can be kept compressed.
"""

from __future__ import annotations

import gzip
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson

from ..errors import TranscriptError


@dataclass(frozen=True)
class Row:
    """One parsed line: its 1-based line number and the object it holds."""

    line: int
    value: dict


@dataclass
class Rows:
    """The rows of a transcript and what was said about the lines that are not rows."""

    rows: list[Row]
    notes: list[str]


def read_bytes(path: str | os.PathLike) -> bytes:
    """The file's bytes (decompressed when it is gzip), only read; errors as :class:`TranscriptError`."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise TranscriptError(f"{path} is a directory, not a transcript") from None
    except OSError as exc:
        raise TranscriptError(f"cannot read {path}: {exc.strerror}") from None
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise TranscriptError(f"{path}: damaged gzip data ({exc})") from None


def read_rows(data: bytes, *, strict: bool = False, name: str = "input") -> Rows:
    """Every line that holds a JSON object, in order; blank lines ignored, others noted (or fatal if strict)."""
    rows: list[Row] = []
    notes: list[str] = []
    last = data.count(b"\n") + 1
    for number, line in _lines(data):
        problem = None
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            torn = number == last and not data.endswith(b"\n")
            value, problem = None, "not valid JSON" + (" (cut off: the last line has no newline)" if torn else "")
        if problem is None and not isinstance(value, dict):
            problem = f"a JSON {type(value).__name__}, not an object"
        if problem is None:
            rows.append(Row(number, value))
            continue
        if strict:
            raise TranscriptError(f"{name} line {number}: {problem}")
        notes.append(f"line {number}: {problem}; skipped")
    return Rows(rows, notes)


def _lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    for number, line in enumerate(data.split(b"\n"), 1):
        line = line.strip()
        if line:
            yield number, line
