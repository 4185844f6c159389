"""The goal a summary states: the user's current objective, not whatever the session's first message happened to be.

A long session starts with "Before we continue, take a look at @README.md", or "Implement the following plan:"
and a plan long since finished, and the user redirects it many times ("testing X is the focus of this phase",
"let's switch to the exporter", "change of plans: …"). The objective is the latest such statement; without one it
is the first request that asks for work, a reading instruction and a plan's wrapper line being no goal by
themselves. User messages that are only markup an agent's harness injected (``<command-name>…``, ``[Request
interrupted by user]``) are no requests at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...accessors import content_text
from .clause import clause_cut
from .relay import relayed
from .languages import ANNOUNCE, ANNOUNCE_CLOSING, ASKS_OPINION, COMPLAINT, INTENT, ISSUE_WORDS, any_language, spaced, unspaced
from .rules import is_rule, lasting, listed_options, picked_key, standing

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]{0,30}[-_][\w-]{0,40})(?:\s[^<>\n]{0,200})?(/?)>")
"""A harness's tag: a compound name (``command-name``, ``system-reminder``, ``environment_context``), which
markup a user types (``<div>``, ``<b>``) is not."""
_ANY_TAG = re.compile(r"<(/?)([A-Za-z][\w-]{0,40})(?:\s[^<>\n]{0,200})?(/?)>")
_NOTICE = re.compile(r"^[ \t]*\[[^\]\n]{1,200}\][ \t]*$", re.M)
_MOVE = (r"(?:on ?to|continue with|go on with|go ahead with|proceed (?:with|to)|start(?: on| with)?|begin|do|implement"
         r"|tackle|move on to|plan|design|spec out|review|work on)")
_STAGE = (r"(?:the\s+)?(?:next\s+)?(?:phase|step|stage|milestone|part|sprint|iteration)\s+(?:\d+[a-z]?|[ivx]{1,4}|one|two"
          r"|three|four|five)\b")
"""Moving on to a stage of a staged plan ("on to phase 30", "start step 3"), and the stage."""
_STATED = re.compile(
    r"\b(?:(?:the|our|my|main|current|real) (?:goal|objective|aim|focus|priority|task)"
    r"(?: (?:of|for) (?:this|the|that) \w+)? (?:now )?(?:is|will be|should be)"
    r"|(?:is|are) (?:now )?(?:the|our|my) (?:main |real |current )?(?:focus|goal|priority|objective)"
    r"|(?:let'?s|we(?:'ll| will| should| need to)?|please|now) (?:now |next |instead )?focus on"
    r"|let'?s (?:now |next |instead )?(?:move on to|switch to|turn to|work on|start on|tackle)"
    r"|change of plans?|new task|scratch that|forget (?:about )?(?:that|the \w+)"
    r"|(?:from now on|going forward),? (?:we|let'?s|i want))\b",
    re.I,
)
"""A sentence that states or changes the objective."""
_MOVES_ON = re.compile(
    # moving on to the next piece of a staged plan: "now Phase 30:", "on to step 3", "let's continue with phase 2"
    r"(?:\b(?:now|next|then|ok(?:ay)?|so|great|good|alright|right),?\s+(?:(?:let'?s|we(?:'ll| will| can)?|please)\s+)?"
    rf"(?:{_MOVE}\s+)?{_STAGE}"
    rf"|^(?:(?:let'?s|please)\s+)?(?:(?:now|next)\s+)?{_MOVE}\s+{_STAGE}"
    r"|\b(?:next|now|then),?\s+let'?s\s+(?:do|build|add|implement|tackle|work on|start|write|fix|make)"
    r"|let'?s (?:now |next )?(?:continue|go on|carry on) with"
    # a new plan to carry out: "now implement the plan in docs/plans/phase-30.md"
    r"|\b(?:implement|execute|follow|carry out|start on|work through) (?:the |this |our )?(?:new |next )?plan "
    r"(?:in|from|at|of) `?[\w./-]+\.(?:md|txt))\b",
    re.I,
)
"""A sentence that moves the work on to the next stage of a staged plan ("now Phase 30:", "ok, on to step 3", "let's
continue with phase 2"), to new work ("next let's add X") or to a new plan file: what came before it is history."""
_PREAMBLE = re.compile(
    r"^\W{0,3}(?:(?:before (?:we|you) (?:continue|start|begin|go on|proceed)\b[^.:\n]{0,80}?[:,.]?\s*+)?"
    r"(?:please\s+)?(?:take a look at|have a look at|look at|read|re-?read|check out|familiari[sz]e yourself with"
    r"|review|study|go through|see)\b|before (?:we|you) (?:continue|start|begin|go on|proceed)\b)",
    re.I,
)
"""A request that opens by asking the agent to read something first."""
_WORK = re.compile(
    r"\b(?:i want|i'd like|i would like|we need|need to|please|let'?s|can you|could you|help me|the goal|goal is"
    r"|implement|add|fix|build|create|write|make|port|refactor|migrate|update|change|remove|rename|test|debug"
    r"|investigate|find out|figure out|set up|support)\b",
    re.I,
)
"""Words of a sentence that asks for work, not only for reading."""
_PLAN = re.compile(r"^\W{0,3}(?:please\s+)?implement (?:the following|this|the) plan\b\s*(?::\s*)?", re.I)
_TITLE = re.compile(r"^\s{0,3}#{1,6}\s+(?:plan\s*:\s*)?(.+)", re.I | re.M)
"""A heading's line, up to its end (its closing ``#``s are cut by :func:`_title_text`, not by the pattern)."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")


@dataclass(frozen=True)
class Objective:
    """The goal a region states, the request it comes from, and whether the user stated it as one."""

    text: str
    request: str
    stated: bool
    """True when the user said outright what the goal or focus is (or redirected the work)."""


_CAVEAT = re.compile(r"[^\n]{0,300}?\b(?:do not|don'?t) (?:respond to|reply to|answer) (?:these|the following|the above)"
                     r" messages\b[^\n]{0,300}", re.I)
"""A harness's note that the messages around it are not for the agent ("Caveat: The messages below were generated
by the user while running local commands. DO NOT respond to these messages …"): no request of the user's."""


def request_words(text: str) -> str:
    """The user's own words of a message: what lies outside the tags an agent's harness wraps around what it
    injects (``<command-name>``, ``<system-reminder>``, ``<local-command-stdout>``), bracketed notices removed. One
    pass over the tags with a depth count (a pattern with a back-reference would be quadratic on unclosed tags). A
    message a chat bridge relayed is its body (:func:`.relay.relayed`)."""
    text = relayed(text[:50_000])  # a bridge's envelope around the user's words: the words
    if text.lstrip().startswith(SKILL_BASE):  # a skill's file the harness put in: the user's words passed with it
        passed = _SKILL_ARGUMENTS.findall(text)
        return passed[-1].strip() if passed else ""
    if "<" not in text and "[" not in text:
        return "" if _CAVEAT.fullmatch(text.strip()) else text.strip()
    # a message that opens with a tag was written by the harness (a slash command's expanded prompt): any tag
    # there is markup; elsewhere only compound names are (a user's "<div>" stays)
    tags = _ANY_TAG if text.lstrip().startswith("<") else _TAG
    kept: list[str] = []
    depth, position = 0, 0
    for tag in tags.finditer(text):
        if depth == 0:
            kept.append(text[position : tag.start()])
        closing, self_closing = tag.group(1), tag.group(3)
        depth = max(0, depth - 1) if closing else depth + (0 if self_closing else 1)
        position = tag.end()
    if depth == 0:
        kept.append(text[position:])
    words = _NOTICE.sub(" ", "".join(kept)).strip()
    if _CAVEAT.fullmatch(words):
        return ""  # the harness's note before the commands the user ran (Claude Code's "Caveat: …")
    return "" if tags is _ANY_TAG and _about_its_block(words, text) else words


SKILL_BASE = "Base directory for this skill:"
"""How Claude Code's harness opens a message it made of a skill's file (``SKILL.md``), whoever invoked it."""
_SKILL_ARGUMENTS = re.compile(r"^ARGUMENTS:[ \t]{0,20}(\S[^\n]{0,2000})", re.M)
"""The line under a skill's file that holds what was passed to it (``/skill-fixer the grade B skills`` gives "the
grade B skills"): the only words of that message that ask for anything."""


_LONG_TOKEN = re.compile(r"\S{16,400}")
"""A value long enough that a chance repeat is unlikely (a path, an id)."""


_POINTER = re.compile(r"([^:\n]{1,80}):[ \t]{0,20}(\S{1,400})")
"""One line ending in a label and a single value after a colon."""
_POINTER_WORDS = 10
_PATH_LIKE = re.compile(r"[/\\]|\.\w{1,8}$|^\w{2,10}://")
"""A path, a file name or a URL: what a harness's line points at."""


def _about_its_block(words: str, text: str) -> bool:
    """True when the words outside a harness's tags are one line that ends on a long value (a path, an id) the
    tagged block holds, or a short label and one path after a colon: the harness's own line about its block
    ("Read the output file to retrieve the result: /tmp/…/b4g.output", a sub-agent's notification's "Full
    transcript available at: …"), not the user's words beside an attached context."""
    if not words or "\n" in words:
        return False
    last = words.split()[-1].strip(".,:;!?")
    pointer = _POINTER.fullmatch(words)  # "Full transcript available at: /tmp/…/a1.output": where its block lives
    if pointer and len(pointer.group(1).split()) <= _POINTER_WORDS and _PATH_LIKE.search(pointer.group(2)):
        return True
    return bool(_LONG_TOKEN.fullmatch(last)) and last in text.replace(words, " ", 1)


_COMMAND = re.compile(r"<command-name>\s{0,20}/?([\w.-]{1,60}:[\w:.-]{1,60})\s{0,20}</command-name>")
_ANY_COMMAND = re.compile(r"<command-name>\s{0,20}/?([\w.:-]{1,120})\s{0,20}</command-name>")
COMMAND_PREFIX = "Run the command `"
"""How :func:`invocation` words a command the user ran."""
_ARGS = re.compile(r"<command-args>([^<]{0,300})(</command-args>)?")
_TITLE_LINE = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]{1,5}([^\n]{1,120})", re.M)


