"""Faults a summary can have that precision and staleness do not see, each a class of case seen on real sessions
of other agents (issue 20): a call the user declined reported as an error, a stale goal, a request already
answered given as the next step, a finished request or a replaced thing kept as a rule, a settled decision lost,
progress told as a quote of the request, a value cut inside, a file list holding non-files or files deleted or
moved away, a heading quoted from the transcript kept as a section, and an abandoned path's failure reported as
done.

Like the rest of the scorer it reads only the region and the summary text, with patterns of its own: it shares no
code with the summarizers it grades. ``said`` is the region as :class:`~.quality.RegionIndex` lists it (items with
``role``, ``text``, ``failed`` and ``target``, and a user message's ``own`` words: what the user said is read there,
so a rule or a goal found in pasted material is not the user's, see :mod:`.userwords`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

CHANGING_TOOLS = ("edit:", "write:", "multiedit:", "multi_edit:", "str_replace:", "edit_file:", "write_file:",
                  "notebookedit:", "apply_patch:")
"""How the call target of a tool that changes a file begins (``name:path``; Claude Code's are "Edit", "Write")."""

_DECLINED = re.compile(
    r"\b(?:the user|user|you)\b[^.\n]{0,60}?\b(?:reject(?:ed|s)?|declin(?:ed|es)?|den(?:y|ied|ies)|refus(?:ed|es)?"
    r"|blocked|(?:doesn'?t|does not|don'?t|do not|did not|didn'?t) (?:want|approve|allow|permit|accept))\b"
    r"|\b(?:rejected|declined|denied|refused|blocked)\s+by\s+(?:the\s+)?user\b",
    re.I,
)
_OPEN_WORDS = re.compile(r"\b(?:fail(?:ed|s|ure)?|error|blocked|fix|retry|broken)\b", re.I)
_GOAL_STATED = re.compile(
    r"\b(?:(?:the|our|my|main|current) (?:goal|objective|focus|priority)(?: of (?:this|the) \w+)? (?:now )?(?:is|will be)"
    r"|is (?:the|our) (?:main )?(?:focus|goal|priority)|focus on|let'?s (?:now )?(?:switch|move on) to|change of plans?"
    r"|new task|forget (?:about )?(?:that|the \w+))\b",
    re.I,
)
_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)
_COMMON = frozenset("""this that with from have will would should could please then them they there what when which
    your about into also just more only some such than very make sure want need like phase focus goal main current
    now lets let's where while continue continued stopped agent""".split())
"""Words that name no content: glue, and the words a summary frames a step with ("Continue where the agent
stopped: …"), so a resume prompt ("Continue from where you left off") matches no step by them alone."""
_TROUBLE = re.compile(
    r"\b(?:still (?:fail\w*|broken)|could ?n[o']t|unable to|does ?n[o']t work|not working|oh wait|hmm|wait,"
    r"|(?:errors?|failures?) (?:remain|persist|look like)|the (?:problem|issue) is|mismatch\w*"
    r"|let me|i'?ll (?:now )?(?:fix|check|look|try|run|add|update)|now i(?:'ll| will| need))\b",
    re.I,
)
WAITING = re.compile(r"wait for the user'?s next request|nothing (?:is )?(?:left|pending)|all (?:work )?(?:is )?done"
                     r"|\bno (?:\w+ )?pending (?:tasks?|work)\b", re.I)
"""A next step that only says to wait: nothing checkable, but wrong when work is left."""
_LASTING = re.compile(
    r"\b(?:never|always|don'?t|do not|must(?: ?n[o']t)?|no more than|at most|only|avoid|from now on|unchanged|alone"
    r"|make sure|ensure|required?|by default|default(?:s)? to)\b"
    r"|不要|别|永远|始终|总是|禁止|只能",
    re.I,
)
_FINISHED = re.compile(r"\b(?:done|finished|complete[d]?|fixed|implemented|added|created|updated|committed|now)\b"
                       r"|✅", re.I)
