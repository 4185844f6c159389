"""Stage 3 of compaction: pi's structured summary, built without a model.

When no model is configured, or the summarizer failed, compaction still has to leave a summary the agent can
work from, and a wrong one costs more than a short one. :class:`OfflineSummarizer` states only what the
transcript proves (:mod:`.state`): the goal from the first real request, the rules the user set, the commits
and finished requests, the files changed and the last action on each, the errors still open. What it cannot
judge it quotes: the last user request and the agent's last answer, verbatim and bounded, and the next step
the agent announced. An update merges into the previous summary section by section (pi's headings): finished
items close, superseded requests become history, lists keep their newest items, so the text stays within its
length budget however many compactions follow.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .carried import as_of_then
from .clause import request_clause
from .compose import strip_generated
from .details import (COMMITTED_LABEL, EARLIER_CHANGED_LABEL, GIT_LABEL, LOG_LABEL, MET_LABEL, NAMES_LABEL, RAN_LABEL,
                      READ_LABEL, add_details, detail_room, trimmed_log)
from .facts import Facts, constraint_sentences, extract_facts
from .goal import (COMMAND_PREFIX, NUDGE_WORDS, approves, command_subject, gives_rules_only, moves_on, names_a_stage, only_asks, picked_work, sets_work,
                   task_goal, with_now, word_count)
from .intent import earlier_intent
from .progress import asked_status_items, brief_done_item, closed_items, done_items, left_something, open_findings, pending_step, step_kinds, undoes, undone_item
from .rules import accepted_proposal, names_any, standing
from .steps import in_progress_items, next_items, steer_decision
from .skills import SKILLS_LABEL, skills_item
from .subject import SUBJECT_LABEL
from .told import SETTLED_LABEL, Told, told_errors, unsaid
from .superseded import standing as not_reversed
from .sections import LAYOUT, TURN_LAYOUT, Sections, parse, render
from .short_paths import same_file, short_names
from ...accessors import placeholder
from ..settings import CompactionSettings
from .state import (ASKED, DONE, UNNAMED_COMMIT, RegionState, Turn, clip_words, closing_question, is_substantive,
                    region_state, reports_done)
from .text import one_line
from ..summarizer import SummaryRequest, SummaryResult
from ..tokens import estimate_tokens, text_tokens

REQUEST_QUOTE = 700
"""The last user request is quoted up to this many characters (head and tail kept)."""
ANSWER_QUOTE = 800
"""The agent's last answer is quoted up to this many characters (head and tail kept)."""
_LIMITS = {"constraints": 10, "done": 10, "blocked": 6, "decisions": 10, "next": 6, "critical": 14}
"""Items kept per section after a merge: the newest (the oldest go first)."""
_EARLIER = 12
_CLOSED = 6
_SO_FAR_LABEL = "So far on the request under way (the agent's words at its edits):"
_FULL, _BRIEF = 4, 6
"""The latest finished requests said in full, and the older ones before them said in one sentence each."""
"""Closed tracker items listed under Done, the latest; the rest are in the tracker itself."""
_EARLIER_CHARS = 300
_EARLIER_SURE = 5
_EARLIER_SHORT = 120
_EARLIER_ROOM = 1000
"""Tokens a summary may take with all of the earlier requests in, however short the region (its detail room can be
a few hundred tokens: too few for the user's words, which carry more than details do)."""
"""The user's earlier requests kept (the newest), and the characters quoted of each: the user's words hold the
rules and choices said in passing ("you'll need to be in a worktree", "1) all 6"); all but the newest
:data:`_EARLIER_SURE` only where the region's room allows them."""
_PLAN_ITEMS = 8
_CUT_MARK = 40
"""Room for the "[… N characters cut …]" line :func:`bounded` puts in a cut text."""
_PLAN_LABEL = "Still unchecked in the plan "
_FILES = 24
_BRANCH_INTRO = "A conversation branch that was explored and then left."
_LEFT_LABEL = "Tried on a branch that was left (its changes are not on this path):"
_REQUEST_LABEL, _ANSWER_LABEL = "Last user request (verbatim):", "Agent's last answer (verbatim):"
_RESOLVED_LABEL, _EARLIER_LABEL, _FILES_LABEL = "Resolved along the way:", "Earlier request:", "Files changed (by last action):"
_GATES_LABEL = "Checks run before committing (the session's routine):"
_FILE_ITEM = re.compile(r"^Changed `([^`\n]+)` \(last: ([^\n]*)\)$")
"""A changed file as summaries before this layout listed it, one item each (still read when merging)."""
_ACTION_LINE = re.compile(r"^\s*([^:`\n]{1,40}):\s(.*)$")
_QUOTED = re.compile(r"`([^`\n]+)`")
_COLLAPSED = re.compile(r"^Earlier finished \((\d+)\): (.*)$", re.S)
_FOCUS_PREFIX = re.compile(r"^focus(?:\s+on)?\s*:?\s*", re.I)
_WORD = re.compile(r"[A-Za-z0-9_./-]{3,}|[\u4e00-\u9fff]{2,}")
_FOCUS_STOPWORDS = frozenset({"focus", "the", "and", "about", "with", "for", "please", "keep", "only", "more",
                              "less", "that", "this", "from", "into", "what", "summary", "summarize"})


# -- quoting --------------------------------------------------------------------------------------------------


