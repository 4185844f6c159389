"""A summary as pi's sections: read from any earlier summary (ours, a model's, a pruned transcript), written back
in pi's order with pi's headings.

pi's structure: ``## Goal``, ``## Constraints & Preferences``, ``## Progress`` (``### Done``, ``### In Progress``,
``### Blocked``), ``## Key Decisions``, ``## Next Steps``, ``## Critical Context``. A model may write other headings
("## Key Decisions Made", "## Completed Work Packages", "## Current Task: …"); they are mapped onto pi's sections
by their words, and what fits none is kept under its own heading. Items may span lines (quotes, code blocks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

KEYS = ("goal", "constraints", "done", "in_progress", "blocked", "decisions", "next", "critical")
LAYOUT = (("goal", "## Goal", ""), ("constraints", "## Constraints & Preferences", "- "),
          ("progress", "## Progress", None), ("done", "### Done", "- [x] "),
          ("in_progress", "### In Progress", "- [ ] "), ("blocked", "### Blocked", "- "),
          ("decisions", "## Key Decisions", "- "), ("next", "## Next Steps", "1. "),
          ("critical", "## Critical Context", "- "))
"""(section key, heading, item marker) in pi's order; ``None``: a heading without items of its own."""
TURN_LAYOUT = (("goal", "## Original Request", ""), ("done", "## Early Progress", "- "),
               ("critical", "## Context for Suffix", "- "))

# Words of a heading → pi's section; the first rule that matches wins.
_HEADING_RULES = (
    (re.compile(r"in progress|current (?:task|work|state|focus)|under way|ongoing|original request", re.I), "in_progress"),
    (re.compile(r"\bnext\b", re.I), "next"),
    (re.compile(r"block|open (?:issue|problem)|unresolved|errors?\b|problems?\b", re.I), "blocked"),
    (re.compile(r"decision", re.I), "decisions"),
    (re.compile(r"constraint|preference|rules?\b|requirement", re.I), "constraints"),
    (re.compile(r"\bdone\b|complete|finished|accomplish|early progress|^progress$", re.I), "done"),
    (re.compile(r"\bgoal|objective", re.I), "goal"),
    (re.compile(r"critical|context", re.I), "critical"),
)
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^(?:[-*+•]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)")
_TAG = re.compile(r"^</?(?:read-files|modified-files|original-request|current-request|dropped-to-fit)>$")
_TABLE_RULE = re.compile(r"^\|?[\s:|-]+\|?$")
_BOILERPLATE = frozenset({"---", "(none)", "none", "**turn context (split turn):**", "summary of that exploration:",
                          "the user explored a different conversation branch before returning here."})
_RESUME_NOTE = re.compile(
    r"^(?:please[ \t]{1,4})?(?:continue[ \t]{1,4}(?:the[ \t]{1,4}conversation|from[ \t]{1,4}where|where[ \t]{1,4}(?:we|you)"
    r"[ \t]{1,4}left|with[ \t]{1,4}the[ \t]{1,4}last[ \t]{1,4}task)"
    r"|if[ \t]{1,4}you[ \t]{1,4}need[ \t]{1,4}(?:specific|more|further)[ \t]{1,4}details\b[^\n]{0,200}?\b(?:read|see)"
    r"[ \t]{1,4}the[ \t]{1,4}(?:full[ \t]{1,4})?transcript)", re.I)
"""A line a harness appends to a summary to tell the next agent how to go on ("Please continue the conversation from
where we left off…", "If you need specific details…, read the full transcript at <a path on another machine>"):
advice to the reader, no state of the work, and re-added by whichever harness stores the summary."""


@dataclass
class Sections:
    """Items by pi section key, plus sections of other names kept as they were (heading → lines)."""

    items: dict[str, list[str]] = field(default_factory=lambda: {key: [] for key in KEYS})
    extra: dict[str, list[str]] = field(default_factory=dict)

    def add(self, key: str, text: str) -> None:
        """Add an item unless the section has one with the same words."""
        text = text.strip("\n")
        if text.strip() and _words(text) not in {_words(item) for item in self.items[key]}:
            self.items[key].append(text)


def _words(text: str) -> str:
    return " ".join(text.split()).lower()


def heading_key(name: str) -> str | None:
    name = name.strip().strip("*#: ").strip()
    for pattern, key in _HEADING_RULES:
        if pattern.search(name):
            return key
    return None


