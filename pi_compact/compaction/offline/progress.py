"""A finished request as the state it produced, not as a clipped request and answer.

"Finished “These environment variables are required…” → Perfect! I have successfully completed…" tells the next
agent nothing of what now exists. A Done item says what the turn left: the sentences of the agent's report that
state a result (what was created, moved, fixed, what passes now), the checks whose output says they passed
(``12 passed``), and the files it changed; the request only names which one it was, in a few words.

A report is often laid out: a heading or a bold label names a part ("### ✅ Successfully Created", "**1. Fixed JSON
parsing**") and the line under it says what was done; a table lists what changed, one row a change. A title read alone
is a label, not a result ("Successfully Created"); read with the line under it, it is one ("Fixed JSON parsing: the
new `parse_line()` skips non-JSON lines"). A table's rows are its results; its header row is none.
"""

from __future__ import annotations

import re

from .clause import request_clause
from .decided import TENTATIVE_WORDS
from .languages import DONE_LEAD, NOT_YET, RESULT, any_language, wide_length
from .state import ASKED, DONE, RAN_SCRIPT, RegionState, Turn, clip_words, sentences
from .referent import introduced_command, refers_back
from .short_paths import short_names
from .statuses import REACHED, STATUS_LABEL, status_item
from .trackers import states_closing

_RESULT = re.compile(
    r"\b(?:now|created|added|moved|renamed|removed|deleted|fixed|replaced|updated|changed|implemented|extracted"
    r"|split|wrote|written|ported|converted|refactored|made|introduced|switched|became|is (?:now )?standalone"
    r"|pass(?:es|ed|ing)?|works now|now works|returns|succeeds?|no longer|in place|set up|configured|committed"
    r"|I (?:increased|raised|bumped|lowered|reduced|decreased|capped|disabled|enabled|reverted|restored)"
    r"|the (?:root )?(?:cause|issue|problem|bug) was)\b",
    re.I,
)
"""A sentence that states a result: what changed (a limit the agent raised), or what the cause was."""
_RESULT_ABROAD = re.compile(any_language(RESULT, english=False), re.I)
"""The same, in the languages agents answer their users in (:data:`.languages.RESULT`): the past participles, first
person pasts and "now" of a result (Portuguese, Spanish, French, German), the nouns of one in Japanese, Korean and
Chinese ("全テスト通過", "구현 완료", "修复了")."""
_NOT_YET = re.compile(any_language(NOT_YET, english=False), re.I)
"""Words that deny the result those words name ("Ainda não adicionei a rota", "まだ実装していません")."""
_BEHAVIOUR = re.compile(r"\b(?:returns|pass(?:es|ing)?|succeeds?)\b", re.I)
"""Words of :data:`_RESULT` that also describe how code behaves ("returns `None` when …", "passes through"): a
result only in a turn that changed, ran or committed something; in one that did none, they describe a design,
a property to prove, a proposal."""
_FILLER = re.compile(
    r"^\W*(?:perfect|great|excellent|awesome|done|all done|ok(?:ay)?|good|nice|sure|alright)\W*$"
    r"|\b(?:successfully completed|completed (?:the|all|your) (?:task|request|changes)|let me know|feel free"
    r"|hope (?:this|that) helps|anything else)\b",
    re.I,
)
"""Words that say nothing of what exists: cheers, offers, "I have successfully completed the task"."""
_LEAD = re.compile(rf"^\W*(?:(?:{'|'.join(DONE_LEAD.values())})\s?[!.,:]\s*)+", re.I)
"""A cheer before a report, in any language (:data:`.languages.DONE_LEAD`: "Perfect!", "Pronto!", "C'est fait :")."""
_SALIENT = re.compile(r"`[^`\n]{1,200}`|\w/\w|\w\.[a-z]{1,5}\b|\w_\w|[a-z][A-Z]|\d")
"""Marks of a named thing (a backticked value, a path, a file, snake or camel case, a number): counted, not read."""
_MARKER = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+|^#+\s*")
_TITLE = re.compile(r"^\s*(?:#{1,6}\s+(?P<heading>\S.*)|(?:[-*+]\s+)?\*\*(?P<label>[^*\n]+)\*\*:?(?P<rest>\s*\([^()\n]*\))?\s*:?)$")
"""A line that names a part of a report: a markdown heading, or a bold label alone on its line (with at most a
parenthesis after it: ``**1. New class** (`src/lib/queue.ts`, 259 lines)``)."""
_DECOR = re.compile(r"^[\W_]*?(?:\d+[.)]\s+)?(?=\w|`)")
"""What opens a title before its words: marks, emoji, a number (``✅ ``, ``1. ``). Substituted once (``count=1``): after
its empty match at a title that opens on a backtick, ``re.sub`` would take the backtick as a second, non-empty match."""
_INFORMATION = re.compile(r"^\W{0,3}(?:(?:ok(?:ay)?|so|and|but|hmm+|well|also)\W{1,3})?(?:what|which|why|how|where|when"
                          r"|who|whose|is|are|was|were|does|do|did|has|have)\b", re.I)
"""How a question for information opens (after a filler): an interrogative, or the verb of a yes/no question."""
_ANNOUNCEMENT = re.compile(r"^\W{0,3}(?:(?:now|next|so|ok(?:ay)?|first|actually|hmm+|wait|well|alright|right)\W{0,2}\s)?(?:let me|let's|i'll|i will"
                           r"|i'm going to|i am going to|we'll|we will|starting|beginning|proceeding|moving on)\b", re.I)
"""A sentence that announces what the agent does next ("Let me first show you what I just added, …"): no result,
whatever result words it uses."""
_FIRST_PERSON = re.compile(r"^\W{0,3}(?:(?:now|ok(?:ay)?|so|alright|right|great|perfect|good|excellent|awesome|nice)"
                           r"\W{0,2}\s{1,3}){0,3}(?:i|we|i'(?:ve|m|d)|we'(?:ve|re|d)|let me|let's)\b", re.I)
"""A clause with the agent as its subject ("Now I have the full picture", "I see", "We're in good shape")."""
_SAYS_HOW = re.compile(r"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't)\b", re.I)
"""A clause that says how a thing is ("… and the codebase is now clean") states a result, whoever speaks."""
_CLAUSE_BREAK = re.compile(r"\s[—–-]{1,2}\s|[:;,.!]\s")
_NARRATION_MOST = 80
"""A clause of the agent's narration is short: a longer one says what it did at length."""
_ANNOUNCED_AFTER = re.compile(r"(?:\s[—–-]{1,2}\s|[;,.!]\s)(?:(?:now|next|then|so|and)\W{0,2}\s{1,3})?(?:let me|let's|i'll"
                              r"|i will|i'm going to|i am going to)\b", re.I)
"""Where a result sentence goes on to announce the agent's next move ("The parser is fixed — let me verify it")."""


_PROPOSED = re.compile(
    r"\b(?:we|I|you)\s{1,3}(?:could|might|would)\b|\bpropos(?:ed|e|al)\b|\b(?:I|we)\s{1,3}(?:suggest|recommend)\b"
    r"|\boption\s{0,3}(?:\d{1,2}|[A-E])?\s{0,3}[:)]|\b(?:would you like|do you want|shall I|should I)\b", re.I)
