"""Where pi keeps session files, and how they are named.

``$PI_CODING_AGENT_DIR`` (or ``~/.pi/agent``) holds ``sessions/--<cwd with / replaced by ->--/``, one folder
per project; each file is named ``<header timestamp with : and . as ->_<session id>.jsonl``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import UsageError

AGENT_DIR_ENV = "PI_CODING_AGENT_DIR"
SESSION_DIR_ENV = "PI_CODING_AGENT_SESSION_DIR"
_SAFE_SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-.]{0,127}$")


def agent_dir() -> Path:
    override = os.environ.get(AGENT_DIR_ENV)
    return Path(expand_tilde(override)) if override else Path.home() / ".pi" / "agent"


def expand_tilde(path: str) -> str:
    """pi's ``expandTildePath``: only ``~`` and ``~/...`` (``~user`` stays as written, unlike ``expanduser``)."""
    if path == "~" or path.startswith("~/"):
        return str(Path.home()) + path[1:]
    return path


def sessions_root() -> Path:
    return agent_dir() / "sessions"


def project_dir_name(cwd: str) -> str:
    """``/Users/a/proj`` → ``--Users-a-proj--``: one leading separator dropped, then / \\ : become -."""
    text = cwd[1:] if cwd[:1] in ("/", "\\") else cwd
    return "--" + re.sub(r"[/\\:]", "-", text) + "--"


def default_session_dir(cwd: str) -> Path:
    """The sessions folder of a project: the session-dir override when set, else pi's per-project folder."""
    override = os.environ.get(SESSION_DIR_ENV)
    if override:
        return Path(expand_tilde(override))
    return sessions_root() / project_dir_name(cwd)


def session_file_name(timestamp: str, session_id: str) -> str:
    check_session_id(session_id)
    return re.sub(r"[:.]", "-", timestamp) + "_" + session_id + ".jsonl"


def check_session_id(session_id: str) -> str:
    """Reject ids that could address a file outside the sessions folder (``../x``, ``a/b``, absolute paths)."""
    if not _SAFE_SESSION_ID.match(session_id) or ".." in session_id:
        raise UsageError(f"invalid session id {session_id!r}: letters, digits, '-', '_' and '.' only")
    return session_id
