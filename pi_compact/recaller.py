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

import os
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from .errors import CorruptEntryError
from .session import Session
from .store.byte_search import candidate_slots, candidates_in, folding_into
from .store.depth import MAX_DEPTH
from .store.scan import Problem, Slot, _gc_paused, parse_slot

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
           excerpt_chars: int = EXCERPT_CHARS, whole_session: bool = False) -> RecallResult:
    """Search the entries behind the current branch's compactions (and, if asked, abandoned branches); with
    ``whole_session``, every entry of the file instead (``abandoned`` then marks those off the current branch)."""
    query = query.strip()
    limit = max(1, min(limit, MAX_HITS))
    index = session._index  # the raw lines: a big file is searched in its bytes, parsing only likely matches
    scope, off_path = _whole_scope(session) if whole_session else _compacted_scope(session, include_abandoned)
    if not query:
        return RecallResult(query, (), 0, len(scope), False)
    if _ID_LIKE.fullmatch(query):
        named = [(index.peek(slot), off_path(slot)) for slot in scope if str(slot.id).startswith(query)]
        named = [(entry, abandoned) for entry, abandoned in named if _entry_text(entry)]
        if named:
            hits = [_hit(entry, abandoned, _entry_text(entry)[:ENTRY_CHARS], ENTRY_CHARS) for entry, abandoned in named]
            return RecallResult(query, tuple(hits[:limit]), len(hits), len(scope), True)
    matcher, holds = _matcher(query), _parts_matcher(query)
    hits, total = [], 0
    for slot in reversed(candidate_slots(index, query, scope)):
        try:
            entry = index.peek(slot)
        except CorruptEntryError:
            continue  # a line that looked like an entry but does not parse: nothing to find in it
        if holds is not None and len(hits) == limit:  # the rest are only counted: whether, not where
            total += holds(entry)
            continue
        text = _entry_text(entry)
        found = matcher(text)
        if found is None:
            continue
        total += 1
        if len(hits) < limit:  # the rest are only counted: no excerpt, no walk of the branch for them
            hits.append(_hit(entry, off_path(slot), _excerpt(text, found, excerpt_chars), excerpt_chars))
    return RecallResult(query, tuple(hits), total, len(scope), False)


def recall_file(path: str | os.PathLike, query: str, *, limit: int = 10,
                excerpt_chars: int = EXCERPT_CHARS) -> tuple[Session, RecallResult] | None:
    """:func:`recall` with ``whole_session`` of the file at ``path``, read once in pieces and never held whole,
    and the session (header, problems) it searched; ``None`` where it cannot be read so (a v1/v2 file, which
    is migrated whole, an empty query, or one that may name an entry id: open the file and :func:`recall`).

    The same result as :func:`recall`, from the same lines parsed: each piece's lines are tested as the whole
    file's are (:func:`~pi_compact.store.byte_search.candidates_in`) while its bytes are held, the likely
    matches parsed there and then. Parsing oldest first, it keeps the newest ``limit`` matches, and puts the
    problems of the lines parsed where the newest-first search reports them."""
    from .store.session_file import absolute_path
    from .store.stream import StreamedFile

    query = query.strip()
    if not query or _ID_LIKE.fullmatch(query):
        return None
    streamed = StreamedFile.open(absolute_path(path))
    if streamed is None:
        return None
    limit = max(1, min(limit, MAX_HITS))
    matched: deque[tuple[int, Slot, dict]] = deque(maxlen=limit)  # (candidate's number, slot, entry), newest last
    problems: list[tuple[int, Problem]] = []  # of the lines parsed, with the candidate's number
    searched = total = parsed = 0
    holds = _parts_matcher(query) or _matcher_holds(_matcher(query))

    def report(problem: Problem) -> None:  # a problem of the candidate being parsed, with its number
        problems.append((parsed, problem))

    keep, loads = matched.append, orjson.loads
    with _gc_paused():  # as for a whole file's index: a slot per line, none in a cycle
        for piece in streamed.pieces():
            scope = [slot for slot in piece.slots if slot.type in _SEARCHED_TYPES]
            searched += len(scope)
            data = piece.data
            view = memoryview(data)
            for slot in candidates_in(data, query, scope):
                parsed += 1
                # _parsed, inlined for a line orjson reads as an object nesting no deeper than the readers take
                entry = None
                if slot.entry is None:
                    try:
                        entry = loads(view[slot.start : slot.end])
                    except ValueError:
                        pass
                if type(entry) is not dict or not _fits(entry, MAX_DEPTH):
                    try:
                        entry = _parsed(data, slot, report)
                    except CorruptEntryError:
                        continue
                if holds(entry):
                    total += 1
                    keep((parsed, slot, entry))
    newest = matched[-1][0] if matched else 0
    for number, problem in reversed(problems):  # reported newest first, up to the first hit's off_path
        if number >= newest:
            streamed.report(problem)
    session = _read_only(streamed)
    off_path = _off_branch(session)
    matcher, hits = _matcher(query), []
    for _, slot, entry in reversed(matched):
        text = _entry_text(entry)
        found = matcher(text)
        if found is not None:  # as _parts_matcher: always
            hits.append(_hit(entry, off_path(slot), _excerpt(text, found, excerpt_chars), excerpt_chars))
    for number, problem in reversed(problems):
        if number < newest:
            session._index.report(problem)
    return session, RecallResult(query, tuple(hits), total, searched, False)


