"""The agent's current subject when a region ends mid-work: the files its last edits changed, the code names its
last words and edits point at, the files it read since its last edit (what it is looking into) and the names it
searched the code for since then; and when it went on after a commit, that commit (what it does next builds on
it: "Fixed in 3696270" replies, a push).

"Now let me add tests for the new function:" does not say which function or which file; the next agent needs the
names to pick up the thread (`content_overlap_test.go`, `computeSessionLanes`). They are read from the latest
request's turn by shape, not by tool name alone: a call whose arguments hold a path and text to write or replace
is an edit (Claude Code's ``Edit``/``Write``, pi's ``edit``/``write``, Codex's ``apply_patch`` paths are in
the file list already); a name is code-like when it is backticked in the agent's words and written as code is
(``camelCase``, ``snake_case``, ``Dotted.name``, ``call()``), or when an edit's text defines it (``func X``,
``def x``, ``class X``).
"""

from __future__ import annotations

import re
from typing import Any

from ...accessors import content_text
from .facts import EDIT_TOOLS, READ_TOOLS, WRITE_TOOLS, is_shell_tool, message_dicts, tool_path
from .paths import is_redacted

_PATH_KEYS = ("file_path", "path", "filePath", "notebook_path")
_TEXT_KEYS = ("new_string", "newText", "new_str", "content", "old_string", "oldText", "old_str")
_BACKTICKED = re.compile(r"`([A-Za-z_$][\w$]{0,60}(?:\.[A-Za-z_$][\w$]{0,60}){0,3}(?:\(\))?)`")
_CODE_LIKE = re.compile(r"[a-z0-9][A-Z]|_|\.|\(\)|^[A-Z][a-z]+[A-Z]")
"""camelCase, snake_case, Dotted.name, call(), PascalCase: a name from code, not an English word."""
_DEFINED = re.compile(r"\b(?:func|def|class|function|fn|interface|struct|type|enum)\s+(?:\([^()\n]{0,80}\)\s*)?"
                      r"([A-Za-z_]\w{2,60})(?=[ \t]*[(<{:=\[])")
"""A definition in code, its name followed by what code puts there ("function for the lanes" is English)."""
SUBJECT_LABEL = "The agent's current subject:"
_FILES = 3
_NAMES = 4
_READS = 2
_SEARCHES = 2
_SEARCH_TOOLS = frozenset({"grep", "search", "rg", "ripgrep", "search_files", "grep_search"})
_PATTERN_KEYS = ("pattern", "query", "regex")
_SHELL_SEARCH = re.compile(r"(?:^|[|;&(]\s{0,4})(?:git\s{1,4}grep|grep|rg|ag)\b[^|;&\n'\"]{0,120}(['\"])([^'\"\n]{3,80})\1")
"""A shell search and its first quoted pattern (``grep -rn "os.Getwd()" src/``)."""
_PRINTED_COMMIT = re.compile(r"^\[[^\]\s]{1,200}(?: \(root-commit\))? ([0-9a-f]{7,40})\] ([^\n]{1,300})$", re.M)
"""The line ``git commit`` prints (``[main 1a2b3c4] fix: keep the cache bounded``)."""
_PLAIN_PATTERN = re.compile(r"^[A-Za-z_$][\w$.:()/<>-]{2,60}$")
"""A pattern that names one thing (``os.Getwd()``, ``LastCheckpointID``), not a regex of alternatives."""
_TEXTS = 1
"""The agent's last texts of the turn read for names: its earlier words may be about finished work."""


def _edit(block: dict) -> tuple[str, str] | None:
    """``(path, text written)`` of a call that changes a file, else None."""
    arguments = block.get("arguments")
    if not isinstance(arguments, dict) or str(block.get("name", "")).lower() not in EDIT_TOOLS | WRITE_TOOLS:
        return None
    path = next((arguments[k] for k in _PATH_KEYS if isinstance(arguments.get(k), str) and arguments[k].strip()), "")
    text = "\n".join(arguments[k] for k in _TEXT_KEYS if isinstance(arguments.get(k), str))
    return (path.strip(), text) if path else None


_MOVES_HEAD = frozenset({"checkout", "switch", "reset", "rebase", "merge", "pull", "stash", "revert", "am"})


def _git_verbs(block: dict) -> set[str]:
    """The words after ``git`` in the pieces of a shell call's command (``commit``, ``checkout``, …)."""
    arguments = block.get("arguments")
    command = arguments.get("command") if isinstance(arguments, dict) else None
    if not isinstance(command, str) or not is_shell_tool(str(block.get("name", "")).lower()):
        return set()
    verbs: set[str] = set()
    for piece in re.split(r"[|;&\n]", command[:5000]):
        words = piece.split()
        if "git" in words:
            verbs.update(words[words.index("git") + 1:])
    return verbs


_FINISHED = re.compile(r"\b(?:fixed|done|complete[ds]?|finished|resolved|committed|implemented|added|updated"
                       r"|removed|passe[ds]|passing)\b|✅|✓", re.I)
"""A sentence that reports work finished: the names in it are done, not the subject."""
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def _names_in_words(text: str) -> list[str]:
    return [name for name in _BACKTICKED.findall(text[:20_000]) if _CODE_LIKE.search(name)]


def _open_names_in_words(text: str) -> list[str]:
    """The code names of ``text`` outside the sentences that report them finished ("… `os.Getwd()` - but we just
    fixed that")."""
    return [name for sentence in _SENTENCE_END.split(text[:20_000]) if not _FINISHED.search(sentence)
            for name in _names_in_words(sentence)]


