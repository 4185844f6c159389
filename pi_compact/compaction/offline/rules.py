"""Which of the user's words still bind the work, and what user and agent settled between them.

A sentence with "make sure" in a request is an instruction for that request; once the request is finished it is
history, not a constraint ("Can we make it so that the logs go to their own file", done long ago). A rule that
lasts says so: never, always, don't, only, at most, keep … unchanged, from now on. A rule that names a thing
the session has since replaced or removed ("make sure `toolText` is also used", and later "replaced `toolText`
with `render()`") no longer applies. And a decision is not only a sentence with "decided" in it: the agent's
proposal the user then accepted ("Shall I keep the cache in memory?" — "yes") and the user's own choice ("use
SQLite instead of JSON files") are decisions too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_LASTING = re.compile(
    r"\b(?:never|always|don'?t|dont|do not|must ?n[o']t|must never|no more than|at most|not allowed|forbidden"
    r"|only|avoid|from now on|going forward|in general|every time|whenever|unchanged|untouched|intact|as it is"
    r"|as is|alone)\b|不要|不能|别|永远|始终|总是|禁止|不许|不得|不可|只能|只用|切勿|请勿",
    re.I,
)
"""Words of a rule that outlives the request it came with."""
_PREFERS = re.compile(r"^\W{0,3}(?:please\s{1,3})?(?:keep|prefer|use|stick (?:to|with)|leave|stay|let'?s (?:not|keep|use"
                      r"|stick))\b", re.I)
"""A sentence that states how the user wants the work done, in the imperative."""
_CHANGED_AWAY = (
    r"(?:replac\w*|remov\w*|renam\w*|drop\w*|delet\w*|got rid of|get rid of|no longer (?:use|need)\w*)"
)
_NAME = r"`?([A-Za-z_][\w.-]{2,60})`?"
_NAME_ALONE = r"`?(?<![A-Za-z_])([A-Za-z_][\w.-]{2,60})`?"
"""A name that starts where its word does (tried inside a word, it is tried 60 characters on at every letter)."""
_REPLACED = re.compile(
    rf"\b{_CHANGED_AWAY}\s+(?:the\s+)?(?:old\s+)?{_NAME}|\binstead of\s+(?:the\s+)?{_NAME}"
    rf"|{_NAME_ALONE}\s+(?:is|was|has been|got|are|were|have been)\s+(?:now\s+)?(?:replaced|removed|renamed|gone|deleted"
    rf"|dropped|obsolete)\b",
    re.I,
)
"""A sentence saying a named thing was replaced or removed."""
_CODE_NAME = re.compile(r"[a-z][A-Z]|_|\.\w|[A-Z][a-z]+[A-Z]")
_APPROVAL = re.compile(
    r"^\W{0,3}(?:yes|yep|yeah|yup|sure|ok(?:ay)?|sounds good|agreed|i agree|go (?:ahead|for it)|do it|let'?s do (?:it|that)"
    r"|please do|perfect|exactly|correct|right|that works|lgtm|ship it|the (?:first|second|third|last) one"
    r"|option \w+)\b",
    re.I,
)
"""A reply that accepts what the agent proposed."""
_PROPOSAL = re.compile(
    r"\b(?:shall I|should I|want me to|would you like(?: me)? to|do you want(?: me)? to|I (?:suggest|propose|recommend)"
    r"|I'?d (?:suggest|propose|recommend|go with)|we could|option \w+|the (?:better|simplest|cleanest) (?:approach|way|option))",
    re.I,
)
_POINTS_BACK = re.compile(r"\b(?:that|this|it|these|those|them)\W*$", re.I)
_CHOICE = re.compile(
    r"\b(?:instead of|rather than|let'?s (?:use|go with|keep|stick with)|we(?:'ll| will) (?:use|go with)"
    r"|go with|stick with)\b",
    re.I,
)
"""A user's sentence that picks one way over another."""
_CHOOSER = re.compile(r"^\W{0,3}(?:let'?s|we(?:'ll| will| should)?|i(?:'d| would)?|use|go|stick|keep|please|switch)\b"
                      r"|\b(?:i'?d go with|let'?s go with|we'?ll (?:use|go with))\b", re.I)
