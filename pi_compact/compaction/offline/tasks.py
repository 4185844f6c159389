"""The task list an agent keeps through its own tools: which item is in progress and which are still to do.

Agents track their work in a list they update as they go: Claude Code's ``TodoWrite`` (the whole list each time)
or ``TaskCreate``/``TaskUpdate`` (one item at a time, by id), Codex's ``update_plan`` (``plan: [{step, status}]``).
When a region ends mid-work, that list says exactly what the agent was doing and what it meant to do next, better
than its last words. The calls are read by their arguments' shape, not by the tool's name: a list of items that
each have a status replaces the list; an item's text without an id adds one (its id the first number of the
result, ``Task #3 created``, else the next ordinal); an id with a status or a text updates one. Only calls whose
result did not fail count. The items of an outside tracker the agent drove by shell commands (:mod:`.trackers`:
``bd update proj-7 --status in_progress``, ``gh issue close 12``) join the list after the agent's own items.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...accessors import content_text
from .facts import message_dicts
from .trackers import ACTIVE, DONE, DROPPED, PENDING, TrackedItem, tracked_items

_STATUSES = {
    PENDING: ("pending", "todo", "to_do", "to-do", "not_started", "not started", "open", "planned", "queued"),
    ACTIVE: ("in_progress", "in-progress", "in progress", "active", "doing", "started", "running", "current"),
    DONE: ("completed", "complete", "done", "finished", "resolved", "closed"),
    DROPPED: ("cancelled", "canceled", "deleted", "removed", "skipped", "abandoned"),
}
_STATUS_OF = {word: status for status, words in _STATUSES.items() for word in words}
_TEXT_KEYS = ("content", "subject", "step", "title", "task", "text", "name")
_ID_KEYS = ("taskId", "task_id", "id", "todoId", "todo_id")
_FIRST_NUMBER = re.compile(r"#?(\d{1,9})")
_DETAIL = 160
"""Characters of an item's description kept after its title."""


@dataclass(frozen=True)
class Task:
    text: str
    status: str
    closing: str = ""
    """For an item of an outside tracker: the command that closes it, as the agent closed others."""
    reason: str = ""
    """For a tracker item closed in the region: the reason the agent gave."""
    tracked: bool = False
    """True for an item of an outside tracker (see :mod:`.trackers`), not of the agent's own list."""


@dataclass(frozen=True)
class TaskList:
    tasks: tuple[Task, ...]
    updated_at: int
    """Index (in the region's messages) of the last call that changed the list."""
    closed: tuple[Task, ...] = ()
    """The tracker items the region's commands closed, in order, each with the reason given."""

    def with_status(self, status: str) -> list[str]:
        return [task.text for task in self.tasks if task.status == status]

    def entries(self, status: str) -> list[Task]:
        return [task for task in self.tasks if task.status == status]


def _status(value: Any) -> str | None:
    return _STATUS_OF.get(value.strip().lower()) if isinstance(value, str) else None


def _text(item: dict) -> str:
    """An item's title, and its description when that says more (files, commands)."""
    title = next((item[k].strip() for k in _TEXT_KEYS if isinstance(item.get(k), str) and item[k].strip()), "")
    detail = item.get("description") if isinstance(item.get("description"), str) else ""
    detail = " ".join(detail.split())
    if detail and title and detail.lower() not in title.lower():
        cut = detail if len(detail) <= _DETAIL else detail[: _DETAIL - 1].rsplit(" ", 1)[0] + "…"
        return f"{title} — {cut}"
    return title or detail[:_DETAIL]


def _full_list(arguments: dict) -> list[Task] | None:
    """The items of a call that sets the whole list (every element a dict with a status and a text), or None."""
    for value in arguments.values():
        if isinstance(value, list) and value and all(isinstance(i, dict) and _status(i.get("status"))
                                                     and _text(i) for i in value):
            return [Task(_text(item), _status(item["status"]) or PENDING) for item in value]
    return None


