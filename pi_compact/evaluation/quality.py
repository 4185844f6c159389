"""A quality score for compaction summaries that can fail: is the state the summary reports the true state?

Retention (``pi_compact.replayer``) asks whether strings survived; this module asks whether what the summary
*says* is right, per compaction, against the region it replaced:

* **precision** — of the items listed under Done, In Progress, Next Steps and Constraints, the share the region
  supports (an item is supported when most of its salient tokens — paths, identifiers, backticked spans —
  and of its content words occur in the region);
* **staleness** — the items listed as in progress or next that the region shows finished: by the hand labels
  when there are some (:class:`RegionLabels`), else by a heuristic (the last message that mentions the item
  reports it done, or is a ``git commit``);
* **error accuracy** — of the errors the summary mentions, the share given the right status (open vs
  resolved), where an open error the summary leaves out counts as a wrong one; a failure dealt with another way
  (its path removed or put in place by another call, a retry the user stopped, the agent's word that it goes
  another way) is history, and a program found missing is settled only when it runs (:mod:`.settling`);
* **length** — the summary's characters and tokens against the region's;
* **recall** (:mod:`.recall`) — how much of what the region shows a continuing agent needs the summary holds:
  a summary that says little is rarely wrong, so without it a short summary outranked one holding twice the
  facts. :attr:`Quality.score` is mostly recall, the rest the checks above, less a cost per faulty item (an item
  is counted wrong once, however many checks it fails).

The user's words (requests, a goal, rules) are read without what a user message pastes (:mod:`.userwords`): a
log, a document or a harness's envelope is no request of the user's.

It reads only the region and the summary text (it shares no code with the summarizers it grades), so a
summarizer cannot pass by agreeing with itself. The headings it understands are pi's (``## Progress`` /
``### Done`` / ``### In Progress`` / ``## Next Steps`` / ``## Constraints & Preferences``) and the free-form ones
LLMs write (``Completed Work``, ``Current Task``, ``User Preferences``, …).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..accessors import json_strings, synthetic
from ..compaction.offline.facts import is_shell_tool
from ..compaction.tokens import estimate_tokens, text_tokens
from .faults import CHANGING_TOOLS, FAULT_COST, WAITING, asked_last, file_acts, item_key, summary_faults, wrong_items
from .growing import GrowingText, PieceFinder
from .recall import NeedIndex, recall
from .settling import (acted_paths, command_of, failure_key, last_part, missing_program, programs, retry_keys,
                       same_path)
from .userwords import harness_document, own_words

RECALL_WEIGHT = 0.8
"""The share of the score that is recall. Tuned on the calibration half: against the hand labels alone
(share of labelled facts held, next step right) recall ranks summaries far better than correctness, which on its
own ranks them inversely (a longer summary says more that a heuristic cannot confirm)."""
SCORED_SECTIONS = ("done", "in_progress", "next", "constraints")
"""The sections whose items precision counts."""
OPEN_SECTIONS = ("in_progress", "next")
"""The sections whose items may be stale."""

_HEADING = re.compile(r"(#{1,6})\s+(?=\S)")
"""A heading's marks; its title is cut by string methods (``(.+?)\\s*#*\\s*$`` was cubic on inner spaces)."""
_BOLD_HEADING = re.compile(r"^\*\*([^*]{2,80})\*\*:?\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+(.*)$")
_TABLE_SEPARATOR = re.compile(r"^\|?[\s:|-]+\|?$")
_BLOCK_OPEN = re.compile(r"^<([a-z][a-z-]*)>\s*$")
_CHECKED = re.compile(r"^\[[xX✓]\]\s*|✅|✔")
_UNCHECKED = re.compile(r"^\[\s?\]\s*")

_SECTION_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("in_progress", re.compile(r"in[ -]progress|current (?:task|work|state|step)|ongoing|under way|wip\b")),
    ("done", re.compile(r"\bdone\b|complete[ds]?\b|finished|accomplished")),
    ("next", re.compile(r"\bnext\b|to ?do\b|remaining|upcoming|pending")),
    # "Errors and fixes", "Problems solved": a log of errors with their fixes, settled unless an item says not
    ("fixes", re.compile(r"\b(?:errors?|issues?|problems?|bugs?)\b[^#]{0,20}\b(?:fix(?:es|ed)?|resolved|solved|solutions?)\b")),
    ("blocked", re.compile(r"blocked|blocker|open (?:errors?|issues?|problems?)|\berrors?\b|\bissues\b|failures")),
    ("constraints", re.compile(r"constraint|preference|requirement|\brules?\b|guideline")),
    # a choice made, which may name the errors a design handles ("catch CodeRejectedError in the tick")
    ("decisions", re.compile(r"\bdecisions?\b|\bdecided\b|\bagreed\b")),
)

_TOKEN = re.compile(r"[#@$]?[\w][\w./\\:@#$+-]*", re.UNICODE)
_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)
_STOPWORDS = frozenset(
    """about above after again against also because been before being below between both cannot could does doing
    down during each even every from further have having here into itself just more most much must need needs
    none only other over same should some such than that their them then there these they this those through
    under until upon very were what when where which while will with would your yours make made use used using
    uses want wants like still already instead keep kept it's don't isn't user users agent file files
    """.split()
) | frozenset(
    # a summary's own vocabulary for state, not content the region has to contain
    """modified modify created create edited wrote written read reads resolve resolved failure failures failed
    continue continued latest request requests activity last earlier mentioned update updated added fixed done
    complete completed finish finished exit code blocked next step steps work working progress ongoing current
    task tasks result results command commands tool call calls assistant goal none note""".split()
)
_COMPLETION = re.compile(
    r"\b(?:done|complete[ds]?|completed|finished|fixed|committed|implemented|created|added|updated|resolved|"
    r"passes|passing|works now|now works)\b|✅|✓",
    re.IGNORECASE,
)
_ERROR_MENTION = re.compile(
    r"\berror\b|\berrors\b|\bfail(?:ed|ure|ures|s|ing)?\b|exception|traceback|\bTS\d{4}\b|exit(?:ed)? (?:with )?"
    r"code [1-9]|not found|no such file|\baborted\b|\bcannot\b|\bcan't\b|\bbroken\b|\bcrash",
    re.IGNORECASE,
)
_RESOLVED_MENTION = re.compile(
    r"\b(?:fixed|resolved|solved|passes|passing|now works|works now|worked around|no longer|was fixed|succeeded|"
    r"fix:|fixed by|root cause|"
    r"irrelevant|aborted by the user|reverted)\b",
    re.IGNORECASE,
)
_STILL_OPEN = re.compile(
    r"\b(?:ongoing|still (?:fail\w*|broken|open|there)|current (?:issue|error|problem|blocker)|not (?:yet )?(?:fixed|resolved)"
    r"|did not fix|didn'?t fix|unresolved|remain(?:s|ing)? (?:open|unresolved|failing))\b",
    re.IGNORECASE,
)
"""An error marked as not settled, whatever else the item says about it ("the root cause is …")."""
_ADDRESSED = re.compile(
    r"\b(?:if you need (?:specific|more|further|the)|you were (?:asked|working)|you generated|without asking the user"
    r"|continue (?:the conversation|from where|where (?:we|you) left)|(?:read|see) the full transcript)\b",
    re.IGNORECASE,
)
"""A line a harness appends to tell the next agent how to go on ("Please continue the conversation from where we
left off…", "If you need specific details…, read the full transcript at …"): advice to the reader, no claim
about the region."""
_FAILED_EXIT = re.compile(r"(?:exited with code|exit code|exit status)[: ]+([1-9]\d*)", re.IGNORECASE)
_ABORTED = re.compile(r"\baborted\b|\bcancel+ed\b|\binterrupted\b|sibling tool call errored|doesn'?t want to proceed"
                      r"|\b(?:rejected|declined|denied) by (?:the )?user\b", re.IGNORECASE)