def _document_title(args: str) -> str:
    """What a document passed whole as a command's arguments (a design to validate, a spec to plan) is about: its
    first heading, else its first line."""
    heading = _TITLE_LINE.search(args)
    return (heading.group(1) if heading else args.split("\n", 1)[0]).strip()


def invocation(text: str, expanded: bool = False) -> str:
    """A command the user ran through the harness (``/gsd:discuss-phase 14``), as a request naming the task
    (``Run `/gsd:discuss-phase 14```), or ``""``. Built-in commands (``/clear``, ``/model``) are none: a namespaced
    one always counts, another one when the harness expanded it into instructions (``expanded``). A document passed
    as the arguments is named by its title (``Run `/validate` on “Retry design”``): its text is no request."""
    command = (_ANY_COMMAND if expanded else _COMMAND).search(text[:5000])
    if not command:
        return ""
    args = _ARGS.search(text[:5000])
    words = args.group(1).strip() if args else ""
    if args and not args.group(2) and ("\n" in words or len(args.group(1)) >= 300):  # longer than a request: a document
        title = _document_title(words)
        return f"{COMMAND_PREFIX}/{command.group(1)}` on “{title}”" if title else f"{COMMAND_PREFIX}/{command.group(1)}`"
    return f"{COMMAND_PREFIX}/{command.group(1)}{' ' + words if words else ''}`"


_DOC_HEADING = re.compile(r"^#{1,6}[ \t]+\S", re.M)
_DOCUMENT_LINES = 8


_STATUS_LINE = re.compile(r"^[A-Z][\w-]{0,30}(?:[ \t][\w-]{1,30}){0,2}[ \t](?!(?:fail|crash|error|block|reject|deni|brok)"
                          r"\w{0,4}\b)(?:[a-z]{2,30}ed|done|shown|set|sent|built|made)\.?$")
"""A status line the harness writes in the user's place after a tool's result ("Tool loaded.", "Skills updated"):
a capitalised thing and a past participle, nothing asked; a failure ("Build failed.") the user may report."""


def injected(previous: dict | None, message: dict) -> bool:
    """True when the user message ``message`` was put there by the agent's harness, not typed by the user: a
    Markdown document (a heading, several lines) right after a tool result or a command the user ran, before the
    agent speaks: a skill's or a slash command's instructions (Claude Code's "Base directory for this skill: …"
    rows), or a one-line status after a tool result (:data:`_STATUS_LINE`: Claude Code's "Tool loaded." after a
    tool search). Judged by where the message stands and its shape, never by its words, so any harness and any
    language count; a short message after a tool result (pi's steering message) or a command stays the user's."""
    if not isinstance(previous, dict) or message.get("role") != "user":
        return False
    before = previous.get("role")
    invoked = before == "user" and "<command-" in content_text(previous.get("content"))[:5000]
    if before != "toolResult" and not invoked:
        return False
    head = content_text(message.get("content"))[:20_000]
    if before == "toolResult" and _STATUS_LINE.match(head.strip()):
        return True  # "Tool loaded." after a tool search's result: the harness's note on it, nothing asked
    # a document wrapped whole in the harness's tags (``<local-command-stdout>``) is markup, no request anyway
    return head.count("\n") >= _DOCUMENT_LINES and bool(_DOC_HEADING.search(head)) and (
        head.lstrip().startswith(SKILL_BASE) or bool(request_words(head)))  # (a skill's file: its words are none)


