"""pi-compact: append-only JSONL session trees for LLM agents, in pi's format, with compaction.

    >>> from pi_compact import Session
    >>> session = Session.in_memory("/tmp/project")
    >>> _ = session.append_message({"role": "user", "content": "hello", "timestamp": 0})
    >>> session.build_context().messages[0]["content"]
    'hello'
"""

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from .branching import BranchPreparation, CheckoutResult, checkout, collect_abandoned, common_ancestor, prepare_branch
    from .compaction import AutoCompactor, CompactionResult, CompactionSettings, compact, ensure_fits
    from .replay import ReplayReport, replay

__all__ = [
    "ROOT",
    "AmbiguousEntryError",
    "AutoCompactor",
    "BranchPreparation",
    "CheckoutResult",
    "CompactionError",
    "CompactionInProgressError",
    "CompactionResult",
    "CompactionSettings",
    "ConcurrentModificationError",
    "CorruptEntryError",
    "EntryNotFoundError",
    "LockTimeoutError",
    "NotASessionError",
    "PiCompactError",
    "Problem",
    "ReplayReport",
    "Session",
    "SessionContext",
    "SessionFileError",
    "SessionInfo",
    "SummarizerError",
    "TreeNode",
    "UsageError",
    "agent_dir",
    "build_session_context",
    "checkout",
    "collect_abandoned",
    "common_ancestor",
    "compact",
    "default_session_dir",
    "ensure_fits",
    "find_most_recent",
    "list_all_sessions",
    "list_sessions",
    "migrate",
    "prepare_branch",
    "replay",
    "sessions_root",
]

_LAZY = {name: ".branching" for name in ("BranchPreparation", "CheckoutResult", "checkout", "collect_abandoned",
                                         "common_ancestor", "prepare_branch")}
_LAZY.update({name: ".compaction" for name in ("AutoCompactor", "CompactionResult", "CompactionSettings", "compact",
                                               "ensure_fits")})
_LAZY.update({name: ".replay" for name in ("ReplayReport", "replay")})
"""Exports imported on first use: they pull in the compaction package, which ``pi-compact --help`` never needs."""


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value