_GIT = re.compile(r"\bgit\b")
_COMMIT = re.compile(r"\bcommit\b")
_COMMAND_SEPARATOR = re.compile(r"[|;&]")

_STEM = 5
"""Words are compared by their first five letters (modify / modified / modifies)."""
SUPPORT_SALIENT = 0.5
"""Share of an item's salient tokens (paths, identifiers, backticked spans) the region must contain."""
SUPPORT_WORDS = 0.6
"""Share of an item's content words the region must contain."""


# -- the summary's items ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SummaryItem:
    """One thing a summary asserts: a bullet, a numbered step, a table row or a sentence under a heading."""

    section: str
    """``done``, ``in_progress``, ``next``, ``blocked``, ``constraints`` or ``other``."""
    text: str


def summary_items(summary: str) -> tuple[SummaryItem, ...]:
    """The items of a markdown summary, each under the section its headings put it in.

    A sub-heading without a section word of its own (``### WP14: Create main-new.ts``) inherits its parent's
    section and is itself an item; a checked box or a ✅ makes an item done wherever it stands; code fences and
    the ``<tag>…</tag>`` blocks pi-compact adds (original request, file lists) are not items.
    """
    items: list[SummaryItem] = []
    stack: list[tuple[int, str]] = []  # (heading level, section)
    block: str | None = None
    fenced = False
    for raw in summary.splitlines():
        line = raw.strip()
        if line.startswith("```") or line.startswith("~~~"):
            fenced = not fenced
            continue
        if fenced or not line:
            continue
        if block is not None:
            block = None if line == f"</{block}>" else block
            continue
        opened = _BLOCK_OPEN.match(line)
        if opened:
            block = opened.group(1)
            continue
        # an indented line is quoted text; "7. Pending Tasks:" heads a section in Claude Code's summaries
        heading = (_numbered_heading(line) or _heading(line)) if raw[:1] not in (" ", "\t") else None
        if heading is not None:
            level, title = heading
            while stack and stack[-1][0] >= level:
                stack.pop()
            parent = stack[-1][1] if stack else "other"
            own = section_of(title)
            if own == "blocked" and parent == "fixes":
                own = parent  # "**Error 2:**" under "Errors and fixes" is one entry of the log
            stack.append((level, own if own != "other" else parent))
            if own in ("other", parent) and parent in SCORED_SECTIONS + ("blocked", "fixes"):
                items.append(_item(parent, title))  # "### WP14: Create main-new.ts (NEXT)" under Next Steps
            continue
        section = stack[-1][1] if stack else "other"
        text = _item_text(line)
        if text:
            items.append(_item(section, text))
    return tuple(items)


def _heading(line: str) -> tuple[int, str] | None:
    match = _HEADING.match(line)
    if match:
        return len(match.group(1)), _heading_title(line[match.end():])
    match = _BOLD_HEADING.match(line)
    return (7, match.group(1)) if match else None  # a bold line heads what follows it, below any # heading


_NUMBERED_HEADING = re.compile(r"^(?:\d{1,2}\.\s+([A-Z][A-Za-z &/'-]{2,60})|(Analysis|Summary)):\s*$")
"""Claude Code's summary sections: ``Analysis:``, ``Summary:``, ``1. Primary Request and Intent:`` …
``9. Optional Next Step:`` (a numbered line that is only a title and a colon)."""


def _numbered_heading(line: str) -> tuple[int, str] | None:
    match = _NUMBERED_HEADING.match(line)
    if not match:
        return None
    if not match.group(1):
        return 1, match.group(2)
    # "Current Work" there reports what was done just before the summary: a record, not a claim of open work
    return 2, "Work just before" if match.group(1).lower() == "current work" else match.group(1)


def _heading_title(rest: str) -> str:
    """A heading's text without the closing ``#``s and the spaces around them (a title of ``#`` alone stays)."""
    title = rest.rstrip()
    return title.rstrip("#").rstrip() or title[:1]


def section_of(title: str) -> str:
    """The section a heading names, or ``other``."""
    lowered = title.lower()
    for name, pattern in _SECTION_WORDS:
        if pattern.search(lowered):
            return name
    return "other"


def _item_text(line: str) -> str:
    bullet = _BULLET.match(line)
    if bullet:
        text = bullet.group(1).strip()
        # "Files changed (by last action):" introduces the lines under it (scored themselves); it claims nothing
        return "" if text.endswith(":") and "`" not in text else text
    if line.startswith("|"):
        if _TABLE_SEPARATOR.match(line):
            return ""
        return " ".join(cell.strip() for cell in line.strip("|").split("|") if cell.strip())
    return line


def _item(section: str, text: str) -> SummaryItem:
    if _CHECKED.search(text):
        section = "done"
    text = _UNCHECKED.sub("", _CHECKED.sub("", text)).strip()
    return SummaryItem(section, text)


# -- what the region says ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Said:
    """One thing said or done in the region, as plain text."""

    role: str
    """``user``, ``assistant`` (its text), ``command`` (a shell command run), ``result`` (any tool output) or
    ``harness`` (an assistant message no model wrote)."""
    text: str
    failed: bool = False
    target: str = ""
    """For a command: the command; for a result: the command or path of the call it answers."""
    tool: str = ""
    """For the result of a call that ran no shell command (a file or task tool): the tool's name."""
    arguments: Any = field(default=None, compare=False)
    """For a call: its arguments (a plan tool's items are read from them)."""
    own: str = field(default="", compare=False)
    """For a user message: the user's own words, pasted material left out (:mod:`.userwords`)."""


def region_messages(region: Iterable[Any]) -> list[dict]:
    """The message dicts of ``region``, which may hold session entries or messages (summaries left out)."""
    messages = []
    for item in region:
        if not isinstance(item, dict):
            continue
        if item.get("type") == "message":
            item = item.get("message")
        if isinstance(item, dict) and item.get("role") not in (None, "compactionSummary", "branchSummary"):
            messages.append(item)
    return messages


def _earlier_summaries(region: Iterable[Any]) -> Iterator[str]:
    """The texts of the summaries inside ``region`` (an earlier compaction's, a branch summary): what the region
    held before, which a summary that updates it must carry on."""
    for item in region:
        if isinstance(item, dict) and item.get("type") == "message":
            item = item.get("message")
        if not isinstance(item, dict):
            continue
        if item.get("type") in ("compaction", "branch_summary") or item.get("role") in ("compactionSummary",
                                                                                           "branchSummary"):
            if isinstance(item.get("summary"), str):
                yield item["summary"]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return ""