class _Tracker:
    def __init__(self) -> None:
        self.items: dict[str, Task] = {}
        self.updated_at = -1

    def apply(self, arguments: dict, result: str, index: int) -> None:
        whole = _full_list(arguments)
        key = next((str(arguments[k]) for k in _ID_KEYS if isinstance(arguments.get(k), (str, int))), None)
        if whole is not None:
            self.items = {str(n): task for n, task in enumerate(whole, 1)}
        elif key is not None and key in self.items:
            old = self.items[key]
            status = _status(arguments.get("status")) or old.status
            self.items[key] = Task(_text(arguments) if any(k in arguments for k in _TEXT_KEYS) else old.text, status)
        elif key is not None and _text(arguments) and _status(arguments.get("status")):
            # an item the list held before the region (created earlier): its update says what it is now
            self.items[key] = Task(_text(arguments), _status(arguments["status"]) or PENDING)
        elif key is None and _text(arguments) and ("status" not in arguments or _status(arguments["status"])):
            number = _FIRST_NUMBER.search(result)
            new_id = number.group(1) if number and number.group(1) not in self.items else str(len(self.items) + 1)
            self.items[new_id] = Task(_text(arguments), _status(arguments.get("status")) or PENDING)
        else:
            return
        self.updated_at = index

    def read(self, result: str, index: int) -> None:
        """A call that lists the whole list (Claude Code's ``TaskList``: ``#4 [pending] Investigate …``): the
        list as it stands, which may have been made before the region began."""
        found = {match.group(1): Task(match.group(3).strip(), status)
                 for match in _LISTED.finditer(result[:_LISTING]) if (status := _status(match.group(2)))}
        if found:
            self.items, self.updated_at = found, index


_LISTED = re.compile(r"^[ \t]{0,8}#?(\d{1,9})[.)]?[ \t]{1,8}\[([A-Za-z_ -]{2,20})\][ \t]{1,8}([^\n\[]{1,400})", re.M)
"""A listed item: its id, its status in brackets, its text up to a bracket (``[blocked by #2]`` is not its title)."""
_LISTING = 20_000


def _reads_list(name: str) -> bool:
    """A tool that shows the agent's own list (``TaskList``, ``TodoRead``)."""
    lowered = name.lower()
    return any(word in lowered for word in ("todo", "task")) and any(
        verb in lowered for verb in ("list", "read", "get", "view", "show"))


def _is_task_call(name: str) -> bool:
    """A tool that keeps the agent's own list (``TodoWrite``, ``TaskCreate``, ``update_plan``), not one that runs a
    sub-agent (``Task``) or reads the list (``TaskList``): its name says task/todo/plan and changing it."""
    lowered = name.lower()
    return any(word in lowered for word in ("todo", "task", "plan")) and any(
        verb in lowered for verb in ("write", "create", "update", "add", "set", "todo"))


_LABEL = re.compile(r"^\W{0,3}([A-Za-z][A-Za-z_]{0,15})[- ]?(\d{1,4}(?:\.\d{1,3})?)(?=\s*[:.)—-])")
"""A task's short name at the start of its text (``TASK-003:``, ``WP14.``, ``Task 7 —``), which the agent's words
name when it reports on the task."""
_NAMED = re.compile(r"(?<![\w.-])([A-Za-z][A-Za-z_]{0,15})[- ]?(\d{1,4}(?:\.\d{1,3})?)(?![\w-])")
_FINISHED = re.compile(r"\b(?:complete[d]?|done|finished|passes|passing|works|added|created|implemented|updated"
                       r"|fixed|wrote|written)\b|\b(?:that|this|it|which)(?:'s|’s| is| was) the fix\b|✅|✓", re.I)
"""A sentence that reports work finished; "that's the fix for task #1" (a change taken from elsewhere, a merge of
the branch where the user fixed it) finishes the task as surely as "fixed"."""
_BY_ID = re.compile(r"(?<![\w-])(?:task|todo|item)\s?#\s?(\d{1,4})(?![\w-])|(?<![\w-])(?:task|todo)\s(\d{1,4})(?![\w.-])",
                    re.I)
