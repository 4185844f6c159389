"""A choice of the user's said again as the agent's decision is one decision: the user's.

The user asks "use Object.assign() instead of the spread operator for merging the configs"; the agent answers "I'll
use Object.assign() instead of the spread operator for merging the configs, since it keeps the target object". Key
Decisions would hold the choice twice, once as the agent's and once as "The user chose: …", and, as it keeps the
newest ten, push out another. The agent's sentence is a *restatement* when it holds nearly every content word of the
user's choice (:data:`_COVERED`, by their first five letters, :data:`_FEWEST` at least) and adds few of its own
(:data:`_ADDED`: a reason, not another choice): the user's item stays, the word of who wanted it; the agent's goes.

Judged by shared words only, never by one session's strings."""

from __future__ import annotations

import re
from collections.abc import Sequence

_USERS = re.compile(r"^(?:The user chose|Agreed with the user)\s*:?\s*(?:option \w{1,3}:\s*)?", re.I)
"""The labels of the user's own choices (state.py's)."""
_OTHER_LABEL = re.compile(r"^(?:Was|Postponed|Plan approved by the user|The user declined|Proposed by the agent)\b")
"""Items that are no plain decision of the agent's: history, a declined call, a plan, a proposal."""
_WORD = re.compile(r"[^\W\d_][\w-]{2,}", re.UNICODE)
_STOP = frozenset("""the and for but not you are was its can now all our out use any has had how who why yes
    this that with from have will would should could then them they there what when which while
    into also just more only some such than very make sure want need like does done your their these those here
    about after before because being other over same still where let's lets please instead rather going""".split())
_FEWEST = 3
"""Content words a user's choice needs to be recognised in another sentence: fewer match by chance."""
_COVERED = 0.8
"""The share of the user's choice's words the agent's sentence must hold to restate it."""
_ADDED = 4
"""Content words the agent's sentence may add (its reason, "since it keeps the target object"); more say more than
the user's choice, another decision that names it."""


def _stems(text: str) -> set[str]:
    return {word[:5].lower() for word in _WORD.findall(text) if word.lower() not in _STOP}


def said_once(decisions: Sequence[str]) -> list[str]:
    """``decisions`` without the agent's sentences that restate a choice of the user's listed with them."""
    users = [_stems(_USERS.sub("", item, count=1).split(" — the user", 1)[0]) for item in decisions
             if _USERS.match(item)]
    users = [words for words in users if len(words) >= _FEWEST]

    def restates(item: str) -> bool:
        if _USERS.match(item) or _OTHER_LABEL.match(item):
            return False
        own = _stems(item)
        return any(len(words & own) >= _COVERED * len(words) and len(own - words) <= _ADDED for words in users)

    return [item for item in decisions if not restates(item)]


__all__ = ["said_once"]
