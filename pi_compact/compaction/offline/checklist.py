"""The checklist an agent keeps in its own words: an answer with Markdown checkboxes ("- [x] Add the migration",
"- [ ] Expose the endpoint"), written by an agent whose harness has no task tool (pi writes no ``TodoWrite``).

It says where the work stands as a task list does: its unchecked items are what is still to do, in the agent's
order. Only the latest checklist counts (a later one with every box ticked says the work is done), and only one of
two items or more (a single box is a remark, not a plan)."""

from __future__ import annotations

import re

_BOX = re.compile(r"^[ \t]{0,8}(?:[-*+]|\d{1,3}[.)])[ \t]{1,4}\[([ xX✓✔])\][ \t]{1,4}(\S.{0,300})$")
"""A checklist item: a list marker, a box (ticked or not), the item."""
_LINES = 400
"""Lines of one text searched for its checklist (a checklist long enough to be a plan is near its start)."""
_ITEMS = 2


def open_checklist(texts: tuple[str, ...] | list[str]) -> list[str]:
    """The unchecked items of the last checklist in ``texts`` (the agent's texts of one turn, in order), emphasis
    removed; ``[]`` when none of them holds a checklist or its last one is all ticked."""
    for text in reversed(texts):
        boxes = [found for found in map(_BOX.match, text.splitlines()[:_LINES]) if found]
        if len(boxes) >= _ITEMS:
            return [found.group(2).replace("**", "").strip() for found in boxes if found.group(1) == " "]
    return []


def holds_checklist(text: str) -> bool:
    """``text`` holds a checklist (two boxed items or more): its items are the agent's tasks, told as such."""
    return sum(1 for line in text.splitlines()[:_LINES] if _BOX.match(line)) >= _ITEMS


__all__ = ["holds_checklist", "open_checklist"]
