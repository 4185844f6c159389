"""Failures the agent's own words settle or place: one it explained as expected ("that error is expected: the test
checks the failure path", "the warning is harmless") or accepted as the outcome it wanted ("the CLI correctly rejects
the missing file", "✓ invalid input refused", "如预期返回错误"), one it meant to fail (a negative test: "let me check
that an invalid flag is rejected", ``mycli --bogus  # should fail``, a call described as "Verify bad token is
refused") whose outcome it did not then doubt ("hmm, it should have failed with 2, not 1"), one it said is not of
this work ("pre-existing failure, unrelated to this change"), and one it said it routes around ("the MCP server is
down; reading the file directly", "let me try a different approach") when a later call of the same role then
succeeded.

A failure the agent explained as expected is no open error of the work (it is the reason the agent went on); one
routed around is history once the other way did the job. A failure the agent called pre-existing or unrelated is
still a failure: the check still fails, and a rule such as "do not report done until `task ci` passes" still meets
it, so it stays open, marked as not of this change. The role of a call (search, read, fetch, a check's kind) is told
by what the tool or command is for (:mod:`.jobs`), never by one tool's name: Claude Code's Grep and Glob, an MCP
server's ``mcp__srv__search_code``, ``rg`` in a shell and a sub-agent sent to explore all search. Writing has no role
here: a file is settled by the same file changed since (:mod:`.errors`), not by another file written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...accessors import content_text
from .facts import Attempt, is_shell_tool
from .jobs import BUILD, LINT, SEARCH, TEST, TYPECHECK, jobs_of
from .shell import command_words, shell_effects

READ, FETCH = "read", "fetch"

_SAID_OF_IT = (r"\b(?:this|that|the|these|those|it|which|both)(?:\s[\w-]{1,30}){0,3}?"
               r"(?:\s(?:is|are|was|were|seems?|looks?)|'s|'re)\s(?:an?\s|just\s|all\s|likely\s|probably\s){0,2}")
"""What opens the agent's word about a failure ("that error is", "these are all", "it's likely"): what follows
says what the failure is."""
_EXPECTED = re.compile(
    _SAID_OF_IT + r"(?:(?:expected|harmless|benign)\b(?!\sto\b)"
    r"|expected to (?:fail|error|exit|raise|throw|be rejected)\b|safe to ignore\b)"
    r"|\b(?:fail(?:s|ed|ures?)?|errors?(?:ed)?|exit(?:s|ed)?|rejected|raised?) as expected\b"
    r"|\bcan (?:safely )?be (?:safely )?ignored\b",
    re.I,
)
"""The agent's words that a failure is expected or harmless: "that error is expected", "the warning is harmless",
"fails as expected", "can be safely ignored"; not "is expected to pass", "unexpected", "is not expected". Not
"intentional" nor "by design" either: those say the code behaves as meant, and the failing check is what to change."""
_NOT_OURS = re.compile(
    _SAID_OF_IT + r"(?:pre-?existing\b|unrelated\b|not related\b)"
    r"|\bpre-?existing(?:\s[\w-]{1,30}){0,2}?\s(?:failures?|errors?|issues?|problems?|warnings?|bugs?)\b"
    r"|\b(?:unrelated|not related) to (?:this|our|my|the|these|your) (?:change|work|task|fix|pr|refactor|edit)"
    r"|\bnot (?:caused|introduced) by (?:this|our|my|the|these) (?:change|work|edit|fix)",
    re.I,
)
"""The agent's words that a failure is not of this work: "these are pre-existing failures", "unrelated to this
change", "not introduced by this change". The failure stays open, marked so (see the module docstring)."""
_STILL_TO_FIX = re.compile(r"\b(?:let me|let's|I'll|I will|I need to|we need to|I should|we should|needs? to be)"
                           r"\s(?:\w{1,30}\s){0,2}?(?:fix|update|change|adjust|rewrite|correct)\w{0,3}\b", re.I)
