"""How a tool result ended, in any agent's words: the output without the harness's own trailer, and whether the user
declined or stopped the call.

A call the user declined (Claude Code's "The user doesn't want to proceed with this tool use", Codex's "rejected
by user", a permission gate's "Blocked by user") is the user's decision, not an error: nothing was run or written,
and what the user said about it is a preference for the work. A call stopped while it ran ("Operation aborted",
"Request interrupted by user") is no error either. "Permission denied" alone is the system refusing: an error.
"""

from __future__ import annotations

import re

ERROR_LINE_LIMIT = 300
"""Longest error line kept, in characters."""
_EXIT_SUFFIX = "Command exited with code"


def output_body(text: str) -> str:
    """Shell output without pi's trailing ``Command exited with code N`` and its ``(no output)`` marker."""
    at = text.rfind(_EXIT_SUFFIX)
    if at >= 0 and "\n" not in text[at:].strip():
        text = text[:at]
    text = text.rstrip()
    return "" if text == "(no output)" else text


def last_line(text: str) -> str:
    """The last non-blank line of ``text``, trimmed to :data:`ERROR_LINE_LIMIT` characters: read from a tail that
    grows fourfold until it holds one whole (a result of 100 KB is asked its last line several times)."""
    size = _TAIL_CHARS
    while True:
        whole = size >= len(text)
        lines = text[-size:].splitlines()
        for line in reversed(lines if whole else lines[1:]):  # the tail's first line may be the end of a longer one
            if line.strip():
                return line.strip()[:ERROR_LINE_LIMIT]
        if whole:
            return ""
        size *= 4


_TAIL_CHARS = 4_096


_WHO = r"\b(?:the user|user|you)\b[^.\n]{0,60}?\b"
_BY_USER = r"\s+by\s+(?:the\s+)?user\b"
_DECLINE = re.compile(
    _WHO + r"(?:reject(?:ed|s)?|declin(?:ed|es)?|den(?:y|ied|ies)|refus(?:ed|es)?|blocked"
    r"|(?:doesn'?t|does not|don'?t|do not|did not|didn'?t) (?:want|approve|allow|permit|accept))\b"
    r"|\b(?:rejected|declined|denied|refused|blocked)" + _BY_USER +
    r"|^\W{0,3}(?:(?:operation|command|request|tool(?: use| call)?|execution|call|patch|edit)\s+)?(?:was\s+)?"
    r"(?:rejected|denied|declined)\W{0,3}$",
    re.I | re.M,
)
"""A result that says the user declined the call, in any agent's words: Claude Code's "The user doesn't want to
proceed with this tool use", Codex's "rejected by user", a permission gate's "Blocked by user". "Permission denied"
alone is the system's refusal: an error."""
_STOP = re.compile(
    _WHO + r"(?:cancel+ed|aborted|interrupted|stopped)\b|\b(?:cancel+ed|aborted|interrupted|stopped)" + _BY_USER +
    r"|^\W{0,3}(?:(?:operation|command|request|tool(?: use| call)?|execution|call)\s+)?(?:was\s+)?"
    r"(?:aborted|cancel+ed|interrupted)\W{0,3}$|sibling tool call errored",
    re.I | re.M,
)
"""A result that says the call was stopped while it ran (or never ran because a call beside it failed) (pi's "Operation aborted", "Request interrupted by user")."""
_REFUSAL_REASON = re.compile(
    r"(?:(?:the user said|user(?:'s)? (?:reason|feedback|message|said|comment|note)|reason|feedback|comment)\s*:"
    r"|\b(?:rejected|declined|denied|blocked)" + _BY_USER + r"\s{0,2}(?::|[—–]|\s-\s))\s*"
    r"(\S[^\n]*(?:\n(?!\n)[^\n]*){0,8})", re.I)
"""Where the harness gives what the user said on declining: Claude Code's "the user said:\n…", a "Reason:" or
"Feedback:" line, Codex's and a permission gate's "rejected by user: …", "Blocked by user — …"."""


def _head_or_tail(pattern: re.Pattern[str], text: str) -> bool:
    body = output_body(text)
    return bool(pattern.search(body[:400]) or pattern.search(last_line(body)))


def refusal(text: str) -> bool:
    """True when a tool result says the user declined the call (see :data:`_DECLINE`) or stopped it and said why."""
    return _head_or_tail(_DECLINE, text) or (_head_or_tail(_STOP, text) and bool(refusal_reason(text)))


def stopped(text: str) -> bool:
    """True when a tool result says the user (or the agent's harness) cancelled the call while it ran."""
    return _head_or_tail(_STOP, text)


def refusal_words(text: str) -> str:
    """All that the user said when declining (see :data:`_REFUSAL_REASON`), up to a blank line, or ``""``."""
    match = _REFUSAL_REASON.search(text[:4000])
    return match.group(1).strip() if match else ""