"""The user speaking (an imperative, "I", "we", "let's"): a review comment pasted in ("This eliminates … rather
than …") picks nothing."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_PICK = re.compile(r"^\W{0,3}(?:(?:let'?s|we'?ll|i'?ll|i'?d)\s{1,3}(?:go with|do|take|pick|use)\s{1,3}(?:the\s{1,3})?(?=opt|cho|num|first|second|third|fourth|fifth|last))?"
                   r"(?:(?:option|choice|number|#)\s{0,3}(\w{1,2})\b|([1-9])(?![\d.,:/]\d)\b"
                   r"|([A-Ha-h])\W{0,3}$|([A-Ha-h])(?:[.),:]\s|\s{1,3}(?:please|pls|is (?:best|fine|good))\b)"
                   r"|(?:the\s{1,3})?(first|second|third|fourth|fifth|last)"
                   r"\s{1,3}(?:one|option|choice)\b)", re.I)
"""A reply that picks one of the agent's listed options: "1 fix it and do it right", "Option B", "b", "the second one",
"let's go with option 1"."""
_OPTION = re.compile(r"^\W{0,8}(?:option|choice)?\s{0,3}(\w{1,2})\s{0,2}[.):]\s{0,4}(\S.{2,240})$", re.I)
"""A listed option: "1. Keep the cache", "**Option 2: Implement AST manually** (faster)", "B) Rewrite it"."""
_ASKS = re.compile(r"\b(?:shall I|should I|should we|shall we|(?:do )?you want me to|want me to|would you like me to"
                   r"|would you like to|do you want to|can I|may I|okay to|ok to)\s{1,3}(?:go ahead and\s{1,3})?", re.I)
"""Where a question offers an action: what follows is the action."""
_ALTERNATIVES = re.compile(r"\bor\b|\?\s", re.I)
"""A question that offers more than one thing ("commit now, or reply first?"): a bare "yes" picks none."""
_VAGUE = re.compile(r"^(?:go ahead|proceed|continue|start|do (?:so|it|that|this)|apply|make the changes?)\b"
                    r"|\b(?:implementation|a fix|the fix|the change|the changes|the plan|it|this|that|these|those|them)$", re.I)
"""An action that says nothing without what came before ("proceed with implementation", "do that")."""
_HEDGE = re.compile(r"^(?:so,?\s{1,3})?(?:i'?d say|i think|i'?d (?:suggest|recommend|propose)|i (?:suggest|recommend|propose)"
                    r"|my recommendation(?: is)?:?)\s{1,3}(?:that\s{1,3})?(?:we\s{1,3}(?:just\s{1,3})?|just\s{1,3})?", re.I)
_RECOMMENDS = re.compile(r"\b(?:i'?d say|i think|suggest|recommend|propose|the (?:better|simplest|cleanest|best)"
                         r"|could|should|need to|i'?d go with|instead|option \w{1,2})\b", re.I)
"""A sentence that recommends: the reason for the action the question then offers."""
_MARKERS = re.compile(r"\s{0,3}(?:[-*+•]|\d{1,2}[.)])\s{1,3}")
"""A list item's marker: an item of a list is one of several things, not the agent's recommendation."""
_RECOMMENDED = re.compile(r"\s{0,3}\((?:recommended|default|suggested)\)", re.I)
_LISTED = 4
_ACKNOWLEDGES = re.compile(
    r"^\W{0,3}(?:got it|understood|makes sense|noted|agreed|perfect|exactly|(?:you'?re|you are) (?:absolutely |quite )?right"
    r"|good (?:call|catch|point)|fair point)\s{0,2}(?:[.!,:;]|\s[-–—])[\s\-–—!]{0,3}",
    re.I,
)
"""The agent's first words on the user's reply that accept it ("You're right —", "Got it.", "Good catch!"); "You're right
to ask" and "Great question" accept nothing."""
_GOES_ON = re.compile(r"^\W{0,3}(?:let me|let'?s|i'?ll|i will|now|next|first|then|here'?s|here is|before|ok(?:ay)?|so,)\b",
                      re.I)
"""A sentence that narrates what the agent does next: what it accepted ends there."""
_GOES_ON_INSIDE = re.compile(r"[-–—;,:]\s{0,2}(?:let me|let'?s|i'?ll|i will)\b", re.I)
"""A sentence that turns to narration halfway ("The output was truncated — let me re-run it"): it ends there too."""
_RESTATED = 2
_SAYS_SOMETHING = 5
_OF_ITSELF = re.compile(r"^\W{0,3}I(?:\b|')", re.I)
"""The agent speaking of itself after the acknowledgement, not of what the user settled."""
"""Sentences of the agent's acknowledgement kept: what it took the user's point to be."""
"""Items of a list an offer introduced that the decision names."""
_WORDS = re.compile(r"[A-Za-z]{4,}")
_TABLE_CELLS = re.compile(r"\s{0,3}\|\s{0,3}(?=\S)")
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5"}


