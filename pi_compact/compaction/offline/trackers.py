"""The items of an outside task tracker an agent drives by shell commands: which it made, took up, closed, and why.

Agents work through trackers that live outside the conversation: an issue tracker in the repository (``bd update
proj-7 --status in_progress``, ``bd close proj-7.1 --reason "…"``), GitHub (``gh issue close 12 --comment "…"``),
a task runner (``task-master set-status --id=3 --status=done``), Jira or Linear command lines (``jira issue move
ENG-4 "In Progress"``). What the commands did is the state of the work: the item set in progress is the current
task, the items closed are done (each with the reason given), the items still open are what comes next, and the
command the agent closed items with is how to go on. Nothing is known of any one tracker; a command is read by its
shape, ``<program> [<noun>…] <verb> … <item id> …``:

- the verb says what happens to the item (:data:`_VERBS`): close it, take it up, reopen it, create it, or change
  it (``update``, ``edit``, ``move``, ``set-status``) to the status its option or argument names (``--status
  in_progress``, ``--state "In Progress"``, ``--claim``, a bare ``"Done"``);
- the words between the program and the verb, if any, are tracker nouns (``issue``, ``task``, ``ticket``): ``gh
  release create`` or ``kubectl create deployment`` change no tracked item;
- the id is an argument shaped like one (``proj-a1b``, ``ENG-142``, ``proj-a1b.3``), a number after a noun (``gh
  issue close 12``) or the value of ``--id``; a create names none, its output does (``Created issue: proj-x9``,
  ``…/issues/31``), and it must give a title of two words or more;
- the command did not fail, and a change made without a tracker noun must be confirmed by its output naming the
  item (``✓ Closed proj-7.1: Parse the header``): a program that only looks like a tracker prints no such line.

Listings (``bd ready``, ``bd show <epic>``) add the sub-items they show of the items the commands acted on
(``proj-7.2`` of ``proj-7``), with the status their line gives (a ``ready`` listing's items are to do).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, replace
from typing import Any

from ...accessors import content_text
from .facts import message_dicts, shell_command
from .shell import command_words

PENDING, ACTIVE, DONE, DROPPED = "pending", "in_progress", "completed", "dropped"
_VERBS = {
    "close": DONE, "done": DONE, "complete": DONE, "resolve": DONE, "finish": DONE, "merge": DONE,
    "claim": ACTIVE, "reopen": PENDING, "cancel": DROPPED, "drop": DROPPED,
    "create": "new", "new": "new", "add": "new", "add-task": "new",
    "update": "change", "edit": "change", "set-status": "change", "set": "change", "move": "change",
    "transition": "change", "status": "change",
}
_BARE_VERBS = frozenset({"close", "update", "create", "reopen", "claim", "set-status", "add-task", "resolve"})
"""The verbs a tracker's program takes directly (``bd close``, ``task-master set-status``); any other (``merge``,
``add``, ``move``, ``done``) changes a tracked item only after a tracker noun: ``git merge x`` and ``poetry add x``
do not."""
_RUNNERS = frozenset({"npx", "bunx", "pnpx", "uvx", "pipx"})
_NOUNS = frozenset({"issue", "issues", "task", "tasks", "ticket", "tickets", "bead", "beads", "story", "bug",
                    "item", "items", "card", "todo", "epic", "subtask", "pr", "mr", "work", "workitem"})
_REVIEWS = frozenset({"pr", "mr"})
"""Nouns of a change under review: creating one opens no task to do."""
_STATUS_WORDS = {
    PENDING: ("open", "todo", "to do", "to-do", "pending", "ready", "backlog", "not started", "reopened"),
    ACTIVE: ("in_progress", "in-progress", "in progress", "doing", "started", "active", "in review", "review"),
    DONE: ("closed", "done", "completed", "complete", "resolved", "finished", "merged", "fixed"),
    DROPPED: ("cancelled", "canceled", "wontfix", "won't fix", "abandoned", "deferred", "skipped"),
}
_STATUS_OF = {word: status for status, words in _STATUS_WORDS.items() for word in words}
_STATUS_OPTIONS = frozenset({"--status", "-s", "--state", "--set-status", "--to"})
_CLAIM_FLAGS = frozenset({"--claim", "--start"})
_REASON_OPTIONS = frozenset({"--reason", "-r", "--comment", "-c", "--message", "-m", "--resolution", "--note",
                             "--notes"})
_TITLE_OPTIONS = frozenset({"--title", "-t", "--summary", "--prompt", "--name"})
_ID_OPTIONS = frozenset({"--id", "-i", "--issue", "--task"})
_ITEM_ID = re.compile(r"^#?([A-Za-z][A-Za-z0-9_]{0,24}-[A-Za-z0-9]{1,16}(?:\.[0-9]{1,4}){0,3})$")
_NUMBER_ID = re.compile(r"^#?([0-9]{1,7})$")
_ID_IN_TEXT = re.compile(r"(?<![\w/.-])#?([A-Za-z][A-Za-z0-9_]{0,24}-[A-Za-z0-9]{1,16}(?:\.[0-9]{1,4}){0,3})(?![\w-])")
_NUMBER_IN_TEXT = re.compile(r"(?:/(?:issues|pull|tasks?)/|#)([0-9]{1,7})\b")
_MARKS = re.compile(r"^[\s:)\]–—·•-]{0,8}(?:\[[^\]\n]{0,20}\][ \t]{0,4}){0,3}")
"""What stands between an id and its title on a line: a colon, brackets of priority or kind (``[P1] [task]``)."""
_TRAILING_STATUS = re.compile(r"[ \t]{0,4}\[[^\]\n]{0,30}\][ \t]{0,4}$")
_NOT_TITLE = re.compile(r"(?:moved|updated|closed|created|claimed|reopened|transitioned|marked|set|is|was|has|status"
                        r"|to)\b", re.I)
"""How the rest of a confirmation line opens (``OPS-12 moved to Done``): what was done to the item, not its title."""
_TITLE_LINE = re.compile(r"^[ \t]{0,4}title:[ \t]{1,8}(\S[^\n]{2,200})", re.I | re.M)
"""The title line of one item's view written as fields (``title:\tCrash on empty config``)."""
_TITLE_AFTER = re.compile(r"^[\s:)(\]–—-]{0,4}([^\n]{3,160})")
_LIST_VERBS = frozenset({"ready", "list", "ls", "show", "view", "search", "next"})
_OUTPUT = 20_000
_TITLE_CHARS = 120
_REASON_CHARS = 200


