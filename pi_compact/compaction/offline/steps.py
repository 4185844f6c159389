"""What a summary puts under In Progress and Next Steps: where the work stands when the region ends.

The next agent needs the step to take now, in order of how surely the transcript shows it: the question the agent
asked and waits on; the work it announced or was doing when it stopped ("Now let me …", with the words before it
that say what and why); the in-progress and pending items of its own task list; the steps its last answer names;
a plan file's unchecked items; the commands or edits that failed since the latest request. The user's latest
request is itself the step only when nothing more precise says how far it got. Never a request already answered,
never a failure of a lookup (a read, a search, a web fetch), never "Fix:" of what was settled later.
"""

from __future__ import annotations

import re

from .goal import go_ahead, only_asks, sets_work
from .languages import GO_ON, any_language
from .state import (ASKED, DECLINED, DONE, INTERRUPTED, OPEN, RegionState, Turn, clip_words, closing_question,
                    sentences)
from .plan_review import PlanUnderReview
from .checklist import holds_checklist, open_checklist
from .clause import request_clause
from .progress import pending_step, step_kinds, without_narration
from .proposed import proposal_step
from .prose_plan import plan_progress
from .redo import redo_step
from .reports import Report
from .subject import SUBJECT_LABEL, names_subject, subject_line
from .tasks import ACTIVE, PENDING, Task

ANNOUNCED = re.compile(
    r"^\W{0,3}(?:let me|let's|i'll|i will|i need to|i'm going to|now (?:let me|i(?:'ll| will| need to)?)"
    r"|next,? (?:let me|i(?:'ll| will)?)|first,? (?:let me|i(?:'ll| will)?))\s+(?!know\b|be (?:happy|glad)\b)\S",
    re.I)
"""The agent announcing what it does next ("Let me check if port 5001 is reachable there.")."""
_REPORTED = re.compile(r"\b(?:complete[ds]?|done|pass(?:es|ed|ing)?|fixed|green|succeeded|works)\b|✅|✓", re.I)
"""A sentence that reports a result, not what comes next."""
_NOW_STATE = re.compile(r"^\W{0,3}now,?\s+(?!(?:let|let's|i|i'll|i'm|we|we'll|to|for|on|what)\b)", re.I)
_STATE_VERB = re.compile(r"\b(?:has|have|is|are|contains|includes|holds|shows|lists|covers)\b", re.I)
"""A sentence opening on "now" that says what exists ("Now the plan has all three phases."): a result for Done."""
_CHATTER = re.compile(r"^\W{0,3}(?:ah+|oh+|hmm+|perfect|great|excellent|awesome|good|nice|ok(?:ay)?|alright|right"
                      r"|sure|got it|i see|you(?:'re| are) (?:right|absolutely right)[^.!?]{0,60})\W{0,3}$", re.I)
"""A sentence that says nothing of the work ("Perfect!", "Ah!", "You're right to question that."): no step."""
_STEP_CHARS = 300
_REQUEST_CHARS = 160
"""The latest request as In Progress names it (Critical Context quotes it whole)."""
_TASKS = 6
_PENDING = 2
_SERVED_CHARS = 160
"""The request a reply serves, quoted far enough to say what it asks (Critical Context quotes it whole)."""
_FIXES = 2
_LATEST_CHARS = 500
"""The latest request, when it is itself the next step: quoted far enough to hold what it asks (a question at the
end of a long message is the point of it)."""
_OPEN_LIST = re.compile(
    r"\b(?:to (?:investigate|look at|check|verify|decide|consider|do|fix|address)|open (?:questions?|issues?|items?"
    r"|points?)|not (?:yet )?(?:done|implemented|addressed|fixed|covered)|remaining|left (?:to do|open)|pending"
    r"|skipped|follow[- ]?ups?|outstanding|unresolved|still (?:open|to do|needed)|todo|next steps?)\b", re.I)
"""A line that introduces work still open ("**Possible causes to investigate**:", "Two deviations from the plan:")."""
_WORK_INTRO = re.compile(
    r"\b(?:work|tasks?|steps?|to-?dos?|fix(?:es)?|issues?|questions?|follow[- ]?ups?|actions?|bugs?|problems?|failures?"
    r"|failing|errors?|next|to (?:do|fix|check|investigate|look at|verify|decide|consider|address|implement|add|write)"
    r"|not (?:yet )?(?:done|implemented|addressed|fixed|covered)|pending|outstanding|unresolved|open)\b"
    r"|zu tun|offene|nächste|à faire|reste à|prochaine|pendiente|por hacer|próxim|a fazer|pendente"
    r"|待办|未完成|下一步|やること|残作業|남은 작업|다음 단계", re.I)
"""An intro that names work still to do ("Remaining work:", "Open issues:", "Next steps:", "Noch zu tun:")."""
_LEFT_INTRO = re.compile(
    r"\b(?:unchanged|untouched|unmodified|untracked|uncommitted|unstaged|as[- ]is|pre-?existing|already there"
    r"|left (?:alone|in place|as (?:is|they (?:are|were)|it (?:is|was)))|belong(?:s|ing)? to|(?:someone|somebody) else"
    r"|not (?:changed|touched|modified|committed|staged|tracked|mine|ours|part of)|other (?:agents?|sessions?|people))\b"
    r"|unverändert|nicht (?:geändert|angefasst|verändert)|unberührt|inchangé|non modifié|intacts?\b"
    r"|sin (?:cambios|modificar|tocar)|no modificad|sem alteraç|não (?:alterad|modificad|mexid)|inalterad"
    r"|未改动|未修改|未变|保持不变|変更なし|未変更|そのまま|변경 없음|그대로", re.I)
"""An intro that says what the agent left as it is ("Not changed:", "Left as is:", "Untracked (not mine):",
"Unverändert:"): the state the work leaves, no work."""
_REMAINING = re.compile(r"\b(?:remaining|skipped)\b|restant|verbleibend|übrig|restante|剩下|剩余|残り|남은", re.I)
"""An intro that only says what remains ("Remaining in `src/gen/`:"): work or state, as its items and the
answer tell."""
_BARE_ITEM = re.compile(r"^[*_\s]{0,4}`?([^`\s]{1,300})`?[*_]{0,2}(?:[ \t]{1,3}(?:[—–-]|\(|:)[ \t]?(.{0,300}))?$")
"""A list item that is a name (a path, a file, a branch), with a note after it or none."""
_WORK_NOTE = re.compile(r"\b(?:needs?|should|must|todo|to do|fix|add|implement|update|write|missing|fail(?:s|ing|ed)?"
                        r"|broken|pending)\b", re.I)
"""A note that says the named thing needs work ("`a.py` — needs tests")."""
_MARKED_DONE = re.compile(r"^[*_\s]{0,3}(?:✅|✓|✔|☑|\[[xX]\]|~~)|(?:✅|✓|✔|☑)[*_\s.]{0,3}$")
"""A list item the agent marks done ("Update the README ✅", "[x] Commit it", "~~Fix the test~~")."""
_SAID_DONE = re.compile(r"\b(?:is|are|was|were|has been|have been|now)\s(?:\w{1,20}\s){0,2}?(?:done|complete|completed"
                        r"|finished|fixed|in place|committed|resolved)\b(?![^.!?]{0,80}\b(?:but|except|once|when|after)\b)"
                        r"|\bnothing (?:is )?(?:left|remaining|pending)\b"
                        r"|\b(?:remaining|left|pending|todo)\W{1,3}(?:nothing|none|n/a)\b", re.I)
"""A sentence of the closing answer that says its work is done ("The remaining part … is done too."): no step."""
_AHEAD = re.compile(r"\b(?:next|then|i'll|i will|i can|we can|should|could|would|want|let me|let's|once|after|before"
                    r"|until)\b", re.I)