def lasting(rule: str) -> bool:
    """True when a rule says it outlives its request (never, always, only, …)."""
    return bool(_LASTING.search(rule))


def said_on_declining(reason: str) -> list[str]:
    """The sentences of what the user said on declining a call that set a way of working ("don't mock the LLM",
    "keep it in one module"); a question ("is testenv getting too large?"), a fact ("the other branch just got
    merged") or a one-off redirect ("have a look at this first") is the decision the declined call records, no
    lasting rule."""
    found = []
    for sentence in _SENTENCE.split(reason[:4000]):
        sentence = " ".join(sentence.split())
        if sentence and not sentence.endswith(("?", "？")) and (lasting(sentence) or _PREFERS.match(sentence)):
            found.append(sentence)
    return found


def replaced_names(texts: Sequence[str]) -> set[str]:
    """Code-like names (``toolText``, ``old_parser``, ``config.yaml``) the texts say were replaced or removed."""
    found: set[str] = set()
    for text in texts:
        for match in _REPLACED.finditer(text[:20_000]):
            name = next((group for group in match.groups() if group), "").rstrip(".-")
            if _CODE_NAME.search(name):
                found.add(name.lower())
    return found


def names_any(rule: str, names: set[str]) -> bool:
    """True when ``rule`` names one of ``names`` (as a whole word)."""
    lowered = rule.lower()
    return any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", lowered) for name in names)


def user_choices(request: str) -> list[str]:
    """Sentences of a user's request that pick one way over another ("use SQLite instead of JSON files")."""
    return [" ".join(s.split()) for s in _SENTENCE.split(request[:10_000])
            if 12 <= len(s.strip()) <= 300 and _CHOICE.search(s) and _CHOOSER.search(s)
            and not s.strip().endswith(("?", ":"))]


def acknowledged(text: str) -> str:
    """What the agent took the user's reply to settle, in its own words: the sentences after an acknowledgement that
    opens its answer ("Got it — the local journal is being removed, ClickHouse is the only store."; "You're right -
    we shouldn't continue with an empty `baseCommit`."), up to the first that narrates its next step; ``""`` when
    the answer opens with no acknowledgement or goes straight on ("You're right, let me update the script")."""
    ack = _ACKNOWLEDGES.match(text)
    if not ack:
        return ""
    paragraph = text[ack.end():2000].split("\n\n", 1)[0]
    kept: list[str] = []
    for line in paragraph.splitlines():
        if _MARKERS.match(line) or line.lstrip().startswith(("#", "```", "|", ">")):
            break
        for sentence in _SENTENCE.split(line.replace("**", "")):
            sentence = " ".join(sentence.split())
            if not sentence:
                continue
            if _GOES_ON.match(sentence) or _GOES_ON_INSIDE.search(sentence) or sentence.endswith((":", "?", "？")) \
                    or len(kept) == _RESTATED:
                return _said(kept)
            kept.append(sentence)
    return _said(kept)


def _said(kept: list[str]) -> str:
    said = " ".join(kept)
    if len(said.split()) < _SAYS_SOMETHING or _OF_ITSELF.match(said):
        return ""  # "I was wrong.", "I have everything I need.": nothing of what the user settled
    return said


def picked_option(answer: str, reply: str) -> str:
    """The option of the agent's answer that the user's reply picks by its number, letter or rank, as listed."""
    pick = _PICK.match(reply.strip())
    if not pick:
        return ""
    listed: dict[str, str] = {}
    for line in answer[-6000:].splitlines():
        option = _OPTION.match(line.replace("**", "").strip())
        if option and (option.group(1).isdigit() or len(option.group(1)) == 1):
            key = option.group(1).lower()
            if key in ("1", "a"):
                listed = {}  # a list starts: the options are the last list, after what the agent found
            listed[key] = " ".join(option.group(2).split())
    wanted = next(group for group in pick.groups() if group).lower()
    if wanted == "last":
        return list(listed.values())[-1] if listed else ""
    return listed.get(_ORDINALS.get(wanted, wanted), "")


