"""pi-compact: append-only JSONL session trees for LLM agents, in pi's format, with compaction.

    >>> from pi_compact import Session
    >>> session = Session.in_memory("/tmp/project")
    >>> _ = session.append_message({"role": "user", "content": "hello", "timestamp": 0})
    >>> session.build_context().messages[0]["content"]
    'hello'
"""

from typing import TYPE_CHECKING

from .errors import (
    AmbiguousEntryError,
    CompactionError,
    CompactionInProgressError,
    ConcurrentModificationError,
    CorruptEntryError,
    EntryNotFoundError,
    LockTimeoutError,
    NotASessionError,
    NothingToCompactError,
    PiCompactError,
    SessionFileError,
    SummarizerError,
    SummarizerOverflowError,
    TranscriptError,
    UsageError,
)

if TYPE_CHECKING:
    from .branch_diff import BranchDiff, BranchSide, diff_branches
    from .branching import (
        BranchPreparation,
        BranchSummaryNote,
        CheckoutResult,
        branch_summary_notes,
        checkout,
        collect_abandoned,
        common_ancestor,
        prepare_branch,
    )
    from .compaction import AutoCompactor, CompactionResult, CompactionSettings, compact, ensure_fits
    from .context import SessionContext, build_session_context
    from .importers import ImportedSession, ReferenceSummary, import_transcript, read_transcript, reference_summaries
    from .recaller import RecallHit, RecallResult, recall
    from .evaluation.replayer import ReplayReport, replay
    from .session import ROOT, Session
    from .session_json import compaction_refusal_json, session_info_json, session_show_json, session_tree_json
    from .store.index import TreeNode
    from .store.listing import SessionInfo, find_most_recent, list_all_sessions, list_sessions
    from .store.migrate import migrate
    from .store.paths import agent_dir, default_session_dir, sessions_root
    from .store.scan import Problem

__all__ = [
    "ROOT",
    "AmbiguousEntryError",
    "AutoCompactor",
    "BranchDiff",
    "BranchPreparation",
    "BranchSide",
    "BranchSummaryNote",
    "CheckoutResult",
    "CompactionError",
    "CompactionInProgressError",
    "CompactionResult",
    "CompactionSettings",
    "ConcurrentModificationError",
    "CorruptEntryError",
    "EntryNotFoundError",
    "ImportedSession",
    "LockTimeoutError",
    "NotASessionError",
    "NothingToCompactError",
    "PiCompactError",
    "Problem",
    "RecallHit",
    "RecallResult",
    "ReferenceSummary",
    "ReplayReport",
    "Session",
    "SessionContext",
    "SessionFileError",
    "SessionInfo",
    "SummarizerError",
    "SummarizerOverflowError",
    "TranscriptError",
    "TreeNode",
    "UsageError",
    "agent_dir",
    "branch_summary_notes",
    "build_session_context",
    "checkout",
    "collect_abandoned",
    "common_ancestor",
    "compact",
    "compaction_refusal_json",
    "default_session_dir",
    "diff_branches",
    "ensure_fits",
    "find_most_recent",
    "import_transcript",
    "list_all_sessions",
    "list_sessions",
    "migrate",
    "prepare_branch",
    "read_transcript",
    "recall",
    "reference_summaries",
    "replay",
    "session_info_json",
    "session_show_json",
    "session_tree_json",
    "sessions_root",
]

# Everything but the errors is imported on first use (PEP 562), so that ``import pi_compact`` -- and with it
# ``pi-compact --help`` -- does not pay for the session, store and compaction modules it never touches.
_LAZY = {
    "ROOT": ".session",
    "Session": ".session",
    "compaction_refusal_json": ".session_json",
    "session_info_json": ".session_json",
    "session_show_json": ".session_json",
    "session_tree_json": ".session_json",
    "SessionContext": ".context",
    "build_session_context": ".context",
    "TreeNode": ".store.index",
    "SessionInfo": ".store.listing",
    "find_most_recent": ".store.listing",
    "list_all_sessions": ".store.listing",
    "list_sessions": ".store.listing",
    "migrate": ".store.migrate",
    "agent_dir": ".store.paths",
    "default_session_dir": ".store.paths",
    "sessions_root": ".store.paths",
    "Problem": ".store.scan",
    "BranchDiff": ".branch_diff",
    "BranchSide": ".branch_diff",
    "diff_branches": ".branch_diff",
    "BranchPreparation": ".branching",
    "BranchSummaryNote": ".branching",
    "branch_summary_notes": ".branching",
    "CheckoutResult": ".branching",
    "checkout": ".branching",
    "collect_abandoned": ".branching",
    "common_ancestor": ".branching",
    "prepare_branch": ".branching",
    "AutoCompactor": ".compaction",
    "CompactionResult": ".compaction",
    "CompactionSettings": ".compaction",
    "compact": ".compaction",
    "ensure_fits": ".compaction",
    "RecallHit": ".recaller",
    "RecallResult": ".recaller",
    "recall": ".recaller",
    "ImportedSession": ".importers",
    "ReferenceSummary": ".importers",
    "import_transcript": ".importers",
    "read_transcript": ".importers",
    "reference_summaries": ".importers",
    "ReplayReport": ".evaluation.replayer",
    "replay": ".evaluation.replayer",
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'pi_compact' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
