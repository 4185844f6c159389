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
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from .errors import CorruptEntryError
from .session import Session
from .store.scan import Slot

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
    matcher = _matcher(query)
    hits, total = [], 0
    for slot in reversed(_candidates(index, query, scope)):
        try:
            entry = index.peek(slot)
        except CorruptEntryError:
            continue  # a line that looked like an entry but does not parse: nothing to find in it
        text = _entry_text(entry)
        found = matcher(text)
        if found is None:
            continue
        total += 1
        if len(hits) < limit:  # the rest are only counted: no excerpt, no walk of the branch for them
            hits.append(_hit(entry, off_path(slot), _excerpt(text, found, excerpt_chars), excerpt_chars))
    return RecallResult(query, tuple(hits), total, len(scope), False)


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
    """Every line of a searched type; the current branch is walked only when a hit asks whether it is on it
    (a search that finds nothing never walks a 100k-entry path)."""
    on_path: set[str] = set()

    def off_path(slot: Slot) -> bool:
        if not on_path:
            on_path.update(session.path_ids() or [""])
        return slot.id not in on_path

    return [slot for slot in session._index.slots if slot.type in _SEARCHED_TYPES], off_path


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


# -- which lines can hold a match, told from their bytes ------------------------------------------------------

_RUN = re.compile(r"[\w.-]+")
"""Characters JSON writes as themselves (or as a ``\\u`` escape) and no join of a text's fields is made of
(``\\n``, ``name(``, ``$ ``): a text holding a run of them holds it within one string of the line. ``-`` and
``.`` join words into one run (``session-manager``, ``index.ts``), rarer in a file than each of its words."""
_NUMBER_TEXT = re.compile(r"[0-9e.-]+")
"""A run a JSON number's text can hold: numbers in tool arguments are shown as orjson writes them, which need
not be as the file writes them (``1.5e3`` becomes ``1500.0``), so such runs are not looked for in the bytes
(a number's neighbours, ``:,[]}`` and blanks, are never in a run: a run is all number or no part of one)."""


FOLDS_TO_ASCII = "\xdf\u0130\u0149\u017f\u01f0\u1e96\u1e97\u1e98\u1e99\u1e9a\u1e9e\u212a\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06"
"""The characters beyond ASCII whose case folding holds an ASCII character, a word character in every case
(ß → ss, ſ → s, K → k, ﬁ → fi); a test derives the list from the running Python's Unicode tables."""
_FOLDS_TO_ASCII = re.compile(b"|".join(re.escape(char.encode()) for char in FOLDS_TO_ASCII))
_ASCII = bytes(range(128))


def _tokens(query: str) -> list[str] | None:
    """The runs a matching text holds, to look for in the bytes; ``None`` when the bytes cannot tell."""
    folded = query.casefold()
    tokens = [run for run in _RUN.findall(folded) if not _NUMBER_TEXT.fullmatch(run)]
    if not tokens or any(char in folded for char in '"\\') or any(ord(char) < 0x20 for char in folded):
        return None
    return tokens


def line_filter(query: str) -> Callable[[bytes], bool]:
    """A test of a JSONL line's bytes that is false only when the entry's text cannot match ``query``.

    A match holds every run of the case-folded query (word characters, ``-`` and ``.``: see :data:`_RUN`;
    joins between fields are never such characters, so no run spans two fields). Outside JSON escapes a line
    holds each string's characters of a run as they are, and case folding works character by character: the
    run is in the case-folded line too. Lines with ``\\u`` escapes (which may spell any character), and
    queries with characters JSON escapes otherwise (``"``, ``\\``, control characters), are never ruled out.
    """
    tokens = _tokens(query)
    if tokens is None:
        return lambda raw: True
    ascii_tokens = [token.encode() for token in tokens] if all(token.isascii() for token in tokens) else None

    def may_match(raw: bytes) -> bool:
        if b"\\u" in raw:
            return True
        if ascii_tokens is not None and (raw.isascii() or not _FOLDS_TO_ASCII.search(raw.translate(None, _ASCII))):
            lowered = raw.lower()  # case folding, for the ASCII runs of a line none of whose characters fold to ASCII
            return all(token in lowered for token in ascii_tokens)
        if raw.isascii():
            return False  # a run beyond ASCII cannot be in it
        text = raw.decode("utf-8", "replace").casefold()
        return all(token in text for token in tokens)

    return may_match


