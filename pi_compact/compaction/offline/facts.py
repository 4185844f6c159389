"""The facts an agent needs after a compaction, extracted mechanically from a stretch of conversation.

Two consumers share this one definition of "what matters": the offline summarizer builds its sections from
these facts, and the retention score counts how many of them survive a compaction. Extraction never fails:
any list of messages, however malformed, yields a :class:`Facts`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from ...accessors import content_text
from .outcome import (ERROR_LINE_LIMIT, declined_outright, hook_reply, last_line, output_body, passed_line, refusal,
                      refusal_reason, stopped, without_hook_notes)
from .diagnostics import telling_line
from .goal import request_words
from .plan_points import scope_lists
from .plan_sections import requirement_lists, rule_text, without_checklists
from .rules import SETUP_LABEL, is_rule, names_method, passing_rule, states_setup
from .shell import (ShellEffects, cd_moves, command_words, final_folder, patch_effects, prints_only, runnable,
                    shell_effects, working_folder)

CONSTRAINT_LIMIT = 500
"""Longest constraint sentence kept, in characters (longer ones are cut and end with ``…``)."""
_ERRORS_PER_OUTPUT = 6
_IDENTIFIERS_PER_MESSAGE = 80
_CONSTRAINTS_PER_MESSAGE = 40

READ_TOOLS = frozenset({"read", "read_file", "view", "view_file"})
WRITE_TOOLS = frozenset({"write", "write_file", "create", "create_file"})
DELETE_TOOLS = frozenset({"delete", "delete_file", "deletefile", "remove_file", "rm"})
EDIT_TOOLS = frozenset({"edit", "edit_file", "multiedit", "multi_edit", "str_replace", "replace"})
SHELL_TOOLS = frozenset({"bash", "shell", "sh", "exec", "execute", "execute_command", "exec_command", "run_command",
                         "run_shell_command", "run_terminal_cmd", "terminal"})
_PATH_KEYS = ("path", "file_path", "filePath")
_WRAPPING_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})


@dataclass(frozen=True)
class Command:
    """One shell command and how it ended."""

    command: str
    """The command exactly as it was run."""
    exit_code: int | None
    """Exit status; ``None`` when unknown (no result, timed out, cancelled, or an error without a code)."""
    tool: str = "bash"
    """``bash`` when the agent ran it through its tool, ``user`` for the user's own ``!cmd``."""
    failed: bool = False
    """True for a non-zero exit, an error result without a code, or a cancelled command."""


@dataclass(frozen=True)
class Failure:
    """An action whose latest attempt failed: nothing later succeeded with the same tool and target."""

    tool: str
    """Tool name (``bash``, ``edit``, …; ``user bash`` for the user's ``!cmd``)."""
    target: str
    """The command or the path the tool worked on (``""`` when unknown)."""
    error: str
    """The first error line of the failed output (``""`` when it had none)."""


@dataclass(frozen=True)
class Attempt:
    """One tool action and how it ended, in the order the results came: what tells a fixed error from an open one."""

    index: int
    """Position of the result among the messages (after skipping anything that is not a message dict)."""
    tool: str
    """Tool name (``user bash`` for the user's ``!cmd``)."""
    target: str
    """The command or the path the tool worked on (``""`` when unknown)."""
    failed: bool
    error: str = ""
    """The line that best says why it failed (``""`` when it did not)."""
    lookup: bool = False
    """A shell command that only inspects files (``grep``, ``cat``, ``ls``, …)."""
    aborted: bool = False
    """Cancelled, refused or denied by the user rather than failed."""
    refused: bool = False
    """The user declined the call (a permission prompt answered no, a rejected edit): a decision, not an error."""
    passed: str = ""
    """For a command that succeeded: the line of its output saying a check passed (``12 passed``), if any."""
    folder: str | None = ""
    """Where a persistent shell stood when the command ran, from where the session started (an earlier call's
    ``cd``; ``None``: not known): its relative paths are named from there (:func:`.shell.shell_effects`)."""


@dataclass(frozen=True)
class Facts:
    """Everything :func:`extract_facts` found; every tuple in order of first appearance, without repeats."""

    read_files: tuple[str, ...] = ()
    """Paths read through a read tool or a shell command (``cat``, ``head``, ``grep``, ``<``, …); not those every
    read of which failed (missing, too large, cancelled)."""
    modified_files: tuple[str, ...] = ()
    """Paths written or edited, or changed by a shell command (``sed -i``, ``>``, ``tee``, ``mv``, ``rm``, …)."""
    commands: tuple[Command, ...] = ()
    errors: tuple[str, ...] = ()
    """Error lines seen in tool and shell output, trimmed, at most :data:`ERROR_LINE_LIMIT` characters each."""
    constraints: tuple[str, ...] = ()
    """Sentences of the user's messages that state a rule (must, never, always, don't, 不要, 必须, …)."""
    identifiers: tuple[str, ...] = ()
    """What the user named: backticked spans, code identifiers, issues, versions, quantities, URLs, paths."""
    first_request: str = ""
    """Text of the first user message (``""`` when there is none)."""
    last_request: str = ""
    """Text of the last user message."""
    user_requests: tuple[str, ...] = ()
    failures: tuple[Failure, ...] = ()
    """Actions whose latest attempt failed, in order of first appearance."""
    attempts: tuple[Attempt, ...] = ()
    """Every tool result and user ``!cmd``, in order."""
    refusals: tuple["Refusal", ...] = ()
    """Tool calls the user declined, in order."""
    answers: tuple[tuple[str, str], ...] = ()
    """``(question, answer)`` the user gave through the agent's question tool (AskUserQuestion and the like)."""
    gone: tuple[str, ...] = ()
    """Paths named as changed or read that are not there to change or read: every change to them declined by the
    user, the last thing done to them was deleting them (or moving them away), or every read of them said they do
    not exist (``File does not exist.``, ``cat: x: No such file or directory``) and nothing wrote them."""
    approved_plan: str = ""
    """The plan the agent wrote and the user approved that the work carries out at the end (``""`` when none):
    :func:`.agent_plans.plan_in_force`. Its rules bind as a pasted plan's do (:func:`constraint_sentences`)."""


@dataclass(frozen=True)
class Refusal:
    """A tool call the user declined, with what the user said about it (``""`` when nothing)."""

    tool: str
    target: str
    reason: str


# -- message text ---------------------------------------------------------------------------------------------


def run_target(call: Any) -> str:
    """What a call worked on: its command, else its path."""
    return shell_command(call.name, call.arguments) or tool_path(call.arguments)


def tool_path(arguments: Any) -> str:
    """The file a tool call works on (``path``, ``file_path`` or ``filePath``), or ``""``."""
    if isinstance(arguments, dict):
        for key in _PATH_KEYS:
            value = arguments.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
    return ""


def web_address(arguments: Any) -> str:
    """The page a fetch or browser call works on (its ``url``), or ``""``."""
    url = arguments.get("url") if isinstance(arguments, dict) else None
    return url.strip()[:2000] if isinstance(url, str) and url.strip().startswith(("http://", "https://")) else ""


def is_shell_tool(name: str) -> bool:
    """``bash``, ``Bash`` (Claude Code), ``shell``, ``exec_command`` (Codex), the user's ``!cmd``: a tool that runs a
    command line (names compared without case)."""
    lowered = name.lower()
    return lowered in SHELL_TOOLS or lowered == "user bash" or any(w in lowered for w in ("bash", "shell", "terminal"))


