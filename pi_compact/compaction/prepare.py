"""Preparing a compaction: what to summarize, what to keep, what the previous summary said, which files.

The region to summarize starts where the previous compaction's kept region started (so messages kept last
time are folded in now) and ends at the cut point; a split turn's opening part is summarized separately.
File lists accumulate: the previous compaction's and the branch summaries' lists, plus every file the
summarized messages read or changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..context import branch_summary_message, context_from_path, custom_message
from .cut import CutPoint, find_cut_point
from .offline.facts import extract_facts
from .settings import CompactionSettings
from .tokens import estimate_context_tokens

_PI_FILE_TOOLS = {"read": "read", "write": "modified", "edit": "modified"}


@dataclass(frozen=True)
class FileLists:
    """Files read and files modified (a modified file is not listed as read), sorted."""

    read_files: tuple[str, ...] = ()
    modified_files: tuple[str, ...] = ()

    @classmethod
    def build(cls, read: set[str], modified: set[str]) -> "FileLists":
        return cls(tuple(sorted(read - modified, key=_js_order)), tuple(sorted(modified, key=_js_order)))

    def details(self) -> dict:
        return {"readFiles": list(self.read_files), "modifiedFiles": list(self.modified_files)}


def _js_order(text: str) -> bytes:
    """JavaScript's default sort compares UTF-16 code units."""
    return text.encode("utf-16-be")


@dataclass(frozen=True)
class CompactionPreparation:
    """Everything a summarizer needs, computed from the path without calling anybody."""

    path: tuple[dict, ...]
    boundary_start: int
    cut: CutPoint
    first_kept_entry_id: str
    messages_to_summarize: tuple[dict, ...]
    turn_prefix_messages: tuple[dict, ...]
    previous_summary: str | None
    tokens_before: int
    tokens_before_measured: bool
    files: FileLists

    @property
    def is_split_turn(self) -> bool:
        return self.cut.is_split_turn

    @property
    def summarized_messages(self) -> tuple[dict, ...]:
        return self.messages_to_summarize + self.turn_prefix_messages


def message_for_summary(entry: dict) -> dict | None:
    """pi's ``getMessageFromEntryForCompaction``: compactions contribute through ``previous_summary``."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        return message if isinstance(message, dict) else None
    if kind == "custom_message":
        return custom_message(entry)
    if kind == "branch_summary":
        return branch_summary_message(entry)
    return None


def _messages(path: list[dict], begin: int, end: int) -> tuple[dict, ...]:
    return tuple(m for m in (message_for_summary(path[i]) for i in range(begin, end)) if m is not None)


def last_compaction_index(path: list[dict]) -> int:
    for i in range(len(path) - 1, -1, -1):
        if path[i].get("type") == "compaction":
            return i
    return -1


def region_start(path: list[dict]) -> tuple[int, str | None]:
    """Where summarizing starts, and the previous summary (pi 0.73: at the previous kept boundary)."""
    previous = last_compaction_index(path)
    if previous < 0:
        return 0, None
    compaction = path[previous]
    kept_id = compaction.get("firstKeptEntryId")
    kept_at = next((i for i in range(previous) if path[i].get("id") == kept_id), -1)
    summary = compaction.get("summary")
    return (kept_at if kept_at >= 0 else previous + 1), (summary if isinstance(summary, str) else None)


def prepare_compaction(path: list[dict], settings: CompactionSettings) -> CompactionPreparation | None:
    """``None`` when there is nothing to do: an empty path, or a path that ends in a compaction."""
    if not path or path[-1].get("type") == "compaction":
        return None
    start, previous_summary = region_start(path)
    tokens = estimate_context_tokens(context_from_path(path).messages)
    cut = find_cut_point(path, start, len(path), settings.keep_recent_tokens)
    first_kept = path[cut.first_kept_index] if cut.first_kept_index < len(path) else None
    if first_kept is None or not isinstance(first_kept.get("id"), str):
        return None
    history_end = cut.turn_start_index if cut.is_split_turn else cut.first_kept_index
    history = _messages(path, start, history_end)
    prefix = _messages(path, cut.turn_start_index, cut.first_kept_index) if cut.is_split_turn else ()
    return CompactionPreparation(
        path=tuple(path),
        boundary_start=start,
        cut=cut,
        first_kept_entry_id=first_kept["id"],
        messages_to_summarize=history,
        turn_prefix_messages=prefix,
        previous_summary=previous_summary,
        tokens_before=tokens.tokens,
        tokens_before_measured=tokens.measured,
        files=collect_files(path, history + prefix),
    )


def collect_files(path: list[dict], messages: tuple[dict, ...]) -> FileLists:
    """Files from earlier compactions and branch summaries on the path, plus those the messages touched."""
    read: set[str] = set()
    modified: set[str] = set()
    previous = last_compaction_index(path)
    seeds = ([path[previous]] if previous >= 0 else []) + [e for e in path if e.get("type") == "branch_summary"]
    for entry in seeds:
        _seed(entry, read, modified)
    for name, file in _pi_file_ops(messages):
        (read if _PI_FILE_TOOLS[name] == "read" else modified).add(file)
    facts = extract_facts(list(messages))
    read.update(facts.read_files)
    modified.update(facts.modified_files)
    return FileLists.build(read, modified)


def _seed(entry: dict, read: set[str], modified: set[str]) -> None:
    if entry.get("type") not in ("compaction", "branch_summary") or entry.get("fromHook"):
        return
    details = entry.get("details")
    if isinstance(details, dict):
        read.update(f for f in details.get("readFiles") or () if isinstance(f, str))
        modified.update(f for f in details.get("modifiedFiles") or () if isinstance(f, str))


def _pi_file_ops(messages: tuple[dict, ...]):
    for message in messages:
        if message.get("role") != "assistant" or not isinstance(message.get("content"), list):
            continue
        for block in message["content"]:
            if not isinstance(block, dict) or block.get("type") != "toolCall":
                continue
            args = block.get("arguments")
            file = args.get("path") if isinstance(args, dict) else None
            if block.get("name") in _PI_FILE_TOOLS and isinstance(file, str) and file:
                yield block["name"], file
