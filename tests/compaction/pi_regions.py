"""The regions of pi's real sessions that the summary tests read: exactly where pi's two Claude-written compactions
in ``before-compaction.v1.jsonl`` cut (with Claude's summaries to compare), and the first half of
``large-session.v1.jsonl``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sessions_fixtures import BEFORE_COMPACTION, LARGE_SESSION

from pi_compact import Session
from pi_compact.compaction.prepare import message_for_summary, region_start


@dataclass(frozen=True)
class Region:
    name: str
    messages: tuple[dict, ...]
    previous_summary: str | None
    """The summary that was in the file before this region (Claude's, for the second compaction)."""
    claude: str | None
    """Claude's summary of the same region, when pi compacted there."""
    cwd: str


def _messages(path: list[dict], begin: int, end: int) -> tuple[dict, ...]:
    return tuple(m for m in (message_for_summary(e) for e in path[begin:end]) if m is not None)


@cache
def pi_regions() -> dict[str, Region]:
    session = Session.open(BEFORE_COMPACTION)
    path = session.branch()
    regions: dict[str, Region] = {}
    for at, entry in enumerate(path):
        if entry.get("type") == "compaction":
            start, previous = region_start(path[:at])
            kept = next(i for i in range(at) if path[i].get("id") == entry["firstKeptEntryId"])
            name = f"compaction{len(regions) + 1}"
            regions[name] = Region(name, _messages(path, start, kept), previous, entry["summary"], session.cwd)
    large = Session.open(LARGE_SESSION)
    large_path = large.branch()
    regions["large-half"] = Region("large-half", _messages(large_path, 0, len(large_path) // 2), None, None,
                                   large.cwd)
    return regions