"""A sentence that offers, proposes or lists an option ("**Fixed `/v0` surface**: we could freeze …", "**Updated
schema** (proposed): …", "Option 2: …"): a result word in it ("Fixed", "Updated") names what would be, not what is."""
_PROPOSAL_HEAD = re.compile(
    r"\b(?:options?|propos\w{0,4}|suggest\w{0,5}|recommend\w{0,6}|ideas?|alternatives?|next steps?|plan|todo"
    r"|remaining|follow-?ups?|could|would|choices?|approach(?:es)?|possible|possibilities|open questions?)\b", re.I)
"""A heading, or a line introducing a list (ending on a colon), that names options, a proposal or a plan ("## Proposed
changes", "### Options", "Here are some options:", "I could:"): the items under it are what might be done."""


_LABEL = re.compile(r"\*\*[^*\n]{1,200}\*\*|__[^_\n]{1,200}__")


def _said_outside_label(line: str) -> bool:
    """A list item says a result outside its bold label ("**wfc-init**: Removed 2 phantom references"), not only in
    it as the name of an option ("**Added safety net** — a retry wrapper")."""
    rest = _LABEL.sub(" ", line)
    return bool(_RESULT.search(rest) or _RESULT_ABROAD.search(rest))


def _proposing_intro(line: str) -> bool:
    """A line of prose that introduces a list of what might be done ("Here are some options:", "We could:")."""
    return line.rstrip("*_ ").endswith((":", "：")) and bool(_PROPOSAL_HEAD.search(line) or _PROPOSED.search(line))


def _narration(clause: str) -> bool:
    """A clause of the agent's process talk that states no result: it has the agent as its subject and names no
    thing (:data:`_SALIENT`) and no result verb ("Now I have the full picture", "I see what's happening", "Let me
    verify"). Told by its form, a first person without a result, so "I fixed `parse()`" stays."""
    return (len(clause) <= _NARRATION_MOST and _FIRST_PERSON.match(clause) is not None
            and not _SALIENT.search(clause) and not _SAYS_HOW.search(clause)
            and all(found.group().lower() == "now" for found in _RESULT.finditer(clause)))


def without_narration(sentence: str) -> str:
    """``sentence`` without the agent's narration around its result: opening clauses of process talk
    (:func:`_narration`: "Now I have the full picture — …", "Great, now I see it: …") and a closing announcement of
    what it does next ("… — let me verify"). ``""`` when nothing but narration is left."""
    cut = _ANNOUNCED_AFTER.search(sentence)
    sentence = sentence[: cut.start()].rstrip() if cut else sentence
    while True:
        subject = _FIRST_PERSON.match(sentence)
        brk = _CLAUSE_BREAK.search(sentence, subject.end()) if subject else None
        head = sentence[: brk.start()] if brk else sentence
        if not _narration(head):
            return sentence
        if not brk:
            return ""
        rest = sentence[brk.end():].strip()
        sentence = rest[:1].upper() + rest[1:]


_UNDOES = re.compile(
    r"\b(?:undo|revert|roll ?back|back out|(?:put|roll) (?:it|that|them|everything) back)"
    r"(?: (?:all|everything|it|that|this|those|these|them|the|your|my|last|previous|recent|changes?|edits?|commits?"
    r"|work)){0,4}(?:\s{0,3}[.!,;:)]|\s{1,3}please\b|\s{0,3}$)",
    re.I | re.M,
)
"""A request that takes back the work just done ("nonono, please undo that", "revert those changes!", "roll it
back"): the reversal verb with nothing after it but the work it points back to. "Revert the migration of 2024" names
work of its own."""
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$")
_REPORT = 2
"""Result sentences kept per finished request."""
_FILES = 4


def _title(line: str) -> str | None:
    """The words of a title line (:data:`_TITLE`), without marks, emoji and numbering; ``None`` for other lines."""
    match = _TITLE.match(line)
    if match is None:
        return None
    words = match.group("heading") or f"{match.group('label')}{match.group('rest') or ''}"
    return _DECOR.sub("", words.replace("**", ""), count=1).strip().rstrip(":").strip()


def _table_rows(lines: list[str]) -> list[str]:
    """The body rows of the markdown tables in ``lines``, each as its cells joined (``#1 parser: replaced …``); the
    header row, above the rule line (``|---|---|``), names columns only."""
    rows, in_body = [], False
    for line in (line.strip() for line in lines):
        if not line.startswith("|"):
            in_body = False
        elif _TABLE_RULE.match(line):
            in_body = True
        elif in_body:
            cells = [cell.strip().replace("**", "") for cell in line.strip("|").split("|")]
            rows.append(": ".join(cell for cell in cells if cell))
    return rows


def _candidates(answer: str, acted: bool = True) -> list[str]:
    """The sentences of ``answer`` that could state a result (:func:`_parts`)."""
    return _parts(answer, acted)[0]


def _parts(answer: str, acted: bool = True) -> tuple[list[str], list[str]]:
    """The sentences of ``answer`` that could state a result, and the lines it lists as findings.

    The first: its prose, each title read with the line under it, and (when the turn ``acted``) the body rows of its
    tables; code and bare titles left out. A table in the answer of a turn that did nothing compares or describes
    (harnesses and what each proves), it lists no change; nor does an item of its list that says a result only in
    its bold label, when the answer ends on a question (the options it asks the user to pick from: "**Added safety
    net** — a retry wrapper. Which one?"). Under a heading, or after a line, that names options or a plan
    (:data:`_PROPOSAL_HEAD`) nothing was done. The second: the lines under a heading, a bold title or a line that
    names findings (:data:`_FINDINGS_HEAD`: "### Critical Issues Discovered", "**Remaining concerns:**"), up to a
    heading of the same rank or prose that is no item of the list: what the agent (or its reviewer) found, still to
    fix or fixed later, not what the turn did."""
    lines = answer.splitlines()
    found, findings, title, fenced = [], [], "", False
    section = listing = False  # under a heading, or in a list after a line, that names what might be done
    finding_rank = 0  # the rank of the heading over a section of findings (0: in none)
    finding_list = False  # in the list under a bold title or a line that names findings
    finding_parts = False  # a section of findings parted by lower headings: they name its findings
    offering = not acted and answer.rstrip().rstrip("*_ )").endswith(("?", "？"))  # a list, then "Which one?"
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            continue
        if fenced or not stripped or stripped.startswith("|") or not re.search(r"\w", stripped):
            continue  # (a rule line, "---", is no sentence and leaves the title before it open)
        if stripped.startswith("#"):
            section, listing, finding_list = bool(_PROPOSAL_HEAD.search(stripped)), False, False
            rank = len(stripped) - len(stripped.lstrip("#"))
            if _names_findings(stripped):
                finding_rank, finding_parts = min(finding_rank or rank, rank), False
                continue
            if rank <= finding_rank:
                finding_rank = 0
            elif finding_rank:
                finding_parts = True
        elif not _MARKER.match(line) and _title(line) is None:
            listing = _proposing_intro(stripped)  # prose: a list of options starts after it, or none does
            finding_list = stripped.rstrip("*_ ").endswith((":", "：")) and _names_findings(stripped)
            if finding_list:
                continue
        elif _title(line) is not None and not _MARKER.match(line):
            finding_list = _names_findings(line)  # "**Remaining issues:**" alone on its line
            if finding_list:
                continue
        if finding_rank or finding_list:
            if len(line) - len(line.lstrip()) < 2 and (not finding_parts or stripped.startswith("#")):
                # a finding, not a line under one (its detail)
                findings.append(" ".join(_MARKER.sub("", line.replace("**", "")).split()))
            continue
        if section or (listing and (_MARKER.match(line) or _title(line) is not None)):
            continue
        if offering and (_title(line) is not None or (_MARKER.match(line) and not _said_outside_label(line))):
            continue  # "- **Fixed `/v0` surface** — freeze the routes", then "Which one?": a result word as a name
        named = _title(line)
        if named is not None:
            title = named
            continue
        for at, sentence in enumerate(sentences(_MARKER.sub("", line))):
            if not _ANNOUNCEMENT.match(sentence):
                found.append(f"{title}: {sentence}" if title and at == 0 else sentence)
        title = ""
    return found + (_table_rows(lines) if acted else []), findings


