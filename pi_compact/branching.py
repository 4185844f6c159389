"""Moving between branches of a session, with what the abandoned branch learned carried along.

A session is a tree: going back to an earlier entry to try another approach leaves a branch behind.
:func:`checkout` moves the position and, as pi's ``/tree`` does, records the branch it left as one
``branch_summary`` entry hanging at the target (a new root for ``root``), which becomes the leaf: the
conversation from there on knows what was tried. The summary is made by the compaction summarizers (offline
by default), from the abandoned entries taken newest first within the summarizer's window, and ends with
the cumulative ``<read-files>``/``<modified-files>`` lists, which carry over from compactions and earlier
branch summaries on the abandoned path. Nothing is written until the summary exists, and then exactly one
line: a failing LLM falls back to the offline summarizer, and a failing fallback writes nothing.

A checkout that writes no summary only moves the leaf in memory, which pi would not see: it takes the
file's last line as the leaf. ``persist_position=True`` (what the CLI does) appends a ``custom`` entry
(:data:`CHECKOUT_TYPE`, pi leaves it out of the context) at the target instead. For ``root`` that entry is
a new root: pi's own ``resetLeaf()`` is lost on reload, while a context-less root gives pi exactly the
empty context of its null leaf, and the next entry then starts a new tree under it.

Where this differs from pi 0.73.1 (none of it changes what pi builds from the file: its context only copies
``fromId``): ``fromId`` names the abandoned leaf, the meaning pi's documentation gives it (pi writes the
attach point); a checked-out user message stays on the path (pi moves to its parent to refill the editor,
which a library has not got); checking out again a target whose summary or position entry is the leaf
changes nothing (pi would summarize its own summary); and :func:`prepare_branch` reads tool results and
lists the files of the whole branch, not only of what fits the budget.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .compaction.prepare import FileLists, collect_files
from .compaction.prompts import SYSTEM_PROMPT, branch_prompt
from .compaction.redact import redact_secrets
from .compaction.offline.facts import extract_facts
from .compaction.offline.paths import listed_files
from .compaction.serialize import convert_to_llm, format_file_operations, serialize_conversation
from .compaction.settings import CompactionSettings
from .compaction.summarize import checked_summary
from .compaction.summarizer import Summarizer, SummaryRequest
from .compaction.tokens import estimate_tokens, text_tokens
from .context import branch_summary_message, compaction_summary_message, custom_message
from .errors import EntryNotFoundError, SummarizerError
from .session import ROOT, Session

CHECKOUT_TYPE = "pi-compact/checkout"
"""``customType`` of the entry that persists a checkout that wrote no summary (pi leaves it out of context)."""
BRANCH_SUMMARY_PREAMBLE = (
    "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n"
)
"""pi's opening of every branch summary, exactly."""
BRANCH_SUMMARY_MAX_TOKENS = 2048
"""pi's ``maxTokens`` for a branch summary."""
SUMMARY_ROOM_SHARE = 0.9
"""An older summary that overflows the budget is still taken while less than this share is used (pi's rule)."""
MIN_BUDGET = 1024
"""Smallest preparation budget, whatever the summarizer's window and the reserve say."""
_SUMMARY_TYPES = ("compaction", "branch_summary")
_FILE_LIST_OPEN = re.compile(r"(?<!\s)\s*+<(read-files|modified-files)>")


# -- where branches meet -------------------------------------------------------------------------------------


def common_ancestor(session: Session, a: str | None, b: str | None) -> str | None:
    """The deepest entry on both the path to ``a`` and the path to ``b``; ``None`` when they share none.

    ``None`` for either side is the position before the first entry. Branches that grew from different
    roots (after a checkout of ``root``) share no entry.
    """
    _require(session, a)
    _require(session, b)
    on_a = set(session.ancestor_ids(a))
    return next((entry_id for entry_id in session.ancestor_ids(b) if entry_id in on_a), None)