def _said(messages: list[dict], targets: dict[str, tuple[str, str]]) -> list[_Said]:
    """What ``messages`` say; ``targets`` maps tool-call ids to what they worked on (kept across calls)."""
    said: list[_Said] = []
    for number, message in enumerate(messages):
        role = message.get("role")
        if role in ("user", "custom"):
            if not harness_document(messages[number - 1] if number else None, message):  # a skill's text is no user's
                text = _text(message.get("content"))
                said.append(_Said("user", text, own=own_words(text)))
        elif role == "assistant" and synthetic(message):  # the harness's words ("No response requested."): no answer
            said.append(_Said("harness", _text(message.get("content"))))
        elif role == "assistant" and isinstance(message.get("content"), list):
            for block in message["content"]:
                said.extend(_assistant_block(block, targets))
        elif role == "toolResult":
            text = _text(message.get("content"))
            failed = bool(message.get("isError")) or bool(_FAILED_EXIT.search(text[-400:]))
            target, tool = targets.get(str(message.get("toolCallId")), ("", ""))
            said.append(_Said("result", text, failed, target, tool))
        elif role == "bashExecution":
            command = str(message.get("command") or "")
            output = str(message.get("output") or "")
            code = message.get("exitCode")
            failed = (isinstance(code, int) and code != 0) or bool(message.get("cancelled"))
            said.append(_Said("command", command, target=command))
            said.append(_Said("result", output, failed, command))
    return said


def _assistant_block(block: Any, targets: dict[str, tuple[str, str]]) -> Iterator[_Said]:
    if not isinstance(block, dict):
        return
    if block.get("type") == "text" and isinstance(block.get("text"), str):
        yield _Said("assistant", block["text"])
    elif block.get("type") == "toolCall":
        arguments = block.get("arguments") if isinstance(block.get("arguments"), dict) else {}
        command = arguments.get("command") if isinstance(arguments.get("command"), str) else None
        target = command or next((v for k, v in arguments.items() if k in ("path", "file_path", "filePath", "url")
                                  and isinstance(v, str)), "")
        name = str(block.get("name"))
        targets[str(block.get("id"))] = (f"{name}:{target}", "" if command is not None else name)
        if command is not None:
            yield _Said("command", command, target=command)
        else:
            yield _Said("call", " ".join(json_strings(arguments)), target=target, tool=name, arguments=arguments)


FAULT_PARTS = 2
"""The parts of a region index (a replay adds one per compaction) whose words :func:`summary_faults` reads."""


class RegionIndex:
    """A region's text, lower-cased, with its word stems and its failures, for fast support checks; it can
    grow, so a replay scoring every compaction of a long session indexes each message once, not once per
    compaction, and each question asked of it searches each message once (:mod:`.growing`), however many
    compactions ask it."""

    def __init__(self, region: Iterable[Any] = ()) -> None:
        self.said: list[_Said] = []
        self._targets: dict[str, tuple[str, str]] = {}
        self._lowered: list[str] = []
        self._text = GrowingText()
        self.chars = 0
        """The length of :attr:`text`."""
        self.stems: set[str] = set()
        self.stem_counts: Counter[str] = Counter()
        """Stem → how many texts and commands of the region hold it: how little a word identifies."""
        self.tokens = 0
        self.errors = _ErrorIndex()
        self._last_mention: dict[_Signature, tuple[int, int]] = {}
        self._said_stems: dict[int, set[str]] = {}
        self.needs = NeedIndex()
        """What a continuing agent needs of the region (:mod:`.recall`)."""
        self._starts: list[int] = []
        """Where each part added by :meth:`extend` starts in :attr:`said`."""
        self.file_acts: dict[tuple[str, str], set[str]] = {}
        """(act, last part) → the lower-cased paths a command deleted (``rm``) or moved (``mv``, both ends)."""
        self.extend(region)

    def extend(self, region: Iterable[Any]) -> None:
        """Add the messages (or entries) of ``region`` at its end."""
        region = list(region)
        for text in _earlier_summaries(region):
            self.needs.add_summary(text)
        messages = region_messages(region)
        said = _said(messages, self._targets)
        if not said:
            self.tokens += sum(estimate_tokens(m) for m in messages)
            return
        lowered = [item.text.lower() for item in said]
        self.chars += sum(len(item.text) for item in said) + len(said) - (0 if self.said else 1)
        for item, low in zip(said, lowered):
            stems = {w[:_STEM] for w in _WORD.findall(low)}
            self.stems.update(stems)
            self.stem_counts.update(stems)
            if item.role == "command":
                for act, *paths in file_acts(low):
                    for path in filter(None, paths):
                        self.file_acts.setdefault((act, _last_part(path)), set()).add(path)
            self.errors.add(item)
            self.needs.add(item)
        self._starts.append(len(self.said))
        self.said.extend(said)
        self._lowered.extend(lowered)
        self._text.append("\n".join(lowered))
        self.tokens += sum(estimate_tokens(m) for m in messages)

    @property
    def recent(self) -> list[_Said]:
        """What the last :data:`FAULT_PARTS` parts added said: a replay's summary is judged for faults against the
        regions it was just written from (an earlier region's faults were judged when it was summarized), so the
        score of each compaction reads its own region, not the whole session again (issue 23.11)."""
        return self.said[self._recent_start():]

    def _recent_start(self) -> int:
        return self._starts[-FAULT_PARTS] if len(self._starts) >= FAULT_PARTS else 0

    @property
    def text(self) -> str:
        return "\n".join(item.text for item in self.said)

    @property
    def lowered(self) -> str:
        return self._text.text()

    def contains(self, lowered: str) -> bool:
        """``lowered in self.lowered``, searching each part of the region once per question."""
        return lowered in self._text

    def has_word(self, word: str) -> bool:
        return word[:_STEM] in self.stems

    def acted_on(self, act: str, tokens: Sequence[str]) -> bool:
        """A command of the region did ``act`` (``deleted``, ``moved``) to a path ``tokens`` names."""
        for token in tokens:
            form = token.lower().strip("`'\"").rstrip("/")
            for path in self.file_acts.get((act, _last_part(form)), ()):
                shorter, longer = sorted((path.lstrip("./"), form.lstrip("./")), key=len)
                if longer == shorter or longer.endswith("/" + shorter):
                    return True
        return False

    def has_token(self, token: str) -> bool:
        token = token.replace("…", " ").replace("...", " ").strip()
        if any(self.contains(candidate) for candidate in _path_forms(token)):
            return True
        if " " in token:  # a backticked command or phrase, perhaps cut short: most of its parts will do
            parts = [p for p in token.split() if len(p) >= 3]
            return bool(parts) and sum(self.contains(p.lower()) for p in parts) >= SUPPORT_SALIENT * len(parts)
        parts = [p for p in re.split(r"[-–]", token) if len(p) >= 2]  # a range such as WP16-WP20
        return len(parts) > 1 and all(self.contains(p.lower()) for p in parts)

    def last_mention(self, sig: "_Signature") -> _Said | None:
        """The last user/assistant text or command that mentions ``sig``, or call that changes a file it names;
        only what was added since the last time this was asked is searched."""
        scanned, found = self._last_mention.get(sig, (0, -1))
        for index in range(len(self.said) - 1, scanned - 1, -1):
            said = self.said[index]
            if said.role in ("user", "assistant", "command") and self._mentions(sig, index) or _changes(said, sig):
                found = index
                break
        self._last_mention[sig] = (len(self.said), found)
        return self.said[found] if found >= 0 else None

    def plan_status(self, sig: "_Signature") -> bool | None:
        """Whether the agent's plan (a todo or plan tool's list), written after the last text or command that
        mentions ``sig``, marks the item done (``True``) or not yet (``False``); ``None`` when no later plan
        names it. A plan rewritten after a commit that named the item keeps it open: the plan is the newer word."""
        since = self._last_mention.get(sig, (0, -1))[1]
        for index in range(len(self.said) - 1, since, -1):
            said = self.said[index]
            if said.role == "call" and isinstance(said.arguments, dict):
                status = _plan_entry_status(said.arguments, sig)
                if status is not None:
                    return status in _PLAN_DONE
        return None

    def _mentions(self, sig: "_Signature", index: int) -> bool:
        lowered = self._lowered[index]
        if sig.salient:
            found = sum(any(f in lowered for f in _path_forms(t)) for t in sig.salient)
            return found * 2 > len(sig.salient)  # most of them: one shared name does not make it the same work
        if len(sig.words) < 2:
            return False
        words = self._said_stems.get(index)
        if words is None:
            words = self._said_stems[index] = {w[:_STEM] for w in _WORD.findall(lowered)}
        found = {w[:_STEM] for w in sig.words if w[:_STEM] in words}
        if sum(w[:_STEM] in found for w in sig.words) < SUPPORT_WORDS * len(sig.words):
            return False
        return bool(self._rarest(sig) & found)

    def _rarest(self, sig: "_Signature") -> set[str]:
        """The stems of the item's words the fewest texts of the region hold (of those it holds at all): a
        commit "add prefunded-accounts test for devnet" names two of "smoke test with devnet"'s three words, but
        not the one that tells this item from the rest of the session's work."""
        counts = {w[:_STEM]: self.stem_counts[w[:_STEM]] for w in sig.words if self.stem_counts[w[:_STEM]]}
        if not counts:
            return {w[:_STEM] for w in sig.words}
        fewest = min(counts.values())
        return {stem for stem, count in counts.items() if count == fewest}