"""Words that a change is still to make ("this is expected since we renamed it; let me update the test"): the
failure is explained, not settled."""
_FAILS = (
    r"(?:reject(?:s|ed|ing)?|refus(?:es|ed|ing)|den(?:ies|ied)|fail(?:s|ed|ing)?|errors? out|errored|raise[sd]?|throws?"
    r"|threw|abort(?:s|ed)|blocked|disallowed|not allowed|exit(?:s|ed)?(?: with)?(?: code| status)? (?:[1-9]\d{0,2}|non-?zero)"
    r"|(?:gets?|got|returns?|returned|responds?(?: with)?|gives?|gave) (?:an? |the )?(?:errors?|[45]\d\d|non-?zero)"
    r"|abgelehnt|verweigert|schlägt fehl|fehlgeschlagen|rejet\w{0,4}|refus\w{0,4}|échou\w{0,4}|rechaz\w{0,6}|falla\w{0,3})"
)
"""Words that say a call failed or was turned away, in a sentence that may accept it ("rejects", "exits 1", "gets
401", "abgelehnt", "rejeté", "rechaza")."""
_AS_WANTED = (
    r"(?:as expected|as intended|as designed|as required|as (?:it|they|that|this) should|correctly|properly"
    r"|appropriately|wie erwartet|erwartungsgemäß|korrekt|richtig|comme prévu|comme attendu|correctement"
    r"|como se esperaba|como esperado|según lo esperado|correctamente)"
)
"""Words that say an outcome is the one wanted, in English, German, French and Spanish."""
_GAP = r"(?:[\s,:;—–-]{1,3}[\w'’-]{1,20}){0,3}?[\s,:;—–-]{1,3}"
_ACCEPTED = re.compile(
    rf"(?<!\w){_AS_WANTED}{_GAP}{_FAILS}(?!\w)|(?<!\w){_FAILS}{_GAP}{_AS_WANTED}(?!\w)"
    r"|\b(?:error|failure) (?:handling|path|case)s? (?:works?|is working|behaves correctly|(?:is|are) correct)\b"
    r"|\b(?:the|an?) expected (?:error|failure|rejection|refusal|exit (?:code|status)|[45]\d\d)\b"
    r"|^[\s>*-]{0,4}[✓✔✅☑]\uFE0F?\s{0,2}[^\n]{0,60}?\b(?:" + _FAILS[3:-1] + r"|errors?|invalid|unauthori[sz]ed)\b"
    r"|(?:符合预期|如预期|按预期|正确地?|如期)[^。！？\n]{0,12}?(?:拒绝|报错|失败|返回错误|退出)"
    r"|(?:拒绝|报错|失败|返回错误|退出码)[^。！？\n]{0,12}?(?:符合预期|如预期|按预期|正确)"
    r"|(?:错误|异常)处理(?:正常|有效|生效|没问题|符合预期)"
    r"|(?:期待通り|想定通り|予想通り|正しく)[^。！？\n]{0,12}?(?:拒否|エラー|失敗|弾)"
    r"|(?:拒否|エラー|失敗|弾)[^。！？\n]{0,16}?(?:期待通り|想定通り|予想通り|正しく)"
    r"|(?:エラー|例外)処理(?:は|が)?(?:正常|問題なく|期待通り)",
    re.I | re.M,
)
"""The agent's words that a failure is the outcome it wanted, said next to the failure ("the CLI correctly rejects
the missing file", "exits 1 as expected", "unauthenticated requests get 401 as they should", "✓ invalid input
refused", "error handling works", "缺失文件被正确拒绝", "期待通りエラーになる", "wird korrekt abgelehnt"): read
per sentence, with :data:`_DOUBTS` turning it back."""
_DOUBTS = re.compile(
    r"\b(?:should(?:n'?t| not)? have|unexpected(?:ly)?|wrong|incorrect(?:ly)?|not (?:as expected|correctly|properly)"
    r"|instead of|hmm+|(?:but|yet) (?:it|the|this|that)|is ?n'?t|was ?n'?t|does ?n'?t|did ?n'?t|does not|did not"
    r"|is not|was not)\b|应该|不符合|而不是|不对|はず|ではなく|sollte|statt|falsch|devrait|au lieu|debería|en lugar",
    re.I,
)
"""Words that doubt the outcome ("hmm, it should have failed with 2, not 1", "it rejects it, but the message is
wrong"): the failure stays open."""
_LOOKS_INTO = re.compile(r"\b(?:why|investigat\w{1,4}|debug\w{0,3}|figure out|went wrong|root cause)\b|为什么|なぜ|原因"
                         r"|warum|pourquoi|por qué", re.I)