def shell_command(name: Any, arguments: Any) -> str | None:
    """The command of a shell tool call (``bash``, ``shell``, …), or ``None`` for any other call."""
    if not isinstance(arguments, dict) or not isinstance(name, str):
        return None
    command = arguments.get("command", arguments.get("cmd"))
    if isinstance(command, list) and all(isinstance(part, str) for part in command):
        # Codex's `["bash", "-lc", "cd api && uv add httpx"]` runs its last word as the line
        wrapped = len(command) == 3 and command[0].rsplit("/", 1)[-1] in _WRAPPING_SHELLS and \
            command[1].startswith("-") and command[1].endswith("c")
        command = command[2] if wrapped else " ".join(command)
    if not isinstance(command, str):
        return None
    lowered = name.lower()
    if lowered in SHELL_TOOLS or any(word in lowered for word in ("bash", "shell", "terminal")):
        return runnable(command)  # (comment lines are no part of what ran: a call of comments only runs nothing)
    return None


# -- errors ---------------------------------------------------------------------------------------------------

_ERROR = re.compile(
    r"Traceback \(most recent call last\)"
    r"|(?<![\w.])[A-Za-z_][\w.]{0,200}(?:Error|Exception)(?::|$)"
    r"|\b(?:error|Error)(?:\[\w+\])?:|\berror (?:TS|CS)\d+"
    r"|\bERROR\b|\bFAILED\b|^FAIL\b|\bfatal:|\bfatal error\b|\bpanic:|\bpanicked at\b|\bException\b"
    r"|\bSegmentation fault\b|\bcommand not found\b|No such file or directory"
    r"|Permission denied|is not recognized as (?:an internal or external command|the name of a cmdlet)"
    r"|^npm (?:ERR!|error) ",
    re.M,
)
"""A line that says an error; cmd.exe and PowerShell say a program is missing in words of their own, npm opens each
line of its error with ``npm ERR!`` (``npm error`` since npm 10)."""
_ERROR_HINT = re.compile(r"rror|ERROR|FAIL|atal|anic|xception|Traceback|No such file|not found|denied|Segmentation"
                         r"|not recognized|ERR!")
_EXIT = re.compile(r"(?:exited with code|exit code:?|exit status:?)\s*(-?\d+)", re.I)


_ANSI = re.compile(r"\x1b\[[0-?]{0,20}[ -/]{0,5}[@-~]|\x1b[@-Z\\-_]")
"""A terminal's colour or cursor sequence (``ESC[31m``): no part of the message, and once its ESC is dropped as a
control character it reads as ``[31m[1m`` in front of it."""
_BLOCK_MARKS = (": |", ": |-", ": >", ": >-")
"""A YAML block scalar's mark (``error: |``): the value is the indented block on the lines under it."""


_BLOCK_CHARS, _MOST_BLOCKS = 2000, 16


def _with_block(line: str, following: str) -> str:
    """``line`` (``error: |``) with the message of the indented block under it: its first line that looks like an
    error (a program's log before it: ``INFO Starting …``, then ``ERROR Webserver: …``), else its first line."""
    block = []
    for part in following.splitlines():
        if part.strip() and not part.startswith((" ", "\t")):
            break  # the block ends where the indentation does
        if part.strip():
            block.append(part.strip())
    if not block:
        return line
    message = next((part for part in block if _ERROR.search(part)), block[0])
    return f"{line.rstrip().rstrip('-').rstrip('|>').rstrip()} {message}"


def error_lines(text: str, limit: int = _ERRORS_PER_OUTPUT) -> list[str]:
    """The distinct lines of ``text`` that look like errors, trimmed, in order, at most ``limit`` of them."""
    found: list[str] = []
    last_start, blocks = -1, 0
    for match in _ERROR_HINT.finditer(text):  # a cheap scan for keywords, then the full pattern on their line
        start = text.rfind("\n", 0, match.start()) + 1
        if start == last_start:
            continue
        last_start = start
        end = text.find("\n", match.end())
        line = text[start : end if end >= 0 else len(text)]
        line = _ANSI.sub("", line) if "\x1b" in line else line
        if not _ERROR.search(line):
            continue
        if line.rstrip().endswith(_BLOCK_MARKS) and end >= 0 and blocks < _MOST_BLOCKS:  # `error: |`: the block
            blocks += 1  # (a block's lines are read a bounded number of times, however many such lines repeat)
            line = _with_block(line, text[end + 1:end + _BLOCK_CHARS + 1])
        line = line.strip()[:ERROR_LINE_LIMIT]
        if line and line not in found:
            found.append(line)
            if len(found) >= limit:
                break
    return found


def first_line(text: str) -> str:
    """The first non-blank line of ``text``, trimmed to :data:`ERROR_LINE_LIMIT` characters."""
    for line in text.splitlines():
        if line.strip() and (line := _ANSI.sub("", line).strip()):
            return line[:ERROR_LINE_LIMIT]
    return ""


_FAILED_TEST = re.compile(r"(?:--- FAIL:|FAILED|FAIL:|(?:✕|✗|×|●))[ \t]+(?!\()\S"
                          r"|test[ \t]+\S+[ \t]+\.\.\.[ \t]+FAILED\b")
"""A line naming a failing test: go's ``--- FAIL: TestX``, pytest's ``FAILED a.py::test_x``, jest's ``✕ adds``/``●
Suite › adds``, cargo's ``test x ... FAILED``; not a bare verdict (``FAIL``, ``[test] ERROR task failed``)."""


def failed_test(text: str) -> str:
    """The first line of ``text`` that names a failing test, with the indented line under it (go's
    ``x_test.go:265: got …``), or ``""``."""
    lines = text[:200_000].splitlines()
    for number, line in enumerate(lines):
        if "FAIL" in line or line.lstrip()[:1] in ("✕", "✗", "×", "●"):
            if _FAILED_TEST.match(line.strip()):
                after = lines[number + 1] if number + 1 < len(lines) else ""
                below = after.strip() if after[:1].isspace() else ""
                return (f"{line.strip()} — {below}" if below else line.strip())[:ERROR_LINE_LIMIT]
    return ""


USAGE_ERROR = re.compile(
    r"\bis not an? [\w.-]{1,40} (?:command|subcommand|option)\b"
    r"|\b(?:unknown|unrecognized|unrecognised|unsupported|unexpected)"
    r" (?:sub)?(?:command|option|flag|argument)s?\b|\binvalid (?:sub)?(?:command|option|flag)s?\b"
    r"|\bno such (?:sub)?(?:command|option)\b|\binvalid choice\b|\bunexpected argument\b"
    r"|\b(?:found|got) (?:an )?unexpected (?:argument|option)\b",
    re.I)
"""How programs say they were called wrongly (git's "'unstage' is not a git command", npm's and cobra's "unknown
command 'instal'", click's "No such command", clap's "unrecognized subcommand" and "unexpected argument",
argparse's "unrecognized arguments" and "invalid choice", getopt's "unknown option", "unknown flag"): a mistyped
command, not a broken project. Not "Invalid argument": that is the system's EINVAL, a run that failed."""


_USAGE_LINES = 10
"""A program that refuses its arguments says so before it does anything, within its first lines (after a usage
line at most); further down, "unknown flag" is a test's name or a log's words."""