"""A sentence that looks ahead ("Next, once the tests are fixed, deploy."): a step, whatever it says is done."""
_REQUOTED = 0.6
"""A step that holds this share of the latest request's words says the request again."""
_LIST_ITEM = re.compile(r"^([ \t]{0,12})(?:[-*+•]|\d{1,3}[.)])[ \t]+(\S.{0,2000})")
_INTRO_CHARS = 120
_LISTS = 2
_LIST_ITEMS = 5
_DEFERRED = re.compile(r"\b(?:(?:question|thing|check)s? first|first,? (?:a |one )?(?:quick )?(?:question|thing)"
                       r"|before (?:that|we do that|you do that)|(?:pick|take) (?:this|it|that) up later"
                       r"|(?:come back to|get back to|revisit|decide on) (?:this|it|that) later|for later|not now)\b",
                       re.I)
"""A reply that puts the agent's question off ("quick follow up question first: …", "write it up so I can pick this
up later")."""
_ANSWER_OPENING = re.compile(r"^\W{0,3}(?:y(?:es|eah|ep|up)|no(?:pe)?|ok(?:ay)?|sure|go (?:ahead|for it)|do it|please"
                             r"|option|the (?:first|second)|both|neither|sounds good|agreed|correct|right)\b", re.I)
"""A reply that opens with an answer ("yes, but what about …?")."""
_SHORT_QUESTION = 6
"""A question of fewer words does not say what it asks about alone ("Which do you prefer?")."""
_OPTIONS = 4
_ASKED_BACK = 4
_REPLY_WORDS = 12
"""A request this short that follows an answer is a reply to it."""
_REPLY_CONTEXT = 240
"""The agent's words a reply answers, quoted up to this (its last sentences; the rest of the answer is Done's)."""
_STATUS_HEADER = re.compile(r"^\W{0,4}(?:done|status|state|complete[ds]?|implemented|finished|result)\W{0,4}$", re.I)
"""The column of a status table that says whether each row is done ("Done?", "**Status**")."""
_NOT_DONE = re.compile(r"^\W{0,6}(?:no\b|not\b|pending|todo|to do|partial(?:ly)?|skipped|missing|open\b|deferred"
                       r"|remaining)|^\W{0,4}(?:❌|✗|✘|⏳|⚠️?)", re.I)
"""A status cell that says the row is not done ("**No**", "❌ not yet", "Partial")."""
_TABLE_ROWS = 4
_QUESTION_LINES = 40
"""Lines at the end of an answer searched for its list of questions (a list the answer ends on is short)."""
_STAGE = re.compile(r"\b(phase|stage|step|part|milestone|wp|work ?package|sprint|iteration|round|batch|task)[ #-]?"
                    r"(\d{1,3})\b", re.I)
"""A numbered stage of planned work ("phase 1", "WP14", "Step 3")."""
_STAGE_CHARS = 240


def _stopping_words(answer: str, working: bool) -> str:
    """The agent's announced action with the sentences before it in the same paragraph, up to
    :data:`_STEP_CHARS` ("Let me check and fix this." alone does not say what "this" is); when the agent was
    still working (``working``), its last paragraph whatever it says."""
    paragraph = [p for p in re.split(r"\n\s*\n", answer.strip()) if p.strip()][-1:] or [""]
    if holds_checklist(paragraph[0]):
        return ""  # a checklist's items are the agent's tasks (:func:`.checklist.open_checklist`), not one step
    found = sentences(paragraph[0])
    if not found or not (working or ANNOUNCED.match(found[-1]) or _announces(found[-1])):
        return ""
    found = [sentence for sentence in found if _announces(sentence) or not (
        _CHATTER.match(sentence) or not without_narration(sentence))]  # process talk says nothing to do
    if not found:
        return ""
    kept = [imperative(found[-1])]
    for sentence in reversed(found[:-1]):
        if _CHATTER.match(sentence):
            continue
        sentence = imperative(sentence)
        if len(" ".join([sentence, *kept])) > _STEP_CHARS or sentence.startswith(("#", "|", "```")) \
                or _REPORTED.search(sentence) or (_NOW_STATE.match(sentence) and _STATE_VERB.search(sentence)):
            break  # a sentence that reports a result belongs to Done ("WP1 complete. Now WP2: …")
        kept.insert(0, sentence)
    return clip_words(" ".join(kept), _STEP_CHARS)


_GENERIC = re.compile(r"^\W{0,3}(?:(?:now|first|ok(?:ay)?|so|then),?\s{1,3})?(?:continue|carry on|proceed|go on|keep going"
                      r"|explore|look around|have a look|take a look|look (?:at|into|through)|dig in|get (?:started|oriented)"
                      r"|understand|investigate|check|see|figure out|start|begin|get a sense)\b(?:\s{1,3}(?:the|this|that|it"
                      r"|things|what|how|around|more|further|first|now|here|with|on|at|into|of|a|bit|little|overall|current"
                      r"|existing|whole|work|code|codebase|project|repo(?:sitory)?|structure|setup|state|situation|context"
                      r"|where|we|are|is|stand|left|off|going|exploring|looking|working|task|tasks|from|there|next|step"
                      r"|steps|remaining)\b){0,8}\W{0,3}$", re.I)
"""The agent's last words when they name no work: "Let me explore the codebase.", "Continue the work.", "Let me
look around first." (its own object, a file or a function, makes a step concrete)."""


def _generic(step: str) -> bool:
    """True when the agent's last words name no work (:data:`_GENERIC`), every sentence of them."""
    said = [imperative(sentence) for sentence in sentences(step)]
    return bool(said) and not _NAMED.search(step) and all(_GENERIC.match(sentence) for sentence in said)


def _announces(sentence: str) -> bool:
    """``sentence`` announces a move of the agent's ("Let me …", "Now I'll …", "Now let's …"), not its state ("Now I
    have the full picture.")."""
    return _OPENER.match(sentence) is not None


_OPENER = re.compile(r"^\W{0,3}(?:(?:now|next|first|so|ok(?:ay)?|then|alright|sure|got it|right)[,.!]?\s{1,3}){0,2}"
                     r"(?:let me|let's|(?:i|we)(?:'ll|'m going to"
                     r"|'re going to|\s{1,3}(?:(?:also|still|now|first|then|just)\s{1,3})?(?:will|need to|have to|must"
                     r"|am going to|are going to)))\s{1,3}(?=\w)(?!know\b|be (?:happy|glad)\b)", re.I)
"""The opener of an announced move: the agent as subject and its intent, the verb after it."""


def imperative(sentence: str) -> str:
    """The agent's announced move said as the action to take ("Let me write the plan." → "Write the plan."): the
    announcement's opener dropped, the verb and its object kept; a sentence that announces nothing as it is."""
    announced = _OPENER.match(sentence)
    if not announced:
        return sentence
    rest = sentence[announced.end():]
    return rest[:1].upper() + rest[1:]


def _with_object(step: str, state: RegionState) -> str:
    """``step`` with the request it serves when it names no thing of its own (:data:`_NAMED`: "Write the plan."
    says which plan only with the request): the next agent reads what to write, fix or check."""
    request = state.resumed or state.latest_request
    if _NAMED.search(step) or len(step.split()) > _VAGUE_WORDS or not request or not sets_work(request):
        return step
    return f"{step} (for the request “{clip_words(request_clause(request, _SERVED_CHARS), _SERVED_CHARS)}”)"


_VAGUE_WORDS = 4
"""A step of this many words at most with no named thing ("Update the logic.", "Fix this file.") says what to do
only with the request it serves; a longer one says it itself."""
_NAMED = re.compile(r"`[^`\n]{1,200}`|\w/\w|\w\.[a-z]{1,5}\b|\w_\w|[a-z][A-Z]|\d|“")
"""Marks of a named thing in a step (a backticked value, a path, a file, snake or camel case, a number, a quote)."""