def collect_abandoned(session: Session, old_leaf: str | None, target: str | None) -> list[dict]:
    """pi's ``collectEntriesForBranchSummary``: the entries after the common ancestor up to ``old_leaf``.

    Oldest first. Empty when ``old_leaf`` is ``None`` or lies on the path to ``target``.
    """
    if old_leaf is None:
        _require(session, target)
        return []
    ancestor = common_ancestor(session, old_leaf, target)
    ids = session.ancestor_ids(old_leaf)
    below = ids[: ids.index(ancestor)] if ancestor is not None else ids
    return [session.entry(entry_id) for entry_id in reversed(below)]


def _require(session: Session, entry_id: str | None) -> None:
    if entry_id is not None and entry_id not in session:
        raise EntryNotFoundError(f"Entry {entry_id} not found")


# -- the branch summaries a file holds -----------------------------------------------------------------------


@dataclass(frozen=True)
class BranchSummaryNote:
    """One ``branch_summary`` entry: where it hangs, and the abandoned path it summarises when the file says."""

    id: Any
    at: str
    """The entry it hangs at (its parent), or :data:`~pi_compact.session.ROOT`."""
    from_id: Any
    """Its ``fromId`` as written: the abandoned leaf (ours), or the attach point again (pi 0.73.1)."""
    pi_style: bool
    """``fromId`` names where it hangs, as pi 0.73.1 writes it: the branch left is not recorded."""
    abandoned_entries: int | None
    """Entries of the abandoned path it summarises; ``None`` when the file does not say (pi's style, or a
    ``fromId`` that is not in this file)."""
    abandoned_from: Any
    """The first entry of that path (``None`` when not known)."""

    def to_json(self) -> dict[str, Any]:
        summarises = None if self.abandoned_entries is None else {"entries": self.abandoned_entries,
                                                                  "from": self.abandoned_from}
        return {"id": self.id, "at": self.at, "fromId": self.from_id, "summarises": summarises,
                "piStyle": self.pi_style}


def branch_summary_notes(session: Session) -> list[BranchSummaryNote]:
    """Every branch summary of the file, in file order, with the abandoned path it summarises."""
    notes = []
    for entry in session.iter_entries("branch_summary"):
        at, from_id = entry.get("parentId"), entry.get("fromId")
        pi_style = from_id == at or (from_id == ROOT and at is None)
        known = isinstance(from_id, str) and from_id in session and not pi_style
        path = collect_abandoned(session, from_id, at) if known and (at is None or at in session) else []
        notes.append(BranchSummaryNote(
            id=entry.get("id"), at=at if at is not None else ROOT, from_id=from_id, pi_style=pi_style,
            abandoned_entries=len(path) if path else None, abandoned_from=path[0].get("id") if path else None,
        ))
    return notes


# -- preparing an abandoned branch ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BranchPreparation:
    """The part of an abandoned branch a summarizer reads, and what the whole branch touched."""

    messages: tuple[dict, ...]
    """The newest messages that fit the budget, oldest first (agent messages of any role)."""
    tokens: int
    """Estimated tokens of :attr:`messages`, as the summarizer reads them."""
    files: FileLists
    """Files read and modified on the whole branch, with the lists of summaries on it."""
    total_messages: int
    """Messages on the whole branch (:attr:`messages` may hold fewer)."""
    total_tokens: int
    """Estimated tokens of every message on the branch, as the model would see them."""

    @property
    def messages_dropped(self) -> int:
        """Older messages left out to fit the budget."""
        return self.total_messages - len(self.messages)