"""Words that look into a failure ("let me look at why the load fails"): not the outcome a negative test wanted."""
_MEANT = re.compile(
    r"\b(?:should (?:fail|error|exit non-?zero|be (?:rejected|refused|denied|blocked))|must fail|expect(?:s|ed|ing)?"
    r"(?: an?| the)? (?:error|failure|rejection|non-?zero|exit (?:code )?[1-9]|[45]\d\d\b|to fail)"
    r"|negative (?:test|case|path)s?|error (?:path|case)s?|failure (?:path|case|mode)s?)\b"
    r"|应该失败|预期(?:的)?(?:错误|失败)|失敗するはず|異常系|sollte fehlschlagen|doit échouer|debe fallar",
    re.I,
)
"""Words that say outright that a call is to fail ("# should fail", ``echo "expect error"``, "negative test")."""
_CHECKS = re.compile(
    r"\b(?:test\w{0,3}|verif\w{1,5}|check\w{0,3}|confirm\w{0,3}|ensur\w{1,3}|make sure|validat\w{1,4}|see (?:if|whether"
    r"|that)|prüf\w{0,4}|überprüf\w{0,4}|vérifi\w{0,4}|comprob\w{0,4}|prueb\w{0,3})\b|测试|验证|检查|确认|確認|テスト|検証",
    re.I,
)
_ERROR_PATH = re.compile(
    r"\b(?:reject\w{0,3}|refus\w{0,3}|den(?:y|ies|ied)|error (?:handling|path|case)s?|fail(?:s|ure)? (?:path|case|mode)s?"
    r"|fails? (?:on|for|with|when|gracefully)|exits? (?:with )?(?:non-?zero|an error|(?:code |status )?[1-9])"
    r"|errors? (?:out|gracefully)|(?:returns?|gets?|gives?|responds? with) (?:an? )?(?:error|[45]\d\d)\b)"
    r"|拒绝|错误处理|拒否|エラー処理|abgelehnt|ablehn\w{0,3}|Fehlerbehandlung|rejet\w{0,3}|gestion des erreurs"
    r"|rechaz\w{0,4}|manejo de errores",
    re.I,
)
"""What a check of an error path expects ("is rejected", "error handling", "fails on", "returns 401", "拒绝"): with
:data:`_CHECKS` ("let me verify that an invalid token is refused"), the words of a call meant to fail. A bad input
alone is not ("let me test the fix for the missing file": the fix is to make it work)."""
_SAID_IN_COMMAND = re.compile(r"(?:^|\s)#\s{0,3}([^\n]{1,200})|\b(?:echo|printf|print|Write-Host)\s{1,3}([^\n;&|]{1,200})",
                              re.M)
"""What a command says of itself: a comment, the label it prints (``echo "Test 3: missing file (should fail)"``)."""
_BEFORE_CALL_CHARS = 400
_CHECK_JOBS = frozenset({TEST, BUILD, LINT, TYPECHECK})
"""A run of the project's own checks is never meant to fail: a failing test of an error path is a failing test."""