def _question(answer: str) -> str:
    """The question ``answer`` ends on (:func:`.state.closing_question`), else its last question, clipped; a short
    one ("Which do you prefer?") with the items of the list before it, the options it asks about."""
    asked = closing_question(answer) or next((s for s in reversed(sentences(answer)) if s.endswith(("?", "？"))), "")
    listed = _listed_questions(answer)
    if asked and len(listed) > 1 and any(asked.rstrip("?？")[-30:].strip() in question for question in listed):
        return clip_words(" / ".join(listed[:_OPTIONS]), 400)  # each question of the list waits on its answer
    if asked and len(asked.split()) < _SHORT_QUESTION:
        before = answer[: answer.rfind(asked.rstrip("?？")[:40])] if asked.rstrip("?？")[:40] in answer else answer
        options = _last_list(before)
        asked += f" ({'; '.join(options[:_OPTIONS])})" if options else ""
    return clip_words(asked, 300)


def _listed_questions(answer: str) -> list[str]:
    """The items of the last list of ``answer`` that ask a question ("1. Keep the evals/ directory?"), as written
    (a question's bold title is half of it), emphasis removed."""
    found: list[str] = []
    for line in reversed(answer.rstrip().splitlines()[-_QUESTION_LINES:]):
        item = _LIST_ITEM.match(line)
        if item:
            found.insert(0, clip_words(item.group(2).replace("**", ""), 200))
        elif line.strip() and found:
            break
    return [item for item in found if item.rstrip("*_ )").endswith(("?", "？"))]


def _last_list(text: str) -> list[str]:
    """The titles of the items of the last list in ``text`` (its top level)."""
    found: list[str] = []
    indent = None
    for line in reversed(text.rstrip().splitlines()):
        item = _LIST_ITEM.match(line)
        if item and indent in (None, item.group(1)):
            indent = item.group(1)
            found.insert(0, _item_title(item.group(2)))
        elif item or (not line.strip() and not found) or (found and line.startswith((" ", "\t"))):
            continue  # a sub-item, the blank lines after the list, an item's continuation
        elif found or line.strip():
            break
    return [clip_words(item, 80) for item in found]


def _open_lists(answer: str) -> list[tuple[str, list[str]]]:
    """The lists the agent's last answer gives of work still open, one step per list: its intro line (up to
    :data:`_INTRO_CHARS`, ending in a colon) says open work, its items follow (blank lines between them allowed;
    sub-items are left out). Each step comes with the items as written."""
    found: list[tuple[str, list[str]]] = []
    lines = answer.splitlines()
    number = 0
    while number < len(lines) and len(found) < _LISTS:
        intro = lines[number].strip().strip("*_#> \t")
        number += 1
        if not (intro.endswith(":") or lines[number - 1].rstrip().endswith(":")) or len(intro) > _INTRO_CHARS \
                or not _OPEN_LIST.search(intro):
            continue
        listed, raw, indent = [], [], None
        while number < len(lines):
            item = _LIST_ITEM.match(lines[number])
            if item and indent is None:
                indent = item.group(1)
            if item and item.group(1) == indent:
                listed.append(_item_title(item.group(2)))
                raw.append(item.group(2))
            elif lines[number].strip() and not item:
                break
            number += 1
        if listed:
            shown = "; ".join(listed[:_LIST_ITEMS]) + ("; …" if len(listed) > _LIST_ITEMS else "")
            found.append((f"{intro.rstrip(':*_ ')} (the agent's last answer): {shown}", raw))
    return found


_TITLED = re.compile(r"^\*\*([^*\n]{3,160})\*\*:?[ \t]{0,4}(?:[—–:-]|$)")


def _left_as_is(step: str, items: list[str], done: bool) -> bool:
    """The list (its step, as :func:`_open_lists` words it, and its items) says what the agent's work left as it is,
    not work still to do: its items are bare names (files left alone), not actions ("Add the tests"), and its intro
    says they were left so ("Skipped (left as is):", "Remaining (untracked, not mine):"), or only says what remains
    ("Remaining in `src/gen/`:", "Remaining:") of a request the region reports done. An intro that names work
    ("Remaining work:", "TODO:") is work, whatever its items."""
    intro = step.split(" (the agent's last answer):", 1)[0]
    if _WORK_INTRO.search(intro) or not all(_bare(item) for item in items):
        return False  # actions listed are work, whatever the intro says of them
    return bool(_LEFT_INTRO.search(intro)) or done and bool(_REMAINING.search(intro))


def _answered_step(step: str, items: list[str], request: str) -> bool:
    """A step drawn from the closing answer to a request the region reports done that only says the request is
    answered: every item of its list marked done, a sentence saying its work is done, or the request's own words
    again ("Next steps: Update the README with the new flag ✅")."""
    if items:  # a list the agent calls work still to do ("Remaining work:") is its word, unless all marked done
        intro = step.split(" (the agent's last answer):", 1)[0]
        return all(_MARKED_DONE.search(item.strip()) for item in items) or (
            not _WORK_INTRO.search(intro) and _requotes(" ".join(items), request))
    return bool(_SAID_DONE.search(step)) and not _AHEAD.search(step) and "?" not in step or _requotes(step, request)


def _requotes(step: str, request: str) -> bool:
    wanted = _content_words(request)
    return len(wanted) >= 3 and len(wanted & _content_words(step)) >= _REQUOTED * len(wanted)


_CONTENT_WORD = re.compile(r"[^\W\d_]{3,}")


_FUNCTION_WORDS = frozenset("the and for with that this these those them then than not but also just please from into"
                            " our your its you are was were has have how what why when where which who does did can"
                            " all any some there here".split())
"""Words every request and step share ("refactor the parser" and "update the parser docs" share "the"): a step
says a short request again by its words that name something, never by these."""


def _content_words(text: str) -> set[str]:
    """The words of ``text`` as stems (a word's first five letters: "updated" is "update"), short words and
    :data:`_FUNCTION_WORDS` left out."""
    return {word[:5] for word in _CONTENT_WORD.findall(text.lower()[:5_000]) if word not in _FUNCTION_WORDS}


def _bare(item: str) -> bool:
    named = _BARE_ITEM.match(item.strip())
    return named is not None and not _WORK_NOTE.search(named.group(2) or "")


def _item_title(item: str) -> str:
    """A list item as a step names it: its bold title when it has one ("**`stripGlobalFlags` kept** — because
    …"; the reasons are the agent's, the title is the item), else the item."""
    titled = _TITLED.match(item)
    return clip_words(titled.group(1) if titled else item, 160)


def _undone_rows(answer: str) -> str:
    """The rows of the last answer's status table (a Markdown table with a "Done?" or "Status" column) whose status
    says not done, as one step: the agent's own account of what the plan or request still lacks ("| 5.1 | Remove
    `stripGlobalFlags()` | **No** | Still needed … |"): each row by the cells before its status, with its notes as
    plain words (what they quote in backticks is other work, not the row's)."""
    rows: list[str] = []
    column = None
    for line in answer.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
        if not cells:
            column = None
        elif column is None:
            column = next((n for n, cell in enumerate(cells) if _STATUS_HEADER.match(cell.replace("*", ""))), None)
        elif column < len(cells) and _NOT_DONE.match(cells[column].replace("*", "")) and not set(line) <= set("|-: "):
            named = clip_words(" ".join(cell.replace("**", "") for cell in cells[:column] if cell), 160)
            why = clip_words(" ".join(re.sub(r"[`*]", "", cell) for cell in cells[column + 1:] if cell), 120)
            rows.append(f"{named} ({why})" if why else named)
    if not rows:
        return ""
    shown = "; ".join(rows[:_TABLE_ROWS]) + ("; …" if len(rows) > _TABLE_ROWS else "")
    return f"Not done by the agent's last status table: {shown}"


