"""Stage 3 of compaction: pi's structured summary, built without a model.

When no model is configured, or the summarizer failed, compaction still has to leave a summary the agent can
work from. :class:`OfflineSummarizer` writes pi's sections (Goal, Constraints & Preferences, Progress, Key
Decisions, Next Steps, Critical Context) from the facts of the region: the first request, every constraint
the user stated, files, commands and their exit codes, error messages, the last request. It merges into the
previous summary instead of replacing it, so nothing decays through repeated compactions, and trims to its
budget starting with what matters least: never the constraints, never the file paths.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .facts import Facts, constraint_sentences, extract_facts, looks_like_path
from .shell import shell_effects
from .prune import clip, command_label, condense, shorten
from .summarizer import SummaryRequest, SummaryResult
from .tokens import estimate_tokens, text_tokens

GOAL_HEAD, GOAL_TAIL = 1500, 500
"""The first request kept at the top of the summary: head and tail characters."""
REQUEST_HEAD, REQUEST_TAIL = 1000, 500
_DECISIONS = 12
_LAST_ACTIVITY = 3
_BRANCH_INTRO = "A conversation branch that was explored and then left. It started from this request:"

# Trim tiers: the lowest goes first; within a tier, the oldest item goes first.
DECISION, IDENTIFIER, LOOKUP, MISC, COMMAND, STEP, ERROR, KEEP = range(8)

_DECISION = re.compile(r"\b(?:decided|decide to|chose|choose to|instead|will use|I'll use|going to use|because"
                       r"|rather than|opted)\b|决定|改用|因为|选择", re.I | re.A)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")
_MARKER = re.compile(r"^(?:[-*+•]\s+\[[ xX]\]\s+|[-*+•]\s+|\d+[.)]\s+)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_TAG = re.compile(r"^<(/?)(read-files|modified-files)>$")
_ENTRY = re.compile(r"^\[(?:Assistant|Assistant tool call|Assistant error|Tool result|User bash|Custom [^\]]*"
                    r"|Branch summary|Previous summary)\]: ")
_FOCUS_PREFIX = re.compile(r"^focus(?:\s+on)?\s*:?\s*", re.I)
_WORD = re.compile(r"[A-Za-z0-9_./-]{3,}|[\u4e00-\u9fff]{2,}")
_FOCUS_STOPWORDS = frozenset({"focus", "the", "and", "about", "with", "for", "please", "keep", "only", "more",
                              "less", "that", "this", "from", "into", "what", "summary", "summarize"})
_BOILERPLATE = frozenset({"---", "(none)", "none", "**turn context (split turn):**", "summary of that exploration:",
                          "the user explored a different conversation branch before returning here.",
                          _BRANCH_INTRO.lower()})

_CODE_SPAN = re.compile(r"``? ?([^`]+?) ?``?")
_PREFIX_TIERS = (("Modified ", KEEP), ("Read ", KEEP), ("Ran ", COMMAND), ("User ran ", COMMAND), ("Command ", COMMAND),
                 ("User mentioned ", IDENTIFIER),
                 ("Earlier request:", STEP), ("Earlier goal:", STEP), ("Last activity:", DECISION))
_CRITICAL_ORDER = ("Error:", "Command ", "Read ", "User mentioned ", "Earlier goal:", "Earlier request:",
                   "Last activity:")
_SAME_AS_GOAL = "Work on the goal above"

# pi's headings (and the turn-prefix ones) → section keys.
_KNOWN = {
    "goal": "goal", "constraints & preferences": "constraints", "constraints and preferences": "constraints",
    "constraints": "constraints", "progress": "progress", "done": "done", "completed": "done",
    "in progress": "in_progress", "blocked": "blocked", "key decisions": "decisions", "decisions": "decisions",
    "next steps": "next", "critical context": "critical", "original request": "earlier_request",
    "early progress": "done", "context for suffix": "critical",
}
_LAYOUT = (("goal", "## Goal", ""), ("constraints", "## Constraints & Preferences", "- "),
           ("progress", "## Progress", None), ("done", "### Done", "- [x] "),
           ("in_progress", "### In Progress", "- [ ] "), ("blocked", "### Blocked", "- "),
           ("decisions", "## Key Decisions", "- "), ("next", "## Next Steps", "1. "),
           ("critical", "## Critical Context", "- "))
"""(section key, heading, bullet marker): pi's sections in pi's order; ``None`` marks a heading without items."""
_TURN_LAYOUT = (("goal", "## Original Request", ""), ("done", "## Early Progress", "- "),
                ("critical", "## Context for Suffix", "- "))


@dataclass
class _Item:
    text: str
    tier: int
    order: int = 0


@dataclass
class _Draft:
    """Sections being assembled: known keys from the layouts, plus sections of a previous summary we do not know."""

    sections: dict[str, list[_Item]] = field(default_factory=dict)
    extra: dict[str, list[_Item]] = field(default_factory=dict)
    """Sections of a previous summary with headings we do not know, kept line by line as they were."""
    read: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    counter: int = 0
    seen: set[tuple[str, str]] = field(default_factory=set)

    def add(self, key: str, text: str, tier: int) -> None:
        """Add a bullet unless the section already has one with the same words."""
        text = text.strip()
        normal = (key, " ".join(text.split()))
        if text and normal not in self.seen:
            self.seen.add(normal)
            self.counter += 1
            self.sections.setdefault(key, []).append(_Item(text, tier, self.counter))

    def add_raw(self, heading: str, line: str) -> None:
        """Add a line of an unknown section verbatim (repeats included: they may be code)."""
        self.counter += 1
        self.extra.setdefault(heading, []).append(_Item(line.rstrip(), MISC, self.counter))

    def items(self) -> list[_Item]:
        return [item for items in (*self.sections.values(), *self.extra.values()) for item in items]


# -- reading a previous summary -------------------------------------------------------------------------------


def parse_summary(text: str) -> _Draft:
    """A summary's bullets by section (pi's headings, ours, or any other), and its file tags."""
    draft = _Draft()
    key, tag, fence = "critical", "", False
    blocks: dict[str, list[str]] = {"goal": [], "earlier_request": []}
    for raw in text.splitlines():
        line = raw.strip()
        fence = fence != line.startswith("```")
        heading = None if fence or line.startswith("```") else _HEADING.match(line)
        tag_match = _TAG.match(line)
        if tag_match:
            tag = "" if tag_match.group(1) else tag_match.group(2)
        elif tag:
            (draft.read if tag == "read-files" else draft.modified).extend([line] if line else [])
        elif heading and len(heading.group(1)) == 1:
            draft.add("critical", heading.group(2), MISC)  # a title such as "# Context Checkpoint: …"
        elif heading:
            key = _section_key(heading.group(1), heading.group(2).strip(), bool(blocks["goal"]))
        elif key in blocks:
            blocks[key].append(raw.rstrip())
        elif line and line.lower() not in _BOILERPLATE:
            _parse_line(draft, key, raw)
    goal = [line for line in blocks["goal"] if line.strip().lower() not in _BOILERPLATE
            and not line.strip().lower().startswith("focus:")]
    draft.add("goal", "\n".join(goal).strip(), KEEP)
    request = " ".join(" ".join(blocks["earlier_request"]).split())
    draft.add("critical", f"Earlier request: {request}" if request else "", STEP)
    for heading, items in draft.extra.items():
        if heading.lower().endswith("condensed transcript"):
            _transcript_constraints(draft, [item.text for item in items])
    return draft


def _section_key(level: str, name: str, have_goal: bool) -> str:
    key = _KNOWN.get(name.lower(), f"{level} {name}")
    return f"{level} {name}" if key == "goal" and have_goal else key  # a second "Goal" is someone's text


def _transcript_constraints(draft: _Draft, lines: list[str]) -> None:
    """A pruned summary's transcript holds user messages verbatim: their constraints must not be lost."""
    entries: list[str] = []
    for line in lines:
        if line.startswith("["):
            entries.append(line)
        elif entries:
            entries[-1] += "\n" + line
    for entry in entries:
        if entry.startswith("[User]: "):
            for sentence in constraint_sentences(entry[len("[User]: ") :]):
                draft.add("constraints", sentence, KEEP)


