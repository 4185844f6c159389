"""What a sub-agent reported back at the region's end, before the agent acted on it.

An agent hands a review, a search or a validation to a sub-agent (Claude Code's ``Task`` / ``Agent``, another
harness's ``spawn_agent``) and gets its findings back as the tool's result: "Verdict: REQUEST CHANGES", "Finding 1:
missing bounds check …", "Task 1 is complete". When the region ends on that result, or the agent only looked at
things since, the findings are the state of the work: what is still to fix, what the agent was about to use. They
are in no answer of the agent's, no changed file and no user request, so a summary built from those loses them.
:func:`open_reports` finds such results after the latest request; :func:`report_gist` says one in a few lines: its
verdict, then the titles of its findings (headings and bold titles; a section heading over titled items is left
out, the items say more), else its opening sentences.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ...accessors import content_text
from .facts import EDIT_TOOLS, WRITE_TOOLS, Attempt, is_shell_tool, message_dicts, shell_command, tool_path
from .goal import user_requests
from .outcome import refusal, stopped
from .shell import shell_effects
from .text import clip_words, sentences

SUBAGENT_TOOL = re.compile(r"^(?:task|agent|sub_?agent|spawn_?agent|dispatch_?agent|delegate(?:_?task)?|run_?agent)$",
                            re.I)
"""A tool that hands work to a sub-agent (``TaskCreate``, ``TaskUpdate`` keep a task list: not these)."""
_SUBAGENT_KEYS = ("subagent_type", "agent_type")
"""Arguments that name the kind of sub-agent: the call starts one whatever the tool is named."""
_TITLE_KEYS = ("description", "title", "task", "name")
_TRAILER = re.compile(r"\bagent_?id:\s{0,3}[\w-]{4,64}|<usage>", re.I)
"""Where the harness's note on the sub-agent run starts (its id to resume it, its token usage): not the report."""
_TRAILER_ZONE = 1_500
_SUBSTANTIVE = 200
"""A result shorter than this says the sub-agent was launched, not what it found."""
_RELAYED = 300
"""Agent's words after the report at least this long pass it on (the last answer quotes them)."""
_HEADING = re.compile(r"^(#{1,6})[ \t]+(\S.{0,300})")
_BOLD = re.compile(r"^[ \t]?(?:(?:[-*+•]|\d{1,3}[.)])[ \t]+)?\*\*([^*\n]{2,200})\*\*(.{0,400})")
"""A line that opens with a bold title (``**Finding 1: …**``, ``- **`parse()`:** returns …``), at the top level."""
_VERDICT = re.compile(r"^\W{0,4}(?:final |overall )?(?:verdict|conclusion|recommendation|assessment|bottom line|answer"
                      r"|tl;?dr|result|outcome|status|summary)s?\W{0,3}(?::|—|–|-|$)", re.I)
"""A title that gives the report's verdict ("### Verdict: REQUEST CHANGES", "## Summary")."""
_EXCLAIMING = re.compile(r"^\W{0,3}\w{1,20}\W{0,3}(?:\w{1,20}\W{0,3})?!$")
"""A word or two and "!" ("Perfect!", "Great news!"): the sub-agent's mood, no finding."""
_VERDICT_FIRM = re.compile(r"^\W{0,4}(?:final |overall )?verdict\b", re.I)
"""A title that says "Verdict": no later "Summary" or "Result" replaces it."""
_ANNOUNCING = re.compile(r"^\W{0,3}(?:(?:perfect|great|excellent|good|ok(?:ay)?|now|alright)\b\W{0,3})*"
                         r"(?:let me|i(?:'ll| will| now have| have (?:all|enough|a (?:complete|full|clear)))"
                         r"|based on (?:my|the|this)(?: \w+){0,3} (?:review|analysis|exploration|research|investigation))\b", re.I)
"""A sentence about the sub-agent's own work ("Now I have a complete picture. Let me compile all findings.")."""
_REPORTS = 2
_REVIEWS = 2
_FINDINGS = 12
"""A review's findings weighed, in its order (the gravest come first)."""
_PROSE = (".md", ".markdown", ".rst", ".txt", ".adoc")
"""Files of prose: a document that describes a function takes up no finding about it."""
_OLD_KEYS = frozenset({"old_string", "oldText", "old_str", "old_text"})
_REVIEW_LABEL = "Open findings of a sub-agent review"
_CHANGES_ASKED = re.compile(r"\b(?:request(?:s|ed)?[ _]changes|changes? (?:requested|needed|required)|needs? (?:work"
                            r"|changes|fixes)|must[ -]fix|not ready|do not merge)\b", re.I)