@dataclass(frozen=True)
class TrackedItem:
    """One item of the tracker as the region leaves it."""

    id: str
    title: str
    status: str
    reason: str = ""
    """Why the agent closed it (``--reason``, ``--comment``), when it said."""
    acted: bool = False
    """True when a command of the region changed it (not only a listing that showed it)."""
    closing: str = ""
    """The command that closes it, by the form the agent closed items with (``bd close proj-7.2``)."""
    at: int = -1
    """Index (in the region's messages) of the last command that changed it."""
    program: str = ""
    """The program whose commands changed it (``bd``, ``gh``)."""
    noun: str = ""
    """The tracker noun its commands named it by (``pr``, ``issue``), when they did."""
    merged: bool = False
    """True for a change under review the agent merged (``gh pr merge 5``), not only closed."""

    @property
    def label(self) -> str:
        """How the item is named: ``proj-7 Parse the header``; a number by its noun, as the tracker shows it (``PR #5``,
        ``issue #12``: a bare `5` says nothing); a merged change under review says so (``PR #5 merged``)."""
        name = f"{_NOUN_NAMES.get(self.noun, self.noun or 'item')} #{self.id}" if self.id.isdigit() else f"`{self.id}`"
        name += " merged" if self.merged else ""
        return f"{name}{':' if self.merged and self.title else ''} {self.title}".strip()


