"""A session as JSON documents: what ``pi-compact session show|tree|info --json`` print, for any program, and
what ``session compact --json`` prints when there is nothing to compact.

The tree documents come back as bytes, not dicts: a session may be a chain of 100,000 entries, nested deeper
than any JSON library (or Python's recursion) follows, so they are written with an explicit stack. Every
value goes through the store's writer (:func:`pi_compact.store.jsonl.dumps`, ``JSON.stringify``'s bytes:
``1`` and ``0.000001``, never ``1.0`` or ``1e-06``). Values taken from entries are kept as the entries have
them, even when a hand edit made them the wrong type.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from dataclasses import replace
from collections.abc import Callable, Iterable, Iterator
from itertools import compress, repeat
from operator import eq, itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from .errors import PiCompactError, UsageError
from .store.jsonl import dumps

if TYPE_CHECKING:
    from .compaction.estimate_cache import EstimateCache
    from .compaction.settings import CompactionSettings
    from .session import Session
    from .store.index import DigestNode
    from .store.listing import SessionInfo
    from .store.scan import Slot
    from .store.stream import StreamedFile

__all__ = [
    "EntryCounts",
    "compaction_refusal_json",
    "counted_tree",
    "entry_tokens",
    "json_bytes",
    "session_info_json",
    "session_show_json",
    "session_tree_json",
]


def json_bytes(value: Any) -> bytes:
    """``JSON.stringify(value)`` as UTF-8, the bytes a session line would hold."""
    try:
        return dumps(value)
    except ValueError as exc:  # nested beyond what the writer follows: deeper than any line the reader accepts
        raise PiCompactError(f"cannot print this as JSON: {exc}") from None


# -- the documents ---------------------------------------------------------------------------------------------


def session_show_json(session: Session) -> bytes:
    """``session show --json``: header, file version, name, leaf, counts, problems, and the tree with an
    estimated token count on each message node; the file is read once, no entry kept."""
    roots, counts = counted_tree(session, show_json_digest())
    return show_json_document(session, roots, counts)


def show_json_digest(cache: EstimateCache | None = None) -> Callable[..., Any]:
    """The digest :func:`session_show_json` makes of each entry (for :func:`file_counted_tree`); with
    ``cache``, a digest of the entry and its line whose estimates are read from and kept in it."""
    from .compaction.tokens import estimate_tokens

    tokens = entry_tokens(estimate_tokens)
    return _json_digest(cache.keyed(tokens) if cache is not None else tokens)


def show_json_document(session: Session, roots: list[DigestNode], counts: EntryCounts) -> bytes:
    """:func:`session_show_json` from the tree and counts of :func:`counted_tree` or :func:`file_counted_tree`."""
    session.path_ids()  # a parent cycle on the leaf's path is reported as it is walked: listed like the others
    head = {
        "header": session.header,
        "fileVersion": session.version,
        "name": session.name,
        "leafId": session.leaf_id,
        "counts": counts.to_json(),
        "problems": [problem.to_json() for problem in session.problems],
    }
    return json_bytes(head)[:-1] + b',"tree":' + _nested(roots, _fields_with_tokens) + b"}"


def session_tree_json(session: Session) -> bytes:
    """``session tree --json``: the entry tree as nested ``{id, parentId, type, role?, label?, timestamp,
    children}`` nodes, children oldest first."""
    return _nested(session.digest_tree(_json_digest()), _fields)


def session_info_json(session: Session) -> dict[str, Any]:
    """``session info --json``: its row of a session listing, then entries, leaf, labels, size, version, problems."""
    from .store.listing import summarize

    if session.path is None:
        raise UsageError("a session in memory could not be summarized: it has no file")
    summary = summarize(session.path, session.header, session._index)  # the file as opened: read once
    return _info_document(session, summary)


def _info_document(session: Session, summary: SessionInfo) -> dict[str, Any]:
    return {
        **summary.to_json(),
        "entryCount": len(session),
        "leafId": session.leaf_id,
        "labelCount": len(session.labels),
        "fileSize": os.path.getsize(session.path),
        "version": session.version,
        "problems": [problem.to_json() for problem in session.problems],
    }


def compaction_refusal_json(session: Session, reason: str, settings: CompactionSettings | None = None,
                            window: int | None = None) -> dict[str, Any]:
    """``session compact --json`` when the library refused with ``reason`` (like "Already compacted"): the
    context's size now, the window it had to fit (if any) and the settings that left nothing to compact."""
    from .compaction.settings import CompactionSettings
    from .compaction.tokens import estimate_context_tokens

    settings = settings or CompactionSettings()
    size = estimate_context_tokens(session.build_context().messages)
    return {"compacted": False, "reason": reason, "tokens": size.tokens, "tokensMeasured": size.measured,
            "window": window, "reserveTokens": settings.reserve_tokens, "keepRecentTokens": settings.keep_recent_tokens}


