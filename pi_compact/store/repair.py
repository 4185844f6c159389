"""Writing a repaired copy of a damaged session file; the original is never touched.

The copy follows the doctor's plan (:mod:`pi_compact.store.doctor`): the torn tail, unparsable lines, extra
headers and unusable entries are left out; a missing header is written anew; later duplicates of an id get
fresh ids, and the entries after them that named that id follow the new one; broken parent links and cycles
are re-attached. Entries nothing happened to are copied byte for byte. The copy opens with no problems, in
pi-compact and in pi.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import SessionFileError, UsageError
from .backups import lost_to_backups
from .doctor import Diagnosis, Doctor, Entry
from .doctor_fields import MISSING
from .jsonl import dumps_line
from .writer import write_new_file

_LEFT_OUT = {"torn_tail", "invalid_json", "not_object", "extra_header", "corrupt_header"}
_WHITESPACE = b" \t\r\n\x0b\x0c"


@dataclass(frozen=True)
class Repaired:
    """A repaired copy's bytes and what was done to get them."""

    data: bytes
    actions: tuple[str, ...]
    entries: int
    """Entries in the copy."""
    left_out: int
    """Entry lines of the original that the copy leaves out (bad lines not counted)."""
    lines_left_out: int
    """Lines of the original the copy leaves out: bad lines and unusable entries, one action each."""

    def to_json(self, output: str | os.PathLike) -> dict:
        """The ``repair`` part of ``session doctor --json --repair -o OUTPUT``."""
        return {"output": str(output), "entries": self.entries, "leftOut": self.left_out,
                "linesLeftOut": self.lines_left_out, "actions": list(self.actions)}


def repair(data: bytes) -> tuple[Diagnosis, Repaired]:
    """The diagnosis of ``data`` and the repaired copy that goes with it."""
    doctor = Doctor(data).run()
    actions = [f"line {f.line}: left out ({f.kind})" for f in doctor.findings if f.kind in _LEFT_OUT and f.line]
    bad_lines = len(actions)
    lines = [_header_line(doctor, actions)]
    kept = 0
    for entry in doctor.entries:
        if entry.drop:
            actions.append(f"line {entry.line}: left out entry {entry.id}: {entry.drop}")
            continue
        lines.append(_entry_line(entry))
        kept += 1
    actions += doctor.actions
    left_out = len(doctor.entries) - kept
    repaired = Repaired(b"".join(lines), tuple(actions), kept, left_out, bad_lines + left_out)
    return doctor.diagnosis(), repaired


def doctor_json(path: str | os.PathLike, diagnosis: Diagnosis, repaired: Repaired | None = None,
                output: str | os.PathLike | None = None) -> dict:
    """What ``session doctor --json`` prints for the file at ``path``: its diagnosis, and with ``repaired``
    the copy written to ``output`` (``"repair": null`` without one)."""
    return {
        "file": str(path),
        "clean": diagnosis.clean,
        "version": diagnosis.version,
        "entries": diagnosis.entries,
        "errors": len(diagnosis.errors),
        "warnings": len(diagnosis.warnings),
        "problems": [finding.to_json() for finding in diagnosis.findings],
        "repair": None if repaired is None else repaired.to_json(output),
    }


def _header_line(doctor: Doctor, actions: list[str]) -> bytes:
    if doctor.header is None:
        header = doctor.synthesized_header()
        actions.append(f"wrote a new session header (id {header['id']})")
        return dumps_line(header)
    if doctor.header_changed or doctor.header_raw is None:
        return dumps_line(doctor.header)
    return doctor.header_raw.strip(_WHITESPACE) + b"\n"


def _entry_line(entry: Entry) -> bytes:
    parent_id = entry.parent.id if entry.parent is not None else None
    if entry.value.get("parentId", MISSING) != parent_id:
        entry.value["parentId"] = parent_id
        entry.changed = True
    if not entry.changed and entry.raw is not None:
        return entry.raw.strip(_WHITESPACE) + b"\n"
    try:
        return dumps_line(entry.value)
    except (RecursionError, ValueError):
        raise SessionFileError(f"line {entry.line} is nested too deeply to be rewritten") from None


def write_repaired(source: str | os.PathLike, output: str | os.PathLike) -> tuple[Diagnosis, Repaired]:
    """Diagnose ``source`` and write its repaired copy to ``output``, a new file (never ``source`` itself)."""
    source, output = Path(source), Path(output)
    if output.exists() and source.exists() and os.path.samefile(source, output):
        raise UsageError(f"{output} is the file being repaired; the doctor never writes over it")
    if output.exists() or output.is_symlink():
        raise UsageError(f"{output} already exists; choose a new file")
    data = read_session_bytes(source)
    diagnosis, repaired = repair(data)
    write_new_file(output, repaired.data)  # whole or not at all: a crash mid-write leaves no OUT
    return _with_backups(diagnosis, source, data), repaired


def check_file(path: str | os.PathLike) -> Diagnosis:
    """The diagnosis of the file at ``path``, including entries that survive only in its migration backups."""
    path = Path(path)
    data = read_session_bytes(path)
    return _with_backups(repair(data)[0], path, data)


def _with_backups(diagnosis: Diagnosis, path: Path, data: bytes) -> Diagnosis:
    lost = lost_to_backups(path, data)
    return replace(diagnosis, findings=diagnosis.findings + tuple(lost)) if lost else diagnosis


def read_session_bytes(path: Path) -> bytes:
    if path.is_dir():
        raise SessionFileError(f"{path} is a directory, not a session file")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise SessionFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise SessionFileError(f"cannot read {path}: {exc.strerror}") from None