def failure_line(text: str, shell: bool) -> str:
    """The line that best says why an output failed: its most telling error line, else (shell output, where
    the first line is usually an echo of the script being run and the verdict comes last) its last line,
    else its first line."""
    found = error_lines(text, 2)
    if found:
        return main_error(found)
    head = "\n".join(text[:4000].splitlines()[:_USAGE_LINES])
    misused = USAGE_ERROR.search(head)
    if misused:  # "git: 'unstage' is not a git command", not the "instaweb" git suggests on the last line
        line_start, line_end = head.rfind("\n", 0, misused.start()) + 1, head.find("\n", misused.end())
        return last_line(head[line_start:] if line_end < 0 else head[line_start:line_end])
    if not shell:
        return first_line(text)
    said = [line for line in text[-4000:].splitlines()[-40:] if line.strip() and not _STRUCTURE.match(line)]
    return last_line(said[-1]) if said else last_line(text)


_STRUCTURE = re.compile(r'^\s*(?:[\][{}(),;`]+|"[^"\n]{0,200}"\s*:.*|exit (?:code|status) \d+)\s*$', re.I)
"""A line of a structure the command printed (``}``, ``"status": "404",``) or the harness's exit code: it says
nothing of why the command failed (``gh: Not Found (HTTP 404)`` above the JSON body does)."""


_PROGRESS = re.compile(r"\d%|\bdone\.?$|^exit (?:code|status) \d+$", re.I)
_FOUND_LINES = 4
_FOUND_CHARS = 300


def found_lines(text: str) -> str:
    """What a command that only prints (``git fsck``, ``grep``) found, when it exits non-zero: its first
    :data:`_FOUND_LINES` lines that are no progress report (``Checking objects: 100% done.``), joined: ``error: object
    … is empty; missing blob 1234abcd`` — each line is a finding the user may have asked for, not the first alone."""
    lines = [line.strip() for line in output_body(text).splitlines() if line.strip()]
    found = [line for line in lines if not _PROGRESS.search(line)][:_FOUND_LINES]
    joined = "; ".join(found)
    return joined if len(joined) <= _FOUND_CHARS else joined[: _FOUND_CHARS - 1] + "…"


def main_error(lines: list[str]) -> str:
    """The first of ``lines`` that says more than ``Traceback (most recent call last):``."""
    return next((line for line in lines if not line.startswith("Traceback (")), lines[0])


def exit_status(message: dict, text: str, shell: bool = True) -> tuple[int | None, bool]:
    """``(exit_code, failed)`` of a tool result: ``details.exitCode``, pi's "exited with code N" (shell output
    only: a file that was read may say anything), ``isError``."""
    is_error = message.get("isError") is True
    if not shell:
        return None, is_error
    details = message.get("details")
    code = details.get("exitCode") if isinstance(details, dict) else None
    if not isinstance(code, int) or isinstance(code, bool):
        found = _EXIT.findall(text[-400:])
        code = int(found[-1]) if found else None
    if code is None and message.get("isError") is False:
        code = 0
    return code, is_error or (code is not None and code != 0)


# -- user text ------------------------------------------------------------------------------------------------

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；;])")
_LIST_MARKER = re.compile(r"^(?:[-*•>]|\d+[.)])\s+")
_SCOPE = re.compile(r"\W{0,3}this\s(?:phase|step|stage|pr|change|task|milestone|iteration|plan|ticket|patch|sprint)"
                    r"\s(?:only\s)?(?:adds|covers|touches|changes|implements|introduces|delivers|is (?:limited|scoped) to)\b",
                    re.I)
_LIMITS_SCOPE = re.compile(r"\W{0,3}(?:(?:no|without)\s(?:other\s)?(?:changes?|modifications?|edits?)\s(?:to|in)"
                           r"|(?:do not|don'?t|never)\s(?:touch|change|modify|edit)|nothing (?:else|outside)"
                           r"|out of scope)\b", re.I)
"""A plan's sentence that states what the work covers ("This phase adds three read-only endpoints …") and the limit
after it ("No changes to the pipeline."): the limit is kept with what it bounds, the scope the user approved."""
_TABLE_ROW = re.compile(r"^\s{0,3}\|")
"""A row of a Markdown table: the user pasted findings or records."""
_WORD = re.compile(r"\w+")
_QUOTED_RUN = 5
"""Words in a row that the agent wrote too: the user copied them (shorter runs are shared phrases)."""
_QUOTABLE_CHARS = 20_000
EXTENSIONS = ("py|pyi|js|mjs|cjs|ts|tsx|jsx|json|jsonl|md|rst|txt|toml|yaml|yml|ini|cfg|conf|sh|bash|zsh|c|h|cc|cpp"
               "|hpp|rs|go|java|kt|rb|php|cs|swift|scala|sql|html|css|scss|vue|svelte|lock|log|csv|xml|env|mk")
_PATH_CHARS = r"[A-Za-z0-9_.@+-]"
# Every pattern here runs on untrusted text, so each is linear: a match may only start where a run of its
# characters starts (the lookbehinds), and quantifiers that could hand characters back to each other are
# possessive (``*+``, ``++``) or bounded. ``(?:[A-Z][A-Za-z0-9]*)+`` once took forever on ``AbCCCC…C_``.
_IDENTIFIER = re.compile(
    r"`(?P<tick>[^`\n]{1,200})`"
    r"|(?P<url>(?<![A-Za-z0-9])https?://[A-Za-z0-9\-._~:/?#\[\]@!$&()*+,;=%]{1,2000})"
    rf"|(?P<path>(?<![A-Za-z0-9_.@+~/-])(?:(?:~|\.{{1,2}})?/|{_PATH_CHARS}{{1,300}}/)(?:{_PATH_CHARS}{{1,300}}/)"
    rf"{{0,50}}{_PATH_CHARS}{{0,300}}[A-Za-z0-9_@+-]"
    rf"|(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{{1,300}}\.(?:{EXTENSIONS})\b)"
    r"|(?P<issue>(?<![\w&/])#\d{1,12}\b)"
    r"|(?P<number>(?<![\w.])v?\d{1,30}(?:\.\d{1,30}){1,3}(?:-[A-Za-z0-9.]{1,50})?\b"
    r"|(?<![\w,.])\d[\d,]{0,30}(?:\.\d{1,30})?\s?(?:%|(?:[kKMG]|KB|MB|GB|TB|ms|s|sec|seconds?|min|minutes?|h|hours?"
    r"|days?|px|tokens?|chars?|characters|lines?|bytes?|x)\b)|\b\d{3,}+\b)"
    r"|(?P<code>\b[A-Z][a-z0-9]++[A-Z][A-Za-z0-9]*+\b|\b[a-z][a-z0-9]*+[A-Z][A-Za-z0-9]*+\b"
    r"|\b[A-Za-z][A-Za-z0-9]*+(?:_[A-Za-z0-9]++)++\b|\b[A-Za-z_]\w*+\(\))",
    re.A,
)


_FEW_LINES = 3
_ENDED = (".", "!", "。", "！")
"""A line of a longer message that ends on neither, nor is an item of a list, may be a line of output the user
pasted ("No initial_attribution in metadata" under "=== Step 13 ==="): no rule in a form without "must" or "never"
(:func:`.rules.stated_rule`) is read from it."""


_QUOTES_ERROR = re.compile(
    r"(?-i:\b[A-Z]?\w{0,40}(?:Error|Exception)\s{0,2}:\s)|\bTraceback\b|\b(?:getting|got|seeing|hit(?:ting)?)\s{1,3}"
    r"(?:the\s{1,3}following|this|these|an?)\s{1,3}(?:errors?|exceptions?)\b", re.I)
"""A sentence that reports an error the user met ("i'm getting the following error now … Error: Custom orb must be
<= 12"): the "must" is the program's message, no rule of the user's."""
_IF = re.compile(r"\b(?:if|when|whenever|unless|in case)\b", re.I)