# -- reading the tree once -------------------------------------------------------------------------------------


class EntryCounts:
    """Entries by type and messages by role, in the order first met (filled while the tree is read).

    Each line's type (and each message's role) is noted as the entry has it and named at the end: counting by
    name as the file is read cost a tenth of ``session show`` on a 100k-entry file."""

    def __init__(self) -> None:
        self.kinds: list[Any] = []
        """Every line's ``type``, as the entry has it."""
        self.message_roles: list[Any] = []
        """Every message line's ``role``, as the message has it (``"none"`` where the message is no object)."""

    def add(self, entry: dict) -> None:
        kind = entry.get("type")
        self.kinds.append(kind)
        if kind == "message":
            message = entry.get("message")
            self.message_roles.append(message.get("role") if isinstance(message, dict) else "none")

    @property
    def entries(self) -> int:
        return len(self.kinds)

    @property
    def types(self) -> Counter[str]:
        return _named(self.kinds)

    @property
    def roles(self) -> Counter[str]:
        return _named(self.message_roles)

    def to_json(self) -> dict[str, Any]:
        return {"entries": self.entries, "types": dict(self.types), "roles": dict(self.roles)}


def _named(values: list[Any]) -> Counter[str]:
    """How often each ``str(value)`` occurs, in the order first met."""
    try:
        counted = Counter(values)
    except TypeError:  # a hand-edited type that is a list or an object
        return Counter(map(str, values))
    if all(type(value) is str for value in counted):
        return counted
    return Counter(map(str, values))  # 1 and True, 1 and 1.0 are one key to a Counter, two names here


def counted_tree(session: Session, digest: Callable[[dict], Any]) -> tuple[list[DigestNode], EntryCounts]:
    """The session's tree with ``digest(entry)`` in place of each entry, and every line of the file counted.

    This is how a big file is shown: read once, each entry parsed for its digest and its count, none kept.
    Counted as :meth:`Session.entries` lists them: shadowed duplicates too.
    """
    counts = EntryCounts()

    def digest_and_count(entry: dict) -> Any:
        counts.add(entry)
        return digest(entry)

    return session.digest_tree(digest_and_count, every_line=True), counts


# -- reading a file in pieces (the CLI's show and info on a file of any size) -----------------------------------


class RowsOf(NamedTuple):
    """Where :func:`file_counted_tree` finds and keeps a row per line, and how a digest is made a row and back.

    A row is ``(type, id, parentId, timestamp, role)`` of the line's slot and entry (``role``: what
    :class:`EntryCounts` counts of a message, ``None`` for other entries), then what ``pack`` keeps of the
    digest: ``pack(slot, role, digest)`` makes it (``None``: not kept), ``unpack(rows)`` the digests again, of
    a list of rows at once; last, what a listing reads of the line (:func:`_listed_time`: ``session info``
    reads a known line from its row, :func:`file_info_json`)."""

    cache: EstimateCache
    pack: Callable[[Slot, Any, Any], tuple | None]
    unpack: Callable[[list[tuple]], Iterable[Any]]