def _parsed(data: bytes, slot: Slot, report: Callable[[Problem], None]) -> dict:
    """The slot's entry, parsed but not kept, exactly as ``SessionIndex.peek`` gives it (the problems to
    ``report``): an object orjson reads that nests no deeper than the readers take is the entry; any other
    line goes the careful way (:func:`~pi_compact.store.scan.parse_slot`). How deep the entry nests is told
    from the entry, not by counting the line's brackets: two counts of a line cost more than its parse,
    and a pass over a whole piece for them more than a walk of the entries of the lines parsed."""
    if slot.entry is not None:
        return slot.entry
    try:
        entry = orjson.loads(memoryview(data)[slot.start : slot.end])
    except ValueError:  # invalid UTF-8 (read as U+FFFD) or a broken line: the careful way decides
        entry = None
    if type(entry) is dict and _shallow(entry):
        return entry
    return parse_slot(data, slot, keep=False, report=report)


def _shallow(entry: dict) -> bool:
    """Whether ``entry`` nests at most :data:`~pi_compact.store.depth.MAX_DEPTH` levels (as
    :func:`~pi_compact.store.depth.depth` counts them)."""
    return _fits(entry, MAX_DEPTH)


def _fits(container: dict | list, levels: int) -> bool:
    """Whether ``container`` nests at most ``levels`` levels: a call per container, never more than
    ``levels`` deep (a walk of each level's list of containers cost a third more)."""
    if levels == 0:
        return False
    for child in container.values() if type(container) is dict else container:
        if (type(child) is dict or type(child) is list) and not _fits(child, levels - 1):
            return False
    return True


def _matcher_holds(matcher: Callable[[str], int | None]) -> Callable[[dict], bool]:
    """Whether ``matcher`` finds the query in an entry's text."""
    return lambda entry: matcher(_entry_text(entry)) is not None


def _read_only(streamed) -> Session:
    """The session of a file read in pieces: its index, and no bytes to parse an entry from (as ``session
    info`` makes it)."""
    from .store.session_file import SessionFile

    file = SessionFile(streamed.header, streamed.path)
    file.index = streamed.finish()
    return Session._on(file)


def searchable_entries(session: Session, *, include_abandoned: bool = False) -> list[tuple[dict, bool]]:
    """``(entry, abandoned)`` pairs in file order: the current path's entries no longer in its context, then
    (if asked) the entries of other branches. Compaction entries themselves are left out: their summaries
    are in the context already."""
    index = session._index
    scope, off_path = _compacted_scope(session, include_abandoned)
    pairs = [(index.peek(slot), off_path(slot)) for slot in scope]
    return [(entry, abandoned) for entry, abandoned in pairs if _entry_text(entry)]


_SEARCHED_TYPES = frozenset({"message", "branch_summary", "custom_message"})
"""The entries that hold conversation text (a compaction's summary is in the context already)."""
_Scope = tuple[list[Slot], Callable[[Slot], bool]]
"""The lines to search in file order, and which of them are off the current branch."""


def _whole_scope(session: Session) -> _Scope:
    """Every line of a searched type, and :func:`_off_branch`."""
    return [slot for slot in session._index.slots if slot.type in _SEARCHED_TYPES], _off_branch(session)


def _off_branch(session: Session) -> Callable[[Slot], bool]:
    """Whether a slot is off the current branch; the branch is walked only when a hit asks whether it is on it
    (a search that finds nothing never walks a 100k-entry path)."""
    on_path: set[str] = set()

    def off_path(slot: Slot) -> bool:
        if not on_path:
            on_path.update(session.path_ids() or [""])
        return slot.id not in on_path

    return off_path


def _compacted_scope(session: Session, include_abandoned: bool) -> _Scope:
    """The current path's lines before its context starts, then (if asked) the lines of other branches."""
    index = session._index
    path = [index.by_id[entry_id] for entry_id in session.path_ids()]
    on_path = {slot.id for slot in path}
    found = [slot for slot in path[: _context_start(index, path)] if slot.type in _SEARCHED_TYPES]
    if include_abandoned:
        found += [slot for slot in index.slots if slot.id not in on_path and slot.type in _SEARCHED_TYPES]
    return found, lambda slot: slot.id not in on_path