"""A verdict that asks for changes ("Verdict: REQUEST CHANGES", "Needs work"), not one that approves."""
_WORD = re.compile(r"[\w.]{3,80}")
_SUMMARY_TAG = re.compile(r"<summary>([^<\n]{1,200})</summary>")
_QUOTED = re.compile(r"[\"“]([^\"”\n]{3,120})[\"”]")
_GIST_CHARS = 400
_VERDICT_CHARS = 260
_TITLE_CHARS = 120
_REASON_LINES = 6
_SHORT_VERDICT = 60
"""A verdict this short ("Verdict: REQUEST CHANGES") comes with the first sentence under it (why)."""


@dataclass(frozen=True)
class Report:
    title: str
    """What the sub-agent was asked, by the call's description (``"Code review of diff"``)."""
    gist: str
    """:func:`report_gist` of the result."""
    last: bool
    """Nothing the agent said came after it: the region ends on the report (the agent's last words are older)."""


def open_reports(messages: Any, attempts: tuple[Attempt, ...]) -> tuple[Report, ...]:
    """The sub-agents' reports after the latest user request that the agent neither acted on (no file changed
    after them) nor passed on in words, the last :data:`_REPORTS`."""
    listed = list(message_dicts(messages))
    since = max((index for index, _ in user_requests(listed)), default=-1)
    last_change = max((a.index for a in attempts if a.index > since and _changes(a)), default=-1)
    words = _agent_words(listed)
    last_words = max(words, default=-1)
    last_relay = max((index for index, length in words.items() if length >= _RELAYED), default=-1)
    found = []
    for index, call, text in _results(listed, since):
        body = without_trailer(text)
        if len(body) < _SUBSTANTIVE or refusal(text) or stopped(text) or last_change > index or last_relay > index:
            continue
        gist = report_gist(body)
        if gist:
            found.append(Report(_title(call), gist, last_words < index))
    return tuple(found[-_REPORTS:])


def unaddressed_reviews(messages: Any) -> tuple[str, ...]:
    """The findings of sub-agent reviews before the latest request whose verdict asks for changes
    (:data:`_CHANGES_ASKED`) and that no later change took up: each finding that names code (a backticked name)
    none of whose names any later file change holds. One line per review, the last :data:`_REVIEWS`."""
    listed = list(message_dicts(messages))
    since = max((index for index, _ in user_requests(listed)), default=-1)
    reviews = []
    for index, call, text in [*_results(listed, -1), *_notifications(listed)]:
        verdict, titles = _read(without_trailer(text)) if index < since else ("", [])
        if verdict and _CHANGES_ASKED.search(verdict) and titles:
            reviews.append((index, _title(call), verdict, titles))
    found = []
    for index, title, verdict, titles in sorted(reviews, key=lambda review: review[0])[-_REVIEWS:]:
        added, removed = _changed_after(listed, index)
        still = [clip_words(text, _TITLE_CHARS) for text in titles[:_FINDINGS] if _code_names(text) and not any(
            added.count(name) > removed.count(name) for name in _code_names(text))]
        if still:
            found.append(clip_words(f"{_REVIEW_LABEL} (“{title}”, {verdict}) not taken up since: {'; '.join(still)}",
                                    _GIST_CHARS))
    return tuple(found)


def _code_names(text: str) -> list[str]:
    """The names in ``text`` that are code: ``snake_case``, ``camelCase``/``PascalCase`` with a capital inside."""
    return [word.strip(".") for word in _WORD.findall(text) if "_" in word.strip("_.") or any(
        lower.islower() and upper.isupper() for lower, upper in zip(word, word[1:]))]


