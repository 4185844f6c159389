"""The skills the agent loaded: packaged instructions (a ``SKILL.md``: "Testing Standards", "Adaptive Planning") that
the work went on to follow, and that the next agent must load again to go on the same way.

The harness injects a skill it loads: the ``Skill`` tool answers ``Launching skill: NAME``, then a message opens with
``Base directory for this skill: PATH`` and holds the file. Its name is its folder's. A ``SKILL.md`` the agent
merely reads is not counted: it may be the project's own skill, worked on.
"""

from __future__ import annotations

import re
from typing import Any

from ...accessors import content_text
from .facts import message_dicts
from .goal import SKILL_BASE
from .text import clip_words

SKILLS_LABEL = "Skills the agent loaded (their instructions guide the work):"
_LAUNCHED = "Launching skill:"
_BASE = SKILL_BASE
_SKILL_FILE = "skill.md"
_NAME = re.compile(r"[\w.:-]{1,100}")
_ITEM_CHARS = 500
_HEAD_CHARS = 4000
"""A message is read this far for the harness's opening line."""


def loaded_skills(messages: Any) -> list[str]:
    """The name (its folder's) of each skill loaded in ``messages``, in the order first loaded."""
    found: dict[str, None] = {}
    for message in message_dicts(messages):
        role = message.get("role")
        if role == "assistant" or (role == "toolResult" and message.get("isError")):
            continue
        text = content_text(message.get("content"), "\n")[:_HEAD_CHARS].lstrip()
        if role == "toolResult" and text.startswith(_LAUNCHED):
            name = _NAME.match(text[len(_LAUNCHED):].strip())
            if name:
                found.setdefault(_short(name.group(0)))
        elif text.startswith(_BASE):
            folder = text[len(_BASE):].split("\n", 1)[0].strip().rstrip("/\\")
            parts = re.split(r"[/\\]", folder)
            if len(parts) > 1 and _NAME.fullmatch(parts[-1]):  # a folder, not words that happen to follow
                found.setdefault(parts[-1])
    return [name for name in found if name]


def _short(name: str) -> str:
    """A plugin's skill by its own name (``superpowers:brainstorming`` is the folder ``brainstorming``)."""
    return name.rsplit(":", 1)[-1]


def skills_item(messages: Any) -> str:
    """One Constraints item naming the skills loaded, ``""`` when none was. By name only: the name is what loads a
    skill again, and its title would take the room of the region's own details."""
    skills = loaded_skills(messages)
    return clip_words(f"{SKILLS_LABEL} {', '.join(f'`{name}`' for name in skills)}", _ITEM_CHARS) if skills else ""


__all__ = ["SKILLS_LABEL", "loaded_skills", "skills_item"]
