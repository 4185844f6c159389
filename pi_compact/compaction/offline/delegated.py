"""Work done by sub-agents, as their final reports say it: the files they wrote, with their counts.

An agent that hands tasks to sub-agents (Claude Code's ``Agent`` / ``Task``, a background agent's
``<task-notification>``, another harness's ``spawn_agent``) changes no file itself: the sub-agent writes
``server/src/llm/pattern-normalize.test.ts`` and reports "Created `…/pattern-normalize.test.ts` with 21 tests". The
session's changed files and the agent's own answers ("Task 1 is DONE") miss what now exists; the report names it.
:func:`delegated_work` reads each report that finished (not one that failed, was stopped or is still running) for the
lines that say a file was created or changed, in the languages agents report in, and keeps the file with the count
its line (or the report's opening) gives ("21 tests"). A line that denies or defers the change ("could not create",
"will add") is no result.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...accessors import content_text
from .facts import EXTENSIONS, message_dicts
from .outcome import refusal, stopped
from .reports import SUBAGENT_TOOL, starts_subagent, without_trailer

_WROTE = {
    "en": r"created|wrote|written|added|modified|updated|extended|expanded|rewrote|rewritten|implemented|generated",
    "pt": r"criei|criad[oa]s?|escrevi|adicionei|adicionad[oa]s?|atualizei|atualizad[oa]s?|modifiquei|modificad[oa]s?",
    "es": r"cre[ée]|cread[oa]s?|escrib[ií]|escrit[oa]s?|añad[ií]|añadid[oa]s?|actualic[ée]|actualizad[oa]s?"
          r"|modifiqu[ée]|modificad[oa]s?",
    "fr": r"cr[ée]{2}e?s?|ajout[ée]e?s?|modifi[ée]e?s?|mis à jour|[ée]crit",
    "de": r"erstellt|angelegt|geschrieben|hinzugefügt|geändert|aktualisiert|erweitert",
    "ja": r"作成|追加|更新|修正|書き込",
    "zh": r"创建|新建|添加|更新|修改|编写",
    "ko": r"생성|작성|추가|수정",
}
"""The verbs of a report line that says a file now exists or changed, per language."""
_UNSPACED = ("ja", "zh", "ko")
_SPACED = "|".join(v for k, v in _WROTE.items() if k not in _UNSPACED)
_VERB = re.compile(
    r"^[^\w`]{0,8}(?:(?:i|i've|i have|we|we've|we have|also|then|successfully|eu|yo|j'ai|ich habe|wir haben)\s{1,3})?"
    r"(?:" + _SPACED + r")(?=[\s:*]|$)"
    r"|^[\W_]{0,8}(?:[^\W\d_]{1,30}\s{1,3}){1,3}(?:(?:was|were|is|are)\s{1,3})?(?:written|saved|created|generated)"
    r"\s{1,3}(?:to|at|in|as)\b"
    r"|^[\W_]{0,8}(?:ich habe|wir haben)\s[^\n]{0,200}?(?:" + _WROTE["de"] + r")(?!\w)"
    r"|" + "|".join(_WROTE[k] for k in _UNSPACED), re.I)
"""A line that says the sub-agent wrote a file: opening on the verb ("Created `a.ts` with 21 tests", "- **Updated**
`b.md`", "I've added …", "Criei …", "J'ai créé …"), on a noun and "written to" ("Report written to `c.md`"), with
the verb at the end in German ("Ich habe `a.ts` erstellt") and anywhere in Japanese, Chinese and Korean
("`a.ts` を作成しました"). A verb inside a description ("the docs are generated from `x`") is no report of work."""
_NEGATED = re.compile(r"\b(?:not|never|couldn't|could not|didn't|did not|failed to|unable to|will|would|should|plan to"
                      r"|going to|still need|não|no pude|pas|nicht|kein)\b|できません|できなかった|失敗|未|没有|无法|못|않", re.I)
"""Words that make a line a failure, a refusal or a plan rather than a result ("Could not create …", "I will add …")."""
_PATH = re.compile(r"`([^`\s]{1,300}\.[A-Za-z][A-Za-z0-9]{0,7})`|(?<![\w/.`-])((?:[\w.@~-]{1,100}/){1,20}[\w.@-]{1,100}"
                   r"\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/`])")
"""A file the line names: backticked with an extension, or a path with a folder and an extension."""
_COUNT = re.compile(r"(\d[\d,]{0,6})\s{1,3}(?:new\s{1,3}|passing\s{1,3}|unit\s{1,3})?(testes|tests?|test cases|specs?"
                    r"|cases|pruebas|Tests|テスト|个测试|개 테스트)(?!\w)", re.I)
"""The count a report gives its work ("with 21 tests", "All 36 tests pass", "21 テスト")."""
_FILE = re.compile(rf"\.(?:{EXTENSIONS})$", re.I)
"""A path that ends on a file's extension (not ``CommittedMetadata.TurnID``)."""
_STATUS = re.compile(r"<status>\s{0,3}([A-Za-z_]{1,20})\s{0,3}</status>")
_FINISHED = frozenset({"completed", "complete", "done", "success", "succeeded", "finished"})
_SUMMARY = re.compile(r"<summary>([^<\n]{1,200})</summary>")
_RESULT_OPEN, _RESULT_CLOSE = "<result>", "</result>"
_FAILED_REPORT = re.compile(r"\bstatus\W{0,4}(?:blocked|failed|failure|error|partial)\b|^\W{0,3}(?:error|failed)\b",
                            re.I | re.M)
"""A report that says its task did not finish ("**Status: BLOCKED**")."""
_HEAD_LINES = 3
_LINES = 80
_FILES = 10
_LABEL = "Files sub-agents wrote (as their reports say):"


def delegated_work(messages: Any, name: Callable[[str], str] = str) -> str:
    """One Done item: the files the finished sub-agents' reports say they wrote, each with its count, the last
    :data:`_FILES`; ``""`` when no report names one."""
    found: dict[str, str] = {}
    for report in finished_reports(list(message_dicts(messages))):
        for path, count in written(report):
            key = name(path)
            found.pop(key, None)
            found[key] = count
    listed = [f"`{path}`" + (f" ({count})" if count else "") for path, count in list(found.items())[-_FILES:]]
    return f"{_LABEL} {', '.join(listed)}" if listed else ""


def finished_reports(messages: list[dict]) -> list[str]:
    """The text of each sub-agent report that finished: a sub-agent call's result (not an error, a refusal or a
    stopped call), or a harness notice with a ``<result>`` whose ``<status>``, if any, says it completed."""
    calls: set[str] = set()
    found = []
    for message in messages:
        role = message.get("role")
        if role == "assistant" and isinstance(message.get("content"), list):
            calls.update(str(block.get("id")) for block in message["content"] if isinstance(block, dict)
                         and block.get("type") == "toolCall" and starts_subagent(block))
        elif role == "toolResult" and str(message.get("toolCallId")) in calls and not message.get("isError"):
            text = content_text(message.get("content"))
            if not refusal(text) and not stopped(text):
                found.append(without_trailer(text))
        elif role in ("user", "custom"):
            found += _notified(content_text(message.get("content")))
    return [text for text in found if not _FAILED_REPORT.search(text[:2000])]


def _notified(text: str) -> list[str]:
    """The result of a notice of a finished background agent (not of a background command: its output is no
    report of work)."""
    start, end = text.find(_RESULT_OPEN), text.rfind(_RESULT_CLOSE)
    if start < 0 or end < start or not text.lstrip().startswith("<"):
        return []
    head = text[:start]
    status = _STATUS.search(head)
    summary = _SUMMARY.search(head)
    if status and status.group(1).lower() not in _FINISHED:
        return []
    if summary and not SUBAGENT_TOOL.match(summary.group(1).split(maxsplit=1)[0].strip("\"'")):
        return []  # 'Background command "npm test" completed': a command's output
    return [without_trailer(text[start + len(_RESULT_OPEN) : end])]


def written(report: str) -> list[tuple[str, str]]:
    """``(path, count)`` of each file a report's lines say was created or changed."""
    lines = report.splitlines()[:_LINES]
    head = _COUNT.search("\n".join(lines[:_HEAD_LINES]))
    found = []
    for line in lines:
        verb = _VERB.search(line)
        if not verb or _NEGATED.search(line[: verb.end() + 20]):
            continue
        paths = [path for a, b in _PATH.findall(line) if _FILE.search(path := a or b) and "://" not in path]
        if not paths:
            continue
        count = _COUNT.search(line) or head
        said = f"{count.group(1)} {count.group(2)}" if count else ""
        for path in paths:
            found.append((path.strip("`"), said if len(paths) == 1 else ""))
    return found
