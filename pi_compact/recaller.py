"""Recall: search what compaction took out of the context; the append-only file still holds all of it.

A compaction replaces the start of the conversation with a summary, and a summary drops details: the exact
error message, the command that failed, the line of the file. :func:`recall` searches the entries behind
the active path's compactions (everything before the latest compaction's ``firstKeptEntryId``), and on
request the abandoned branches too, by text (case-insensitive; a phrase first, else every word), by file
path (tool arguments are searched like text) or by entry id (or id prefix), and returns short excerpts with
their entry ids, newest first. Nothing is written. ``pi-compact chat`` gives the model this as its ``recall``
tool; ``pi-compact session search`` runs it on the command line.

    >>> from pi_compact import Session, recall
    >>> found = recall(Session.open("work.jsonl"), "ENOENT")  # doctest: +SKIP
    >>> [(hit.entry_id, hit.excerpt) for hit in found.hits]  # doctest: +SKIP
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson

from .session import Session

EXCERPT_CHARS = 400
"""Characters of context an excerpt shows around a match."""
ENTRY_CHARS = 4000
"""Characters shown of an entry asked for by its id."""
MAX_HITS = 50
_ID_LIKE = re.compile(r"[0-9a-fA-F-]{4,}")


@dataclass(frozen=True)
class RecallHit:
    """One entry that matched, with an excerpt of its text around the match."""

    entry_id: str
    kind: str
    """``user``, ``assistant``, ``toolResult(bash)``, ``bashExecution``, ``branch_summary`` …"""
    timestamp: str | None
    excerpt: str
    abandoned: bool
    """On another branch than the current one (not behind a compaction of this one)."""


@dataclass(frozen=True)
class RecallResult:
    """What a search found: at most ``limit`` hits, newest first, and how much was searched."""

    query: str
    hits: tuple[RecallHit, ...]
    total_matches: int
    entries_searched: int
    by_id: bool
    """The query named an entry id (or prefix) and the hits are those entries, shown at length."""


def recall(session: Session, query: str, *, limit: int = 10, include_abandoned: bool = False,
           excerpt_chars: int = EXCERPT_CHARS) -> RecallResult:
    """Search the entries behind the current branch's compactions (and, if asked, abandoned branches)."""
    query = query.strip()
    limit = max(1, min(limit, MAX_HITS))
    scope = searchable_entries(session, include_abandoned=include_abandoned)
    if not query:
        return RecallResult(query, (), 0, len(scope), False)
    if _ID_LIKE.fullmatch(query):
        named = [(entry, abandoned) for entry, abandoned in scope if str(entry.get("id", "")).startswith(query)]
        if named:
            hits = [_hit(entry, abandoned, _entry_text(entry)[:ENTRY_CHARS], ENTRY_CHARS) for entry, abandoned in named]
            return RecallResult(query, tuple(hits[:limit]), len(hits), len(scope), True)
    matcher = _matcher(query)
    hits = []
    for entry, abandoned in reversed(scope):
        text = _entry_text(entry)
        found = matcher(text)
        if found is not None:
            hits.append(_hit(entry, abandoned, _excerpt(text, found, excerpt_chars), excerpt_chars))
    return RecallResult(query, tuple(hits[:limit]), len(hits), len(scope), False)


def searchable_entries(session: Session, *, include_abandoned: bool = False) -> list[tuple[dict, bool]]:
    """``(entry, abandoned)`` pairs in file order: the current path's entries no longer in its context, then
    (if asked) the entries of other branches. Compaction entries themselves are left out: their summaries
    are in the context already."""
    path = session.branch()
    hidden = path[: _context_start(path)]
    found = [(entry, False) for entry in hidden if _entry_text(entry)]
    if include_abandoned:
        on_path = {entry.get("id") for entry in path}
        found += [(entry, True) for entry in session.entries()
                  if entry.get("id") not in on_path and _entry_text(entry)]
    return found


def _context_start(path: list[dict]) -> int:
    """Index of the first path entry the context still holds: the latest compaction's first kept entry."""
    for index in range(len(path) - 1, -1, -1):
        if path[index].get("type") == "compaction":
            kept = path[index].get("firstKeptEntryId")
            return next((i for i in range(index) if path[i].get("id") == kept), index)
    return 0


def _entry_text(entry: dict) -> str:
    kind = entry.get("type")
    if kind == "message" and isinstance(entry.get("message"), dict):
        return _message_text(entry["message"])
    if kind == "branch_summary":
        return _strings(entry.get("summary"))
    if kind == "custom_message":
        return _strings(entry.get("content"))
    return ""


def _message_text(message: dict) -> str:
    role = message.get("role")
    if role == "bashExecution":
        return f"$ {_strings(message.get('command'))}\n{_strings(message.get('output'))}"
    parts = []
    content = message.get("content")
    for block in content if isinstance(content, list) else [content]:
        if isinstance(block, dict) and block.get("type") == "toolCall":
            arguments = orjson.dumps(block.get("arguments"), default=str).decode()
            parts.append(f"{_strings(block.get('name'))}({arguments})")
        elif isinstance(block, dict):
            parts.append(_strings(block.get("text") if block.get("type") != "thinking" else block.get("thinking")))
        else:
            parts.append(_strings(block))
    if role == "branchSummary" or role == "compactionSummary":
        parts.append(_strings(message.get("summary")))
    return "\n".join(p for p in parts if p)


def _strings(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_strings(v) for v in value if isinstance(v, (str, dict)))
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return value["text"]
    return ""


def _matcher(query: str):
    """The position of the phrase in a text, else of its first word when every word is there; else None."""
    phrase = query.casefold()
    words = [w for w in phrase.split() if w]

    def find(text: str) -> int | None:
        folded = text.casefold()
        at = folded.find(phrase)
        if at >= 0:
            return at
        if len(words) > 1 and all(w in folded for w in words):
            return folded.find(words[0])
        return None

    return find


def _excerpt(text: str, at: int, chars: int) -> str:
    start = max(0, at - chars // 3)
    end = min(len(text), start + chars)
    start = max(0, min(start, end - chars))
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def _hit(entry: dict, abandoned: bool, excerpt: str, chars: int) -> RecallHit:
    message = entry.get("message") if entry.get("type") == "message" else None
    kind = str(entry.get("type"))
    if isinstance(message, dict):
        kind = str(message.get("role"))
        if kind == "toolResult":
            kind = f"toolResult({message.get('toolName')})"
    timestamp = entry.get("timestamp")
    return RecallHit(str(entry.get("id")), kind, timestamp if isinstance(timestamp, str) else None,
                     excerpt[: chars + 2], abandoned)


def format_hits(result: RecallResult) -> str:
    """The result as the model reads it: one block per hit, headed by the entry id."""
    if not result.hits:
        where = f"{result.entries_searched} compacted entries"
        return f"No match for {result.query!r} in {where}." if result.entries_searched else \
            "Nothing to search: no part of this conversation has been compacted away."
    lines = []
    for hit in result.hits:
        where = " (abandoned branch)" if hit.abandoned else ""
        lines.append(f"[{hit.entry_id}] {hit.kind}{where} {hit.timestamp or ''}".rstrip())
        lines.append(hit.excerpt)
        lines.append("")
    if result.total_matches > len(result.hits):
        lines.append(f"[{result.total_matches - len(result.hits)} more matches: refine the query or raise the limit]")
    elif not result.by_id:
        lines.append("[Ask again with an entry id for more of that entry.]")
    return "\n".join(lines).rstrip()


__all__ = ["RecallHit", "RecallResult", "format_hits", "recall", "searchable_entries"]