def file_counted_tree(path: str | os.PathLike, digest: Callable[..., Any], *, with_lines: bool = False,
                      rows: RowsOf | None = None) -> tuple[Session, list[DigestNode], EntryCounts]:
    """:func:`counted_tree` of the file at ``path``, read once in pieces: memory holds the index and the
    digests, never the file (:mod:`pi_compact.store.stream`). The session returned answers for the header,
    name, leaf, problems and paths; its entries are not held. A v1/v2 file is opened whole (it is migrated).

    With ``with_lines``, ``digest`` is called with the entry and the bytes of its line (a memoryview), or ``None`` for the line of a file migrated in memory (its entries are not its lines):
    what a cache keyed by line content (:mod:`pi_compact.compaction.estimate_cache`) needs.

    With ``rows`` (and ``with_lines``), a line the cache has a row for is neither scanned nor parsed nor
    digested: its slot, count and digest come from the row (:meth:`StreamedFile.keyed_slots
    <pi_compact.store.stream.StreamedFile.keyed_slots>`), and the digest is given the line's key rather than
    its bytes. A row is kept only of a line whose slot it can stand for and whose role is a string or none."""
    from .session import Session
    from .store.scan import _gc_paused

    streamed = _streamed(path)
    if streamed is None:
        session = Session.open(path)
        return (session, *counted_tree(session, (lambda entry: digest(entry, None)) if with_lines else digest))
    if rows is not None and with_lines:
        return _counted_from_rows(streamed, digest, rows)
    counts, digests = EntryCounts(), {}
    kinds, roles = counts.kinds, counts.message_roles
    with _gc_paused():  # as in SessionIndex.digest_tree: a pass this size creates no cycle worth collecting
        for piece in streamed.pieces():
            view = memoryview(piece.data)
            for slot, entry in zip(piece.slots, piece.entries()):  # every line, file order: a later duplicate's
                kind = entry.get("type")  # digest overwrites the earlier. Counted as EntryCounts.add counts, inlined
                kinds.append(kind)
                if kind == "message":
                    message = entry.get("message")
                    roles.append(message.get("role") if isinstance(message, dict) else "none")
                digests[slot.id] = digest(entry, view[slot.start : slot.end]) if with_lines else digest(entry)
    session = _read_only(streamed)
    return session, session._index.digest_nodes(digests), counts


def _counted_from_rows(streamed: StreamedFile, digest: Callable[..., Any],
                       rows: RowsOf) -> tuple[Session, list[DigestNode], EntryCounts]:
    """:func:`file_counted_tree` with ``rows``: what the loop over pieces does, the known lines taken from their
    rows in runs (counted, digested and kept by C-level loops: a file shown before is nearly all known lines)."""
    from .store.scan import _gc_paused

    intern = sys.intern
    counts, digests = EntryCounts(), {}
    kinds, roles = counts.kinds, counts.message_roles
    cache, pack, unpack = rows.cache, rows.pack, rows.unpack
    listed_time = _listed_time
    known_keys: list[int] = []
    known_rows: list[tuple] = []

    def take_known() -> None:
        kinds.extend(map(_FIRST, known_rows))
        roles.extend(compress(map(_FIFTH, known_rows), map(eq, map(_FIRST, known_rows), repeat("message"))))
        digests.update(zip(map(_SECOND, known_rows), unpack(known_rows)))
        cache.keep_rows(known_keys, known_rows)
        known_keys.clear()
        known_rows.clear()

    with _gc_paused():
        for slot, key, entry, plain in streamed.keyed_slots(cache.row, known_keys, known_rows, cache):
            if known_rows:
                take_known()
            kind, role = entry.get("type"), None
            kinds.append(kind)
            if kind == "message":
                message = entry.get("message")
                role = message.get("role") if isinstance(message, dict) else "none"
                roles.append(role)
            made = digests[slot.id] = digest(entry, key)
            if plain and (role is None or type(role) is str) and (packed := pack(slot, role, made)) is not None:
                # types and roles interned: written once each (marshal refers to a string met before)
                row = (intern(kind), slot.id, slot.parent_id, slot.timestamp, role if role is None else intern(role))
                cache.keep_rows([key], [row + packed + (listed_time(entry),)])
        take_known()
    session = _read_only(streamed)
    return session, session._index.digest_nodes(digests), counts


_FIRST, _SECOND, _FIFTH = itemgetter(0), itemgetter(1), itemgetter(4)