def _reports_error(sentence: str) -> bool:
    """A sentence that reports an error met (:data:`_QUOTES_ERROR`), not one under a condition ("if you hit an error,
    stop and tell me": a rule about errors)."""
    found = _QUOTES_ERROR.search(sentence[:2000])
    return found is not None and not _IF.search(sentence, 0, found.start())


def constraint_sentences(text: str, quoting: str = "") -> list[str]:
    """Sentences of ``text`` (outside code fences) that state a rule for the agent, trimmed, in order: must, never,
    always, don't, do not, 必须, 不要 and the like; never a question, nor a sentence with "instead" or "should"
    (those propose, they do not rule), nor a table row (a finding or a record: data, not a rule), nor a sentence
    mostly copied from ``quoting`` (what the agent wrote before: the user quotes it to ask about it). A rule said in
    passing in a sentence that asks for something else ("fix the login bug — and never push to main") is kept as its
    clause (:func:`.rules.passing_rule`): the rest is a one-off instruction, history once that request is done."""
    text = without_checklists(text)  # ("- [ ] never log the token": a task left, "- [x] …" one done; no rule)
    found: list[str] = scope_lists(text) + requirement_lists(text)  # a plan's scope and requirement lists
    quoted = _word_runs(quoting)
    lines = _FENCE.sub("\n", rule_text(text)).splitlines()  # (not what a plan says is the case today)
    few = len([line for line in lines if line.strip()]) <= _FEW_LINES
    for line in lines:
        if _TABLE_ROW.match(line):
            continue
        pieces = _SENTENCE_END.split(line)
        before = ""
        for whole in pieces:
            scope, before = before, whole
            listed = bool(_LIST_MARKER.match(whole.strip()))
            whole = _LIST_MARKER.sub("", whole.strip()).strip()
            if not whole or whole.endswith(("?", "？")) or _copied(whole, quoted) or _reports_error(whole):
                continue
            written = few or listed or len(pieces) > 1 or whole.endswith(_ENDED)
            head, passing = passing_rule(whole)  # "fix the login bug — and never push to main": the rule's clause
            for sentence in (head, passing) if passing else (whole,):
                ruled = sentence and (is_rule(sentence, stated=written) or names_method(sentence))
                if sentence and not ruled and states_setup(sentence):
                    sentence, ruled = f"{SETUP_LABEL}{sentence}", True  # a fact of the user's, said as one
                if ruled:
                    if _LIMITS_SCOPE.match(sentence) and _SCOPE.match(scope.replace("**", "")):
                        sentence = f"{scope.replace('**', '').strip()} {sentence}"  # what the limit bounds
                    if len(sentence) > CONSTRAINT_LIMIT:
                        sentence = sentence[: CONSTRAINT_LIMIT - 1] + "…"
                    found.append(sentence)
                    if len(found) >= _CONSTRAINTS_PER_MESSAGE:
                        return found
    return found


def _word_runs(text: str) -> set[tuple[str, ...]]:
    """Every run of :data:`_QUOTED_RUN` consecutive words of ``text`` (its last :data:`_QUOTABLE_CHARS`)."""
    words = _WORD.findall(text[-_QUOTABLE_CHARS:].lower())
    return {tuple(words[i : i + _QUOTED_RUN]) for i in range(len(words) - _QUOTED_RUN + 1)}


def _copied(sentence: str, runs: set[tuple[str, ...]]) -> bool:
    """True when at least half the words of ``sentence`` lie in runs copied from the text ``runs`` come from."""
    words = _WORD.findall(sentence.lower())
    if not runs or len(words) < _QUOTED_RUN:
        return False
    covered = [False] * len(words)
    for i in range(len(words) - _QUOTED_RUN + 1):
        if tuple(words[i : i + _QUOTED_RUN]) in runs:
            covered[i : i + _QUOTED_RUN] = [True] * _QUOTED_RUN
    return 2 * sum(covered) >= len(words)


def identifiers(text: str) -> list[str]:
    """What the user named in ``text``: backticked spans, URLs, paths, issues, versions, quantities, code names."""
    found: list[str] = []
    for match in _IDENTIFIER.finditer(text):
        kind = match.lastgroup
        value = match.group(kind).strip() if kind else ""
        if kind == "url":
            value = value.rstrip(".,;:!?)]")
        elif kind == "path" and not looks_like_path(value):
            continue
        if value and value not in found:
            found.append(value)
            if len(found) >= _IDENTIFIERS_PER_MESSAGE:
                break
    return found


def looks_like_path(value: str) -> bool:
    """True for ``src/app.py``, ``/etc/hosts``, ``~/x``, ``./y``, ``a/b/c``; not for ``and/or`` or ``1/2``."""
    if value.startswith(("/", "~", "./", "../")) or value.count("/") >= 2:
        return any(c.isalpha() for c in value)
    last = value.rsplit("/", 1)[-1]
    return "." in last.strip(".") and any(c.isalpha() for c in last)


# -- extraction -----------------------------------------------------------------------------------------------


class _Ordered:
    """An insertion-ordered set of strings."""

    def __init__(self) -> None:
        self._items: dict[Any, None] = {}

    def add(self, *items: Any) -> None:
        for item in items:
            if item:
                self._items.setdefault(item, None)

    def discard(self, *items: Any) -> None:
        for item in items:
            self._items.pop(item, None)

    def tuple(self) -> tuple:
        return tuple(self._items)


@dataclass
class _Call:
    name: str
    arguments: Any
    command_index: int | None
    inspects_only: bool = False
    folder: str | None = ""
    moved_to: str | None = ""
    """Where the call left a persistent shell, had it gone through (:func:`_folder_after_failing` corrects it)."""


