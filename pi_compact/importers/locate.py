"""Where Claude Code and Codex keep a directory's sessions, so nobody types a 130-character path.

Claude Code keeps them in ``$CLAUDE_CONFIG_DIR/projects/<cwd with every character but letters and digits
replaced by "-">/`` (``~/.claude`` by default); Codex in ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl``
(``~/.codex``), whose first line names the directory it ran in. Only the start of each file is read.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import orjson

from ..errors import UsageError

AGENTS: tuple[str, ...] = ("claude-code", "codex")
_HEAD_BYTES = 256 * 1024
_NOT_ALNUM = re.compile(r"[^a-zA-Z0-9]")


def claude_home() -> Path:
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def codex_home() -> Path:
    configured = os.environ.get("CODEX_HOME")
    return Path(configured).expanduser() if configured else Path.home() / ".codex"


def claude_project_dir(cwd: str | os.PathLike) -> Path:
    """Claude Code's folder for ``cwd``; the older spelling (only ``/`` and ``.`` replaced) where that exists."""
    projects = claude_home() / "projects"
    text = str(cwd)
    folder = projects / _NOT_ALNUM.sub("-", text)
    older = projects / text.replace("/", "-").replace(".", "-")
    return older if not folder.is_dir() and older.is_dir() else folder


@dataclass(frozen=True)
class AgentSession:
    """One transcript of another agent, as ``session list`` shows it."""

    agent: str
    path: Path
    id: str
    cwd: str
    modified: str
    """The file's modification time, ISO-8601 UTC."""
    size: int
    message_count: int
    """Lines that hold a message (an estimate read from the raw lines; rows of one reply each count)."""
    first_message: str
    name: str | None

    def to_json(self) -> dict:
        return {"agent": self.agent, "path": str(self.path), "id": self.id, "cwd": self.cwd,
                "modified": self.modified, "size": self.size, "messageCount": self.message_count,
                "firstMessage": self.first_message, "name": self.name}


def agent_sessions(agent: str, cwd: str | os.PathLike) -> list[AgentSession]:
    """``agent``'s sessions for the directory ``cwd``, newest first."""
    if agent not in AGENTS:
        raise UsageError(f"unknown agent {agent!r}; choose one of {', '.join(AGENTS)}")
    if agent == "claude-code":
        folder = claude_project_dir(cwd)
        files = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
        found = [_describe(agent, path) for path in files]
    else:
        root = codex_home() / "sessions"
        files = sorted(root.rglob("rollout-*.jsonl")) if root.is_dir() else []
        found = [s for s in (_describe(agent, path) for path in files) if s.cwd == str(cwd)]
    return sorted(found, key=lambda s: s.modified, reverse=True)


def _describe(agent: str, path: Path) -> AgentSession:
    info = path.stat()
    with path.open("rb") as handle:
        head = handle.read(_HEAD_BYTES)
    rows = [row for row in map(_row, head.split(b"\n")) if row is not None]
    ids, cwds, first, name, messages = _scan(agent, rows)
    modified = datetime.fromtimestamp(info.st_mtime, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return AgentSession(agent, path, ids or path.stem, cwds, modified[:23] + "Z", info.st_size, messages,
                        first, name)


def _row(line: bytes) -> dict | None:
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _scan(agent: str, rows: list[dict]) -> tuple[str, str, str, str | None, int]:
    session_id, cwd, first, name, messages = "", "", "", None, 0
    for row in rows:
        payload = row.get("payload") if isinstance(row.get("payload"), dict) else row
        if agent == "codex" and row.get("type") == "session_meta":
            session_id, cwd = str(payload.get("id") or ""), str(payload.get("cwd") or "")
        if agent == "claude-code":
            session_id = session_id or str(row.get("sessionId") or "")
            cwd = cwd or str(row.get("cwd") or "")
            if row.get("type") in ("summary", "custom-title"):
                name = str(row.get("customTitle") or row.get("summary") or "") or name
        text = _user_text(agent, row, payload)
        messages += text is not None or _is_message(agent, row, payload)
        if text and not first and not text.startswith("<") and not (row.get("isMeta") or row.get("isCompactSummary")):
            first = text
    return session_id, cwd, first, name, messages


def _is_message(agent: str, row: dict, payload: dict) -> bool:
    if agent == "claude-code":
        return row.get("type") == "assistant"
    return row.get("type") == "response_item" and payload.get("type") == "message"


def _user_text(agent: str, row: dict, payload: dict) -> str | None:
    """The text of a user message row (``None`` for other rows; tool results are not typed text)."""
    if agent == "claude-code":
        message = row.get("message") if row.get("type") == "user" else None
        content = message.get("content") if isinstance(message, dict) else None
    else:
        kind = row.get("type") == "response_item" and payload.get("type") == "message"
        content = payload.get("content") if kind and payload.get("role") == "user" else None
    if isinstance(content, str):
        return content.strip()
    if not isinstance(content, list):
        return None
    texts = [b.get("text") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
    return "\n".join(texts).strip() if texts else None