_REPLACED = re.compile(
    r"\b(?:replac\w*|remov\w*|renam\w*|delet\w*|drop\w*|got rid of)\s+(?:the\s+)?`?([A-Za-z_][\w.-]{2,60})`?"
    r"|`?(?<![A-Za-z_])([A-Za-z_][\w.-]{2,60})`?\s+(?:is|was|has been)\s+(?:now\s+)?"
    r"(?:replaced|removed|renamed|gone|deleted)\b",
    re.I,
)
_REPLACED_WORD = re.compile(r"replac|remov|renam|delet|drop|got rid|gone", re.I)
"""A word every match of :data:`_REPLACED` holds."""
_CODE_NAME = re.compile(r"[a-z][A-Z]|_|\.\w")
_PROPOSAL = re.compile(r"\b(?:shall I|should I|want me to|would you like|do you want|I (?:suggest|propose|recommend)"
                       r"|I'?d (?:suggest|recommend)|option \w+)\b", re.I)
_APPROVAL = re.compile(r"^\W{0,3}(?:yes|yep|yeah|sure|ok(?:ay)?|sounds good|agreed|go ahead|do it|please do|lgtm)\b",
                       re.I)
_CHEER = re.compile(r"^\W*(?:perfect|great|excellent|awesome)\b|successfully completed", re.I)
_CLOSED_ARROW = re.compile(r"”\s*→")
_HEADING_LINE = re.compile(r"^[ \t]{0,3}(#{1,6})[ \t]+(\S[^\n]*)$", re.M)
"""A Markdown heading line; its title is cut by :func:`_title` (a lazy title before trailing spaces and the line's
end backtracked: quadratic in the spaces of a line that is no heading)."""


def _title(heading: re.Match[str]) -> str | None:
    """The heading's title without trailing spaces, or ``None`` past 121 characters (a paragraph, not a title)."""
    title = heading.group(2).rstrip()
    return title if len(title) <= 121 else None


_PI_HEADINGS = re.compile(r"goal|constraint|preference|progress|done|in progress|blocked|decision|next|critical"
                          r"|context|original request|early progress|suffix|condensed transcript", re.I)
_FILE_OPEN = re.compile(r"<(read-files|modified-files)>\n")
_DELETE = re.compile(r"(?:^|&&|;|\|)\s*(?:git\s+)?rm\s+(?:-\w+\s+)*([^\s;&|]+)")
_COPY = re.compile(r"(?:^|&&|;|\|)\s*cp\s+(?:-\w+\s+)*([^\s;&|]+)\s+([^\s;&|]+)")
_MOVE = re.compile(r"(?:^|&&|;|\|)\s*(?:git\s+)?mv\s+(?:-\w+\s+)*([^\s;&|]+)\s+([^\s;&|]+)")
FAULT_COST = 0.2
"""What one fault takes off a summary's score: more than the line holding it could add to its recall (a wrong
claim is not paid for by the words it happens to share with the region)."""


@dataclass(frozen=True)
class Fault:
    """One fault of a summary: its class, the line reported, and what identifies the summary item it is about
    (its line, and the thing it names: a declined write is one item as a blocker and in the file list)."""

    kind: str
    text: str
    keys: tuple[str, ...]


_MARKS = re.compile(r"^(?:[-*+•>]\s+|\d{1,3}[.)]\s+|\[[ xX✓]?\]\s*)+")


def item_key(text: str) -> str:
    """A summary item's line as every check spells it: without its bullet, number, box, emphasis and case."""
    line = _MARKS.sub("", text.strip().replace("**", "").replace("`", ""))
    return " ".join(line.lower().split()).rstrip(".:;")[:100]


def _fault(kind: str, text: str, *items: str) -> Fault:
    return Fault(kind, text, tuple(key for key in (item_key(item) for item in items) if key))


def _quoted_pair(line: str) -> bool:
    """A “quote” of three characters or more, then an arrow (as ``“[^”]{3,}”\\s*→`` finds, in one pass)."""
    for arrow in _CLOSED_ARROW.finditer(line):
        quoted = line[line.rfind("”", 0, arrow.start()) + 1 : arrow.start()]
        opening = quoted.find("“")
        if opening >= 0 and len(quoted) - opening - 1 >= 3:
            return True
    return False