def user_requests(messages: list[dict]) -> list[tuple[int, str]]:
    """``(index, words)`` of the requests among ``messages``: the user messages the user wrote (see
    :func:`injected`), harness markup removed (:func:`request_words`), a command the user ran as ``Run the command
    `/name args```; empty ones left out."""
    found = []
    for index, message in enumerate(messages):
        if message.get("role") != "user" or injected(messages[index - 1] if index else None, message):
            continue
        text = content_text(message.get("content"))
        following = messages[index + 1] if index + 1 < len(messages) else None
        # a command the harness expanded into instructions: as a user message (see injected), or as a custom
        # message (what an importer makes of the rows Claude Code marks as its own)
        expanded = following is not None and (following.get("role") == "custom" or injected(message, following))
        words = invocation(text, expanded) or request_words(text)
        if words.strip():
            found.append((index, words))
    return found


def is_request(text: str) -> bool:
    """False for a user message that is only harness markup (tags, a bracketed notice), with no words of its own."""
    return bool(request_words(text))


_MARKER_END = re.compile(r"(?:^|(?<=\s))\(?(\d{1,2})[.)]$")
_MARKER_START = re.compile(r"^\(?\d{1,2}[.)]\s")


def _ends_on_marker(piece: str) -> bool:
    """``piece`` ends on a list item's number, its item's words to follow: the number alone ("1."), after a colon
    ("can you fix: 1."), or after the item before it ("two things: 1 audit them 2."); "handle case 1." ends a
    sentence."""
    marker = _MARKER_END.search(piece)
    if not marker:
        return False
    before, number = piece[: marker.start()].rstrip(), int(marker.group(1))
    return not before or before.endswith(":") or (
        number > 1 and bool(re.search(rf"(?:^|[\s:(]){number - 1}[.)]?\s", before)))


_ABBREVIATION = re.compile(r"(?:^|[\s(])(?:vs|e\.g|i\.e|cf|approx|incl|resp)\.$", re.I)
"""A piece that ends on an abbreviation's dot ("agent code vs.") goes on into the next: no sentence ends there."""


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, a numbered list's items each one (``1.`` ends no sentence, nor "vs.")."""
    found: list[str] = []
    for piece in (s.strip() for s in _SENTENCE.split(text)):
        if piece and found and (_ends_on_marker(found[-1]) or _ABBREVIATION.search(found[-1])):
            found[-1] = f"{found[-1]} {piece}"
        elif piece:
            found.append(piece)
    return found


def _clip(text: str, limit: int) -> str:
    """``text`` on one line within ``limit``: whole, else cut at a clause's end (:func:`.clause.clause_cut`)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else clause_cut(text, limit)


def _title_text(rest: str) -> str:
    """A heading's text without the closing ``#``s and the spaces around them (a title of ``#`` alone stays)."""
    title = rest.rstrip().rstrip("#").rstrip()
    return title or rest[:1]


def stated_goal(request: str, limit: int = 400) -> str:
    """The sentence of ``request`` that states or changes the objective, with the next one when it goes on (or
    ``""`` when none does)."""
    found = sentences(request_words(request))
    for number, sentence in enumerate(found):
        if _STATED.search(sentence):
            chosen = [sentence] + [s for s in found[number + 1 : number + 2] if _WORK.search(s)]
            return _clip(" ".join(chosen), limit)
    return ""


_NOW = " — now: "
_NOW_WORDS = 8
"""A request of this many words (:func:`word_count`) can set the work; a shorter one ("yes", "push it up!", "1.")
steers it, or moves it on only where it stands after finished work (as the summary's goal judges)."""
NUDGE_WORDS = 3
"""A request of fewer words ("push it", "continue", "はい") names no work: it steers or answers."""
_UNSPACED_LETTER = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
                              r"\uf900-\ufaff\uac00-\ud7af]")
"""A letter of a script whose words are not told by spaces: Thai, Lao, Myanmar, Khmer, Japanese and Chinese write
none between words; Korean spaces its phrases (eojeol), each a word with its particles and endings fused on
("테스트 추가해줘", "add the tests", is two of them), so its syllables, not its spaces, measure it too."""
_UNSPACED_RUN = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
                           r"\uf900-\ufaff\uff00-\uffef\uac00-\ud7af]+")
_LETTERS_PER_WORD = 2
"""Letters of such a script that make about one word, counted by characters since no space tells the words apart
(a Chinese word is one to two characters, a Japanese one two or three with its particle, a Korean one two or three
syllables)."""


_GO_AHEAD_WORDS = frozenset(
    "continue continuing go on ahead proceed yes yeah yep yup y ok okay k sure please pls do it keep going carry resume "
    "alright fine lgtm sounds good then and so just now that please thanks thank you let's lets right "
    "はい 続けて 続けてください 进行 继续 好 好的 weiter ja oui vas-y continuez sí si vale dale".split()) | frozenset(
    "continua continúa continuá continuar prosegui prossegui prosseguir avanti fortfahren продолжай продолжайте 계속 "
    "계속해 계속해줘 계속해요 계속해주세요 계속하세요 진행 진행해 続き 続けます 繼續".split())
"""Words a bare go-ahead is made of ("continue", "ok do it", "yes please, go on", "keep going", "はい", "weiter")."""
_GO_AHEAD_TOKEN = re.compile(r"[\w'-]{1,40}")
_GO_AHEAD_MOST = 8
_MARKS_ONLY = re.compile(r"[\s?？!.…]{1,20}")


_GO_ON = frozenset("continue continuing carry keep go proceed resume 続けて 続けてください 进行 继续 weiter continuez "
                   "vas-y dale continua continúa continuá continuar prosegui prossegui prosseguir avanti fortfahren "
                   "продолжай продолжайте 계속 계속해 계속해줘 계속해요 계속해주세요 계속하세요 진행해 続き 続けます 繼續".split())
"""The words that ask to go on: a longer message is a go-ahead only when it says one of them."""
_ASIDE_WORDS = frozenset(
    "nevermind never mind ignore forget disregard scratch my the this that it what i you your you're "
    "youre re i'm im it's its that's thats is are was were am be been doing going done working great good nice "
    "perfect awesome excellent fine well job work looks look looking seems seem so far sorry apologies oops bad "
    "request question comment message said asked rest remaining with a all of for about to on".split())
"""The words of what may stand around a go-on in a message that asks nothing else: praise ("you're doing great",
"looks good so far"), an aside taken back ("nevermind my request", "ignore that"), an apology ("sorry"), the rest of
the work it goes on with ("with the rest"). Pronouns, function words and judgements: none names a thing to do, so a
message of them alone plus a go-on word asks only to go on; one content word ("continue the migration for the
users table") makes it a request of its own."""
_WRAPPED_MOST = 24
"""At most this many words make a go-ahead wrapped in praise, an apology or a retraction."""