def _candidates(index, query: str, scope: list[Slot]) -> list[Slot]:
    """The slots of ``scope`` that :func:`line_filter` lets through, for every line of an opened file at once:
    the lines holding every run of the query found in one pass over the file; escapes and characters that
    fold to ASCII located once for the whole file (a file with neither, the usual, needs no more)."""
    per_line = line_filter(query)
    tokens = _tokens(query)
    data: bytes = index.file_bytes
    if tokens is None or not all(token.isascii() for token in tokens) or not data:
        return [slot for slot in scope if (raw := index.raw_line(slot)) is None or per_line(raw)]
    runs = sorted({token.encode() for token in tokens}, key=len, reverse=True)
    escapes = _escape_positions(data)
    folding = _FOLDS_TO_ASCII.search(data.translate(None, _ASCII)) is not None
    holding = _lines_holding(data, runs)
    if not escapes and not folding:
        # a slot parsed already (or never read from the file) passes: the exact test costs nothing more
        return [slot for slot in scope if slot.start in holding or slot.entry is not None or slot.start < 0]

    def may_match(slot: Slot) -> bool:
        if slot.entry is not None or slot.start < 0:
            return True
        start, end = slot.start, slot.end
        at = bisect_left(escapes, start)
        if at < len(escapes) and escapes[at] < end:
            return True
        if folding and not data[start:end].isascii():
            return per_line(data[start:end])
        return start in holding

    return [slot for slot in scope if may_match(slot)]


def _lines_holding(data: bytes, runs: list[bytes]) -> set[int]:
    """The start offsets of the lines of ``data`` whose lowered bytes hold every one of ``runs`` (longest first).

    The file is lowered a piece at a time (a lowered copy of a whole 290 MB file cost more in fresh memory
    than the search itself, and doubled the peak), and each run is searched from one occurrence to the next,
    skipping the rest of each line found, rather than line by line (a word found in few lines costs a few
    searches, not one per line; a common one a search per line holding it). A line's bounds are its
    newlines, found in the file's bytes: no run holds one. An occurrence in a key counts only in a line that
    holds a tool call's ``"arguments"`` (see :func:`_in_key`): ``timestamp``, ``content`` or ``output`` are
    keys of nearly every line, and parsing each line to find the word in none of its texts cost seconds.
    """
    holding: list[set[int]] = [set() for _ in runs]
    keyed: list[set[int]] = [set() for _ in runs]  # per run, the lines holding it in a key
    lines = [(0, -1)] * len(runs)  # per run, the bounds of the line of its last occurrence
    resume = [0] * len(runs)  # per run, where its search goes on: past the last line found holding it
    for offset in range(0, len(data), _PIECE_BYTES):
        # the piece reaches len(run) - 1 bytes into the next, so that a run across the seam is found
        piece = data[offset : offset + _PIECE_BYTES + len(runs[0]) - 1].lower()
        for number, run in enumerate(runs):
            found = holding[number]
            at = piece.find(run, max(resume[number] - offset, 0))
            while 0 <= at < _PIECE_BYTES:  # one starting later is the next piece's
                start, end = lines[number]
                if offset + at > end:  # a line of its own, its bounds looked for once however many keys hold it
                    start, end = data.rfind(b"\n", 0, offset + at) + 1, data.find(b"\n", offset + at)
                    lines[number] = start, end = start, len(data) if end < 0 else end
                if _in_key(data, offset + at + len(run)):
                    keyed[number].add(start)
                    at = piece.find(run, at + len(run))  # the line may hold it in a text further on
                    continue
                found.add(start)
                resume[number] = end
                at = piece.find(run, end - offset)
    for found, in_keys in zip(holding, keyed):
        found.update(start for start in in_keys - found if _holds_arguments(data, start))
    return set.intersection(*holding)


def _in_key(data: bytes, after: int) -> bool:
    """Whether the run ending at ``after`` is in an object's key: a quote right after it ends a string (a run
    holds no backslash that could escape the quote), a string followed by ``:`` is a key (in a line that
    parses: one that does not holds no entry to find). Whitespace before the ``:`` is not looked for: the
    run counts then, which costs a parse, never a hit."""
    return data.startswith(b'":', after)


def _holds_arguments(data: bytes, start: int) -> bool:
    """Whether the line at ``start`` holds a key ``"arguments"``: a tool call's arguments are shown as JSON,
    their keys included (see :func:`_message_text`); no other key is in an entry's text."""
    end = data.find(b"\n", start)
    return data.find(b'"arguments"', start, len(data) if end < 0 else end) >= 0


_PIECE_BYTES = 1 << 22
"""Bytes of the file lowered at once by :func:`_lines_holding`."""


_ESCAPE = re.compile(rb"\\u")


def _escape_positions(data: bytes) -> list[int]:
    """Where ``\\u`` occurs; ``re`` passes over the backslashes of a file of escaped newlines faster than
    ``bytes.find`` (0.17 s against 0.26 s on the 290 MB benchmark file)."""
    return [found.start() for found in _ESCAPE.finditer(data)]


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


__all__ = ["RecallHit", "RecallResult", "format_hits", "line_filter", "recall", "searchable_entries"]