def file_info_json(path: str | os.PathLike,
                   known: Callable[[int], tuple | None] | None = None) -> tuple[Session, dict[str, Any]]:
    """:func:`session_info_json` of the file at ``path``, read once in pieces (memory does not grow with the
    file), and the session (header, problems) it describes.

    With ``known`` (the ``row`` of an :class:`EstimateCache` that ``session show`` filled, of the
    :data:`INFO_ROW_COLUMNS`), a line of a big file with a row is read from it: counted by its id and type,
    its message's role and time taken from the row, and parsed only when the listing must read it
    (:class:`_DecidingMessages`); nothing is written."""
    from .session import Session
    from .store.listing import summarize_messages
    from .store.scan import _gc_paused

    streamed = _streamed(path, tally=True)
    if streamed is None:
        session = Session.open(path)
        return session, session_info_json(session)
    with _gc_paused():  # as in file_counted_tree: a pass this size creates no cycle worth collecting
        deciding = _DecidingMessages()
        messages = deciding.of(streamed.messages(known, deciding.needs))
        summary = summarize_messages(streamed.path, streamed.header, messages, streamed.index.name)
    session = _read_only(streamed)
    return session, _info_document(session, replace(summary, message_count=deciding.count))


_SURELY_REPRESENTABLE_MS = 10**14
"""A message time in ms from 0 up to this (the year 5138) is one a listing takes (it takes the years 1 to 9999)."""


class _DecidingMessages:
    """Of a file's messages, those that may decide a listing's first message and newest activity, and the count
    of all of them (:attr:`count`, once iterated): the user messages up to the first with text, in order, and
    those whose time is not a plain number of ms, in order; then the newest of those whose time is (held back to
    the end, where it changes neither the first message nor the newest time but by being the newest).

    Left out, a message that is neither a user's nor an assistant's with content (a listing reads nothing else)
    and every other one with a plain time. Asking a listing about every message of a 100k-entry file, with a
    call or two for each time, was a tenth of ``session info``.

    A message known from its row comes as ``(row, line)`` (:meth:`StreamedFile.messages
    <pi_compact.store.stream.StreamedFile.messages>`), parsed only if :meth:`needs` says so or if it is the
    newest."""

    def __init__(self) -> None:
        self.count = 0
        """How many messages there were, all of them (known once the iteration has ended)."""
        self._first_found = False

    def needs(self, row: tuple) -> bool:
        """Whether the message of a known line must be read whole: it is a user's with content before the first
        with text, or its time is not plain (:func:`_listed_time`)."""
        stamp = row[-1]
        return stamp == _NOT_PLAIN or (stamp is not None and row[2] == "user" and not self._first_found)

    def of(self, messages: Iterator[Any]) -> Iterator[dict]:
        """Those of ``messages`` (entries, and ``(row, line)`` of the known lines :meth:`needs` left) that may
        decide the listing."""
        from .accessors import content_text

        counted, newest, newest_entry = 0, -1, None
        for entry in messages:
            counted += 1
            if type(entry) is tuple:  # known: a plain time, or none a listing reads
                stamp = entry[0][-1]
                if stamp is not None and stamp > newest:
                    newest, newest_entry = stamp, entry
                continue
            message = entry.get("message")
            if type(message) is not dict or "content" not in message:
                continue
            role = message.get("role")
            if role != "assistant" and role != "user":
                continue
            if role == "user" and not self._first_found:
                self._first_found = bool(content_text(message["content"], " "))
                yield entry
            stamp = message.get("timestamp")
            if type(stamp) is not int or not 0 <= stamp <= _SURELY_REPRESENTABLE_MS:
                yield entry
            elif stamp > newest:
                newest, newest_entry = stamp, entry
        self.count = counted
        if type(newest_entry) is tuple:
            from .store.stream import known_entry

            newest_entry = known_entry(newest_entry[1])
        if newest_entry is not None:
            yield newest_entry


INFO_ROW_COLUMNS = (0, 1, 4, -1)
"""What ``session info`` reads of a row of :class:`RowsOf` (:meth:`EstimateCache.open
<pi_compact.compaction.estimate_cache.EstimateCache.open>`'s ``columns``): the type, id, role and the listed
time (:func:`_listed_time`), in this order."""
_NOT_PLAIN = -1