_ALL_WORKED = re.compile(
    r"\b(?:all|every|each)(?: (?:the|of the|\d{1,3}|of them))?(?: [\w-]{1,20}){0,2}? (?:tests?|checks?|cases?|scenarios?"
    r"|patterns?|commands?|runs?|probes?|paths?)(?: (?:\w{1,15}|all))?? (?:work(?:s|ed)?|pass(?:es|ed)?|behave[sd]?"
    r"|succeed(?:s|ed)?|(?:are|were|look|looks|came out) (?:good|fine|correct|right|ok|as expected))\b"
    r"|\b(?:everything|all) (?:works|worked|behaves|behaved|looks good|checks out|is working)\b"
    r"|(?:全|すべて|全部)(?:て|の)?(?:テスト|パターン|ケース|確認|シナリオ|項目)?(?:が|は|とも|も)?\s?(?:正常|期待通り|想定通り|問題なく|OK|成功)"
    r"|(?:全部|都|均)(?:测试)?(?:正常|通过|符合预期|按预期)|모두 정상|모든 테스트(?:가)? (?:정상|통과)"
    r"|\balles funktioniert|\balle Tests (?:laufen|funktionieren|bestanden)|\btout fonctionne"
    r"|\btous les tests (?:passent|fonctionnent)|\btodo funciona|\btodas las pruebas (?:pasan|funcionan)"
    r"|\btudo funciona|\btodos os testes (?:passam|funcionam)",
    re.I,
)
"""The agent's verdict on a batch of runs it made to try a feature, all at once ("All tests work as expected",
"全テスト正常動作", "everything works", "todos os testes passam"): a run of the batch that failed was one of its
cases (an invalid input refused), whatever words its own description used."""
_EXCEPT = re.compile(r"\b(?:except|apart from|but|other than|save for)\b|以外|ただし|除了|但是|außer|sauf|excepto|exceto",
                     re.I)


def _all_worked(text: str) -> bool:
    """True when the first sentence of ``text`` is a verdict that every run of a batch worked (:data:`_ALL_WORKED`),
    with no exception named and no doubt."""
    first = next((s for s in _SENTENCES.split(text.strip()[:600]) if s.strip()), "")
    return bool(_ALL_WORKED.search(first)) and not _EXCEPT.search(first) and not _DOUBTS.search(first)


def _meant_to_fail(words: str) -> bool:
    """True when ``words`` (what a call says of itself, or the agent's words just before it) say the call is meant
    to fail: outright ("should fail"), or as a check of an error path ("verify that a missing file is rejected")."""
    if _LOOKS_INTO.search(words):
        return False  # "let me check why the request is rejected": the failure is the question, not the aim
    return bool(_MEANT.search(words) or (_CHECKS.search(words) and _ERROR_PATH.search(words)))


def accepted(text: str) -> bool:
    """True when a sentence of the agent's ``text`` accepts a failure as the outcome it wanted (:data:`_ACCEPTED`)
    and neither doubts it (:data:`_DOUBTS`) nor asks."""
    for sentence in _SENTENCES.split(text[:_TEXT_CHARS]):
        if _ACCEPTED.search(sentence) and not _DOUBTS.search(sentence) and not sentence.rstrip().endswith(("?", "？")):
            return True
    return False


_SENTENCES = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")
_ROUTED = re.compile(
    r"\binstead\b|\b(?:a |an )?(?:different|another|alternative|other) (?:approach|way|method|tool|route|strategy)\b"
    r"|\bfall(?:ing)?[ -]?back\b|\bdirectly\b|\bmanually\b|\bby hand\b|\bwork[ -]?around\b|\bmyself\b"
    r"|\b(?:is ?n'?t|not|no longer) (?:available|installed|working|connected|running|responding|reachable"
    r"|accessible|supported)\b|\bunavailable\b|\b(?:is|seems|appears)(?: to be)? (?:down|broken|offline)\b"
    r"|\bdoes ?n'?t exist\b",
    re.I,
)
"""The agent's words that it does the job another way ("I'll use Grep instead", "reading the file directly", "the
MCP server isn't connected", "let me try a different approach")."""
_TEXT_CHARS = 4_000
_TEXTS = 2
"""The agent's texts after a failure that may speak of it: the first often only looks further ("Let me check whether
it fails on main too"), the next says what it found ("pre-existing"); later words are about later things."""