_FINDINGS_HEAD = re.compile(
    r"\b(?:findings?|issues|problems|bugs|gaps|risks?|concerns?|blockers?|caveats?|limitations?|weak(?:ness(?:es)?"
    r"|\s{1,3}(?:points|spots))|warnings|recommendations?|suggestions|vulnerabilit(?:y|ies)|(?:code\s{1,3})?smells"
    r"|nit(?:pick)?s|red\s{1,3}flags?|review\s{1,3}comments|(?:issue|bug|problem)s?\s{1,3}(?:found|discovered"
    r"|identified|spotted|noticed|detected))\b", re.I)
"""A heading, a bold title or a line introducing a list that names findings: what a review, an audit or the
agent's own look found ("## Key Findings", "### Critical Issues Discovered", "**Risks:**", "Remaining concerns:").
A singular "Problem" or "Root cause" heading names the one thing the turn went on to fix: its words stay results."""
_FIXED_HEAD = re.compile(r"\b(?:fix(?:ed|es)?|resolved?|addressed|solved|closed|handled|applied|done|remediat\w{0,5}"
                         r"|changes?|what (?:i|we) (?:did|changed))\b", re.I)
"""Words of a heading over what was done about findings ("### Issues Fixed", "## Fixes", "## Changes"): its items are
the turn's work."""


_FINDING_LABEL = re.compile(
    r"^\W{0,4}(?:P[0-4]|S[1-4]|sev(?:erity)?\s?[1-4]|critical|high|medium|low|major|minor|blocker|nit(?:pick)?|issue"
    r"|bug|finding|gap|risk|concern|warning|caveat|limitation|smell)(?:\s{0,2}#?\d{1,3})?\s{0,2}"
    r"(?:\([^()\n]{0,30}\)\s{0,2})?\**\s{0,2}[:—–]", re.I)
"""A sentence that opens on the label of a finding ("P1: missing nil check …", "Issue 2: …", "Bug — …", "Gap: …",
"**High** (security): …"). Not "Problem:": a report's "**Problem:** … **Fix:** …" says the one the turn fixed."""
_FINDING_AT = re.compile(r"^\W{0,3}`?[\w./-]{1,200}\.[A-Za-z]{1,6}:\d{1,6}(?:-\d{1,6})?`?\**\s{0,2}(?:[—–:]|\s-\s)")
"""A sentence that opens on a place in the code (``diff.go:512`` —): a reviewer's finding, located."""
_ADVISES = re.compile(
    r"\b(?:should(?!\s{1,3}(?:now\s{1,3})?(?:work|pass|be\s{1,3}(?:fixed|working|gone|resolved|fine)))|(?<!\bwe )could(?!"
    r"\s{1,3}not|n't)|consider(?:ing)?|investigate|worth\s{1,3}(?:checking|investigating|looking)|might\s{1,3}want"
    r"|needs?\s{1,3}to\s{1,3}be|must\s{1,3}be\s{1,3}(?:fixed|handled|addressed|changed)|recommend(?:ed)?)\b", re.I)
"""A sentence that advises what to do or look into ("… should use `git diff`", "consider caching …", "investigate
whether …"): a recommendation, no work."""
_DID = re.compile(r"\b(?:fixed|added|changed|replaced|removed|deleted|updated|resolved|addressed|implemented|wrapped"
                  r"|renamed|moved|rewrote|rewritten|switched|introduced|extracted|created|wrote|now|no longer)\b", re.I)
"""Words that say the finding was dealt with in the same sentence ("Bug: the parser dropped tabs — fixed by …")."""


_INSTRUCTS = re.compile(
    r"^\W{0,3}(?:(?:now|so|then|next|to\s{1,3}\w{1,20}(?:\s{1,3}\w{1,20}){0,3})\W{0,2}\s{1,3})?(?:try|retry|re-?run"
    r"|please|restart|reload|refresh|hard[- ]refresh|wait|go\s{1,3}to|navigate\s{1,3}to|visit|click|tap)\b", re.I)
"""A sentence that tells the user what to do ("Try opening the terminal now from …", "Now refresh the page …", "To
use the app now: Wait 30 seconds …"): the user's step, not the turn's work."""


_UNDONE = re.compile(r"(?:\b(?:not|never|yet)|n't)\s{1,3}(?:(?:been|being|be|yet|fully|properly|actually)\s{1,3}){0,2}$",
                     re.I)
"""What denies the work word after it ("is not updated", "hasn't been fixed", "never changed"): a problem, no work."""
_BOLD_LABEL = re.compile(r"^\W{0,4}(?:\d{1,3}[.)]\s{1,3})?\*\*([^*\n]{1,120})\*\*\s{0,2}(?:[—–:]|-\s)")
"""A sentence that opens on a bold label and a dash or colon ("**Cache invalidation** — …", "- **X**: …")."""
_REPORT_LABEL = re.compile(r"^\W{0,3}(?:the\s{1,3})?(?:(?:root\s{1,3})?causes?|problem|symptoms?|reasons?|why|before"
                           r"|diagnosis|context|background)\W{0,3}$", re.I)
"""A label over the problem the turn went on to fix ("**Problem:** … **Fix:** …"): the report of a fix, no finding."""
_TITLE_REST = re.compile(r"\W{0,3}(?:what|which|how|why|where|when|who)\b|\W{0,3}\S{1,40}(?:\s{1,3}\S{1,40})?\W{0,3}$",
                         re.I)