class _Collector:
    def __init__(self) -> None:
        self.read, self.modified, self.errors = _Ordered(), _Ordered(), _Ordered()
        self.shell_folder: str | None = ""  # where the persistent shell stands (PERSISTENT_SHELLS)
        self.project = ""  # the project's folder, as the harness named it when it moved the shell back into it
        self.constraints, self.identifiers = _Ordered(), _Ordered()
        self.requests: list[str] = []
        self.runs: list[list[Any]] = []  # [command, exit_code, tool, failed], in call order
        self.calls: dict[str, _Call] = {}
        self.outcomes: dict[tuple[str, str], tuple[bool, str]] = {}
        self.attempts: list[Attempt] = []
        self.refusals: list[Refusal] = []
        self.answers: list[tuple[str, str]] = []
        self.refused_paths: set[str] = set()
        self.written_paths: set[str] = set()
        self.deleted: dict[str, int] = {}  # path -> when it was deleted (a result's number)
        self.deleted_directories: dict[str, int] = {}  # the same, of deletions that may take a directory
        self.present: dict[str, int] = {}  # path -> when it was last written or read: it existed then
        self.read_ok: set[str] = set()  # paths some read of which returned the file
        self.read_missing: set[str] = set()  # paths some read of which said they do not exist
        self.read_failed: set[str] = set()  # paths some read of which failed otherwise (too large, cancelled)
        self.index = 0
        self.directories: set[str] = set()
        self.moves: list[tuple[list[str], str]] = []  # (sources, destination) of each `mv`
        self.agent_said = ""  # the agent's words since the user's last message: what the next one may quote

    def add(self, message: dict) -> None:
        role = message.get("role")
        if role == "user":
            self._user(content_text(message.get("content")))
        elif role == "assistant":
            self.agent_said = (self.agent_said + "\n" + content_text(message.get("content"), "\n"))[-_QUOTABLE_CHARS:]
            for block in message.get("content") if isinstance(message.get("content"), list) else ():
                if isinstance(block, dict) and block.get("type") == "toolCall":
                    self._call(block)
        elif role == "toolResult":
            self._result(message)
        elif role == "bashExecution" and not message.get("excludeFromContext"):
            self._user_bash(message)

    def _user(self, text: str) -> None:
        text = request_words(text)  # what a harness wrapped around the user's words sets no rule
        if not text.strip():
            return
        self.requests.append(text)
        self.constraints.add(*constraint_sentences(text, self.agent_said))
        self.agent_said = ""
        self.identifiers.add(*identifiers(text))

    def _call(self, block: dict) -> None:
        name = block.get("name") if isinstance(block.get("name"), str) else ""
        arguments = block.get("arguments")
        lowered, path, command = name.lower(), tool_path(arguments), shell_command(name, arguments)
        if path and lowered in READ_TOOLS:
            self.read.add(path)
        elif path and (lowered in WRITE_TOOLS or lowered in EDIT_TOOLS):
            self.modified.add(path)
        call = _Call(name, arguments, None)
        patched = _patch_effects(call) if command is None else None
        if patched:
            self.modified.add(*patched.writes)
        if command is not None:
            call.folder = self.shell_folder if name in PERSISTENT_SHELLS else _working_folder(arguments)
            call.inspects_only = self._shell_paths(command, call.folder)
            if name in PERSISTENT_SHELLS and not _in_background(arguments):
                # the shell stays where the line's `cd` took it (`cd web && npm test`: in `web` for the next call)
                self.shell_folder = call.moved_to = self._kept(final_folder(command, call.folder))
            call.command_index = len(self.runs)
            self.runs.append([command, None, "bash", False])
        call_id = block.get("id")
        self.calls[call_id if isinstance(call_id, str) else f"#{len(self.calls)}"] = call

    def _kept(self, folder: str | None) -> str | None:
        """Where a persistent shell stays after a ``cd`` to ``folder``: Claude Code moves it back into the project
        when it leaves (``cd ../other``; an absolute folder outside the project the harness named), so that the
        next call, which may come before the harness says so, starts there."""
        outside = folder is not None and (folder == ".." or folder.startswith("../") or bool(
            self.project and folder.startswith("/") and not (folder + "/").startswith(self.project + "/")))
        return "" if outside else folder

    def _pair(self, message: dict) -> _Call | None:
        call_id = message.get("toolCallId")
        if isinstance(call_id, str) and call_id in self.calls:
            return self.calls.pop(call_id)
        name = message.get("toolName")
        for key in reversed(self.calls):
            if self.calls[key].name == name:
                return self.calls.pop(key)
        return None

    def _result(self, message: dict) -> None:
        call = self._pair(message)
        if call is not None and call.command_index is not None and not self.runs[call.command_index][0]:
            return  # a shell call of comments only ran nothing (:func:`.shell.runnable`)
        name = call.name if call else message.get("toolName") if isinstance(message.get("toolName"), str) else ""
        text = content_text(message.get("content"))
        text = _ANSI.sub("", text) if "\x1b" in text else text  # (a test runner's colours are no part of its words)
        shell = call.command_index is not None if call else name.lower() in SHELL_TOOLS
        code, failed = exit_status(message, text, shell)
        failed = failed and not hook_reply(text)  # (what hooks and plugins added is no word of the tool's)
        text = without_hook_notes(text)
        if call is None:
            self._outcome(name, "", output_body(text) if shell else text, failed, scan=shell, shell=shell)
            return
        refused = refusal(text) and (failed or declined_outright(text))
        if _QUESTION_TOOL.search(name):
            if refused:  # turning a question down is choosing to answer in words, not a declined action
                return
            if not failed:
                self.answers += question_answers(call.arguments, text)
        halted = not refused and failed and stopped(text)
        if refused:
            self._refused(name, run_target(call), text)
        if call.name in PERSISTENT_SHELLS and (reset := _CWD_RESET.search(text[-2000:])):
            self.shell_folder = ""  # the harness moved the shell back to the project
            self.project = (reset.group(1) or self.project).rstrip("/")
        elif call.name in PERSISTENT_SHELLS and self.shell_folder == call.moved_to and \
                (failed or refused or _CD_FAILED.search(text[:4000])):
            never_ran = refused or _NEVER_RAN.search(text[:2000]) is not None
            self.shell_folder = _folder_after_failing(call, text, never_ran)
        effects = shell_effects(run_target(call), call.folder) if call.command_index is not None else \
            _patch_effects(call)
        lowered = call.name.lower()
        changes_file = lowered in WRITE_TOOLS or lowered in EDIT_TOOLS
        changed = effects.writes if effects else [tool_path(call.arguments)] if changes_file else []
        (self.refused_paths if refused else self.written_paths).update(changed)
        if not refused and not failed:
            deleted = effects.deletes if effects else [tool_path(call.arguments)] if lowered in DELETE_TOOLS else []
            read = effects.reads if effects else [tool_path(call.arguments)] if lowered in READ_TOOLS else []
            self._existing(changed, read, deleted, run_target(call) if call.command_index is not None else "")
        elif effects and call.command_index is not None and not refused and not halted and effects.deletes:
            # `rm old.ts && npm run build` failed at the build: the deletion before it ran all the same
            command = run_target(call)
            self._existing([], [], _deleted_before_failing(command, call.folder, text), command)
        if not refused:
            self._reads(call, effects, text, failed, halted)
        if call.command_index is None:
            # a page fetched is its target; a patch's are the files it names (one attempt each)
            paths = _patch_targets(effects, failed) if effects is not None else \
                [tool_path(call.arguments) or web_address(call.arguments)]
            for path in paths:
                self._outcome(name, path, text, failed and not refused, scan=False, aborted=refused or halted,
                              refused=refused)
            return
        aborted = refused or halted or (failed and last_line(output_body(text)) in _ABORTED)  # pi appends it
        run = self.runs[call.command_index]
        body = output_body(text)
        failed = failed and not refused and not _found_nothing(code, body, call.inspects_only)
        run[1:] = [code, "bash", failed]
        self._outcome(name, run[0], body, failed, scan=failed or not call.inspects_only, shell=True,
                      lookup=call.inspects_only, aborted=aborted, refused=refused, folder=call.folder)

    def _reads(self, call: _Call, effects: ShellEffects | None, text: str, failed: bool, halted: bool) -> None:
        """Which paths the call read, which it showed missing, and which it failed to read for another reason (too
        large, a call beside it erred, stopped): a read tool's path by its result; of a command, the paths an error
        line of its output names as missing (``cat a b`` may read ``b`` though ``a`` is missing), all when it was
        stopped."""
        if effects is None:
            path = tool_path(call.arguments) if call.name.lower() in READ_TOOLS else ""
            if path:
                said = text[:2000]
                missing = failed and not halted and bool(_MISSING.search(said) or _NOT_FOUND.search(said))
                (self.read_missing if missing else self.read_failed if failed or halted else self.read_ok).add(path)
            return
        if _CD_FAILED.search(text[:4000]):
            # its `cd` failed: what follows it never ran, or ran elsewhere than its paths say; a path no other call
            # read went into the read files on the call's word alone
            self.read.discard(*(path for path in effects.reads if path not in self.read_ok))
            return
        missing = [line for line in text[:50_000].splitlines()[:400] if _MISSING.search(line)]
        for path in effects.reads:
            absent = not halted and _named_in(path, missing)
            (self.read_missing if absent else self.read_failed if halted else self.read_ok).add(path)

    def _refused(self, name: str, target: str, text: str) -> None:
        reason = refusal_reason(text)
        self.refusals.append(Refusal(name, target, reason))
        if reason:  # the user's words on declining say how (not) to do it: a preference, whatever its form
            self.constraints.add(reason)

    def _existing(self, changed: list[str], read: list[str], deleted: list[str], command: str = "") -> None:
        """After an action that went through: what it wrote or read exists (the source of a `mv` is written and
        deleted: deleted), what it deleted does not, nor, where ``command`` may take directories, what they held."""
        self.present.update(dict.fromkeys((p for p in (*changed, *read) if p not in deleted), self.index))
        self.deleted.update(dict.fromkeys((path for path in deleted if path), self.index))
        if command and _MAY_TAKE_DIRECTORIES.search(command):
            self.deleted_directories.update(dict.fromkeys(map(_plain, deleted), self.index))

    def _user_bash(self, message: dict) -> None:
        command = message.get("command") if isinstance(message.get("command"), str) else ""
        output = message.get("output") if isinstance(message.get("output"), str) else ""
        code = message.get("exitCode")
        code = code if isinstance(code, int) and not isinstance(code, bool) else None
        failed = bool(message.get("cancelled")) or (code is not None and code != 0)
        inspects_only = self._shell_paths(command)
        failed = failed and not _found_nothing(code, output.strip(), inspects_only)
        self.runs.append([command, code, "user", failed])
        if not failed:  # the user's own `!rm old.ts` deletes as the agent's does
            effects = shell_effects(command)
            self._existing(effects.writes, effects.reads, effects.deletes, command)
        self._outcome("user bash", command, output, failed, scan=failed or not inspects_only, shell=True,
                      lookup=inspects_only, aborted=bool(message.get("cancelled")))

    def _shell_paths(self, command: str, folder: str | None = "") -> bool:
        """Record the paths ``command`` reads and changes (run in ``folder``); True when it only inspects files."""
        effects = shell_effects(command, folder)
        self.read.add(*effects.reads)
        self.modified.add(*effects.writes)
        if {"mkdir", "rmdir"} & set(effects.programs) or ("rm" in effects.programs and _RECURSIVE.search(command)):
            self.directories.update(path for path in effects.writes if "." not in path.rsplit("/", 1)[-1])
        if effects.deletes and effects.writes and effects.writes[-1] not in effects.deletes:
            self.moves.append((effects.deletes, effects.writes[-1]))
        return effects.inspects_only

    def _outcome(self, tool: str, target: str, text: str, failed: bool, scan: bool, shell: bool = False,
                 lookup: bool = False, aborted: bool = False, refused: bool = False, folder: str | None = "") -> None:
        lines = error_lines(text) if scan and not refused else []
        if failed and not lines and failure_line(text, shell):
            lines = [failure_line(text, shell)]
        self.errors.add(*lines)
        # a test run's error lines end in its verdict ("FAIL"), which names nothing to fix: the failing test does
        # and a runner's verdict ("[lint] ERROR task failed") names nothing either: the located diagnostic does
        error = (((failed_test(text) or telling_line(text)) if shell else "") or main_error(lines)) \
            if lines and failed else ""
        if error and shell and prints_only(target):
            error = found_lines(text) or error  # what a look found is each of its lines, not its first
        passed = passed_line(text) if shell and not failed else ""
        self.attempts.append(Attempt(self.index, tool, target, failed, error, lookup, aborted, refused, passed,
                                     folder))
        # re-assigning keeps the key's first position, so failures come out in order of first appearance
        self.outcomes[(tool, target)] = (failed, main_error(lines) if lines else "")

    def facts(self) -> Facts:
        commands = _Ordered()
        commands.add(*(Command(c, code, tool, failed) for c, code, tool, failed in self.runs if c))
        failures = tuple(Failure(tool, target, error) for (tool, target), (failed, error) in self.outcomes.items()
                         if failed)
        self.directories |= self._moved_directories()
        modified = tuple(path for path in self.modified.tuple() if not self._directory_or_scratch(path)
                         and not (path in self.refused_paths and path not in self.written_paths))
        missing = self._unread(self.read_missing)  # shown not to exist: not there, whoever listed it
        unread = missing | self._unread(self.read_failed)  # not read here (an earlier region may have read it)
        gone = {path for path in self.refused_paths if path not in self.written_paths} | self._deleted_since() | missing
        return Facts(
            read_files=tuple(path for path in self.read.tuple() if path not in unread), modified_files=modified,
            commands=commands.tuple(),
            errors=self.errors.tuple(), constraints=self.constraints.tuple(),
            identifiers=self.identifiers.tuple(), first_request=self.requests[0] if self.requests else "",
            last_request=self.requests[-1] if self.requests else "", user_requests=tuple(self.requests),
            failures=failures, attempts=tuple(self.attempts), refusals=tuple(self.refusals), answers=tuple(self.answers),
            gone=tuple(sorted(gone)),
        )

    def _unread(self, paths: set[str]) -> set[str]:
        """Of ``paths`` (whose reads failed), those no read returned and nothing changed. A read of another spelling
        counts as a read of it: an absolute path and a relative name it ends in are one file (``/r/a/b.py``,
        ``a/b.py``), two absolute paths only when equal."""
        if not paths:
            return set()
        changed = {_plain(path) for path in (*self.modified.tuple(), *self.written_paths, *self.refused_paths)}
        read = {_plain(path) for path in self.read_ok}
        ends = {name for path in self.read_ok if path.startswith("/") for name in _spellings(path)[1:]}
        unread = set()
        for path in paths - self.read_ok:
            spellings = _spellings(path)
            if spellings[0] in changed or spellings[0] in read or (not path.startswith("/") and spellings[0] in ends):
                continue
            if not any(name in read or name in changed for name in spellings[1:]):
                unread.add(path)
        return unread

    def _moved_directories(self) -> set[str]:
        """Where a directory was moved to (``mv lib/tools archive/``): a directory too. A source is a directory when a
        known path lies under it; the directories above every known path are gathered once."""
        if not self.moves:
            return set()
        above = {name for path in (*self.modified.tuple(), *self.read.tuple()) for name in directories_above(path)}
        return {target for sources, target in self.moves if any(_plain(source) in above for source in sources)}

    def _deleted_since(self) -> set[str]:
        """The paths whose last event was a deletion: the path itself deleted, or a directory holding it deleted or
        moved away (``rm -rf build``, ``git mv pkg/old pkg/new``), and nothing written to or read from it since. An
        absolute path matches a relative name it ends in, ``./a.md`` is ``a.md``, whichever spelling was deleted and
        whichever written since. Each path is walked once, by its own directories."""
        if not self.deleted:
            return set()
        deleted = {_plain(path): at for path, at in self.deleted.items()}
        present: dict[str, int] = {}  # by plain spelling
        ends_present: dict[str, int] = {}  # by each relative end of an absolute path
        for path, at in self.present.items():
            spellings = _spellings(path)
            present[spellings[0]] = max(at, present.get(spellings[0], -1))
            for name in spellings[1:]:
                ends_present[name] = max(at, ends_present.get(name, -1))
        gone = set()
        for path in {*self.deleted, *self.modified.tuple(), *self.read.tuple()}:
            ends = _spellings(path)
            # an absolute path and a relative name it ends in are one file; two absolute paths only when equal
            since = max(present.get(ends[0], -1), *(present.get(name, -1) for name in ends[1:]),
                        -1 if path.startswith("/") else ends_present.get(ends[0], -1))
            if any(deleted.get(name, -1) > since for name in ends) or any(
                    self.deleted_directories.get(name, -1) > since for name in directories_above(path)):
                gone.add(path)
        return gone

    def _directory_or_scratch(self, path: str) -> bool:
        """A directory (made or removed as one, written with a trailing ``/``, or holding another known file), a
        temporary file or the agent's own bookkeeping (its plan file, its memory) is not a file the work modified."""
        if path in self.directories or path.endswith("/") or is_scratch(path) or is_agent_own(path):
            return True
        inside = path.rstrip("/") + "/"
        return any(other.startswith(inside) for other in (*self.modified.tuple(), *self.read.tuple()))