def parse(text: str) -> Sections:
    """The items of a summary under pi's sections (see the module docstring)."""
    parsed = Sections()
    key: str | None = "critical"
    extra: str | None = None
    current: list[str] | None = None  # the item being continued (multi-line)
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        raw = lines[index]
        line = raw.strip()
        index += 1
        if line.startswith("```"):
            end = next((i for i in range(index, len(lines)) if lines[i].strip().startswith("```")), len(lines) - 1)
            block = "\n".join(lines[index - 1 : end + 1])
            index = end + 1
            _put(parsed, key, extra, block)
            current = None
            continue
        if line and raw[:1] in (" ", "\t", ">") and current is not None and not _BULLET.match(line):
            # an item's further lines, whatever they hold: a heading quoted from the transcript ("  ## Key
            # Changes:") is part of the quote, never a section of its own
            current.append(raw.rstrip())
            _replace_last(parsed, key, extra, "\n".join(current))
            continue
        heading = _HEADING.match(line) if raw[:1] not in (" ", "\t", ">") else None
        if heading:
            key, extra, current = _enter(parsed, key, extra, len(heading.group(1)), heading.group(2).strip())
            continue
        if not line or line.lower() in _BOILERPLATE or _TAG.match(line) or _TABLE_RULE.match(line):
            current = None if not line else current
            continue
        if _RESUME_NOTE.match(_BULLET.sub("", line, count=1)):
            current = None
            continue
        item = _table_row(line) if line.startswith("|") else _BULLET.sub("", line, count=1).strip()
        if item:
            current = [item]
            _put(parsed, key, extra, item)
    return parsed


def _enter(parsed: Sections, key: str | None, extra: str | None, level: int, name: str
           ) -> tuple[str | None, str | None, None]:
    """The section a heading opens: pi's, a mapped one (its name kept as an item when it says more), or extra."""
    if level == 1:
        return "critical", None, None  # a title ("# Context Checkpoint: …") says nothing to keep
    mapped = heading_key(name)
    if level >= 3 and (extra is not None or (key is not None and mapped is None)):
        _put(parsed, key, extra, f"**{name}**")  # a sub-heading of a section: an item of it
        return key, extra, None
    if mapped is None:
        heading = f"## {name}"
        parsed.extra.setdefault(heading, [])
        return None, heading, None
    detail = name.split(":", 1)[1].strip() if ":" in name else ""
    if detail:
        _put(parsed, mapped, None, detail)
    return mapped, None, None


def _put(parsed: Sections, key: str | None, extra: str | None, item: str) -> None:
    if extra is not None:
        parsed.extra[extra].append(item)
    elif key is not None:
        parsed.add(key, item)


def _replace_last(parsed: Sections, key: str | None, extra: str | None, item: str) -> None:
    target = parsed.extra[extra] if extra is not None else parsed.items[key] if key is not None else []
    if target:
        target[-1] = item


def _table_row(line: str) -> str:
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    return " — ".join(cell for cell in cells if cell)


def render(sections: Sections, layout: tuple = LAYOUT, goal_extra: tuple[str, ...] = ()) -> str:
    """pi's sections in pi's order, ``(none)`` for an empty one, then the extra sections."""
    parts: list[str] = []
    for key, heading, marker in layout:
        parts.append(f"\n{heading}" if parts and heading.startswith("## ") else heading)
        if marker is None:
            continue
        items = sections.items.get(key, [])
        if key == "goal":
            # a goal that starts like a heading would open a section when the summary is read back
            parts.extend([_item("", re.sub(r"^#+\s*", "", item)) for item in items] + list(goal_extra) or ["(none)"])
            continue
        lines = [_item(f"{n}. " if marker == "1. " else marker, item) for n, item in enumerate(items, 1)]
        parts.extend(lines or ["(none)"])
    for heading, items in sections.extra.items():
        if items:
            parts.append(f"\n{heading}")
            parts.extend(item if item.startswith("```") else f"- {item}" for item in items)
    return "\n".join(parts).strip() + "\n"


def _item(marker: str, text: str) -> str:
    """An item under its marker; its further lines indented under it (a code block stays as it is)."""
    first, *rest = text.split("\n")
    if first.startswith("```"):
        return text
    return "\n".join([marker + first, *(line if line.startswith((" ", "```")) else "  " + line for line in rest)])
