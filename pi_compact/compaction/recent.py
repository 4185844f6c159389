"""The part of a session's path a compaction reads, found by walking up from the leaf, not down from the root.

A compaction summarizes what follows the previous compaction's kept boundary; of the path before it, the
preparation and the pipeline read only the first user request (quoted as the original request), the latest
user request (quoted when the kept region holds none) and the branch summaries (their file lists).
:func:`compaction_path` returns those, then the path from the boundary to the leaf: every computation of
:func:`~pi_compact.compaction.prepare.prepare_compaction` and the pipeline comes out as on the whole path
(what lies before the boundary is never summarized, kept or cut). What it learnt about the path above the
leaf of its last call (per session) lets the next call stop its walk there, so a compaction of a long
session costs what its region costs, not what the whole history does.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from ..accessors import entry_role
from ..session import Session
from .pipeline import _first_user_text as first_user_text


@dataclass(frozen=True)
class _Above:
    """What the path root..``leaf`` holds that a compaction below ``leaf`` reads."""

    leaf: str
    first_user: dict | None
    last_user: dict | None
    summaries: tuple[dict, ...]

    def below(self, leaf: str, walked: list[dict]) -> "_Above":
        """The same for ``leaf``, whose path is this one's and then ``walked`` (leaf first)."""
        users = [e for e in reversed(walked) if e.get("type") == "message" and entry_role(e) == "user"]
        summaries = tuple(e for e in reversed(walked) if e.get("type") == "branch_summary")
        # the original request is the first user message with text that is no slash command
        first = self.first_user or next((e for e in users if first_user_text([e]) is not None), None)
        return _Above(leaf, first, users[-1] if users else self.last_user, self.summaries + summaries)


_NOTHING_ABOVE = _Above("", None, None, ())
_MEMORY: "weakref.WeakKeyDictionary[Session, _Above]" = weakref.WeakKeyDictionary()


def compaction_path(session: Session) -> list[dict]:
    """Root first: the first user message, the branch summaries and the latest user message above the
    previous compaction's kept boundary, then the entries from that boundary to the leaf; the whole path when
    no compaction on it keeps a region."""
    known = _MEMORY.get(session)
    walked: list[dict] = []  # leaf first, up to the kept boundary and to ``known.leaf``, whichever is higher
    below_known: int | None = None  # how many of ``walked`` lie below ``known.leaf``
    kept_id: object = None
    kept_at: int | None = None
    for entry in session.ancestors():
        if known is not None and below_known is None and entry.get("id") == known.leaf:
            below_known = len(walked)
        walked.append(entry)
        if kept_id is None and entry.get("type") == "compaction":
            kept_id = entry.get("firstKeptEntryId", entry.get("id"))
        if kept_at is None and kept_id is not None and entry.get("id") == kept_id:
            kept_at = len(walked)
        if kept_at is not None and below_known is not None:
            break
    if below_known is None:  # walked to the root
        above = _NOTHING_ABOVE.below(str(session.leaf_id), walked)
    else:
        above = known.below(str(session.leaf_id), walked[:below_known])  # type: ignore[union-attr]
    if session.leaf_id is not None:
        _MEMORY[session] = above
    if kept_at is None:
        return walked[::-1] if below_known is None else session.branch()
    tail = walked[:kept_at][::-1]
    in_tail = {id(entry) for entry in tail} | {entry.get("id") for entry in tail}
    prefix = [e for e in (above.first_user, *above.summaries, above.last_user)
              if e is not None and id(e) not in in_tail and e.get("id") not in in_tail]
    return list({id(e): e for e in prefix}.values()) + tail
