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
    """The region did what ``item`` names: a command or path it quotes succeeded, a routine step it names in words
    ran (:func:`_routine_done`), or a request the region finished holds most of its words. (A code block names no
    work of its own.)"""
    if "```" in item:
        return False
    if _routine_done(item, state):
        return True
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


_ROUTINE = re.compile(r"^(?:re-?run|run|execute|commit|push)\b[^\n]{0,160}", re.I)
"""An item that asks for a routine step in words ("Run the new tests to verify they pass", "Run tests and lint",
"Commit the changes", "Push to the PR branch"): no command quoted, so only the kind of command tells it was done."""
_KINDS = (
    (re.compile(r"\btests?\b|\btesting\b", re.I), re.compile(r"test|jest|rspec|\bspec\b", re.I)),
    (re.compile(r"\blint(?:er|s|ing)?\b", re.I), re.compile(r"lint|ruff|clippy|flake8|\bgo\s{1,4}vet\b", re.I)),
    (re.compile(r"\btype-?check", re.I), re.compile(r"typecheck|type-check|\bmypy\b|pyright|\btsc\b", re.I)),
    (re.compile(r"\bbuild\b", re.I), re.compile(r"\bbuild\b|\bmake\b|\bcompile", re.I)),
    (re.compile(r"^commit\b", re.I), re.compile(r"\bgit\s{1,4}(?:-C\s{1,4}\S{1,300}\s{1,4})?commit\b")),
    (re.compile(r"^push\b", re.I), re.compile(r"\bgit\s{1,4}(?:-C\s{1,4}\S{1,300}\s{1,4})?push\b")),
)
"""(the words of an item naming a kind of step, a command of that kind)."""
_QUALIFIERS = re.compile(r"\b(integration|e2e|end-to-end|unit|smoke|browser|playwright|benchmark)\b", re.I)
"""A kind of tests the item names: a run of other tests did not do it (``mise run test`` runs no integration
tests the item asks for)."""


def _routine_done(item: str, state: RegionState) -> bool:
    """``item`` asks for routine steps in words, and each kind it names ran with success in the region, its last run
    not failing since (an open error on a command of that kind keeps it to do)."""
    asked = _ROUTINE.match(item.strip())
    if asked is None:
        return False
    words = asked.group(0)
    kinds = [command for said, command in _KINDS if said.search(words)]
    qualifiers = {q.lower() for q in _QUALIFIERS.findall(words)}
    ran = [command for turn in state.turns for command in turn.ran]  # whole (a label is cut at 120 characters)
    failing = [error for error in state.open_errors if error.startswith("`")]
    return bool(kinds) and all(
        any(kind.search(action) and all(q in action.lower() for q in qualifiers) for action in ran)
        and not any(kind.search(error.split("`", 2)[1]) for error in failing if error.count("`") >= 2)
        for kind in kinds)


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
