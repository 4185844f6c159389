"""A plan still under discussion: the agent put it to the user through its plan tool and the user turned it down.

An agent in a planning mode presents its plan through a tool (Claude Code's ``ExitPlanMode``, a ``submit_plan``)
whose result says whether the user approved it. When the user turns it down and says what to change ("we are
brainstorming now, list what you want to prove"), the conversation goes on about the plan; the region can end
with the agent's answer to the latest remark. Nothing is then "done, wait for the user": the plan is what the user
is shaping, and the agent's next step is to revise it per what the user said since and submit it again.
:func:`plan_under_review` tells that case from the others: the last submission was declined, nothing approved it
since, and the agent changed no file after it but the plan's own (planning mode forbids other changes; a change
elsewhere means the work went on without the plan).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...accessors import content_text
from .facts import EDIT_TOOLS, WRITE_TOOLS, Attempt, is_shell_tool, message_dicts, tool_path
from .goal import user_requests
from .outcome import refusal, refusal_reason
from .rules import plan_in_brief
from .shell import shell_effects
from .text import clip_words

_PLAN_TOOL = re.compile(r"(?:submit|present|propose|exit|finish|request)[\W_]{0,3}(?:the[\W_]{0,3})?plan", re.I)
"""A tool whose name says it puts a plan to the user (``ExitPlanMode``, ``submit_plan``, ``present-plan``)."""
_FEEDBACK = 3
"""The user's remarks since the plan was turned down, the newest kept (the latest shape the plan the most)."""
_FEEDBACK_CHARS = 160


@dataclass(frozen=True)
class PlanUnderReview:
    tool: str
    """The tool the plan was submitted through (submit it again through the same)."""
    title: str
    """The plan in brief (its title), ``""`` when the call held no plan text."""
    turned_down: int
    """Submissions the user declined, in a row up to the last."""
    feedback: tuple[str, ...]
    """What the user said since the last submission: the words given on declining, then the requests after it."""
    plan_file: str
    """The file the agent wrote the plan into before submitting it (``""`` when none)."""


def plan_under_review(messages: Any, attempts: tuple[Attempt, ...]) -> PlanUnderReview | None:
    """The plan the user is still shaping at the end of ``messages`` (see the module docstring), or ``None``."""
    listed = list(message_dicts(messages))
    submissions = _submissions(listed)
    if not submissions or submissions[-1][2] is None:
        return None
    at, tool, reason, plan = submissions[-1]
    plan_file = _plan_file(listed, at, plan)
    if _changed_after(attempts, at, plan_file):
        return None  # the work went on without the plan
    turned_down = 0
    for submission in reversed(submissions):
        if submission[2] is None:
            break
        turned_down += 1
    said = [clip_words(reason, _FEEDBACK_CHARS)] if reason else []
    said += [clip_words(" ".join(words.split()), _FEEDBACK_CHARS) for index, words in user_requests(listed)
             if index > at]
    return PlanUnderReview(tool, plan_in_brief(plan) if plan else "", turned_down, tuple(said[-_FEEDBACK:]), plan_file)


def _submissions(messages: list[dict]) -> list[tuple[int, str, str | None, str]]:
    """``(index of the result, tool, what the user said on declining or None when not declined, plan text)`` of
    each call that put a plan to the user, in order."""
    calls: dict[str, tuple[str, str]] = {}
    found = []
    for index, message in enumerate(messages):
        if message.get("role") == "assistant" and isinstance(message.get("content"), list):
            for block in message["content"]:
                if not (isinstance(block, dict) and block.get("type") == "toolCall"):
                    continue
                name, arguments = str(block.get("name") or ""), block.get("arguments")
                plan = arguments.get("plan") if isinstance(arguments, dict) else None
                if isinstance(plan, str) or _PLAN_TOOL.search(name):
                    calls[str(block.get("id"))] = (name, plan if isinstance(plan, str) else "")
        elif message.get("role") == "toolResult" and str(message.get("toolCallId")) in calls:
            name, plan = calls.pop(str(message.get("toolCallId")))
            text = content_text(message.get("content"))
            found.append((index, name, refusal_reason(text) if refusal(text) else None, plan))
    return found


def _plan_file(messages: list[dict], before: int, plan: str) -> str:
    """The last file written before ``before`` whose text opens as the plan does (its first line)."""
    first = next((line.strip() for line in plan.splitlines() if line.strip()), "")
    if not first:
        return ""
    for message in reversed(messages[:before]):
        blocks = message.get("content") if message.get("role") == "assistant" else None
        for block in blocks if isinstance(blocks, list) else ():
            arguments = block.get("arguments") if isinstance(block, dict) and block.get("type") == "toolCall" else None
            written = next((arguments[key] for key in ("content", "file_text", "contents")
                            if isinstance(arguments, dict) and isinstance(arguments.get(key), str)), "")
            if written.lstrip().startswith(first):
                return tool_path(arguments)
    return ""


def _changed_after(attempts: tuple[Attempt, ...], at: int, plan_file: str) -> bool:
    """A file other than the plan's was changed after the result at ``at``."""
    for attempt in attempts:
        if attempt.index <= at or attempt.failed or attempt.refused:
            continue
        tool = attempt.tool.lower()
        paths = [attempt.target] if tool in WRITE_TOOLS | EDIT_TOOLS else \
            shell_effects(attempt.target).writes if is_shell_tool(tool) else []
        if any(path and path != plan_file for path in paths):
            return True
    return False


__all__ = ["PlanUnderReview", "plan_under_review"]
