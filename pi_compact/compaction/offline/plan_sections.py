"""A long plan's rules read by the section they sit in, not by the sentence alone.

A plan the user hands over ("Implement the following plan: # Plan: …") describes the state it starts from as well
as the limits it sets, often in the same words: "Currently: - No usage tracking - No quotas" under "### Issue 2"
says what is missing today (the plan adds it), while "**User Priorities:** - Minimal scope - no auth, keep
localStorage" says what the work must keep to. A sentence rule reads both as "no X" rules; the first kind then
crowds the few Constraints a summary holds with the opposite of the plan's aim, and the second kind, often worded as
a bare noun phrase ("Multi-provider LLM support"), is missed wherever it sits in the plan.

:func:`without_state` blanks the lines that describe the starting state (a section headed as the problem, its root
cause, the current behaviour; a list under a "Currently:" label), so no rule is read from them.
:func:`requirement_lists` reads the lists under a heading or label of requirements the user set ("Requirements",
"Constraints", "User priorities", "The user wants to:") as one constraint each, anywhere in the plan, preferring
the items that state a limit or a means, each item clipped and the line bounded.
Both only act on a text that is a plan (:func:`.plan_points.is_plan`): a user's own message with a "Currently:"
list is left to the sentence rules.
"""

from __future__ import annotations

import re

from .plan_points import REQUIREMENT_NAMES, is_plan
from .text import clip_words

_READ = 50_000
"""How much of a plan is read (a plan is short; the rest of a huge paste is data)."""
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s{1,3}(\S.*)$")
_STATE_TITLE = re.compile(
    r"(?:\d{1,2}[.)]\s{1,3})?(?:(?:the|a)\s{1,3})?(?:root[- ]cause|problems?(?:\s{1,3}statement)?|issues?\b|bugs?\b"
    r"|symptoms?|diagnosis|background|what'?s\s{1,3}(?:wrong|broken|missing)"
    r"|current(?:ly)?\s{1,3}(?:state|status|behaviou?r|situation|implementation|architecture|setup|flow|code|gaps?)"
    r"|existing\s{1,3}(?:state|behaviou?r|implementation|code|setup)|how\s{1,3}it\s{1,3}works\s{1,3}today)",
    re.I)
"""A section title that says the section describes the starting state ("## Root Cause Analysis", "### Issue 2: No
Free Tier System", "## Current behaviour", "## Problem"), not what the work must do."""
_STATE_LABEL = re.compile(
    r"^\s{0,3}(?:\*\*|__)?(?:currently|today|right now|at present|before|as[- ]is|current\s{1,3}[\w ]{1,40}"
    r"|existing\s{1,3}[\w ]{1,40}|problems?|symptoms?)\s{0,2}(?:\*\*|__)?\s{0,2}:\s{0,2}(?:\*\*|__)?\s{0,3}$", re.I)
"""A line that labels the list under it as today's state ("Currently:", "**Current approach security:**")."""
_ITEM = re.compile(r"^(\s{0,8})(?:[-*+•]|\d{1,2}[.)])\s{1,3}(\S.*)$")
_REQUIREMENT_LABEL = re.compile(
    rf"^\s{{0,3}}(?:#{{1,6}}\s{{1,3}}|\*\*|__)?(?:\d{{1,2}}[.)]\s{{1,3}})?{REQUIREMENT_NAMES}\s{{0,2}}(?:\*\*|__)?\s{{0,2}}:?"
    r"\s{0,2}(?:\*\*|__)?\s{0,3}$", re.I)
"""A heading or a label of a list of what the work must keep to ("## Constraints", "**User Priorities:**", "The user
wants to:", "### Hard requirements"); not "Success criteria" or "Verification" (checks of the finished work)."""
_LIMIT_WORD = re.compile(
    r"\b(?:no|not|never|only|must|keep|keeps|without|using|use|via|don'?t|do not|avoid|instead|rather than|except"
    r"|post-mvp|out of scope|at most|at least|always|stay|stays|preserve|server-side|client-side)\b", re.I)
"""A word by which an item states a limit or a means ("no auth, keep localStorage", "Implement using a serverless
function"), not only a goal ("Fix Open Router to work in deployment")."""
_ITEMS = 6
"""Items read per list (a long list is a plan's steps more than its limits)."""
_ITEM_CHARS = 110
_LIST_CHARS = 280
_LISTS = 3
"""Requirement lists kept per plan: the summary's Constraints hold ten in all."""


_BOX = re.compile(r"^(\s{0,12})(?:[-*+\u2022]|\d{1,3}[.)])\s{1,3}\[[ xX]\]")
"""A checklist line ("- [ ] add tests for the parser", "1. [x] move the store"): a task, done or left."""