_QUESTION_TOOL = re.compile(r"question|ask_?user|user_?input|elicit", re.I)
"""A tool through which the agent asks the user to choose (Claude Code's AskUserQuestion and the like)."""
_ANSWER = re.compile(r'"([^"\n]{3,300})"\s{0,3}=\s{0,3}"([^"\n]{1,300})"')
"""One answer in such a tool's result: ``"Which approach?"="Hybrid"``."""
_ANSWER_LINE = re.compile(r"^\s{0,8}(?:[-*•]|\d{1,2}[.)])\s+(\S.*)$")
"""One answer of a numbered or bulleted list of answers (``User responses:\n1. In the configured database``)."""


def question_answers(arguments: Any, text: str) -> list[tuple[str, str]]:
    """``(question, answer)`` pairs in a question tool's result: written ``"question"="answer"`` by some tools;
    others list the answers one a line in the order the call asked its questions, so the call names them."""
    found = [(q.strip(), a.strip()) for q, a in _ANSWER.findall(text[:20_000])]
    if found:
        return found[:20]
    asked = _questions(arguments)
    answers = [m.group(1).strip() for m in map(_ANSWER_LINE.match, text[:20_000].splitlines()) if m]
    if not asked or not answers:
        return []
    if len(answers) != len(asked):  # the order cannot pair them: the answers stand together
        return [(" / ".join(asked)[:300], "; ".join(answers)[:300])]
    return [(q[:300], a[:300]) for q, a in zip(asked, answers)][:20]