def _parse_line(draft: _Draft, key: str, raw: str) -> None:
    if key.startswith("#"):
        draft.add_raw(key, raw)
        return
    body = _MARKER.sub("", raw.strip(), count=1).strip()
    if key == "progress":
        draft.add("done", body, COMMAND)
    elif key in ("constraints", "in_progress"):
        draft.add(key, body, KEEP)
    else:
        draft.add(key, body, _tier_of(key, body))


def _tier_of(key: str, body: str) -> int:
    """How readily a bullet of a previous summary may be trimmed (paths never are)."""
    if key == "blocked" or body.startswith("Error:"):
        return ERROR
    span = _CODE_SPAN.search(body)
    if span and " " not in span.group(1).strip() and looks_like_path(span.group(1).strip()):
        return KEEP
    for prefix, tier in _PREFIX_TIERS:
        if body.startswith(prefix):
            return tier
    return {"decisions": DECISION, "next": DECISION, "done": COMMAND}.get(key, MISC)


# -- building from facts --------------------------------------------------------------------------------------


def _code(text: str) -> str:
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _decisions(messages: tuple[Any, ...]) -> list[str]:
    """The assistant's sentences that state a choice and its reason, the most recent last."""
    found: dict[str, None] = {}
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        content = message.get("content") if isinstance(message.get("content"), list) else []
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
                for sentence in _SENTENCE.split(block["text"][:20_000]):
                    sentence = _MARKER.sub("", sentence.strip()).strip()
                    if len(sentence) >= 12 and _DECISION.search(sentence):
                        found.pop(shorten(sentence, 300), None)
                        found[shorten(sentence, 300)] = None
    return list(found)[-_DECISIONS:]