_NOUN_NAMES = {"pr": "PR", "mr": "MR", "issues": "issue", "tasks": "task", "tickets": "ticket", "items": "item"}
_MERGED_LABEL = re.compile(r"^(?:PR|MR) #[0-9]{1,7} merged\b")


def states_closing(text: str) -> bool:
    """True when an item's label already says how it was closed (``PR #5 merged``): no "closed" needs adding."""
    return _MERGED_LABEL.match(text) is not None


@dataclass(frozen=True)
class _Command:
    words: tuple[str, ...]
    program: str
    nouns: tuple[str, ...]
    verb: str
    args: tuple[str, ...]


def _parse(words: list[str]) -> _Command | None:
    """``words`` as ``<program> [<flag>…] [<noun>…] <verb> <args>``, or None when no lifecycle or listing verb
    follows; a package runner before the program (``npx task-master …``) and the program's flags before the verb
    (``bd --no-daemon close …``) are passed over."""
    if len(words) > 1 and words[0] in _RUNNERS:
        words = words[1:]
    for at in range(1, min(len(words), 6)):
        word = words[at].lower()
        if word in _VERBS or word in _LIST_VERBS:
            nouns = tuple(w.lower() for w in words[1:at] if not w.startswith("-"))
            if all(noun in _NOUNS for noun in nouns) and (nouns or word in _BARE_VERBS or word in _LIST_VERBS):
                return _Command(tuple(words), words[0].rsplit("/", 1)[-1], nouns, word, tuple(words[at + 1:]))
            return None
    return None


def _option(args: tuple[str, ...], names: frozenset[str]) -> str | None:
    """The value of the first option of ``names`` (``--status x`` or ``--status=x``), or None."""
    for at, arg in enumerate(args):
        name, equals, value = arg.partition("=")
        if name in names and equals:
            return value
        if arg in names and at + 1 < len(args):
            return args[at + 1]
    return None


def _positional(args: tuple[str, ...]) -> list[str]:
    """The arguments that are no option nor an option's value (an option's value is the word after it unless it
    is written ``--x=value`` or the option is a flag such as ``--claim`` or ``--json``)."""
    found, skip = [], False
    valued = _STATUS_OPTIONS | _REASON_OPTIONS | _TITLE_OPTIONS | _ID_OPTIONS
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-") and len(arg) > 1:
            skip = arg in valued
        else:
            found.append(arg)
    return found


def _ids(command: _Command) -> list[str]:
    given = _option(command.args, _ID_OPTIONS)
    candidates = [given] if given else _positional(command.args)
    ids = [m.group(1) for c in candidates if (m := _ITEM_ID.match(c))]
    if not ids and (command.nouns or given):  # a bare number is an item only after a noun (``gh issue close 12``)
        ids = [m.group(1) for c in candidates if (m := _NUMBER_ID.match(c))]
    return ids


def _status(value: str | None) -> str | None:
    return _STATUS_OF.get(" ".join(value.lower().replace("_", " ").split())) or _STATUS_OF.get(value.lower()) \
        if value else None


def _new_status(command: _Command) -> str | None:
    """What the command makes of the item: a status, ``"new"``, or None when it changes no status."""
    kind = _VERBS.get(command.verb)
    if kind != "change":
        return kind
    if any(arg in _CLAIM_FLAGS for arg in command.args):
        return ACTIVE
    found = _status(_option(command.args, _STATUS_OPTIONS))
    if found:
        return found
    # a status given bare (``jira issue move ENG-4 "In Progress"``), not an id
    return next((s for arg in _positional(command.args) if not _ITEM_ID.match(arg) and (s := _status(arg))), None)