def _changes(said: _Said, sig: "_Signature") -> bool:
    """``said`` is a call that changes a file the item names: an edit after the commit that named the item is
    work on it since, not finished work."""
    if said.role != "call" or not sig.salient or not f"{said.tool}:".lower().startswith(CHANGING_TOOLS):
        return False
    target = said.target.lower()
    return any(_same_path(form, target) for token in sig.salient for form in _path_forms(token) if "." in form)


def _same_path(form: str, target: str) -> bool:
    return target == form or target.endswith("/" + form)


_PLAN_DONE = frozenset({"completed", "complete", "done", "finished"})
_PLAN_TEXT = ("content", "subject", "title", "description", "step", "text", "task")


def _plan_entry_status(arguments: dict, sig: "_Signature") -> str | None:
    """The status of the entry of a plan tool's list (``todos``, ``plan``, …: dicts with a ``status``) that
    names ``sig`` the way a mention does, lower-cased; ``None`` when no entry names it."""
    for value in arguments.values():
        if not isinstance(value, list):
            continue
        for entry in value:
            if not isinstance(entry, dict) or not isinstance(entry.get("status"), str):
                continue
            text = " ".join(str(entry[key]) for key in _PLAN_TEXT if isinstance(entry.get(key), str)).lower()
            if text and _mentioned_in(sig, text):
                return entry["status"].lower()
    return None


def _mentioned_in(sig: "_Signature", lowered: str) -> bool:
    """Most of the salient tokens of ``sig``, else most of its content words, are in ``lowered``."""
    if sig.salient:
        return sum(any(f in lowered for f in _path_forms(t)) for t in sig.salient) * 2 > len(sig.salient)
    stems = {w[:_STEM] for w in _WORD.findall(lowered)}
    return len(sig.words) >= 2 and sum(w[:_STEM] in stems for w in sig.words) >= SUPPORT_WORDS * len(sig.words)


def _path_forms(token: str) -> list[str]:
    """A path and its shorter tails (``/abs/repo/src/a.ts`` → ``repo/src/a.ts`` … ``a.ts``): one file, three
    spellings, found by any."""
    token = token.lower().strip("/\\")
    parts = re.split(r"[/\\]", token)
    # a bare last part with no extension (``.git/worktrees/2/index``'s ``index``) is a common word, no file name
    forms = [token] + [tail for tail in ("/".join(parts[i:]) for i in range(1, len(parts))) if "/" in tail or "." in tail]
    return [f for f in forms if len(f) >= 3] or [token]


# -- salient tokens -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Signature:
    salient: tuple[str, ...]
    words: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.salient or self.words)


@lru_cache(maxsize=4096)
def signature(text: str) -> _Signature:
    """The salient tokens (backticked spans, paths, identifiers) and content words of an item."""
    salient: list[str] = []
    for span in re.findall(r"`([^`]{2,120})`", text):
        salient.append(span.strip().rstrip("()"))
    plain = re.sub(r"`[^`]*`", " ", text)
    for token in _TOKEN.findall(plain):
        token = token.rstrip(".,:;-+()")
        if len(token) >= 3 and _is_salient(token):
            salient.append(token)
    words = [w for w in _WORD.findall(plain.lower()) if w not in _STOPWORDS]
    return _Signature(tuple(dict.fromkeys(salient)), tuple(dict.fromkeys(words)))


_SALIENT = re.compile(r"[/\\]|\w\.\w|[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]")


def _is_salient(token: str) -> bool:
    """Paths, dotted names, snake/camel case, hex colours, names with digits: what a summary cannot paraphrase."""
    if token.isdigit():
        return False
    return bool(_SALIENT.search(token) or "_" in token.strip("_") or token.startswith("#"))


def _supported(sig: _Signature, region: RegionIndex) -> bool:
    if sig.salient:
        found = sum(region.has_token(t) for t in sig.salient)
        if found < SUPPORT_SALIENT * len(sig.salient):
            return False
    if sig.words:
        # words around salient tokens are connective ("create … pointing to …"): half of them is enough
        wanted = SUPPORT_SALIENT if sig.salient else SUPPORT_WORDS
        found = sum(region.has_word(w) or _act_shown(w, sig, region) for w in sig.words)
        if found < wanted * len(sig.words):
            return False
    return True


_ACTS = {"moved": "moved", "renam": "moved", "delet": "deleted", "remov": "deleted"}
"""The word stems a summary states a file's fate with, and the act of a command (``mv``, ``rm``) that shows it."""


def _act_shown(word: str, sig: _Signature, region: RegionIndex) -> bool:
    """``word`` says a path of the item was moved or deleted, and a ``mv``/``rm`` of the region did it: "moved:
    `a`" is what ``git mv a b`` shows, in other words."""
    act = _ACTS.get(word[:_STEM])
    return act is not None and region.acted_on(act, sig.salient)