def refusal_reason(text: str) -> str:
    """What the user said when declining (Claude Code's "…the user said:\n<words>"), its first line, or ``""``."""
    said = refusal_words(text)
    if not said:
        return ""
    reason = said.splitlines()[0].strip()
    # "The user wants to clarify these questions." is the harness describing the user, not the user's words
    return "" if re.match(r"^the user\b", reason, re.I) else " ".join(reason.split())[:500]




_HARNESS_REFUSAL = re.compile(
    r"\bwas blocked\. For security\b"
    r"|\bPermission to use [\w.:-]{1,80} (?:has been|was|is) denied\b"
    r"|\b(?:PreToolUse|BeforeTool)(?::[\w.-]{1,80})? hook (?:error|blocked|denied|returned blocking error)\b"
    r"|\bhook (?:PreToolUse|BeforeTool)(?::[\w.-]{1,80})? (?:denied|blocked)\b"
    r"|\b(?:denied|blocked|rejected|forbidden|disallowed) by (?:the |a |your )?"
    r"(?:(?:approval|execution|sandbox|security|permission) )?"
    r"(?:policy|policies|sandbox|hook|execpolicy|permission (?:rules?|settings)|settings)\b"
    r"|\brequires user (?:confirmation|approval), which is not (?:supported|available)\b"
    r"|\bspecified a rule which prevents you from using\b",
    re.I,
)
"""A result that says the agent's harness turned the call back before it ran, in its agents' words: Claude Code's
directory and redirection guards ("cd to '/x' was blocked. For security, Claude Code may only change directories
to …"), its permission rules ("Permission to use Bash has been denied") and hooks ("PreToolUse:Bash hook error: …",
"Hook PreToolUse:Bash denied this tool"), Gemini CLI's policy engine ("Tool execution denied by policy") and its
approval mode in a headless run ("… requires user confirmation, which is not supported in non-interactive mode"),
opencode's permission rules ("The user has specified a rule which prevents you from using this specific tool
call"), a sandbox or execution policy ("blocked by the sandbox"). Like a user's refusal it is a limit on the agent,
nothing broken to fix. "Permission denied" alone is the system refusing a file or a socket: an error."""


def harness_refusal(text: str) -> bool:
    """True when a tool result (or its error line) opens or ends by saying the harness turned the call back (see
    :data:`_HARNESS_REFUSAL`)."""
    return _head_or_tail(_HARNESS_REFUSAL, text)


_REMINDER_OPEN, _REMINDER_CLOSE = "<system-reminder>", "</system-reminder>"
_HOOK_LINE = re.compile(
    r"^\W{0,3}(?:(?:PreToolUse|PostToolUse|UserPromptSubmit|SessionStart|Notification|PreCompact|BeforeTool|AfterTool)"
    r"(?::[\w.|*-]{1,80})? hook (?:succeeded|success|additional context|output|ran)\b"
    r"|\[(?:hook|hooks|plugin|extension|rules?)(?:[:\s][^\]\n]{0,60})?\]"
    r"|[\U0001F300-\U0001FAFF\u2600-\u27BF]\uFE0F?\s{0,2}[^\n]{0,40}?\b(?:context|tokens?|savings?|saved|usage"
    r"|budget|reminder)\b)",
    re.I)
"""A line a hook or a plugin put into a tool result to inform the agent, in its agents' words: Claude Code's
"PostToolUse:Edit hook succeeded: …" and "…hook additional context: …", a bracketed "[hook] …", "[plugin:x] …",
"[rules] …", a banner opened by an emoji about the context or tokens ("📊 Context: 45% used", "💰 Token savings:
…"). A hook that turned the call back ("PreToolUse:Bash hook error") is a refusal (:data:`_HARNESS_REFUSAL`), kept."""
_HOOK_MARK = re.compile(r"hook|\[(?:plugin|extension|rule)|[\U0001F300-\U0001FAFF\u2600-\u27BF]", re.I)
"""What every line :data:`_HOOK_LINE` matches holds: a text without any has no hook's line to drop (one C pass over
a long output, not a Python step per line)."""
_NOTE_CHARS = 2_000
"""A hook's line is short; a longer one is the tool's output."""
_ERROR_WORD = re.compile(r"\b(?:error|fail(?:s|ed|ure)?|exceeded|expired|invalid|denied|refused|blocked|exception)\b",
                         re.I)
"""A line that says something went wrong is the tool's, even opened by an emoji ("❌ context deadline exceeded")."""


