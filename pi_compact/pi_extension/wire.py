"""The protocol's messages as ``TypedDict``s: what the extension sends and what it gets back.

They describe the JSON; nothing is converted into them (a request is read field by field, each checked, by
:mod:`pi_compact.pi_extension.protocol`). pi's own shapes (entries, messages, its preparations) travel as pi
made them.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class PiModelJSON(TypedDict):
    """pi's current model and the key pi resolved for it (``ctx.model`` and ``modelRegistry``)."""

    provider: str
    id: str
    api: str
    """pi's API dialect: ``anthropic-messages``, ``openai-completions``, ``openai-responses`` are called."""
    baseUrl: NotRequired[str]
    contextWindow: NotRequired[int]
    apiKey: NotRequired[str]
    """Only ever on stdin; never logged, never in an error or in ``details``."""


class CompactRequest(TypedDict):
    protocol: int
    type: Literal["compact"]
    branchEntries: list[dict[str, Any]]
    """pi's ``event.branchEntries``: the path from the root to the leaf, as pi's entries."""
    preparation: dict[str, Any]
    """pi's ``event.preparation``, with ``fileOps`` sets sent as arrays."""
    customInstructions: NotRequired[str | None]
    cwd: NotRequired[str]
    model: NotRequired[PiModelJSON | None]
    contextWindow: NotRequired[int]
    fixedTokens: NotRequired[int]
    """The system prompt's (and tools') tokens, which the kept context must leave room for."""
    deadlineSeconds: NotRequired[float]


class CompactionJSON(TypedDict):
    """What pi's ``session_before_compact`` handler returns as ``compaction``; pi appends it as it is."""

    summary: str
    firstKeptEntryId: str
    tokensBefore: int
    details: dict[str, Any]


class BranchSummaryRequest(TypedDict):
    protocol: int
    type: Literal["branch_summary"]
    preparation: dict[str, Any]
    """``entriesToSummarize`` (pi's entries of the branch left) and ``customInstructions``."""
    cwd: NotRequired[str]
    model: NotRequired[PiModelJSON | None]
    deadlineSeconds: NotRequired[float]


class BranchSummaryJSON(TypedDict):
    summary: str
    details: dict[str, Any]


class RecallRequest(TypedDict):
    protocol: int
    type: Literal["recall"]
    sessionFile: str
    query: str
    leafId: NotRequired[str | None]
    limit: NotRequired[int]
    branches: NotRequired[bool]


class ErrorResponse(TypedDict):
    protocol: int
    ok: Literal[False]
    code: Literal["bad_request", "unknown_type", "protocol", "failed"]
    error: str
    """One line."""


__all__ = ["BranchSummaryJSON", "BranchSummaryRequest", "CompactRequest", "CompactionJSON", "ErrorResponse",
           "PiModelJSON", "RecallRequest"]
