"""The plan file an agent keeps: which of its checklist items are still open.

Long coding sessions often run from a Markdown plan with checkboxes (``- [ ] WP15: …``) that the agent writes once
and ticks off as it goes. What is left to do is then written down exactly, in the file, and a summary that only
quotes the last answer loses it. :func:`open_plan_items` follows such a file through the region (its full text from a
``write`` or a whole-file ``read``, then every edit that succeeded applied in order) and reports the sections or
items still unchecked at the end. Work that the region committed under the same name is not reported open.

Not every Markdown file with checkboxes is the agent's work plan: an issue write-up or a report ends with an
"Implementation Checklist" for someone else. A checklist file is a plan when the agent works through it (an edit or
a rewrite in the region ticks one of its boxes) or when its place names it one (``PLAN.md``, ``TODO.md``,
``plans/…/TASKS.md``, ``docs/roadmap.md``, Claude Code's ``~/.claude/plans/<slug>.md``) and nothing was done since
it was written: a plan carried out without ticking (the agent changed other files since, or named its items as it
went: "TASK-001 complete") leaves boxes unchecked that are no record of what is left. Tool names compare in any
case (Claude Code's ``Write``, ``Edit``, ``MultiEdit``, ``Read``), and a read's line numbers (``   12→``) are not
the file's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...accessors import content_text
from .facts import EDIT_TOOLS, READ_TOOLS, WRITE_TOOLS, is_patch_tool, message_dicts, tool_path

_CONTENT_KEYS = ("content", "file_text", "contents")
_EDIT_KEYS = (("oldText", "newText"), ("old_string", "new_string"), ("old_str", "new_str"))
_BOX = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[( |x|X)\][ \t]+(\S.*)")
_HEADING = re.compile(r"^#{1,6}[ \t]+(\S.*)")
"""Both end in ``(\\S.*)`` after the spaces, not ``(.*\\S)``: a line of spaces must not be tried at every split."""
_PLAN_WORD = re.compile(r"(?:^|[-_. ])(?:plans?|todos?|tasks?|roadmaps?|checklists?|backlog|milestones?|"
                        r"work-?packages?|wp)(?=$|[-_. \d])", re.I)
"""A file or folder name that says it holds a plan (``PLAN.md``, ``todo.md``, ``plans/``, ``TASKS.md``,
``phase2-plan.md``, ``implementation_plan.md``), tried on each part of the path."""
_CHECKED = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[[xX]\]", re.M)
_LINE_NUMBER = re.compile(r"^ {0,8}\d{1,7}\u2192", re.M)
"""Claude Code's ``Read`` result numbers each line (``    12→text``)."""
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
    texts, changed, ticked, spoken, since, work = _follow(messages)
    for path in reversed(changed):
        if path not in ticked and not names_a_plan(path):
            continue  # a write-up with a checklist for someone else (an issue, a report), not the agent's plan
        found = _open_items(texts[path], done_text) if path in texts else None
        if found is not None and path not in ticked and (work[path] or _worked_unticked(texts[path],
                                                                                    spoken[since[path]:])):
            continue  # the agent worked on since, other files or its items by name, and ticked none: no record
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


def names_a_plan(path: str) -> bool:
    """True when a part of ``path`` (the file's name without its extension, or a folder) says it is a plan."""
    parts = path.replace("\\", "/").rstrip("/").split("/")
    parts[-1] = parts[-1].rsplit(".", 1)[0]
    return any(_PLAN_WORD.search(part) for part in parts[-4:] if part)


def _worked_unticked(text: str, said: list[str]) -> bool:
    """True when the agent's words since the plan last changed name one of its items by its short name
    (``TASK-002``, ``WP3``: an unchecked box's or a heading's): it works through them without ticking, so what
    the boxes leave open is not what is."""
    labels = []
    for line in text.splitlines():
        box, title = _BOX.match(line), _HEADING.match(line)
        name = box.group(2) if box and box.group(1) == " " else title.group(1) if title else ""
        label = _LABEL.match(name.strip("*_ \t"))
        if label:
            labels.append(label.group(1))
    if not labels:
        return False
    words = _WordsIn("\n".join(said)[-_SAID_LIMIT:])
    return any(label in words for label in labels)


_SAID_LIMIT = 200_000
"""How much of the agent's words since the plan changed is searched, from the end."""