def _add_facts(draft: _Draft, facts: Facts, messages: tuple[Any, ...]) -> None:
    for constraint in facts.constraints:
        draft.add("constraints", constraint, KEEP)
    for path in facts.modified_files:
        draft.add("done", f"Modified {_code(path)}", KEEP)
    for command in facts.commands:
        label, lookup = _code(command_label(command.command, 200)), shell_effects(command.command).inspects_only
        if not command.failed and command.exit_code == 0 and not lookup:
            draft.add("done", f"{'User ran' if command.tool == 'user' else 'Ran'} {label} (exit 0)", COMMAND)
        else:
            status = f"exit {command.exit_code}" if command.exit_code is not None else "no exit code"
            status += " (failed)" if command.failed and command.exit_code is None else ""
            draft.add("critical", f"Command {label} → {status}", LOOKUP if lookup and not command.failed else COMMAND)
    for failure in facts.failures:
        target = command_label(failure.target, 200) if failure.tool in ("bash", "user bash") else failure.target
        what = f"{_code(target)} failed" if failure.tool in ("bash", "user bash") else \
            f"{failure.tool} {_code(target) if target else ''} failed".replace("  ", " ")
        draft.add("blocked", f"{what}: {failure.error}" if failure.error else what, ERROR)
    for decision in _decisions(messages):
        draft.add("decisions", decision, DECISION)
    for error in facts.errors:
        draft.add("critical", f"Error: {error}", ERROR)
    for path in facts.read_files:
        if path not in facts.modified_files:
            draft.add("critical", f"Read {_code(path)}", KEEP)
    for identifier in facts.identifiers:
        tier = KEEP if looks_like_path(identifier) else IDENTIFIER
        draft.add("critical", f"User mentioned {_code(identifier)}", tier)


def _last_activity(messages: tuple[Any, ...]) -> list[str]:
    """The first lines of the last few entries of the condensed transcript: where the work stopped."""
    tail = [m for m in messages[-2 * _LAST_ACTIVITY :] if isinstance(m, dict) and m.get("role") != "user"]
    entries = [line for line in condense(tail, text_head=200, text_tail=0, arg_limit=60).splitlines()
               if _ENTRY.match(line)]
    return [shorten(line, 240) for line in entries[-_LAST_ACTIVITY:]]


def _add_progress(draft: _Draft, facts: Facts, messages: tuple[Any, ...], goal_is_first: bool) -> None:
    requests = facts.user_requests[1 if goal_is_first else 0 : -1]
    for request in requests:
        draft.add("critical", f"Earlier request: {shorten(' '.join(request.split()), 300)}", STEP)
    if facts.last_request and goal_is_first and len(facts.user_requests) == 1:
        draft.add("in_progress", _SAME_AS_GOAL, KEEP)
    elif facts.last_request:
        draft.add("in_progress", clip(facts.last_request.strip(), REQUEST_HEAD, REQUEST_TAIL), KEEP)
    for line in _last_activity(messages):
        draft.add("in_progress", f"Last activity: {line}", DECISION)
    if facts.last_request:
        draft.add("next", f"Continue with the latest request: {shorten(' '.join(facts.last_request.split()), 300)}",
                  STEP)
    for failure in facts.failures[-5:]:
        target = command_label(failure.target, 120) if failure.target else failure.tool
        draft.add("next", f"Resolve the failure of {_code(target)} (see Blocked)", STEP)