"""What follows a bold label that makes it a section's title, no finding: a question word ("**Checklist**: What needs
to be done") or two words at most."""
_PROBLEM = re.compile(
    r"\b(?:never|missing|broken|breaks|fail(?:s|ing)?|leak(?:s|ing)?|panic(?:s|king)?|crash(?:es|ing)?|hang(?:s|ing)?"
    r"|stale|wrong(?:ly)?|incorrect(?:ly)?|swallow(?:s|ed|ing)?|cannot|(?:does|do|did|is|are|was|were|has|have|can|will"
    r"|would)(?:\s{1,3}not|n't)|won't|might|may\s{1,3}be|likely|probably|possibly|perhaps|suspect(?:s|ed)?|unclear"
    r"|whether)\b", re.I)
"""Words that state a problem or a guess at one ("never refreshed", "doesn't close", "might be the cause")."""
_CONDITION = re.compile(r"\b(?:if|when|unless|until|once)\b[^,;:—–.()]{0,60}$", re.I)
_CLAUSE_START = re.compile(r"(?:^|[,;:—–.(])\s{0,3}$")


def _aside(text: str, found: re.Match) -> bool:
    """A problem word said in a condition ("if the function isn't found, it tells you …"), as an instruction ("don't
    block", "Don't calculate on amend") or in code ("IS NOT NULL"): how the code behaves or is to behave."""
    before = text[max(0, found.start() - 60):found.start()]
    word = found.group()
    return (bool(_CONDITION.search(before)) or word.isupper()
            or (word.lower() in ("don't", "do not") and bool(_CLAUSE_START.search(before))))


def _did(text: str, end: int | None = None) -> bool:
    """Work said in ``text`` (before ``end``): a word of :data:`_DID` that nothing denies (:data:`_UNDONE`)."""
    return any(not _UNDONE.search(text, max(0, found.start() - 40), found.start())
               for found in _DID.finditer(text, 0, len(text) if end is None else end))


def _labelled_finding(sentence: str) -> bool:
    """A finding under a bold label ("**Cache invalidation** — the TTL is never refreshed; investigate whether …",
    "- **Stale lock**: might be the cause, worth checking"): the label names a thing, not work done, and the words
    state a problem or a guess (:data:`_PROBLEM`) or advise (:data:`_ADVISES`) with no work done (:func:`_did`)."""
    labelled = _BOLD_LABEL.match(sentence)
    if labelled is None or _REPORT_LABEL.match(labelled.group(1)) or _TITLE_REST.match(sentence, labelled.end()):
        return False
    plain = sentence.replace("**", "")
    problem = any(not _aside(plain, found) for found in _PROBLEM.finditer(plain))
    return (problem or bool(_ADVISES.search(plain))) and not _did(plain)


def finding_said(sentence: str) -> bool:
    """True when ``sentence`` states a finding or a recommendation (:data:`_FINDING_LABEL`, :data:`_FINDING_AT`,
    :func:`_labelled_finding`, :data:`_ADVISES`) and no work done about it (:func:`_did`; for advice, before it: "…
    should use `git diff` to get changed files" advises): what is to fix, not what was done. A denied work word
    ("`config.yaml` is not updated when …") is the problem, not work."""
    sentence = sentence[:600]
    if _labelled_finding(sentence):
        return True
    plain = sentence.replace("**", "")
    if _FINDING_LABEL.match(plain) or _FINDING_AT.match(plain):
        return not _did(plain)
    advice = _ADVISES.search(plain)  # advice after the work it follows ("Fixed it; you should now …") is no finding
    return advice is not None and not _did(plain, advice.start())


_STILL_TO_DO = re.compile(r"\b(?:needed|required|remaining|pending|outstanding|to\s{1,3}(?:do|fix|address))\b", re.I)
"""Words of a heading over fixes still to make ("Critical Fixes Needed", "Remaining issues to address")."""


def _names_findings(line: str) -> bool:
    """True when ``line`` heads findings (:data:`_FINDINGS_HEAD`), not what was done about them (:data:`_FIXED_HEAD`),
    or heads fixes still to make (:data:`_STILL_TO_DO`)."""
    line = line[:200]
    if _FIXED_HEAD.search(line) and _STILL_TO_DO.search(line):
        return True
    return bool(_FINDINGS_HEAD.search(line)) and not _FIXED_HEAD.search(line)


_CHANGE_ROW = re.compile(r"`?([^`:\s]{1,300})`?: (?=.{0,300}?[^\W\d_]{2})")
"""A body row of a table of changes: a file first, then what was done to it in words (``src/jj/executor.rs:
`git_fetch_tracked()` 追加``, ``app.py: nova rota``)."""


def _changes_a_file(sentence: str, changed: frozenset[str]) -> bool:
    """A row that names a file the turn changed, then says in words what: a result in any language."""
    row = _CHANGE_ROW.match(sentence)
    return row is not None and row.group(1).rstrip("/").rsplit("/", 1)[-1] in changed


def _thinks_aloud(sentence: str) -> bool:
    """The agent thinking aloud (:data:`.decided.TENTATIVE_WORDS`: "I think the issue is …", "maybe …") or offering
    what it could do (:data:`_PROPOSED`), read whole before its narration is cut: nothing exists for it."""
    return bool(TENTATIVE_WORDS.search(sentence) or _PROPOSED.search(sentence))


_STEP_RESULT = re.compile(r"\b(?:(?:re)?deployed|published|released|migrated|pushed|merged)\b", re.I)
"""A step outside the code reported done ("Deployed v42 to https://…", "PR #87 merged"): a result, unless the
sentence waits on it or denies it ("It needs to be deployed", "not pushed yet": :data:`_WAITS`, :data:`_NEGATED`)."""


def _states_result(sentence: str, acted: bool, changed: frozenset[str] = frozenset()) -> bool:
    if _STEP_RESULT.search(sentence) and not _WAITS.search(sentence) and not _NEGATED.search(sentence):
        return True
    if acted:
        return (_RESULT.search(sentence) is not None or _changes_a_file(sentence, changed)
                or (_RESULT_ABROAD.search(sentence) is not None and not _CHANGE_ROW.match(sentence)  # a row: by its file
                    and not _NOT_YET.search(sentence)))
    return any(not _BEHAVIOUR.fullmatch(word.group()) for word in _RESULT.finditer(sentence))


def report(answer: str, acted: bool = True, changed: tuple[str, ...] = (), most: int = _REPORT,
           findings: bool = False) -> list[str]:
    """The sentences (or list items, or table rows) of the agent's answer that state a result, those naming files
    and values first, cheers and offers left out. When the turn did nothing (``acted`` false: no file changed, no
    check run, no commit), words that describe behaviour (:data:`_BEHAVIOUR`) state no result. A row of a table
    of changes that names one of the ``changed`` files says what changed in it, in whatever language. A finding or a
    piece of advice (:func:`finding_said`) is no result: with ``findings``, those that would have read as one are
    what is returned."""
    found = []
    names = frozenset(path.rstrip("/").rsplit("/", 1)[-1] for path in changed)
    for sentence in _candidates(answer, acted):
        if _thinks_aloud(sentence) or finding_said(sentence) is not findings or _INSTRUCTS.match(sentence):
            continue
        sentence = without_narration(_LEAD.sub("", sentence).strip())
        if wide_length(sentence) >= 12 and _states_result(sentence, acted, names) and not _FILLER.search(sentence) \
                and not _asks_or_introduces(sentence):
            found.append(sentence)
    found.sort(key=lambda s: -min(len(_SALIENT.findall(s)), 3))  # stable: equals keep the agent's order
    # a status table states what exists, by its names, whatever the turn did
    status = "" if findings else status_item(answer)
    return ([status] if status else []) + found[:most - bool(status)]