def bounded(text: str, limit: int) -> str:
    """Head and tail of ``text`` within ``limit`` characters, the cut said in the middle."""
    text = text.strip()
    if len(text) <= limit:
        return text
    head, tail = text[: limit * 2 // 3].rstrip(), text[-(limit // 3) :].lstrip()
    return f"{head}\n[… {len(text) - len(head) - len(tail)} characters cut …]\n{tail}"


def quote(label: str, text: str, limit: int) -> str:
    lines = [line.rstrip() for line in bounded(text, limit).splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join([label, *(f"  > {line}" if line else "  >" for line in lines)])


# -- the new part ---------------------------------------------------------------------------------------------


def _from_region(state: RegionState, facts: Facts) -> Sections:
    """The sections that the region alone proves or quotes."""
    new = Sections()
    new.add("goal", state.goal)
    for constraint in state.constraints:
        new.add("constraints", clip_words(constraint, 300))
    if state.gates:
        new.add("constraints", clip_words(f"{_GATES_LABEL} {', '.join(f'`{check}`' for check in state.gates)}", 400))
    _add_done(new, state)
    _add_in_progress(new, state)
    for error in state.open_errors:
        new.add("blocked", error if len(error) <= 300 else error[:299] + "…")  # exact: the agent may search for it
    for decision in state.coordination:  # how the work was organised: the earliest choices, said first
        new.add("decisions", decision)
    for decision in _kept_decisions([d for d in state.decisions if not _LABEL_ONLY.match(d)], _LIMITS["decisions"]):
        new.add("decisions", decision)
    steer = steer_decision(state)  # the latest request, a question, set the course of the work it steered
    if steer:
        new.add("decisions", steer)
    _add_next(new, state)
    real = [turn.request for turn in state.turns if turn.request.strip()]
    # a request that only gave a rule to keep is said under Constraints
    said = [r for r in real[:-1]
            if not sets_work(r) and any(rule in r and standing(rule) for rule in state.constraints)]
    # the request a go-ahead resumed is In Progress: listed here as well it would read as finished ("— done")
    earlier = [r for r in real[:-1] if is_substantive(r) and r != state.goal_request and r not in said
               and not (state.resumed and r.strip() == state.resumed)]
    for request in earlier[-_EARLIER:]:
        new.add("critical", f"{_EARLIER_LABEL} {clip_words(request, _EARLIER_CHARS)}")
    if state.latest_request:
        new.add("critical", quote(_REQUEST_LABEL, state.latest_request, REQUEST_QUOTE))
    if state.last_answer:
        new.add("critical", quote(_ANSWER_LABEL, state.last_answer, ANSWER_QUOTE))
    if state.resolved_errors:
        new.add("critical", clip_words(f"{_RESOLVED_LABEL} {', '.join(state.resolved_errors)}", 300))
    for findings in state.open_reviews:  # (the first to go when room is short: the review is there to reread)
        new.add("critical", findings)
    if found := open_findings(state.turns):  # what the agent's answers listed as findings: open work, not Done
        new.add("critical", found)
    return new


def _add_done(new: Sections, state: RegionState) -> None:
    finished = [turn for turn in state.turns if turn.status == DONE and turn.request.strip() and left_something(turn)]
    pending = {id(turn): pending_step(state.turns, n) for n, turn in enumerate(state.turns) if turn.status == DONE}
    latest = {step_kinds(waits) or waits: key for key, waits in pending.items() if waits}  # one push serves both
    pending = {key: waits if latest.get(step_kinds(waits) or waits) == key else "" for key, waits in pending.items()}
    for turn in state.turns:
        named = [commit for commit in turn.commits if commit != UNNAMED_COMMIT]
        for number, commit in enumerate(named):
            waits = pending.get(id(turn)) if number == len(named) - 1 else ""
            new.add("done", f"{COMMITTED_LABEL} {commit}" + (f"{_PENDING_MARK}{waits}" if waits else ""))
    items: list[str] = []  # the finished requests' items, said after the tracker's (which skips what they say)
    after = {id(turn): state.turns[n + 1] for n, turn in enumerate(state.turns[:-1])}
    for turn in finished[-_FULL - _BRIEF:-_FULL]:  # older requests: one sentence each, naming the code it left
        brief = brief_done_item(turn) if not turn.commits else ""
        items += [brief] if brief else []
    for turn in finished[-_FULL:]:
        undo = after.get(id(turn))
        if undo is not None and undoes(undo.request):  # the user took it back: its work no longer stands
            items.append(undone_item(turn, undo))
        elif not turn.commits:
            found = done_items(turn)
            waits = pending.get(id(turn))
            items += [found[0] + f"{_PENDING_MARK}{waits}", *found[1:]] if waits and found else found
    for item in closed_items(state, items)[-_CLOSED:]:  # a closed sub-task is done whatever its request's state
        new.add("done", item)
    for item in asked_status_items(state)[-2:]:  # what a status table found, though its turn ends on a question
        new.add("done", item)
    for item in items:
        new.add("done", item)
    if state.edits_so_far and not new.items["done"]:
        # nothing else says what the work left (the request under way has no report yet): its edits, in the
        # agent's words at them, rather than a bare list of files
        new.add("done", f"{_SO_FAR_LABEL} " + "; ".join(f"“{said}”" for said in state.edits_so_far))
    if state.delegated:
        new.add("done", state.delegated)
    if state.modified:
        new.add("done", _files_item(dict(state.modified)))


def _file_actions(items: list[str]) -> dict[str, str]:
    """The changed files the items list, each with its last action, the last changed last."""
    actions: dict[str, str] = {}
    by_name: dict[str, list[str]] = {}  # file name -> the paths noted of it (an earlier summary's may be short)

    def note(path: str, action: str) -> None:
        kin = by_name.setdefault(path.rsplit("/", 1)[-1], [])
        for other in [other for other in kin if same_file(other, path)]:  # one file, as named then and now
            actions.pop(other, None)
            kin.remove(other)
        kin.append(path)
        actions[path] = action

    for item in items:
        single = _FILE_ITEM.match(item)
        if single:
            note(single.group(1), single.group(2))
        elif item.startswith(_FILES_LABEL):
            for line in item.splitlines()[1:]:
                group = _ACTION_LINE.match(line)
                for path in _QUOTED.findall(group.group(2)) if group else ():
                    note(path, group.group(1).strip())
    return actions


def _files_item(actions: dict[str, str]) -> str:
    """One Done item: the files grouped by their last action, each by its shortest name that tells it from the others
    (:mod:`.short_paths`: the <modified-files> list at the summary's end names them whole)."""
    groups: dict[str, list[str]] = {}
    kept = list(actions.items())[-_FILES:]
    names = short_names([path for path, _ in kept])
    for path, action in kept:
        groups.setdefault(action, []).append(f"`{names[path]}`")
    return "\n".join([_FILES_LABEL, *(f"  {action}: {', '.join(paths)}" for action, paths in groups.items())])


def _is_files(item: str) -> bool:
    return item.startswith(_FILES_LABEL) or bool(_FILE_ITEM.match(item))


def _add_in_progress(new: Sections, state: RegionState) -> None:
    for item in in_progress_items(state):
        new.add("in_progress", item)


def _add_next(new: Sections, state: RegionState) -> None:
    plan = _plan_line(state.plan.path, state.plan.open) if state.plan and state.plan.open else ""
    for step in next_items(state, plan):
        new.add("next", step)


def _plan_line(path: str, open_items: tuple[str, ...]) -> str:
    shown = [clip_words(item, 90) for item in open_items[:_PLAN_ITEMS]]
    more = f"; and {len(open_items) - len(shown)} more" if len(open_items) > len(shown) else ""
    return f"{_PLAN_LABEL}`{path}`: {'; '.join(shown)}{more}"


# -- merging --------------------------------------------------------------------------------------------------


def _merge(old: Sections, new: Sections, state: RegionState) -> Sections:
    """``old`` updated by ``new``, section by section (see the module docstring)."""
    merged = Sections(extra=old.extra)
    merged.items["goal"] = old.items["goal"][:1] or new.items["goal"][:1]
    moved_on = bool(state.latest_request)
    lapsed = set(state.replaced)  # an earlier rule naming a thing this part replaced no longer applies
    gates_now = any(rule.startswith(_GATES_LABEL) for rule in new.items["constraints"])
    old_rules = [rule for rule in old.items["constraints"] if not names_any(rule, lapsed)
                 and not (gates_now and rule.startswith(_GATES_LABEL))]  # the routine as the newest part kept it
    merged.items["constraints"] = _newest(old_rules + new.items["constraints"], _LIMITS["constraints"])
    merged.items["decisions"] = _kept_decisions(_unique(old.items["decisions"] + new.items["decisions"]),
                                                _LIMITS["decisions"])
    merged.items["done"] = _merge_done(old.items["done"], new.items["done"])
    merged.items["in_progress"] = new.items["in_progress"] if moved_on else _still_open(old, state)
    old_blocked = [item for item in old.items["blocked"] if not state.settles(item)]
    merged.items["blocked"] = _newest(old_blocked + new.items["blocked"], _LIMITS["blocked"])
    merged.items["next"] = new.items["next"] or old.items["next"]
    merged.items["critical"] = _merge_critical(old.items["critical"], new.items["critical"])
    return merged


_PICKED = re.compile(r"(?:The user chose|Agreed with the user: option \w{1,2}:)\s")
"""A decision that is the user's pick among ways the agent laid out: it binds the rest of the work."""
_LABEL_ONLY = re.compile(r"\W{0,3}\w+(?:\s{1,2}\w+){0,3}[:：]\W{0,3}$")
"""A decision that is only a label ("Solution approach:"), the list it headed left behind: it says nothing."""


def _kept_decisions(decisions: list[str], limit: int) -> list[str]:
    """The newest ``limit`` decisions, an older pick of the user's (:data:`_PICKED`) kept over newer decisions of
    other kinds: which way the user chose holds however much was decided since."""
    if len(decisions) <= limit:
        return decisions
    picks = {n for n, decision in enumerate(decisions) if _PICKED.match(decision)}
    picks = set(sorted(picks)[-limit:])
    others = [n for n in range(len(decisions)) if n not in picks]
    kept = picks | set(others[len(others) - (limit - len(picks)):] if limit > len(picks) else ())
    return [decision for n, decision in enumerate(decisions) if n in kept]


def _unique(items: list[str]) -> list[str]:
    """``items`` once each (the same words in another case or spacing are the same item), where first said."""
    return list({" ".join(item.split()).lower(): item for item in items}.values())


def _newest(items: list[str], limit: int) -> list[str]:
    return _unique(items)[-limit:]


def _still_open(old: Sections, state: RegionState) -> list[str]:
    """The previous in-progress items, unless the new part finished its last turn."""
    return [] if state.turns and state.latest_status == DONE else old.items["in_progress"]


def _merge_done(old: list[str], new: list[str]) -> list[str]:
    """Finished items, newest last; a file's latest action replaces its older one; the oldest collapse into a count."""
    collapsed, listing, others = 0, [], []
    for item in old + new:
        count = _COLLAPSED.match(item)
        if count:
            collapsed += int(count.group(1))
            listing.append(count.group(2).lstrip("…").strip())
        elif not _is_files(item) and item != f"{COMMITTED_LABEL} {UNNAMED_COMMIT}":  # (as earlier summaries said)
            others.append(item)
    actions = _file_actions([item for item in old + new if _is_files(item)])
    keep = _LIMITS["done"]
    dropped = others[:-keep] if len(others) > keep else []
    collapsed += len(dropped)
    listing += [_short_done(item) for item in dropped]
    listing = [part for part in listing if part]
    while len("; ".join(listing)) > 300 and len(listing) > 1:
        listing = listing[1:]  # the oldest names go first
    text = clip_words("; ".join(listing), 300)
    head = [f"Earlier finished ({collapsed}): {text}"] if collapsed else []
    return head + others[-keep:] + ([_files_item(actions)] if actions else [])


def _short_done(item: str) -> str:
    """A finished item in a few words, for the line that lists the oldest ones."""
    finished = re.match(r"^Finished “(.*?)” →", item, re.S) or re.match(r"(?>.*?\(asked: “)(.*?)”\)$", item, re.S)
    return clip_words(finished.group(1) if finished else item.removeprefix("Committed: "), 50)


def _merge_critical(old: list[str], new: list[str]) -> list[str]:
    """New quotes replace old ones (the old request becomes history); other items keep their newest."""
    replaced = {label for label in (_REQUEST_LABEL, _ANSWER_LABEL, _RESOLVED_LABEL)
                if any(item.startswith(label) for item in new)}
    history: list[str] = []
    kept: list[str] = []
    for item in old:
        if item.startswith(_REQUEST_LABEL) and _REQUEST_LABEL in replaced:
            text = " ".join(line.strip().lstrip(">").strip() for line in item.splitlines()[1:])
            history.append(f"{_EARLIER_LABEL} {clip_words(text, _EARLIER_CHARS)}")
        elif not any(item.startswith(label) for label in replaced):
            (history if item.startswith(_EARLIER_LABEL) else kept).append(item)
    history = _newest(history + [i for i in new if i.startswith(_EARLIER_LABEL)], _EARLIER)
    quotes = [i for i in new if not i.startswith(_EARLIER_LABEL)]
    kept = _newest(kept, _LIMITS["critical"])
    return history + [i for i in kept if i not in quotes] + quotes


# -- budget ---------------------------------------------------------------------------------------------------


def _focus_words(instructions: str) -> list[str]:
    return [w for w in (w.lower() for w in _WORD.findall(instructions)) if w not in _FOCUS_STOPWORDS]


_LOG_TRIM_LINES = 120
"""A work log of more lines than this is dropped whole when the summary runs over its budget, not a line at a time."""


def _shrink_steps(sections: Sections) -> list[Callable[[], int]]:
    """Ways to make the summary shorter, least harmful first; each returns about how many tokens it cut (0 when it
    has nothing left to cut)."""
    items = sections.items

    def drop_first(target: list[str], keep: int = 0, where: Callable[[str], bool] = lambda item: True,
                   from_end: bool = False):
        def step() -> int:
            order = range(len(target) - 1, -1, -1) if from_end else range(len(target))
            first = next((n for n in order if where(target[n])), None)
            if first is None or (keep and sum(map(where, target)) <= keep):
                return 0
            return text_tokens(target.pop(first)) + 1
        return step

    def shorten(label: str, limit: int):
        def step() -> int:
            for n, item in enumerate(items["critical"]):
                if not item.startswith(label):
                    continue
                text = "\n".join(line.strip()[2:] for line in item.splitlines()[1:])
                # measured without the "  > " of each line: a quote of many short lines stays longer than its
                # limit once quoted, and re-quoting it would never end
                if len(text) > limit + _CUT_MARK:
                    items["critical"][n] = quote(label, text, limit)
                    return max(1, text_tokens(item) - text_tokens(items["critical"][n]))
            return 0
        return step

    def drop_oldest_file() -> int:
        for n, item in enumerate(items["done"]):
            actions = _file_actions([item]) if item.startswith(_FILES_LABEL) else {}
            if len(actions) > 3:
                del actions[next(iter(actions))]
                items["done"][n] = _files_item(actions)
                return max(1, text_tokens(item) - text_tokens(items["done"][n]))
        return 0

    def trim_log() -> int:
        for n, item in enumerate(items["critical"]):
            if item.startswith(LOG_LABEL):
                # a line at a time is quadratic in the lines: a log longer than a budget's (a previous summary's,
                # however long) goes whole, as it did
                left = trimmed_log(item) if item.count("\n") <= _LOG_TRIM_LINES else ""
                items["critical"][n:n + 1] = [left] if left else []
                return max(1, text_tokens(item) - text_tokens(left))
        return 0

    def drop_repeated_step() -> int:
        found = repeated_step(items["next"])
        return text_tokens(items["next"].pop(found)) + 1 if found is not None else 0

    extra = [drop_first(lines) for lines in sections.extra.values()]
    return [
        drop_repeated_step,  # a step another one already says loses nothing
        trim_log,  # a line at a time, the oldest request's first: a few tokens over no longer cost the whole log
        drop_first(items["critical"], where=lambda i: i.startswith(RAN_LABEL)),
        drop_first(items["critical"], where=lambda i: i.startswith(MET_LABEL)),
        drop_first(items["critical"], where=lambda i: i.startswith(NAMES_LABEL)),
        drop_first(items["critical"], where=lambda i: i.startswith(READ_LABEL)),
        drop_first(items["critical"], where=lambda i: i.startswith(EARLIER_CHANGED_LABEL)),
        drop_first(items["critical"], where=lambda i: i.startswith(GIT_LABEL)),
        *extra,
        drop_first(items["critical"], where=lambda i: i.startswith(_EARLIER_LABEL)),
        drop_first(items["critical"], where=lambda i: i.startswith(_RESOLVED_LABEL)),
        drop_first(items["critical"], where=lambda i: not i.startswith((_REQUEST_LABEL, _ANSWER_LABEL))),
        drop_first(items["decisions"], keep=2),
        shorten(_ANSWER_LABEL, 700),
        drop_first(items["done"], keep=4, where=lambda i: not _is_files(i)),
        drop_oldest_file,
        shorten(_REQUEST_LABEL, 400),
        drop_first(items["blocked"], keep=2),
        drop_first(items["decisions"]),
        drop_first(items["constraints"], keep=4),
        shorten(_ANSWER_LABEL, 300),
        drop_first(items["in_progress"], where=lambda i: i.startswith(SUBJECT_LABEL)),
        drop_first(items["next"], keep=2, from_end=True),  # next steps come surest first: the last go first
        drop_first(items["done"], keep=1),
    ]


_SAME_STEP = 0.9
"""A step whose words are this share of an earlier step's says it again (the surest one comes first and stays)."""
_STEP_WORD = re.compile(r"[^\W_]{3,}")
_STEP_LABEL = re.compile(r"^[^:\n]{1,60}:\s")
"""A step's label ("Task still to do: ", "Fix: "): words every step of its kind shares, not what it says."""
_LABELS = 2
_STEP_FILLER = frozenset("the and for with that this from into then its are was were has have not".split())


def repeated_step(steps: list[str]) -> int | None:
    """The index of the last step that says again what an earlier step says (:data:`_SAME_STEP` of its words in
    that step), ``None`` when every step is its own."""
    seen: list[set[str]] = []
    found = None
    for number, step in enumerate(steps):
        said = step[:2000]
        for _ in range(_LABELS):  # "Then: Task still to do: …"
            said = _STEP_LABEL.sub("", said, count=1)
        words = {word.lower() for word in _STEP_WORD.findall(said)} - _STEP_FILLER
        if len(words) > 1 and any(len(words & earlier) >= _SAME_STEP * len(words) for earlier in seen):
            found = number
        else:
            seen.append(words)
    return found


def _whole_items(label: str, parts: list[str], limit: int) -> str:
    """``label`` and ``parts`` joined by "; " within ``limit`` characters, cut after a whole part ("; …" says more
    were left out), never inside one: of the first part that does not fit, its quoted error alone (“…”) when that
    fits; a first part longer than the limit alone is cut at a word."""
    kept: list[str] = []
    length = len(label)
    whole = 0
    for part in (one_line(part) for part in parts):
        if length + 2 + len(part) > limit - 3:  # room for "; …"
            quoted = part[: part.find("”") + 1] if part.startswith("“") else ""
            if quoted and length + 2 + len(quoted) <= limit - 3:
                kept.append(quoted)  # the error's own words, whole, without what the agent said of it
            break
        kept.append(part)
        whole += 1
        length += 2 + len(part)
    if not kept:
        return clip_words(f"{label} {'; '.join(parts)}", limit)
    return f"{label} {'; '.join(kept)}{'; …' if whole < len(parts) else ''}"


def _fit(sections: Sections, budget: int, draw: Callable[[], str]) -> str:
    """Render within ``budget`` tokens (0: no limit), cutting in the order of :func:`_shrink_steps`.

    The text is drawn again only when the running estimate says it may fit, not after every cut: a previous
    summary with thousands of lines would otherwise be rendered thousands of times (quadratic)."""
    text = draw()
    if budget <= 0:
        return text
    excess, drawn = text_tokens(text) - budget, True
    for step in _shrink_steps(sections):
        while excess > 0:
            cut = step()
            if not cut:
                break
            excess, drawn = excess - cut, False
            if excess <= 0:
                text, drawn = draw(), True
                excess = text_tokens(text) - budget
        if excess <= 0:
            break
    return text if drawn else draw()


def _focus_first(sections: Sections, focus: list[str]) -> None:
    """Items that match the user's focus come first in their section (and so are cut last)."""
    if not focus:
        return
    for key, items in sections.items.items():
        if key != "goal":
            items.sort(key=lambda item: not any(word in item.lower() for word in focus))


# -- the summarizer -------------------------------------------------------------------------------------------


class OfflineSummarizer:
    """pi's structured summary from the transcript alone: no network, no key, same input → same text.

    ``settings`` give the length budget (:meth:`CompactionSettings.length_budget`); a request's ``max_tokens``
    bounds it further. ``request.metadata["cwd"]``, when given, is the directory paths are named relative to;
    ``request.metadata["first_request"]``, the session's first request: the goal, stated the same way in every
    compaction however many follow (an earlier summary's goal is used when it is not given).
    """

    name = "offline"
    context_window = 10**9

    def __init__(self, settings: CompactionSettings | None = None) -> None:
        self.settings = settings or CompactionSettings()

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        messages = tuple(request.messages) if isinstance(request.messages, (tuple, list)) else ()
        if any(map(placeholder, messages)):  # the harness's "No response requested." is no word of the agent's,
            # though it ends the turn as an answer would (the user's next words are a new request)
            messages = tuple({**message, "content": []} if placeholder(message) else message for message in messages)
        input_tokens = sum(map(estimate_tokens, messages))
        previous = request.previous_summary if isinstance(request.previous_summary, str) else ""
        replaced = input_tokens + text_tokens(previous)
        budget = self._budget(request, replaced)
        metadata = request.metadata if isinstance(request.metadata, dict) else {}
        cwd = metadata.get("cwd") if isinstance(metadata.get("cwd"), str) else ""
        facts = extract_facts(messages)
        state = region_state(messages, facts, cwd)
        instructions = " ".join(request.instructions.split()) if isinstance(request.instructions, str) else ""
        if request.kind == "turn_prefix":
            text = self._turn_prefix(state, facts, budget)
        else:
            first = metadata.get("first_request") if isinstance(metadata.get("first_request"), str) else ""
            text = self._full(state, facts, previous, messages, request.kind == "branch", instructions, budget, first,
                              details=(cwd, detail_room(replaced, budget)))
        return SummaryResult(text, input_tokens=input_tokens, output_tokens=text_tokens(text), model="offline")

    def _budget(self, request: SummaryRequest, replaced_tokens: int) -> int:
        budget = self.settings.length_budget(replaced_tokens)
        limit = request.max_tokens
        if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
            budget = min(budget, limit)
        return budget

    def _full(self, state: RegionState, facts: Facts, previous: str, messages: tuple, branch: bool,
              instructions: str, budget: int, first_request: str = "", details: tuple[str, int] | None = None) -> str:
        old = _absorb_transcripts(parse(previous)) if previous.strip() else Sections()
        for role, summary in _embedded_summaries(messages):
            embedded = parse(strip_generated(summary) or "")
            old = _merge(old, _left_branch(embedded) if role == "branchSummary" else _without_goal(embedded),
                         _NOTHING_NEW)
        earlier_goal = old.items["goal"][:1]
        sections = _merge(old, _from_region(state, facts), state)
        for key in ("constraints", "decisions"):  # an earlier summary's rule or decision this region reversed
            sections.items[key] = not_reversed(sections.items[key], messages, earlier=old.items[key])
        _with_skills(sections.items["constraints"], skills_item(messages))
        _with_told(sections, told_errors(messages, facts.attempts), lambda: render(sections, LAYOUT, ()))
        sections.items["goal"] = [_goal(state, earlier_goal, first_request, earlier_intent(previous))]
        first_line = one_line(first_request)
        sections.items["critical"] = [  # the first request is quoted whole above the summary: no second copy
            item for item in sections.items["critical"] if not (
                first_line and item.startswith(_EARLIER_LABEL)
                and first_line.startswith(item[len(_EARLIER_LABEL):].strip().rstrip("…").strip()))]
        if branch:
            sections.items["goal"].insert(0, _BRANCH_INTRO)
        focus = _focus_words(instructions)
        _focus_first(sections, focus)
        focus_line = (f"Focus: {_FOCUS_PREFIX.sub('', instructions)}",) if instructions else ()
        if details:
            _within_room(sections.items["critical"], max(details[1], _EARLIER_ROOM),
                         lambda: render(sections, LAYOUT, focus_line))
            _asked_once(sections.items["done"], sections.items["critical"], sections.items["goal"])
            add_details(sections, messages, state, facts, details, lambda: render(sections, LAYOUT, focus_line),
                        _EARLIER_LABEL, _RESOLVED_LABEL)
        _with_status(sections.items["critical"], state.turns)
        as_of_then(sections.items["critical"], old.items["critical"], state)
        return _fit(sections, budget, lambda: render(sections, LAYOUT, focus_line))

    def _turn_prefix(self, state: RegionState, facts: Facts, budget: int) -> str:
        sections = Sections()
        request = state.latest_request or next((t.request for t in state.turns if t.request.strip()), "")
        sections.add("goal", bounded(request, REQUEST_QUOTE) if request else "(none)")
        new = _from_region(state, facts)
        for item in new.items["done"] + [f"Decision: {d}" for d in new.items["decisions"]]:
            sections.add("done", item)
        for item in [f"Constraint: {c}" for c in new.items["constraints"]] + \
                [f"Blocked: {b}" for b in new.items["blocked"]]:
            sections.add("critical", item)
        if state.last_answer:
            sections.add("critical", quote(_ANSWER_LABEL, state.last_answer, ANSWER_QUOTE // 2))
        return _fit(sections, budget, lambda: render(sections, TURN_LAYOUT))


def _with_skills(constraints: list[str], loaded: str) -> None:
    """The skills this region loaded (:mod:`.skills`) among the rules, in place of the list an earlier summary gave:
    the newest names them all again when the work reloads them, and the earlier list stays when it does not."""
    if loaded:
        constraints[:] = [rule for rule in constraints if not rule.startswith(SKILLS_LABEL)] + [loaded]


_DONE_MARK, _ANSWERED_MARK = " — done", " — answered"
_PENDING_MARK = " — done in code, pending a step outside it: "
"""A finished request whose work waits on a deploy, a release, a restart, a migration, a push or the user's check."""


def _with_status(critical: list[str], turns: tuple[Turn, ...]) -> None:
    """Each "Earlier request:" line of a request the region finished before the user moved on says so (" — done", or
    " — answered" for a question): quoted bare, an answered request reads as one still to do."""
    finished = {f"{_EARLIER_LABEL} {clip_words(turn.request, _EARLIER_CHARS)}": n
                for n, turn in enumerate(turns[:-1]) if turn.status == DONE and turn.request.strip()}
    for number, item in enumerate(critical):
        if item in finished:
            turn = turns[finished[item]]
            waits = pending_step(turns, finished[item])  # finished in code, not yet where it takes effect
            critical[number] = item + (_ANSWERED_MARK if turn.request.rstrip().endswith(("?", "？")) else
                                       f"{_PENDING_MARK}{clip_words(waits, 120)}" if waits else _DONE_MARK)


def _within_room(critical: list[str], room: int, draw: Callable[[], str]) -> None:
    """While the summary is over the room a short region leaves it, the oldest earlier requests beyond the newest
    :data:`_EARLIER_SURE` go, then the rest are cut to :data:`_EARLIER_SHORT` characters, oldest first (a summary of
    a few messages is no place for a dozen of the user's older words)."""
    earlier = [n for n, item in enumerate(critical) if item.startswith(_EARLIER_LABEL)]
    while len(earlier) > _EARLIER_SURE and text_tokens(draw()) > room:
        del critical[earlier.pop(0)]
        earlier = [n - 1 for n in earlier]
    for n in earlier:  # then the oldest are cut to a line
        if text_tokens(draw()) <= room:
            return
        critical[n] = clip_words(critical[n], len(_EARLIER_LABEL) + 1 + _EARLIER_SHORT)


_ASKED = " (asked: “"
"""What opens the request a Done item names at its end (:func:`.progress.done_item`)."""


def _asked_once(done: list[str], critical: list[str], goal: list[str]) -> None:
    """Each Done item without the request it names when the user's words are quoted already (the goal, an "Earlier
    request:" line, the last request verbatim): the item says what the work left, the quote which request it was; said twice,
    the request takes the room of the details the region would add. An item that says nothing else keeps it."""
    quoted = " ".join(" ".join(line.strip().removeprefix(">").strip() for line in item.splitlines())
                      for item in [*goal, *critical] if item in goal or item.startswith((_EARLIER_LABEL, _REQUEST_LABEL)))
    for number, item in enumerate(done):
        left, opened, asked = item.rpartition(_ASKED)
        words = " ".join(asked.removesuffix("”)").rstrip("…").split()) if opened and item.endswith("”)") else ""
        if words and words in quoted and left.strip() not in ("", "answered"):
            done[number] = left.strip()


def _goal(state: RegionState, merged: list[str], first_request: str, intent: str = "") -> str:
    """The objective (:func:`_objective`) and what the user asks for now (:func:`.goal.with_now`): the short request
    that moved the work on last (:func:`_moved_on`), else the latest that states work of its own (the earlier ones
    are quoted under Critical Context). An objective whose work was finished and committed in the region says so,
    so that the next agent does not take it up again."""
    picked = picked_work([(turn.request, before.final_answer) for before, turn in zip(state.turns, state.turns[1:])])
    if picked:
        return picked  # the user took up one of the tasks the agent proposed: the finished objective is history
    objective = _objective(state, merged, first_request, intent)
    now = _undo_now(state.turns) or _moved_on(state.turns, bool(state.mid_work)) or _later(state, state.goal_now)
    if now and _finished_since(state.turns, now):
        now = f"{now}{_NOW_DONE_MARK}"  # answered: the user's latest ask, not work still to do
    if now and objective == state.goal and _committed(state.turns, state.goal_request):
        objective = f"{objective}{_FINISHED_MARK}"  # history, said as such: the "now" is the objective
    elif now and objective not in now and moves_on(now) and names_a_stage(objective):
        return now  # the user moved on ("now Phase 30", a new plan file): the earlier stage is no goal any more
    return with_now(objective, now)


def _later(state: RegionState, now: str) -> str:
    """``now`` unless it comes from a request before the goal's own (a question-only request the goal passed over
    for the work a later reply set): what the user asks for now is never older than the objective."""
    if not now or not state.goal_request:
        return now
    flat = [" ".join(turn.request.split()) for turn in state.turns]
    goal = next((n for n, request in enumerate(flat) if request == " ".join(state.goal_request.split())), -1)
    said = " ".join(now.rstrip("…").split())
    at = max((n for n, request in enumerate(flat) if said and said in request), default=len(flat))
    return "" if at < goal else now


def _finished_since(turns: tuple[Turn, ...], now: str) -> bool:
    """True when the request ``now`` quotes (the latest that does) and every turn after it are finished
    (:data:`.state.DONE`), the last reporting it done (:func:`.state.reports_done`, not only handing back): the
    region ends with that request answered and nothing asked since."""
    said = " ".join(now.rstrip("…").split())
    at = max((n for n, turn in enumerate(turns) if said and said in " ".join(turn.request.split())), default=None)
    return at is not None and all(turn.status == DONE for turn in turns[at:]) and reports_done(turns[-1])


def _undo_now(turns: tuple[Turn, ...]) -> str:
    """The user's latest request when it takes back the finished work of the turn before (:func:`.progress.undoes`):
    the objective stands, and what the user asks for now is its undoing. (Taking back unfinished work replies to
    it: :func:`_moved_on` and the state tell which request that work served.)"""
    if len(turns) < 2 or turns[-1].reply or turns[-2].status != DONE or not undoes(turns[-1].request):
        return ""
    return request_clause(turns[-1].request, _MOVED_ON_CHARS)


_MOVED_ON_CHARS = 160
_FINISHED_MARK = " (done and committed)"
_NOW_DONE_MARK = " (done)"


def _moved_on(turns: tuple[Turn, ...], working: bool) -> str:
    """The user's latest request when it is too short to state work of its own (:func:`.goal.sets_work`: the state's
    "now" passes over it) and yet moves the work on: "go ahead with phase 1", "次のフェーズへ", a command the user
    ran. Told by where it stands, not by its words: after a turn that finished (not steering work under way), and
    the agent worked on it (changed files, committed, or was still at it when the region ends). An answer to the
    question the agent asked once its work was committed ("Phase 2 is committed. Shall I add the PDF export?")
    counts too: a bare "yes" (in any language) then stands for the proposal it accepts, when files changed after
    it (a "yes" to "Want me to push?" moves nothing on). ``""`` when no such request is the latest."""
    worked_after = False
    for number in range(len(turns) - 1, 0, -1):
        turn, before = turns[number], turns[number - 1]
        request = " ".join(turn.request.split())
        last = number == len(turns) - 1
        changed = worked_after or bool(turn.changed or turn.commits)
        worked = changed or (last and working)
        command = request.startswith(COMMAND_PREFIX)
        short = word_count(request) < NUDGE_WORDS or approves(request, before.final_answer)
        asked = closing_question(before.final_answer) if before.commits and before.status in (DONE, ASKED) else ""
        if asked and (turn.reply or short):  # the agent asked what comes next once its work was in
            if not short:
                return request_clause(turn.request, _MOVED_ON_CHARS)
            agreed = accepted_proposal(before.final_answer, request) or f"{asked} — “{request}”"
            return clip_words(agreed, _MOVED_ON_CHARS) if changed else ""  # new work, not a push it agreed to
        if turn.reply or (short and not command) or only_asks(request) or gives_rules_only(request):
            worked_after = worked  # it serves the request before it (rules only are kept as constraints)
            continue
        if sets_work(request) or not (command or (before.status == DONE and (worked or moves_on(request)))):
            return ""
        # (a command run bare: what the agent took up under it, "PR #23, which conflicts")
        return command_subject(turn.request, "\n\n".join(turn.texts[:2])) or request_clause(turn.request, _MOVED_ON_CHARS)
    return ""


def _committed(turns: tuple[Turn, ...], request: str) -> bool:
    """The turn of ``request`` committed its work and handed back with nothing left open (reporting it done, or
    asking what comes next)."""
    return any(turn.request.strip() == request.strip() and turn.status in (DONE, ASKED) and turn.commits
               for turn in turns)


def _objective(state: RegionState, merged: list[str], first_request: str, intent: str = "") -> str:
    """The current objective: one the user stated in this region; else the earlier summary's; else the session's
    first request that asks for work; else this region's first request; else, in a region without any, the
    objective an earlier summary in a model's numbered layout states (:func:`.intent.earlier_intent`).

    (That intent serves only where the region holds no request: put before the region's own requests, it was
    the older aim where the user had moved on, and on the calibration half it lost five facts for one gained.)"""
    if state.goal_stated or not (merged or first_request):
        fallback = next((t.request for t in state.turns if t.request.strip()), "")
        return state.goal or (clip_words(fallback, 300) if fallback else intent or "(no user request in this part)")
    if merged:
        return merged[0]
    return task_goal(first_request) if is_substantive(first_request) and task_goal(first_request) else \
        state.goal or clip_words(first_request, 300)


def _absorb_transcripts(sections: Sections) -> Sections:
    """A pruned summary's condensed transcript is not pasted on: its user lines give rules and earlier requests."""
    for heading in [h for h in sections.extra if h.lower().endswith("condensed transcript")]:
        lines = sections.extra.pop(heading)
        requests = [line[len("[User]: ") :] for line in lines if line.startswith("[User]: ")]
        for request in requests:
            for rule in constraint_sentences(request):
                sections.add("constraints", clip_words(rule, 300))
        for request in [r for r in requests if is_substantive(r)][-_EARLIER:]:
            sections.add("critical", f"{_EARLIER_LABEL} {clip_words(request, _EARLIER_CHARS)}")
    return sections


_NOTHING_NEW = RegionState("", "", (), "", "", "", (), (), (), (), ())
"""The state of an empty region: merging an embedded summary with it changes nothing of the region's."""


def _with_told(sections: Sections, told: Told, draw: Callable[[], str]) -> None:
    """The errors told in words (:mod:`.told`) the summary does not say yet: the open ones Blocked, the settled ones
    one line."""
    told = unsaid(told, draw(), _EARLIER_LABEL)
    sections.items["blocked"].extend(clip_words(line, 300) for line in told.open)
    if told.settled:
        sections.items["critical"].append(_whole_items(SETTLED_LABEL, list(told.settled), 560))


def _embedded_summaries(messages: tuple[Any, ...]) -> list[tuple[str, str]]:
    """``(role, text)`` of the branch and compaction summaries inside the region: earlier summaries whose items
    must survive too."""
    return [(m["role"], m["summary"]) for m in messages if isinstance(m, dict) and m.get("role") in
            ("branchSummary", "compactionSummary") and isinstance(m.get("summary"), str) and m["summary"].strip()]


def _without_goal(embedded: Sections) -> Sections:
    embedded.items["goal"] = []
    return embedded


def _left_branch(embedded: Sections) -> Sections:
    """What a branch the user left tells this path: its rules and decisions, and one line saying what was tried
    there. Its Done, In Progress and Next Steps are not this path's: the work was left behind with the branch."""
    goals = [goal for goal in embedded.items["goal"] if goal != _BRANCH_INTRO]
    done = [_short_done(item) for item in embedded.items["done"] if not _is_files(item)]
    tried = clip_words(goals[0], 200) if goals else "(no goal stated)"
    line = f"{_LEFT_LABEL} {tried}" + (f" — done there: {clip_words('; '.join(done), 200)}" if done else "")
    left = Sections()
    left.items["constraints"] = embedded.items["constraints"]
    left.items["decisions"] = [f"{decision} (on the left branch)" for decision in embedded.items["decisions"]]
    left.add("critical", line)
    return left


__all__ = ["OfflineSummarizer", "bounded", "one_line", "quote"]