def _file_blocks(summary: str) -> list[tuple[str, str]]:
    """``(kind, body)`` of each ``<read-files>``/``<modified-files>`` block, as ``findall`` of
    ``<(read-files|modified-files)>\\n(.*?)\\n</\\1>`` (re.S) finds them, each closing tag looked for once."""
    blocks: list[tuple[str, str]] = []
    unclosed: set[str] = set()
    position = 0
    while opening := _FILE_OPEN.search(summary, position):
        kind = opening.group(1)
        end = -1 if kind in unclosed else summary.find(f"\n</{kind}>", opening.end())
        if end < 0:
            unclosed.add(kind)  # no later opening of this kind is closed either
            position = opening.start() + 1
            continue
        blocks.append((kind, summary[opening.end() : end]))
        position = end + len(kind) + 4
    return blocks


def _words(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(text.lower()) if w not in _COMMON}


def _sections(summary: str) -> dict[str, list[str]]:
    """The summary's lines under each ``#`` heading (lower-cased title), quoted and indented lines included."""
    found: dict[str, list[str]] = {}
    current: list[str] = found.setdefault("", [])
    for line in summary.splitlines():
        heading = _HEADING_LINE.match(line) if not line.startswith((" ", "\t")) else None
        title = _title(heading) if heading else None
        if title is not None:
            current = found.setdefault(title.lower(), [])
        elif line.strip():
            current.append(line.strip())
    return found


def _under(sections: dict[str, list[str]], *words: str) -> list[str]:
    return [line for title, lines in sections.items() if any(w in title for w in words) for line in lines]


def asked_last(said: Sequence[Any], item: str) -> bool:
    """True when ``item`` is a question the agent's last words ask the user: open by definition, however finished
    the work it mentions."""
    question = item.rsplit(":", 1)[-1].strip() if ":" in item else item.strip()
    if not question.endswith("?") or len(question) < 12:
        return False
    last = next((s.text for s in reversed(said) if s.role == "assistant" and s.text.strip()), "")
    return " ".join(question.split()) in " ".join(last.split())


def find_faults(said: Sequence[Any], summary: str, labels: Any = None) -> tuple[str, ...]:
    """The faults of ``summary`` against the region ``said`` (see the module docstring), one line each."""
    return tuple(fault.text for fault in summary_faults(said, summary, labels))


def summary_faults(said: Sequence[Any], summary: str, labels: Any = None) -> tuple[Fault, ...]:
    """The faults of ``summary`` with the items they are about (see :func:`find_faults`)."""
    sections = _sections(summary)
    faults: list[Fault] = []
    for check in (_declined_as_errors, _stale_goal, _answered_next, _lapsed_rules, _lost_decision,
                  _quoted_progress, _bad_files, _quoted_headings, _failure_reported_done):
        faults.extend(check(said, summary, sections, labels))
    return tuple(faults)