def go_ahead(text: str) -> bool:
    """True for a reply that carries no task of its own: a go-ahead made only of go-on words ("continue", "ok do
    it", "keep going", "yes") or a lone "?": it goes on with whatever was in progress, or answers the agent's
    question. Told by its words, a few at most, every one a go-on word (a word of work, "yes, and add tests", makes
    it a request). A go-on wrapped in words that ask nothing (:data:`_ASIDE_WORDS`: "nevermind my request, you're
    doing great, carry on", "sorry, ignore that — continue") is one too."""
    stripped = text.strip()
    if not stripped or len(stripped) > 200 or any(mark in stripped for mark in "`/\\"):
        return False
    if "?" in stripped or "？" in stripped:
        if _MARKS_ONLY.fullmatch(stripped):
            return True
    words = _GO_AHEAD_TOKEN.findall(stripped.lower().replace("\u2019", "'"))
    if 0 < len(words) <= _GO_AHEAD_MOST and len(stripped) <= 80 and all(word in _GO_AHEAD_WORDS for word in words):
        return True
    return (0 < len(words) <= _WRAPPED_MOST and "?" not in stripped and any(word in _GO_ON for word in words)
            and all(word in _GO_AHEAD_WORDS or word in _ASIDE_WORDS for word in words))


_APPROVAL_WORDS = 6
"""At most this many words (:func:`word_count`, any script) make a reply short enough to be only an approval."""
_APPROVAL_CHARS = 60
_NOT_PLAIN_WORDS = re.compile(r"[\d`/\\=<>{}()\[\]@#$%^*|~+]|\w[._:]\w|[a-z][A-Z]")
"""What plain words of assent never hold: a number, code, a path, a file name, an identifier (``a_b``, ``aB``)."""
_REFUSAL_TOKENS = re.compile(r"(?:^|[\s,.!;:、，。！])(?:no|nope|not|don'?t|stop|wait|hold|never|non|nein|nicht|nee"
                             r"|нет|не|いいえ|いや|だめ|ダメ|待って|不|别|等等|아니|아뇨|잠깐)(?=$|[\s,.!;:、，。！])",
                             re.I)
"""A handful of tokens that refuse or hold back in the languages agents are driven in most: a short reply with one
of them is no approval ("no, not like that", "non", "待って", "아니")."""
_ENGLISH_WORK = re.compile(r"\b(?:implement|add|fix|build|create|write|make|port|refactor|migrate|update|change|remove"
                           r"|rename|test|debug|investigate|find|move|replace|delete|use|restore|commit|push|run|revert"
                           r"|undo|merge|rebase|deploy|install|drop|skip|instead|rather)\b", re.I)
"""Words of a short English reply that name work of its own ("ok, fix the tests"): a request, not an approval."""
_PROPOSES = re.compile(r"\b(?:i (?:propose|suggest|recommend|can|could|would|'d|'ll|will|plan to)|i'd|i'll|(?:shall|should"
                       r"|can|may) i|want me to|would you like|do you want|let me know|next,? i|my plan|the plan"
                       r"|options?\b)", re.I)
"""An answer's sentence that proposes what to do or offers to do it."""
_ASSENT_OPENING = re.compile(r"\W{0,3}(?:y(?:es|eah|ep|up|a)|ok(?:ay|ey)?|k|sure|alright|agreed|sounds good|go ahead"
                             r"|go for it|do it|please|lgtm|oui|ja|si|vale|dale|d'accord|genau|claro|bueno|va|tak|da)\b",
                             re.I)
"""A reply in plain ASCII letters is read by its words, not its form alone: it approves only when it opens on one
of the few assent tokens written in Latin letters ("ok", "yes", "vale", "d'accord", "ja"); "show me the diff" is a
request. A reply in any other script or with letters outside ASCII is told by its form."""
_PROPOSAL_SENTENCES = 3
"""The last sentences of an answer looked at for what it proposed or asked."""


def approves(reply: str, answer: str) -> bool:
    """True for a reply that only approves what ``answer`` (the agent's last words before it) proposed or asked, in
    any language: a go-ahead (:func:`go_ahead`), or a short reply of plain words (a few words at most; no number, no
    code, path or identifier; no question; no refusal; no English word of work) right after an answer whose last
    sentences ask the user or propose what to do ("ㅇㅋ. 알았어. 하나씩 하자", "vale, adelante", "はい、お願いします").
    Told by its form and where it stands, not by a word list per language: the work is what was proposed, any
    manner the reply adds ("one at a time") at most a constraint on it. A reply all in ASCII letters opens on an
    assent (:data:`_ASSENT_OPENING`): English is read by its words ("show me the diff" asks for work)."""
    if go_ahead(reply):
        return True
    stripped = " ".join(reply.split())
    if not stripped or len(stripped) > _APPROVAL_CHARS or word_count(stripped) > _APPROVAL_WORDS:
        return False
    if "?" in stripped or "？" in stripped or _NOT_PLAIN_WORDS.search(stripped) or _REFUSAL_TOKENS.search(stripped) \
            or _ENGLISH_WORK.search(stripped) or _QUESTION_OPENING.match(stripped):
        return False
    if stripped.isascii() and not _ASSENT_OPENING.match(stripped):
        return False  # English words any list of ours can read: a reply of them that opens on no assent is a request
    closing = sentences(answer[-3000:])[-_PROPOSAL_SENTENCES:]
    return any(s.rstrip("*_ )").endswith(("?", "？")) or _PROPOSES.search(s) for s in closing)


_ASKS_FOR_WORK = re.compile(
    r"\b(?:(?:can|could|would|will|won'?t|wouldn'?t|cant|can'?t)\s{1,3}(?:you|we|u|ya)\b|(?:shall|should)\s{1,3}(?:we|i)\b"
    r"|(?:how|what) about\b|why not\b|(?:do|would) you mind\b|please\b|let'?s\b|lets\b)", re.I)
"""A question that asks for work anywhere in it ("can you add X?", "… is a repo, can you compare it to ours?",
"should we cache it?", "how about a flag?"): a request."""


_QUESTION_OPENING = re.compile(r"\W{0,3}(?:(?:and|so|but|also|ok(?:ay)?|hmm+),?\s{1,3})?(?:(?:what|why|how|where|when|which"
                               r"|who)\b|(?:is|are|was|were|does|did|has|have|do)\s{1,3}(?:it|this|that|there|the|we|you"
                               r"|i|they|these|those)\b)", re.I)
"""A sentence worded as a question, its mark left off ("how does this commit look if it reuses the id..."; "do
the migration" is an order, "do we need it" a question)."""


_COMPLAINS = re.compile(any_language(COMPLAINT), re.I)
"""A complaint asked as a question ("why is the chart still tiny?", "どうしてまだ動かないの？", "为什么还是报错？"):
it asks for a fix (:data:`.languages.COMPLAINT`)."""