def _asks(sentence: str) -> bool:
    """A question, in any script's mark ("…進めますか？"), bold or not ("**Shall I go on?**")."""
    return sentence.rstrip("*_ ").endswith(("?", "？"))


def _asks_or_introduces(sentence: str) -> bool:
    """A question, or a line that introduces what follows it ("**Local branches (2):**", "以下のとおり："): no result."""
    return _asks(sentence) or sentence.rstrip("*_ ").endswith((":", "："))


def left_something(turn: Turn) -> bool:
    """A finished turn is progress when it committed, changed files, passed a check or reported a result; an
    answer alone ("Your code is 469320", "Try uploading now") is conversation, kept as history."""
    if _acted(turn) or status_item(turn.final_answer):
        return True  # a table of states the agent checked (PRs merged, features done) is done work, asked or not
    # the answer to a question is conversation, whatever its verbs: "what does X return?" is answered in results'
    # words ("it now calls …", "proofs 2-4 verify the extracted helpers") without anything done
    return not _asks_to_know(turn.request) and bool(report(turn.final_answer, acted=False))


def _asks_to_know(request: str) -> bool:
    """True for a request that asks what is ("what does X return?", "do we support Y?"), not for one asking in a
    question's form for work ("can you stage the type changes?", "could we use the typed ID?")."""
    request = request.strip()
    return request.endswith(("?", "？")) and _INFORMATION.match(request) is not None


_REHEARSAL = re.compile(r"--dry-run\b|\bgit\s{1,3}stash\b")
"""A command that only rehearses a step (``--dry-run``) or names one in passing (``git stash push``); not ``-n``,
which is kubectl's namespace."""


_OPTION = re.compile(r"(?<!\S)--?[A-Za-z][\w-]{0,40}")
"""A command's option: ``cargo build --release`` builds an optimised binary, it releases nothing."""


def _steps_of(turn: Turn) -> tuple[str, ...]:
    """The turn's commands that did a step outside the code (:data:`_STEPS`, named by the command's words, not its
    options) and succeeded, rehearsals left out."""
    return tuple(command for command in turn.ran if _command_kinds(command)
                 and not _REHEARSAL.search(command[:500]))


def _acted(turn: Turn) -> bool:
    """The turn committed, changed files, passed a check, or ran a step outside the code that succeeded (a deploy,
    a release, a migration, a push)."""
    return bool(turn.commits or turn.changed or turn.checks or _steps_of(turn))


def undoes(request: str) -> bool:
    """True when ``request`` takes back the turn before it (:data:`_UNDOES`): that turn's work is no longer done."""
    return len(request) <= 400 and _UNDOES.search(request) is not None


def undone_item(turn: Turn, undo: Turn) -> str:
    """A Done item for a turn the user had taken back: what exists now is its work undone, or being undone."""
    asked = clip_words(next(iter(sentences(turn.request)), turn.request), 100)
    how = "undone" if undo.status == DONE else "to be undone (under way)"
    return f"“{asked}” was {how} at the user's request: “{clip_words(' '.join(undo.request.split()), 100)}”"


def closed_items(state: RegionState, said: list[str] | tuple[str, ...] = ()) -> list[str]:
    """One Done item per tracker item the region's commands closed (``bd close proj-7.1 --reason …``, ``gh issue
    close 12``), with the reason the agent gave: a closed sub-task is done work, whatever the request's state. An item
    whose closing another Done item of ``said`` already reports (``✅ PR #5 successfully merged!``, in the agent's
    words, often with more) is not said twice; a label that says how it was closed (``PR #5 merged``) stands alone."""
    closed = state.tasks.closed if state.tasks else ()
    return [(task.text if states_closing(task.text) else f"Closed on the tracker: {clip_words(task.text, 200)}")
            + (f" — “{clip_words(task.reason, 200)}”" if task.reason else "") for task in closed
            if not _reported_closed(task.text, said)]


_ITEM_NAME = re.compile(r"^(?:[A-Za-z]{1,12} (#[0-9]{1,7})\b|`([^`\n]{1,60})`)")
"""The id a tracker item's label opens with: ``PR #5``, ``issue #12`` (by ``#5``), ```proj-7` Parse…``."""


def _reported_closed(label: str, said: list[str] | tuple[str, ...]) -> bool:
    """True when one of ``said`` names the item's id with a reached state (:data:`.statuses.REACHED`)."""
    found = _ITEM_NAME.match(label)
    name = (found.group(1) or found.group(2)) if found else ""
    if not name:
        return False
    named = re.compile(rf"(?<![\w#-]){re.escape(name)}(?![\w-])")
    return any(named.search(item[:1000]) and REACHED.search(item[:1000]) for item in said)


def asked_status_items(state: RegionState) -> list[str]:
    """The status tables of turns that ended on a question to the user ("| #33 | MERGED | … — Shall I open the PR?"):
    what the agent found exists is done work, though the request waits on the user's answer."""
    return [item for turn in state.turns if turn.status == ASKED and (item := status_item(turn.final_answer))]


_BARE_WORDS = frozenset("""all any every everything each both tests test suite suites spec specs check checks lint
    linter linting build builds typecheck pass passes passed passing green clean done works working work worked fixed
    complete completed finished success successful successfully good fine now yes yeah yep sure already again still
    the and are was were has have been this that its it's with without errors error issues warnings ok okay perfect
    great excellent awesome nice verified confirmed ready""".split())
_BARE_WORD = re.compile(r"[^\W\d_]{3,}")
_BARE_MAX = 1
"""A result naming at most this many words besides those of :data:`_BARE_WORDS` (and no file, value or number) says
nothing of what was done: "All tests pass.", "Done!", "✅ Works", "Yes, already fixed."."""
_WHAT_CHARS = 100


def bare(result: str) -> bool:
    """True when ``result`` only says that something succeeded, not what (see :data:`_BARE_MAX`)."""
    if _SALIENT.search(result.removeprefix("checks pass: ")) and not result.startswith("checks pass: "):
        return False
    words = [w for w in _BARE_WORD.findall(result.removeprefix("checks pass: ").lower()) if w not in _BARE_WORDS]
    return result.startswith("checks pass: ") or len(words) <= _BARE_MAX


_FILE_LIST_WORDS = frozenset("""modified changed updated edited touched created added wrote written saved files file
    changes change following these those them both also made""".split())
"""Words of a report that only lists files ("Updated `a.py` and `b.py`.", "Files changed: …"), with
:data:`_BARE_WORDS`: said around the paths, they name no result."""
_PATH_TOKEN = re.compile(r"[\w@~.-]{0,200}/[\w@~./-]{0,200}|[\w@~-][\w@~.-]{0,200}\.[A-Za-z][A-Za-z0-9]{0,5}")
_TOKEN_MARKS = "`*_,;:()[]'\"—–-.!"