def wrong_items(findings: Iterable[tuple[str, str, tuple[str, ...]]]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The summary items ``findings`` (each ``(class, line, keys)``) find wrong, each once: findings that share a
    key (one line, or one thing two lines name) are one item, with the classes it shows (one per finding), so one
    bad line is counted once however many checks it fails."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    listed = []
    for number, (kind, line, keys) in enumerate(findings):
        keys = keys or (f"#{number}",)  # a finding about no item of the summary (a decision left out) is its own
        for key in keys[1:]:
            parent[root(key)] = root(keys[0])
        listed.append((kind, line, keys[0]))
    groups: dict[str, list[tuple[str, str]]] = {}
    for kind, line, key in listed:
        groups.setdefault(root(key), []).append((kind, line))
    return tuple((found[0][1], tuple(kind for kind, _ in found)) for found in groups.values())


def _declined_targets(said: Sequence[Any]) -> list[str]:
    return [s.target.split(":", 1)[-1] for s in said
            if s.role == "result" and s.target and _DECLINED.search(s.text[:400])]


def _written_targets(said: Sequence[Any]) -> set[str]:
    """Files a write or edit of the region changed: a file the user declined once and let through later is
    modified."""
    return {s.target.split(":", 1)[-1] for s in said
            if s.role == "result" and s.tool and s.target.lower().startswith(CHANGING_TOOLS) and not s.failed
            and not _DECLINED.search(s.text[:400])}


def _same_file(listed: str, path: str) -> bool:
    """A file list's entry (often relative to the session's folder) names ``path``: one ends with the other at a
    "/" (two files of one basename in different folders are not the same file)."""
    if not listed or not path:
        return False
    shorter, longer = sorted((listed.lstrip("./"), path.lstrip("./")), key=len)
    return longer == shorter or longer.endswith("/" + shorter)


def _declined_as_errors(said, summary, sections, labels) -> list[str]:
    found = []
    targets = [t for t in _declined_targets(said) if t.strip()]
    written = _written_targets(said)
    open_lines = _under(sections, "block", "next", "progress", "error", "issue")
    for target in targets:
        name = target.strip().rsplit("/", 1)[-1][:60]
        for line in open_lines:
            if name in line and _OPEN_WORDS.search(line):
                found.append(_fault("declined as an error", f"declined call reported as an error or a fix: "
                                    f"{line[:120]}", line, f"declined {target}"))
        for kind, block in _file_blocks(summary):
            if kind == "modified-files" and target not in written and any(
                    _same_file(entry.strip(), target.strip()) for entry in block.splitlines()):
                found.append(_fault("declined write as modified", f"declined write listed as modified: {name}",
                                    f"declined {target}"))
    return found


def _stale_goal(said, summary, sections, labels) -> list[str]:
    goal = " ".join(_under(sections, "goal", "objective"))
    if not goal:
        return []
    if labels is not None and getattr(labels, "source", {}).get("goal", {}).get("keys"):
        keys = labels.source["goal"]["keys"]
        hit = any(re.search(rf"(?<!\w){re.escape(k)}(?!\w)", goal, re.I) for k in keys)
        return [] if hit else [_fault("stale goal", f"stale goal (not the labelled one): {goal[:120]}", goal)]
    stated = [s.own for s in said if s.role == "user" and _GOAL_STATED.search(s.own)]
    if not stated:
        return []
    latest = next(sentence for sentence in reversed(re.split(r"(?<=[.!?])\s+|\n+", stated[-1]))
                  if _GOAL_STATED.search(sentence))
    wanted = _words(latest)
    if wanted and len(wanted & _words(goal)) * 2 < len(wanted):
        return [_fault("stale goal", f"stale goal (the user's latest is “{latest[:80]}”): {goal[:120]}", goal)]
    return []


def _turns(said: Sequence[Any]) -> list[tuple[str, list[Any]]]:
    """Per user message, the user's own words (what it pastes is no request) and what followed it."""
    turns: list[tuple[str, list[Any]]] = []
    for item in said:
        if item.role == "user":
            turns.append((item.own, []))
        elif turns:
            turns[-1][1].append(item)
    return turns


def _answered(work: list[Any]) -> bool:
    """The agent ended the turn on text, with no question, no trouble and no failure after it."""
    if not work or work[-1].role != "assistant":
        return False
    last = work[-1].text.strip()
    return bool(last) and not last.endswith("?") and not _TROUBLE.search(last)


def _answered_next(said, summary, sections, labels) -> list[str]:
    found = []
    steps = _under(sections, "next")
    latest = {request.strip(): work for request, work in _turns(said)}  # a request sent again counts once, last
    asked = [(_words(request), _answered(work)) for request, work in latest.items()]
    for number, (wanted, answered) in enumerate(asked):
        if len(wanted) < 3 or not answered:
            continue
        for step in steps:
            share = _share(wanted, _words(step))
            if share >= 0.6 and not WAITING.search(step) and not _open_later(asked[number + 1:], step, share):
                found.append(_fault("answered as next", f"answered request given as the next step: {step[:120]}",
                                    step))
    return found


def _share(wanted: set[str], words: set[str]) -> float:
    return len(wanted & words) / len(wanted) if wanted else 0.0


def _open_later(later: list[tuple[set[str], bool]], step: str, share: float) -> bool:
    """A later request, still open, the step names as well as the answered one: the step is that request's work,
    which carries on the answered one's subject ("harden gitleaks for this repo", answered; then "rewrite history,
    scrub the repo of secrets" under way: "verify the repo's history is clean with gitleaks")."""
    words = _words(step)
    return any(not answered and len(wanted) >= 3 and _share(wanted, words) >= min(share, 0.6)
               for wanted, answered in later)


def _replaced(said: Sequence[Any]) -> set[str]:
    names = set()
    for item in said:
        if item.role in ("user", "assistant"):
            text = (item.own if item.role == "user" else item.text)[:20_000]
            if not _REPLACED_WORD.search(text):  # read for names only where a match's verb stands: most texts hold none
                continue
            for match in _REPLACED.finditer(text):
                name = (match.group(1) or match.group(2) or "").rstrip(".-")
                if _CODE_NAME.search(name):
                    names.add(name.lower())
    return names


def _lapsed_rules(said, summary, sections, labels) -> list[str]:
    found = []
    rules = _under(sections, "constraint", "preference", "rule")
    replaced = _replaced(said)
    turns = _turns(said)
    for rule in rules:
        text = re.sub(r"^[-*•]\s+", "", rule)
        if any(re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text.lower()) for name in replaced):
            found.append(_fault("replaced rule", f"rule naming a replaced thing: {text[:120]}", rule))
            continue
        for number, (request, work) in enumerate(turns[:-1]):
            if len(text) >= 20 and text[:60] in request and not _LASTING.search(text) and work \
                    and work[-1].role == "assistant" and _FINISHED.search(work[-1].text[:400]):
                found.append(_fault("finished rule", f"finished request kept as a rule: {text[:120]}", rule))
                break
    return found


