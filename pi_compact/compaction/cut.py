"""Where to cut: the newest ``keepRecentTokens`` of the conversation stay verbatim, the rest is summarized.

pi's rules: a cut lands only where a message may start the kept region (never on a tool result, so a tool
call and its result stay together); entries like model changes or labels right before the cut are pulled
into the kept region; a cut inside a turn (not at the user message that opened it) is a *split turn*.
Three of pi's quirks are fixed: custom messages and branch summaries count towards the kept budget; a
change or label entry before a user message no longer turns an ordinary cut into a split turn; and a final
tool result bigger than the budget no longer keeps everything (pi then summarized nothing at all), the cut
lands on the call that produced it instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..accessors import entry_role
from ..context import custom_message
from .tokens import estimate_tokens, text_tokens

_CUT_ROLES = frozenset({"user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"})
_TURN_ROLES = frozenset({"user", "bashExecution"})


@dataclass(frozen=True)
class CutPoint:
    """Where the kept region starts, and whether that splits a turn."""

    first_kept_index: int
    turn_start_index: int
    """Index of the user message that opened the split turn, or -1."""
    is_split_turn: bool


def entry_tokens(entry: dict) -> int:
    """Estimated tokens an entry adds to the context."""
    kind = entry.get("type")
    if kind == "message":
        return estimate_tokens(entry.get("message"))
    if kind == "custom_message":
        return estimate_tokens(custom_message(entry))
    if kind == "branch_summary":
        return text_tokens(str(entry.get("summary") or ""))
    return 0


def is_cut_point(entry: dict) -> bool:
    kind = entry.get("type")
    return kind in ("branch_summary", "custom_message") or (kind == "message" and entry_role(entry) in _CUT_ROLES)


def valid_cut_points(path: list[dict], start: int, end: int) -> list[int]:
    return [i for i in range(start, end) if is_cut_point(path[i])]


def find_turn_start(path: list[dict], index: int, start: int) -> int:
    """The entry that opened the turn containing ``index`` (a user message, bash run, summary), or -1."""
    for i in range(index, start - 1, -1):
        entry = path[i]
        if entry.get("type") in ("branch_summary", "custom_message"):
            return i
        if entry.get("type") == "message" and entry_role(entry) in _TURN_ROLES:
            return i
    return -1


def find_cut_point(path: list[dict], start: int, end: int, keep_recent_tokens: int) -> CutPoint:
    """pi's ``findCutPoint`` over ``path[start:end]``, with the three fixes above."""
    points = valid_cut_points(path, start, end)
    if not points:
        return CutPoint(start, -1, False)
    cut = points[0]
    kept = 0
    for i in range(end - 1, start - 1, -1):
        kept += entry_tokens(path[i])
        if kept >= keep_recent_tokens:
            # Crossed after the last cut point (a big final tool result): cut at its call, where pi kept everything.
            cut = next((p for p in points if p >= i), points[-1])
            break
    while cut > start and path[cut - 1].get("type") not in ("message", "compaction"):
        cut -= 1
    opener = _first_message_index(path, cut, end)
    if opener is None or entry_role(path[opener]) == "user" or path[opener].get("type") != "message":
        return CutPoint(cut, -1, False)
    turn_start = find_turn_start(path, opener, start)
    if turn_start in (-1, opener):
        return CutPoint(cut, -1, False)
    return CutPoint(cut, turn_start, True)


def _first_message_index(path: list[dict], begin: int, end: int) -> int | None:
    """The first entry at or after ``begin`` that puts something in the context."""
    for i in range(begin, end):
        if is_cut_point(path[i]) or path[i].get("type") == "message":
            return i
    return None