def without_checklists(text: str) -> str:
    """``text`` with its checklist items blanked, each with the lines under it (its sub-items, its wrapped words):
    a box is work to do or done, never a rule to keep, whatever words it is in ("- [ ] Never log the token" is
    a task of making it so). Lines keep their places, as in :func:`without_state`."""
    if "[" not in text:
        return text
    lines = text.splitlines()
    indent = -1  # the indent of the checklist item the lines are under, -1 when none
    for number, line in enumerate(lines):
        box = _BOX.match(line)
        if box:
            indent, lines[number] = len(box.group(1)), ""
        elif indent >= 0 and line.strip() and len(line) - len(line.lstrip()) > indent:
            lines[number] = ""
        elif line.strip():
            indent = -1
    return "\n".join(lines)


def _section_ends(level: int, heading: re.Match | None) -> bool:
    return bool(heading) and len(heading.group(1)) <= level


def without_state(text: str) -> str:
    """``text`` with the lines that describe a plan's starting state blanked (see the module); ``text`` itself when
    it is no plan. Lines keep their places (blanked, not removed), so a sentence never joins across them."""
    if not is_plan(text):
        return text
    lines = text[:_READ].splitlines()
    state_level = 0  # the level of the state section the lines are under, 0 when none
    in_label_list = False
    for number, line in enumerate(lines):
        heading = _HEADING.match(line)
        if heading:
            in_label_list = False
            if line.rstrip().endswith(":"):
                lines[number] = ""  # a title that opens a list ("### Must Edit:"), no rule
            if state_level and _section_ends(state_level, heading):
                state_level = 0
            if not state_level and _STATE_TITLE.match(heading.group(2).strip("*_ \t")):
                state_level = len(heading.group(1))
            continue
        if state_level and _REQUIREMENT_LABEL.match(line):
            state_level = 0  # a list of what the work must keep to ends the description of today's state
        elif state_level:
            lines[number] = ""
        elif _STATE_LABEL.match(line):
            lines[number], in_label_list = "", True
        elif in_label_list:
            if _ITEM.match(line) or (line.startswith((" ", "\t")) and line.strip()):
                lines[number] = ""
            elif line.strip():
                in_label_list = False
    return "\n".join(lines) + text[_READ:]


def _list_below(lines: list[str], at: int) -> list[tuple[str, range]]:
    """The top-level items of the list under ``lines[at]``, each with the lines it spans (blank lines before the
    list skipped; its sub-items and wrapped lines are part of their item, not items)."""
    items: list[tuple[str, range]] = []
    indent = None
    for number in range(at + 1, min(len(lines), at + 200)):
        line = lines[number]
        if not line.strip():
            if items and len(items) >= _ITEMS:
                break
            continue
        item = _ITEM.match(line)
        if item and (indent is None or len(item.group(1)) <= indent):
            indent = len(item.group(1)) if indent is None else indent
            items.append((item.group(2), range(number, number + 1)))
            if len(items) > _ITEMS:
                break
        elif items and line.startswith((" ", "\t")):
            items[-1] = (items[-1][0], range(items[-1][1].start, number + 1))  # a sub-item or a wrapped line
        else:
            break
    return items[:_ITEMS]


def _requirements(text: str) -> tuple[list[str], list[str]]:
    """The requirement lists of a plan as lines (see :func:`requirement_lists`), and the plan's lines with today's
    state and the items those lines give blanked."""
    lines = without_state(text)[:_READ].splitlines()
    found: list[str] = []
    for at, line in enumerate(lines):
        if len(found) >= _LISTS or not _REQUIREMENT_LABEL.match(line):
            continue
        items = [(" ".join(item.replace("**", "").replace("__", "").split()).rstrip(":"), span)
                 for item, span in _list_below(lines, at)]
        items = [(item, span) for item, span in items if len(item) >= 8]
        kept = [(item, span) for item, span in items if _LIMIT_WORD.search(item)] or items
        if not kept:
            continue
        name = line.strip().strip("#*_: \t").strip()
        said = "; ".join(clip_words(item, _ITEM_CHARS) for item, _ in kept)
        found.append(clip_words(f"{name[:1].upper()}{name[1:]}: {said}", _LIST_CHARS))
        for _, span in kept:
            lines[span.start:span.stop] = [""] * len(span)  # said in that line: not again as rules of their own
    return found, lines


def requirement_lists(text: str) -> list[str]:
    """The lists under a plan's requirement headings or labels (see the module), each as one line: its items that
    state a limit or a means when some do, else all, each clipped; at most :data:`_LISTS`."""
    return _requirements(text)[0] if is_plan(text) else []


def rule_text(text: str) -> str:
    """``text`` as its rules are to be read one sentence at a time: for a plan, without its lines of today's state
    (:func:`without_state`) nor the items :func:`requirement_lists` gives; any other text as it is."""
    return "\n".join(_requirements(text)[1]) + text[_READ:] if is_plan(text) else text


__all__ = ["requirement_lists", "rule_text", "without_checklists", "without_state"]
