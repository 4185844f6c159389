"""TypedDicts of pi's session format, version 3: one per kind of line, message and content block.

Entries and messages stay the plain dicts the file holds, so unknown fields round-trip untouched; these types
only describe the fields pi defines. ``total=False`` marks what pi may omit.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict, Union

CURRENT_SESSION_VERSION = 3

ThinkingLevel = Literal["off", "minimal", "low", "medium", "high", "xhigh"]
THINKING_LEVELS: tuple[str, ...] = ("off", "minimal", "low", "medium", "high", "xhigh")


class SessionHeader(TypedDict, total=False):
    """Line 1 of every session file."""

    type: Literal["session"]
    version: int
    id: str
    timestamp: str
    cwd: str
    parentSession: str


# -- content blocks ---------------------------------------------------------------------------------------


class TextContent(TypedDict, total=False):
    type: Literal["text"]
    text: str
    textSignature: str


class ImageContent(TypedDict, total=False):
    type: Literal["image"]
    data: str
    """Base64-encoded bytes."""
    mimeType: str


class ThinkingContent(TypedDict, total=False):
    type: Literal["thinking"]
    thinking: str
    thinkingSignature: str
    redacted: bool


class ToolCall(TypedDict, total=False):
    type: Literal["toolCall"]
    id: str
    name: str
    arguments: dict[str, Any]
    thoughtSignature: str


ContentBlock = Union[TextContent, ImageContent, ThinkingContent, ToolCall]


# -- messages (timestamps are Unix milliseconds) ------------------------------------------------------------


class Usage(TypedDict, total=False):
    input: int
    output: int
    cacheRead: int
    cacheWrite: int
    totalTokens: int
    cost: dict[str, float]


class UserMessage(TypedDict, total=False):
    role: Literal["user"]
    content: str | list[TextContent | ImageContent]
    timestamp: int


class AssistantMessage(TypedDict, total=False):
    role: Literal["assistant"]
    content: list[TextContent | ThinkingContent | ToolCall]
    api: str
    provider: str
    model: str
    usage: Usage
    stopReason: Literal["stop", "length", "toolUse", "error", "aborted"]
    errorMessage: str
    timestamp: int


class ToolResultMessage(TypedDict, total=False):
    role: Literal["toolResult"]
    toolCallId: str
    toolName: str
    content: list[TextContent | ImageContent]
    details: Any
    isError: bool
    timestamp: int


class BashExecutionMessage(TypedDict, total=False):
    role: Literal["bashExecution"]
    command: str
    output: str
    exitCode: int | None
    cancelled: bool
    truncated: bool
    fullOutputPath: str
    timestamp: int
    excludeFromContext: bool


class CustomMessage(TypedDict, total=False):
    role: Literal["custom"]
    customType: str
    content: str | list[TextContent | ImageContent]
    display: bool
    details: Any
    timestamp: int


class BranchSummaryMessage(TypedDict, total=False):
    """Made by :func:`build_session_context` from a ``branch_summary`` entry; never stored."""

    role: Literal["branchSummary"]
    summary: str
    fromId: str
    timestamp: int


class CompactionSummaryMessage(TypedDict, total=False):
    """Made by :func:`build_session_context` from a ``compaction`` entry; never stored."""

    role: Literal["compactionSummary"]
    summary: str
    tokensBefore: int
    timestamp: int


Message = Union[
    UserMessage,
    AssistantMessage,
    ToolResultMessage,
    BashExecutionMessage,
    CustomMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
]


# -- entries ----------------------------------------------------------------------------------------------


class EntryBase(TypedDict, total=False):
    type: str
    id: str
    parentId: str | None
    timestamp: str
    """ISO-8601, UTC, milliseconds, ``Z``."""


class MessageEntry(EntryBase, total=False):
    message: Message


class ThinkingLevelChangeEntry(EntryBase, total=False):
    thinkingLevel: str


class ModelChangeEntry(EntryBase, total=False):
    provider: str
    modelId: str


class CompactionEntry(EntryBase, total=False):
    summary: str
    firstKeptEntryId: str
    tokensBefore: int
    details: dict[str, Any]
    """pi: ``{readFiles, modifiedFiles}``; we add ``strategy`` and a few figures."""
    fromHook: bool


class BranchSummaryEntry(EntryBase, total=False):
    fromId: str
    summary: str
    details: dict[str, Any]
    fromHook: bool


class CustomEntry(EntryBase, total=False):
    customType: str
    data: Any


class CustomMessageEntry(EntryBase, total=False):
    customType: str
    content: str | list[TextContent | ImageContent]
    display: bool
    details: Any


class LabelEntry(EntryBase, total=False):
    targetId: str
    label: str


class SessionInfoEntry(EntryBase, total=False):
    name: str


Entry = Union[
    MessageEntry,
    ThinkingLevelChangeEntry,
    ModelChangeEntry,
    CompactionEntry,
    BranchSummaryEntry,
    CustomEntry,
    CustomMessageEntry,
    LabelEntry,
    SessionInfoEntry,
]

ENTRY_TYPES: tuple[str, ...] = (
    "message",
    "thinking_level_change",
    "model_change",
    "compaction",
    "branch_summary",
    "custom",
    "custom_message",
    "label",
    "session_info",
)