_TOOL_ROLES = (
    (re.compile(r"web|fetch|browse|http|url|navigate|scrape|download|curl", re.I), FETCH),
    (re.compile(r"grep|glob|search|find|lookup|symbol|reference", re.I), SEARCH),
    (re.compile(r"read|view|cat\b|open|get_?file|contents|outline|overview|list_?(?:dir|files)", re.I), READ),
    (re.compile(r"typecheck|type_check", re.I), TYPECHECK),
    (re.compile(r"test", re.I), TEST),
    (re.compile(r"build|compile", re.I), BUILD),
    (re.compile(r"lint", re.I), LINT),
)
"""A tool's role by the words of its own name (an MCP tool's part after the server's)."""
_DELEGATES = frozenset({"task", "agent", "subagent", "sub_agent", "dispatch_agent", "delegate", "spawn_agent"})
"""Tools that send a sub-agent off, most often to explore: it searches, reads and fetches."""
_LOOKING = frozenset({SEARCH, READ, FETCH})
_FETCHERS = frozenset({"curl", "wget", "http", "https", "xh", "httpie", "gh"})


def roles(attempt: Attempt) -> frozenset[str]:
    """What a call was for: the checks of a command (:func:`.jobs.jobs_of`), a fetch, a read; of another tool, by
    its name. Empty when not known (a write, a tool whose name says nothing)."""
    if is_shell_tool(attempt.tool):
        found = {job.kind for job in jobs_of(attempt.target)}
        effects = shell_effects(attempt.target)
        if any(program.lower() in _FETCHERS for program in effects.programs) or any(
                words[:2] in (["git", "clone"], ["git", "fetch"], ["git", "pull"]) for words in command_words(attempt.target)):
            found.add(FETCH)
        if effects.reads and effects.inspects_only and not found:  # (a search reads too; it is a search)
            found.add(READ)
        return frozenset(found)
    name = attempt.tool.rsplit("__", 1)[-1].lower()
    if name in _DELEGATES:
        return frozenset({SEARCH, READ, FETCH})
    return next((frozenset({role}) for pattern, role in _TOOL_ROLES if pattern.search(name)), frozenset())


def _routable(attempt: Attempt) -> frozenset[str]:
    """The roles by which a failure routed around is settled: of a command, only a lookup's (search, read, fetch); a
    failed check is settled by a check that covers it (:func:`.jobs.covers`), not by any passing run of its kind."""
    found = roles(attempt)
    return found & _LOOKING if is_shell_tool(attempt.tool) else found


@dataclass(frozen=True)
class AgentWords:
    """What the agent's words say of the region's failures, by the index of the failed call."""

    settled: dict[int, Attempt | None]
    """Failures settled: each with the later call that did its job another way, ``None`` for one explained as
    expected."""
    not_ours: frozenset[int]
    """Failures the agent said are not of this work (pre-existing, unrelated): still open."""


def _calls_said(messages: Sequence[dict]) -> dict[str, str]:
    """For each call of the agent's, by its id: what it says of itself and the agent's words just before it (the
    text of its message before it, the ``description`` a tool takes), read once."""
    said: dict[str, str] = {}
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "assistant" \
                or not isinstance(message.get("content"), list):
            continue
        before = ""
        for block in message["content"]:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                before = (before + "\n" + block["text"])[-_BEFORE_CALL_CHARS:]
            elif block.get("type") == "toolCall" and isinstance(block.get("id"), str):
                arguments = block.get("arguments") if isinstance(block.get("arguments"), dict) else {}
                described = arguments.get("description")
                said[block["id"]] = "\n".join((before, described if isinstance(described, str) else ""))
    return said


def _is_check(attempt: Attempt) -> bool:
    """A run of the project's own checks (:data:`_CHECK_JOBS`), or a call of no shell tool."""
    return not is_shell_tool(attempt.tool) or bool({job.kind for job in jobs_of(attempt.target)} & _CHECK_JOBS)