def _unanswered_question(state: RegionState) -> str:
    """The question an earlier turn's answer asked that the user never answered: the reply put it off ("quick
    question first: …") or only asked something else ("hmm, could this be related?"), and no later request opens
    with an answer ("yeah, let's …"). A reply that asks for work ("can't we do both?") answers it outside its
    options. It still waits. Only the last :data:`_ASKED_BACK` turns are looked at, none
    before a commit (work done since settles more than the words show)."""
    last = len(state.turns) - 1
    for number in range(last - 1, max(last - 1 - _ASKED_BACK, -1), -1):
        turn, later = state.turns[number], state.turns[number + 1:]
        if turn.commits or any(t.commits or _ANSWER_OPENING.match(t.request.strip()) for t in later):
            return ""
        reply = later[0].request.strip()
        asked = [s.replace("**", "") for s in sentences(turn.final_answer) if s.endswith(("?", "？"))]
        # only a reply that puts it off or only asks about something else leaves it open; one that asks for work
        # ("can't we do both?") or sets work ("just do whatever is simplest") settles it outside its options
        if asked and (_DEFERRED.search(reply[:2000]) or (reply.endswith(("?", "？")) and only_asks(reply))):
            if _taken_up(asked, later):
                return ""  # the talk since came back to it: its answer is in what the agent said since
            # the first question says what it is about; alone, "Want me to do that?" says nothing
            return clip_words(" … ".join([*asked[:1], *asked[1:][-1:]]), 300) if len(asked[0].split()) >= 6 else ""
    return ""


_TAKEN_UP = 0.5


def _taken_up(asked: list[str], later: tuple[Turn, ...]) -> bool:
    """The agent's answers in ``later`` turns come back to the questions ``asked`` (:data:`_TAKEN_UP` of their words):
    the user's question in reply was about the same thing, and the discussion settled it there."""
    wanted = _content_words(" ".join(asked))
    said = _content_words(" ".join(turn.final_answer[:5_000] for turn in later))
    return len(wanted) >= 3 and len(wanted & said) >= _TAKEN_UP * len(wanted)


def _tasks_open(state: RegionState) -> bool:
    """The agent's task list still says where the work stands: changed during the latest request, or the request
    is not finished."""
    return bool(state.tasks) and (state.tasks_current or state.latest_status != DONE)


def _where(task: Task) -> str:
    """Where a task in progress is kept, and for a tracker's item the command that closes it when done."""
    if not task.tracked:
        return "in progress on the agent's task list"
    return f"in progress on the tracker; when done: `{task.closing}`" if task.closing else "in progress on the tracker"


_STEP_ONLY = re.compile(r"^\W{0,3}(?:(?:now|then|finally|next|and|ok(?:ay)?|so),?\s{1,3})?(?:commit\b[^.!?\n]{0,60}?"
                        r"\b(?:and|then)\s{1,3})?(?:re)?(?:push(?:ing)?|deploy(?:ing)?|publish(?:ing)?|releas(?:e|ing)"
                        r"|restart(?:ing)?|reload(?:ing)?|migrat(?:e|ing))\b", re.I)
"""A sentence that asks for a step outside the code and nothing more ("Push both branches.", "commit and push")."""
_MORE = re.compile(r"(?:\band|\bthen|[,;&+])\s{1,3}(?!(?:re)?(?:push|deploy|publish|release|restart|reload|migrat)\w*\b)"
                   r"[a-z]{2,}", re.I)
"""Words after the step that go on to other work ("and create a PR", "then reinstall the skills")."""
_EVERY = re.compile(r"\b(?:both|all|each|every|them|branches|remotes)\b", re.I)
"""Words that say the step has more than one object: one run of it does not finish it."""
_OBJECT = re.compile(r"`([^`\n]{1,80})`")


def _step_ran(step: str, ran: tuple[str, ...]) -> bool:
    """True when ``step`` asks only for steps outside the code (:data:`_STEP_ONLY`) and the turn's commands that
    succeeded did each: every kind it names (:func:`.progress.step_kinds`), twice or more when it names several
    objects ("push both"), each object it names in backticks in one of them."""
    said = [imperative(sentence).rstrip(":.! ") for sentence in sentences(step)]
    if not said or not all(_STEP_ONLY.match(s) and not _MORE.search(s) for s in said):
        return False  # (work besides the step, "push the branch and create a PR", is not done by a push)
    action = " ".join(said)
    for kind in step_kinds(action):
        runs = [command for command in ran if kind in step_kinds(command[:500])]
        if not runs or (_EVERY.search(action) and len(runs) < 2):
            return False
    if re.search(r"\bcommit", action, re.I) and not any(re.search(r"\bcommit\b", c[:500]) for c in ran):
        return False  # "commit and push": the push alone leaves the commit to do
    return bool(step_kinds(action)) and all(any(name in c for c in ran) for name in _OBJECT.findall(action))


def _announced_step_ran(state: RegionState) -> bool:
    """The region ends while the agent works on steps outside the code it announced last ("I'll push both
    branches") and its commands have all done since: naming them as the next step would have them done twice."""
    if state.latest_status not in (OPEN, INTERRUPTED) or not state.turns:
        return False
    announced = _stopping_words(state.turns[-1].final_answer, bool(state.mid_work))
    return bool(announced) and _step_ran(announced, state.turns[-1].ran)


def steps_ran(state: RegionState) -> bool:
    """The user's latest request is finished by steps outside the code the region's commands did: it asks only for
    them ("push both") and they ran, or it is a go-ahead to the steps the agent announced and did
    (:func:`_announced_step_ran`). A request with work of its own is not finished by a push."""
    if state.latest_status not in (OPEN, INTERRUPTED) or not state.turns or sets_work(state.latest_request):
        return False
    announced = _stopping_words(state.turns[-1].final_answer, bool(state.mid_work))
    if go_ahead(state.latest_request):
        return _announced_step_ran(state)
    return _step_ran(state.latest_request, state.turns[-1].ran) and (not announced or _announced_step_ran(state))


def in_progress_items(state: RegionState) -> list[str]:
    """The latest request with how far it got, and the task the agent's list marks in progress."""
    items = [plan_review_item(state.plan_review)] if state.plan_review else []
    items += [f"Background work not reported yet: {', '.join(job.what for job in state.awaited[:_AWAITED_SHOWN])}"
              + (" …" if len(state.awaited) > _AWAITED_SHOWN else "")] if state.awaited else []
    if _tasks_open(state):
        items += [f"{clip_words(task.text, 240)} ({_where(task)})" for task in state.tasks.entries(ACTIVE)]
    if not state.latest_request or state.latest_status == DONE or steps_ran(state):
        return items
    request = clip_words(state.latest_request, _REQUEST_CHARS)
    if state.latest_status == ASKED:
        status = f"answered; waiting for the user's reply to “{state.pending_question or _question(state.last_answer)}”"
    elif state.latest_status == INTERRUPTED:
        status = "interrupted before it finished"
    elif state.latest_status == DECLINED:
        status = "on hold: the user declined the agent's last call"
    else:
        status = "under way"
    stopped_at = _stopping_words(state.turns[-1].final_answer if state.turns else "", bool(state.mid_work))
    subject = subject_line(*state.subject) if state.latest_status in (OPEN, INTERRUPTED) and not names_subject(
        stopped_at, *state.subject) else ""
    served = served_request(state.turns)
    serves = f", for the earlier request it replies about: “{clip_words(served, _SERVED_CHARS)}”" if served else ""
    line = f"“{request}” — {status}{serves}"
    if state.answers_question:  # a bare "yes", "go on": the work is what the agent asked about, not those words
        line = (f"What the agent asked or proposed, agreed to by the user's “{request}”: "
                f"“{clip_words(state.answers_question, 240)}” — {status}{serves}")
    elif state.resumed:
        line = f"“{clip_words(state.resumed, _REQUEST_CHARS)}” — {status} ({_resumed_by(state, request)})"
    elif go_ahead(state.latest_request):
        return [*items, *([subject] if subject else [])]  # a go-ahead with nothing before it names no work
    return [line, *items, *([subject] if subject else [])]


