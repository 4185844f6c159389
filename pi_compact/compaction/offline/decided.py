"""A choice said in a sentence: what the agent (or the user with it) settled, with its reason or the way passed over.

"I'll go with SQLite because the data fits on one machine", "We won't add a queue since the jobs finish in a
second", "Decision: keep the old parser": the next agent must not reopen what was settled. A sentence that only
narrates the next move ("I'll use grep to find the callers"), describes code ("it uses X rather than Y"), heads a
part of an answer or fills a table's cell reports no choice."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from .languages import (BECAUSE, COURSE, DECIDED, HYPOTHETICAL, INSTEAD, TENTATIVE, any_language, spaced, unspaced,
                        wide_length)
from .agent_rules import agent_rules
from .design import listed_designs, opens_steps, states_design
from .found_then_changed import changed_on_finding
from .settled_how import fix_method, names_nothing, settled_how
from .text import clip_words, sentences
from .unneeded import unneeded_ways
from .verdicts import settles

_DECISION = re.compile(
    r"\b(?:decided|decide to|decision\*{0,2}\s{0,2}:|decision (?:is|was)\b|chose|choose to|opted|going with|go with"
    r"|settled on|opting for|agreed|I agree|the (?:fix|solution|approach|right approach|(?:cleanest|simplest) (?:fix|way)) (?:is|was"
    r"|would be) to|the \W{0,2}(?:correct|right|intended)\W{0,2} behaviou?r (?:is|would be|should be)"
    r"|I(?:'ve| have)? (?:went|gone) with"
    r"|we(?:'ll| will) use|I(?:'ll| will) use)\b|^[*_\s]{0,4}(?:decision|(?:chosen )?approach)(?:\*{0,2}\s{0,2}:|:\*{1,2})"
    r"|^\W{0,3}(?:going forward|from now on),",
    re.I,
)
"""A sentence that reports a choice ("decision" only as "Decision:" opening the sentence, or "the decision is": a
"decision gate", "the carry-forward decision logic" or "The **carry-forward decision**:" is a thing talked about, not a
choice made; so "Approach:"), or a standing course ("Going forward, the cache lives in Redis")."""
_DECIDED_ABROAD = re.compile(any_language(DECIDED, english=False), re.I)
"""A choice reported in another language by its verb of deciding ("…を使うことにしました", "…하기로 했습니다", "Decidi
usar…", "Ich habe mich entschieden…"): the same sign as "decided" in English (:data:`.languages.DECIDED`)."""
_COURSE_ABROAD = re.compile(any_language(COURSE, english=False), re.I)
"""The agent's own course in another language, said with a verb of taking a way (use, keep, switch to, adopt)."""
_WHY_ABROAD = re.compile(f"{any_language(INSTEAD)}|{any_language(BECAUSE, english=False)}", re.I)
"""A reason or the way passed over, in those languages: what makes a course a choice (as :data:`_REASONED`)."""
_WEIGHED = re.compile(rf"^\W{{0,3}}(?:{spaced(HYPOTHETICAL)}|{unspaced(HYPOTHETICAL)})", re.I)
"""A course said under a condition ("Se usarmos SQLite em vez de JSON, …", "もしSQLiteを使うなら…"): weighed, not
taken."""
_SHORTEST = 20
"""Fewer characters (:func:`.languages.wide_length`: a character of an unspaced script counts twice) say no choice."""
_CHOSEN_COURSE = re.compile(
    r"^\W{0,3}(?:(?:ok(?:ay)?|so|then|alright|right),?\s{1,3})?(?:I'll|I will|let's|let us|we'll|we will|I'm going to"
    r"|we're going to)\s{1,3}(?:go with|stick (?:to|with)|stay with|opt for|settle on|choose|pick|keep(?!\s{1,3}\w{2,20}ing\b)|use|switch to"
    r"|move to)\b"
    r"|^\W{0,3}(?:(?:ok(?:ay)?|so|then|alright|right),?\s{1,3})?(?:(?:I'm|I am|we're|we are)\s{1,3}(?:going with"
    r"|sticking (?:to|with)|staying with|switching to|opting for|keeping(?!\s{1,3}(?:an eye|track|in mind|\w{2,20}ing\b)))"
    r"|(?:I|we)(?:'ve| have)\s{1,3}(?:switched|moved|kept|chosen|settled on|opted for|gone back to))\b"
    r"|^\W{0,3}(?:using|switching to|sticking (?:to|with)|opting for|going with|keeping(?!\s{1,3}(?:an eye|track"
    r"|in mind|\w{2,20}ing\b)))\s{1,3}(?!(?:(?:a|an|the)\s{1,3}(?:tool|command|grep|search)|it|this|that|them|these"
    r"|those)\b)\S", re.I)
_PLAN_METHOD = re.compile(
    r"^\W{0,3}(?:I'm|I am|we're|we are|I'll|I will|we'll|we will)\s{1,3}(?:be\s{1,3})?(?:using|use)\s{1,3}"
    r"(?=[^.;!?\n]{0,60}?(?:(?-i:[A-Z])|agent|parallel|driven|batch|worktree))"  # a method by name, or agents at work
    r"(?!(?:a|an|the)\s{1,3}(?:tool|command|grep|search)\b|it\b|this\b|that\b)[^.;!?]{3,80}?\s(?:to|for)\s{1,3}"
    r"(?:execute|executing|implement|implementing|carry out|carrying out|run|running|work through)\s{1,3}"
    r"(?:this|the|our|your)\s{1,3}(?:\d{1,3}-task\s{1,3})?(?:plan|tasks)\b"
    r"|\b(?:execute|implement|carry out)\s{1,3}(?:this|the)\s{1,3}plan\s{1,3}(?:with|using|via|through)\s"
    r"|(?:計画|プラン)を[^。\n]{1,40}?で(?:実行|進め)|用[^。\n]{1,40}?(?:执行|实施)(?:这个|该)?计划"
    r"|계획을 [^.\n]{1,40}?(?:으로|로) (?:실행|진행)"
    r"|\b(?:executar|executarei|executaremos|ejecutar|ejecutaré|ejecutaremos|exécuter|exécuterai) (?:o|el|le) (?:plano"
    r"|plan) (?:com|con|avec|usando|via)\s|\bden Plan mit\s", re.I)
"""A plan's method chosen ("I'm using Subagent-Driven Development to execute this plan", "we'll carry out the plan
with parallel agents", "計画をサブエージェントで実行します"): how the work is run is settled, with no other reason
needed; using a tool, or "it", to carry out a step is narration."""
_REASONED = re.compile(r"\b(?:because|since|so that|instead of|rather than)\b|,\s{0,2}as\s", re.I)
"""The agent's own choice said as its next move ("I'll go with SQLite because the data fits on one machine", "Let's
stick with the retry helper rather than adding tenacity"): a decision when it gives the reason or the way it
passed over; without them ("I'll use grep to find the callers") it is a step, and the narration filter holds, as it
does for going on ("I'll keep looking since the log is long"). The course may be under way or taken ("I'm keeping the
old parser, since three callers rely on it", "I've switched the tests to the real database instead of mocks"), or said
with the verb alone ("Using SQLite instead of Redis since the data is small", "Switching to pnpm because …"); not
about "it" or "this" ("Keeping it is the whole point, because …" says why a thing matters, no way taken)."""
_DECLINED_WAY = re.compile(
    r"^\W{0,3}not\s[^,.;:!?]{3,80},\s{0,2}(?:because|since|as)\s"
    r"|\b(?:we|I)\s{1,3}(?:won'?t|will not|shouldn'?t|should not|(?:decided|chose) against|ruled out|(?:'ll|will) avoid)"
    r"\s[^.!?]{3,160}?\b(?:because|since|as)\s", re.I)
"""A way rejected with its reason ("Not a global lock, because two workers may hold different repositories", "We
won't add a queue since the jobs finish in a second"): the decision is what is not done, and why."""
_PREFERS = re.compile(r"\b(?:instead of|rather than|(?:we|I)(?:'ll| will) keep)\b", re.I)
"""A choice between two ways, or to keep one ("rather than patch each caller, we'll wrap the client"): a decision when
the agent says it takes that course (:data:`OWN_COURSE`), not when it describes what code does instead of what."""
OWN_COURSE = re.compile(r"\b(?:(?:I|we)(?:'ll| will| need to| should| must|'m going to| am going to|'re going to)"
                         r"|let me|let's|decision)\b", re.I)
"""Words of the agent about the course it takes: "the test expects 1 instead of 0" or "I see, it uses X rather than
Y" describe, they take no course."""
NARRATION = re.compile(r"^(?:let me|let's|now|next|first|then|ok|okay|i'll|i will|good|great)\b", re.I)
"""Words that open a sentence narrating the agent's next move, not a choice."""
_INTERJECTION = re.compile(r"^\W{0,3}(?:(?:actually|hmm+|wait|oh|ah|well|alright|right|so|ok(?:ay)?)\b\W{0,3}\s{0,3}){1,3}",
                           re.I)
"""What the agent says before its next words when it thinks aloud ("Actually, let me …", "Hmm, wait — …"): read
past, the sentence's own opening tells whether it narrates."""
TENTATIVE_WORDS = re.compile(rf"{any_language(TENTATIVE)}|\b(?:I|we)\s{{1,3}}(?:could|might)\b", re.I)
"""The agent thinking aloud (:data:`.languages.TENTATIVE`: "maybe", "I think", "I'm arguing that", "talvez",
"かもしれません"), or weighing a way it could take: a guess or an argument, no choice settled."""
_MID_THOUGHT = re.compile(r"^\W{0,3}(?:but|and|or|yet|which|though|although|plus)\b", re.I)
"""A sentence opening on a conjunction goes on from the one before it ("But the fix is to do that in x.go too"): cut
from what it answers, it reads as a fragment, not as the choice; unless it says the agent's course with its reason
("But I'll keep the parser in x.go, since …")."""


def table_row(text: str) -> bool:
    """A Markdown table's row (``| Lake Score | 6/6 — decided |``), after a label ("Agreed with the user: | … |"):
    a cell of a report or a scorecard, no choice said in a sentence."""
    row = text.split(": ", 1)[1] if re.match(r"[A-Z][\w ]{0,40}: \|", text) else text
    return row.lstrip().startswith("|") and row.count("|") >= 2


def _with_previous(text: str) -> Iterator[tuple[str, str]]:
    """Each sentence of ``text`` with the one before it on the same line ("" for a line's first)."""
    for line in text.splitlines():
        before = ""
        for sentence in sentences(line):
            yield sentence, before
            before = sentence


_FIX_BY = re.compile(
    r"^\W{0,3}(?:let me|let's|I'll|I will|we'll|now|I'm going to)\s{1,3}(?:fix|resolve|address|silence|satisfy)"
    r"\s{1,3}(?:(?:it|this|that|them|these|those|the\s{1,3}(?:warnings?|errors?|issues?|findings?|complaints?))\s{1,3})?"
    r"(by\s{1,3}\w{2,30}ing\b[^!?\n]{0,120})$", re.I)
"""A fix announced by its way alone, often ending on the colon before the code ("Let me fix by prefixing with `_`:",
"I'll fix them by adding type hints."): what it fixes is the sentence before."""
_COMPLAINT = re.compile(r"\b(?:complain\w{0,4}|warn\w{0,4}|flag\w{0,4}|report\w{0,3}|fail\w{0,4}|errors?"
                        r"|violat\w{0,5}|too complex|unused|missing)\b", re.I)
"""The sentence before names the failure the fix answers ("Pylint is complaining about unused arguments.")."""


def _fixes_said_after(text: str) -> list[str]:
    """The fixes announced by their way alone, each with the failure said just before it."""
    found = []
    for sentence, before in _with_previous(text[:20_000]):
        if fix_method(sentence) and not sentence.rstrip().endswith(":"):
            continue  # kept whole by decisions_in's own reading
        fix = _FIX_BY.match(sentence.rstrip(" :."))  # (the colon before the code it shows)
        if fix and before and _COMPLAINT.search(before) and len(before) <= 200 and not before.endswith("?"):
            found.append(clip_words(f"{before.rstrip('.:')} — fixed {fix.group(1)}", 240))
    return found


def decisions_in(text: str) -> list[str]:
    """The sentences of ``text`` (the agent's words) that report a choice, each cut to 240 characters."""
    return list(_decisions_in(text))


@functools.lru_cache(maxsize=256)
def _decisions_in(text: str) -> tuple[str, ...]:
    """:func:`decisions_in`, kept for the last texts read: a region's state reads each message's choices twice (its
    turns, and the changes of approach)."""
    found = []
    for sentence, before in _with_previous(text[:20_000]):
        sentence = re.sub(r"^(?:[-*+•]\s+|\d+[.)]\s+)", "", sentence).strip()
        abroad = not _WEIGHED.match(sentence) and (  # a course weighed under "if" is no choice, in any language
            bool(_COURSE_ABROAD.search(sentence) and _WHY_ABROAD.search(sentence)) or _DECIDED_ABROAD.search(sentence))
        opening = _INTERJECTION.sub("", sentence, count=1)  # "Actually, I'll keep …" opens on "I'll keep"
        course = bool((_CHOSEN_COURSE.match(opening) and _REASONED.search(sentence))  # a move said with its reason
                      or (abroad and _COURSE_ABROAD.search(sentence)) or states_design(opening)
                      or _PLAN_METHOD.search(opening) or settled_how(opening))
        chosen = (course or _DECLINED_WAY.search(sentence) or _DECISION.search(sentence) or abroad or settles(opening)
                  or (_PREFERS.search(sentence) and OWN_COURSE.search(sentence)))
        if (_SHORTEST <= wide_length(sentence) and len(sentence) <= 400 and chosen
                and (course or not NARRATION.match(opening))
                and not TENTATIVE_WORDS.search(sentence)
                and (course or not _MID_THOUGHT.match(sentence)) and not opens_steps(opening)  # "But the parsing needs to be in x.go": the rest of a thought
                and not sentence.startswith(("#", ">"))  # a heading names a part of the answer; a quote is another's
                and not table_row(sentence)  # a table's row is a cell of a report ("| Lake Score | 6/6 |")
                and not sentence.endswith((":", "?", "：", "？"))
                and (fix_method(opening) or not re.search(r"\b(?:didn'?t|failed|error)\b", sentence))):
            if settled_how(opening) and names_nothing(sentence) and before and not names_nothing(before) \
                    and len(before) <= 200:  # "Keeping the PNG for Phase 1" …
                sentence = f"{before} {sentence}"  # …what it keeps is named in the sentence before
            found.append(clip_words(sentence, 240))
    found += [declined for declined in unneeded_ways(text) if declined not in found]  # a way judged not needed
    found += [changed for changed in changed_on_finding(text) if changed not in found]  # for what was just found
    found += [rule for rule in agent_rules(text) if rule not in found]  # a check's rule, the user's wish restated
    found += [fix for fix in _fixes_said_after(text) if fix not in found]
    return (*found, *(clip_words(listed, 240) for listed in listed_designs(text) if not TENTATIVE_WORDS.search(listed)))