"""A task named by its id in the list ("task #1", "Todo 3"), as agents name the items of a ``TaskCreate`` list."""
_STARTED = re.compile(r"^\W{0,3}(?:now|next|moving (?:on )?to|starting|on to|let'?s (?:do|start))\b", re.I)


def _name(letters: str, number: str) -> str:
    return f"{letters.lower()}{number}"


_WORDS = re.compile(r"[A-Za-z_][\w.-]{3,60}|[^\W\d_]{4,}")
_STOP = frozenset({"with", "from", "into", "that", "this", "them", "then", "when", "for", "the", "and", "add", "update",
                   "create", "make", "implement", "fix", "run", "test", "tests", "file", "files", "code", "use"})
_SHARE = 0.6
"""A sentence names a task when it holds this share of the task title's words."""


def _title_words(task: Task) -> set[str]:
    title = task.text.split(" — ", 1)[0]
    return {w.lower().rstrip(".-") for w in _WORDS.findall(title)} - _STOP


def _reported(tasks: list[Task], texts: list[str], ids: list[str] | None = None) -> list[Task]:
    """``tasks`` as the agent's words after the list's last change report them (agents often finish several tasks
    before they tick them off): "TASK-002 complete." finishes TASK-002, "Now TASK-003 – …" starts it; a sentence
    that holds most of a task's title words and says it is done ("Added the sessionLanes field to the Model")
    finishes that task; so does a sentence that names a task by its id in the list (``ids``, in the order of
    ``tasks``: "Take theirs, that's the fix for task #1"). Each sentence's names and words are looked up in
    indexes, so the work grows with the text and the tasks, not with their product."""
    labels = {_name(*match.groups()): n for n, task in enumerate(tasks) if (match := _LABEL.match(task.text))}
    by_id = {key: n for n, key in enumerate(ids or ())}
    wanted = {n: _title_words(task) for n, task in enumerate(tasks) if task.status != DONE}
    index: dict[str, list[int]] = {}
    for n, words in wanted.items():
        for word in words:
            index.setdefault(word, []).append(n)
    tasks = list(tasks)
    for text in texts:
        for sentence in re.split(r"(?<=[.!?])\s+|\n+", text[:20_000]):
            finished = bool(_FINISHED.search(sentence))
            named = next((labels[key] for found in _NAMED.finditer(sentence)
                          if (key := _name(*found.groups())) in labels), None)
            if named is None:
                named = next((by_id[key] for found in _BY_ID.finditer(sentence)
                              if (key := found.group(1) or found.group(2)) in by_id), None)
            status = DONE if finished else ACTIVE if _STARTED.match(sentence) else None
            if named is not None and status and tasks[named].status != DONE:
                tasks[named] = Task(tasks[named].text, status)
            if finished and named is None:
                for n in _covered(sentence, wanted, index):
                    tasks[n] = Task(tasks[n].text, DONE)
    return tasks


def _covered(sentence: str, wanted: dict[int, set[str]], index: dict[str, list[int]], least: int = 3) -> list[int]:
    """The tasks whose title words ``sentence`` holds, most of them (``least`` words at least, or all of a shorter
    title's when ``least`` is 1)."""
    counts: dict[int, int] = {}
    for word in {w.lower().rstrip(".-") for w in _WORDS.findall(sentence[:2000])}:
        for n in index.get(word, ())[:50]:
            counts[n] = counts.get(n, 0) + 1
    return [n for n, hits in counts.items() if hits >= min(least, 3) and hits >= _SHARE * len(wanted[n])
            and (least >= 3 or hits >= min(3, len(wanted[n])))]


