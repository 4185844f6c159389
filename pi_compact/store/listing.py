"""Finding sessions on disk: the sessions of one project folder, of all projects, and the most recent one.

Unlike pi, a long header never hides a file (pi reads only the first 512 bytes), and a file that is not a
session is skipped rather than failing the whole listing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

from ..accessors import content_text
from ..errors import CorruptEntryError, PiCompactError, UsageError
from .jsonl import iso_to_ms, js_trim
from .index import SessionIndex
from .paths import sessions_root
from .session_file import SessionFile, absolute_path
from .scan import parse_line

_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class SessionInfo:
    """One line of a session listing."""

    path: Path
    id: str
    cwd: str
    name: str | None
    parent_session: str | None
    created: str
    modified_ms: int
    """Newest user/assistant message time (ms), else the header time, else the file's mtime."""
    message_count: int | None
    """Messages on every branch; ``None`` when the file was too big to read whole (see :func:`session_info`)."""
    first_message: str

    @property
    def modified(self) -> datetime:
        return datetime.fromtimestamp(self.modified_ms / 1000, tz=timezone.utc)

    def to_json(self) -> dict:
        """One row of ``session list --json`` (``modified`` as an ISO time in UTC, to the millisecond)."""
        return {
            "path": str(self.path),
            "id": self.id,
            "cwd": self.cwd,
            "name": self.name,
            "parentSession": self.parent_session,
            "created": self.created,
            "modified": self.modified.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "messageCount": self.message_count,
            "firstMessage": self.first_message,
        }


HEAD_BYTES = 4 * 1024 * 1024
"""How far into a file a listing looks for its header (pi looks at 512 bytes): a file whose first 4 MB hold
no header is not listed, and a 2 GB line is never read to find out."""


