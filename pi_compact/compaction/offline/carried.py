"""An earlier summary's open work, carried into Critical Context: said as of then, what the region did since marked.

A model's numbered summary ("7. Pending Tasks:", "9. Optional Next Step:") is kept item by item under Critical
Context when a later compaction merges it. Read after the region that followed, its "Run the tests to verify they
pass" or "Push the changes" reads as still to do, though the region ran the tests and pushed. Here such a block's
heading says it is the earlier summary's ("Optional Next Step (earlier summary's):", Claude Code's "Current Work"
too), and each of its items the region carried out since ends with "— done since": a command it names succeeded in
the region, a file it names was changed, or a request the region finished holds most of its words. A block none of
whose items the region did, in a region where the user set other work (requests that share few of its words), says
it is as of then and the work moved on. "Current Work" is said whole: it was under way then, never "done since".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .goal import sets_work
from .state import DONE, RegionState
from .text import clip_words

_OPEN_HEADING = re.compile(r"^(?:\d{1,2}\.\s+)?((?:optional\s+)?(?:pending\s+tasks?|next\s+steps?|remaining(?:\s+(?:work|tasks?))?"
                           r"|to\s?do|current\s+(?:work|task|focus|status)|work\s+in\s+progress|in\s+progress)\b[^:\n]{0,40}):\s*",
                           re.I)
_OTHER_HEADING = re.compile(r"^(?:\d{1,2}\.\s+)?[A-Z][A-Za-z &/'(),-]{2,60}:\s*$")
_AS_OF = " (earlier summary's)"
_CURRENT = re.compile(r"current|work in progress|in progress", re.I)
_MOVED_ON = " (earlier summary's; moved on since)"
"""A block of open work the region did not take up while the user set other work: what it names may be stale."""
DONE_SINCE = " — done since"
_FILE = re.compile(r"\w\.[A-Za-z]{1,6}$|/")
_SPAN = re.compile(r"`([^`\n]{3,200})`")
_WORD = re.compile(r"[^\W\d_][\w-]{3,}", re.UNICODE)
_STOP = frozenset("""this that with from have will would should could then them they there what when which while
    into also just more only some such than very make sure want need like does done your their these those here
    about after before because being other over same still where verify check changes""".split())
_DONE_CHARS = 120
_SHARED = 0.6
_WORDS = 3


def _stems(text: str) -> set[str]:
    return {word[:5].lower() for word in _WORD.findall(text) if word.lower() not in _STOP}


def _done_since(item: str, state: RegionState) -> bool:
    """The region did what ``item`` names: a command or path it quotes succeeded, or a request the region finished
    holds most of its words. (A code block names no work of its own.)"""
    if "```" in item:
        return False
    for span in _SPAN.findall(item):
        if " " in span and any(action.startswith("`") and span in action for action in state.succeeded):
            return True  # a command it names ran and passed
        if _FILE.search(span) and any(path.endswith(span.lstrip("./")) for path, _ in state.modified):
            return True  # a file it names was changed
    wanted = _stems(item)
    if len(wanted) < _WORDS:
        return False
    return any(turn.status == DONE and len(wanted & _stems(turn.request)) >= _SHARED * len(wanted)
               for turn in state.turns)


def as_of_then(critical: list[str], carried: Sequence[str], state: RegionState) -> None:
    """Mark, in place, the open-work blocks of ``carried`` (the earlier summary's Critical Context items) among
    ``critical`` (see the module docstring)."""
    earlier = set(carried)
    inside = current = False
    requests = [_stems(turn.request) for turn in state.turns if sets_work(turn.request)]  # the work set here
    for number, item in enumerate(critical):
        if item not in earlier:
            inside = False
            continue
        first = item.split("\n", 1)[0]
        heading = _OPEN_HEADING.match(first)
        if heading:
            inside = True
            rest = item[heading.end():].strip()
            current = _CURRENT.match(heading.group(1)) is not None  # what was under way then: said whole, never done
            done = bool(rest) and not current and _done_since(rest, state)
            block = critical[number:][:next((n for n, later in enumerate(critical[number + 1:], 1)
                                             if later not in earlier or _OPEN_HEADING.match(later)
                                             or _OTHER_HEADING.match(later.split("\n", 1)[0])), len(critical))]
            words = _stems(" ".join(block))
            stale = bool(requests) and not done and not any(_done_since(line, state) for line in block[1:]) \
                and not any(len(words & asked) >= _WORDS for asked in requests)
            critical[number] = item.replace(heading.group(1), heading.group(1) + (_MOVED_ON if stale else _AS_OF), 1)
            if done:
                critical[number] = clip_words(critical[number], _DONE_CHARS) + DONE_SINCE
            continue
        if inside and _OTHER_HEADING.match(first):
            inside = False
        elif inside and not current and not item.endswith(DONE_SINCE) and _done_since(item, state):
            critical[number] = clip_words(item, _DONE_CHARS) + DONE_SINCE  # (what it asked in full is history)


__all__ = ["DONE_SINCE", "as_of_then"]