_ASKS_OPINION = re.compile(any_language(ASKS_OPINION), re.I)


def complains(text: str) -> bool:
    """True when ``text`` complains, in a question, that something is still wrong (:data:`_COMPLAINS`), not when it
    asks for the agent's view ("why do you think logs shouldn't be overwritten?": :data:`.languages.ASKS_OPINION`)."""
    said = text[:4000]
    return bool(_COMPLAINS.search(said)) and not _ASKS_OPINION.search(said)


def only_asks(text: str) -> bool:
    """True for a message that only asks a question ("what does X do?", "why did the test fail?", "is that the
    final version?"), a short thanks beside it: it is answered, it sets no objective. A question that asks for work
    (:data:`_ASKS_FOR_WORK`) or complains that something is still wrong (:func:`complains`: "why is the chart still
    tiny?", a request for a fix) or a sentence that is no question makes it a request."""
    said = sentences(request_words(text)[:4000])
    questions = [s for s in said if s.endswith(("?", "？")) or _QUESTION_OPENING.match(s)]
    others = [s for s in said if s not in questions]
    return bool(questions) and not any(_ASKS_FOR_WORK.search(q) or complains(q) for q in questions) and all(
        word_count(s) <= NUDGE_WORDS and _THANKS.match(s) for s in others)


def word_count(text: str) -> int:
    """About how many words ``text`` has, in any script: its spaced words, and one per :data:`_LETTERS_PER_WORD`
    letters of a script that does not space its words ("次のフェーズに進んでください" is seven)."""
    spaced = len(_UNSPACED_RUN.sub(" ", text).split())
    return spaced + len(_UNSPACED_LETTER.findall(text)) // _LETTERS_PER_WORD


def sets_work(request: str) -> bool:
    """True for a request long enough to state work of its own (see :data:`_NOW_WORDS`), whatever its language, that
    does more than give the agent a rule to keep from now on ("Great. Make a rule to always run the linter.": a
    constraint, the work goes on as before) or asks only to go on (:func:`go_ahead`: "looks good so far, keep going
    with the rest")."""
    words = request_words(request)
    count = word_count(words)
    long_enough = count >= _NOW_WORDS or (count >= NUDGE_WORDS and complains(words))  # "why is it still tiny?"
    return long_enough and not _only_standing_rules(words) and not go_ahead(words)


def _only_standing_rules(words: str) -> bool:
    """True when every sentence of ``words`` but a short thanks ("Great.", "Thanks, that works.") sets a standing
    rule (:func:`.rules.standing`) or states one that lasts (:func:`_only_rules`: "Keep files small; run `task ci`
    before saying done", "No mocks in the integration tests.")."""
    said = [sentence for sentence in sentences(words[:4000])
            if not (word_count(sentence) <= NUDGE_WORDS and _THANKS.match(sentence))]
    return bool(said) and all(standing(sentence) or _only_rules(sentence) for sentence in said)


def gives_rules_only(request: str) -> bool:
    """True when ``request`` holds rules and nothing else (:func:`_only_standing_rules`): it moves no work on, the
    objective stays the last request that asked for work."""
    return _only_standing_rules(request_words(request))


_CLAUSE_MARK = re.compile(r"[;；，]|,\s|\s[—–-]\s")
_ASIDE_CLAUSE_WORDS = 2
"""A clause of this many words or fewer is an aside ("please", "no,", "thanks"), no work of its own."""
_JOINING = re.compile(r"^\W{0,3}(?:(?:and|also|then|but|so|now|plus|just)\s{1,3}){1,3}", re.I)


def _only_rules(sentence: str) -> bool:
    """True when ``sentence`` states a rule that outlasts its request (:func:`.rules.is_rule` and
    :func:`.rules.lasting`) and says nothing beside it: every clause but a word or two ("please", "Nein,") is itself
    a rule ("Fix the login bug, never push to main" asks for a fix; "Never push to main; keep commits small" does
    not)."""
    if not (is_rule(sentence) and lasting(sentence)):
        return False
    clauses = [_JOINING.sub("", clause.strip()) for clause in _CLAUSE_MARK.split(sentence)]
    return all(is_rule(clause) for clause in clauses if word_count(clause) > _ASIDE_CLAUSE_WORDS)


_THANKS = re.compile(r"\W{0,3}(?:thanks?|thank you|great|perfect|nice|good|cool|ok(?:ay)?|awesome|excellent|lgtm"
                     r"|that works|looks good)\b", re.I)


_OPENING_SENTENCES = 3
"""At most this many sentences make a request's opening when the first is too short to state work alone."""


def _goes_on(opening: str, following: str, short: bool) -> bool:
    """An opening too short to state the work (:data:`_NOW_WORDS`) goes on into the sentence after it when it
    announces it (ends on a colon: "brainstorm:"), says next to nothing ("New branch."), or, in a ``short`` request,
    the sentence after it carries on without a capital ("rebase with main. and then run `bun run verify`"). A short
    task followed by a sentence of its own ("Step 1: handle case 1. You must keep …") stands alone, and so does the
    opening of a long request written all in lower case (its intent sentences are added after it)."""
    if word_count(opening) >= _NOW_WORDS:
        return False
    return opening.endswith((":", "：")) or word_count(opening) < NUDGE_WORDS or (short and following[:1].islower())


def task_goal(request: str, limit: int = 400) -> str:
    """The work ``request`` asks for: its plan's title for "Implement the following plan:", its sentences that ask
    for work after a reading preamble (``""`` when it only asks to read), else its opening sentences."""
    words = request_words(request)
    plan = _PLAN.match(words)
    if plan:
        title = _TITLE.search(words[plan.end():])
        first = _title_text(title.group(1)) if title else next(iter(sentences(words[plan.end():])), "")
        return _clip(f"Implement the plan “{first.strip('*_ ')}”", limit) if first else ""
    heading = _TASK_HEADING.search(words[:_HEADING_CHARS])
    named = _task_under(words, heading) if heading else ""
    if named:
        return _clip(named, limit)
    found = sentences(words)
    if not found:
        return ""
    if _PREAMBLE.match(found[0]):
        work = [s for s in found[1:] if _WORK.search(s) and not _PREAMBLE.match(s)]
        return _clip(" ".join(work[:2]), limit) if work else ""
    if _MARKER_START.match(found[0]):  # a list of tasks ("1. lint failing 2. update from main"): the items
        listed = [s for s in found[: next((n for n, s in enumerate(found) if not _MARKER_START.match(s)), None)]]
        return _clip(" ".join(listed), limit)
    opening = 1
    while opening < min(len(found), _OPENING_SENTENCES) and _goes_on(" ".join(found[:opening]), found[opening],
                                                                      len(found) <= _OPENING_SENTENCES):
        opening += 1
    chosen = found[:opening]
    if chosen[-1].endswith((":", "：")) and opening < len(found):  # "… what effort it is to fix this:" and the thing
        chosen.append(found[opening])
    for sentence in found[opening:8]:
        if _INTENT.search(sentence) and len(chosen) < 3 and len(" ".join(chosen)) + len(sentence) < limit:
            chosen.append(sentence)
    if not any(_WORK.search(sentence) for sentence in chosen):  # the opening states a problem: the ask comes after
        ask = next((s for s in found[opening:_OPENING_SENTENCES + 1] if _IMPERATIVE.match(s)), "")
        chosen += [ask] if ask and len(" ".join(chosen)) + len(ask) < limit else []
    return _clip(" ".join(chosen), limit)