def _lost_decision(said, summary, sections, labels) -> list[str]:
    """The agent's proposal the user then accepted is a decision: the summary must say it somewhere."""
    kept = _words(summary)
    for before, after in zip(said, said[1:]):
        picked = _picked_option(before.text, after.own) if before.role == "assistant" else ""
        if before.role == "assistant" and after.role == "user" and (picked or _APPROVAL.match(after.own)):
            proposals = [picked] if picked else [
                s for s in re.split(r"(?<=[.!?])\s+|\n+", before.text[-1500:]) if _PROPOSAL.search(s)]
            wanted = _words(" ".join(proposals[-1:]))
            if len(wanted) >= 2 and len(wanted & kept) * 2 < len(wanted):
                return [_fault("lost decision", "a proposal the user accepted is not in the summary: "
                               f"{proposals[-1][:120].strip()}")]
    return []


_KEY_PICK = re.compile(r"^\W{0,3}(?:(?:yes|yep|yeah|sure|ok(?:ay)?)\b\W{1,3})?(?:(?:let'?s|i'?ll|we'?ll)\s{1,3})?"
                       r"(?:go with|go for|pick|take|choose)?\s{0,3}(?:the\s{1,3})?(?:option|approach|choice)?\s{0,3}"
                       r"([A-Ha-h1-9])\W{0,3}(?:please)?\W{0,3}$", re.I)
"""A reply that picks an option by its key alone ("yes lets go with c", "2", "option B please")."""


def _picked_option(answer: str, reply: str) -> str:
    """The line of ``answer`` that labels the option ``reply`` picks by its key ("Approach C — Co-located …"), the
    decision the user took; ``""`` when the reply picks no key or no line labels it."""
    pick = _KEY_PICK.match(" ".join(reply.split()))
    if not pick:
        return ""
    key = re.escape(pick.group(1))
    label = re.compile(rf"^\W{{0,8}}(?:\w{{1,12}}\s{{1,2}})?{key}\s{{0,2}}(?:[.):：]|[—–-]\s)\s{{0,3}}\S", re.I)
    lines = [line for line in answer[-6000:].splitlines() if label.match(line.replace("**", "").strip())]
    return lines[-1].replace("**", "").strip() if lines else ""


def _quoted_progress(said, summary, sections, labels) -> list[str]:
    found = []
    for line in _under(sections, "done", "progress", "complete"):
        if _quoted_pair(line) or _CHEER.search(re.sub(r"^[-*]\s+(?:\[x\]\s+)?", "", line)):
            found.append(_fault("quoted progress", f"progress told as a quote, not the state it left: {line[:120]}",
                                line))
        elif line.count("`") % 2:
            found.append(_fault("cut value", f"a value cut inside its quotes: {line[:120]}", line))
    return found


