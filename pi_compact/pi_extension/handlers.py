"""What each request does: pi's preparation in, pi-compact's summary (and details) out.

``compact`` keeps pi's cut (``firstKeptEntryId``, the split turn, the messages pi chose to summarize) and runs
pi-compact's pipeline over it, so the summary is chunked to the summarizer's window, redacted, falls back to
the offline summary, and the kept region shrinks if the result would not fit pi's window. ``branch_summary``
summarizes the entries pi is leaving (``entriesToSummarize``) as ``pi-compact session checkout`` does.
``recall`` searches the session file as ``pi-compact session search`` does. Nothing here writes a file: pi
appends the entries itself.
"""

from __future__ import annotations

import dataclasses
import time
from importlib.metadata import PackageNotFoundError, version as package_version
from typing import TYPE_CHECKING

from ..compaction.cut import CutPoint, find_turn_start
from ..compaction.prepare import CompactionPreparation, FileLists, collect_files, region_start
from ..compaction.settings import CompactionSettings, load_settings
from ..errors import CompactionError
from .models import choose, pi_model
from .protocol import MIN_PROTOCOL, PROTOCOL_VERSION, REQUEST_TYPES, ProtocolError, count, field, objects, strings
from .wire import BranchSummaryJSON, CompactionJSON

if TYPE_CHECKING:
    from ..compaction.pipeline import Plan
    from .models import Choice

RECALL_MAX_CHARS = 16_000
"""The recall tool's answer is cut to this many characters (the model asks again, narrower, for more)."""
RECALL_MAX_HITS = 50


def pi_compact_version() -> str:
    try:
        return package_version("pi-compact")
    except PackageNotFoundError:
        return "unknown"


def version(request: dict) -> dict:
    return {"version": pi_compact_version(), "protocols": [MIN_PROTOCOL, PROTOCOL_VERSION],
            "requests": list(REQUEST_TYPES)}


# -- compact ----------------------------------------------------------------------------------------------


def compact(request: dict) -> dict:
    """``{"compaction": {summary, firstKeptEntryId, tokensBefore, details}}`` for pi to append."""
    from ..compaction.pipeline import Planner

    started = time.monotonic()
    path = objects(request, "branchEntries", required=True)
    pi_prep = field(request, "preparation", dict, required=True)
    settings = _settings(request, pi_prep)
    prep = _preparation(path, pi_prep)
    model = pi_model(request)
    choice = choose(model, settings, deadline=_deadline(request))
    window = count(request, "contextWindow") or (model.context_window if model else None)
    plan = Planner(prep, settings, window=window, summarizer=choice.summarizer,
                   instructions=field(request, "customInstructions", str) or None,
                   fixed_tokens=count(request, "fixedTokens", default=0) or 0,
                   cwd=field(request, "cwd", str) or "").plan()
    if plan.first_kept_index is None:
        raise CompactionError("even the newest message does not fit the window after compaction")
    compaction: CompactionJSON = {"summary": plan.summary, "firstKeptEntryId": path[plan.first_kept_index]["id"],
                                  "tokensBefore": prep.tokens_before, "details": _details(plan, choice, pi_prep)}
    return {"compaction": compaction, "durationSeconds": round(time.monotonic() - started, 3)}


def _details(plan: Plan, choice: Choice, pi_prep: dict) -> dict:
    """As ``pi-compact session compact`` writes them, plus who wrote them and why the model was not used."""
    files = _with_pi_file_ops(plan.files, field(pi_prep, "fileOps", dict, where="preparation") or {})
    details = {
        **files.details(),
        "strategy": plan.strategy,
        "summarizer": {"summarize": choice.summarizer.name, "prune": "none"}.get(plan.body_strategy, "offline"),
        "tokensAfter": plan.tokens_after,
        "messagesSummarized": plan.messages_summarized,
        "messagesDropped": plan.messages_dropped,
        "generator": f"pi-compact {pi_compact_version()}",
    }
    fallback = plan.fallback_reason or (choice.reason if plan.body_strategy == "offline" else None)
    if fallback:
        details["fallbackReason"] = fallback
    return details


def _settings(request: dict, pi_prep: dict) -> CompactionSettings:
    """The user's (and, for sizes, the project's) settings, with pi's own reserve and kept tail: pi computed
    the cut with them, and its settings manager already merged the same files."""
    cwd = field(request, "cwd", str)
    settings = load_settings(cwd or None)
    pi_settings = field(pi_prep, "settings", dict, where="preparation") or {}
    where = "preparation.settings"
    return settings.replace(reserve_tokens=count(pi_settings, "reserveTokens", where=where),
                            keep_recent_tokens=count(pi_settings, "keepRecentTokens", where=where))


def _preparation(path: list[dict], pi_prep: dict) -> CompactionPreparation:
    """pi's preparation over ``path``: its cut and its messages, with the previous summary and files as read
    from the path (the same entries pi read them from)."""
    where = "preparation"
    first_kept_id = field(pi_prep, "firstKeptEntryId", str, where=where, required=True)
    ids = [entry.get("id") for entry in path]
    if first_kept_id not in ids:
        raise ProtocolError(f"preparation.firstKeptEntryId {first_kept_id!r} is not on branchEntries")
    first_kept = ids.index(first_kept_id)
    start, previous = region_start(path)
    split = bool(field(pi_prep, "isSplitTurn", bool, where=where))
    turn_start = find_turn_start(path, first_kept, start) if split else -1
    history = tuple(objects(pi_prep, "messagesToSummarize", where=where))
    prefix = tuple(objects(pi_prep, "turnPrefixMessages", where=where))
    tokens_before = count(pi_prep, "tokensBefore", where=where, default=0) or 0
    return CompactionPreparation(
        path=tuple(path),
        boundary_start=start,
        cut=CutPoint(first_kept, turn_start, split and turn_start >= 0),
        first_kept_entry_id=first_kept_id,
        messages_to_summarize=history,
        turn_prefix_messages=prefix,
        previous_summary=field(pi_prep, "previousSummary", str, where=where) or previous,
        tokens_before=tokens_before,
        tokens_before_measured=False,
        files=_with_our_earlier_files(collect_files(path, history + prefix), path),
    )