# -- merging --------------------------------------------------------------------------------------------------


def _merge(previous: _Draft, new: _Draft, facts: Facts) -> _Draft:
    """``previous`` with ``new`` added: every old bullet stays (older first), except what the new part settles."""
    merged = previous
    if new.sections.get("in_progress"):
        for item in merged.sections.pop("in_progress", []):
            if not item.text.startswith("Last activity:") and item.text != _SAME_AS_GOAL:
                merged.add("critical", f"Earlier request: {shorten(' '.join(item.text.split()), 300)}", STEP)
    succeeded = {c.command for c in facts.commands if not c.failed and c.exit_code is not None}
    merged.sections["blocked"] = [i for i in merged.sections.get("blocked", []) if not _settled(i.text, succeeded)]
    if not merged.sections.get("goal"):
        merged.sections["goal"] = new.sections.get("goal", [])
    for key, items in new.sections.items():
        for item in items if key != "goal" else ():
            merged.add(key, item.text, item.tier)
    merged.read += new.read
    merged.modified += new.modified
    return merged


def _settled(bullet: str, succeeded: set[str]) -> bool:
    span = _CODE_SPAN.search(bullet)
    return bool(span) and any(command_label(c, 200) == span.group(1) for c in succeeded)


def _add_previous_files(draft: _Draft) -> None:
    for path in draft.modified:
        draft.add("done", f"Modified {_code(path)}", KEEP)
    for path in draft.read:
        if path not in draft.modified:
            draft.add("critical", f"Read {_code(path)}", KEEP)


# -- rendering and budget -------------------------------------------------------------------------------------


def _focus_words(instructions: str) -> list[str]:
    return [w for w in (w.lower() for w in _WORD.findall(instructions)) if w not in _FOCUS_STOPWORDS]


def _matches(item: _Item, focus: list[str]) -> bool:
    lowered = item.text.lower()
    return any(word in lowered for word in focus)


def _critical_rank(item: _Item) -> int:
    for rank, prefix in enumerate(_CRITICAL_ORDER):
        if item.text.startswith(prefix):
            return rank
    return len(_CRITICAL_ORDER)


def _marker(marker: str, text: str) -> str:
    """Where the work stopped is detail under the request in progress, not a task of its own."""
    return "  - " if marker == "- [ ] " and text.startswith("Last activity:") else marker


def _render(draft: _Draft, layout: tuple, focus: list[str], focus_line: str) -> str:
    parts: list[str] = []
    for key, heading, marker in layout:
        items = draft.sections.get(key, [])
        if key == "critical":
            items = sorted(items, key=_critical_rank)
        if focus and key != "goal":
            items = sorted(items, key=lambda i: not _matches(i, focus))
        parts.append(f"\n{heading}" if parts and heading.startswith("## ") else heading)
        if marker is None:
            continue
        if key == "goal":
            parts.extend(i.text for i in items)
            parts.extend([focus_line] if focus_line else [])
            continue
        numbered = marker == "1. "
        lines = [f"{n}. {i.text}" if numbered else f"{_marker(marker, i.text)}{i.text}" for n, i in enumerate(items, 1)]
        parts.extend(lines or ["(none)"])
    for heading, items in draft.extra.items():
        if items:
            parts.append(f"\n{heading}" if heading.startswith("## ") else heading)
            parts.extend(i.text for i in items)
    return "\n".join(parts).strip() + "\n"


def _trim(draft: _Draft, budget: int, focus: list[str], render: Any) -> str:
    """Render within ``budget`` tokens, dropping the lowest tier first, the oldest first, the focus last."""
    text = render()
    # the last candidate is the first to go
    candidates = sorted((i for i in draft.items() if i.tier < KEEP),
                        key=lambda i: (i.tier, _matches(i, focus), i.order), reverse=True)
    while budget > 0 and text_tokens(text) > budget and candidates:
        excess = text_tokens(text) - budget
        doomed: set[int] = set()
        while candidates and excess > 0:
            item = candidates.pop()
            doomed.add(id(item))
            excess -= text_tokens(item.text) + 1
        for target in (draft.sections, draft.extra):
            for key in target:
                target[key] = [i for i in target[key] if id(i) not in doomed]
        text = render()
    return text


