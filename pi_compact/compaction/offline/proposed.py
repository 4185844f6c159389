"""A code change the agent's closing answer proposes and no call applied: the step the work waits on.

A design discussion often ends with the agent showing the change it would make, as a code block (a diff, or the
code to put in a function: "Better: check the actual transcript ```go if lines > state.Condensed { … }```"), and
handing the turn back for the user's word. Nothing was edited, so no file or command says what is next; "wait for
the next request" loses it. The next agent applies that change once the user agrees (or as the user's answer
shapes it), so the step names the change: its first line of code, the file the answer names for it, and the code
names the discussion is about (the proposal rarely repeats them). The step is short: the answer itself is quoted
under Critical Context.

A code block shown beside edits of the same turn is what was done, not proposed; a block of shell commands or of
output is no change to the code; a block far from the answer's end is context the answer went on from.
"""

from __future__ import annotations

import re
from collections import Counter

from .text import clip_words

_FENCE = re.compile(r"^[ \t]{0,3}(?:```|~~~)[ \t]{0,3}([\w+#.-]{0,20})[^\n`]{0,80}$")
_NOT_CODE = frozenset({"sh", "bash", "shell", "zsh", "fish", "console", "shell-session", "powershell", "ps1", "cmd",
                       "bat", "text", "txt", "plaintext", "output", "log", "logs", "json", "jsonl", "csv", "tsv",
                       "yaml", "yml", "toml", "ini", "xml", "html", "markdown", "md", "mermaid", "sql"})
"""Blocks that hold commands, output, data or prose, not a change to the code (a config block may be one, but a
block of JSON in a discussion is mostly a sample of what a tool printed)."""
_CODE_LINE = re.compile(r"[;{}()=]|^\s{0,12}(?:(?:def|func|fn|class|if|for|return|import|from|const|let|var|pub"
                        r"|async)\b|@@|[+-][ \t])")
"""A line that reads as code, not as a sentence or a table."""
_PROPOSES = re.compile(r"\b(?:should|could|would|better|instead|propos\w{0,5}|suggest\w{0,5}|recommend\w{0,5}"
                       r"|the fix|a fix|fix(?:ed)? (?:is|would)|change it|replace|switch to|want me to|shall i"
                       r"|should i|i(?:'d| would)|we(?:'d| would)|something like|like this|approach|here'?s how)\b",
                       re.I)
"""Words around a block that offer it as a change to make."""
_REPORTS = re.compile(r"\b(?:i(?:'ve| have)|i) (?:just )?(?:changed|updated|added|edited|modified|applied|implemented"
                      r"|fixed|wrote|replaced|removed|refactored)\b|\bhere'?s what (?:i|was) (?:changed|did|done)\b",
                      re.I)
"""Words that say the block shows a change already made."""
_AROUND = 500
"""How far before and after a block its framing words are read."""
_TAIL = 900
"""A proposal ends the answer: at most this much text after its block."""
_COMMENT = re.compile(r"^\s{0,12}(?://|#|--|/\*|\*)\s{0,3}")
_PATH = re.compile(r"`([\w.@-]{1,80}(?:/[\w.@-]{1,80}){0,12}\.[A-Za-z]{1,8})`")
_PATCHED = re.compile(r"^(?:\+\+\+|---)[ \t]{1,4}(?:[ab]/)?([\w.@/-]{1,300})")
"""A diff's header line naming the file it changes (``+++ b/src/cache.ts``)."""
_CODE_NAME = re.compile(r"`([A-Za-z_][A-Za-z0-9_.]{2,60})`")
_CODE_LIKE = re.compile(r"[a-z][A-Z]|[A-Z][a-z]{1,40}[A-Z]|[a-z0-9]_[a-z]|\(\)$")
"""A backticked name that names code (``sessionHasNewContent``, ``BaseCommit``, ``files_touched``), not a word, a
hash or a value (``false``, ``e6d2bbd73e25``)."""
_NAMES = 3
_LINES = 1
_LINE_CHARS = 90