def next_items(state: RegionState, plan_line: str = "") -> list[str]:
    """The next steps, surest first (see the module docstring); ``plan_line`` names a plan file's open items."""
    steps: list[str] = []
    generic = ""  # the agent's last words when they name no work ("Let me explore the codebase."): the last resort
    answer = state.turns[-1].final_answer if state.turns else ""  # an earlier turn's words are not about this one
    reports = [_report_step(report) for report in state.reports]
    ends_on_report = bool(state.reports) and state.reports[-1].last
    waiting = _awaited_step(state)  # background work not back yet: the next thing that happens is its report
    steps += [waiting] if waiting else []
    if ends_on_report:  # what the agent announced last is what the sub-agent did: its findings come first
        steps += reports
    elif state.latest_status in (OPEN, INTERRUPTED) and answer and not _announced_step_ran(state):
        # the agent stopped mid-work: what it was doing, in its own last words, comes first
        stopped_at = _stopping_words(answer, bool(state.mid_work))
        after = state.subject[4:5] and state.subject[4]
        went_on = f"; HEAD is now {after[0]}" if after else ""
        running = ", its result not in this part: check it first" if state.mid_work_unread else ""
        last_call = f" (its last action{running}: {state.mid_work}{went_on})" if state.mid_work not in ("", "-") else \
            f" ({went_on[2:]})" if went_on else ""
        if stopped_at and _generic(stopped_at):  # names no work: the concrete steps below come first
            generic = f"Continue where the agent stopped: {_with_object(stopped_at, state)}{last_call}"
        elif stopped_at:
            stopped_at = _with_object(stopped_at, state)
            steps.append(f"Continue where the agent stopped: {stopped_at}{last_call}{_test_run(stopped_at, last_call, state)}")
    redo = redo_step(state.redo_left)  # the agent's last words name the file it is on; the earlier run, the rest
    steps += [redo] if redo else []
    if not ends_on_report:
        steps += reports
    revise = _revise_plan(state.plan_review)
    steps += [revise] if revise else []
    if _tasks_open(state):  # the task in progress is named under In Progress; what comes after it here
        pending = state.tasks.entries(PENDING)
        steps += [f"{_TASK_TO_DO} {clip_words(t.text, 240)}{' (open on the tracker)' if t.tracked else ''}"
                  for t in pending[:_TASKS]]
        if len(pending) > _TASKS:
            steps.append(f"And {len(pending) - _TASKS} more pending tasks on the agent's list.")
    if not state.tasks and state.turns:  # no task tool: the checklist the agent wrote in its words is its list
        unchecked = open_checklist(state.turns[-1].texts)
        steps += [f"{_TASK_TO_DO} {clip_words(item, 240)} (unchecked on the agent's checklist)"
                  for item in unchecked[:_TASKS]]
    lists = _open_lists(answer)
    listed = [item[:60] for _, raw in lists for item in raw]  # said once, by the items' titles
    # what the work left as it is ("Remaining in `src/gen/`: `schema.py`", "Not changed: …") is no step
    done = state.latest_status == DONE
    lists = [(step, raw) for step, raw in lists if not _left_as_is(step, raw, done)
             and not (done and _answered_step(step, raw, state.latest_request))]
    told = [step for step in state.next_steps if not any(step.startswith(item) for item in listed)
            and not (done and _answered_step(step, [], state.latest_request))]  # the answer, not what comes next
    steps += [f"{_OPEN_QUESTION} {step.strip('*_ ')}" if step.strip("*_ ").endswith("?") else step
              for step in told]
    question = (state.pending_question or _question(answer)) if state.latest_status == ASKED else \
        _asked_after_report(state, answer)
    if question and not any(question in step for step in steps):  # the agent waits on it: nothing else comes first
        steps.insert(0, f"Wait for the user's answer to the agent's question: “{question}”")
    proposal = _proposal(state, answer)  # the change the user's word lets the agent apply
    steps += [proposal] if proposal else []
    if plan_line:
        steps.append(plan_line)
    if state.plan_left:  # the plan's parts its last words do not name: the rest of the work
        steps.append(state.plan_left)
    prose = _prose_plan(state)  # the plan the agent wrote in its words: the parts after the one it is on
    steps += [prose] if prose else []
    if state.batches:  # the batch under way ends in a report and a wait, not in the next batch
        steps.append(state.batches.step(state.latest_status in (OPEN, INTERRUPTED)))
    if state.latest_status != DONE:
        fixes = [error for error in state.work_errors if not _inspects(error)]
        steps += [f"Fix: {clip(error, 200)}" for error in fixes[-_FIXES:]]
    said_how_far = bool(steps)
    steps += [step for step, _ in lists]
    undone = _undone_rows(answer)
    steps += [undone] if undone else []
    if state.latest_status == DECLINED and revise:
        pass  # the plan declined last: revising it per what the user said is the step above
    elif state.latest_status == DECLINED:
        label, reason = state.declined[-1] if state.declined else ("the last call", "")
        steps.append(f"Go on with the last request as the user directed when declining {label}: "
                     f"“{clip_words(reason, 200)}”" if reason else
                     f"Wait for the user to say how to proceed: they declined {label}; do not retry it as it was.")
    elif state.latest_request and state.latest_status in (OPEN, INTERRUPTED) and not steps_ran(state) and not (
            said_how_far and (answer or ends_on_report)):  # a report the region ends on is the request's work
        under_way = _work_under_way(state)  # the work begun on it says more than its words quoted again
        at = next((n for n, step in enumerate(steps) if step.startswith(_TASK_TO_DO)), len(steps))
        if under_way:
            steps.insert(at, under_way)  # before the tasks after it
        elif (state.resumed or go_ahead(state.latest_request)) and _resumed_work(state):
            steps.insert(at, _latest_request_step(state))  # the work a "continue" goes on with comes first
        else:
            steps.append(_latest_request_step(state))
    steps += _after_the_request(state)
    steps += [f"Still to do outside the code (the finished work waits on it): {step}" for step in _pending(state)]
    write_up = _write_up(state)
    steps += [f"The findings are in {write_up}, created earlier in this region: update it if the answer to the "
              f"latest question changes them."] if write_up else []
    gated = bool(state.gates and (state.subject[0] or state.turns[-1].changed)
                 and state.latest_status in (OPEN, INTERRUPTED) and not state.git_left.saved)
    steps += [_gated_commit(state)] if gated else []
    steps += [generic] if generic and not steps else []
    stage = _next_stage(state) if not steps and state.latest_status == DONE else ""
    # what git has not saved comes after the work under way (the commit of the edits under way says it already)
    left = [step for step in state.git_left.steps if not (gated and step.startswith(_NOT_COMMITTED))]
    if stage:
        steps.append(stage)
    elif not steps and not left and state.latest_request:
        handed = _handed_back(answer)
        steps.append("The last request is done: wait for the user's next request"
                     + (f"; the agent handed the ongoing work back: “{handed}”" if handed else "."))
    return steps + left


