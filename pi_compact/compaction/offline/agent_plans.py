"""The plan the agent wrote itself and the user approved, read as a plan the user pasted is.

An agent in a planning mode writes the plan, not the user: Claude Code's ``ExitPlanMode`` carries it in its ``plan``
argument (the result says "User has approved your plan"), other agents write it to a file (``PLAN.md``,
``docs/plans/….md``, ``.claude/plans/<slug>.md``, ``x.plan.md``) and ask "Shall I go ahead?" before the user's
"looks good". Once approved, that plan is what the user asked for, in the same way as "Implement the following plan:
…" pasted in a request: its title, its choices, its limits and its steps bind the work. A summary that keeps only
"Plan approved" leaves the next agent to find the file, or loses the plan where the tool call held it.

:func:`approved_plans` finds each approval in order: a plan tool's result that says approved, or the user's reply
that approves (:func:`.goal.approves`) right after the agent wrote a plan file and changed nothing else. A plan
the user turned down (a declined call, a reply that refuses) is not one; a later approval replaces an earlier one
(:func:`plan_in_force`). :func:`plan_decisions` gives what the approved plan decided, for Key Decisions; its rules
are read by :func:`.facts.constraint_sentences` and its steps left by :func:`.plan_left.plan_left`, as a pasted
plan's are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...accessors import content_text
from .facts import EDIT_TOOLS, WRITE_TOOLS, is_patch_tool, message_dicts
from .goal import approves, sets_work, user_requests
from .outcome import refusal
from .plan_points import approach_choices
from .plans import _after as text_after, names_a_plan
from .rules import _past_approval as past_approval, listed_decisions, plan_in_brief

_APPROVED = re.compile(r"\b(?:approved|accepted)\b", re.I)
"""What a plan tool's result says when the user approved the plan ("User has approved your plan.")."""
_PLAN_TOOL = re.compile(r"(?:submit|present|propose|exit|finish|request)[\W_]{0,3}(?:the[\W_]{0,3})?plan", re.I)
"""A tool whose name says it puts a plan to the user (``ExitPlanMode``, ``submit_plan``), with or without the
plan's text in its arguments (then the plan is the file written before it)."""
_REFUSED = re.compile(r"^\W{0,3}(?:no\b|nope|not (?:yet|quite|like that)|wait\b|stop\b|don'?t\b|do not\b|hold on)",
                      re.I)
"""A reply that turns the plan down ("no, keep the JSON files", "wait — what about Windows?")."""
_PLAN_TEXT = re.compile(r"^\s{0,3}(?:#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s)", re.M)
"""A plan file's text has headings or list items (a file named "plan" holding one paragraph plans nothing)."""
_PLAN_WORD = re.compile(r"^(?:(?:updated|revised|new|final|refined|amended|corrected)\s)?(?:(?:implementation|work"
                        r"|execution)\s)?plan\s{0,2}(?:\((?:updated|revised|v\d{1,2})\)\s{0,2})?[:—–-]\s{0,3}(?=\S)", re.I)
"""A plan's heading that only says it is a plan, or which version ("Plan:", "Updated Plan:", "Revised Implementation
Plan —", "Plan (updated):"): the plan's title is what follows."""
_HOME = re.compile(r"^(?:/Users/|/home/)[^/\s]{1,64}/|^[A-Za-z]:[\\/]Users[\\/][^\\/\s]{1,64}[\\/]")
"""A home folder (the plan file in ``~/.claude/plans``): written ``~/`` as the summary's other paths outside the
project are."""
_DECISIONS = 4
"""What an approved plan decided, at most, besides its title: the summary's Key Decisions hold a few per turn."""


@dataclass(frozen=True)
class AgentPlan:
    at: int
    """The index of the message that approved it: the plan tool's result, or the user's reply."""
    text: str
    """The plan as the agent wrote it."""
    path: str = ""
    """The file the plan was written to, ``""`` when only the tool call held it."""


def _plan_file(path: str) -> bool:
    return bool(path) and (names_a_plan(path) or path.lower().endswith(".plan.md"))


def _opening(text: str) -> str:
    """A text's first line that says something: a plan file and the tool call that submits it open alike."""
    return next((line.strip() for line in text[:4000].splitlines() if line.strip()), "")


def _calls(message: dict) -> list[dict]:
    content = message.get("content") if message.get("role") == "assistant" else None
    return [block for block in content if isinstance(block, dict) and block.get("type") == "toolCall"] \
        if isinstance(content, list) else []


