"""Errors told in words, with no failing tool result: the agent's "The build fails because `foo` is undefined",
"Found the bug: the cache key ignores the locale", "the deploy failed with a 502", "o teste falha porque …",
"エラーの原因は …", "原因是 …"; the user's "I get a 500 when I save", "it still crashes on startup".

Also the user's: an error line pasted on its own (``API 422: {…}``, ``TypeError: …``; longer pastes are
:mod:`.pasted`'s, but for a traceback's last line, the exception that says what failed, kept with the user's words
that bring it in and the agent's first word on its cause: "The issue is that `is_stale` returns True") and a slash
command's output that says it failed (``Couldn't install …: missing required
permissions``); a sub-agent's report that reaches the agent as a user message counts as the user's.

Each is named by its sentence. When in doubt it is settled (a told error read as open when it was dealt with misleads
more than one short line): settled by any file changed after it, the agent's or the user's "fixed", "resolved", "works
now" (in any of the languages) naming one of its identifying words (a backticked value, a quoted code, an error class,
an HTTP status, a file, an identifier), a passing check whose command names one, the user's "works now"; the agent's
also by any check that passed or any new request of the user's after it (it went on). Only what nothing after it may
have dealt with is Blocked; a settled one is told once, the user's before the agent's. Not told: the agent's guesses
("maybe the cache…", "likely", :data:`.languages.TENTATIVE`), a diagnosis naming no failure ("the issue is that `f`
reads stdin once"), a failure word that is a value (```FAILED```), questions, what a change is meant to make fail
("now raises `ValueError` when…", "should fail"), conditions ("if the list is empty it fails"), history ("used to
fail", "previously"), what the agent calls expected or harmless, what it announces ("let me add the failing test"),
and text quoted from docs or output (code fences, ``>`` quotes, table rows). An agent's sentence must carry an
identifying word: its narration of a tool's failure quotes that failure, which the summary names already.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...accessors import content_text
from .diagnostics import tree_error
from .facts import EDIT_TOOLS, WRITE_TOOLS, Attempt, is_shell_tool, message_dicts
from .git_state import git_mistake, git_reports, report_before
from .goal import request_words
from .languages import TENTATIVE, any_language
from .outcome import without_hook_notes
from .pasted import pasted_errors
from .text import clip_words, one_line

OPEN_AGENT, OPEN_USER = "Error the agent found, still open:", "Error the user reported, still open:"
SETTLED_LABEL = "Errors told in words and since settled:"

_FAILS = re.compile(
    r"\b(?:fails|failed|failing|crash(?:es|ed|ing)|breaks|broke|(?:throws|threw) (?:an? )?\w{0,40}(?:error|exception)"
    r"|panic(?:s|ked)|hangs|errors out"
    r"|(?:does ?n[o']t|is ?n[o']t|are ?n[o']t|not|stopped) work(?:ing)?"
    r"|(?:returns?|returned|gets?|got|getting|gives?|gave|shows?|showing) (?:an? |the )?(?:errors?|[45]\d\d|blank)"
    r"|(?:is|are|was|stays?) (?:blank|empty|broken|undefined))\b"
    r"|\b(?:found|identified|spotted|located) the (?:bug|problem|issue|culprit|(?:root )?cause)\b"
    r"|\bthe (?:root cause|cause|bug|culprit)\b[^.\n]{0,80}?\b(?:is|was)\b|\bfailure (?:is|was) (?:because|due to)\b"
    r"|\b(?:is|are|was|were|got|gets|being) (?:cut off|truncated)\b|\b(?:timed|times) out\b"
    # pt, es, de
    r"|\b(?:falha|falhou|falhando|quebra|quebrou|não funciona|deu erro|dá erro|trava|travou)\b"
    r"|\b(?:o (?:erro|problema|bug)|a causa) (?:é|era|está)\b"
    r"|\b(?:falla|falló|fallando|no funciona|se rompe|se rompió|da error|dio error|se cuelga)\b"
    r"|\b(?:el (?:error|problema|bug)|la causa) (?:es|era|está)\b"
    r"|\b(?:schlägt fehl|schlug fehl|fehlgeschlagen|stürzt ab|funktioniert nicht|bricht ab)\b"
    r"|\b(?:der (?:Fehler|Bug)|das Problem|die Ursache) (?:ist|war|liegt)\b"
    # ja, zh, ko
    r"|エラーの原因は|原因は|失敗(?:する|した|します|しました|している|しています)|エラーが(?:出|発生)|動かない|動きません"
    r"|原因是|报错|失败了|出错了|崩溃|问题(?:在于|出在)"
    r"|원인은|실패(?:합니다|했습니다|한다|했다|해요|했어요)|(?:에러|오류)가 (?:발생|납니다|나요)|작동하지 않|동작하지 않",
    re.I)
"""Words that state something fails or what its cause is, in English, Portuguese, Spanish, German, Japanese, Chinese
and Korean."""
_NOT_A_FAILURE = re.compile(
    r"\b(?:if|unless|whether|when(?:ever)? you|will|would|(?:is|are|'s|'re) going to|should|could|might|may|must|can|expected to|meant to"
    r"|so (?:that )?it|make (?:it|them|sure)|ensure|verify|check that|test(?:s|ing)? that|to (?:fail|raise|throw|reject)"
    r"|now (?:raises?|throws?|returns?|rejects?|fails?)|raises? an? \w{1,40}(?:Error|Exception) (?:when|if|for|on)"
    r"|used to|previously|in the past|historically|years? ago|last (?:year|month|week)|no longer|never"
    r"|likely|probably|possibly|perhaps|seems?|appears? to|expected|harmless|benign|claims?|consider|let me|let's|I'll|I will|I need to|we need to|need to|fix the)\b"
    r"|\bso (?:that )?[^.\n]{0,60}?\b(?:does ?n[o']t|wo ?n[o']t|will not|can ?n[o']t|cannot|never)\b"
    r"|\b(?:to (?:avoid|prevent)|so as not to|in case)\b"
    r"|\b(?:si|wenn|falls|caso)\b|(?:なら|たら|場合|如果|假如|的话|면 )",
    re.I)
"""Words around a failure word that make it no failure met: a condition, a modal, a check or a change meant to make
something fail (a validation the session adds), history, a purpose ("so the mock doesn't fail when the global is
undefined", "to avoid a crash")."""
_TENTATIVE = re.compile(any_language(TENTATIVE), re.I)
_CONCERN = re.compile(
    r"\b(?:concern(?:s|ed|ing)?|worr(?:y|ied|ies|ying)|afraid|nervous|fear|doubts?|doubtful|skeptical|sceptical"
    r"|are you sure|(?:I'?m|I am) not (?:sure|convinced|confident)|I (?:do ?n[o']t|do not) think|why did you"
    r"|preocupad[oa]|me preocupa|tenho medo|dúvida|besorgt|ich befürchte|Sorge)\b"
    r"|心配|不安|担心|걱정", re.I)
"""Words of a worry or a doubt about the work ("I'm still concerned that…", "are you sure…", "why did you…"): a
question about the agent's work, no report of a failure met."""
_HAPPENED = re.compile(r"\b(?:failed|crashed|broke|threw|errored|panicked|timed out|went down|falhou|falló|"
                       r"fehlgeschlagen|stürzte ab)\b", re.I)
"""A failure told as past (``the build failed``): a worry that names one reports it."""
_SETTLED = re.compile(
    r"\b(?:fixed|resolved|solved|works now|now works|working now|now pass(?:es)?|pass(?:es)? now|is gone"
    r"|corrigid[oa]|resolvid[oa]|consertad[oa]|funciona agora|agora funciona|arreglad[oa]|solucionad[oa]|corregid[oa]"
    r"|ya funciona|funciona ahora|resuelt[oa]|behoben|gelöst|funktioniert jetzt|repariert)\b"
    r"|修正しました|解決しました|直りました|直った|動きました|已修复|修复了|解决了|已解决|正常了|해결했|수정했|해결됐|고쳤",
    re.I)
"""Words that say a failure is settled, in the same languages."""
_USER_OK = re.compile(
    r"^\W{0,3}(?:(?:ok(?:ay)?|great|perfect|nice|thanks?)\W{1,3})?(?:it |that |now it )?works\b|\bworks now\b"
    r"|\bthat (?:fixed|did) it\b|\bfixed it\b|funciona agora|agora funciona|ya funciona|funktioniert jetzt"
    r"|動きました|可以了|好了|잘 됩니다|됐어요", re.I)
"""The user's word that what failed works now."""
_KEY = re.compile(
    r"`([^`\n]{1,80})`|\"([\w.-]{0,30}[A-Z0-9_][\w.-]{0,30})\""
    r"|\b(\w{1,60}(?:Error|Exception))\b|\b([45]\d\d)\b|\b([\w-]{2,80}\.[a-z]{2,5})\b"
    r"|\b([a-z]{1,40}_\w{1,60}|[a-z]{1,30}[A-Z]\w{1,60}|[A-Z][a-z]{1,30}[A-Z]\w{0,60})\b")
"""What identifies a failure in a sentence: a backticked value, an error class, an HTTP status, a file, an
identifier (snake_case, camelCase, CamelCase)."""
_LOCAL_OUTPUT = re.compile(r"<local-command-(?:stdout|stderr)>([^<]{1,600})")
"""What a slash command the user ran printed (Claude Code puts it in the user's turn; :func:`.goal.request_words`
reads past it)."""
_LOCAL_FAILED = re.compile(r"\b(?:could ?n[o']t|could not|cannot|can ?n[o']t|failed|error|missing|denied|unable)\b",
                           re.I)
_PASTED = re.compile(
    r"^[ \t]{0,8}(?:(?:API|HTTP)(?:/[\d.]{1,4})?[ :]{1,2}[45]\d\d\b|[\w.:]{0,120}(?:Error|Exception)(?:::\w{1,40})?(?::[ \t]|[ \t]\()"
    r"|(?:error|fatal)(?:\[\w{1,20}\])?:[ \t])", re.M | re.I)
"""An error line the user pasted from a program's output (``API 422: {…}``, ``TypeError: x is undefined``,
``error[E0382]: …``, ``fatal: …``, a server log's ``ActionController::RoutingError (No route matches …)``): at a
line's start, as programs print it, not in a sentence."""
_LOG_PREFIX = re.compile(
    r"^[ \t]{0,8}(?:[\w.-]{1,60}[ \t]{1,40}\|[ \t]{0,4}(?:%s){0,4}|(?:%s){1,4})" % ((
        r"\[[^\]\n]{1,60}\][ \t]{0,4}|\d{4}-\d\d-\d\d[T ][\d:.,]{5,20}Z?[ \t]{1,4}",) * 2), re.M)
"""What a server's log puts before each line: the service's name (``web-1  | ``, as ``docker compose logs`` prints
it), a request id or a level in brackets (``[39a9…]``, ``[ERROR]``), a timestamp."""
_SENTENCE = re.compile(r"(?:[^.!?。！？\n]|[.!?](?![\s)]|$)){1,600}(?:[.!?](?=[\s)]|$)|[。！？]|)")
"""A sentence: up to a stop followed by a space or the end (``foo.py`` and ``e.g.x`` stay whole)."""
_CODE = re.compile(r"`[^`\n]{0,200}`")
"""A code span: a value (``FAILED``, ``on_error``), not the sentence's word for a failure."""
_FENCE = "```"
_TRACEBACK = "Traceback (most recent call last)"
_BOX = ("│", "┃", "║", "╭", "╰", "┌", "└", "├")
"""The frame a program draws around its output (rich's tracebacks and panels): a line inside it is output, no
sentence of the user's."""
_CAUSE = re.compile(r"\b(?:the (?:root )?cause (?:is|was)|the (?:issue|problem|bug|error|failure) (?:is|was) (?:that|because)"
                    r"|(?:is|was) caused by|fails? because|failed because|happens because)\b", re.I)
"""Words of the agent's that say what caused an error (``The issue is that `is_stale` returns True``)."""
_CAUSE_CHARS = 160
_INTRO_CHARS = 60
"""The user's words that bring in a pasted error ("I get this when I run `make dev`:") are kept this long."""
_MESSAGE_CHARS = 20_000
_REPORT_CHARS = 100
_SENTENCE_CHARS = 240
_SETTLED_CHARS = 120
_MOST = 4
_MOST_GIT = 2
"""Mistakes in git's state named at most, before the rest: no failing result tells them."""


@dataclass
class Told:
    """The errors told in words: the open ones by who told them, the settled ones."""

    open: list[str] = field(default_factory=list)
    settled: list[str] = field(default_factory=list)


@dataclass
class _Statement:
    at: int
    words: str
    keys: frozenset[str]
    user: bool
    pasted: bool = False
    """An error line the user copied in from a program's output (not the user's own words)."""
    git: bool = False
    """A mistake in git's state (:mod:`.git_state`): no failing result names it, so it is news like the user's."""
    report: str = ""
    """Where git said the work went (``[feature/x 197e4e6]``), for a mistake in git's state."""


def told_errors(messages: Any, attempts: tuple[Attempt, ...] = ()) -> Told:
    """The errors ``messages`` tell in words (see the module docstring), each open or settled, the latest last."""
    statements: list[_Statement] = []
    settled_at: dict[str, int] = {}  # an identifying word -> the last place a settling word or check named it
    user_ok = requests = -1
    reports = git_reports(list(message_dicts(messages)), attempts)
    reported: dict[str, int] = {}  # a git report -> the statement that speaks of it
    repeated: dict[str, int] = {}  # a pasted error's quoted message -> the statement that told it
    for at, message in enumerate(message_dicts(messages)):
        role = message.get("role")
        if role not in ("user", "assistant"):
            continue
        whole = content_text(message.get("content"), "\n")
        text = whole[:_MESSAGE_CHARS]
        user = role == "user"
        if user:
            for output in _LOCAL_OUTPUT.findall(text):  # a slash command's output that says it failed
                if _LOCAL_FAILED.search(output):
                    statements.append(_Statement(at, one_line(output), _keys(output), True))
            text = without_hook_notes(request_words(text))  # (a hook's banner is no word of the user's)
            requests = at if text.strip() else requests
            if _USER_OK.search(text[:300]):
                user_ok = at
        pasted = _pasted(text) if user and "\n" not in text.strip() else (
            _logged(text) or _raised(whole) or tree_error(text)) if user else ""
        if pasted:  # (output the user copied in: its error line is the report)
            quoted = _last_code(pasted)
            if quoted in repeated:  # (the same error pasted again: told once, where it came back)
                statements[repeated[quoted]].words = ""
            repeated[quoted] = len(statements)
            statements.append(_Statement(at, pasted, _keys(pasted), True, pasted=True))
        reasons = _api_reasons(text) if user and "\n" in text.strip() else []
        for reason in reasons:
            statements.append(_Statement(at, reason, _keys(reason), True))
        before = ""
        for sentence in _sentences(text):
            if reasons and _FIELD_LINE.match(sentence):
                continue  # (another field of the error body: its reason is told, not its generic `message`)
            keys, before, previous = _keys(sentence), sentence, before
            if _SETTLED.search(sentence):
                for key in keys:
                    settled_at[key] = at
                continue
            if _git_told(sentence):  # (git's state went wrong: what git reported says where the work went)
                report = report_before(reports, at, requests if not user else -1)
                words = sentence if keys or not previous else f"{previous} {sentence}"
                if report and report in reported:  # (more words on the same mistake: one line)
                    said = statements[reported[report]]
                    if len(said.words) < _SENTENCE_CHARS:  # (what is clipped away is not gathered)
                        said.words = f"{said.words} {clip_words(words, _SETTLED_CHARS)}"
                        said.keys = said.keys | _keys(words)
                    continue
                if report:
                    reported[report] = len(statements)
                statements.append(_Statement(at, words, _keys(f"{words} `{report}`"), user, git=True,
                                             report=report))
                continue
            if _told(sentence, user) and (keys or user):
                if pasted and statements[-1].pasted and statements[-1].at == at and " — " not in statements[-1].words \
                        and not _FIELD_LINE.match(sentence):
                    # the user's words that bring in the paste ("I get an error: npm run dev") say where it failed
                    words = f"{clip_words(sentence, _INTRO_CHARS)} — {pasted}"
                    statements[-1] = _Statement(at, words, keys | statements[-1].keys, True, True)
                    continue
                statements.append(_Statement(at, sentence, keys, user))
    changes, checks = [], []  # where files were changed; where a check passed
    for attempt in attempts:  # a check that passed since, naming what failed
        if attempt.failed or attempt.aborted:
            continue
        if is_shell_tool(attempt.tool) and attempt.passed:
            checks.append(attempt.index)
            for key in _keys(attempt.target):
                settled_at[key] = max(settled_at.get(key, -1), attempt.index)
        elif attempt.tool.lower() in EDIT_TOOLS | WRITE_TOOLS:
            changes.append(attempt.index)
    last_change, last_check = max(changes, default=-1), max(checks, default=-1)
    last_report = reports[-1][0] if reports else -1
    causes = _causes_after(message_dicts(messages)) if any(statement.pasted for statement in statements) else {}
    told, agents, gits = Told(), [], []
    for statement in statements:
        if not statement.words:
            continue  # (told again later)
        # when in doubt, settled: a told error is open only while nothing after it may have dealt with it — no
        # file changed since, no word or check settling what it names, no "works now"; for the agent's, no check
        # passed and no new request of the user's since (it went on)
        done = last_change > statement.at or user_ok > statement.at \
            or any(settled_at.get(key, -1) > statement.at for key in statement.keys) \
            or (not statement.user and max(last_check, requests) > statement.at) \
            or (statement.git and last_report > statement.at)  # (committed or pushed again since)
        chars = _SETTLED_CHARS if done else _SENTENCE_CHARS  # (settled: its identifying words, on one line)
        chars += _INTRO_CHARS if statement.pasted and " — " in statement.words else 0  # (and the words before it)
        chars += _SETTLED_CHARS if statement.git else 0  # (its words and the agent's on why, on one line)
        line = f"“{clip_words(statement.words, chars)}”"
        line += f" (git: `{clip_words(statement.report, _REPORT_CHARS)}`)" if statement.report else ""
        cause = causes.get(statement.at, "") if statement.pasted else ""
        line += f" (the agent: “{clip_words(cause, _CAUSE_CHARS)}”)" if cause else ""
        if done:
            (gits if statement.git else told.settled if statement.user else agents).append(line)
        else:
            told.open.append(f"{OPEN_USER if statement.user else OPEN_AGENT} {line}")
    # what the user or a sub-agent reported is news the agent's narration often is not: theirs first
    told.settled = _unique(gits)[-_MOST_GIT:] + _unique(told.settled)[-_MOST:]
    told.settled += _unique(agents)[-max(0, _MOST - len(told.settled)):] if len(told.settled) < _MOST else []
    told.open = _unique(told.open)[-_MOST:]
    return told


def _pasted(text: str) -> str:
    """The last error line the user pasted in ``text`` (a traceback's last line says what failed), clipped."""
    found = None
    for found in _PASTED.finditer(text[:_MESSAGE_CHARS]):
        pass
    if found is None:
        return ""
    end = text.find("\n", found.start())
    return text[found.start():end if end >= 0 else len(text)].strip()


def _raised(text: str) -> str:
    """The exception a traceback the user pasted in ``text`` (a whole message) ends with (``FileNotFoundError: [Errno 2] No such file
    or directory: 'x'``, under Python's or rich's ``Traceback (most recent call last)``), or ``""``: what failed,
    where the frames above it only say how it got there."""
    start = text.find(_TRACEBACK, 0, _MESSAGE_CHARS)
    return _pasted(text[max(start, len(text) - _MESSAGE_CHARS):]) if start >= 0 else ""  # (its end: the last line)


def _causes_after(messages: Any) -> dict[int, str]:
    """Per user message, the agent's first sentence in its replies to it (before the user's next words) that says
    what caused an error (``The issue is that `is_stale` returns True``): what the user's pasted error came from.
    One backward pass."""
    found: dict[int, str] = {}
    upcoming = ""
    listed = list(messages)
    for at in range(len(listed) - 1, -1, -1):
        message = listed[at]
        role = message.get("role")
        if role == "assistant":
            text = content_text(message.get("content"), "\n")[:_MESSAGE_CHARS]
            upcoming = next((sentence for sentence in _sentences(text) if _CAUSE.search(sentence)
                             and not sentence.rstrip().endswith(("?", "？"))), upcoming)
        elif role == "user":
            found[at] = upcoming
            if request_words(content_text(message.get("content"), "\n")).strip():
                upcoming = ""  # (an answer to the user's later words is no cause of this one's error)
    return found


def _logged(text: str) -> str:
    """The last error line of a server log the user pasted in ``text`` (several lines, each under a log's prefix:
    :data:`_LOG_PREFIX`) when :mod:`.pasted` finds none there (its lines do not open with the error), else ``""``."""
    bare = _LOG_PREFIX.sub("", text[:_MESSAGE_CHARS])
    if bare == text[:_MESSAGE_CHARS] or pasted_errors(text):
        return ""
    return _pasted(bare)


_REASON_FIELD = re.compile(
    r"""^[ \t]{0,16}["']?(?:raw|detail|details|reason|error_description|error_message)["']?[ \t]{0,3}:[ \t]{0,3}"""
    r"""(["'])([^\n]{8,400}?)\1,?[ \t]{0,3}$""", re.M | re.I)
"""A field of an API's error body the user pasted (a log that prints the response: ``raw: '… is temporarily
rate-limited upstream'``, ``"detail": "Quota exceeded"``): the provider's own reason, which its generic ``message``
(``Provider returned error``) does not say."""
_WRAPPED = re.compile(r"""^\{[ \t]{0,3}\\?["']\w{1,30}\\?["'][ \t]{0,3}:[ \t]{0,3}\\?["']""")
"""A reason that is itself a JSON body (``{"error":"API key USD spend limit exceeded…"}``): its opening, dropped."""
_REASONS = 2
_ERROR_BODY = re.compile(r"""\berror["']?[ \t]{0,3}:[ \t]{0,3}\{""", re.I)
"""An error object opening (``error: {``, ``"error": {``): the fields below it are an API's error body."""
_FIELD_LINE = re.compile(r"""^["']?\w{1,30}["']?[ \t]{0,3}:[ \t]{0,3}["'{\[]""")
"""A line of a pasted object (``message: 'Provider returned error',``): output, no sentence of the user's."""


def _api_reasons(text: str) -> list[str]:
    """The distinct reasons the API error bodies pasted in ``text`` give (:data:`_REASON_FIELD`), the latest
    :data:`_REASONS`, each without a JSON wrapping."""
    if not _ERROR_BODY.search(text):
        return []
    found = [_WRAPPED.sub("", match.group(2)).rstrip('"}\\ ') for match in _REASON_FIELD.finditer(text)]
    return _unique(found)[-_REASONS:]


def _last_code(text: str) -> str:
    """The last code span of ``text`` (a pasted error's quoted message: :func:`.diagnostics.tree_error`), or
    ``text`` itself when it holds none."""
    end = text.rfind("`")
    start = text.rfind("`", 0, end) if end > 0 else -1
    return text[start + 1:end] if start >= 0 else text


def _unique(lines: list[str]) -> list[str]:
    return list(dict.fromkeys(lines))


def _git_told(sentence: str) -> bool:
    """The sentence says git's work went elsewhere than meant (:func:`.git_state.git_mistake`), as a fact: no
    condition, modal, guess or question ("make sure we don't push the wrong branch")."""
    return git_mistake(sentence) and not sentence.rstrip().endswith(("?", "？")) \
        and not _NOT_A_FAILURE.search(sentence) and not _TENTATIVE.search(sentence)


def _told(sentence: str, user: bool) -> bool:
    """The sentence states a failure met: failure words, no condition, modal, guess, question or history; and
    no worry about the work ("I'm still concerned that the product doesn't work properly") unless it names a
    failure that happened ("I'm worried: the deploy crashed twice")."""
    bare = _CODE.sub("", sentence)
    return bool(_FAILS.search(bare)) and not sentence.rstrip().endswith(("?", "？")) \
        and not _NOT_A_FAILURE.search(sentence) and not _TENTATIVE.search(sentence) \
        and not (_CONCERN.search(sentence) and not _HAPPENED.search(bare))


def _keys(text: str) -> frozenset[str]:
    return frozenset(next(group for group in found.groups() if group).lower()
                     for found in _KEY.finditer(text[:2000]))


def _sentences(text: str) -> Iterator[str]:
    """The sentences of ``text`` outside code fences, ``>`` quotes, table rows and drawn boxes (docs or output
    quoted), trimmed."""
    fenced = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(_FENCE):
            fenced = not fenced
            continue
        if fenced or stripped.startswith((">", "|", *_BOX)) or not stripped:  # (a quote, a table's row, a box)
            continue
        for found in _SENTENCE.finditer(stripped):
            sentence = found.group().replace("**", "").strip(" -*#\t")  # (without bold marks)
            if len(sentence) >= 8:
                yield sentence


def unsaid(told: Told, shown: str, trimmed_first: str = "") -> Told:
    """``told`` without what ``shown`` (the summary so far) says already: a sentence quoted there, or one whose
    identifying words all appear there (the failing tool result the agent narrates). Lines holding
    ``trimmed_first`` (an earlier request's, which the budget drops first) do not count: an error the user pasted
    is said there only until then."""
    lines = shown.splitlines()
    lowered = "\n".join(line for line in lines if not trimmed_first or trimmed_first not in line).lower()

    def new(line: str) -> bool:
        sentence = line.split("“", 1)[-1].rstrip("”").rstrip("…")
        keys = {key for key in _keys(sentence) if not key.isdigit()}  # (a bare status is found anywhere)
        if line.startswith(OPEN_USER):  # (no failing tool result of the agent's says it: its words only)
            return sentence.lower() not in lowered
        return sentence.lower() not in lowered and not (keys and all(key in lowered for key in keys))

    return Told([line for line in told.open if new(line)], [line for line in told.settled if new(line)])


__all__ = ["OPEN_AGENT", "OPEN_USER", "SETTLED_LABEL", "Told", "told_errors", "unsaid"]