def _questions(arguments: Any) -> list[str]:
    """The questions a question tool's call asked (``questions: [{question: …}]`` or ``question: …``)."""
    if not isinstance(arguments, dict):
        return []
    listed = arguments.get("questions")
    items = listed if isinstance(listed, list) else [arguments]
    return [" ".join(item["question"].split()) for item in items
            if isinstance(item, dict) and isinstance(item.get("question"), str) and item["question"].strip()]
_ABORTED = frozenset({"Command aborted", "Command cancelled", "Aborted", "Cancelled"})
_PATH_DEPTH = 40
"""Directories of a path looked at for a deleted one (deeper ones are not real paths)."""


def directories_above(path: str) -> Iterator[str]:
    """The directories above ``path``, outermost first: of a relative path its starts (``a/b/c.py`` → ``a``,
    ``a/b``); of an absolute one, whose working directory is unknown, also each by its ends (a directory named
    relative to that directory holds it: ``/r/a/b.py`` → ``/r``, ``r``, ``/r/a``, ``r/a``, ``a``)."""
    parts = _plain(path).split("/")[:_PATH_DEPTH]
    for end in range(1, len(parts)):
        for start in range(end if path.startswith("/") else 1):
            if parts[start:end] != [""]:
                yield "/".join(parts[start:end])


def _plain(path: str) -> str:
    """``./lib/tools/`` → ``lib/tools``: one spelling of a path for comparing."""
    return path.removeprefix("./").rstrip("/")


def _spellings(path: str) -> list[str]:
    """The names ``path`` may go by: its plain spelling and, of an absolute path, whose working directory is unknown,
    each of its ends (``/r/a/b.py`` → ``/r/a/b.py``, ``r/a/b.py``, ``a/b.py``, ``b.py``)."""
    parts = _plain(path).split("/")[:_PATH_DEPTH]
    return ["/".join(parts[start:]) for start in range(len(parts) if path.startswith("/") else 1)]
_MISSING = re.compile(r"No such file or directory|does not exist|cannot access|can'?t (?:read|open)|cannot open"
                      r"|Cannot find path|ENOENT|not a regular file|Is a directory", re.I)
"""An error line saying a path is not there to read (``cat: x: No such file or directory``, ``sed: can't read x``,
PowerShell's ``Cannot find path``), or is no file."""
_NOT_FOUND = re.compile(r"\b(?:file|path)\b[^\n]{0,40}\bnot found\b|\bnot found:", re.I)
"""A read tool's own words for a missing file (``File not found: x``, ``Error: file not found``)."""


def _patch_effects(call: _Call) -> ShellEffects | None:
    """What a patch tool's call (Codex's ``apply_patch``: its ``input``, or ``patch``) adds, changes and deletes."""
    if call.command_index is not None or "patch" not in call.name.lower() or not isinstance(call.arguments, dict):
        return None
    text = next((v for k in ("input", "patch") if isinstance(v := call.arguments.get(k), str)), "")
    return patch_effects(text) if text else None


def _patch_targets(effects: ShellEffects, failed: bool) -> list[str]:
    """The targets of a patch tool's attempts: each file it adds or changes (not one it deletes or moves away: that
    one is gone, not modified), or the first it deletes when it only deletes; a failed patch is one attempt, on its
    first file (the error is the patch's, said once)."""
    kept = [path for path in dict.fromkeys(effects.writes) if path not in effects.deletes]
    paths = kept or list(dict.fromkeys(effects.deletes))[:1] or [""]
    return paths[:1] if failed else paths


def is_patch_tool(name: str) -> bool:
    """A patch tool of its own (Codex's ``apply_patch``), not a command that runs one: its attempts' targets are the
    files the patch names (:func:`_patch_targets`), as an edit tool's is its path."""
    return "patch" in name.lower() and not is_shell_tool(name)


_DELETERS = frozenset({"cd", "pushd", "rm", "unlink", "trash", "mv"})


def _working_folder(arguments: Any) -> str | None:
    """Where a shell that starts afresh each call ran the command: the call's own working directory (Codex's
    ``workdir``, ``working_directory`` of its ``local_shell``), else where the session started (``""``)."""
    for key in _WORKDIR_KEYS:
        value = arguments.get(key) if isinstance(arguments, dict) else None
        if isinstance(value, str) and value.strip():
            return working_folder(value[:4000])
    return ""


def _in_background(arguments: Any) -> bool:
    """A command Claude Code runs in the background: still running, it left the shell's directory as it was."""
    return isinstance(arguments, dict) and arguments.get("run_in_background") is True


def _folder_after_failing(call: _Call, output: str, never_ran: bool) -> str | None:
    """Where a persistent shell stands after ``call`` failed: where it stood when the call never ran (declined, or
    a call beside it failed first) or its ``cd`` failed (the shell stays put); else after the ``cd``s that open the
    line, which ran before the program that failed (a ``cd`` after another program may not have run)."""
    command = run_target(call)
    if never_ran:
        return call.folder
    if _CD_FAILED.search(output[:4000]):
        return call.folder if cd_moves(command) == 1 else None
    return final_folder(command, call.folder, failed=True)


