"""A finished request as the state it produced, not as a clipped request and answer.

"Finished “These environment variables are required…” → Perfect! I have successfully completed…" tells the next
agent nothing of what now exists. A Done item says what the turn left: the sentences of the agent's report that
state a result (what was created, moved, fixed, what passes now), the checks whose output says they passed
(``12 passed``), and the files it changed; the request only names which one it was, in a few words.
"""

from __future__ import annotations

import re

from .state import Turn, clip_words, sentences

_RESULT = re.compile(
    r"\b(?:now|created|added|moved|renamed|removed|deleted|fixed|replaced|updated|changed|implemented|extracted"
    r"|split|wrote|written|ported|converted|refactored|made|introduced|switched|became|is (?:now )?standalone"
    r"|pass(?:es|ed|ing)?|works now|now works|returns|succeeds?|no longer|in place|set up|configured|committed"
    r"|I (?:increased|raised|bumped|lowered|reduced|decreased|capped|disabled|enabled|reverted|restored)"
    r"|the (?:root )?(?:cause|issue|problem|bug) was)\b",
    re.I,
)
"""A sentence that states a result: what changed (a limit the agent raised), or what the cause was."""
_FILLER = re.compile(
    r"^\W*(?:perfect|great|excellent|awesome|done|all done|ok(?:ay)?|good|nice|sure|alright)\W*$"
    r"|\b(?:successfully completed|completed (?:the|all|your) (?:task|request|changes)|let me know|feel free"
    r"|hope (?:this|that) helps|anything else)\b",
    re.I,
)
"""Words that say nothing of what exists: cheers, offers, "I have successfully completed the task"."""
_LEAD = re.compile(r"^\W*(?:(?:perfect|great|excellent|awesome|done|ok(?:ay)?|good|nice)[!.,:]\s*)+", re.I)
_SALIENT = re.compile(r"`[^`\n]{1,200}`|\w/\w|\w\.[a-z]{1,5}\b|\w_\w|[a-z][A-Z]|\d")
"""Marks of a named thing (a backticked value, a path, a file, snake or camel case, a number): counted, not read."""
_MARKER = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+|^#+\s*")
_REPORT = 2
"""Result sentences kept per finished request."""
_FILES = 4


def report(answer: str) -> list[str]:
    """The sentences (or list items) of the agent's answer that state a result, those naming files and values
    first, cheers and offers left out."""
    found = []
    for line in answer.splitlines():
        if line.strip().startswith(("```", "|")):
            continue
        for sentence in sentences(_MARKER.sub("", line)):
            sentence = _LEAD.sub("", sentence).strip()
            if len(sentence) >= 12 and _RESULT.search(sentence) and not _FILLER.search(sentence) \
                    and not sentence.endswith(("?", ":")):
                found.append(sentence)
    found.sort(key=lambda s: -min(len(_SALIENT.findall(s)), 3))  # stable: equals keep the agent's order
    return found[:_REPORT]


def left_something(turn: Turn) -> bool:
    """A finished turn is progress when it committed, changed files, passed a check or reported a result; an
    answer alone ("Your code is 469320", "Try uploading now") is conversation, kept as history."""
    return bool(turn.commits or turn.changed or turn.checks or report(turn.final_answer))


def done_item(turn: Turn) -> str:
    """One Done item for a finished request: what it left, and which request it was."""
    parts = [clip_words(sentence, 200) for sentence in report(turn.final_answer)]
    if turn.checks:
        parts.append("checks pass: " + "; ".join(turn.checks[-2:]))
    if turn.changed and not parts:  # the summary's file list names them all; here only when nothing else says
        more = f" and {len(turn.changed) - _FILES} more" if len(turn.changed) > _FILES else ""
        parts.append("changed " + ", ".join(f"`{path}`" for path in turn.changed[:_FILES]) + more)
    asked = clip_words(next(iter(sentences(turn.request)), turn.request), 100)
    if not parts:
        first = next((s for s in sentences(turn.final_answer) if not _FILLER.search(s) and len(s) >= 12), "")
        parts.append(clip_words(_LEAD.sub("", first), 200) if first else "answered")
    return f"{'; '.join(parts)} (asked: “{asked}”)"


__all__ = ["done_item", "left_something", "report"]