def _follow(messages: Any) -> tuple[dict[str, str], list[str], set[str], list[str], dict[str, int], dict[str, int]]:
    """The files' texts as far as the calls that succeeded show them, the paths the agent changed (last changed
    last), those where a change ticked a box, the agent's words in order, per changed path how many of those came
    before its last change, and how many changes of other files came after it."""
    calls: dict[str, dict] = {}
    texts: dict[str, str] = {}
    changed: list[str] = []
    ticked: set[str] = set()
    spoken: list[str] = []
    since: dict[str, int] = {}
    changes_at: dict[str, int] = {}
    changes = 0
    for message in message_dicts(messages):
        if message.get("role") == "assistant" and isinstance(message.get("content"), list):
            spoken += [block["text"] for block in message["content"] if isinstance(block, dict)
                       and block.get("type") == "text" and isinstance(block.get("text"), str)]
            for block in message["content"]:
                if isinstance(block, dict) and block.get("type") == "toolCall" and isinstance(block.get("id"), str):
                    calls[block["id"]] = block
        elif message.get("role") == "toolResult" and not message.get("isError"):
            call_id = message.get("toolCallId")
            block = calls.pop(call_id, None) if isinstance(call_id, str) else None
            name = str(block.get("name") or "") if block else ""
            if name.lower() in WRITE_TOOLS | EDIT_TOOLS or is_patch_tool(name):
                changes += 1
            for path, text, is_change in _after(block, message, texts) if block else ():
                if is_change and _ticks(block.get("arguments"), texts.get(path), text):
                    ticked.add(path)
                if text is None:
                    texts.pop(path, None)
                else:
                    texts[path] = text
                if is_change:
                    changed = [p for p in changed if p != path] + [path]
                    since[path], changes_at[path] = len(spoken), changes
    return texts, changed, ticked, spoken, since, {path: changes - at for path, at in changes_at.items()}


def _ticks(arguments: Any, before: str | None, after: str | None) -> bool:
    """Whether a change checked more boxes than it found: the file's text before and after when known, else the
    edit's old and new text."""
    if before is not None and after is not None:
        return len(_CHECKED.findall(after)) > len(_CHECKED.findall(before))
    edits = arguments.get("edits") if isinstance(arguments, dict) and isinstance(arguments.get("edits"), list) \
        else [arguments]
    for edit in edits:
        pair = next(((edit[a], edit[b]) for a, b in _EDIT_KEYS if isinstance(edit, dict)
                     and isinstance(edit.get(a), str) and isinstance(edit.get(b), str)), None)
        if pair and len(_CHECKED.findall(pair[1])) > len(_CHECKED.findall(pair[0])):
            return True
    return False


def _after(block: dict, result: dict, texts: dict[str, str]) -> list[tuple[str, str | None, bool]]:
    name, arguments = str(block.get("name") or "").lower(), block.get("arguments")
    if is_patch_tool(name) and isinstance(arguments, dict):
        return _patched(next((v for k in ("input", "patch") if isinstance(v := arguments.get(k), str)), ""))
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
        if "\u2192" in text[:200]:
            text = _LINE_NUMBER.sub("", text)
        return [(path, text if len(text) <= MAX_TEXT else None, False)]
    return []


def _patched(patch: str) -> list[tuple[str, str | None, bool]]:
    """The files a patch in Codex's ``apply_patch`` form changes, each with its text when the patch adds it whole
    (``*** Add File: PLAN.md`` and its ``+`` lines: a plan file written as a pi ``write`` writes it), else ``None``
    (an update's text after it is not replayed)."""
    found: list[tuple[str, str | None, bool]] = []
    added: list[str] | None = None  # the lines of the file being added, while in one
    for line in patch[:MAX_TEXT].splitlines():
        if line.startswith("*** "):
            if added is not None:
                found[-1] = (found[-1][0], "".join(f"{text}\n" for text in added), True)
            kind, _, path = line[4:].partition(" File: ")
            added = [] if kind == "Add" and path.strip() else None
            found += [(path.strip(), None, True)] if kind in ("Add", "Update") and path.strip() else []
        elif added is not None and line.startswith("+"):
            added.append(line[1:])
    return found


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


__all__ = ["PlanItems", "names_a_plan", "open_plan_items"]