def task_list(messages: Any) -> TaskList | None:
    """The task list as the region's successful calls leave it and the agent's later words report it (see
    :func:`_reported`), or None when the agent kept none."""
    tracker, calls, reads, texts = _Tracker(), {}, set(), []
    for index, message in enumerate(message_dicts(messages)):
        if message.get("role") == "assistant":
            texts.append((index, content_text(message.get("content"))))
        if message.get("role") == "assistant" and isinstance(message.get("content"), list):
            for block in message["content"]:
                if isinstance(block, dict) and block.get("type") == "toolCall" and isinstance(block.get("id"), str) \
                        and isinstance(block.get("arguments"), dict) and _is_task_call(str(block.get("name", ""))):
                    calls[block["id"]] = block["arguments"]
                elif isinstance(block, dict) and block.get("type") == "toolCall" and isinstance(block.get("id"), str) \
                        and _reads_list(str(block.get("name", ""))):
                    reads.add(block["id"])
        elif message.get("role") == "toolResult" and not message.get("isError"):
            call_id = message.get("toolCallId")
            if isinstance(call_id, str) and call_id in calls:
                tracker.apply(calls.pop(call_id), content_text(message.get("content"))[:200], index)
            elif isinstance(call_id, str) and call_id in reads:
                reads.discard(call_id)
                tracker.read(content_text(message.get("content")), index)
    tracked = tracked_items(messages)
    if not tracker.items and not tracked:
        return None
    later = [text for index, text in texts if index > tracker.updated_at and text]
    own = _one_active(_reported(list(tracker.items.values()), later, list(tracker.items)), later) \
        if tracker.items else []
    return TaskList(tuple(own + _tracker_tasks(tracked)), max([tracker.updated_at, *(i.at for i in tracked)]),
                    tuple(Task(i.label, DONE, reason=i.reason, tracked=True) for i in tracked
                          if i.acted and i.status == DONE))


def _tracker_tasks(tracked: list[TrackedItem]) -> list[Task]:
    """The tracker's item the agent took up last and still open, and its open sub-items (``proj-7.2`` of
    ``proj-7``), as tasks: the one in progress and those to do. Other open items are not this work's next steps:
    an item taken up earlier and left open may have been settled elsewhere, one filed during the work (``bd
    create``) is follow-up work for later, one a listing shows (``bd ready``) is the queue, not the plan."""
    taken = [item for item in tracked if item.status == ACTIVE]
    if not taken:
        return []
    current = max(taken, key=lambda item: item.at)
    parts = [item for item in tracked if item.status in (PENDING, ACTIVE) and item.id.startswith(current.id + ".")]
    return [Task(current.label, ACTIVE, closing=current.closing, tracked=True),
            *(Task(item.label, PENDING, closing=item.closing, tracked=True) for item in parts)]


def _one_active(tasks: list[Task], texts: list[str]) -> list[Task]:
    """``tasks`` with one task in progress: agents often mark several (or all) in progress at once and then work on
    them one by one, and a summary that calls four tasks "in progress" does not say which one to pick up. The
    task is the one the agent's words after the list's last change named last (by its short name or most of its
    title's words), else the first marked in progress; the others are still to do."""
    active = [n for n, task in enumerate(tasks) if task.status == ACTIVE]
    if len(active) < 2:
        return tasks
    named = _named_last(tasks, active, texts)
    kept = named if named is not None else active[0]
    return [Task(task.text, PENDING) if n in active and n != kept else task for n, task in enumerate(tasks)]


def _named_last(tasks: list[Task], among: list[int], texts: list[str]) -> int | None:
    """Which of the tasks ``among`` the last sentence of ``texts`` that names one of them names."""
    labels = {_name(*match.groups()): n for n in among if (match := _LABEL.match(tasks[n].text))}
    wanted = {n: _title_words(tasks[n]) for n in among}
    index: dict[str, list[int]] = {}
    for n, words in wanted.items():
        for word in words:
            index.setdefault(word, []).append(n)
    for text in reversed(texts):
        for sentence in reversed(re.split(r"(?<=[.!?])\s+|\n+", text[:20_000])):
            named = [labels[key] for found in _NAMED.finditer(sentence) if (key := _name(*found.groups())) in labels]
            named = named or _covered(sentence, wanted, index, least=1)
            if named:
                return named[0]
    return None


__all__ = ["ACTIVE", "DONE", "DROPPED", "PENDING", "Task", "TaskList", "task_list"]