def without_hook_notes(text: str) -> str:
    """``text`` without the ``<system-reminder>`` blocks and the lines hooks and plugins add (:data:`_HOOK_LINE`):
    what the tool itself said (``text`` itself when it holds none). One pass; an unclosed reminder runs to the
    end."""
    if _REMINDER_OPEN not in text and not _HOOK_MARK.search(text):
        return text
    kept, inside, dropped = [], False, False
    for line in text.splitlines():
        stripped = line.strip()
        if inside or stripped.startswith(_REMINDER_OPEN):
            inside, dropped = _REMINDER_CLOSE not in stripped, True
        elif len(stripped) < _NOTE_CHARS and _HOOK_LINE.match(stripped) and not _ERROR_WORD.search(stripped):
            dropped = True
        else:
            kept.append(line)
    return "\n".join(kept) if dropped else text


def hook_reply(text: str) -> bool:
    """True when all a result says was added by hooks or plugins: no failure of the tool, whatever its flag."""
    return bool(text.strip()) and not without_hook_notes(text).strip()


def declined_outright(text: str) -> bool:
    """True when the result opens by saying the user declined (so it counts even when not marked an error)."""
    return _DECLINE.search(text[:200]) is not None


_PASSED = re.compile(
    r"\b\d+ (?:passed|passing|tests? passed|examples?, 0 failures)\b|\bTests?:\s+\d+ passed|\ball (?:\d+ )?(?:tests|checks)"
    r" pass(?:ed)?\b|\bok\s+\S+\s+[\d.]+s\b|\bbuild succeeded\b|\bcompiled successfully\b|\bfound 0 errors\b"
    r"|\b0 (?:errors|failures)\b",
    re.I,
)
"""A line of a check's output that says it passed (pytest, vitest/jest, cargo, go test, rspec, tsc, builds)."""


_NONE_RAN = re.compile(
    r"(?<![\d.,])\b0 (?:passed|passing|tests?|examples?|specs?)\b|\bno tests? (?:ran|run|found|collected|executed)\b"
    r"|\bran 0 tests\b",
    re.I,
)
_SOME_RAN = re.compile(r"\b(?:[1-9]\d*) (?:passed|passing|tests?|examples?|specs?)\b|\bran [1-9]\d* tests?\b", re.I)
"""A count of checks that ran: a runner that ran nothing (every test filtered out, none found) proves nothing."""
_SUITE = re.compile(r"\btest result\b|\bTests?:|\btests? (?:run|ran)\b|^=+ .*=$|\bTest Suites?:", re.I)
"""A runner's summary line, where a failure count is the run's verdict (not a test named ``test_failed_login``)."""


_FAILED = re.compile(
    r"\b[1-9]\d* (?:failed|failing|failures?|errors?)\b|\b(?:failures|errors|failed)[=:]\s*[1-9]"
    r"|(?-i:\bFAILED\b|\bFAIL\s)", re.I)
"""A line that counts checks that failed (``1 passed; 4 failed``, ``test result: FAILED``, ``Tests: 2 failed``)."""


def _says_passed(line: str) -> bool:
    if not _PASSED.search(line) or _FAILED.search(line):
        return False
    return _NONE_RAN.search(line) is None or _SOME_RAN.search(line) is not None


def passed_line(text: str) -> str:
    """The last line of a successful output that says a check passed (``12 passed in 0.4s``), or ``""``.

    A line that counts no check run (``ok. 0 passed; 0 failed; 20 filtered out``) says nothing passed: a test
    filter that matched nothing exits 0, and calling that "checks pass" would tell the next agent a lie. Nor does
    an output that counts a failure anywhere in its tail: piped through ``tail`` or ``grep`` a failing run exits 0,
    and the suites that passed beside the one that failed do not make the run pass."""
    tail = output_body(text)[-3000:]
    lines = tail.splitlines()
    if any(_FAILED.search(line) and (_PASSED.search(line) or _SUITE.search(line)) for line in lines):
        return ""
    found = [line.strip(" =\t") for line in lines if _says_passed(line)]
    return short_result(found[-1]) if found else ""


_GO_OK = re.compile(r"^ok\s+(\S+)\s+[\d.]+s\b", re.I)


def short_result(line: str) -> str:
    """What a runner's passing line says, as a summary item may carry it: the count or verdict (``12 passed``,
    ``Tests: 40 passed``, ``build succeeded``), not the timings, paths, banners and progress dots around it; of Go's
    ``ok  example.com/pkg/store  2.2s``, the package's last part (``ok store``)."""
    line = " ".join(line.split())
    go = _GO_OK.match(line)
    if go:
        return f"ok {go.group(1).rstrip('/').rsplit('/', 1)[-1]}"
    verdict = _PASSED.search(line)
    if not verdict:
        return line[:80]
    counted = re.match(r"[,;]?\s*(?:\d+ (?:skipped|pending|todo|deselected|xfailed|xpassed|warnings?))",
                       line[verdict.end():])  # a count beside the passes says what did not run
    return verdict.group(0) + (counted.group(0) if counted else "")