_TASK_HEADING = re.compile(r"^#{1,4}[ \t]{1,3}\**(?:your |the |main |current )?(?:task|goal|objective|assignment"
                           r"|mission)\**[ \t]{0,3}(?::[ \t]{0,3}([^\n]{1,300}))?$", re.I | re.M)
"""A brief's heading that names the task (``## YOUR TASK: Create the customize package``, ``# Goal``): the work asked
for, over the preamble, rules and context the brief opens with."""
_HEADING_CHARS = 20_000


def _task_under(words: str, heading: re.Match) -> str:
    """The task a :data:`_TASK_HEADING` names: its own words after the colon, else the first sentence under it."""
    own = (heading.group(1) or "").strip(" *_`")
    return own or next(iter(sentences(words[heading.end():heading.end() + 4000])), "").strip()


_INTENT = re.compile(r"\b(?:i want|i'd like|i would like|we need|we still need|need to|please|let'?s|can you|"
                     r"could you|help me|the goal|goal is|interested in|i'm trying|we're trying)\b", re.I)
"""A sentence that says what the user wants done ("but I want it to be a skill", "can you add X")."""
_IMPERATIVE = re.compile(r"\W{0,3}(?:please\s{1,3})?(?:implement|add|fix|build|create|write|make|port|refactor|migrate"
                         r"|update|change|remove|rename|debug|investigate|find|figure|set up|support|move|replace"
                         r"|delete|use|stop|restore)\b", re.I)
"""A sentence that opens with the work it asks for ("Fix the storage rules so a user reads only their own files.")."""


def moves_on(request: str) -> bool:
    """True when a sentence of ``request`` moves the work on (:data:`_MOVES_ON`)."""
    return any(_MOVES_ON.search(sentence) for sentence in sentences(request_words(request)[:4000]))


_A_STAGE = re.compile(rf"{_STAGE}|^Implement the plan “|\bplan (?:in|from|at) `?[\w./-]+\.(?:md|txt)\b", re.I)


def names_a_stage(goal: str) -> bool:
    """True when ``goal`` is one stage of the work (a numbered phase or step, a plan): a later stage replaces it.
    A goal over all the stages ("Redesign the website, in phases") stays the goal while they go by."""
    return _A_STAGE.search(goal) is not None


def with_now(goal: str, now: str) -> str:
    """``goal`` followed by what the user asks for now (``X — now: Y``), a previous "now" replaced; ``goal`` as it
    is when ``now`` is empty or already part of it."""
    base, _, earlier = goal.partition(_NOW)
    if not now or now in base:
        return goal
    return f"{base}{_NOW}{now}"


def _asks_only(request: str) -> bool:
    """True for a request that only asks, or whose goal line would (:func:`task_goal`: "do you have access to the
    X skill? if so load it" reads as its question): a later request that sets work states the objective better."""
    return only_asks(request) or only_asks(task_goal(request))


def _asks_work(request: str) -> bool:
    """True when a sentence of ``request`` says what the user wants done (:data:`_INTENT`) or opens with the work
    (:data:`_IMPERATIVE`): a reply that sets work, not a remark in a discussion ("there was a code change clearly")."""
    return any(_INTENT.search(s) or _INTENT_ABROAD.search(s) or _IMPERATIVE.match(s)
               for s in sentences(request_words(request)[:4000]))


_FOLLOW_UP = re.compile(r"\W{0,3}(?:(?:and|also|plus|only)\b|(?:continue|go on|carry on|keep going)\s{0,3}[,;:—–-])",
                        re.I)
"""What opens a follow-up that continues the request before it: a joining word ("and also the docs folder",
"plus the tests", "only README") or a go-on word with more after it ("continue, use subagents")."""
_FOLLOW_UP_WORDS = 12
_DOCUMENT = re.compile(r"(?:^|\s)@[\w./-]{1,200}\.[A-Za-z]{1,8}\b")
"""A document the user attached by reference (``@docs/plans/x.md``): the request names its work by it."""


def follows_up(request: str) -> bool:
    """True for a follow-up fragment (:data:`_FOLLOW_UP`) whose own line is short (:data:`_FOLLOW_UP_WORDS`; lines
    after it may be pasted material, the example it points at): it refines or goes on with the standing request,
    and states no objective of its own while an earlier request can."""
    first = request_words(request).strip().split("\n", 1)[0]
    return bool(_FOLLOW_UP.match(first)) and word_count(first) <= _FOLLOW_UP_WORDS


def _standing_first(requests: list[str]) -> list[str]:
    """``requests`` with the follow-up fragments (:func:`follows_up`) after the others, each group in its order."""
    return [r for r in requests if not follows_up(r)] + [r for r in requests if follows_up(r)]


def objective(requests: list[str], substantive, weighty=None, openings=None) -> Objective | None:
    """The current objective among ``requests`` (in order): the latest stated one, else the first request that
    asks for work (``substantive`` tells a request from a nudge), one that ``weighty`` finds states work of its own
    (:func:`sets_work` unless given) before the others. ``openings`` maps a request to the agent's first words after
    it: what a command run without arguments was taken up for (:func:`taken_up`)."""
    for request in reversed(requests):
        stated = stated_goal(request)
        if stated:
            return Objective(stated, request, True)
    # a request that states work of its own first; a short one ("push it up!") only when no request does
    weighty = weighty or sets_work
    heavy = [r for r in requests if weighty(r)]  # a question only asked is answered: work set comes before it
    light = [r for r in requests if not weighty(r)]
    # a reply long enough to set work (an answer to the agent's question that says what to build) states the
    # objective better than a question that was only asked
    replies = [r for r in light if sets_work(r) and not _asks_only(r) and _asks_work(r)]
    ordered = [r for r in heavy if not _asks_only(r)] + replies + [r for r in heavy if _asks_only(r)]
    replied = set(replies)  # (a set: a session of thousands of short requests stays linear)
    # a follow-up ("and pls remove the header too", "continue, use subagents") refines the request it continues,
    # the standing objective; a request that only attaches a document ("@docs/plan.md Go.") names its work by it
    for request in _standing_first(ordered) + _standing_first([r for r in light if r not in replied]):
        if substantive(request) or (_DOCUMENT.search(request) and not follows_up(request)):
            purpose = _purpose(requests, request, weighty) or _taken_up_by_agent(request, (openings or {}).get(request, ""))
            if purpose:
                return purpose
            text = task_goal(request)
            if text:
                return Objective(text, request, False)
    return None