def only_files(result: str) -> bool:
    """True when ``result`` names files and nothing else ("Updated `src/app.py` and `src/db.py`.", "Files changed:
    a.py, b.py"): what was changed, not what now exists or works (the Done section lists the files anyway)."""
    files = 0
    for token in result[:2000].split():
        bare_token = token.strip(_TOKEN_MARKS)
        if not bare_token or bare_token.lower() in _FILE_LIST_WORDS or bare_token.lower() in _BARE_WORDS:
            continue
        if not (_PATH_TOKEN.fullmatch(bare_token) and any(c.isalpha() for c in bare_token)):
            return False  # a word of what was done, or a count ("33/33 tests passing")
        files += 1
    return files > 0


def _files(turn: Turn) -> str:
    """The files the turn changed, each by its shortest ending that tells it from the turn's other files
    (:mod:`.short_paths`, as the summary's list of changed files names them; the ``<modified-files>`` list at its
    end names them whole): ``changed `keyfile.ts`, `services/index.ts`, `atoms/index.ts` and 2 more``."""
    names = short_names(list(turn.changed))
    return ", ".join(f"`{names[path]}`" for path in turn.changed[:_FILES]) + (
        f" and {len(turn.changed) - _FILES} more" if len(turn.changed) > _FILES else "")


_FINDING = re.compile(r"\balready\s{1,3}(?:fully\s{1,3})?(?:implemented|in place|present|supported|handled|exists?|has|have"
                      r"|had|does|did|works?|covers?|uses?)\b|\b(?:is|are|was|were)\s{1,3}(?:already\s{1,3})?fully\s{1,3}"
                      r"(?:implemented|in place)\b|\bno (?:code )?(?:changes?|work) (?:is |was |were )?(?:needed|required)\b",
                      re.I)
"""A sentence that reports what the agent found already there ("X — already fully implemented", "the infrastructure is
fully in place", "no changes needed"), not what the turn made."""


def done_items(turn: Turn) -> list[str]:
    """The Done items of a finished request, one per thing it did: each result sentence of the agent's report that
    names what was done its own item (never two glued into one), a result that only says it worked ("All tests
    pass.", a check's output) added to the first as its short result, and a turn whose every result is such said by
    what it did (its request, its files) with them. The first item names its request at its end."""
    found = [clip_words(sentence, 200) for sentence in report(turn.final_answer, _acted(turn), turn.changed)]
    said = " ".join(found).lower()
    checks = [check for check in turn.checks[-2:] if check.lower() not in said]  # "…; 3 passed." says it already
    scripts = [check for check in checks if check.startswith(RAN_SCRIPT)]  # "ran `scripts/e2e.sh`: 14 passed"
    found += scripts
    found += _steps_ran(turn, found)
    if len(scripts) < len(checks):
        found.append("checks pass: " + "; ".join(check for check in checks if check not in scripts))
    found = [part for part in found if not only_files(part)]  # a list of files says nothing the file list does not
    things = [part for part in found if not bare(part)]
    results = [part for part in found if bare(part)]
    asked = request_clause(turn.request, _WHAT_CHARS) or clip_words(turn.request, _WHAT_CHARS)
    findings = [part for part in things if _FINDING.search(part)]  # what was there before the turn: said last
    things = [part for part in things if part not in findings]
    if not things and turn.changed:  # the agent's words at its edits, or the parts its report names, say what
        things = [part for part in described_change(turn) if part not in findings]
    if findings and not things and turn.changed:  # what the turn produced comes first, then what it found
        things = [f"changed {_files(turn)}"]
    things += findings
    if not things:  # what it did: the files it changed, else the request (as a clause) it carried out
        if turn.changed:
            what = f"changed {_files(turn)}" + (f" — {_short(results)}" if results else "")
            return [f"{what} (asked: “{asked}”)"]
        if results and asked:
            return [f"“{asked}” — {_short(results)}"]
        first = next((s for s in sentences(turn.final_answer) if not _FILLER.search(s) and len(s) >= 12
                      and not _asks_or_introduces(s) and not _INSTRUCTS.match(s)), "")
        return [f"{clip_words(_LEAD.sub('', first), 200) if first else 'answered'} (asked: “{asked}”)"]
    first = things[0] + (f" — {_short(results)}" if results else "")
    if first.startswith(STATUS_LABEL) and asked:
        # a status table names its rows, the request what they are of (its ticket, its PR, its branch): the request
        # leads, so that no later trimming of quotes said elsewhere takes its names out of the item
        return [f"“{asked}” — {first}", *things[1:]]
    return [f"{first} (asked: “{asked}”)", *things[1:]]


_NOW_DOING = re.compile(r"^\W{0,3}(?:now|next|then|first),?\s{1,3}(?:let|update|add|fix|run|check|write|create|make"
                        r"|change|remove|implement|test|verify|build|look|read|move|rename|replace|edit|apply|commit"
                        r"|push|tag|publish|release|deploy|install|bump|merge|rebase|stage|format|lint|clean|split"
                        r"|refactor|wire|hook)\b", re.I)
""""Now update the test to match the new order:", "Now commit, push, tag, and publish": the agent's words before an
edit or a command, what it sets out to do."""
_FOLLOWING_CHARS = 120
"""What a sentence ending on a colon ("The design doc has been written to:") is completed with: the start of the line
after it."""
_DESCRIBING_TEXTS = 3
"""The agent's last texts of a turn read for what its edits did (earlier ones are its investigation)."""


def _with_following(sentence: str, text: str) -> str:
    """``sentence`` (of ``text``) that ends on a colon, completed by the first line of what it introduces (a path in
    a code block, the first item of a list); without the colon when it cannot be found."""
    at = text.find(sentence)
    if at < 0:
        return sentence.rstrip(":").rstrip()
    for line in text[at + len(sentence):].splitlines()[:6]:
        line = _MARKER.sub("", line.strip()).strip()
        if line and not line.startswith(("```", "|")) and re.search(r"\w", line):  # (a table's header names columns)
            return f"{sentence} {clip_words(line.replace('**', ''), _FOLLOWING_CHARS)}"
    return sentence.rstrip(":").rstrip()


def described_change(turn: Turn) -> list[str]:
    """What a turn that changed files did, when its last answer states no result ("Done!", "No response requested.",
    a report of headings and code): the result sentences of its other texts, newest first, a sentence that ends on
    a colon before the list it introduces read without it; else the titles its last answer gives the parts of what
    it made ("## New `entire list` Command"). ``[]`` when nothing says more than the files."""
    found: list[str] = []
    for text in list(reversed(turn.texts))[:_DESCRIBING_TEXTS]:
        for sentence in _candidates(text):
            if _thinks_aloud(sentence) or finding_said(sentence):
                continue
            sentence = without_narration(_LEAD.sub("", sentence).strip())
            if sentence.endswith(":"):
                sentence = _with_following(sentence, text)
                if finding_said(sentence.split(":", 1)[-1].strip()):
                    continue  # "This means: X should use …": the advice it introduces
            if len(sentence) >= 16 and _states_result(sentence, True) and not _FILLER.search(sentence) \
                    and not _asks(sentence) and not bare(sentence) and not _ANNOUNCEMENT.match(sentence) \
                    and not _NOW_DOING.match(sentence) and not only_files(sentence):
                found.append(clip_words(sentence, 200))
    if found:
        found.sort(key=lambda s: -min(len(_SALIENT.findall(s)), 3))  # stable: the newest of equals first
        return found[:_REPORT]
    titles = [title for title in (_title(line) for line in turn.final_answer.splitlines()[:60]) if title
              and _SALIENT.search(title) and not re.search(r"\b(?:summary|files?|changes?|tests?)\b", title, re.I)
              and not _names_findings(title)]
    return [f"Made: {', '.join(titles[:3])}"] if titles else []