def _notifications(messages: list[dict]) -> list[tuple[int, dict, str]]:
    """``(index, pseudo-call, result)`` of the sub-agents' results that the harness handed in as messages of their
    own (a background agent's ``<task-notification>`` with its ``<summary>`` and ``<result>``)."""
    found = []
    for index, message in enumerate(messages):
        text = content_text(message.get("content")) if message.get("role") in ("user", "custom") else ""
        start, end = text.find("<result>"), text.rfind("</result>")
        if start < 0 or end < start or not text.lstrip().startswith("<"):
            continue
        summary = _SUMMARY_TAG.search(text[:start])
        said = summary.group(1).strip() if summary else ""
        quoted = _QUOTED.search(said)  # 'Agent "Review test coverage" completed': the agent's task
        call = {"name": "sub-agent", "arguments": {"description": quoted.group(1) if quoted else said}}
        found.append((index, call, text[start + len("<result>") : end]))
    return found


def _changed_after(messages: list[dict], index: int) -> tuple[str, str]:
    """``(text added, text replaced)`` by the file changes after ``index``: a finding is taken up where a change
    brings its name in (a test that calls it, a check on it), not where an edit only passes by it."""
    added, removed = [], []
    for message in messages[index + 1 :]:
        blocks = message.get("content") if message.get("role") == "assistant" else None
        for block in blocks if isinstance(blocks, list) else ():
            arguments = block.get("arguments") if isinstance(block, dict) and block.get("type") == "toolCall" else None
            if isinstance(arguments, dict) and _changes_files(block) and not tool_path(arguments).endswith(_PROSE):
                added += [text for key, text in arguments.items() if key not in _OLD_KEYS and isinstance(text, str)]
                removed += [text for key, text in arguments.items() if key in _OLD_KEYS and isinstance(text, str)]
                for edit in arguments.get("edits") if isinstance(arguments.get("edits"), list) else ():
                    if isinstance(edit, dict):  # a multi-edit's parts
                        added += [str(text) for key, text in edit.items() if key not in _OLD_KEYS]
                        removed += [str(text) for key, text in edit.items() if key in _OLD_KEYS]
    return "\n".join(added), "\n".join(removed)


def _changes_files(block: dict) -> bool:
    """A call that writes or edits a file (a search or a test run naming a finding does not take it up)."""
    name = str(block.get("name") or "").lower()
    if name in WRITE_TOOLS | EDIT_TOOLS:
        return True
    command = shell_command(name, block.get("arguments"))
    return is_shell_tool(name) and bool(command) and bool(shell_effects(command).writes)


def report_gist(report: str) -> str:
    """The report in brief (see the module docstring), at most :data:`_GIST_CHARS` characters."""
    verdict, kept = _read(report)
    parts = ([verdict] if verdict else []) + [clip_words(text, _TITLE_CHARS) for text in kept]
    if parts:
        return clip_words(_listed(dict.fromkeys(parts)), _GIST_CHARS)
    lines = report.splitlines()
    said = [s for s in sentences(" ".join(lines[:40])) if not _ANNOUNCING.match(s) and not _EXCLAIMING.match(s)]
    return clip_words(_listed(said[:3]), _GIST_CHARS)  # a plain report: its first sentences that say something


def _listed(parts: Iterable[str]) -> str:
    """Parts joined by semicolons, each without its own closing stop ("… before release; Issue 1: …", not ".;")."""
    return "; ".join(part.rstrip(".;: ") for part in parts)


def _read(report: str) -> tuple[str, list[str]]:
    """The report's verdict (with its reason when short) and the titles of its findings."""
    lines = report.splitlines()
    verdict, titles = "", []  # titles: (heading level, or 9 for a bold title; the title; its bold part)
    fenced = False
    for number, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or not line.strip():
            continue
        title = _line_title(line)
        said = title[1] if title else _plain(line.lstrip(" \t>"))
        if _VERDICT.match(said) and (title or _VERDICT_FIRM.match(said)) and not _VERDICT_FIRM.match(verdict):
            verdict = _with_reason(said, lines[number + 1 : number + 1 + _REASON_LINES])
        elif title:
            titles.append(title)
    labels = Counter(label for _, _, label in titles)
    titles = [(level, text) for level, text, label in titles if labels[label] < 2]  # "**File**: …" under each item
    kept = [text for n, (level, text) in enumerate(titles)
            if not (level < 9 and n + 1 < len(titles) and titles[n + 1][0] > level)]  # a section over its items
    return verdict, kept