def _prose_plan(state: RegionState) -> str:
    """When the region ends while the agent carries out a plan it stated in its words in the latest turn
    (:func:`.prose_plan.plan_progress`), and no task list or checklist of its own says where the work stands: the
    plan's parts left."""
    if state.latest_status not in (OPEN, INTERRUPTED) or not state.turns or _tasks_open(state):
        return ""
    turn = state.turns[-1]
    if not state.tasks and open_checklist(turn.texts):
        return ""
    return plan_progress(turn.texts, turn.changed, turn.ran, bool(state.mid_work))


def _agreed_proposal(state: RegionState) -> str:
    """When the latest request is a go-ahead to an answer that ended on a proposed code change, and no file has
    changed since: applying that change, as the user agreed."""
    if len(state.turns) < 2 or state.turns[-1].changed:
        return ""
    before = state.turns[-2]
    texts = [text for turn in state.turns for text in (turn.request, *(turn.texts or (turn.final_answer,)))]
    return proposal_step(before.final_answer, texts, bool(before.changed), state.latest_request)


def _proposal(state: RegionState, answer: str) -> str:
    """When the agent handed the turn back on a code change it proposes (:func:`.proposed.proposal_step`): applying
    it, which waits on the user's word. The region's words, the user's and the agent's, say what
    code it is about."""
    if state.latest_status not in (DONE, ASKED) or not state.turns:
        return ""
    texts = [text for turn in state.turns for text in (turn.request, *(turn.texts or (turn.final_answer,)))]
    return proposal_step(answer, texts, bool(state.turns[-1].changed))


_OPEN_QUESTION = "Open question to the user:"
_NOT_COMMITTED = "Not committed yet"
"""How :func:`.git_left.git_left` opens the step for edits made after the last commit."""
_OFFER = re.compile(r"\b(?:anything else|any(?:thing)? (?:other|more|further)|(?:other|further|more) (?:changes|help"
                    r"|questions|adjustments|tweaks)|any questions)\b", re.I)
"""A closing question that only offers more help ("Anything else you'd like me to change?"): nothing waits on it."""


def _asked_after_report(state: RegionState, answer: str) -> str:
    """When the answer that finishes the latest request reports work done and ends on a question to the user about
    what comes next ("I've made the first part. Before I go on: is it fine to drop Python 3.8?"): that question,
    which the work waits on; ``""`` for any other answer, and for a bare offer of more help (:data:`_OFFER`)."""
    if state.latest_status != DONE:
        return ""
    asked = closing_question(answer)
    if not asked or len(asked.split()) < _SHORT_QUESTION or _OFFER.search(asked):
        return ""
    return clip_words(asked, 300)


def _gated_commit(state: RegionState) -> str:
    """The edits under way are not committed: the session's checks come before they are, unless each already
    passed after the last edit (:attr:`.state.RegionState.checked_since`); then committing them is next, and
    pushing, when the region pushed its earlier commits."""
    gates = ", ".join(f"`{check}`" for check in state.gates)
    if not all(any(command.startswith(check.rstrip(" …")) for command in state.checked_since) for check in state.gates):
        return f"Before committing the edits under way, run the session's checks: {gates}."
    push = " and push them, as the region pushed its earlier commits" if state.pushed else ""
    return f"The session's checks ({gates}) passed after the last edit: commit the edits under way{push}."


_GO_ON = re.compile(any_language(GO_ON), re.I)
_HANDED_CHARS = 240


def _handed_back(answer: str) -> str:
    """The closing paragraph of ``answer`` when it hands ongoing work back to the user, item by item ("引き続きどうぞ",
    "Send me the next one", "Tell me what you notice as you read on; each fix is pushed to the PR"): how the user and
    the agent go on, which a bare "wait" would lose. ``""`` for any other closing."""
    closing = answer[-4 * _HANDED_CHARS:].strip().rsplit("\n\n", 1)[-1].strip()
    if not closing or len(closing) > _HANDED_CHARS or not _GO_ON.search(closing):
        return ""
    return " ".join(closing.split())


_TASK_TO_DO = "Task still to do:"


def _work_under_way(state: RegionState) -> str:
    """The next step when the region ends while the agent works on the latest request and its words say nothing of
    how far it got (it said nothing since, or nothing that names a step): the work it began, named by what shows it
    — the task its list marks in progress (a list it changed since the request), the files it edited or read last
    (:func:`.subject.current_subject`), the command it ran last, whose outcome it had not read — and what is left:
    to finish it, then to check it. ``""`` when nothing shows the work begun (then the request itself is the
    step)."""
    if state.latest_status != OPEN:
        return ""  # an interrupted request waits on what the user says next
    # a task list the agent has not touched since the latest request may be an earlier request's, long done
    active = state.tasks.entries(ACTIVE) if state.tasks and state.tasks_current else []
    files, _, reading = state.subject[:3]  # the files say where; In Progress names the code names beside them
    where = subject_line(files, (), reading)[len(SUBJECT_LABEL):].strip()
    ran = state.mid_work if state.mid_work not in ("", "-") else ""
    if not (active or where or ran):
        return ""
    what = f"the task in progress “{clip_words(active[0].text, 200)}”, for " if active else ""
    what += _request_named(state)
    at = f" (where it stopped: {where})" if where else ""
    if ran:
        then = f"; then check the outcome of {ran}, which ran last (the region ends before the agent read it)"
    elif state.subject[0]:
        tests = next((label for label in reversed(state.succeeded) if _TEST_COMMAND.match(label)), "")
        then = f"; then check the edits (the region's tests ran as {tests})" if tests else "; then check the edits"
    else:
        then = ""  # only read so far: what to change is still to find
    verb = "Finish the work under way on" if then or active else "Go on with"
    return f"{verb} {what}{at}{then}."


def _request_named(state: RegionState) -> str:
    """The latest request as a step names the work it sets, quoted as far as :func:`_latest_request_step` quotes
    it: what a go-ahead agreed to or resumed, else the request."""
    said = clip_words(state.latest_request, _LATEST_CHARS)
    if state.answers_question:
        return f"what the user agreed to with “{said}”: “{clip_words(state.answers_question, _LATEST_CHARS)}”"
    if state.resumed:
        return f"the request “{clip_words(state.resumed, _LATEST_CHARS)}” ({_resumed_by(state, said)})"
    if go_ahead(state.latest_request):
        return f"the work in progress (the user said “{said}”)"
    return f"the user's latest request “{said}”"


def _latest_request_step(state: RegionState) -> str:
    """The user's latest request as the next step; a bare go-ahead ("continue", "yes") as what it goes on with or
    agrees to (its own words carry no task)."""
    said = clip_words(state.latest_request, _LATEST_CHARS)
    agreed = _agreed_proposal(state) if state.answers_question or go_ahead(state.latest_request) else ""
    if agreed:  # the change the agent proposed says what the go-ahead lets it do, its question no more
        return agreed
    if state.answers_question:
        return (f"Carry out what the agent asked or proposed, agreed to by the user's “{said}”: "
                f"“{clip_words(state.answers_question, _LATEST_CHARS)}”")
    reacts_to = _reacts_to(state)
    if state.resumed or go_ahead(state.latest_request):
        concrete = _resumed_work(state)
        if concrete:
            what = f"the request in progress, “{clip_words(state.resumed, _SERVED_CHARS)}”" if state.resumed else \
                "the work in progress"
            return f"{concrete.rstrip('. ')} — to go on with {what} ({_resumed_by(state, said, False)})."
        reacts_to = _closing_words(state.turns[-2].final_answer) if len(state.turns) > 1 else ""
        what = f"the request in progress, “{clip_words(state.resumed, _LATEST_CHARS)}”" if state.resumed else \
            "the work in progress"
        where = f", from where the agent stopped before it: “{reacts_to}”" if reacts_to else ""
        return f"Go on with {what} ({_resumed_by(state, said, False)}){where}."
    return f"Carry out the user's latest request: “{said}” " + (
        f"(a reply to the agent's last words: “{reacts_to}”)." if reacts_to else "(quoted in full under Critical Context).")