_BARE_COMMAND = re.compile(rf"{re.escape(COMMAND_PREFIX)}/[\w.:-]{{1,120}}`")
"""A command the user ran with no arguments (``Run the command `/brainstorm```): it names a procedure, not work."""


def _purpose(requests: list[str], request: str, weighty) -> Objective | None:
    """For a command run without arguments (:data:`_BARE_COMMAND`), what the user's own words right after it say it
    is for: the answer to the command's first question that asks for work (:func:`_asks_work`: "I want a plugin
    system for the exporter"), long enough to set work (:func:`sets_work`) yet not ``weighty`` (the caller's sign of
    an answer to the agent's question), the command named after it. ``None`` for any other request, or when the next request is a task of its own."""
    if not _BARE_COMMAND.fullmatch(request.strip()):
        return None
    at = requests.index(request) + 1
    words = requests[at] if at < len(requests) else ""
    if not words or words.startswith(COMMAND_PREFIX) or weighty(words) or not sets_work(words) or _asks_only(words) \
            or not (_asks_work(words) or _ASKS_FOR_WORK.search(words)):
        return None  # (a remark in the command's discussion, "so the simplest option is X", sets none; "can we X?" asks)
    text = task_goal(words)
    return Objective(f"{text} (with `{request.strip()[len(COMMAND_PREFIX):]})", words, False) if text else None


_SUBJECT = re.compile(rf"#\d{{1,6}}(?!\d)|(?:{spaced(ISSUE_WORDS)}\s{{1,3}}|{unspaced(ISSUE_WORDS)}\s{{0,3}})#?\d{{1,6}}"
                      r"(?!\d)|[\w./-]{1,120}\.md(?![A-Za-z0-9_])", re.I)
"""What names the thing a command works on: a pull request or an issue by number (in any language of
:data:`.languages.ISSUE_WORDS`: "PR #12", "イシュー#4", "이슈 #7"), a Markdown document (a plan). (A number's end
is no ``\b``: "#12を" has a word character after it.)"""
_INTENDS = re.compile(r"\W{0,3}(?:let me|let's|i'll|i will|i'm going to|now i'll|next,? i'll)\b"
                      rf"|\W{{0,3}}(?:{spaced(ANNOUNCE, english=False)}|{unspaced(ANNOUNCE)})", re.I)
_INTENDS_CLOSING = re.compile(ANNOUNCE_CLOSING)
"""The agent's sentence saying what it takes up ("Let me work on that.", "I'll review PR #12 …", "Vou revisar o PR
#12", "PR #12をレビューします。", "PR #12를 검토하겠습니다.", "让我看看 PR #12"): its opening or, in Japanese and Korean,
its close (:data:`.languages.ANNOUNCE`, :data:`.languages.ANNOUNCE_CLOSING`)."""
_INTENT_ABROAD = re.compile(any_language(INTENT, english=False), re.I)
"""The user's words that want work done, in the other languages (:data:`.languages.INTENT`: "quero …", "…たいです")."""
_OPENING_CHARS = 1500


def taken_up(opening: str) -> str:
    """What the agent says it took up in ``opening`` (its first words after a command): the first sentence saying
    what it does (:data:`_INTENDS`) when it names its subject (:data:`_SUBJECT`: "I'll review PR #12"), else the
    last sentence before it that does ("The open one is PR #23, which conflicts. Let me work on that."); ``""``
    when none does (a greeting, a question, "I'll start by reading the repo")."""
    said = sentences(opening[:_OPENING_CHARS].replace("**", ""))
    for at, sentence in enumerate(said):
        if _INTENDS.match(sentence) or _INTENDS_CLOSING.search(sentence):
            if _SUBJECT.search(sentence):
                return sentence
            return next((s for s in reversed(said[:at]) if _SUBJECT.search(s) and not s.endswith(("?", "？"))), "")
    return ""


def command_subject(request: str, opening: str) -> str:
    """For a command run without arguments (:data:`_BARE_COMMAND`), the subject the agent took up in ``opening``
    (:func:`taken_up`), the command named after it; ``""`` for any other request or when the agent names none."""
    if not _BARE_COMMAND.fullmatch(request.strip()):
        return ""
    subject = _clip(taken_up(opening), 240)
    return f"{subject} (with `{request.strip()[len(COMMAND_PREFIX):]})" if subject else ""


def _taken_up_by_agent(request: str, opening: str) -> Objective | None:
    """See :func:`command_subject`: for a command the user's words after it set no purpose for (:func:`_purpose`);
    for a request that only attaches a document, what the agent read it to hold (:func:`_document_gist`)."""
    subject = command_subject(request, opening) or _document_gist(request, opening)
    return Objective(subject, request, False) if subject else None


_ABOUT_DOCUMENT = re.compile(r"\W{0,3}(?:the|this|that)\s{1,3}(?:plan|spec(?:ification)?|document|doc|design|prd|rfc"
                             r"|proposal|roadmap|checklist)\b(?!\s{0,2}[?])", re.I)
"""A sentence of the agent's about the document the user attached ("The plan has 14 tasks for shipping the demo app
end-to-end."): the harness attaches the document outside the transcript, so this is what the region says of it."""
_ATTACHING_WORDS = 4
_GIST_CHARS = 200


def _document_gist(request: str, opening: str) -> str:
    """For a request that is a document attached by reference and a go word or two ("@docs/plans/x.md Go."), the
    request with the agent's first sentence saying what the document holds; ``""`` for any other request, or when
    the agent says nothing of the document (the request alone names no work)."""
    words = request_words(request)
    if not _DOCUMENT.search(words) or word_count(_DOCUMENT.sub(" ", words)) > _ATTACHING_WORDS:
        return ""
    gist = next((s for s in sentences(opening[:_OPENING_CHARS].replace("**", "")) if _ABOUT_DOCUMENT.match(s)), "")
    return f"{_clip(words, _GIST_CHARS)} — the agent read it as: “{_clip(gist, _GIST_CHARS)}”" if gist else ""


_NEXT_WORK = re.compile(
    r"\b(?:next|follow[- ]?ups?|tasks?|ideas?|candidates?|could (?:do|tackle|take|work on)|suggest\w*|propos\w*"
    r"|remaining|left to do|todo|improvements?|enhancements?|backlog|roadmap)\b"
    r"|次|候補|提案|残り|다음|후보|제안|próxim|siguiente|sugest|suger|propost|propuest|nächste|vorschl|prochaine?s?"
    r"|suivante?s?|下一|建议|候选", re.I)