def branch_message(entry: dict) -> dict | None:
    """What an entry tells a branch summarizer: messages (tool results included) and earlier summaries."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        return message if isinstance(message, dict) else None
    if kind == "custom_message":
        return custom_message(entry)
    if kind == "branch_summary":
        return branch_summary_message(entry) if entry.get("summary") else None
    if kind == "compaction":
        return compaction_summary_message(entry)
    return None


def prepare_branch(
    entries: list[dict], token_budget: int = 0, *, tool_result_chars: int = 2000
) -> BranchPreparation:
    """pi's ``prepareBranchEntries``: the newest messages within ``token_budget`` (0: no limit).

    Walking from the newest entry back, messages are taken until the next one would pass the budget; a
    compaction or branch summary that passes it is still taken while under 90% of the budget, then the
    walk stops. Unlike pi, tool results are read and counted (at the length the summarizer sees), and
    the file lists cover the whole branch, older messages and compactions included, not only what fits.
    """
    found = [(entry, message) for entry in entries if (message := branch_message(entry)) is not None]
    kept: list[dict] = []
    used = 0
    for entry, message in reversed(found):
        cost = _summarizer_tokens(message, tool_result_chars)
        if token_budget > 0 and used + cost > token_budget:
            if entry.get("type") in _SUMMARY_TYPES and used < token_budget * SUMMARY_ROOM_SHARE:
                kept.append(message)
                used += cost
            break
        kept.append(message)
        used += cost
    all_messages = tuple(message for _, message in found)
    return BranchPreparation(
        messages=tuple(reversed(kept)),
        tokens=used,
        files=collect_files(list(entries), all_messages),
        total_messages=len(all_messages),
        total_tokens=sum(map(estimate_tokens, all_messages)),
    )


def _summarizer_tokens(message: dict, tool_result_chars: int) -> int:
    """A tool result is cut to ``tool_result_chars`` in the transcript (and its images left out)."""
    if message.get("role") != "toolResult":
        return estimate_tokens(message)
    return text_tokens(serialize_conversation([message], tool_result_chars=tool_result_chars))


# -- summarizing it ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BranchSummary:
    """A branch summary ready to be stored, and how it was made."""

    text: str
    strategy: str
    """``summarize`` (the configured LLM) or ``offline``."""
    summarizer: str
    fallback_reason: str | None = None
    """Why the LLM's answer was not used (``anthropic: API error 500: …``), when the offline one was."""
    input_tokens: int = 0
    output_tokens: int = 0


def summarize_branch(
    prep: BranchPreparation,
    summarizer: Summarizer,
    *,
    settings: CompactionSettings | None = None,
    instructions: str | None = None,
) -> BranchSummary:
    """The stored text: pi's preamble, the structured sections, then the file lists.

    An LLM summarizer that raises :class:`SummarizerError` (or answers without the sections) is replaced by
    the offline summarizer; errors of the offline summarizer propagate.
    """
    settings = settings or CompactionSettings()
    max_tokens = min(BRANCH_SUMMARY_MAX_TOKENS, settings.summary_budget(prep.tokens))
    fallback = None
    if summarizer.name != "offline":
        try:
            return _llm_summary(prep, summarizer, settings, instructions, max_tokens)
        except SummarizerError as exc:
            fallback = f"{summarizer.name}: {exc}"
    from .compaction.offline import OfflineSummarizer

    request = SummaryRequest("", "", max_tokens, "branch", prep.messages, None, instructions)
    result = OfflineSummarizer().summarize(request)
    return BranchSummary(_stored_text(result.text, prep), "offline", "offline", fallback,
                         result.input_tokens, result.output_tokens)


def _llm_summary(prep, summarizer: Summarizer, settings: CompactionSettings, instructions, max_tokens) -> BranchSummary:
    conversation = serialize_conversation(convert_to_llm(list(prep.messages)), tool_result_chars=settings.tool_result_chars)
    if settings.redact_secrets:
        conversation = redact_secrets(conversation)
    prompt = branch_prompt(conversation, instructions)
    request = SummaryRequest(SYSTEM_PROMPT, prompt, max_tokens, "branch", prep.messages, None, instructions)
    result = summarizer.summarize(request)
    body = checked_summary(result.text, "branch")
    return BranchSummary(_stored_text(body, prep), "summarize", summarizer.name, None,
                         result.input_tokens or text_tokens(prompt), result.output_tokens or text_tokens(body))


