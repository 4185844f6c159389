"""Decisions and rules the region itself later reversed: only the standing one is a decision.

The agent decides "rather than changing the interface, I'll add a helper instead"; three messages on the user says
"the interface is better, no? we don't want if-else dispatch at call sites" and the agent agrees. A summary that still
lists the helper as a decision sends the next agent back the way the user turned down. A decision (or a rule) is
*superseded* when a later message of the user's (a request, what they said on declining a call) or the agent's
acknowledgement of one ("You're right — …") says a reversal ("instead", "actually", "revert", "no longer", "better",
"go back to", …) about the same thing: the two share content words. The superseded one is said as history with what
replaced it ("Was: … — now: …"), or left out when a later decision says the new way already.

Judged by the order of the messages, reversal words and shared words only, never by one session's strings.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from ...accessors import content_text
from .clause import own_lines, request_clause
from .facts import message_dicts
from .goal import user_requests
from .languages import REVERSAL, any_language
from .outcome import refusal, refusal_words
from .text import clip_words, one_line

_REVERSAL = re.compile(
    r"\binstead\s*(?:[.!?,;:)]|$)|\bactually,? (?:let'?s|use|do|go|we|i (?:want|need|meant)|i'?d|keep|make|put|it)\b"
    r"|\brevert (?:it|that|this|the|those|these|back|to)\b|\b(?:no longer|go(?:ing)? back to|switch(?:ed|ing)? back"
    r"|scratch that|changed? (?:my|our) mind|let'?s not|on second thought|not what (?:i|we) (?:want|meant))\b"
    r"|\b(?:is|are|would be|seems?) (?:much |a lot |way )?(?:better|cleaner|simpler)\b"
    r"|\b(?:feel free to|(?:it'?s|it is) (?:fine|ok(?:ay)?|alright) (?:now )?to|you (?:can|may) (?:now )?\w{2,20}"
    r" (?:again|after all)|ignore what i said|forget (?:what i said|that rule|my (?:earlier|last) (?:rule|note|comment))"
    r"|never ?mind (?:what i said|that rule|the rule))\b"
    rf"|{any_language(REVERSAL, english=False)}",
    re.I | re.M,
)
"""Words that reverse or replace an earlier way: "use X instead.", "actually, let's …", "revert that", "no longer",
"go back to", "the interface is better"; "instead of Y" alone contrasts, it replaces nothing said before. Words
that lift a rule the user set are a reversal too ("feel free to mock the DB", "you can push to main again",
"ignore what I said about the tests"); in the other languages of :data:`.languages.REVERSAL` too ("na verdade,
use…", "doch lieber…")."""
_LEAVE = (r"(?:move on|skip|leave|park|pause|punt on|put|keep|hold off(?: on)?|put (?:\w{2,20} )?(?:aside|off)"
          r"|set (?:\w{2,20} )?aside|not worry about|forget about)")
_FOR_NOW = (r"(?:for now|for the time being|for later|until later|later|another time|down the (?:road|line)"
            r"|on (?:hold|ice|the back ?burner))")
_POSTPONED = re.compile(
    rf"\b{_LEAVE}\b[^.!?\n]{{0,80}}?\b{_FOR_NOW}\b|\b(?:postpone|defer|shelve)\w{{0,3}}\b"
    r"|\bon (?:hold|the back ?burner|ice)\b|\b(?:come|get|circle) back to\b[^.!?\n]{0,80}?\b(?:later|eventually"
    r"|if and when|(?:when|once) (?:it|we|you|i)\b)", re.I)
"""Words that set a way aside for now ("let's move on for now but come back to the swiss ephemeris", "park the
migration for later", "put the redesign on hold", "postpone the upgrade"): the way is no current decision, though it
may come back; said so (``Postponed: … — the user: “…”``), so the next agent neither carries it out nor forgets it.
A verb of leaving needs its "for now" ("keep sqlite for now" keeps a way, it sets none aside), coming back its
"later"."""
_ABANDONS = re.compile(
    r"\b(?:revert(?:ed|ing)?|go(?:ing)?|went|switch(?:ed|ing)?|fall(?:ing)?|fell|roll(?:ed|ing)?)\s{1,3}back\s{1,3}to\b"
    r"|\brevert(?:ed|ing)?\s{1,3}to\s{1,3}(?:the\s{1,3})?(?:original|previous|old|earlier|prior)\b"
    r"|\b(?:abandon(?:ed|ing)?|giv(?:e|ing)\s{1,3}up\s{1,3}on|drop(?:ped|ping)?|back(?:ed|ing)?\s{1,3}out\s{1,3}of)"
    r"\s{1,3}(?:this|that|the)\s{1,3}(?:\w{2,20}\s{1,3})?(?:approach|attempt|idea|package|library|migration|plan)\b",
    re.I)
"""The agent's words for leaving the way it was trying ("Let me revert back to the original library", "I've
reverted to the previous version", "abandoning this approach"): what it had agreed on or decided about that way is
history, though no word of the user's reversed it."""
_REASON_SENTENCES = 3
"""The sentences before the agent's words of leaving a way read with them: why it leaves (what the way was)."""
_ANY_REVERSAL = re.compile(rf"{_REVERSAL.pattern}|\b(?:instead|rather|don'?t|do not|better|no)\b", re.I | re.M)
"""What a user says on declining the call a decision announced that turns the decision down ("the interface is
better, no?", "don't mock it", "rather keep …")."""
_ACKNOWLEDGES = re.compile(r"^\W{0,3}(?:you'?re (?:absolutely |quite )?right|good (?:call|catch|point)|fair point"
                           r"|agreed|got it|understood|makes sense)\b", re.I)
_DECLINED_SAID = re.compile(r"(?:the user said|user'?s feedback|reason)\s*:\s*", re.I)
_WORD = re.compile(r"[^\W\d_][\w-]{2,}", re.UNICODE)
_PREFIX = re.compile(r"^(?:Agreed with the user|Proposed by the agent|Plan approved by the user|The user chose|Corrected"
                     r"|Was|Postponed)\s*:\s*(?:option \w{1,3}:\s*)?", re.I)
_STOP = frozenset("""the and for but not you are was its can now all our out use any has had how who why yes
    this that with from have will would should could then them they there what when which while
    into also just more only some such than very make sure want need like does done your their these those here
    about after before because being other over same still where let's lets agreed proposed approved
    instead actually rather better cleaner simpler revert longer anymore""".split())
_SHARED = 2
"""Content words a reversal must share with what it reverses (by their first five letters)."""
_WINDOW = 2
"""A reversal is read as its sentence and the one after it ("the interface is better, no? We don't want …")."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_PROBE = 32


_OBJECT = re.compile(r"[^,;:.!?\n]{1,60}?(?=[,;:.!?\n]|\s(?:but|and|then|so|for now|until)\b|$)", re.I)
"""What a verb of putting off names ("postpone the upgrade, …"): up to the clause's end."""


def _set_aside(sentence: str) -> str:
    """The words of ``sentence`` that set a way aside for now (:data:`_POSTPONED`), with what a bare verb puts off
    ("postpone the upgrade"); ``""`` when it sets nothing aside. Not the rest of the sentence: "we'll come back to
    the colors later but for now fix the wheel" sets the colors aside, not the wheel."""
    found = []
    for match in _POSTPONED.finditer(sentence[:4000]):
        named = _OBJECT.match(sentence, match.end()) if match.group(0).lower().startswith(("postpone", "defer",
                                                                                          "shelve")) else None
        found.append(match.group(0) + (named.group(0) if named else ""))
    return " ".join(found)


def _stems(text: str) -> set[str]:
    return {word[:5].lower() for word in _WORD.findall(text) if word.lower() not in _STOP}


def _core(item: str) -> str:
    """An item without the label the summary puts before it and the user's words quoted after it."""
    return _PREFIX.sub("", item, count=1).split(" — the user", 1)[0].strip()


def _passed_over(item: str) -> set[str]:
    """What a choice between ways passed over ("Redis or SQLite? — the user: “Redis”"): the question's words the
    user's pick does not hold. A later "switch to SQLite instead" names one of them: it takes the way passed over,
    which reverses the pick though the two share one word only."""
    asked, quoted, picked = _core(item), " — the user: “" in item, item.split(" — the user: “", 1)[-1]
    return _stems(asked) - _stems(picked) if quoted and re.search(r"\bor\b", asked) else set()


def _declined_said(text: str) -> str:
    """What the user said in a failed result: on declining the call, in any harness's form
    (:func:`.outcome.refusal_words`); else after a "Reason:" a hook or a gate gave."""
    if refusal(text):
        return refusal_words(text)
    said_on = _DECLINED_SAID.search(text[:4000])
    return text[said_on.end():4000] if said_on else ""


def _call_words(arguments: object) -> str:
    """What a call would have done, in words: its command, path or input (a declined ``npm install swisseph``)."""
    if not isinstance(arguments, dict):
        return ""
    values = (arguments.get(key) for key in ("command", "cmd", "path", "file_path", "input"))
    return " ".join(" ".join(map(str, v)) if isinstance(v, list) else str(v) for v in values if v)[:500]


def _said(messages: Sequence[dict]) -> list[tuple[int, str, str, str]]:
    """``(index, text, kind, about)`` of the region's messages in order: the user's requests in their own words
    (``user``), what the user said on declining a call (``declined``, ``about`` the call's own words: declining
    ``npm install swisseph`` with "come back to it later" sets the install aside), the agent's texts (``agent``),
    and the first paragraph of an agent's text that acknowledges the user's reply ("You're right — …": ``user``,
    the user's word restated)."""
    messages = list(message_dicts(messages))  # (junk in a session is read past)
    said = [(index, "\n".join(own_lines(words)), "user", "") for index, words in user_requests(messages)]
    calls: dict[str, str] = {}
    for index, message in enumerate(messages):
        role = message.get("role")
        text = content_text(message.get("content"))[:20_000] if role in ("assistant", "toolResult") else ""
        if role == "assistant" and isinstance(message.get("content"), list):
            calls.update((str(block.get("id")), _call_words(block.get("arguments"))) for block in message["content"]
                         if isinstance(block, dict) and block.get("type") == "toolCall")
        if role == "assistant" and text.strip():
            said.append((index, text, "agent", ""))
            if _ACKNOWLEDGES.match(text):
                said.append((index, text.split("\n\n", 1)[0], "user", ""))
        elif role == "toolResult" and message.get("isError") and (said_on := _declined_said(text)):
            said.append((index, said_on, "declined", calls.get(str(message.get("toolCallId")), "")))
    return sorted(said, key=lambda entry: entry[0])


class _Said:
    """The region's words read once for every item asked about (:func:`_said`): the texts on one line, joined, and
    the user's reversals as ``(index, the sentences, their stems)``, so an item costs one search of the joined text
    and a look at the reversals, not a pass of sentence splitting and patterns over every message per item."""

    def __init__(self, said: list[tuple[int, str, str, str]]) -> None:
        flat = [one_line(text).replace("**", "").replace("\0", " ") for _, text, _, _ in said]
        self.joined = "\0".join(flat)  # one text, so finding an item is one search, not one per message
        self.starts = [0] * len(flat)
        for number in range(1, len(flat)):
            self.starts[number] = self.starts[number - 1] + len(flat[number - 1]) + 1
        self.at = [index for index, _, _, _ in said]
        self.reversals: list[tuple[int, str, set[str]]] = []
        self.postponed: set[int] = set()  # where the user set a way aside for now (:data:`_POSTPONED`)
        for index, text, kind, about in said:
            if kind == "agent":
                continue
            pieces = [piece.strip() for piece in _SENTENCE.split(text[:4000]) if piece.strip()]
            for number, piece in enumerate(pieces):
                set_aside = _set_aside(piece)
                if set_aside:  # (only what it sets aside: "come back to the colors later, for now fix the wheel")
                    self.reversals.append((index, piece, _stems(set_aside) | _stems(about)))
                    self.postponed.add(index)
                elif _REVERSAL.search(piece):
                    window = " ".join(pieces[number : number + _WINDOW])
                    self.reversals.append((index, window, _stems(window)))
        self.users = [(index, text, kind) for index, text, kind, _ in said if kind != "agent"]
        self.abandoned = [found for index, text, kind, _ in said if kind == "agent" and _ABANDONS.search(text[:20_000])
                          for found in _abandoning(index, text)]
        self.user_at = [index for index, _, _ in self.users]

    def found_at(self, item: str) -> int | None:
        """Where ``item`` was first said (a probe of its opening words found in a message), or ``None``."""
        core = one_line(_core(item)).replace("**", "")
        probe = core[:_PROBE]
        if len(probe) < 12 or "\0" in probe:
            return None
        found = self.joined.find(probe)
        return self.at[bisect_right(self.starts, found) - 1] if found >= 0 else None

    def reversal(self, item: str, at: int) -> tuple[int, str] | None:
        """The first later word of the user's that reverses ``item`` (said at ``at``): ``(index, the sentences)``.
        The user declining the call the decision led to, saying why in words that turn it down and name a thing of
        it, reverses it; a later word of the user's reverses it when it says a reversal (:data:`_REVERSAL`) about
        what it names (:data:`_SHARED` words in common), or names a way a pick between ways passed over
        (:func:`_passed_over`)."""
        wanted = _stems(_core(item))
        after = bisect_right(self.user_at, at)
        if after < len(self.users):
            index, text, kind = self.users[after]
            if kind == "declined" and _ANY_REVERSAL.search(text) and wanted & _stems(text):
                return index, text
        passed = _passed_over(item)
        by_user = next(((index, window) for index, window, stems in self.reversals
                        if index > at and (len(wanted & stems) >= _SHARED or passed & stems)), None)
        if by_user is not None or _PREFIX_USERS.match(item):
            return by_user  # (the user's own choice stands until the user's word: the agent's retreat is no reversal)
        return next(((index, words) for index, words, stems in self.abandoned
                     if index > at and len(wanted & stems) >= _SHARED), None)


_PREFIX_USERS = re.compile(r"^(?:The user|Plan approved by the user)\b")


def _abandoning(index: int, text: str) -> list[tuple[int, str, set[str]]]:
    """``(index, the sentence, the stems of it and the sentences before it)`` per sentence of an agent's ``text`` that
    leaves the way it was trying (:data:`_ABANDONS`); the sentences before say which way (its reason)."""
    pieces = [piece.strip() for piece in _SENTENCE.split(text[:20_000]) if piece.strip()]
    return [(index, piece, _stems(" ".join(pieces[max(0, number - _REASON_SENTENCES) : number + 1])))
            for number, piece in enumerate(pieces) if _ABANDONS.search(piece)]


_POSTPONED_LABEL = "Postponed"
"""What a way set aside for now is said as: no current decision, and one the user means to come back to."""
_MOST_ITEMS = 40
"""The newest items checked for a reversal: a summary shows the last ten of each list, and each is compared with
every reversal the user said."""


def standing(items: Sequence[str], messages: Sequence[dict], *, earlier: Sequence[str] = (),
             label: str = "Was") -> list[str]:
    """``items`` (decisions or rules, in order) without those a later message reversed (see the module docstring):
    each such said once as ``Was: <it> — now: “<the reversal>”``, or left out when an item said at or after the
    reversal already names the new way. Items of ``earlier`` (an earlier summary's) were said before the region:
    any reversal in it counts."""
    if len(items) > _MOST_ITEMS:  # the older ones stay as they are (see _MOST_ITEMS)
        return [*items[:-_MOST_ITEMS], *standing(items[-_MOST_ITEMS:], messages, earlier=earlier, label=label)]
    said = _Said(_said(messages))
    before = set(earlier)
    where = {item: -1 if item in before else said.found_at(item) for item in items}
    kept: list[str] = []
    told: set[int] = set()
    for item in items:
        at = where[item] if not item.startswith((f"{label}:", f"{_POSTPONED_LABEL}:")) else None
        reversed_by = said.reversal(item, at) if at is not None else None
        if reversed_by is None:
            kept.append(item)
            continue
        index, words = reversed_by
        if index in said.postponed:  # set aside for now, not replaced: no new way to look for
            quoted = f" — the user: “{request_clause(words, 160)}”" if index not in told and not any(
                one_line(words)[:40] in other for other in items) else ""  # (once: not again after a declined call)
            told.add(index)
            kept.append(f"{_POSTPONED_LABEL}: {_core(item)}{quoted}")  # (whole: what it settled may come back)
            continue
        newer = [other for other in items if (where[other] or -1) >= index and other != item]
        if index in told or any(len(_stems(_core(other)) & _stems(words)) >= _SHARED for other in newer):
            continue  # the new way is a decision of its own (or said once for an earlier one already)
        told.add(index)
        kept.append(f"{label}: {clip_words(_core(item), 120)} — now: “{request_clause(words, 160)}”")
    return kept


__all__ = ["standing"]