def _title_in(output: str, item: str) -> str:
    """The item's title where the output names it: the text after its id on the first line that holds it
    (``✓ Closed proj-7.1: Parse the header``, ``proj-7 [P1] Parse the header``, ``Closed issue #12 (Crash on
    start)``), without a status in brackets after it. A number names the item only as ``#12``: ``task 3 status``
    is no title."""
    named = f"#{item}" if item.isdigit() else item
    for line in output[:_OUTPUT].splitlines():
        at = line.find(named)
        if at >= 0:
            match = _TITLE_AFTER.match(_MARKS.sub("", line[at + len(named):]))
            title = _TRAILING_STATUS.sub("", match.group(1)).strip().rstrip(")") if match else ""
            return _clip(title, _TITLE_CHARS) if len(title.split()) >= 2 and not _NOT_TITLE.match(title) else ""
    return ""


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _created_id(output: str) -> str | None:
    ids = _ID_IN_TEXT.findall(output[:2000])
    numbers = _NUMBER_IN_TEXT.findall(output[:2000])
    return ids[0] if ids else numbers[0] if numbers else None


def _echoes(title: str, reason: str) -> bool:
    """True when a close's confirmation line gives the reason where a title would stand (``✓ Closed proj-7:
    <the --reason text>``): the item's title is then still unknown, not the reason."""
    head = " ".join(title.rstrip("…").split())[:40].casefold()
    return bool(head) and " ".join(reason.split()).casefold().startswith(head)


def _title_argument(command: _Command) -> str:
    """The title a create gives: its title option's value or its first argument of two words or more (``-t`` names a
    title to one tracker and a type to another: a one-word value is not taken for one)."""
    titled = _option(command.args, _TITLE_OPTIONS) or ""
    title = titled if len(titled.split()) >= 2 else next((a for a in _positional(command.args) if len(a.split()) >= 2),
                                                         "")
    return _clip(title, _TITLE_CHARS)


class _Items:
    def __init__(self) -> None:
        self.items: dict[str, TrackedItem] = {}
        self.closing: dict[str, list[str]] = {}  # per program: the close command the agent used, "{}" its id

    def set(self, item: str, index: int, **fields: Any) -> None:
        old = self.items.get(item, TrackedItem(item, "", PENDING))
        title = fields.pop("title", "") or old.title
        self.items[item] = replace(old, title=title, acted=True, at=index, **fields)

    def acted(self, command: _Command, output: str, index: int) -> None:
        status = _new_status(command)
        if status is None:
            return
        if status == "new":
            if _REVIEWS & set(command.nouns):
                return
            item, title = _created_id(output), _title_argument(command)
            if item and title:
                self.set(item, index, title=title, status=PENDING)
            return
        confirmed = bool(command.nouns) or _option(command.args, _ID_OPTIONS) is not None
        reason = _option(command.args, _REASON_OPTIONS) if status in (DONE, DROPPED) else None
        ids = _ids(command)
        if status == DONE and ids:
            self.closing[command.program] = _template(command, ids)
        for item in ids:
            if confirmed or item in output[:_OUTPUT]:
                title = _title_in(output, item)
                self.set(item, index, title="" if reason and _echoes(title, reason) else title, status=status,
                         program=command.program, reason=_clip(reason, _REASON_CHARS) if reason else "",
                         noun=command.nouns[-1] if command.nouns else "",
                         merged=status == DONE and command.verb == "merge" and bool(_REVIEWS & set(command.nouns)))

    def listed(self, command: _Command, output: str, parents: set[str]) -> None:
        """Items a listing shows: a ``show`` of one item gives its title; lines of any listing that name a
        sub-item of an item the region acted on (``proj-7.2`` of ``proj-7``) add it with the status the line
        gives."""
        ids = _ids(command)
        for item in ids:
            if item in self.items and not self.items[item].title:
                titled = _TITLE_LINE.search(output[:_OUTPUT]) if len(ids) == 1 else None  # ``title:\tCrash on …``
                title = _title_in(output, item) or (_clip(titled.group(1), _TITLE_CHARS) if titled else "")
                self.items[item] = replace(self.items[item], title=title)
        for line in output[:_OUTPUT].splitlines():
            found = _ID_IN_TEXT.search(line)
            item = found.group(1) if found else ""
            if not item or item.rsplit(".", 1)[0] not in parents or (item in self.items and self.items[item].acted):
                continue
            status = _line_status(line) or (PENDING if command.verb in ("ready", "next") else None)
            if status:  # (a later listing says how an item the commands never touched stands now)
                self.items[item] = TrackedItem(item, _title_in(line, item) or self._title(item), status)

    def _title(self, item: str) -> str:
        return self.items[item].title if item in self.items else ""