def file_acts(command: str) -> list[tuple[str, str, str]]:
    """``(act, path, destination)`` of each ``rm`` (act ``deleted``), ``mv`` (``moved``) and ``cp`` (``copied``)
    of a shell command, ``git`` ones included; the destination of a deletion is empty."""
    acts = [("deleted", _unquoted(m.group(1)), "") for m in _DELETE.finditer(command)]
    acts += [("moved", _unquoted(m.group(1)), _unquoted(m.group(2))) for m in _MOVE.finditer(command)]
    acts += [("copied", _unquoted(m.group(1)), _unquoted(m.group(2))) for m in _COPY.finditer(command)]
    return [act for act in acts if act[1] and not act[1].startswith("-")]


def _unquoted(word: str) -> str:
    return word.strip("'\"").rstrip("/")


def _gone(said: Sequence[Any]) -> dict[str, dict[str, str]]:
    """The paths whose last event in the region is a deletion or the source of a move, by their last part (last
    part → path → act): written, moved back or named by a later command, a path is there again. Looked up by
    last part, so no event is compared with every path gone before it."""
    gone: dict[str, dict[str, str]] = {}
    for item in said:
        if item.role == "command":
            acts = file_acts(item.text)
            for act, path, destination in acts:
                if act != "copied":
                    gone.setdefault(_last(path), {})[path] = act
                _back(gone, destination)
            if not acts:  # searched once per command, not once per word of it
                for word in item.text.split():
                    _back(gone, _unquoted(word))
        elif item.role == "call" and item.target:
            _back(gone, item.target)
    return gone


def _last(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _back(gone: dict[str, dict[str, str]], path: str) -> None:
    """``path`` is there again: it is no longer gone."""
    same = gone.get(_last(path)) if path else None
    for known in [known for known in same or () if _same_file(known, path)]:
        del same[known]


def _gone_act(gone: dict[str, dict[str, str]], entry: str) -> str | None:
    """The act that took ``entry`` away: its own, or that of a folder holding it (a folder of two parts or more
    when the paths compared are relative, so a deleted ``/tmp/x/src`` is no ``src/…`` of the project)."""
    parts = _relative(entry).split("/")
    for end in range(len(parts), 0, -1):
        prefix = "/".join(parts[:end])
        for known, act in (gone.get(parts[end - 1]) or {}).items():
            if _relative(known) == prefix or (known.startswith(("/", "~")) and (end == len(parts) or end > 1)
                                              and known.endswith("/" + prefix)):
                return act
    return None


def _relative(path: str) -> str:
    return path[2:] if path.startswith("./") else path


def _bad_files(said, summary, sections, labels) -> list[str]:
    gone = _gone(said)
    found = []
    for kind, block in _file_blocks(summary):
        for entry in (e.strip() for e in block.splitlines() if e.strip()):
            last = entry.rsplit("/", 1)[-1]
            act = _gone_act(gone, entry)
            if last.startswith(".") and last.count(".") >= 2 and "_" in last:
                found.append(_fault("not a file", f"not a file in <{kind}>: {entry}", entry))
            elif act is not None:
                found.append(_fault("gone file", f"{act} file in <{kind}>: {entry}", entry))
    return found


def _quoted_headings(said, summary, sections, labels) -> list[str]:
    quoted = {title.strip().lower().rstrip(":") for s in said if s.role in ("user", "assistant")
              for m in _HEADING_LINE.finditer(s.text[:50_000]) if (title := _title(m)) is not None}
    return [_fault("quoted heading", f"a heading quoted from the transcript kept as a section: {title}", title)
            for title in sections
            if title and title.rstrip(":") in quoted and not _PI_HEADINGS.search(title)]


def _failure_reported_done(said, summary, sections, labels) -> list[str]:
    last = next((s.text for s in reversed(said) if s.role == "assistant" and s.text.strip()), "")
    if not last or not _TROUBLE.search(last[-600:]):
        return []
    steps = " ".join(_under(sections, "next"))
    waiting = next((step for step in _under(sections, "next") if WAITING.search(step)), "")
    return [_fault("trouble as done", f"the agent's last words report trouble, the summary says: {steps[:120]}",
                   waiting)] if waiting else []


__all__ = ["FAULT_COST", "Fault", "WAITING", "asked_last", "file_acts", "find_faults", "item_key", "summary_faults",
           "wrong_items"]