def _last_part(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


# -- labels -----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LabelItem:
    """One hand-labelled piece of state: what it is, the phrases that identify it, and (errors) its status."""

    text: str
    keys: tuple[str, ...]
    status: str | None = None
    """``open`` or ``resolved`` for an error; ``None`` otherwise."""

    def hits(self, text: str) -> int:
        """How many of the keys occur in ``text`` (case-insensitive, not inside a longer word)."""
        return sum(bool(_key_pattern(key).search(text)) for key in self.keys)


_UNSPACED = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
"""Kana, Han and Hangul: scripts that write a word against the next with no space ("倍速会議は", "원인은", "Resendの")."""
_SPACED_WORD = rf"[^\W{_UNSPACED}]"
"""A word character of a script that spaces its words: what a key must not run into."""


def _key_pattern(key: str) -> re.Pattern[str]:
    """A key as a whole word: not inside a longer word of a spaced script; next to kana, Han or Hangul, which write
    words and particles unspaced, it is whole at any edge."""
    before = rf"(?<!{_SPACED_WORD})" if re.match(_SPACED_WORD, key) else ""
    after = rf"(?!{_SPACED_WORD})" if re.search(_SPACED_WORD + "$", key) else ""
    return re.compile(before + re.escape(key) + after, re.IGNORECASE)


@dataclass(frozen=True)
class RegionLabels:
    """The hand-labelled state of a region (see ``sessions_fixtures/labels/README.md``)."""

    done: tuple[LabelItem, ...] = ()
    in_progress: tuple[LabelItem, ...] = ()
    next: tuple[LabelItem, ...] = ()
    errors: tuple[LabelItem, ...] = ()
    constraints: tuple[LabelItem, ...] = ()
    goal: str = ""
    first_kept_index: int | None = None
    """Where the region ends on the session's active path (the first entry kept)."""
    first_kept_text: str = ""
    source: dict = field(default_factory=dict, compare=False)
    """The JSON object the labels were read from."""

    @classmethod
    def from_json(cls, data: dict) -> "RegionLabels":
        def items(name: str) -> tuple[LabelItem, ...]:
            return tuple(LabelItem(str(i["text"]), tuple(i.get("keys") or ()), i.get("status"))
                         for i in data.get(name) or ())

        region = data.get("region") or {}
        goal = data.get("goal")
        return cls(
            done=items("done"), in_progress=items("in_progress"), next=items("next"), errors=items("errors"),
            constraints=items("constraints"), goal=goal.get("text", "") if isinstance(goal, dict) else str(goal or ""),
            first_kept_index=region.get("firstKeptIndex"), first_kept_text=region.get("firstKeptText", ""),
            source=data,
        )

    @classmethod
    def load(cls, path: str | Path) -> "RegionLabels":
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))

    def region_of(self, path: Sequence[dict]) -> list[dict]:
        """The entries of ``path`` (a session's active path) the labels describe; checks the cut is where the
        labels say it is."""
        end = self.first_kept_index
        if end is None or end > len(path):
            raise ValueError(f"labels cut at entry {end}, the path has {len(path)}")
        message = path[end].get("message") if end < len(path) else None
        text = _text(message.get("content")) if isinstance(message, dict) else ""
        if self.first_kept_text and not text.startswith(self.first_kept_text):
            raise ValueError(f"entry {end} does not start with {self.first_kept_text!r}: {text[:60]!r}")
        return list(path[:end])

    def status_of(self, text: str) -> str | None:
        """``done``, ``open`` or ``None``: the state of the labelled item ``text`` best matches (a tie goes to
        the open one), or ``None`` when it matches none."""
        best, state = 0, None
        for items, name in ((self.in_progress + self.next, "open"), (self.done, "done")):
            for item in items:
                hits = item.hits(text)
                if hits > best:
                    best, state = hits, name
        return state

    def error_of(self, text: str) -> LabelItem | None:
        scored = [(item.hits(text), item) for item in self.errors]
        best = max(scored, key=lambda pair: pair[0], default=(0, None))
        return best[1] if best[0] > 0 else None