def _line_title(line: str) -> tuple[int, str, str] | None:
    """``(level, title, label)`` of a heading or a bold-titled line (the label: its bold part, lowercased); a bold
    label that only introduces a list ("**Test Files:**") is none, unless it names code."""
    heading = _HEADING.match(line)
    if heading:
        title = _plain(heading.group(2))
        return len(heading.group(1)), title, title.lower()
    bold = _BOLD.match(line)
    if not bold:
        return None
    title, rest = _plain(bold.group(1)), _plain(bold.group(2))
    label = title.rstrip(":").lower()
    if rest and (title.endswith((":", "?")) or len(title) < 20):
        said = sentences(rest)
        rest = said[0] if said else rest
        return 9, title + rest if rest[0] in ",.;:!?)" else f"{title} {rest}", label
    if (title.endswith(":") and "`" not in title) or " " not in title:
        return None  # a label over a list, or a bare name or path ("**[src/cache.py]**"): no finding of its own
    return 9, title.rstrip(":"), label


def _with_reason(verdict: str, after: list[str]) -> str:
    """A short verdict with the first sentence of the paragraph under it."""
    if len(verdict) >= _SHORT_VERDICT:
        return clip_words(verdict, _VERDICT_CHARS)
    for line in after:
        if _line_title(line) or line.lstrip().startswith(("```", "|")):
            break
        said = [s for s in sentences(_plain(line)) if not _ANNOUNCING.match(s) and not s.endswith(":")]
        if said:
            return clip_words(f"{verdict.rstrip(':')} — {said[0]}", _VERDICT_CHARS)
    return verdict


def _plain(text: str) -> str:
    return " ".join(text.replace("**", "").replace("__", "").split()).strip("#*_ \t")


def without_trailer(text: str) -> str:
    """The report without the harness's note after it (:data:`_TRAILER`)."""
    zone = max(0, len(text) - _TRAILER_ZONE)
    trailer = _TRAILER.search(text, zone)
    return (text[: trailer.start()] if trailer else text).strip()


def _results(messages: list[dict], since: int) -> list[tuple[int, dict, str]]:
    """``(index, call, text)`` of the sub-agent results after ``since`` (not failed)."""
    calls: dict[str, dict] = {}
    found = []
    for index, message in enumerate(messages):
        if message.get("role") == "assistant" and isinstance(message.get("content"), list):
            for block in message["content"]:
                if isinstance(block, dict) and block.get("type") == "toolCall" and starts_subagent(block):
                    calls[str(block.get("id"))] = block
        elif message.get("role") == "toolResult" and str(message.get("toolCallId")) in calls:
            call = calls.pop(str(message.get("toolCallId")))
            if index > since and not message.get("isError"):
                found.append((index, call, content_text(message.get("content"))))
    return found


def starts_subagent(block: dict) -> bool:
    arguments = block.get("arguments")
    return bool(SUBAGENT_TOOL.match(str(block.get("name") or ""))) or (
        isinstance(arguments, dict) and any(isinstance(arguments.get(key), str) for key in _SUBAGENT_KEYS))


def _title(call: dict) -> str:
    arguments = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
    named = next((arguments[key] for key in _TITLE_KEYS if isinstance(arguments.get(key), str) and arguments[key].strip()),
                 "") or str(arguments.get("prompt") or "")
    return clip_words(named, 100) if named.strip() else str(call.get("name") or "sub-agent")


def _agent_words(messages: list[dict]) -> dict[int, int]:
    """Index → length of each of the agent's texts in ``messages``."""
    found = {}
    for index, message in enumerate(messages):
        if message.get("role") == "assistant":
            text = content_text(message.get("content")).strip()
            if text:
                found[index] = len(text)
    return found


def _changes(attempt: Attempt) -> bool:
    """The attempt changed a file (what acting on a report leaves)."""
    if attempt.failed or attempt.refused:
        return False
    tool = attempt.tool.lower()
    if tool in WRITE_TOOLS | EDIT_TOOLS:
        return True
    return is_shell_tool(tool) and bool(shell_effects(attempt.target).writes)


__all__ = ["SUBAGENT_TOOL", "Report", "open_reports", "report_gist", "starts_subagent", "unaddressed_reviews",
           "without_trailer"]
