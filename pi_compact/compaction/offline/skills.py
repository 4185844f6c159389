"""The skills the agent loaded: packaged instructions (a ``SKILL.md``: "Testing Standards", "Adaptive Planning") that
the work went on to follow, and that the next agent must load again to go on the same way.

The harness injects a skill it loads: the ``Skill`` tool answers ``Launching skill: NAME``, then a message opens with
``Base directory for this skill: PATH`` and holds the file. Its name is its folder's, its title the file's first
heading. A ``SKILL.md`` the agent merely reads is not counted: it may be the project's own skill, worked on.
"""

from __future__ import annotations

import re
from typing import Any

from ...accessors import content_text
from .facts import message_dicts
from .text import clip_words

SKILLS_LABEL = "Skills the agent loaded (their instructions guide the work):"
_LAUNCHED = "Launching skill:"
_BASE = "Base directory for this skill:"
_SKILL_FILE = "skill.md"
_TITLE = re.compile(r"(?m)^#[ \t]{1,4}(\S[^\n]{0,200})$")
_NAME = re.compile(r"[\w.:-]{1,100}")
_TITLE_CHARS = 60
_ITEM_CHARS = 500
_HEAD_CHARS = 4000
"""A skill's text is read this far for its title: the heading opens it."""


def loaded_skills(messages: Any) -> dict[str, str]:
    """Each skill loaded in ``messages`` (its folder's name) with its title (``""`` when none shows), in the order
    first loaded."""
    found: dict[str, str] = {}
    for message in message_dicts(messages):
        role = message.get("role")
        if role == "assistant" or (role == "toolResult" and message.get("isError")):
            continue
        text = content_text(message.get("content"), "\n")[:_HEAD_CHARS].lstrip()
        if role == "toolResult" and text.startswith(_LAUNCHED):
            name = _NAME.match(text[len(_LAUNCHED):].strip())
            if name:
                found.setdefault(_short(name.group(0)), "")
        elif text.startswith(_BASE):
            folder = text[len(_BASE):].split("\n", 1)[0].strip().rstrip("/\\")
            parts = re.split(r"[/\\]", folder)
            if len(parts) > 1 and _NAME.fullmatch(parts[-1]):  # a folder, not words that happen to follow
                _note(found, parts[-1], text)
    return {name: title for name, title in found.items() if name}


def _short(name: str) -> str:
    """A plugin's skill by its own name (``superpowers:brainstorming`` is the folder ``brainstorming``)."""
    return name.rsplit(":", 1)[-1]


def _note(found: dict[str, str], name: str, text: str) -> None:
    title = _TITLE.search(text)
    if name and (title or name not in found):
        found[name] = clip_words(title.group(1), _TITLE_CHARS) if title else ""


def skills_item(messages: Any) -> str:
    """One Constraints item naming the skills loaded, ``""`` when none was. By name only: the name is what loads a
    skill again, and its title would take the room of the region's own details."""
    skills = loaded_skills(messages)
    return clip_words(f"{SKILLS_LABEL} {', '.join(f'`{name}`' for name in skills)}", _ITEM_CHARS) if skills else ""


__all__ = ["SKILLS_LABEL", "loaded_skills", "skills_item"]