_NEXT_SAID = re.compile(r"^\W{0,3}(?:the\s{1,3})?next(?:\s{1,3}steps?)?\s{0,3}(?:is|would be|:)\s{0,3}(?:to\s{1,3})?(?=\w)",
                        re.I)
"""A sentence that says what comes next without the agent as subject ("Next step: wire the CLI.")."""


def steer_decision(state: RegionState) -> str:
    """The user's question that steered the work under way, with the agent's answer: the course it set (see
    :attr:`.state.RegionState.steered`); ``""`` when no question did."""
    if not state.steered:
        return ""
    return f"Asked by the user “{clip_words(state.latest_request, _REQUEST_CHARS)}”, the agent: “{state.steered}”"


def _resumed_by(state: RegionState, said: str, go_on: bool = True) -> str:
    """What the latest request did to the request it resumed: a go-ahead ("the user said “continue”: go on with
    it"), or a question the agent answered (:attr:`.state.RegionState.steered`), which steers the work, no more."""
    if state.steered:  # the question and its answer are under Key Decisions (:func:`steer_decision`)
        return "steered since by the user's question, which the agent answered"
    return f"the user said “{said}”: go on with it" if go_on else f"the user said “{said}”"


def _resumed_work(state: RegionState) -> str:
    """The concrete work a bare "continue" goes on with: the item the agent's task list has in progress, else its
    first pending one; else the move the agent's answer before the go-ahead announced last ("Next I'll write the
    tests in …"), as an action. ``""`` when neither names any."""
    if state.tasks:
        open_tasks = [*state.tasks.entries(ACTIVE), *state.tasks.entries(PENDING)]
        if open_tasks:
            task = open_tasks[0]
            where = "in progress" if task.status == ACTIVE else "the first still to do"
            return f"{clip_words(task.text, 240)} ({where} on the agent's task list)"
    before = state.turns[-2].final_answer if len(state.turns) > 1 else ""
    for sentence in reversed(sentences(before[-4000:])):
        if sentence.endswith(("?", "？")):
            continue
        said = _NEXT_SAID.match(sentence)
        if said:
            rest = sentence[said.end():]
            return clip_words(rest[:1].upper() + rest[1:], _STEP_CHARS)
        if _announces(sentence) and not _generic(imperative(sentence)):
            return clip_words(imperative(sentence), _STEP_CHARS)
    return ""


_WRITE_UP = re.compile(r"\.(?:md|markdown|txt|rst|adoc)$", re.I)
_WRITE_VERB = re.compile(r"\b(?:write|summari[sz]e|document|jot|capture|record|put)\b", re.I)
_WRITE_UP_WORD = re.compile(r"\b(?:summary|findings|issue|notes?|write-?up|md file|markdown file|report|options)\b", re.I)
"""A request for a write-up of what was found ("write a summary for the issue and the options into a md file")."""


def _write_up(state: RegionState) -> str:
    """When the user questions findings after the agent wrote them up: the latest request asks a question the agent
    is still working on (no file changed yet), and the last turn before it that changed files wrote new documents
    only (an issue write-up, notes): those documents, which the answer may change. ``""`` otherwise."""
    if len(state.turns) < 2 or state.latest_status not in (OPEN, INTERRUPTED) or state.turns[-1].changed \
            or "?" not in state.latest_request[-400:]:
        return ""
    turn = next((turn for turn in reversed(state.turns[:-1]) if turn.changed), None)
    wrote = turn.changed if turn else ()
    actions = dict(state.modified)  # a document written whole, not one edited
    if not wrote or not all(_WRITE_UP.search(path) and actions.get(path) == "written" for path in wrote) \
            or not (_WRITE_VERB.search(turn.request[:1000]) and _WRITE_UP_WORD.search(turn.request[:1000])):
        return ""  # (a README reworked is the work itself, no write-up of findings)
    return ", ".join(f"`{path}`" for path in wrote[:2])


def _pending(state: RegionState) -> list[str]:
    """The steps outside the code finished requests wait on (a deploy, a restart, the user's check) that nothing
    later did (:func:`.progress.pending_step`), the newest last."""
    found = [pending_step(state.turns, n) for n, turn in enumerate(state.turns) if turn.status == DONE]
    newest = {step_kinds(step) or step: step for step in found if step}  # one push for two commits: the latest
    return [step for step in dict.fromkeys(step for step in found if step) if step in newest.values()][-_PENDING:]


_WITH_REPORTS = re.compile(r"\b(?:once|when|after|as soon as|until)\b[^.!?\n]{0,80}?\b(?:report|reports|reported"
                           r"|finish|finishes|finished|complete|completes|completed|done|back|return|returns"
                           r"|results?|come in|comes in|land|lands)\b", re.I)
"""A sentence of the agent's that says what it does with background work once it is back ("Once they report back
I'll merge the ones that pass review.")."""
_AWAITED_SHOWN = 4


def _awaited_step(state: RegionState) -> str:
    """When the region ends before background work reported (:attr:`.state.RegionState.awaited`): wait for it and
    collect it, naming what each was sent to do, then what the agent said it would do with it. ``""`` when none."""
    if not state.awaited:
        return ""
    agents = [job.what for job in state.awaited if job.agent]
    commands = [job.what for job in state.awaited if not job.agent]
    parts = []
    if agents:
        shown = "; ".join(f"“{clip_words(what, 100)}”" for what in agents[:_AWAITED_SHOWN])
        more = f"; and {len(agents) - _AWAITED_SHOWN} more" if len(agents) > _AWAITED_SHOWN else ""
        parts.append(f"the background agent{'s' if len(agents) > 1 else ''} still running ({shown}{more})")
    if commands:
        parts.append(f"the background command{'s' if len(commands) > 1 else ''} {', '.join(commands[:2])}")
    texts = state.turns[-1].texts or (state.turns[-1].final_answer,) if state.turns else ()
    plan = next((sentence for text in reversed(texts) for sentence in reversed(sentences(text[-4000:]))
                 if _WITH_REPORTS.search(sentence)), "")
    then = f"; then, as the agent said: “{clip_words(plan, 240)}”" if plan else ""
    their = "their results" if len(state.awaited) > 1 else "its result"
    return f"Wait for {' and '.join(parts)} to report, and collect {their}{then}."


def _report_step(report: Report) -> str:
    """A sub-agent's findings the agent has not acted on: the work of the latest request goes on from them."""
    return f"Act on the sub-agent's report (“{report.title}”), not acted on yet: {report.gist}"


def _revise_plan(review: PlanUnderReview | None) -> str:
    """The step for a plan the user turned down and is still shaping: revise it per what they said since, submit it
    again. ``""`` when there is none, or the user said nothing yet (what to change is theirs to say)."""
    if not review or not review.feedback:
        return ""
    named = f" “{clip_words(review.title, 100)}”" if review.title else ""
    times = f" ({review.turned_down} times so far)" if review.turned_down > 1 else ""
    said = " … ".join(f"“{words}”" for words in review.feedback)
    where = f" (the plan is in `{review.plan_file}`)" if review.plan_file else ""
    return (f"Revise the plan{named}{where} per what the user said since turning it down{times}: {said}; then "
            f"submit it again through {review.tool} for the user's approval (it is not approved yet).")


def plan_review_item(review: PlanUnderReview | None) -> str:
    """The In Progress line of a plan still under discussion."""
    if not review:
        return ""
    named = f" “{clip_words(review.title, 100)}”" if review.title else ""
    return (f"Planning: the plan{named} is under discussion with the user — submitted through {review.tool} and "
            f"turned down{f' {review.turned_down} times' if review.turned_down > 1 else ''}, not approved yet")