_STEPS = {
    "deploy": r"(?:re)?deploy\w*|go(?:es)? live|ship(?:ped)? to prod\w*",
    "publish": r"publish\w*|releas(?:e|ed|ing)\b|npm version|cargo release|twine upload",
    "restart": r"restart\w*|reload\w*|reboot\w*",
    "migrate": r"migrat\w*|db push|alembic upgrade|schema push",
    "push": r"push(?:ed|ing|es)?\b",
}
"""The steps outside the code that finished work can wait on, by kind, with the words that name each."""
_STEP_WORDS = "|".join(_STEPS.values())
_STEP_VERB = r"(?:re)?deploy|publish|release|restart|reload|migrate|push"
_STEP_DONE = r"(?:re)?deployed|published|released|restarted|reloaded|migrated|pushed|live|applied"
_WAITS = re.compile(
    r"\b(?:needs?|requires?|need to|have to|must|(?:you(?:'ll| will)? )?(?:need|have) to|please|remember to"
    r"|don'?t forget to|be sure to)\s{1,3}(?:be\s{1,3}|a\s{1,3}|an\s{1,3}|to\s{1,3}|run\s{1,3}|the\s{1,3})?"
    r"(?:(?:" + _STEP_VERB + r"|" + _STEP_DONE + r"|migrations?)\b|`[^`\n]{0,60}?\b(?:" + _STEP_VERB + r"|migrat\w*)\b)"
    r"|\b(?:once|until|after|when) (?:you (?:" + _STEP_VERB + r")|(?:(?:it|this|that|they)(?:'s| is| are|'re| has been"
    r"| have been) )?(?:" + _STEP_DONE + r"))\b"
    r"|^\W{0,3}(?:(?:then|now|next|finally),?\s{1,3})?(?:run|restart|redeploy|deploy|publish)\b[^.!?\n]{0,60}?"
    r"\b(?:to apply|to take effect|to pick up|for (?:it|this|that|the changes?) to)"
    r"|\b(?:not (?:yet )?(?:" + _STEP_DONE + r"))\b"
    r"|\bready (?:to|for) (?:" + _STEP_VERB + r")\b|\b(?:i'll|i will|i can|we'll|we can)\s{1,3}(?:then\s{1,3})?(?:"
    + _STEP_VERB + r")\b[^.!?\n]{0,60}?\b(?:after|once|when|as soon as)\b"
    r"|\btakes? effect (?:after|once|when|only)|before (?:it|this|they|that) takes? effect"
    r"|\b(?:please|can you|could you) (?:verify|check|test|confirm|try)\b[^.!?\n]{0,60}?\b(?:in (?:the |your )?(?:browser"
    r"|device|phone|app|staging|prod\w*)|it works|works)\b",
    re.I)
"""A sentence saying the finished work waits on a step outside the code: a deploy, a release, a restart, a migration
to run, a push, the user's own check ("It needs `firebase deploy` before it takes effect.", "Please verify in the
browser once it's deployed.")."""
_ASKS_STEP = re.compile(r"\b(?:" + _STEP_VERB + r")\s{1,3}(?:it|this|that|them|the (?:fix|change|changes|app|site|server"
                        r"|function|functions|rules|release))\b|(?:\band|\bthen|&)\s{1,3}(?:" + _STEP_VERB + r")"
                        r"(?:\s{1,3}(?:it|up|them|everything|(?:it |them )?to \S{1,40}))?\s{0,3}(?:[.!,;]|$)", re.I)
"""A request that asks for such a step itself ("fix it, then deploy it and let me know", "commit it and push")."""
_CONFIRMS = re.compile(r"\b(?:deployed|published|released|restarted|migrated|pushed|verified|confirmed|it works"
                       r"|works now|now works|works fine|looks good|lgtm)\b", re.I)
"""The user saying the step happened (or that the result works)."""
_STEP_CHARS = 200


def _kinds(text: str) -> set[str]:
    return {kind for kind, words in _STEPS.items() if re.search(r"\b(?:" + words + r")", text, re.I)}


def pending_step(turns: tuple[Turn, ...], number: int) -> str:
    """The step outside the code that the finished work of ``turns[number]`` waits on, in the agent's words (or the
    user's, when the request asked for it and no command of the turn did it), when nothing later did it: no command
    after it of the same kind succeeded and the user did not say it happened. ``""`` otherwise."""
    turn = turns[number]
    said = next((s for s in sentences(turn.final_answer[-3000:]) if _WAITS.search(s)), "")
    asked = "" if said else next((s for s in sentences(turn.request[:2000]) if _ASKS_STEP.search(s)), "")
    if not (said or asked):
        return ""
    kinds = _kinds(said or asked)
    later = turns[number + 1 :]
    if kinds & _ran_kinds(tuple(c for t in turns[number:] for c in t.ran)):
        return ""  # a command of the turn, or one after it, did that step
    if any(_CONFIRMS.search(t.request[:1000]) for t in later):
        return ""
    if asked and kinds & _reported_kinds(turn.final_answer[-3000:]):
        return ""  # the user asked for the step and the agent's answer says it happened ("committed and pushed")
    words = clip_words(" ".join(_LEAD.sub("", _DECOR.sub("", said or asked, count=1)).split()).rstrip(":"), _STEP_CHARS)
    if not said:
        return f"the user asked: “{words}”"
    # "Once deployed, this should work": what "this" is, the command the sentence stands over names
    command = introduced_command(turn.final_answer[-3000:], said) if refers_back(said) else ""
    return f"{words} (the agent's command for it: `{command}`)" if command else words


_REPORTED = re.compile(r"\b(?:" + _STEP_DONE.replace("|live|applied", "") + r")\b", re.I)
_IN_SYNC = re.compile(r"\bup to date with [`'\"]?origin\b", re.I)
"""An answer's words that a step happened ("pushed", "deployed"); :data:`_IN_SYNC`: "Branch is up to date with
'origin/main'" (a push)."""
_NEGATED = re.compile(r"\b(?:not|never|no|nothing|yet)\b|n't\b", re.I)


def _reported_kinds(answer: str) -> set[str]:
    """The kinds of step the sentences of ``answer`` report done: a step word in the past (:data:`_REPORTED`) in a
    sentence that neither waits on a step (:data:`_WAITS`) nor is negated ("not pushed yet")."""
    found: set[str] = set()
    for sentence in sentences(answer):
        if _WAITS.search(sentence) or _NEGATED.search(sentence):
            continue
        if _REPORTED.search(sentence):
            found |= _kinds(sentence)
        if _IN_SYNC.search(sentence):
            found.add("push")
    return found