def _blocks(answer: str) -> list[tuple[int, int, str, list[str]]]:
    """The fenced blocks of ``answer``: ``(start, end, language, lines)``, offsets of the fences' lines."""
    found, opened, language, body, offset = [], None, "", [], 0
    for line in answer.splitlines(keepends=True):
        fence = _FENCE.match(line.rstrip("\r\n"))
        if fence and opened is None:
            opened, language, body = offset, fence.group(1).lower(), []
        elif fence is not None and opened is not None and not fence.group(1):
            found.append((opened, offset + len(line), language, body))
            opened = None
        elif opened is not None:
            body.append(line.rstrip("\r\n"))
        offset += len(line)
    return found


def _is_code(language: str, lines: list[str]) -> bool:
    """A block that holds code (a language not of commands or data, or none and lines that read as code)."""
    if language in ("diff", "patch"):
        return True
    if language in _NOT_CODE or not any(line.strip() for line in lines):
        return False
    code = [line for line in lines if line.strip() and not _COMMENT.match(line)]
    return bool(code) and sum(bool(_CODE_LINE.search(line)) for line in code) * 2 >= len(code)


def proposed_block(answer: str) -> tuple[str, list[str]] | None:
    """The code block ``answer`` ends on as a proposal: the last block that holds code, with at most :data:`_TAIL`
    characters after it, framed by words that offer it (:data:`_PROPOSES`, in the text around it or the block's own
    comments) and not by words that report it done. ``(the text before it, its lines)``, or ``None``."""
    blocks = _blocks(answer)
    if not blocks:
        return None
    start, end, language, lines = blocks[-1]
    if len(answer) - end > _TAIL or not _is_code(language, lines):
        return None
    before, after = answer[max(0, start - _AROUND):start], answer[end:end + _AROUND]
    comments = "\n".join(line for line in lines if _COMMENT.match(line))
    framing = f"{before}\n{after}\n{comments}"
    if _REPORTS.search(framing) or not _PROPOSES.search(framing):
        return None
    return answer[:start], lines


def _first_lines(lines: list[str]) -> str:
    """The block's first lines of code (comments and blank lines left out; of a diff, its first changed lines),
    each in backticks."""
    changes = [line for line in lines if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    if any(line.startswith("@@") for line in lines) and changes:
        code = [line.strip() for line in changes][:_LINES]
    else:
        code = [line.strip() for line in lines if line.strip() and not _COMMENT.match(line)][:_LINES]
    return " ".join(f"`{clip_words(line.replace('`', ''), _LINE_CHARS)}`" for line in code)


def discussed_names(texts: list[str]) -> list[str]:
    """The code names the agent's ``texts`` come back to most (each text counts a name once; two texts at least):
    what a proposal made in a long discussion is about, when its own lines do not say."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update({name for name in _CODE_NAME.findall(text[:20_000]) if _CODE_LIKE.search(name)})
    return [name for name, count in counts.most_common(_NAMES) if count >= 2]


def proposal_step(answer: str, texts: list[str], changed: bool, agreed: str = "") -> str:
    """The next step when ``answer`` (the agent's closing answer, of a turn that ``changed`` files or not) ends on a
    code change it proposes (:func:`proposed_block`) and no call of its turn applied: apply it once the user
    agrees, in the file the answer names for it, with the code names of the discussion (the agent's ``texts``);
    ``""`` otherwise. ``agreed``: the user's go-ahead since, which the step quotes (the wait is over)."""
    if changed:
        return ""  # the turn edited files: the block may be what it did
    found = proposed_block(answer)
    if not found:
        return ""
    before, lines = found
    code = _first_lines(lines)
    patched = [header.group(1) for line in lines[:6] if (header := _PATCHED.match(line))]
    paths = patched or _PATH.findall(before[-_AROUND:] + "\n".join(lines[:3]))
    where = f" to `{paths[-1]}`" if paths else ""
    names = [name for name in discussed_names(texts) if name not in code]
    about = f" (about {', '.join(f'`{name}`' for name in names)})" if names else ""
    when = f"the user agreed (“{clip_words(agreed, 120)}”)" if agreed else "once the user agrees"
    return f"Apply the change the agent proposed last{where} {when}: {code} …{about}."


__all__ = ["discussed_names", "proposal_step", "proposed_block"]