# -- the score --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Quality:
    """What one summary got right about its region (or several, added up)."""

    items: int = 0
    """Items under Done / In Progress / Next Steps / Constraints that say something checkable."""
    supported: int = 0
    unsupported: tuple[str, ...] = ()
    open_items: int = 0
    """Items under In Progress / Next Steps that say something checkable."""
    stale: tuple[str, ...] = ()
    """Open items the region shows finished."""
    open_labels: int = 0
    """Labelled in-progress and next items (with labels only)."""
    open_named: int = 0
    """Those the summary names under In Progress or Next Steps (the real next step is named, or lost)."""
    errors: int = 0
    """Errors judged: those the summary mentions, plus open errors it leaves out."""
    errors_right: int = 0
    error_mistakes: tuple[str, ...] = ()
    summary_chars: int = 0
    region_chars: int = 0
    summary_tokens: int = 0
    region_tokens: int = 0
    labelled: int = 0
    """How many of the scored summaries were judged against hand labels (the rest by heuristics)."""
    count: int = 1
    """How many summaries these figures add up."""
    faults: tuple[str, ...] = ()
    """The summaries' faults of the classes :mod:`.faults` checks (a declined call as an error, a stale goal, …)."""
    recall_sum: float = 0.0
    """The sum of the summaries' recalls (:mod:`.recall`): the weighted share of what the region shows a
    continuing agent needs that each summary holds."""
    recalled: int = 0
    """How many summaries had something to recall."""
    missing: tuple[str, ...] = ()
    """The needs a summary holds less than half of, most important first."""
    wrong: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each summary item found wrong (stale, an error's wrong status, a fault), once, with the classes it shows:
    one bad line that fails two checks is one wrong item (:func:`.faults.wrong_items`)."""

    @property
    def faulty(self) -> int:
        """The wrong items that show a fault: each costs :data:`~.faults.FAULT_COST` once, whatever else it shows."""
        return sum(any(kind not in JUDGED for kind in kinds) for _, kinds in self.wrong)

    def _paid(self, kind: str) -> int:
        """The findings of ``kind`` (stale, error status) on items a fault already costs: not counted again."""
        return sum(kinds.count(kind) for _, kinds in self.wrong if any(k not in JUDGED for k in kinds))

    @property
    def precision(self) -> float | None:
        return self.supported / self.items if self.items else None

    @property
    def staleness(self) -> float | None:
        """Share of the open items that are in fact finished (0 is right); an item a fault already costs is left
        out (it is counted wrong once)."""
        paid = self._paid(STALE)
        return (len(self.stale) - paid) / (self.open_items - paid) if self.open_items > paid else None

    @property
    def open_recall(self) -> float | None:
        """Share of the labelled in-progress and next items the summary names as open."""
        return self.open_named / self.open_labels if self.open_labels else None

    @property
    def error_accuracy(self) -> float | None:
        """Share of the judged errors given the right status; an item a fault already costs is left out (it is
        counted wrong once)."""
        paid = self._paid(ERROR_STATUS)
        return self.errors_right / (self.errors - paid) if self.errors > paid else None

    @property
    def recall(self) -> float | None:
        """The mean recall of the summaries that had something to recall."""
        return self.recall_sum / self.recalled if self.recalled else None

    @property
    def correctness(self) -> float:
        """The mean of precision, freshness (1 − staleness), error accuracy and open recall (those there is
        something to judge for): is what the summary says true? 1 when it says nothing checkable."""
        parts = [value for value in (self.precision, None if self.staleness is None else 1 - self.staleness,
                                     self.error_accuracy, self.open_recall) if value is not None]
        return sum(parts) / len(parts) if parts else 1.0

    @property
    def score(self) -> float:
        """One figure in [0, 1]: :data:`RECALL_WEIGHT` × :attr:`recall` (does it hold what the next agent needs?)
        plus the rest × :attr:`correctness` (is what it says true?), less :data:`~.faults.FAULT_COST` per fault
        per summary item with a fault (however many it shows). Only a summary that holds everything, says nothing
        wrong and has no fault scores 1."""
        held = self.recall
        base = self.correctness if held is None else RECALL_WEIGHT * held + (1 - RECALL_WEIGHT) * self.correctness
        return max(0.0, base - FAULT_COST * self.faulty / max(1, self.count))

    @property
    def char_ratio(self) -> float | None:
        return self.summary_chars / self.region_chars if self.region_chars else None

    @property
    def token_ratio(self) -> float | None:
        return self.summary_tokens / self.region_tokens if self.region_tokens else None

    def __add__(self, other: "Quality") -> "Quality":
        return Quality(
            self.items + other.items, self.supported + other.supported, self.unsupported + other.unsupported,
            self.open_items + other.open_items, self.stale + other.stale, self.open_labels + other.open_labels,
            self.open_named + other.open_named, self.errors + other.errors,
            self.errors_right + other.errors_right, self.error_mistakes + other.error_mistakes,
            self.summary_chars + other.summary_chars, self.region_chars + other.region_chars,
            self.summary_tokens + other.summary_tokens, self.region_tokens + other.region_tokens,
            self.labelled + other.labelled, self.count + other.count, self.faults + other.faults,
            self.recall_sum + other.recall_sum, self.recalled + other.recalled, self.missing + other.missing,
            self.wrong + other.wrong,
        )

    def to_json(self) -> dict:
        return {
            "precision": self.precision, "items": self.items, "supported": self.supported,
            "unsupported": list(self.unsupported),
            "staleness": self.staleness, "openItems": self.open_items, "stale": list(self.stale),
            "openRecall": self.open_recall, "openLabels": self.open_labels, "openNamed": self.open_named,
            "errorAccuracy": self.error_accuracy, "errors": self.errors, "errorsRight": self.errors_right,
            "errorMistakes": list(self.error_mistakes),
            "summaryChars": self.summary_chars, "regionChars": self.region_chars, "charRatio": self.char_ratio,
            "summaryTokens": self.summary_tokens, "regionTokens": self.region_tokens, "tokenRatio": self.token_ratio,
            "labelled": self.labelled, "summaries": self.count, "faults": list(self.faults),
            "recall": self.recall, "missing": list(self.missing), "score": self.score,
            "wrong": [{"item": item, "classes": list(kinds)} for item, kinds in self.wrong],
        }


STALE = "stale"
ERROR_STATUS = "error status"
JUDGED = frozenset({STALE, ERROR_STATUS})
"""The classes of wrong item :attr:`Quality.correctness` judges (as shares); the others are faults."""

NO_QUALITY = Quality(count=0)
"""The sum of no scores (the start of a sum)."""


def score_quality(region: Iterable[Any] | RegionIndex, summary: str, labels: RegionLabels | None = None) -> Quality:
    """Score ``summary`` against ``region`` (entries or messages, or a :class:`RegionIndex` of them), by
    ``labels`` when given; see the module docstring."""
    area = region if isinstance(region, RegionIndex) else RegionIndex(region)
    items = summary_items(summary)
    checked = [(item, signature(item.text)) for item in items if item.section in SCORED_SECTIONS]
    checked = [(item, sig) for item, sig in checked
               if sig and not WAITING.search(item.text) and not _ADDRESSED.search(item.text)]
    unsupported = tuple(item.text for item, sig in checked if not _supported(sig, area))
    open_items = [(item, sig) for item, sig in checked if item.section in OPEN_SECTIONS]
    stale = tuple(item.text for item, sig in open_items
                  if _is_stale(item, sig, area, labels) and not asked_last(area.said, item.text))
    judged, mistakes, mistaken = _judge_errors(items, area, labels)
    wanted = (labels.in_progress + labels.next) if labels is not None else ()
    named = sum(any(label.hits(item.text) for item, _ in open_items) for label in wanted)
    held = recall(area.needs.needs(_open_error_texts(area)), summary)
    faults = summary_faults(area.recent, summary, labels)
    return Quality(
        items=len(checked), supported=len(checked) - len(unsupported), unsupported=unsupported,
        open_items=len(open_items), stale=stale, open_labels=len(wanted), open_named=named, errors=judged, errors_right=judged - len(mistakes),
        error_mistakes=mistakes, summary_chars=len(summary), region_chars=area.chars,
        summary_tokens=text_tokens(summary), region_tokens=area.tokens, labelled=int(labels is not None),
        faults=tuple(fault.text for fault in faults),
        recall_sum=held.value or 0.0, recalled=int(held.value is not None), missing=held.missing,
        wrong=wrong_items([(STALE, text, (item_key(text),)) for text in stale]
                          + [(ERROR_STATUS, text, (item_key(text),)) for text in mistaken]
                          + [(fault.kind, fault.text, fault.keys) for fault in faults]),
    )


def _open_error_texts(area: RegionIndex) -> list[str]:
    """The open failures of the region, each as the lines of its output that name an error (the failing test,
    the file and line), else its first line, then its call."""
    texts = []
    for failure in area.errors.failures()[-RECENT_ERRORS:]:
        if not failure.resolved:
            lines = [line.strip()[:200] for line in failure.text[:3000].splitlines() if line.strip()]
            named = [line for line in lines if _ERROR_MENTION.search(line)][:3] or lines[:1]
            texts.append("\n".join(named + [failure.target.split(":", 1)[-1][:200]]))
    return texts


RECENT_ERRORS = 8
"""The failures weighed for recall: the latest (older ones are settled or forgotten)."""


# -- summaries at given cuts ----------------------------------------------------------------------------------------


def summaries_at(path: Sequence[dict], cuts: Sequence[int], *, summarizer: Any = None, settings: Any = None,
                 cwd: str | None = None) -> list[str]:
    """The summaries pi-compact's pipeline stores when it compacts ``path`` (a session's active path) exactly at
    each of ``cuts`` in turn (indexes of first kept entries, each a user message), each one updating the last.

    The path is copied into an in-memory session up to each cut (its own compactions left out) and compacted
    with no window (so nothing is truncated) and the smallest kept tail, so the cut is the one given. With the
    default ``summarizer`` (offline) this is the default summary of those regions, ready to be scored.
    """
    from ..session import Session
    from ..compaction.compactor import compact
    from ..compaction.settings import CompactionSettings

    settings = (settings or CompactionSettings()).replace(keep_recent_tokens=1)
    session = Session.in_memory(cwd)
    summaries: list[str] = []
    copied = 0
    for cut in cuts:
        for entry in path[copied:cut + 1]:
            if entry.get("type") in ("compaction", "session"):
                continue
            fields = {k: v for k, v in entry.items() if k not in ("type", "id", "parentId", "timestamp")}
            session.append(entry["type"], fields, entry_id=entry.get("id") if entry.get("id") not in session else None)
        copied = cut + 1
        result = compact(session, settings=settings, summarizer=summarizer)
        kept = result.entry.get("firstKeptEntryId") if result.entry is not None else None
        # the kept region may start at settings entries (model, thinking level) just before the cut
        start = next((i for i in range(cut, -1, -1) if path[i].get("id") == kept), None)
        if start is None or any(e.get("type") == "message" for e in path[start:cut]):
            raise ValueError(f"the compaction kept from {kept!r}, not from entry {cut} ({path[cut].get('id')!r})")
        summaries.append(result.summary)
    return summaries


# -- staleness --------------------------------------------------------------------------------------------------------


def _is_stale(item: SummaryItem, sig: _Signature, region: RegionIndex, labels: RegionLabels | None) -> bool:
    if labels is not None:  # the labels are the truth: an item they do not know is not judged stale
        return labels.status_of(item.text) == "done"
    return _finished_in_region(item.text, sig, region)


def _finished_in_region(text: str, sig: _Signature, region: RegionIndex) -> bool:
    """The heuristic: the last user/assistant text or command that mentions the item reports it finished (a
    sentence of an assistant text that names the item beside a completion word, or a ``git commit``), unless
    the agent's plan, written after it, still lists the item as not done."""
    said = region.last_mention(sig)
    if said is None:
        return False
    planned = region.plan_status(sig)
    if planned is not None:
        return planned
    if said.role == "command":
        return _is_git_commit(said.text)
    return said.role == "assistant" and _reports_done(text, sig, said.text)


