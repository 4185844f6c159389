"""The batch rhythm of a plan carried out in batches: the agent does a few tasks ("**Batch 2: Tasks 4, 8, 9**"),
reports them ("**Batch 2 complete**", "Ready for feedback"), and waits; the user answers with a go-ahead
("continue"). The rhythm is a working rule the next agent keeps (report each batch, then wait), and the batch under
way or offered next is what comes next: a plain "continue with the plan" would run past the report the user waits
for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...accessors import content_text
from .facts import message_dicts
from .goal import go_ahead, request_words
from .text import clip_words

_BATCH = re.compile(r"\b(batch|wave)[ \t]{1,3}(\d{1,3})\b"
                    r"(?:\*{0,2}[ \t]{0,3}(?::[ \t]{0,3}\*{0,2}|\()([^\n*.()]{1,80}))?", re.I)
"""A batch named with its number, and what it holds when said ("Batch 3: Tasks 11-13", "Batch 2 complete (Tasks
4-10, all done)" gives none: see :data:`_COMPLETE`)."""
_COMPLETE = re.compile(r"\b(?:batch|wave)[ \t]{1,3}(\d{1,3})\*{0,2}[ \t]{1,3}(?:is[ \t]{1,3})?"
                       r"(?:complete[d]?|done|finished)\b(?:[ \t]{0,3}\(([^\n()]{1,80})\))?", re.I)
"""A batch reported finished ("**Batch 1 complete:**", "Batch 2 done (Tasks 4-10)")."""
_TEXT_CHARS = 20_000
_SHOWN = 4


@dataclass(frozen=True)
class Batches:
    """The batches the agent named, in order of their numbers: ``(number, what it holds)``; the finished ones; and
    whether the user answered a batch report with a go-ahead (the rhythm the work keeps)."""

    named: tuple[tuple[int, str], ...]
    finished: frozenset[int]
    answered: bool
    word: str = "Batch"
    """What the agent calls a batch ("Batch", "Wave")."""

    def rule(self) -> str:
        """The rhythm as a working rule, with each batch and how far it got."""
        shown = [f"{self.word} {number}{f' ({what})' if what else ''} "
                 f"{'done' if number in self.finished else 'under way'}" for number, what in self.named[-_SHOWN:]]
        kind = self.word.lower()
        kinds = kind + ("es" if kind.endswith("ch") else "s")
        return (f"Work goes in {kinds}: the agent reports each {kind} and waits for the user's feedback (a "
                f"“continue”) before the next; {', '.join(shown)}")

    def step(self, working: bool) -> str:
        """The batch to finish (``working``: the agent was at it when the region ends), else the one the agent
        offered next after its report, or the wait on the report."""
        number, what = self.named[-1]
        held, kind = f" ({what})" if what else "", self.word.lower()
        name = f"{self.word} {number}{held}"
        if number in self.finished:
            return f"{name} was reported: wait for the user's feedback, then go on with the next {kind}."
        if working:
            return f"Finish {name}, then report it and wait for the user's feedback before the next {kind}."
        return f"Wait for the user's feedback on the {kind} reported, then go on with {name}."


def batches(messages: Any) -> Batches | None:
    """The batch rhythm of ``messages`` (see the module docstring): ``None`` unless the agent reported a batch
    finished and the user answered such a report with a go-ahead."""
    said: dict[int, str] = {}
    word = "Batch"
    finished: set[int] = set()
    answered = reported = False
    for message in message_dicts(messages):
        role = message.get("role")
        if role == "user":
            words = request_words(content_text(message.get("content"), "\n")).strip()
            answered = answered or (reported and bool(words) and go_ahead(words))
            reported = False if words else reported
            continue
        if role != "assistant":
            continue
        text = content_text(message.get("content"), "\n")[:_TEXT_CHARS].replace("**", "")
        for found in _BATCH.finditer(text):
            word, number, what = found.group(1).capitalize(), int(found.group(2)), (found.group(3) or "").strip(" :,")
            said[number] = what or said.get(number, "")
        for found in _COMPLETE.finditer(text):
            finished.add(int(found.group(1)))
            said[int(found.group(1))] = (found.group(2) or "").strip() or said.get(int(found.group(1)), "")
            reported = True
    if not (finished and answered):
        return None
    named = tuple((number, clip_words(said[number], 60)) for number in sorted(said))
    return Batches(named, frozenset(finished), answered, word)


__all__ = ["Batches", "batches"]