def _stored_text(body: str, prep: BranchPreparation) -> str:
    """The branch's file lists leave out what its path showed is not there (a write the user declined, a read
    that found no file, a file deleted since): the abandoned path's work stays on disk, so do its deletions."""
    gone = extract_facts(list(prep.messages)).gone
    return BRANCH_SUMMARY_PREAMBLE + _without_file_lists(body) + format_file_operations(
        *listed_files(prep.files.read_files, prep.files.modified_files, "", gone)
    )


def _without_file_lists(body: str) -> str:
    """A body without file-list blocks of its own (the lists are recomputed for the whole branch)."""
    parts: list[str] = []
    done = 0
    unclosed: set[str] = set()  # no closing tag after one opening: none after a later one either (stays linear)
    for opening in _FILE_LIST_OPEN.finditer(body):
        tag = opening.group(1)
        if opening.start() < done or tag in unclosed:
            continue
        close = body.find(f"</{tag}>", opening.end())
        if close < 0:
            unclosed.add(tag)
            continue
        parts.append(body[done : opening.start()])
        done = close + len(tag) + 3
    return ("".join(parts) + body[done:]).strip()


# -- checking out --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckoutResult:
    """What a checkout did."""

    old_leaf: str | None
    new_leaf: str | None
    """The position now: the summary entry, the position entry, or the target itself."""
    target: str | None
    """The entry checked out; ``None`` for ``root``."""
    common_ancestor: str | None
    abandoned_entries: int
    abandoned_messages: int
    abandoned_tokens: int
    """Estimated tokens of every abandoned message, as the model would see them."""
    summary_entry: dict | None
    position_entry: dict | None = None
    """The ``custom`` entry that persists a checkout without a summary (``persist_position=True``)."""
    strategy: str = "noop"
    """``noop`` (already there), ``move`` (no summary), ``summarize`` (the LLM) or ``offline``."""
    summarizer: str | None = None
    fallback_reason: str | None = None
    messages_summarized: int = 0
    """Abandoned messages the summarizer read (older ones were left out to fit its window)."""
    files: FileLists = field(default_factory=FileLists)

    @property
    def summary(self) -> str | None:
        return self.summary_entry.get("summary") if self.summary_entry is not None else None

    @property
    def changed(self) -> bool:
        return self.strategy != "noop"

    def to_json(self) -> dict:
        """As ``session checkout --json`` prints it (``targetId`` is ``root`` for the position before the first entry)."""
        return {
            "changed": self.changed,
            "oldLeafId": self.old_leaf,
            "targetId": self.target if self.target is not None else ROOT,
            "newLeafId": self.new_leaf,
            "commonAncestorId": self.common_ancestor,
            "abandoned": {
                "entries": self.abandoned_entries,
                "messages": self.abandoned_messages,
                "tokens": self.abandoned_tokens,
            },
            "summaryEntryId": self.summary_entry["id"] if self.summary_entry else None,
            "positionEntryId": self.position_entry["id"] if self.position_entry else None,
            "strategy": self.strategy,
            "summarizer": self.summarizer,
            "fallbackReason": self.fallback_reason,
            "messagesSummarized": self.messages_summarized,
            "readFiles": list(self.files.read_files),
            "modifiedFiles": list(self.files.modified_files),
            "summary": self.summary,
        }