def _reports_done(text: str, sig: _Signature, said: str) -> bool:
    """A sentence of ``said`` names the item and a completion word that is not the item's own ("update the
    `Created` flag" finishes nothing); code blocks and other sentences ("TASK-002 complete. Now TASK-003") are
    no report on it."""
    own = {word.lower() for word in _COMPLETION.findall(text)}
    for sentence in _sentences(_FENCED.sub(" ", said)):
        if _INTENT.match(sentence):
            continue
        sentence = _LOOKING.sub(" ", sentence)
        lowered = sentence.lower()
        if _names(sig, lowered) and any(word.lower() not in own for word in _COMPLETION.findall(sentence)):
            return True
    return False


_FENCED = re.compile(r"```[^`]*```")
_INTENT = re.compile(r"\W*(?:(?:now|first|next|then|so|ok(?:ay)?|great|good|alright),?\s+)?(?:let me|let'?s|i'?ll"
                     r"|i will|i'?m going to|i am going to|i need to|i should|i want to|we need to|we'?ll)\b", re.I)
"""A sentence of intent ("Let me first read view.go to see what's been done"): what the agent will do next,
no report of what it did, whatever completion word it holds."""
_LOOKING = re.compile(r"\b(?:to (?:see|check|verify|confirm|find out|understand|learn)|whether)\b[^.;:!?\n]*", re.I)
"""A clause asking what the state is ("… to see what is already done", "whether it is finished"): a question,
not an answer."""
_SENTENCE_END = re.compile(r"[.!?;](?:\s|$)|\n")


def _sentences(text: str) -> list[str]:
    return [piece for piece in _SENTENCE_END.split(text) if piece.strip()]


def _names(sig: _Signature, lowered: str) -> bool:
    """One of the item's salient tokens, else two of its content words (all, when it has fewer), are in
    ``lowered``: a sentence that names the item."""
    if sig.salient:
        return any(form in lowered for token in sig.salient for form in _path_forms(token))
    stems = {word[:_STEM] for word in _WORD.findall(lowered)}
    return sum(word[:_STEM] in stems for word in sig.words) >= min(2, len(sig.words))


def _is_git_commit(command: str) -> bool:
    """A ``git … commit`` within one simple command (not across ``|``, ``;``, ``&``). Each piece is searched
    once: as one pattern, ``git[^|;&]*commit`` ran to the end of the piece from every ``git`` in it."""
    for piece in _COMMAND_SEPARATOR.split(command):
        git = _GIT.search(piece)
        if git and _COMMIT.search(piece, git.end()):
            return True
    return False


# -- errors -----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Failure:
    target: str
    text: str
    resolved: bool
    edited: bool = False
    """Settled only because a file its output names was changed afterwards, with no rerun since: the agent acted
    on it, but whether it is fixed the region does not show."""


def _failures(region: RegionIndex) -> list[_Failure]:
    """Failed tool results, each resolved when it was aborted by the user or a later call of the same command
    (or on the same path) succeeded."""
    return region.errors.failures()


class _ErrorIndex:
    """The failed results of a region and what later results settle them, kept as the region grows: the last
    success of each command head and the files changed since each failure, so no failure is compared with
    every later command (which made scoring quadratic in the region)."""

    def __init__(self) -> None:
        self.results = 0
        self._last_success: dict[str, int] = {}
        self._changes: list[tuple[int, str]] = []
        """(result number, file name) of each successful change of a file."""
        self._open: list[list] = []
        """Per failure: [result number, said, head, settled by itself, next change to look at, names looked at,
        settled by a change of a file it names]."""
        self.haystacks = PieceFinder()
        """Per failure, the lower-cased text an error mention is matched against."""
        self._by_path: dict[str, list[tuple[str, list]]] = {}
        """(path, failure) by the last part of each path a failure meant to remove or put in place."""
        self._by_retry: dict[str, list[list]] = {}
        """Failures by what a retry of them runs again (:func:`.settling.failure_key`): a retry the user stops
        settles them."""
        self._watched: list = []
        """The latest failure and how many of the agent's texts after it may still say it goes another way."""
        self._awaiting: dict[str, list[list]] = {}
        """Failures by the program they found missing (only a run of it settles them)."""

    def add(self, said: _Said) -> None:
        if said.role == "user" and said.text.lstrip().startswith("[Request interrupted") and self._open \
                and self._open[-1][0] == self.results - 1:
            self._stopped(self._open[-1])  # the user stopped the call that had just failed
        if said.role == "assistant" and self._watched:
            self._read_after_failure(said.text)
        if said.role != "result":
            return
        number = self.results
        self.results += 1
        if said.failed:
            self._failed(number, said)
            self._watched = [self._open[-1], SWITCH_WINDOW]
            return
        for head in _chain_heads(said.target) | ({f"tool:{said.tool}"} if said.tool else set()):
            self._last_success[head] = number
        self._settle_by_success(said)
        if said.target.lower().startswith(CHANGING_TOOLS):  # Claude Code's tools are "Edit", "Write"
            name = said.target.split(":", 1)[1].rstrip("/").rsplit("/", 1)[-1]
            if len(name) >= 4 and "." in name:
                self._changes.append((number, name))

    def _failed(self, number: int, said: _Said) -> None:
        # a file or task tool's failure ("file not read yet", "no such task") is settled by its next success
        head = f"tool:{said.tool}" if said.tool else _command_head(said.target)
        command = "" if said.tool else command_of(said.target)
        missing = missing_program(said.text, command) if command else None
        aborted = bool(_ABORTED.search(said.text[:200]))
        # a program found missing is not settled by a look nor by the success of the command's other parts
        settled = aborted or not said.text.strip() or (missing is None and _INSPECTION.match(head) is not None)
        state = [number, said, "" if missing else head, settled, len(self._changes), set(), False]
        self._open.append(state)
        self.haystacks.append((said.target + "\n" + said.text[:600]).lower())
        if aborted and command:
            self._retry_stopped(command)  # the user declined a retry: what it retried is history
        if command:
            self._by_retry.setdefault(failure_key(command, missing), []).append(state)
        if missing:
            self._awaiting.setdefault(missing, []).append(state)
        for path in acted_paths(said.target, said.tool):
            self._by_path.setdefault(last_part(path), []).append((path, state))

    def _read_after_failure(self, text: str) -> None:
        """The agent's words after the latest failure: one that says it goes another way ("…, so let me write the
        plan manually", "use the built-in parser instead") leaves the failed way behind, as history."""
        state, left = self._watched
        if any(_SWITCH.search(sentence) and _WILL.search(sentence) for sentence in _sentences(text[-2000:])) \
                and not _STILL_OPEN.search(text[-2000:]):
            state[3] = True
        self._watched = [state, left - 1] if left > 1 else []

    def _stopped(self, state: list) -> None:
        """The user stopped the failed call ``state``: it and the earlier failures it retried are history."""
        state[3] = True
        if not state[1].tool:
            self._retry_stopped(command_of(state[1].target))

    def _retry_stopped(self, command: str) -> None:
        for key in retry_keys(command):
            for earlier in self._by_retry.pop(key, ()):
                earlier[3] = True

    def _settle_by_success(self, said: _Said) -> None:
        """A success that does what a failure meant to (the same path removed or put in place another way) or runs
        the program a failure found missing settles it."""
        for path in acted_paths(said.target, said.tool):
            meant = self._by_path.get(last_part(path))
            for pair in [pair for pair in meant or () if same_path(path, pair[0])]:
                pair[1][3] = True
                meant.remove(pair)
        if self._awaiting and not said.tool:
            for program in programs(command_of(said.target)):
                for state in self._awaiting.pop(program.lower(), ()):
                    state[3] = True

    def failures(self) -> list[_Failure]:
        return [_Failure(state[1].target, state[1].text, self._resolved(state), state[6]) for state in self._open]

    def _resolved(self, state: list) -> bool:
        number, said, head, settled = state[:4]
        if head and self._last_success.get(head, -1) > number:
            state[6] = False  # rerun and passed: settled for sure
            return True
        if settled:
            return True
        # a file the error output names (``chat-simple.ts(28,2): error TS2739``) was changed afterwards: the
        # agent acted on the error, which the region treats as settled unless it fails again
        text, looked = said.text[:2000], state[5]
        for _, name in self._changes[state[4]:]:
            if name not in looked:
                looked.add(name)
                if name in text:
                    state[3] = state[6] = True
                    return True
        state[4] = len(self._changes)
        return False


