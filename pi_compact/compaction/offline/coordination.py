"""How the agent organised the work, as its tool calls show it: the order it set between its tasks, and the
sub-agents it ran side by side.

Both are choices that shape what comes next, and both live only in calls' arguments, never in a file: a task list
whose items wait on others (``TaskUpdate {"taskId": "7", "addBlockedBy": ["5", "6"]}``) says which task may start
when; several sub-agents launched in one message (``Task {"subagent_type": "general-purpose", …}`` twice) say which
tasks were independent and handed off. The next agent that does not know either redoes a sub-agent's task or starts
a task before the one it waits on. Read by the arguments' shape, not by the tool's name.
"""

from __future__ import annotations

from typing import Any

from .facts import message_dicts
from .reports import starts_subagent
from .text import clip_words

_WAITS_KEYS = ("addBlockedBy", "blockedBy", "blocked_by", "add_blocked_by", "dependsOn", "depends_on", "addDependsOn")
"""Arguments that list the tasks a task waits on."""
_ID_KEYS = ("taskId", "task_id", "id")
_ORDERS = 12
"""Task orderings named at most (the rest counted)."""
_BATCHES = 1
"""Batches of sub-agents run side by side named at most (the latest kept): the line stays short."""
_TITLES, _KINDS = 3, 2
"""Sub-agents named per batch, and kinds of sub-agent named, at most."""
_TITLE_CHARS = 40


def _calls(message: dict) -> list[dict]:
    content = message.get("content")
    if message.get("role") != "assistant" or not isinstance(content, list):
        return []
    return [block for block in content if isinstance(block, dict) and block.get("type") == "toolCall"]


def _ids(value: Any) -> list[str]:
    values = value if isinstance(value, list) else [value]
    return [str(item).strip() for item in values if isinstance(item, (str, int)) and str(item).strip()][:10]


def task_order(messages: Any) -> str:
    """The order the agent set between its tasks, one decision: "3 after 1; 7 after 5, 6", with the tool and the
    argument that set it. ``""`` when no call set one."""
    orders: dict[str, list[str]] = {}
    how = ""
    for message in message_dicts(messages):
        for call in _calls(message):
            arguments = call.get("arguments")
            if not isinstance(arguments, dict):
                continue
            task = next((_ids(arguments[key]) for key in _ID_KEYS if key in arguments), [])
            key = next((key for key in _WAITS_KEYS if arguments.get(key)), "")
            if len(task) != 1 or not key:
                continue
            how = how or f"`{call.get('name') or 'the task tool'}` {key}"
            waits = orders.setdefault(task[0], [])
            waits += [other for other in _ids(arguments[key]) if other not in waits]
    if not orders:
        return ""
    pairs = [f"{task} after {', '.join(waits)}" for task, waits in orders.items()]
    more = f"; and {len(pairs) - _ORDERS} more" if len(pairs) > _ORDERS else ""
    return f"Dependency chain between the tasks set with {how}: {'; '.join(pairs[:_ORDERS])}{more}"


def _title(call: dict) -> str:
    arguments = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
    named = next((arguments[key] for key in ("description", "title", "name") if isinstance(arguments.get(key), str)
                  and arguments[key].strip()), "") or str(arguments.get("prompt") or "").strip().split("\n", 1)[0]
    return clip_words(named, _TITLE_CHARS) if named.strip() else ""


def _kind(call: dict) -> str:
    arguments = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
    kind = arguments.get("subagent_type") or arguments.get("agent_type")
    return kind.strip() if isinstance(kind, str) and kind.strip() else ""


def parallel_agents(messages: Any) -> str:
    """The sub-agents the agent ran side by side (two or more launched in one message), batch by batch, as one
    decision: what each was given, and the kind of agent. ``""`` when it never launched two at once."""
    batches: list[str] = []
    kinds: dict[str, None] = {}
    for message in message_dicts(messages):
        launched = [call for call in _calls(message) if starts_subagent(call)]
        if len(launched) < 2:
            continue
        kinds.update((kind, None) for kind in map(_kind, launched) if kind)
        titles = [title for title in map(_title, launched) if title][:_TITLES]
        batches.append(" + ".join(f"“{title}”" for title in titles) if titles else f"{len(launched)} sub-agents")
    if not batches:
        return ""
    kind = f" ({', '.join(list(kinds)[:_KINDS])})" if kinds else ""
    earlier = f" (the latest of {len(batches)} batches)" if len(batches) > _BATCHES else ""
    return f"Independent work handed to sub-agents run in parallel{kind}: {'; '.join(batches[-_BATCHES:])}{earlier}"