def served_request(turns: tuple[Turn, ...]) -> str:
    """When the latest request replies to the agent ("let's go with option 1", "no, revert those changes, …"), the
    earlier request its replies serve ("why are both sessions shown green here?"): the work the reply sets in
    motion is done for that one, so it is what the result is checked against. ``""`` when the latest request is no
    reply, or the replies go back to one that sets no work of its own or only asks a question (its answer was the
    agent's to give, not work to check). Only the request's first paragraph: what it pastes after that (a log, the
    output it is about) is no part of what it asks."""
    if not turns or not turns[-1].reply:
        return ""
    number = len(turns) - 1
    while number > 0 and turns[number].reply:
        number -= 1
    request = turns[number].request.strip()
    asked = re.split(r"\n\s*\n", request, maxsplit=1)[0].strip()
    if turns[number].reply or not sets_work(asked) or asked.endswith(("?", "？")):
        return ""
    return asked


_ANNOUNCES_TESTS = re.compile(r"\b(?:run|rerun|re-run|running)\b[^.\n]{0,60}\btests?\b", re.I)
_TEST_COMMAND = re.compile(r"^`[^`]{0,200}\b(?:pytest|test|tests|jest|vitest|rspec|ctest|phpunit)\b", re.I)


def _test_run(stopped_at: str, last_call: str, state: RegionState) -> str:
    """When the agent's last words announce a test run ("run a final comprehensive test"), the test command the
    region ran last (its words do not say which; the next agent runs the same), unless they name it already."""
    if not _ANNOUNCES_TESTS.search(stopped_at):
        return ""
    command = next((label for label in reversed(state.succeeded) if _TEST_COMMAND.match(label)), "")
    return f" — the region's tests ran as {command}" if command and command not in stopped_at + last_call else ""


def _reacts_to(state: RegionState) -> str:
    """The agent's last words before the latest request, when the agent has not acted on the request yet and the
    request is a short reply ("that was a little while back :|", "which one?"): alone it does not say what it is
    about, the answer it reacts to does. Its last sentences are quoted whole (a name in them is the subject, and
    their own words say what was already done)."""
    if len(state.turns) < 2 or state.turns[-1].final_answer or state.mid_work or any(state.subject) \
            or len(state.latest_request.split()) > _REPLY_WORDS or _OWN_OBJECT.search(state.latest_request):
        return ""  # a request that names its own file or code name says what it is about
    return _closing_words(state.turns[-2].final_answer)


_OWN_OBJECT = re.compile(r"`[^`\n]{1,200}`|\w/\w|\w\.(?:py|js|ts|tsx|jsx|go|rs|rb|java|kt|c|h|cpp|cs|php|swift|md|json"
                         r"|ya?ml|toml|sh|sql|html|css)\b")
"""A backticked name, a path or a source file in a request: the thing it is about, named by the request itself."""


def _closing_words(answer: str) -> str:
    """The last sentences of ``answer``'s last paragraph, whole, up to :data:`_REPLY_CONTEXT` characters."""
    paragraphs = [p for p in re.split(r"\n\s*\n", answer.strip()) if p.strip()]
    found = sentences(paragraphs[-1]) if paragraphs else []
    kept: list[str] = []
    for sentence in reversed(found):
        if kept and len(" ".join([sentence, *kept])) > _REPLY_CONTEXT:
            break
        kept.insert(0, sentence)
    return clip_words(" ".join(kept), _REPLY_CONTEXT)


def _after_the_request(state: RegionState) -> list[str]:
    """What waits besides the latest request: an earlier question of the agent's the user never answered."""
    steps = []
    unanswered = _unanswered_question(state) if state.latest_status != ASKED else ""
    if unanswered:
        steps.append(f"Still unanswered from earlier (the user asked something else or put it off): “{unanswered}”")
    return steps


def _next_stage(state: RegionState) -> str:
    """When the finished latest request did one numbered stage of the work ("go ahead with phase 1") and the region
    names stages of that kind by more than one number (the user goes stage by stage: "start with phase 0", or the
    agent's plan names the next), the stage after it: the work stops there only for the user's go. With the
    sentence of the region that says what it is, when one does."""
    asked = _STAGE.search(state.latest_request[:_LATEST_CHARS])
    if not asked:
        return ""
    kind, number = asked.group(1).lower(), int(asked.group(2))
    texts = [text for turn in state.turns for text in (turn.request, turn.final_answer)]
    numbers = {int(found.group(2)) for text in texts for found in _STAGE.finditer(text[:20_000])
               if found.group(1).lower() == kind}
    if not numbers - {number}:
        return ""
    said = next((s for text in reversed(texts) for s in sentences(text[:20_000]) if any(
        found.group(1).lower() == kind and int(found.group(2)) == number + 1 for found in _STAGE.finditer(s))), "")
    what = f": “{clip_words(said.replace('**', ''), _STAGE_CHARS)}”" if said else ""
    return (f"The last request ({asked.group(0)}) is done: report it; the next stage is "
            f"{asked.group(1)} {number + 1}{what} — start it when the user says so.")


_FAILED_COMMAND = re.compile(r"^`([^`\n]{1,400})` failed\b")
_PIECE = re.compile(r"\|\|?|&&|;|\n")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w{0,60}=\S{0,400}$")
_LOOKERS = frozenset({"cat", "head", "tail", "less", "more", "ls", "find", "grep", "egrep", "rg", "ag", "wc", "file",
                      "stat", "xxd", "hexdump", "od", "jq", "yq", "echo", "printf", "which", "type", "pwd", "tree", "du",
                      "df", "sort", "uniq", "cut", "tr", "diff", "cd", "true", "env", "printenv", "date", "whoami",
                      "uname", "ps", "lsof", "readlink", "realpath", "basename", "dirname", "column", "nl"})
"""Programs that only show something: a failure of theirs is information not obtained, nothing to fix."""
_GIT_LOOKS = frozenset({"show", "log", "status", "diff", "blame", "ls-files", "ls-tree", "cat-file", "rev-parse",
                        "rev-list", "describe", "reflog", "shortlog", "grep", "merge-base", "for-each-ref",
                        "show-ref", "name-rev", "maintenance"})
_GH_LOOKS = re.compile(r"^gh\s+(?:api(?!.*\s(?:-X|--method|-f|-F|--field|--raw-field|--input)\b)\s"
                       r"|(?:pr|issue|run|repo|release|workflow)\s+(?:view|list|diff|checks|status)\b)")


def _inspects(error: str) -> bool:
    """``error`` is the failure of a shell command that only looks at something (``git show REF:path``, ``xxd
    index``, ``gh api …/comments``): the agent went on without what it would have shown, and no next step fixes
    it. Every piece of the command (between pipes and ``&&``) must be such a look."""
    command = _FAILED_COMMAND.match(error)
    if not command:
        return False
    for piece in _PIECE.split(command.group(1).rstrip("…")):
        words = [word for word in piece.split() if not _ASSIGNMENT.match(word)]
        if not words or words[0].startswith(("2>", ">", "#")):
            continue
        program = words[0].rsplit("/", 1)[-1]
        if program == "git":
            verb = next((word for word in words[1:] if not word.startswith("-")), "")
            if verb not in _GIT_LOOKS:
                return False
        elif program == "gh":
            if not _GH_LOOKS.match(" ".join(words)):
                return False
        elif program not in _LOOKERS:
            return False
    return True


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters exactly (an error line is searched for as it is, so not at a word)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["ANNOUNCED", "imperative", "in_progress_items", "next_items"]
