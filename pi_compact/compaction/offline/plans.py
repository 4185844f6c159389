"""The plan file an agent keeps: which of its checklist items are still open.

Long coding sessions often run from a Markdown plan with checkboxes (``- [ ] WP15: …``) that the agent writes once
and ticks off as it goes. What is left to do is then written down exactly, in the file, and a summary that only
quotes the last answer loses it. :func:`open_plan_items` follows such a file through the region (its full text from a
``write`` or a whole-file ``read``, then every edit that succeeded applied in order) and reports the sections or
items still unchecked at the end. Work that the region committed under the same name is not reported open.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...accessors import content_text
from .facts import EDIT_TOOLS, READ_TOOLS, WRITE_TOOLS, message_dicts, tool_path

_CONTENT_KEYS = ("content", "file_text", "contents")
_EDIT_KEYS = (("oldText", "newText"), ("old_string", "new_string"), ("old_str", "new_str"))
_BOX = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[( |x|X)\][ \t]+(\S.*)")
_HEADING = re.compile(r"^#{1,6}[ \t]+(\S.*)")
"""Both end in ``(\\S.*)`` after the spaces, not ``(.*\\S)``: a line of spaces must not be tried at every split."""
_LABEL = re.compile(r"^([A-Za-z][\w.-]{0,15}\d[\w.+-]{0,15})\s*[:.)-]")
"""A section's short name (``WP15:``, ``Step-3.``, ``Phase2)``): what a commit message would mention."""
MAX_TEXT = 200_000
"""A file longer than this is not followed (a plan is short; a huge file is not a plan)."""


@dataclass(frozen=True)
class PlanItems:
    path: str
    """The plan file, as the tools named it."""
    open: tuple[str, ...]
    """Unchecked work, in file order: a section heading with unchecked boxes under it, or the box's own text."""
    checked: int
    """Boxes ticked at the end of the region."""


def open_plan_items(messages: Any, done_text: str = "") -> PlanItems | None:
    """The checklist file the agent changed last in ``messages``, if any, with its open items; items whose short
    name (``WP14``) appears in ``done_text`` (the region's commit messages) are left out as finished."""
    texts, changed = _follow(messages)
    for path in reversed(changed):
        found = _open_items(texts[path], done_text) if path in texts else None
        if found is not None:
            return PlanItems(path, *found)
    return None


def _open_items(text: str, done_text: str) -> tuple[tuple[str, ...], int] | None:
    sections: dict[str, list[int]] = {}  # item → [ticked, boxes], in file order
    titles: list[tuple[int, str]] = []  # the headings above the current line: (level, title)
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced  # a "# comment" in a shell block is no heading
        if fenced:
            continue
        title = _HEADING.match(line)
        if title:
            level = len(line) - len(line.lstrip("#"))
            titles = [t for t in titles if t[0] < level] + [(level, title.group(1).strip("*_ \t"))]
            continue
        box = _BOX.match(line)
        if box:
            counts = sections.setdefault(_section_name(titles) or box.group(2).rstrip(), [0, 0])
            counts[0] += box.group(1) != " "
            counts[1] += 1
    if not sections:
        return None
    done_words = _WordsIn(done_text)
    open_items = tuple(f"{name} ({ticked}/{boxes} done)" if ticked else name
                       for name, (ticked, boxes) in sections.items()
                       if ticked < boxes and not _finished(name, done_words))
    return open_items, sum(ticked for ticked, _ in sections.values())


def _section_name(titles: list[tuple[int, str]]) -> str:
    """The heading a box is under; an unnamed subsection (``Print Mode``) with its parent's title."""
    if not titles:
        return ""
    name = titles[-1][1]
    parents = [title for level, title in titles[:-1] if level > 1]
    return name if _LABEL.match(name) or not parents else f"{parents[-1]} — {name}"


def _finished(item: str, done_words: "_WordsIn") -> bool:
    label = _LABEL.match(item)
    return bool(label) and label.group(1) in done_words


_LONGEST_LABEL = 32
"""What ``_LABEL`` can capture at most: a letter, 15, a digit, 15."""


class _WordsIn:
    """Whether ``\\bLABEL\\b`` occurs in a text, for many labels: every span that starts a word and ends at a
    word boundary, up to the longest label, is collected once (a search per label was items × commits)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._spans: set[str] | None = None

    def __contains__(self, label: str) -> bool:
        if self._spans is None:
            self._spans = self._collect(self._text)
        return label in self._spans

    @staticmethod
    def _collect(text: str) -> set[str]:
        word = [char.isalnum() or char == "_" for char in text] + [False]
        spans = set()
        for start in range(len(text)):
            if not word[start] or (start and word[start - 1]):
                continue
            for end in range(start + 1, min(len(text), start + _LONGEST_LABEL) + 1):
                if word[end - 1] != word[end]:
                    spans.add(text[start:end])
        return spans


def _follow(messages: Any) -> tuple[dict[str, str], list[str]]:
    """The files' texts as far as the calls that succeeded show them, and the paths the agent changed (last
    changed last)."""
    calls: dict[str, dict] = {}
    texts: dict[str, str] = {}
    changed: list[str] = []
    for message in message_dicts(messages):
        if message.get("role") == "assistant" and isinstance(message.get("content"), list):
            for block in message["content"]:
                if isinstance(block, dict) and block.get("type") == "toolCall" and isinstance(block.get("id"), str):
                    calls[block["id"]] = block
        elif message.get("role") == "toolResult" and not message.get("isError"):
            call_id = message.get("toolCallId")
            block = calls.pop(call_id, None) if isinstance(call_id, str) else None
            for path, text, is_change in _after(block, message, texts) if block else ():
                if text is None:
                    texts.pop(path, None)
                else:
                    texts[path] = text
                if is_change:
                    changed = [p for p in changed if p != path] + [path]
    return texts, changed


def _after(block: dict, result: dict, texts: dict[str, str]) -> list[tuple[str, str | None, bool]]:
    name, arguments = block.get("name"), block.get("arguments")
    path = tool_path(arguments)
    if not path or not isinstance(arguments, dict):
        return []
    if name in WRITE_TOOLS:
        content = next((arguments[k] for k in _CONTENT_KEYS if isinstance(arguments.get(k), str)), None)
        return [(path, content if content is None or len(content) <= MAX_TEXT else None, True)]
    if name in EDIT_TOOLS:
        text = texts.get(path)
        return [(path, None if text is None else _edited(text, arguments), True)]
    if name in READ_TOOLS and not any(arguments.get(k) not in (None, 1, 0) for k in ("offset", "limit")):
        text = content_text(result.get("content"))
        return [(path, text if len(text) <= MAX_TEXT else None, False)]
    return []


def _edited(text: str, arguments: dict) -> str | None:
    """``text`` after the edit, or None when the edit cannot be replayed (its old text is not in ``text``)."""
    edits = arguments.get("edits") if isinstance(arguments.get("edits"), list) else [arguments]
    for edit in edits:
        pair = next(((edit[a], edit[b]) for a, b in _EDIT_KEYS if isinstance(edit, dict)
                     and isinstance(edit.get(a), str) and isinstance(edit.get(b), str)), None)
        if pair is None or not pair[0] or pair[0] not in text:
            return None
        text = text.replace(pair[0], pair[1], 1)
    return text if len(text) <= MAX_TEXT else None


__all__ = ["PlanItems", "open_plan_items"]
