"""What every adapter needs from a session: where each context message came from, and leaf moves that last.

Frameworks think of history as a list; a pi session is a tree whose context is built from the path to the
leaf (with a compaction summary standing for what it replaced). :func:`context_sources` pairs each context
message with its entry, so an adapter can say which entry to step back over; :func:`move_to` persists a
new position as one ``custom`` line, the way ``pi-compact session checkout`` does.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..compaction.serialize import convert_message
from ..context import compaction_summary_message, entry_to_message, NOTHING
from ..convert import repair_tool_pairs
from ..session import Session


def open_session(session: Session | str | os.PathLike, cwd: str | None = None) -> Session:
    """A :class:`Session` as given, the file at a path, or a new file there (written on the first append)."""
    if isinstance(session, Session):
        return session
    path = Path(session)
    return Session.open(path) if path.exists() else Session.create_at(path, cwd)


def context_sources(path: list[dict]) -> list[tuple[dict, dict]]:
    """``(entry, message)`` for each message of pi's context over ``path`` (root first), in context order.

    The summary of the latest compaction comes from the compaction entry itself.
    """
    at = max((i for i, e in enumerate(path) if e.get("type") == "compaction"), default=-1)
    if at < 0:
        return _with_messages(path)
    compaction = path[at]
    kept_id = compaction.get("firstKeptEntryId")
    first_kept = next((i for i, e in enumerate(path[:at]) if kept_id is not None and e.get("id") == kept_id), at)
    summary = (compaction, compaction_summary_message(compaction))
    return [summary, *_with_messages(path[first_kept:at]), *_with_messages(path[at + 1 :])]


def _with_messages(entries: list[dict]) -> list[tuple[dict, dict]]:
    pairs = ((entry, entry_to_message(entry)) for entry in entries)
    return [(entry, message) for entry, message in pairs if message is not NOTHING and isinstance(message, dict)]


def model_view(messages: list[dict]) -> list[tuple[dict | None, dict]]:
    """``(original, sent)`` pairs: pi's ``convertToLlm`` then tool-pair repair, as :mod:`~pi_compact.convert` does.

    ``original`` is the context message a sent message came from, ``None`` for a placeholder tool result.
    """
    pairs = [(message, convert_message(message)) for message in messages]
    origin = {id(sent): message for message, sent in pairs if sent is not None}
    return [(origin.get(id(sent)), sent) for sent in repair_tool_pairs([s for _, s in pairs if s is not None])]


def move_to(session: Session, target: str | None) -> None:
    """Move the leaf to ``target`` (``None``: before the first entry) and persist it as one ``custom`` line."""
    from ..branching import checkout

    checkout(session, target, summarize=False, persist_position=True)