def _with_our_earlier_files(files: FileLists, entries: list[dict]) -> FileLists:
    """Add the file lists of the summaries this extension wrote before.

    pi marks every entry an extension returns ``fromHook`` and, like pi-compact, does not carry the file lists
    of such entries forward (an unknown hook's ``details`` may mean anything). Ours mean what pi's do: without
    this, each compaction through the extension would forget the files of the ones before it.
    """
    read, modified = set(files.read_files), set(files.modified_files)
    compactions = [e for e in entries if e.get("type") == "compaction"]
    seeds = compactions[-1:] + [e for e in entries if e.get("type") == "branch_summary"]  # pi's own choice of seeds
    for entry in filter(_written_by_us, seeds):
        read.update(_paths(entry["details"].get("readFiles")))
        modified.update(_paths(entry["details"].get("modifiedFiles")))
    return FileLists.build(read, modified)


def _paths(value: object) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _written_by_us(entry: dict) -> bool:
    details = entry.get("details")
    return bool(entry.get("fromHook")) and isinstance(details, dict) and \
        str(details.get("generator", "")).startswith("pi-compact")


def _with_pi_file_ops(files: FileLists, file_ops: dict) -> FileLists:
    """Our lists plus pi's own ``fileOps`` (sent as arrays): pi may know of tools we do not."""
    where = "preparation.fileOps"
    modified = set(files.modified_files) | set(strings(file_ops, "written", where=where)) | \
        set(strings(file_ops, "edited", where=where))
    read = set(files.read_files) | set(strings(file_ops, "read", where=where))
    return FileLists.build(read, modified)


def _deadline(request: dict) -> float | None:
    """Seconds the caller waits for the answer (the extension's timeout), if it says."""
    deadline = field(request, "deadlineSeconds", (int, float))
    if deadline is not None and deadline <= 0:
        raise ProtocolError(f"request.deadlineSeconds must be positive, got {deadline!r}")
    return deadline or None


# -- branch_summary ---------------------------------------------------------------------------------------


def branch_summary(request: dict) -> dict:
    """``{"summary": {summary, details}}``, or ``{"summary": null}`` when the branch holds no message."""
    from ..branching import MIN_BUDGET, prepare_branch, summarize_branch

    pi_prep = field(request, "preparation", dict, required=True)
    entries = objects(pi_prep, "entriesToSummarize", where="preparation")
    settings = load_settings(field(request, "cwd", str) or None)
    choice = choose(pi_model(request), settings, deadline=_deadline(request))
    budget = max(choice.summarizer.context_window - settings.reserve_tokens, MIN_BUDGET)
    prep = prepare_branch(entries, budget, tool_result_chars=settings.tool_result_chars)
    prep = dataclasses.replace(prep, files=_with_our_earlier_files(prep.files, entries))
    if not prep.messages:
        return {"summary": None}
    instructions = field(pi_prep, "customInstructions", str) or field(request, "customInstructions", str) or None
    made = summarize_branch(prep, choice.summarizer, settings=settings, instructions=instructions)
    details = {
        **prep.files.details(),
        "strategy": made.strategy,
        "summarizer": made.summarizer,
        "messagesSummarized": len(prep.messages),
        "messagesAbandoned": prep.total_messages,
        "generator": f"pi-compact {pi_compact_version()}",
    }
    fallback = made.fallback_reason or (choice.reason if made.strategy == "offline" else None)
    if fallback:
        details["fallbackReason"] = fallback
    summary: BranchSummaryJSON = {"summary": made.text, "details": details}
    return {"summary": summary}


# -- recall -----------------------------------------------------------------------------------------------


def recall(request: dict) -> dict:
    """The recall tool's answer: text for the model (bounded) and the hits as data."""
    from ..recaller import format_hits, recall as search
    from ..session import Session

    session_file = field(request, "sessionFile", str, required=True)
    query = field(request, "query", str, required=True)
    if not query.strip():
        raise ProtocolError("request.query is empty")
    limit = min(count(request, "limit", default=10) or 10, RECALL_MAX_HITS)
    with Session.open(session_file, durable=False) as session:
        leaf = field(request, "leafId", str)
        if leaf is not None and leaf in session:
            session.move_leaf(leaf)
        found = search(session, query, limit=limit, include_abandoned=bool(field(request, "branches", bool)))
    text = format_hits(found)
    if len(text) > RECALL_MAX_CHARS:
        text = text[: RECALL_MAX_CHARS - 80].rstrip() + "\n[… cut: ask for fewer matches or one entry id]"
    return {"text": text, "totalMatches": found.total_matches, "entriesSearched": found.entries_searched,
            "hits": [{"id": h.entry_id, "kind": h.kind, "abandoned": h.abandoned} for h in found.hits]}


HANDLERS = {"version": version, "compact": compact, "branch_summary": branch_summary, "recall": recall}


__all__ = ["HANDLERS", "RECALL_MAX_CHARS", "branch_summary", "compact", "pi_compact_version", "recall", "version"]