def current_subject(messages: Any, since: int, name: Any = str) -> tuple[tuple[str, ...], ...]:
    """``(files, names, reading, searched, committed)`` the agent's work after message ``since`` (the latest
    request) ends on:
    the files of its last successful edits, the last first, each named by ``name``; the code names of its last
    words and edits; the files it read after its last edit (a failure it looks into, code it checks before
    changing); the names it searched the code for after its last edit ("check the whole code base for this" is
    about ``os.Getwd()``); the hash of the commit it made last when it went on after it, else nothing."""
    calls: dict[str, tuple[str, Any]] = {}
    edits: list[tuple[str, str]] = []
    reads: list[str] = []
    searches: list[str] = []
    committed, went_on = "", False
    texts: list[str] = []
    for index, message in enumerate(message_dicts(messages)):
        if index <= since:
            continue
        if message.get("role") == "assistant":
            went_on = bool(committed)
            words = content_text(message.get("content"))
            if words.strip():
                texts.append(words)
            for block in message.get("content") if isinstance(message.get("content"), list) else ():
                if isinstance(block, dict) and isinstance(block.get("id"), str):
                    kind = _kind(block)
                    if kind:
                        calls[block["id"]] = kind
        elif message.get("role") == "toolResult" and not message.get("isError"):
            call_id = message.get("toolCallId")
            kind, found = calls.pop(call_id) if isinstance(call_id, str) and call_id in calls else ("", None)
            if kind == "edit":
                edits.append(found)
                reads, searches = [], []
            elif kind == "read":
                reads.append(found)
            elif kind == "search":
                searches.append(found)
            elif kind == "commit":  # what was edited, read and said before it is done
                edits, reads, texts, searches = [], [], [], []
                printed = _PRINTED_COMMIT.search(content_text(message.get("content"))[:20_000])
                committed = printed.group(1) if printed else ""
                went_on = False
            elif kind == "moved":  # HEAD is no longer the commit
                committed = ""
    files = list(dict.fromkeys(name(path) for path, _ in reversed(edits)))[:_FILES]
    names = [n for text in reversed(texts[-_TEXTS:]) for n in reversed(_open_names_in_words(text))]
    names += [n for _, text in reversed(edits[-2:]) for n in _DEFINED.findall(text[:20_000])]
    shown = {f.rsplit("/", 1)[-1] for f in files}
    reading = [path for path in dict.fromkeys(name(path) for path in reversed(reads)) if path not in files]
    return (tuple(files), tuple([n for n in dict.fromkeys(names) if n not in shown][:_NAMES]),
            tuple(reading[:_READS]), tuple(list(dict.fromkeys(reversed(searches)))[:_SEARCHES]),
            (committed,) if committed and went_on else ())


def _kind(block: dict) -> tuple[str, Any] | None:
    """What a call does to the subject: ``("edit", (path, text))``, ``("read", path)``, ``("commit", None)``."""
    edit = _edit(block)
    if edit:
        return "edit", edit
    verbs = _git_verbs(block)
    if "commit" in verbs:
        return "commit", None
    if verbs & _MOVES_HEAD:
        return "moved", None
    searched = _searched(block)
    if searched:
        return "search", searched
    path = tool_path(block.get("arguments"))
    return ("read", path) if path and str(block.get("name", "")).lower() in READ_TOOLS else None


def _searched(block: dict) -> str:
    """The one name a search call looks for (a search tool's pattern, a shell ``grep``/``rg``'s first quoted
    pattern), unescaped; ``""`` for other calls and for patterns of alternatives or wildcards."""
    arguments, tool = block.get("arguments"), str(block.get("name", "")).lower()
    if not isinstance(arguments, dict):
        return ""
    pattern = next((arguments[k] for k in _PATTERN_KEYS if isinstance(arguments.get(k), str)), "") \
        if tool in _SEARCH_TOOLS else ""
    if is_shell_tool(tool) and isinstance(arguments.get("command"), str):
        found = _SHELL_SEARCH.search(arguments["command"][:2000])
        pattern = found.group(2) if found else ""
    pattern = re.sub(r"\\(.)", r"\1", pattern.strip())
    return pattern if _PLAIN_PATTERN.match(pattern) else ""


def names_subject(words: str, files: tuple[str, ...], names: tuple[str, ...], reading: tuple[str, ...] = (),
                  searched: tuple[str, ...] = (), committed: tuple[str, ...] = ()) -> bool:
    """``words`` name one of the subject's files (by its base name) or code names: they say the subject already.
    Words that name some other file ("testenv.go is already quite large. Let me create a dedicated file") do not."""
    lowered = words.lower()
    return any(path.rsplit("/", 1)[-1].lower() in lowered for path in (*files, *reading)) or any(
        name.rstrip("()").lower() in lowered for name in (*names, *searched))


def subject_line(files: tuple[str, ...], names: tuple[str, ...], reading: tuple[str, ...] = (),
                 searched: tuple[str, ...] = (), committed: tuple[str, ...] = ()) -> str:
    """One In Progress item naming the subject, or ``""`` when there is none. A scrubbed path names no file to open
    (:func:`.paths.is_redacted`)."""
    files, reading = tuple(p for p in files if not is_redacted(p)), tuple(p for p in reading if not is_redacted(p))
    if not files and not names and not reading and not searched:
        return ""  # the commit the work went on after is finished work: the next step names it
    parts = []
    if files:
        parts.append("last edited " + ", ".join(f"`{path}`" for path in files))
    if names:
        parts.append("named last " + ", ".join(f"`{n}`" for n in names))
    if reading:
        parts.append(("reading " if not files else "reading since its last edit ") + ", ".join(f"`{p}`" for p in reading))
    if searched:
        parts.append("searched the code for " + ", ".join(f"`{p}`" for p in searched))
    return f"{SUBJECT_LABEL} " + "; ".join(parts)


__all__ = ["SUBJECT_LABEL", "current_subject", "names_subject", "subject_line"]