_LINE_STATUS = re.compile(r"(?<![\w-])(in[ _-]progress|open|closed|done|completed|blocked|ready|pending|todo)(?![\w-])"
                          r"|(✓|✔|\[x\])", re.I)


def _line_status(line: str) -> str | None:
    match = _LINE_STATUS.search(line)
    if match is None:
        return None
    return DONE if match.group(2) else _status(match.group(1)) or (PENDING if match.group(1).lower() == "blocked"
                                                                    else None)


def tracked_items(messages: Any) -> list[TrackedItem]:
    """The tracker's items as the region's successful shell commands leave them, in the order first seen; each
    closing command named by the form the agent used (see the module docstring). Empty when the agent drove no
    tracker."""
    calls: dict[str, list[_Command]] = {}
    listings: list[tuple[_Command, str]] = []
    found = _Items()
    for index, message in enumerate(message_dicts(messages)):
        if message.get("role") == "assistant" and isinstance(message.get("content"), list):
            for block in message["content"]:
                if isinstance(block, dict) and block.get("type") == "toolCall" and isinstance(block.get("id"), str):
                    command = shell_command(block.get("name"), block.get("arguments"))
                    parsed = [p for words in command_words(command) if (p := _parse(words))] if command else []
                    if parsed:
                        calls[block["id"]] = parsed
        elif message.get("role") == "toolResult" and isinstance(message.get("toolCallId"), str) \
                and message["toolCallId"] in calls:  # (input is untrusted: an id may be anything)
            commands = calls.pop(message["toolCallId"])
            if message.get("isError"):
                continue
            output = content_text(message.get("content"))
            for command in commands:
                if command.verb in _LIST_VERBS:
                    listings.append((command, output))
                else:
                    found.acted(command, output, index)
    if not any(item.acted for item in found.items.values()):
        return []
    parents = set(found.items)
    for command, output in listings:  # after the commands: a listing adds the sub-items of the items they acted on
        found.listed(command, output, parents)
    return [replace(item, closing=_closing(found.closing, item)) if item.status in (PENDING, ACTIVE) else item
            for item in found.items.values()]


def _template(command: _Command, ids: list[str]) -> list[str]:
    """The words of a closing command with its first id a placeholder, its other ids and its reason left out:
    ``jira issue move OPS-11 Done`` gives ``jira issue move {} Done``."""
    words, skip = [], False
    for word in command.words:
        name = word.partition("=")[0]
        if skip:
            skip = False
        elif name in _REASON_OPTIONS:
            skip = "=" not in word
        elif word.lstrip("#") in ids:
            words += [] if "{}" in words else ["{}"]
        else:
            words.append(word)
    return words


def _closing(closing: dict[str, list[str]], item: TrackedItem) -> str:
    """``bd close proj-7.2``: the close command the agent used last for its tracker's items, for this item; an
    item of the listings, which no command touched, is closed as the tracker's other items are when only one
    tracker closed any."""
    program = item.program or (next(iter(closing)) if len(closing) == 1 else "")
    words = closing.get(program)
    return " ".join(item.id if word == "{}" else shlex.quote(word) for word in words) if words else ""


__all__ = ["TrackedItem", "states_closing", "tracked_items"]