def _listed_time(entry: dict) -> int | None:
    """What :class:`_DecidingMessages` reads of a line, for its row: ``None`` when a listing reads nothing of
    it (no message with content, or neither a user's nor an assistant's), the message's time when it is a
    plain number of ms, else :data:`_NOT_PLAIN` (the message is read whole)."""
    message = entry.get("message")
    if entry.get("type") != "message" or type(message) is not dict or "content" not in message:
        return None
    role = message.get("role")
    if role != "assistant" and role != "user":
        return None
    stamp = message.get("timestamp")
    return stamp if type(stamp) is int and 0 <= stamp <= _SURELY_REPRESENTABLE_MS else _NOT_PLAIN


def _streamed(path: str | os.PathLike, *, tally: bool = False) -> StreamedFile | None:
    from .store.session_file import absolute_path
    from .store.stream import StreamedFile

    return StreamedFile.open(absolute_path(path), tally=tally)


def _read_only(streamed: StreamedFile) -> Session:
    """The session of a file read in pieces: its index, and no bytes to parse an entry from."""
    from .session import Session
    from .store.session_file import SessionFile

    file = SessionFile(streamed.header, streamed.path)
    file.index = streamed.finish()
    return Session._on(file)


def entry_tokens(estimate: Callable[[dict], int]) -> Callable[..., int | None]:
    """``estimate`` of a message entry's message; ``None`` for other entries and for a message it cannot read.

    The function made takes the entry's line too (``line``, unused) as a cached estimate does
    (:meth:`EstimateCache.keyed <pi_compact.compaction.estimate_cache.EstimateCache.keyed>`), so that a digest
    can be given either."""

    def tokens(entry: dict, line: object = None) -> int | None:
        message = entry.get("message")
        if entry.get("type") != "message" or not isinstance(message, dict):
            return None
        try:
            return int(estimate(message))
        except (TypeError, ValueError, AttributeError):
            return None  # a malformed message: no estimate rather than no drawing

    return tokens


# -- tree nodes ------------------------------------------------------------------------------------------------


class _JsonDigest(NamedTuple):
    """What a node of the tree documents says of its entry (values as the entry has them)."""

    id: Any
    parent_id: Any
    type: Any
    role: Any
    """The message's role; :data:`_NO_ROLE` when the entry is not a message with one."""
    timestamp: Any
    tokens: int | None


_NO_ROLE: Any = object()
"""Not a role: a ``role`` that is JSON ``null`` is printed as such, a missing one is left out."""


def _json_digest(tokens: Callable[..., int | None] | None = None) -> Callable[..., _JsonDigest]:
    def digest(entry: dict, line: object = None) -> _JsonDigest:
        message = entry.get("message")
        is_message = entry.get("type") == "message" and isinstance(message, dict)
        return _JsonDigest(
            entry.get("id"),
            entry.get("parentId"),
            entry.get("type"),
            message["role"] if is_message and "role" in message else _NO_ROLE,
            entry.get("timestamp"),
            tokens(entry, line) if tokens else None,
        )

    return digest


def _fields(node: DigestNode) -> dict:
    """The fields of one tree node, in order; ``children`` is added by :func:`_nested`."""
    digest: _JsonDigest = node.digest
    fields = {"id": digest.id, "parentId": digest.parent_id, "type": digest.type}
    if digest.role is not _NO_ROLE:
        fields["role"] = digest.role
    if node.label is not None:
        fields["label"] = node.label
    fields["timestamp"] = digest.timestamp
    return fields


def _fields_with_tokens(node: DigestNode) -> dict:
    fields = _fields(node)
    if node.digest.tokens is not None:
        fields["tokens"] = node.digest.tokens
    return fields


def _nested(roots: list[DigestNode], fields: Callable[[DigestNode], dict]) -> bytes:
    """Nested ``[{…, "children": [...]}]`` built with an explicit stack: no depth limit, no recursion."""
    out = bytearray(b"[")
    stack = [iter(roots)]
    first = [True]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            first.pop()
            out += b"]}" if stack else b"]"
            continue
        if not first[-1]:
            out += b","
        first[-1] = False
        out += json_bytes(fields(node))[:-1] + b',"children":['
        stack.append(iter(node.children))
        first.append(True)
    return bytes(out)