def approved_plans(messages: Any) -> list[AgentPlan]:
    """Each plan of the agent's that the user approved in ``messages``, in order (see the module)."""
    submitted: dict[str, str] = {}  # plan tool call id → the plan's text ("" when the call held none)
    changes: dict[str, dict] = {}  # call id → a write or edit, until its result
    texts: dict[str, str] = {}  # a file's text as far as the calls show it
    written: tuple[str, str] | None = None  # the plan file last written, since the user last spoke
    said = ""  # the agent's words since the user last spoke
    found: list[AgentPlan] = []
    for index, message in enumerate(message_dicts(messages)):
        role = message.get("role")
        if role == "assistant":
            said = f"{said}\n{content_text(message.get('content'))}"[-4000:]
            for block in _calls(message):
                arguments, name = block.get("arguments"), str(block.get("name") or "")
                plan = arguments.get("plan") if isinstance(arguments, dict) else None
                if isinstance(plan, str) or _PLAN_TOOL.search(name):
                    submitted[str(block.get("id"))] = plan if isinstance(plan, str) else ""
                elif name.lower() in WRITE_TOOLS | EDIT_TOOLS or is_patch_tool(name):
                    changes[str(block.get("id"))] = block
        elif role == "toolResult":
            call_id, text = str(message.get("toolCallId")), content_text(message.get("content"))
            if call_id in submitted:
                plan = submitted.pop(call_id) or (written[1] if written else "")
                if plan and not message.get("isError") and not refusal(text) and _APPROVED.search(text[:300]):
                    found.append(AgentPlan(index, plan, written[0] if written and _opening(written[1]) == _opening(plan)
                                           else ""))
                written = None  # approved or turned down through the tool: not again by the user's next words
            elif call_id in changes and not message.get("isError") and not refusal(text):
                block = changes.pop(call_id)
                for path, after, _ in text_after(block, message, texts):
                    if after is None:
                        texts.pop(path, None)
                    else:
                        texts[path] = after
                    plan_file = _plan_file(path) and after is not None and _PLAN_TEXT.search(after)
                    written = (path, after) if plan_file else None  # (another file changed: the work began)
        elif role == "user":
            reply = content_text(message.get("content")).strip()
            if written and reply and not _REFUSED.match(reply) and (approves(reply, said)
                                                                   or past_approval(reply) is not None):
                found.append(AgentPlan(index, written[1], written[0]))
            written, said = None, ""
    return found


def plan_in_force(messages: Any, plans: list[AgentPlan] | None = None) -> AgentPlan | None:
    """The agent's plan the work carries out at the end of ``messages``: the last one approved (of ``plans`` when
    given, found once by :func:`approved_plans`), when no request that sets other work came after its approval."""
    listed = list(message_dicts(messages))
    plans = approved_plans(listed) if plans is None else plans
    if not plans:
        return None
    later = [words for index, words in user_requests(listed) if index > plans[-1].at]
    return None if any(sets_work(words) for words in later) else plans[-1]


def plan_decisions(plan: AgentPlan) -> list[str]:
    """What the approved ``plan`` decided: its title (with the file that holds it), then the choices its sections
    state (:func:`.rules.listed_decisions`: its decisions lists, tables, labelled design points; the lines under its
    approach headings, :func:`.plan_points.approach_choices`), a few at most."""
    brief = _PLAN_WORD.sub("", plan_in_brief(plan.text), count=1)  # (not "…: Plan: X")
    where = f" (written out in `{_HOME.sub('~/', plan.path, count=1)}`)" if plan.path else ""
    chosen = listed_decisions(plan.text)
    chosen = [choice for choice in dict.fromkeys([*chosen, *approach_choices(plan.text)]) if choice != brief]
    chosen = chosen[:_DECISIONS]
    return [f"Plan approved by the user: {brief}{where}", *chosen] if brief else chosen


def approved_plan_decisions(messages: Any) -> list[tuple[int, list[str]]]:
    """``(index of the approval, decisions)`` of each approved plan: the plan in force in full
    (:func:`plan_decisions`), an earlier one replaced since by its title only (what it chose was chosen again)."""
    plans = approved_plans(messages)
    return [(plan.at, plan_decisions(plan) if number == len(plans) - 1 else plan_decisions(plan)[:1])
            for number, plan in enumerate(plans)]


__all__ = ["AgentPlan", "approved_plan_decisions", "approved_plans", "plan_decisions", "plan_in_force"]