def _header_of(path: Path) -> dict | None:
    """The header, read as :func:`Session.open` finds it (a BOM and garbage lines before it are skipped)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
    except OSError:
        return None
    lines = head.split(b"\n")
    if len(head) == HEAD_BYTES:
        lines.pop()  # cut by the bound: not a line we could read whole
    for raw in lines:
        raw = raw.removeprefix(_BOM)
        if not raw.strip():
            continue
        try:
            value = parse_line(raw)
        except ValueError:
            continue
        ok = isinstance(value, dict) and value.get("type") == "session" and isinstance(value.get("id"), str)
        return value if ok else None
    return None


def find_most_recent(directory: Path) -> Path | None:
    """The valid session file with the newest mtime in ``directory``, or ``None``."""
    candidates = []
    for path in _jsonl_files(directory):
        if _header_of(path) is not None:
            try:
                candidates.append((path.stat().st_mtime, path))
            except OSError:  # removed since we looked
                continue
    return max(candidates)[1] if candidates else None


def _jsonl_files(directory: Path) -> list[Path]:
    try:
        inside = directory.resolve()
        return [p for p in directory.iterdir() if p.name.endswith(".jsonl") and p.is_file() and _stays_in(p, inside)]
    except OSError:
        return []


def _stays_in(path: Path, folder: Path) -> bool:
    """A symlink leading out of the folder is not listed: a session picked by id from a listing (``--resume``)
    must never be a file elsewhere."""
    return not path.is_symlink() or path.resolve().is_relative_to(folder)


FULL_READ_BYTES = 16 * 1024 * 1024
"""Files up to this size are summarized from every line (pi's ``buildSessionInfo`` exactly)."""
TAIL_BYTES = 4 * 1024 * 1024
"""Of a bigger file, a listing reads the first :data:`HEAD_BYTES` and the last this many bytes, no more: time
and memory stay bounded by what is shown, whatever the file's size (a 2 GB file lists as fast as a small one)."""


def session_info(path: Path) -> SessionInfo | None:
    """Summarize one file, or ``None`` when it is not a readable session.

    A file bigger than :data:`FULL_READ_BYTES` is summarized from its head and tail: its messages are not
    counted (``message_count`` is ``None``), the first message is the first in the head, and the name and
    the newest activity are the newest in the tail (else the head).
    """
    header = _header_of(path)
    if header is None:
        return None
    try:
        size = os.stat(path).st_size
    except OSError:
        return None
    if size > FULL_READ_BYTES:
        return _info_from_ends(path, header, size)
    try:
        file = SessionFile.open(absolute_path(path))
    except PiCompactError:
        return None
    try:
        return _info_from(file, path)
    except PiCompactError:
        return None
    finally:
        file.close()


def _info_from(file: SessionFile, path: Path) -> SessionInfo:
    """pi's ``buildSessionInfo``: counts over every branch; times from user and assistant messages."""
    return summarize(path, file.header, file.index)


def summarize(path: Path, header: dict, index: SessionIndex) -> SessionInfo:
    """The listing row of a session already open (``session info``): nothing read again, no entry kept."""
    return _summary(path, header, _readable_messages(index), index.name(), counted=True)


def summarize_messages(path: Path, header: dict, messages: Iterator[dict], name: Callable[[], str | None]) -> SessionInfo:
    """:func:`summarize` from every ``message`` entry in file order, for a file read in pieces: ``name`` is asked
    once ``messages`` is exhausted (the newest name may be on the last line)."""
    return replace(_summary(path, header, messages, None, counted=True), name=name())


def _info_from_ends(path: Path, header: dict, size: int) -> SessionInfo | None:
    """The summary of a big file from its first and last bytes (whole lines only)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
            handle.seek(max(size - TAIL_BYTES, len(head)))
            tail = handle.read(TAIL_BYTES)
    except OSError:
        return None
    lines = head.split(b"\n")[:-1] + tail.split(b"\n")[1:]
    entries = [value for raw in lines if (value := _entry_or_none(raw)) is not None]
    messages = [entry for entry in entries if entry.get("type") == "message"]
    infos = [entry for entry in entries if entry.get("type") == "session_info"]
    name = infos[-1].get("name") if infos else None
    name = (js_trim(name) or None) if isinstance(name, str) else None
    return _summary(path, header, iter(messages), name, counted=False)


def _entry_or_none(raw: bytes) -> dict | None:
    if not raw.strip():
        return None
    try:
        value = parse_line(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) and value.get("type") != "session" else None


def _summary(path: Path, header: dict, messages: Iterator[dict], name: str | None, *, counted: bool) -> SessionInfo:
    count, first, newest = 0, None, None
    for entry in messages:
        count += 1
        message = entry.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("role"), str) or "content" not in message:
            continue
        role = message["role"]
        if role == "user" and first is None:
            first = content_text(message["content"], " ") or None
        if role in ("user", "assistant"):
            ms = _activity_ms(message, entry)
            newest = ms if newest is None or (ms is not None and ms > newest) else newest
    header_ms = iso_to_ms(header["timestamp"]) if isinstance(header.get("timestamp"), str) else None
    header_ms = header_ms if _representable(header_ms) else None
    if newest is not None and newest > 0:
        modified = newest
    elif header_ms is not None:
        modified = header_ms
    else:
        modified = int(os.stat(path).st_mtime * 1000)
    return SessionInfo(
        path=path,
        id=header["id"],
        cwd=header["cwd"] if isinstance(header.get("cwd"), str) else "",
        name=name,
        parent_session=header.get("parentSession"),
        created=str(header.get("timestamp", "")),
        modified_ms=int(modified),
        message_count=count if counted else None,
        first_message=first or "(no messages)",
    )


def _readable_messages(index: SessionIndex) -> Iterator[dict]:
    """Every ``message`` entry; a line that turns out unreadable is skipped, as pi's loader skips it."""
    for slot in index.slots:
        if slot.type != "message":
            continue
        try:
            yield index.peek(slot)  # not kept: summarizing a 290 MB file must not hold every message
        except CorruptEntryError:
            continue


def _activity_ms(message: dict, entry: dict) -> float | None:
    stamp = message.get("timestamp")
    if isinstance(stamp, (int, float)) and not isinstance(stamp, bool):
        return stamp if _representable(stamp) else None
    ms = iso_to_ms(entry["timestamp"]) if isinstance(entry.get("timestamp"), str) else None
    return ms if _representable(ms) else None


_FIRST_MS, _LAST_MS = -62135596800000, 253402300799999
"""0001-01-01 and 9999-12-31, Python's datetime range: times outside it (1e400, year 275760) are ignored."""


def _representable(ms: float | None) -> bool:
    return ms is not None and _FIRST_MS <= ms <= _LAST_MS


def list_sessions(directory: Path) -> list[SessionInfo]:
    """Sessions of one folder, newest first."""
    infos = [info for path in _jsonl_files(directory) if (info := session_info(path)) is not None]
    return _newest_first(infos)


def list_all_sessions(root: Path | None = None) -> list[SessionInfo]:
    """Sessions of every project folder under the sessions root, newest first."""
    root = root if root is not None else sessions_root()
    try:
        inside = root.resolve()
        folders = [p for p in root.iterdir() if p.is_dir() and _stays_in(p, inside)]
    except OSError:
        return []
    infos = [info for folder in folders for info in list_sessions(folder)]
    return _newest_first(infos)


def _newest_first(infos: list[SessionInfo]) -> list[SessionInfo]:
    """By modification time, newest first; ties by path, so the order does not depend on the directory's."""
    return sorted(sorted(infos, key=lambda info: str(info.path)), key=lambda info: info.modified_ms, reverse=True)


# -- naming a session: a path, an id prefix, or the newest ------------------------------------------------


def latest_session(cwd: str) -> Path:
    """The newest session of pi's folder for ``cwd`` (``chat -c``, ``session … --latest``), or a usage error."""
    from .paths import default_session_dir

    folder = default_session_dir(cwd)
    found = find_most_recent(folder)
    if found is None:
        raise UsageError(f"no session in {folder} (pi's folder for {cwd}), so none is the latest")
    return found


def find_session(ref: str, cwd: str) -> Path:
    """The session file ``ref`` names: an existing path, else the session whose id starts with ``ref`` among
    pi's folder for ``cwd``, then every project's (as ``pi --resume`` and ``chat -r`` find one).

    A prefix that fits several sessions is an error listing them; so is one that fits none.
    """
    path = Path(ref)
    if path.exists() or path.is_symlink() or not _could_be_id(ref):
        return path  # a path, even a missing one: the command says it is missing, in its own words
    from .paths import default_session_dir

    for folder_files in (lambda: _jsonl_files(default_session_dir(cwd)), _all_jsonl_files):
        matches = _with_id_prefix(folder_files(), ref)
        if len(matches) == 1:
            return matches[0][1]
        if len(matches) > 1:
            shown = ", ".join(f"{sid} ({file.name})" for sid, file in matches[:_SHOWN])
            more = f" and {len(matches) - _SHOWN} more" if len(matches) > _SHOWN else ""
            raise UsageError(f"{ref!r} matches {len(matches)} sessions: {shown}{more}; give more characters")
    raise UsageError(f"{ref}: no such file, and no session id starts with it (pi-compact session list shows them)")


_SHOWN = 5


def _could_be_id(ref: str) -> bool:
    """A bare name (no folder, not ``….jsonl``) may be a session id or its start; anything else is a path."""
    return bool(ref) and "/" not in ref and os.sep not in ref and not ref.endswith(".jsonl")


def _all_jsonl_files() -> list[Path]:
    root = sessions_root()
    try:
        inside = root.resolve()
        folders = sorted(p for p in root.iterdir() if p.is_dir() and _stays_in(p, inside))
    except OSError:
        return []
    return [file for folder in folders for file in _jsonl_files(folder)]


def _with_id_prefix(files: list[Path], ref: str) -> list[tuple[str, Path]]:
    """``(id, path)`` of the sessions whose id starts with ``ref``, read from headers only."""
    headers = ((_header_of(file), file) for file in sorted(files))
    return sorted((header["id"], file) for header, file in headers if header is not None and header["id"].startswith(ref))
