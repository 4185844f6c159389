"""The summaries another agent's model wrote, as references for ours.

An imported compaction entry (``details.importedFrom``) holds the summary the original agent's LLM wrote of
the conversation before it. :func:`reference_summaries` lists them with the region each stands for (the
messages since the previous compaction on the same path, or its first kept entry), so ``replay`` and the
quality bench can put that summary beside one of ours of the same region.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..session import Session


@dataclass(frozen=True)
class ReferenceSummary:
    """One imported compaction: the original summary and the entries it replaced."""

    compaction_id: str
    source: str
    """The agent whose model wrote it: ``claude-code``, ``codex``."""
    summary: str
    tokens_before: int
    region: tuple[str, ...]
    """Ids of the entries the summary stands for, root side first (an earlier summary's entry included)."""
    messages: int
    """How many of them are messages."""

    def to_json(self) -> dict:
        return {"compactionId": self.compaction_id, "source": self.source, "summary": self.summary,
                "tokensBefore": self.tokens_before, "regionStart": self.region[0] if self.region else None,
                "regionEnd": self.region[-1] if self.region else None, "regionEntries": len(self.region),
                "regionMessages": self.messages}


def reference_summaries(session: "Session", *, all_branches: bool = False) -> list[ReferenceSummary]:
    """The imported compactions on the current branch (every one in the file with ``all_branches``), in order."""
    if all_branches:
        compactions = list(session.iter_entries("compaction"))
    else:
        compactions = [e for e in session.branch() if e.get("type") == "compaction"]
    found = []
    for compaction in compactions:
        details = compaction.get("details") if isinstance(compaction.get("details"), dict) else {}
        source = details.get("importedFrom")
        if isinstance(source, str) and isinstance(compaction.get("summary"), str) and compaction["summary"]:
            region = _region(session.branch(compaction["id"])[:-1], compaction.get("firstKeptEntryId"))
            found.append(ReferenceSummary(
                compaction["id"], source, compaction["summary"], int(compaction.get("tokensBefore") or 0),
                tuple(e["id"] for e in region), sum(1 for e in region if e.get("type") == "message")))
    return found


def _region(path: list[dict], kept_from: object) -> list[dict]:
    """The part of ``path`` (root first, up to a compaction) that the compaction's summary replaces: from where
    the previous compaction's context began to where this one keeps from (what it kept is not summarized)."""
    end = next((i for i, e in enumerate(path) if e.get("id") == kept_from), len(path))
    at = max((i for i, e in enumerate(path[:end]) if e.get("type") == "compaction"), default=-1)
    if at < 0:
        return path[:end]
    previous = path[at].get("firstKeptEntryId")
    start = next((i for i, e in enumerate(path[:at]) if e.get("id") == previous), at)
    return path[start:end]