def _meant(attempt: Attempt, message: dict, calls: dict[str, str]) -> bool:
    """True when the failed ``attempt`` (its result ``message``) was meant to fail: its command's comment or printed
    label, its description or the agent's words just before it say so (:func:`_meant_to_fail`); never a run of the
    project's checks (:data:`_CHECK_JOBS`)."""
    shell = is_shell_tool(attempt.tool)
    if shell and {job.kind for job in jobs_of(attempt.target)} & _CHECK_JOBS:
        return False
    own = " ".join(m.group(1) or m.group(2) for m in _SAID_IN_COMMAND.finditer(attempt.target[:4000])) if shell else ""
    call_id = message.get("toolCallId")
    return _meant_to_fail(own) or (isinstance(call_id, str) and _meant_to_fail(calls.get(call_id, "")))


def settled_by_words(messages: Sequence[dict], attempts: Sequence[Attempt]) -> AgentWords:
    """What the agent's words say of the failed ``attempts`` (see the module docstring). One pass over the messages: a
    failure waits for the agent's next few texts, then, when they route around it, for a later success of one of
    its roles; each failure is taken out once, so the cost is that of the messages and the attempts."""
    at: dict[int, list[Attempt]] = {}
    for attempt in attempts:
        at.setdefault(attempt.index, []).append(attempt)
    settled: dict[int, Attempt | None] = {}
    not_ours: set[int] = set()
    pending: list[tuple[Attempt, int]] = []  # a failure and how many texts of the agent's came since
    waiting: dict[str, list[int]] = {}  # a role -> the failures a success of that role settles
    calls = _calls_said(messages) if any(a.failed for a in attempts) else {}
    meant: set[int] = set()  # failures meant to fail whose outcome the agent has not yet spoken of
    for index, message in enumerate(messages):
        for attempt in at.get(index, ()):
            if attempt.aborted:
                continue
            if attempt.failed:
                pending.append((attempt, 0))
                if isinstance(message, dict) and _meant(attempt, message, calls):
                    meant.add(attempt.index)
            elif waiting:
                for role in roles(attempt):
                    settled.update(dict.fromkeys(waiting.pop(role, ()), attempt))
        if not pending or not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        text = content_text(message.get("content"))[:_TEXT_CHARS]
        if not text.strip():
            continue
        if _STILL_TO_FIX.search(text):
            pending, meant = [], set()  # the agent takes the failures on: a later word of "pre-existing" is about others
            continue
        if _EXPECTED.search(text) or accepted(text):
            settled.update(dict.fromkeys((attempt.index for attempt, _ in pending), None))
            pending, meant = [], set()
            continue
        if _all_worked(text):  # (the first words after a batch of tries; a failed run of the checks stays open)
            tried = {attempt.index for attempt, seen in pending if seen == 0 and not _is_check(attempt)}
            settled.update(dict.fromkeys(tried, None))
            pending = [(attempt, seen) for attempt, seen in pending if attempt.index not in tried]
            meant -= tried
        if meant:  # the agent's first words after a failure it meant: unless they doubt it, it is the outcome wanted
            if not _DOUBTS.search(text) and not _LOOKS_INTO.search(text):
                settled.update(dict.fromkeys(meant, None))
                pending = [(attempt, seen) for attempt, seen in pending if attempt.index not in meant]
            meant = set()
        if _NOT_OURS.search(text):
            not_ours.update(attempt.index for attempt, _ in pending)
            pending = []
            continue
        routed = _ROUTED.search(text) is not None
        for attempt, seen in pending:
            if routed and seen == 0:  # (only the agent's first words after a failure say it routes around it)
                for role in _routable(attempt):
                    waiting.setdefault(role, []).append(attempt.index)
        pending = [(attempt, seen + 1) for attempt, seen in pending if seen + 1 < _TEXTS]
    settled.update(dict.fromkeys(meant, None))  # meant to fail, and nothing said of it since: as meant
    return AgentWords(settled, frozenset(not_ours))


__all__ = ["FETCH", "READ", "AgentWords", "accepted", "roles", "settled_by_words"]