"""Words of the lines around a list that offer it as the work to take up next ("Possible next tasks:", "次の候補",
"Próximos passos sugeridos"): a list of answers to a question ("Which colour? 1. Blue 2. Green") has none."""
_TABLE_RULE = re.compile(r"[|:\s-]{3,}")
_TABLE_KEY = re.compile(r"#?\s{0,2}(\d{1,2})\.?")
_PROPOSALS_CHARS = 6000
_ITEMS_MOST = 9
"""More listed items than this are findings or a plan's steps, no handful of tasks to pick from."""


def _table_rows(answer: str) -> dict[str, str]:
    """The rows of the last table of ``answer`` by key: the number in the row's first cell, else its rank; the
    text is the row's first two cells of words (``| 1 | Cache the reports | small |`` → "Cache the reports: small")."""
    rows: dict[str, str] = {}
    inside = header = False
    for line in answer[-_PROPOSALS_CHARS:].splitlines():
        line = line.strip()
        if not line.startswith("|"):
            inside = False
            continue
        if not inside:  # a table starts: the last one is what the answer offers
            rows, inside, header = {}, True, True
        if _TABLE_RULE.fullmatch(line):
            header = False
            continue
        if header:
            continue
        cells = [cell.strip(" *`") for cell in line.strip("|").split("|")]
        key = _TABLE_KEY.fullmatch(cells[0]) if cells else None
        words = [cell for cell in cells[1 if key else 0:] if cell][:2]
        if words:
            rows[key.group(1) if key else str(len(rows) + 1)] = ": ".join(words)
    return rows


def proposed_tasks(answer: str) -> dict[str, str]:
    """The tasks the agent's answer offers to take up next, by key: its last list or table (two to
    :data:`_ITEMS_MOST` items) when the words around it say they are the next work (:data:`_NEXT_WORK`); ``{}``
    for a list of answers to a question, of findings, or of a plan's steps."""
    tail = answer[-_PROPOSALS_CHARS:]
    listed = listed_options(tail) or _table_rows(tail)
    if not 2 <= len(listed) <= _ITEMS_MOST:
        return {}
    first = next(iter(listed.values()))
    lines = tail.splitlines()
    head = first.split(": ")[0][:40]
    at = next((n for n, line in enumerate(lines) if head in " ".join(line.replace("**", "").split())), 0)
    around = [line for line in lines[max(0, at - 3):at] if line.strip()][-2:]
    closing = [line for line in lines if line.strip()][-1:]
    return listed if _NEXT_WORK.search(" ".join(around + closing)) else {}


_TWO_KEYS = re.compile(r"(?:#|option\s{0,2}|opção\s{0,2}|opción\s{0,2})?([1-9])(?:\s{0,2}(?:번|番))?\s{0,3}"
                       r"(?:and|&|\+|,|と|과|와|e|y|und|et|和|及)\s{0,3}"
                       r"(?:#|option\s{0,2}|opção\s{0,2}|opción\s{0,2})?([1-9])(?![\d.])", re.I)
"""A reply that picks two of the listed tasks ("1 and 3", "#2 & #4", "1と3で", "1번과 3번")."""
_PICK_FRAME = re.compile(r"\b(?:one|go (?:with|for)|let'?s (?:do|take|pick|start with)|take|pick|choose|start with"
                         r"|vamos com|vamos con|nehmen wir|on prend)\b|の方|のやつ|쪽|那个", re.I)
"""A reply that picks a task by what it is about, not by its key ("the caching one", "go with the fetch one")."""
_STEM = 4
_COMMON = frozenset("with from into that this then them they have will also only each some what when more".split())
_PICK_CHARS = 80
_WORD = re.compile(r"[^\W\d_]{4,}")


def _described_task(listed: dict[str, str], reply: str) -> str:
    """The one listed task a short reply names by a word only that task's text holds (compared by its first
    :data:`_STEM` letters: "the caching one" names "Cache the parsed reports"), the words of the pick itself
    and the commonest ones left out."""
    if not _PICK_FRAME.search(reply):
        return ""
    stems = {key: {word.lower()[:_STEM] for word in _WORD.findall(text) if word.lower() not in _COMMON}
             for key, text in listed.items()}
    said = {word.lower()[:_STEM] for word in _WORD.findall(_PICK_FRAME.sub(" ", reply)) if word.lower() not in _COMMON}
    hits = [key for key, own in stems.items() if said & own.difference(*(w for k, w in stems.items() if k != key))]
    return listed[hits[0]] if len(hits) == 1 else ""


def picked_task(answer: str, reply: str) -> str:
    """The task (or two) of the agent's proposed next tasks (:func:`proposed_tasks`) that ``reply`` picks: by its
    key, number or rank ("#1 please", "let's do option 2", "1で", "vamos com a 3", "the second one"), two of them
    ("1 and 3"), or by what it is about ("the caching one"), in the words of the proposal; ``""`` when the answer
    proposed no tasks, or the reply is long, asks or refuses."""
    said = " ".join(reply.split())
    if not said or len(said) > _PICK_CHARS or said.endswith(("?", "？")) or _REFUSAL_TOKENS.search(said):
        return ""
    listed = proposed_tasks(answer)
    if not listed:
        return ""
    two = _TWO_KEYS.search(said)
    if two and two.group(1) in listed and two.group(2) in listed and two.group(1) != two.group(2):
        return "; ".join(listed[key] for key in two.groups())
    key = picked_key(said)
    chosen = list(listed.values())[-1] if key == "last" else listed.get(key, "")
    return chosen or _described_task(listed, said)


def picked_work(exchanges: list[tuple[str, str]]) -> str:
    """The task the user picked from the agent's proposed next tasks and has not moved off since: ``exchanges`` are
    the user's requests in order, each with the agent's last answer before it. From the latest back, requests that
    set no work of their own ("implement it", "yes, go ahead" to the plan the agent wrote for the pick,
    "実装してください") pass; the first one that picks a task (:func:`picked_task`) gives it; one that refuses ("no
    wait, not now") or sets work of its own ends the search with ``""``."""
    for request, answer in reversed(exchanges):
        words = request_words(request)
        task = picked_task(answer, words)
        if task:
            return task
        if _REFUSAL_TOKENS.search(" ".join(words.split()[:4])) or sets_work(words):
            return ""
    return ""


__all__ = ["COMMAND_PREFIX", "NUDGE_WORDS", "SKILL_BASE", "Objective", "approves", "complains", "follows_up", "gives_rules_only", "go_ahead", "injected", "invocation", "is_request", "moves_on", "names_a_stage", "objective", "only_asks", "picked_task", "picked_work", "command_subject", "proposed_tasks", "taken_up",
           "request_words", "sets_work", "stated_goal", "task_goal", "user_requests", "with_now", "word_count"]