SWITCH_WINDOW = 3
"""The agent's texts after a failure read for a change of way: later ones are about other work."""
_SWITCH = re.compile(r"\b(?:instead\b(?! of)|manually|another (?:way|approach)|(?:a )?different approach)", re.I)
_WILL = re.compile(r"\b(?:let me|let'?s|i'?ll|i will|i should|i need to|i'?m going to)\b", re.I)
"""A sentence that says what the agent will do, with a word that leaves one way for another ("Let me use the CLI
instead", "I'll write the plan manually"); "… instead of X", "rather than", "fall back to" describe code."""
_INSPECTION = re.compile(r"(?:bash:)?(?:cd [^&;|]+&&\s*)?"
                         r"(?:grep|rg|find|ls|cat|head|tail|wc|which|test|stat|diff|cmp)\b", re.I)  # Claude's "Bash"
"""A look that found nothing (grep's exit 1, no such file) or found differences (diff's exit 1) is not an error
left open."""




def _chain_heads(target: str) -> set[str]:
    """The heads of a command and of every command in its ``&&`` chain (``ruff check . && pytest`` succeeding
    means ``ruff check .`` did)."""
    head, colon, rest = target.partition(":")
    # the tool's name before the command, in any agent's spelling ("bash:", "Bash:", "exec_command:")
    prefix, command = (head, rest) if colon and " " not in head and is_shell_tool(head) else ("", target)
    parts = command.split("&&") if "&&" in command else [command]
    return {_command_head(target)} | {_command_head(f"{prefix}:{part.strip()}" if prefix else part) for part in parts}


def _command_head(target: str) -> str:
    """A command without what only shapes its output (``2>&1 | tail -5``): the same check run again."""
    return re.sub(r"\s+", " ", target.split("|", 1)[0].replace("2>&1", "")).strip()


def _judge_errors(items: Sequence[SummaryItem], region: RegionIndex,
                  labels: RegionLabels | None) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """How many errors were judged, the mistakes (an error given the wrong status, or an open one left out) and
    the summary items given the wrong status."""
    failures = _failures(region)
    judged, mistakes, mistaken = 0, [], []
    mentioned_labels: set[int] = set()
    mentioned_failures: set[int] = set()
    for item in items:
        if not _claims_error(item.text):
            continue
        if item.text.startswith(">") or item.section == "decisions":
            # a quoted line or a decision claims no status, but may tell the failure as history
            _true_status(item.text, failures, region.errors.haystacks, labels, mentioned_labels, mentioned_failures)
            continue
        said_open = bool(_STILL_OPEN.search(item.text)) or (
            item.section not in ("done", "fixes") and not _RESOLVED_MENTION.search(item.text))
        truth = _true_status(item.text, failures, region.errors.haystacks, labels, mentioned_labels,
                             mentioned_failures)
        if truth is None:
            continue
        judged += 1
        if said_open != (truth == "open"):
            mistakes.append(f"{'open' if said_open else 'resolved'} but {truth}: {item.text}")
            mistaken.append(item.text)
    for missed in _open_errors_left_out(failures, labels, mentioned_labels, mentioned_failures):
        judged += 1
        mistakes.append(f"open but not mentioned: {missed}")
    return judged, tuple(mistakes), tuple(mistaken)


def _true_status(text: str, failures: list[_Failure], haystacks: PieceFinder, labels: RegionLabels | None,
                 seen_labels: set[int], seen_failures: set[int]) -> str | None:
    if labels is not None:
        label = labels.error_of(text)
        if label is not None:
            seen_labels.add(labels.errors.index(label))
            return "open" if label.status == "open" else "resolved"
    sig = signature(text)
    # the error as it stands: its latest failure (an earlier one of the same name was often settled by a rerun)
    # that holds most of the names the summary gives it: one shared name (the product's, "ClickHouse") does
    # not make an unrelated failure the same error
    lasts = {haystacks.last(f) for t in sig.salient for f in _path_forms(t)} - {None}
    index = next((i for i in sorted(lasts, reverse=True)
                  if _holds_most(haystacks.pieces[i], sig.salient)), None)
    if index is None:
        return None
    seen_failures.add(index)
    if failures[index].edited:  # being fixed, not rerun: "open" and "resolved" are both fair, neither is judged
        return None
    return "resolved" if failures[index].resolved else "open"


def _holds_most(haystack: str, names: Sequence[str]) -> bool:
    held = sum(any(form in haystack for form in _path_forms(name)) for name in names)
    return held * 2 > len(names)


def _claims_error(text: str) -> bool:
    """``text`` reports an error, once what only describes code is left out: a condition ("use X when Y
    fails", "if the fetch errors, retry") and a backticked file or identifier (`plugin-error.ts`)."""
    return bool(_ERROR_MENTION.search(_CONDITION.sub(" ", _CODE_NAME.sub(" ", text))))


_CONDITION = re.compile(r"\b(?:when|whenever|if|unless|in case|on)\b[^.,;:!?\n]*", re.IGNORECASE)
_CODE_NAME = re.compile(r"`[^`\s./_-]*[./_-][^`\s]*`")
"""The part before the first separator cannot hold one, so an unclosed span backtracks once, not per dot."""


def _open_errors_left_out(failures: list[_Failure], labels: RegionLabels | None, seen_labels: set[int],
                          seen_failures: set[int]) -> list[str]:
    if labels is not None:
        return [e.text for i, e in enumerate(labels.errors) if e.status == "open" and i not in seen_labels]
    return [f"{f.target}: {f.text.strip().splitlines()[0][:120] if f.text.strip() else ''}"
            for i, f in enumerate(failures) if not f.resolved and i not in seen_failures]


__all__ = [
    "NO_QUALITY",
    "RegionIndex",
    "OPEN_SECTIONS",
    "SCORED_SECTIONS",
    "LabelItem",
    "Quality",
    "RegionLabels",
    "SummaryItem",
    "region_messages",
    "score_quality",
    "section_of",
    "signature",
    "summaries_at",
    "summary_items",
]