def accepted_proposal(answer: str, reply: str) -> str:
    """What the user agreed to, as a statement: the option the reply picks when the answer listed options; else the
    agent's proposal (the last sentence of its answer that proposes) when the reply accepts it. A proposal asked as
    a question says what it would do ("Shall I keep the cache in memory?" → "keep the cache in memory"); one that
    only points back ("Want me to go ahead?") is the recommendation before it; a question between alternatives
    ("fix it here, or open an issue?") that a bare "yes" answers decides nothing."""
    picked = _picked(answer, reply)
    if picked:
        return picked
    if not _APPROVAL.match(reply.strip()):
        return ""
    found = [" ".join(s.split()) for s in _SENTENCE.split(answer[-4000:]) if s.strip()]
    at = next((n for n in range(len(found) - 1, -1, -1) if _PROPOSAL.search(found[n])), None)
    if at is None:
        return ""
    before = found[at - 1] if at else ""
    if found[at].endswith(":"):  # "Want me to implement this with both:": what it offers is the list after it
        return _offered_list(found[at], found[at + 1 :])
    if not found[at].endswith(("?", "？")):
        if len(found[at].split()) < 7 or _POINTS_BACK.search(found[at]):  # "Option B it is, then."
            return f"{before} {found[at]}".strip()
        return found[at]
    return _agreed_action(found[at], before, reply)


def _picked(answer: str, reply: str) -> str:
    """The option the reply picks, named by its key (``option 2: …``): a list of questions offers no option."""
    pick = _PICK.match(reply.strip())
    text = picked_option(answer, reply)
    if not pick or not text or text.endswith(("?", "？")):
        return ""
    key = next(group for group in pick.groups() if group).lower()
    key = _ORDINALS.get(key, key)
    text = _TABLE_CELLS.sub(": ", _RECOMMENDED.sub("", text)).strip(" |:")
    return text if key == "last" else f"option {key.upper() if key.isalpha() else key}: {text}"


def _offered_list(question: str, after: list[str]) -> str:
    """An offer that introduces a list, with the list's first items: what the user said yes to."""
    asks = None
    for asks in _ASKS.finditer(question):
        pass
    listed = []
    for line in after[:_LISTED]:
        marker = _MARKERS.match(line)
        if not marker:
            break
        listed.append(line[marker.end():].strip())
    if not listed:
        return ""
    action = question[asks.end():] if asks else question
    return f"{action.rstrip(': ')}: {'; '.join(listed)}"


def _answered(alternatives: str, reply: str) -> str:
    """A question between alternatives and the user's words past the "yes" (``yes - commit, push, reply``): what
    they chose, in their words; a bare "yes" chose nothing."""
    said = reply.strip()
    approval = _APPROVAL.match(said)
    if not approval:
        return ""
    while approval:  # "yeah, let's do it": approvals only
        said = said[approval.end():].strip(" -–—,.:;!")
        approval = _APPROVAL.match(said) if said else None
    said = next(iter(_SENTENCE.split(said)), "").strip()
    offered = {word.lower() for word in _WORDS.findall(alternatives)}
    if len(said.split()) < 2 or said.endswith(("?", "？")) or not offered & {w.lower() for w in _WORDS.findall(said)}:
        return ""  # an answer about something else ("okay, so what have we got?") chose none of them
    return f"{alternatives} — the user: “{said}”"


def _agreed_action(question: str, before: str, reply: str = "") -> str:
    """The action a question offered ("Should I remove the unused `StageFiles()`?"), as a statement, with the
    recommendation before it when there is one; a question that only points back is that recommendation."""
    asks = None
    for asks in _ASKS.finditer(question):
        pass
    if asks is None:
        return ""
    if _ALTERNATIVES.search(question[asks.end():]):
        return _answered(question[asks.end():].rstrip("?？ ").strip(), reply)
    action = question[asks.end():].rstrip("?？ ").strip()
    listed = _MARKERS.match(before)
    context = _HEDGE.sub("", before[listed.end():] if listed else before).strip()
    usable = not listed and len(context.split()) >= 6 and not context.endswith(("?", "？", ":")) \
        and not context.startswith(("```", "|"))
    concrete = len(action.split()) >= 3 and not _POINTS_BACK.search(action) and not _VAGUE.search(action)
    if concrete:
        return f"{action}: {context}" if usable and _RECOMMENDS.search(before) else action
    if not usable:
        return ""
    return context if _RECOMMENDS.search(before) else f"{action}: {context}"


__all__ = ["accepted_proposal", "acknowledged", "lasting", "names_any", "picked_option", "replaced_names", "said_on_declining",
           "user_choices"]
