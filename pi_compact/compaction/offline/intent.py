"""The objective an earlier summary states under a numbered heading, as a model's summaries write it.

Claude Code's compaction summary is a numbered list of sections ("1. Primary Request and Intent:", "2. Key
Technical Concepts:", … "9. Optional Next Step:"), not pi's ``## Goal``. Read by :func:`.sections.parse`, its
items all land under Critical Context, where the newest are kept and the first section, the user's objective, is
the one lost. So a later region that holds no request of its own (the agent goes on with the work unprompted)
had "(no user request in this part)" as its goal while the earlier summary said what the work was for. This reads
that section back as one line: its items joined, as the objective the summary carried.
"""

from __future__ import annotations

import re

from .text import clip_words

_INTENT_HEADING = re.compile(
    r"^[#*\s]{0,8}\d{1,2}[.)]\s{1,4}\**\s{0,2}(?:(?:the\s)?user'?s?\s{1,2})?(?:(?:primary|main)\s{1,2})?"
    r"(?:requests?|intent|goals?|objectives?)\b[^:\n]{0,40}:\**\s*",
    re.I)
"""A numbered heading whose words are the request or intent ("1. Primary Request and Intent:", "1. **Goal**:")."""
_NEXT_HEADING = re.compile(r"^(?:#{1,6}\s|\**\d{1,2}[.)]\s{1,4}\**\s{0,2}[A-Z][^:\n]{2,60}:)")
"""A heading at the left margin that ends the section: the next numbered one, or a Markdown heading."""
_BULLET = re.compile(r"^(?:[-*+•]|\d{1,2}[.)])\s{1,4}")
INTENT_CHARS = 400
"""The objective's room: the request and its aims, without the section's quotes of every message."""


def earlier_intent(summary: str) -> str:
    """The request-and-intent section of ``summary`` on one line (items joined by "; "), or "" when it has none."""
    lines = summary.splitlines()
    start = next((n for n, line in enumerate(lines) if _INTENT_HEADING.match(line)), None)
    if start is None:
        return ""
    items = [lines[start][_INTENT_HEADING.match(lines[start]).end():].strip()]
    for line in lines[start + 1:]:
        if line[:1].strip() and _NEXT_HEADING.match(line):
            break
        items.append(_BULLET.sub("", line.strip(), count=1))
    return clip_words("; ".join(item for item in items if item), INTENT_CHARS)


__all__ = ["INTENT_CHARS", "earlier_intent"]
