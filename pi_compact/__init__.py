"""pi-compact: append-only JSONL session trees for LLM agents, in pi's format, with compaction.

    >>> from pi_compact import Session
    >>> session = Session.in_memory("/tmp/project")
    >>> _ = session.append_message({"role": "user", "content": "hello", "timestamp": 0})
    >>> session.build_context().messages[0]["content"]
    'hello'
"""

from .context import SessionContext, build_session_context
from .errors import (
    AmbiguousEntryError,
    CompactionError,
    CompactionInProgressError,
    ConcurrentModificationError,
    CorruptEntryError,
    EntryNotFoundError,
    LockTimeoutError,
    NotASessionError,
    PiCompactError,
    SessionFileError,
    SummarizerError,
    UsageError,
)
from .session import ROOT, Session
from .store.index import TreeNode
from .store.listing import SessionInfo, find_most_recent, list_all_sessions, list_sessions
from .store.migrate import migrate
from .store.paths import agent_dir, default_session_dir, sessions_root
from .store.scan import Problem

__all__ = [
    "ROOT",
    "AmbiguousEntryError",
    "CompactionError",
    "CompactionInProgressError",
    "ConcurrentModificationError",
    "CorruptEntryError",
    "EntryNotFoundError",
    "LockTimeoutError",
    "NotASessionError",
    "PiCompactError",
    "Problem",
    "Session",
    "SessionContext",
    "SessionFileError",
    "SessionInfo",
    "SummarizerError",
    "TreeNode",
    "UsageError",
    "agent_dir",
    "build_session_context",
    "default_session_dir",
    "find_most_recent",
    "list_all_sessions",
    "list_sessions",
    "migrate",
    "sessions_root",
]