def step_kinds(step: str) -> frozenset[str]:
    """The kinds of outside step (:data:`_STEPS`: deploy, publish, restart, migrate, push) ``step`` names."""
    return frozenset(_kinds(step))


def _ran_kinds(commands: tuple[str, ...]) -> set[str]:
    return set().union(*(_command_kinds(command) for command in commands)) if commands else set()


def _command_kinds(command: str) -> set[str]:
    """The steps a command does, by its words, not its options (:data:`_OPTION`)."""
    return _kinds(_OPTION.sub(" ", command[:500]))


def _steps_ran(turn: Turn, found: list[str]) -> list[str]:
    """The steps outside the code the turn ran and the results ``found`` in its answer do not report (a migration, a
    deploy, a push whose command succeeded, the answer only "Done." or "Pushed."), by their last command: what now
    exists outside the files."""
    reported = _reported_kinds(" ".join(found))
    last: dict[frozenset[str], str] = {}
    for command in _steps_of(turn):
        kinds = frozenset(_command_kinds(command))
        if kinds and not kinds & reported:
            last.pop(kinds, None)
            last[kinds] = command
    return [f"ran `{clip_words(' '.join(command.split()), 120)}`" for command in list(last.values())[-2:]]


def _short(results: list[str]) -> str:
    """Results that only say it worked, as one short result."""
    return clip_words("; ".join(part.rstrip(".") for part in results), 120)


_BRIEF_CHARS = 130
"""An older finished request's result is said in one sentence this long at most."""
_BRIEF_ASKED = 40


def brief_done_item(turn: Turn) -> str:
    """An older finished request (beyond the ones said in full) in one item: the result sentence of the agent's
    report that names the most code (what now exists: "`start()` now only validates Docker …"), with a few words of
    its request. ``""`` when the report names no code: a result in bare words says little once the work moved on."""
    made = [without_narration(_LEAD.sub("", sentence).strip()) for sentence in _candidates(turn.final_answer)
            if _NEW_NAME.search(sentence)]  # "The new `_demux()` method separates …": what the turn made exist
    results = [sentence for sentence in made + report(turn.final_answer, _acted(turn), turn.changed,
                                                      len(turn.final_answer))
               if not only_files(sentence) and not _FINDING.search(sentence) and not _TELLS_USER.match(sentence)
               and not finding_said(sentence)]
    # the code it left, else a named value it reached ("coverage 47.3%"); the state before why it was broken
    found = [s for s in results if _CODE_NAME.search(s)] or [s for s in results if _SALIENT.search(s)]
    found.sort(key=lambda sentence: bool(_CAUSE.search(sentence)))
    if not found:
        return ""
    asked = request_clause(turn.request, _BRIEF_ASKED) or clip_words(turn.request, _BRIEF_ASKED)
    return f"{clip_words(found[0], _BRIEF_CHARS)} (asked: “{asked}”)"


_NEW_NAME = re.compile(r"^\W{0,6}(?:the |a )?new\s{1,3}(?:\w{1,20}\s{1,3})?`", re.I)
"""A sentence that opens on a new named thing ("The new `_demux()` method …"): what the turn made exist."""
_TELLS_USER = re.compile(r"^\W{0,3}(?:(?:now|so|then),?\s{1,3})?(?:try|retry|run|re-run|rerun|please|you (?:can|should"
                         r"|may|need)|restart|reload|open)\b", re.I)
"""A sentence that tells the user what to do ("Now try `git gc` again"): no state the turn left."""
_CAUSE = re.compile(r"\b(?:root cause|the (?:cause|issue|problem|bug) (?:was|is))\b", re.I)
"""A sentence that says why the code was broken: the reason, not the state the turn left."""
_CODE_NAME = re.compile(r"`[^`\n]{2,80}`")
"""A backticked name in a sentence: the code the result is about."""


OPEN_FINDINGS_LABEL = "Findings the agent reported that no later change took up (open, not done):"
_OPEN_FINDINGS = 6
_FINDING_CHARS = 140
_RECENT = 4
"""The latest finished requests whose Done items are said in full (:func:`done_items`): their findings are said."""
_FILE_NAME = re.compile(r"(?<![\w.-])[\w.-]{1,120}\.[A-Za-z][A-Za-z0-9]{0,5}\b")


def reported_findings(turn: Turn) -> list[str]:
    """What the turn's last answer reports as findings, in its order: the items under a heading or a line that
    names findings (:func:`_parts`) and the sentences that state one (:func:`finding_said`) where a result would
    be read (:func:`report`): advice said in passing is no finding to list. A finding under its bold label
    (:func:`_labelled_finding`) is listed whatever its words: its label says it is one."""
    candidates, listed = _parts(turn.final_answer, _acted(turn))
    labelled = [sentence.replace("**", "") for sentence in candidates if _labelled_finding(sentence)]
    said = report(turn.final_answer, _acted(turn), turn.changed, _OPEN_FINDINGS, findings=True)
    found: dict[str, str] = {}
    for text in listed + labelled + said:
        if len(text) >= 12:
            found.setdefault(text.replace("**", ""), clip_words(text, _FINDING_CHARS))
    return list(found.values())


def _file_names(text: str) -> set[str]:
    return {name.rsplit("/", 1)[-1].lower() for name in _FILE_NAME.findall(text[:1000])}


def open_findings(turns: tuple[Turn, ...]) -> str:
    """One item: the findings the latest finished requests' answers reported (:func:`reported_findings`) that no
    later change took up, so that they are read as open work, not as done. A finding that names files is taken up
    when a later request changed one of them; one that names none, when a later request changed any file. ``""``
    when none is left."""
    finished = [turn for turn in turns if turn.status == DONE and turn.request.strip() and left_something(turn)]
    recent = {id(turn) for turn in finished[-_RECENT:]}
    changed_later: set[str] = set()
    kept: list[str] = []
    for turn in reversed(turns):
        if id(turn) in recent:
            kept[:0] = [finding for finding in reported_findings(turn) if not (
                (_file_names(finding) & changed_later) if _file_names(finding) else changed_later)]
        changed_later |= {path.rsplit("/", 1)[-1].lower() for path in turn.changed}
    kept = list(dict.fromkeys(kept))[:_OPEN_FINDINGS]
    return f"{OPEN_FINDINGS_LABEL} " + "; ".join(finding.rstrip(".;") for finding in kept) if kept else ""


def done_item(turn: Turn) -> str:
    """The first of :func:`done_items` (what a turn's request left, and which request it was)."""
    return done_items(turn)[0]


__all__ = ["OPEN_FINDINGS_LABEL", "asked_status_items", "bare", "brief_done_item", "closed_items", "described_change", "done_item", "done_items", "finding_said", "left_something", "only_files", "open_findings",
           "pending_step", "report", "reported_findings", "step_kinds", "undoes", "undone_item", "without_narration"]