def _deleted_before_failing(command: str, folder: str | None, output: str) -> list[str]:
    """What a command that failed deleted all the same: the deletions (``rm``, ``git rm``, ``mv``'s sources) of the
    simple commands that open it, before any other program (``rm a && go build ./...``: the build failed, the ``rm``
    ran; ``go build && rm a``: the ``rm`` may never have run), but a path an error line of the output names (``rm:
    cannot remove 'a': Permission denied``)."""
    opening = []
    for words in command_words(command):
        program = words[0].rsplit("/", 1)[-1]
        if program == "git" and words[1:2] in (["rm"], ["mv"]):
            program = words[1]
        if program not in _DELETERS:
            break
        opening.append(shlex.join(words))
    if not opening:
        return []
    named = [line for line in output[:50_000].splitlines()[:400] if line.strip()]
    deleted = shell_effects(" && ".join(opening), folder).deletes
    return [path for path in deleted if not _named_in(path, [line for line in named if _ERROR_HINT.search(line)
                                                             or "cannot" in line.lower()])]


def _named_in(path: str, lines: list[str]) -> bool:
    """Whether one of ``lines`` names the file ``path`` (by its last part: the command may name it from elsewhere)."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if not name or not lines:
        return False
    named = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-]|\.\w)")
    return any(named.search(line) for line in lines)


_RECURSIVE = re.compile(r"\brm\s+-[A-Za-z]*[rR]")
_MAY_TAKE_DIRECTORIES = re.compile(r"\brm\s+-[A-Za-z]*[rR]|\brm\s+--recursive\b|\b(?:rmdir|mv|trash)\b")
"""A deletion that may take a directory with the files in it; a plain ``rm ./entire`` removes a file, which holds
none (``cmd/entire/cli/root.go`` stays)."""
PERSISTENT_SHELLS = frozenset({"Bash"})
"""Shell tools whose shell lives from call to call, keeping the directory a ``cd`` moved it to (Claude Code's
``Bash``; pi's ``bash`` and Codex's ``shell`` start each command where the session started, or in the call's own
``workdir``)."""
_WORKDIR_KEYS = ("workdir", "working_directory")
"""The arguments in which a shell call gives its own working directory (Codex's ``shell`` and ``exec_command``,
its ``local_shell`` action)."""
_CD_FAILED = re.compile(r"\bcd:[^\n]{0,300}?(?:no such file or directory|not a directory|permission denied)", re.I)
"""A shell's word that its ``cd`` failed (bash's ``cd: web: No such file or directory``, zsh's ``cd:1: no such file
or directory: web``): the shell did not move."""
_NEVER_RAN = re.compile(r"sibling tool call errored", re.I)
"""Claude Code's result of a call it never ran because a call beside it failed."""
_CWD_RESET = re.compile(r"Shell cwd was reset to (/\S{0,1000})?")
"""Claude Code's note when it moves its shell back into the project after a command left it."""
_SCRATCH = ("/tmp/", "/var/tmp/", "/private/tmp/", "/private/var/folders/", "/var/folders/", "/dev/shm/")


_WINDOWS_TEMP = re.compile(
    r"^(?:%te?mp%|\$env:te?mp|\$\{?te?mpdir\}?)(?:/|$)"  # %TEMP%\x, $env:TEMP\x, $TMPDIR/x
    r"|^(?:[a-z]:|/(?:mnt/|cygdrive/)?[a-z])?/(?:windows/)?te?mp/"  # C:\Temp\x, C:\Windows\Temp\x, /c/tmp/x
    r"|/appdata/local/temp/")  # C:\Users\u\AppData\Local\Temp\x (what %TEMP% names), in any drive spelling
"""Windows' temporary directories, in the one spelling ``is_scratch`` compares (``/`` for ``\\``, lower case)."""


def is_scratch(path: str) -> bool:
    """A path in a temporary directory: scratch space, not part of the work (on Windows too, where ``%TEMP%`` is
    under the user's ``AppData``, spelled with either slash and any case)."""
    if path.startswith(_SCRATCH) or path in ("/tmp", "/var/tmp"):
        return True
    return bool(_WINDOWS_TEMP.search(path.strip().replace("\\", "/").lower()))


_HOME = r"(?:~|\$home|\$\{home\}|%userprofile%|/root|(?:[a-z]:)?/(?:users|home)/[^/]{1,64})"
"""A home folder, as :func:`is_agent_own` compares paths (lower case, ``/`` for ``\\``)."""
_AGENT_OWN = re.compile(
    rf"^{_HOME}/(?:\.claude/(?:plans|todos|projects|shell-snapshots|session-env|statsig|debug|ide|file-history|tasks"
    r"|paste-cache)/|\.claude/history\.jsonl$|\.codex/(?:sessions|archived_sessions|log|shell_snapshots)/"
    r"|\.codex/history\.jsonl$|\.pi/agent/sessions/|\.gemini/tmp/|\.local/share/opencode/)")
"""The bookkeeping an agent keeps in its own home folder: Claude Code's plan files, todo lists, transcripts and
auto-memory (``~/.claude/projects/…/memory``), the session logs of Codex, pi, Gemini CLI (``~/.gemini/tmp``) and
opencode (``~/.local/share/opencode``). What the user keeps there on purpose
(``~/.claude/settings.json``, ``~/.claude/skills/…``, ``~/.codex/config.toml``) is configuration, a real file."""


def is_agent_own(path: str) -> bool:
    """A file of the agent's own bookkeeping in its home folder (see :data:`_AGENT_OWN`): not a file of the work,
    though the agent wrote it (a plan is followed as a plan by :mod:`.plans`, never listed among the project's
    files)."""
    return bool(_AGENT_OWN.match(path.strip().lstrip("@").replace("\\", "/").lower()))


def _found_nothing(code: int | None, body: str, inspects_only: bool) -> bool:
    """``grep`` and friends exit 1 when they find nothing: an answer, not a failure."""
    return code == 1 and not body and inspects_only


def extract_facts(messages: Any) -> Facts:
    """The facts of a list of pi agent messages (any roles; anything that is not a message dict is skipped)."""
    listed = list(message_dicts(messages))
    key = tuple(map(id, listed))
    for known_key, _kept, facts in _RECENT:
        if known_key == key:
            return facts
    facts = _extract(listed)
    # the listed messages are kept with their ids, so no other message can take one of those ids meanwhile
    _RECENT[:] = [(key, listed, facts), *_RECENT[: _RECENT_KEPT - 1]]
    return facts


_RECENT: list[tuple[tuple[int, ...], list[dict], Facts]] = []
_RECENT_KEPT = 3
"""A compaction reads the facts of the same messages three times (its files, its summary, the files gone), each
from a list of the same message dicts, and a split turn's prefix once; a replay's retention score reads the first
list again. Those lists' facts are kept (messages are never changed once built)."""


def _extract(listed: list[dict]) -> Facts:
    from .agent_plans import approved_plans, plan_in_force  # (they read messages with this module's helpers)

    collector = _Collector()
    for index, message in enumerate(listed):
        collector.index = index
        collector.add(message)
    in_force = plan_in_force(listed, approved_plans(listed))
    return replace(collector.facts(), approved_plan=in_force.text if in_force else "")


def message_dicts(messages: Any) -> Iterator[dict]:
    """The dicts among ``messages``; a string, a dict or anything not iterable holds none (input is untrusted)."""
    if isinstance(messages, (str, bytes, dict)):
        return
    try:
        iterator = iter(messages)
    except TypeError:
        return
    for message in iterator:
        if isinstance(message, dict):
            yield message