def _context_start(index, path: list[Slot]) -> int:
    """Index of the first path entry the context still holds: the latest compaction's first kept entry."""
    for position in range(len(path) - 1, -1, -1):
        if path[position].type == "compaction":
            kept = index.peek(path[position]).get("firstKeptEntryId")
            return next((i for i in range(position) if path[i].id == kept), position)
    return 0


def _entry_text(entry: dict) -> str:
    return "\n".join(part for part in _entry_parts(entry) if part)


def _entry_parts(entry: dict) -> list[str]:
    """The texts an entry's searchable text joins with newlines (some may be empty). A list, not a generator:
    a search counting 60,000 matches tests the parts of as many entries, and resuming generators cost more
    than making the parts after the one that holds the query."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        return _message_parts(message) if isinstance(message, dict) else []
    if kind == "branch_summary":
        return [_strings(entry.get("summary"))]
    if kind == "custom_message":
        return [_strings(entry.get("content"))]
    return []


def _message_parts(message: dict) -> list[str]:
    role = message.get("role")
    if role == "bashExecution":
        return [_bash_part(message)]
    parts = [_block_part(block) for block in _blocks(message)]
    if role == "branchSummary" or role == "compactionSummary":
        parts.append(_strings(message.get("summary")))
    return parts


def _blocks(message: dict) -> list:
    content = message.get("content")
    return content if isinstance(content, list) else [content]


def _block_part(block: Any) -> str:
    """The text of one block of a message's content: a tool call shows its name and its arguments as JSON."""
    if isinstance(block, dict):
        kind = block.get("type")
        if kind == "toolCall":
            return f"{_strings(block.get('name'))}({orjson.dumps(block.get('arguments'), default=str).decode()})"
        return _strings(block.get("text") if kind != "thinking" else block.get("thinking"))
    return _strings(block)


def _bash_part(message: dict) -> str:
    return f"$ {_strings(message.get('command'))}\n{_strings(message.get('output'))}"


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
        folded = _folded(text)
        at = folded.find(phrase)
        if at >= 0:
            return at
        if len(words) > 1 and all(w in folded for w in words):
            return folded.find(words[0])
        return None

    return find


def _parts_matcher(query: str) -> Callable[[dict], bool] | None:
    """Whether :func:`_matcher` finds the query in an entry's text, tested part by part (no joined text, no
    folding of the parts after the one that holds it); ``None`` for a query with blanks: its phrase may
    span a join, and its words match apart."""
    phrase = query.casefold()
    if not phrase or any(char.isspace() for char in phrase):
        return None
    if not phrase.isascii():
        return lambda entry: any(phrase in _folded(part) for part in _entry_parts(entry))
    encoded, folding = phrase.encode(), folding_into([phrase])

    def holds(part: str) -> bool:
        if phrase in part:  # as written (a case-folded ASCII phrase folds to itself): no lowered copy
            return True
        return holds_folded(part)

    def holds_folded(part: str) -> bool:
        """:func:`holds` of a part that does not hold the phrase as written."""
        if part.isascii():
            return phrase in part.lower()
        if any(char in part for char in folding):
            return phrase in part.casefold()
        # Folding the text beyond ASCII costs ten times more than the whole rest of the search, and an ASCII
        # phrase is made of the text's ASCII characters only (no other folds into it), lowered: their bytes
        return encoded in part.encode("utf-8", "surrogatepass").lower()

    def entry_holds(entry: dict) -> bool:
        message = entry.get("message") if entry.get("type") == "message" else None
        if isinstance(message, dict) and (role := message.get("role")) != "bashExecution":
            # block by block: the parts after the one that holds the query are not made (a tool call's
            # arguments written as JSON, most often). _block_part and holds inlined for a text block: a search
            # counting 60,000 matches tests as many entries
            content = message.get("content")
            for block in content if isinstance(content, list) else (content,):
                if isinstance(block, dict) and (kind := block.get("type")) != "toolCall":
                    part = block.get("text") if kind != "thinking" else block.get("thinking")
                    if type(part) is not str:
                        part = _strings(part)
                else:
                    part = _block_part(block)
                if phrase in part or holds_folded(part):
                    return True
            return (role == "branchSummary" or role == "compactionSummary") and holds(_strings(message.get("summary")))
        for part in _entry_parts(entry):
            if holds(part):
                return True
        return False

    return entry_holds


def _folded(text: str) -> str:
    """``text.casefold()``; an ASCII text's case folding is its lower case, which Python makes faster."""
    return text.lower() if text.isascii() else text.casefold()


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


__all__ = ["RecallHit", "RecallResult", "format_hits", "recall", "recall_file", "searchable_entries"]