def checkout(
    session: Session,
    target_id: str | None,
    *,
    summarize: bool = True,
    instructions: str | None = None,
    summarizer: Summarizer | None = None,
    settings: CompactionSettings | None = None,
    persist_position: bool = False,
) -> CheckoutResult:
    """Move the session to ``target_id``, recording the branch left behind.

    ``target_id`` is an id, unique id prefix or label; ``None`` or ``"root"`` is the position before the
    first entry. With ``summarize`` and messages on the abandoned part, one ``branch_summary`` entry is
    appended at the target (``fromId``: the old leaf; ``details``: the file lists and how the summary was
    made) and becomes the leaf. Otherwise only the leaf moves, in memory; with ``persist_position`` one
    ``custom`` entry (:data:`CHECKOUT_TYPE`) is appended at the target instead, because pi (and the next
    process) takes the last line of the file as the leaf. Checking out the leaf is a no-op.
    """
    target = None if target_id is None else session.resolve(target_id)
    old_leaf = session.leaf_id
    if _already_there(session, old_leaf, target, summarize):
        return CheckoutResult(old_leaf, old_leaf, target, old_leaf, 0, 0, 0, None)
    settings = settings or CompactionSettings()
    ancestor = common_ancestor(session, old_leaf, target)
    abandoned = collect_abandoned(session, old_leaf, target)
    summarizer = summarizer or _offline()
    budget = max(summarizer.context_window - settings.reserve_tokens, MIN_BUDGET)
    prep = prepare_branch(abandoned, budget, tool_result_chars=settings.tool_result_chars)
    sizes = (len(abandoned), prep.total_messages, prep.total_tokens)
    if summarize and prep.messages:
        made = summarize_branch(prep, summarizer, settings=settings, instructions=instructions)
        entry = session.append("branch_summary", _summary_fields(old_leaf, made, prep), parent_id=target)
        return CheckoutResult(old_leaf, entry["id"], target, ancestor, *sizes, entry, None, made.strategy,
                              made.summarizer, made.fallback_reason, len(prep.messages), prep.files)
    position = _move(session, old_leaf, target, persist_position)
    return CheckoutResult(old_leaf, session.leaf_id, target, ancestor, *sizes, None, position, "move",
                          files=prep.files)


def _move(session: Session, old_leaf: str | None, target: str | None, persist: bool) -> dict | None:
    """Move the leaf without a summary; a persisted move is a ``custom`` entry at the target (a root for root)."""
    if not persist:
        session.move_leaf(target)
        return None
    data = {"from": old_leaf if old_leaf is not None else ROOT, "to": target if target is not None else ROOT}
    return session.append_custom(CHECKOUT_TYPE, data, parent_id=target)


def _already_there(session: Session, old_leaf: str | None, target: str | None, summarize: bool) -> bool:
    """The leaf is the target, or the record a checkout of the target left (checking out twice is harmless).

    A summary at the target counts only when summarizing: without a summary the user asks to leave it out.
    """
    if old_leaf == target:
        return True
    leaf = session.get(old_leaf)
    if leaf is None or leaf.get("parentId") != target:
        return False
    if leaf.get("type") == "custom" and leaf.get("customType") == CHECKOUT_TYPE:
        return True
    return summarize and leaf.get("type") == "branch_summary"


def _summary_fields(old_leaf: str | None, made: BranchSummary, prep: BranchPreparation) -> dict:
    details = {
        **prep.files.details(),
        "strategy": made.strategy,
        "summarizer": made.summarizer,
        "messagesSummarized": len(prep.messages),
        "messagesAbandoned": prep.total_messages,
    }
    if made.fallback_reason:
        details["fallbackReason"] = made.fallback_reason
    return {"fromId": old_leaf if old_leaf is not None else ROOT, "summary": made.text, "details": details,
            "fromHook": False}


def _offline() -> Summarizer:
    from .compaction.offline import OfflineSummarizer

    return OfflineSummarizer()


__all__ = [
    "BRANCH_SUMMARY_PREAMBLE",
    "CHECKOUT_TYPE",
    "BranchPreparation",
    "BranchSummary",
    "CheckoutResult",
    "branch_message",
    "checkout",
    "collect_abandoned",
    "common_ancestor",
    "prepare_branch",
    "summarize_branch",
]