# -- the summarizer -------------------------------------------------------------------------------------------


class OfflineSummarizer:
    """pi's structured summary from the transcript alone: no network, no key, same input → same text."""

    name = "offline"
    context_window = 10**9

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        messages = tuple(request.messages) if isinstance(request.messages, (tuple, list)) else ()
        text = self._turn_prefix(messages, request) if request.kind == "turn_prefix" else self._full(messages, request)
        return SummaryResult(text, input_tokens=sum(map(estimate_tokens, messages)),
                             output_tokens=text_tokens(text), model="offline")

    def _full(self, messages: tuple[Any, ...], request: SummaryRequest) -> str:
        facts = extract_facts(messages)
        previous = request.previous_summary
        draft = parse_summary(previous) if isinstance(previous, str) and previous.strip() else _Draft()
        for summary in _embedded_summaries(messages):
            _absorb(draft, parse_summary(summary))
        goal_is_first = not draft.sections.get("goal")
        new = _Draft()
        goal = clip(facts.first_request.strip(), GOAL_HEAD, GOAL_TAIL) or "(no user request in this part)"
        if request.kind == "branch":
            new.add("goal", _BRANCH_INTRO, KEEP)
        new.add("goal", goal, KEEP)
        _add_facts(new, facts, messages)
        _add_progress(new, facts, messages, goal_is_first)
        draft = _merge(draft, new, facts)
        _add_previous_files(draft)
        instructions = " ".join(request.instructions.split()) if isinstance(request.instructions, str) else ""
        focus = _focus_words(instructions)
        focus_line = f"Focus: {_FOCUS_PREFIX.sub('', instructions)}" if instructions else ""
        return _trim(draft, _budget(request), focus, lambda: _render(draft, _LAYOUT, focus, focus_line))

    def _turn_prefix(self, messages: tuple[Any, ...], request: SummaryRequest) -> str:
        facts = extract_facts(messages)
        draft = _Draft()
        draft.add("goal", clip(facts.first_request.strip(), GOAL_HEAD, GOAL_TAIL) or "(none)", KEEP)
        _add_facts(draft, facts, messages)
        for key in ("constraints", "blocked", "decisions"):
            for item in draft.sections.pop(key, []):
                prefix = {"constraints": "Constraint: ", "blocked": "Blocked: ", "decisions": "Decision: "}[key]
                draft.add("done" if key != "constraints" else "critical", prefix + item.text, item.tier)
        for line in _last_activity(messages):
            draft.add("critical", f"Last activity: {line}", DECISION)
        focus = _focus_words(request.instructions if isinstance(request.instructions, str) else "")
        return _trim(draft, _budget(request), focus, lambda: _render(draft, _TURN_LAYOUT, focus, ""))


def _budget(request: SummaryRequest) -> int:
    """The answer's token budget; 0 (no limit) when the request gives none."""
    budget = request.max_tokens
    return budget if isinstance(budget, int) and not isinstance(budget, bool) and budget > 0 else 0


def _embedded_summaries(messages: tuple[Any, ...]) -> list[str]:
    """Branch and compaction summaries inside the region: earlier summaries whose bullets must survive too."""
    return [m["summary"] for m in messages if isinstance(m, dict) and m.get("role") in
            ("branchSummary", "compactionSummary") and isinstance(m.get("summary"), str) and m["summary"].strip()]


def _absorb(draft: _Draft, other: _Draft) -> None:
    """Add a region's embedded summary to ``draft``: its goal becomes context, its bullets join ours."""
    for item in other.sections.pop("goal", []):
        draft.add("critical", f"Earlier goal: {item.text}", STEP)
    for key, items in other.sections.items():
        for item in items:
            if key == "in_progress":
                draft.add("critical", f"Earlier request: {item.text}", STEP)
            else:
                draft.add(key, item.text, item.tier)
    for heading, items in other.extra.items():
        for item in items:
            draft.add_raw(heading, item.text)
    draft.read += other.read
    draft.modified += other.modified
