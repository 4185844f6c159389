"""How many of a region's hand-labelled facts a summary holds, and whether it names the right next step.

The hand labels (``sessions_fixtures/labels``) list what a continuing agent needs: the goal, the rules, the
decisions, what is done, in progress and next, the errors and the key files, each with the phrases that identify
it. A fact is *present* when the summary holds at least half of its keys, *partly* when it holds some, *absent*
when none; *wrong* counts the summary items the scorer (:func:`~.quality.score_quality`) found wrong (open items
already finished, errors given the wrong status, faults), each item once. :func:`spearman` ranks the scorer
against these counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .quality import LabelItem, Quality

FACT_SECTIONS = ("goal", "constraints", "decisions", "done", "in_progress", "next", "errors", "files")
_NEXT_HEADING = re.compile(r"^(?:#{1,6}\s|\d{1,2}\.\s+[A-Z]).*\b(?:next|in progress|current|pending)\b", re.I)
_HEADING = re.compile(r"^#{1,6}\s|^\d{1,2}\.\s+[A-Z][A-Za-z &/'-]{2,60}:\s*$")


@dataclass(frozen=True)
class Coverage:
    """The labelled facts a summary holds."""

    present: int = 0
    partly: int = 0
    absent: int = 0
    wrong: int = 0
    next_right: bool | None = None
    """The labelled next step (or in-progress item) is named under Next Steps / In Progress; ``None`` when the
    labels name none (then the summary must not name finished work as open)."""

    @property
    def facts(self) -> int:
        return self.present + self.partly + self.absent

    @property
    def share(self) -> float:
        """Present facts count 1, partly ones ½."""
        return (self.present + self.partly / 2) / self.facts if self.facts else 1.0

    def to_json(self) -> dict:
        return {"present": self.present, "partly": self.partly, "absent": self.absent, "wrong": self.wrong,
                "nextRight": self.next_right, "share": self.share}


def _items(labels: dict, section: str) -> list[LabelItem]:
    value = labels.get(section)
    if isinstance(value, dict):
        value = [value]
    return [LabelItem(str(item.get("text", "")), tuple(item.get("keys") or ()), item.get("status"))
            for item in value or () if isinstance(item, dict) and item.get("keys")]


def _open_part(summary: str) -> str:
    """The lines under the summary's Next Steps / In Progress / Current headings."""
    kept, inside = [], False
    for line in summary.splitlines():
        if _HEADING.match(line):
            inside = bool(_NEXT_HEADING.match(line))
        elif inside:
            kept.append(line)
    return "\n".join(kept)


def coverage(summary: str, labels: dict, quality: Quality) -> Coverage:
    """The labelled facts of ``labels`` (a label file's JSON) that ``summary`` holds, and what ``quality`` (its
    score against the same region) found wrong."""
    present = partly = absent = 0
    for section in FACT_SECTIONS:
        for item in _items(labels, section):
            hits = item.hits(summary)
            if hits and hits * 2 >= len(item.keys):
                present += 1
            elif hits:
                partly += 1
            else:
                absent += 1
    wrong = len(quality.wrong)  # each wrong item once, however many checks it fails
    wanted = _items(labels, "next") or _items(labels, "in_progress")
    named = _open_part(summary)
    right = any(item.hits(named) for item in wanted) and not quality.stale if wanted else None
    return Coverage(present, partly, absent, wrong, right)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rank correlation (ties get their mean rank); ``None`` for fewer than three pairs or no spread."""
    if len(xs) != len(ys) or len(xs) < 3:
        return None
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx, vy = sum((a - mx) ** 2 for a in rx), sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5 if vx and vy else None


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


__all__ = ["Coverage", "FACT_SECTIONS", "coverage", "spearman"]
