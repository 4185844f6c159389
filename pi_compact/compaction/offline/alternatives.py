"""A question between ways and the short reply that names one of them: the user's choice.

"Should I keep the old parser or rewrite it with lark?" — "rewrite it"; "Redis or SQLite?" — "SQLite, we don't want
another server"; "…, or open an issue?" — "the latter": the reply does not open with a yes (which
:func:`.rules.accepted_proposal` reads), it names the way it takes, by a word only that way holds or by its rank.
The question is the answer's closing one; the reply is short (a longer one is a request of its own) and asks
nothing back. Both are kept, the question with the reply in the user's words, so the choice keeps the names the
question gave the ways."""

from __future__ import annotations

import re

from .text import clip_words

_SENTENCE_END = re.compile(r"[.!?](?=\s)|[。！？]|\n")
_QUESTION_CHARS = 300
_OR = re.compile(r",?\s{1,3}(?:or|ou|oder)\s{1,3}|[,、，]?\s{0,2}(?:それとも|还是|或者|아니면)\s{0,2}", re.I)
"""The word that joins the ways, in English, Portuguese, French, German, Japanese, Chinese and Korean (not the
Spanish "o", which Portuguese uses as "the")."""
_ASKING = re.compile(
    r"^\W{0,3}(?:(?:so|then|now|ok(?:ay)?),?\s{1,3})?(?:(?:which|what)\b[^,:]{0,40}?[,:]\s{0,3}"
    r"|(?:shall|should|do|would|can|could|may)\s{1,3}(?:I|we|you)\s{1,3}(?:want|like|prefer)?\s{0,3}(?:me\s{1,3})?"
    r"(?:to\s{1,3})?|(?:do you|would you)\s{1,3}(?:rather|prefer|want)\s{1,3}(?:me\s{1,3}to\s{1,3}|to\s{1,3})?"
    r"|(?:want|prefer)\s{1,3}(?:me\s{1,3}to\s{1,3})?)", re.I)
"""The asking words before the ways ("Should I …", "Do you want me to …", "Which do you prefer: …")."""
_NAMES = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{2,40}")
_FUNCTION_WORDS = frozenset(
    "the and for with use using one that this them then than not but also just please yes yeah yep sure okay let's lets"
    " let keep want would should prefer rather option way into from our your its it's out all any can".split())
"""Words that name no way ("the", "use", "keep" of "keep the old one" names it by "old" only when the other way
has no "old")."""
_FIRST = re.compile(r"^\W{0,3}(?:(?:the|o|a|el|la|le|der|die|das)\s{1,3})?(?:former|first|primeir[oa]|primer[oa]?"
                    r"|premi(?:er|ère)|erste)(?:\s{1,3}(?:one|option|way|um|uma|uno|una|l'un))?\W{0,3}$"
                    r"|^\W{0,3}(?:前者|最初の?方|一つ目|첫 ?번째|第一个)", re.I)
_LAST = re.compile(r"^\W{0,3}(?:(?:the|o|a|el|la|le|der|die|das)\s{1,3})?(?:latter|second|last|segund[oa]|second[e]?"
                   r"|deuxième|zweite|letztere)(?:\s{1,3}(?:one|option|way|um|uma|uno|una))?\W{0,3}$"
                   r"|^\W{0,3}(?:後者|後の方|二つ目|두 ?번째|后者|第二个)", re.I)
"""A reply that picks a way by its rank: the first, or the second when the question offers two."""
_REPLY_CHARS = 200
_WAYS = 4
"""A question of more ways than this lists things, it offers no choice."""
_ASKED_CHARS = 200
_SAID_CHARS = 160


def _closing_question(answer: str) -> str:
    """The question an answer closes on: its last sentence, when it ends with "?"."""
    tail = answer[-2000:].rstrip()
    if not tail.endswith(("?", "？")):
        return ""
    start = 0
    for end in _SENTENCE_END.finditer(tail[:-1]):
        start = end.end()
    question = " ".join(tail[start:].split())
    return question if 3 <= len(question) <= _QUESTION_CHARS else ""


def _ways(question: str) -> list[str]:
    """The ways a question offers: its words after the asking ones, split at "or" and at the commas before it."""
    asked = _ASKING.sub("", question.rstrip("?？ ").strip(), count=1)  # (the ways' words are what a reply names)
    ways = _OR.split(asked)
    if len(ways) != 2:
        return []
    head = [part.strip() for part in re.split(r"[,、，]", ways[0])]
    return [way for way in [*head, ways[1].strip()] if way]


def _words(text: str) -> set[str]:
    return {word.lower() for word in _NAMES.findall(text)} - _FUNCTION_WORDS


def _named_way(ways: list[str], said: str) -> int | None:
    """The index of the one way the reply names: by rank, else by words only that way holds."""
    if _FIRST.match(said):
        return 0
    if _LAST.match(said) and len(ways) == 2:
        return 1
    used = _words(said)
    owned = [_words(way) for way in ways]
    hits = [len(used & own.difference(*(o for n, o in enumerate(owned) if n != at))) for at, own in enumerate(owned)]
    best = max(range(len(ways)), key=hits.__getitem__)
    return best if hits[best] and hits.count(hits[best]) == 1 else None


def chosen_way(answer: str, reply: str) -> str:
    """The closing question of ``answer`` that offers ways joined by "or", with the short ``reply`` that names one
    ("store the sessions in Redis or in SQLite? — the user: “SQLite”"); a rank is spelt out with the way it
    names. ``""`` when the answer closes on no such question, or the reply is long, asks back, or names no way
    (or more than one)."""
    said = " ".join(reply.split())
    question = _closing_question(answer)
    if not said or len(said) > _REPLY_CHARS or said.endswith(("?", "？")) or not question:
        return ""
    ways = _ways(question)
    if not 2 <= len(ways) <= _WAYS:
        return ""
    first = re.split(r"(?<=[.!;])\s|\s[—–-]\s", said, maxsplit=1)[0]
    at = _named_way(ways, first)
    if at is None:
        return ""
    asked = clip_words(question, _ASKED_CHARS)
    rank = f" ({clip_words(ways[at], _SAID_CHARS)})" if _FIRST.match(first) or _LAST.match(first) else ""
    return f"{asked} — the user: “{clip_words(said, _SAID_CHARS)}”{rank}"


__all__ = ["chosen_way"]
