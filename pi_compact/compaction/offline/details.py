"""The details a large region can afford: what the agent found out, each request with what the agent found and did.

The sections of :mod:`.summary` say what is true now in a few lines, whatever the region's size. A region of
150,000 tokens holds far more that the next agent would otherwise search for: why something was broken, the value
the agent settled on, the test that failed and why, the option the user picked. Those are named in the user's and the
agent's own words, so the details are their sentences, not paraphrases, chosen for the *terms* they add to the
summary (paths, file names, identifiers, values, numbers): a sentence that names nothing new is left out, however
long. The room they may take grows with the region (:func:`detail_room`) and never passes the summary's budget.
The files the region read are not among them: pi's ``<read-files>`` list, appended to every stored summary
(:func:`.compose.compose`), names them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from typing import Any

from ...accessors import content_text
from .errors import command_key, out_of_reach, refused_call, turned_back, with_hidden_make_failures, without_cd
from .definitions import defined_names, new_names
from .diagnostics import is_telling
from .facts import (EDIT_TOOLS, WRITE_TOOLS, Attempt, Facts, error_lines, failed_test, is_agent_own, is_shell_tool,
                    message_dicts, shell_command, tool_path)
from .findings import findings
from .git_state import branch_in_force
from .outcome import refusal
from .pasted import pasted_errors
from .goal import go_ahead, user_requests
from .paths import PathNames, infer_cwd
from .sections import Sections
from .short_paths import endings, short_names
from .shell import prints_only
from .state import RegionState, Turn, is_slash_command
from .text import clip_words, one_line, sentences
from ..tokens import text_tokens

DETAIL_RATIO = 0.04
"""Tokens of summary per token of region that the details may fill: about 1,500 for a 38,000-token region, whose
request-by-request log is the part of it a reader cannot rebuild (the model's own summary of such a region takes
7,000–10,000 characters); from about 47,500 tokens on, :data:`DETAIL_MAX`."""
DETAIL_MAX = 1900
"""At most this many tokens in all: a summary the next agent reads whole (6,000–7,000 characters)."""
COMMITTED_LABEL = "Committed:"
LOG_LABEL = "Work log (each request, then what the agent found and did, quoted):"
READ_LABEL = "Files read (not changed):"
"""The label earlier summaries gave the files read (pi's ``<read-files>`` list names them now): such an item of an
earlier summary is still a detail, and gives way to this region's."""
EARLIER_CHANGED_LABEL = "Also changed (earlier; the list above has the latest):"
NAMES_LABEL = "Names the changes brought in, by file:"
GIT_LABEL = "Git:"
MET_LABEL = "Failures met on the way and since settled (what failed, quoted; then what the agent did next):"
RAN_LABEL = "Commands that succeeded (the last run of each):"
OWN_LABEL = "The agent's own files it changed (outside the project: its plan, its memory):"
STAGED_LABEL = "Also staged for a commit with `git add` (changed before this region or by a command):"
PASTED_LABEL = "Errors in output the user pasted (quoted, the latest last):"
FOUND_LABEL = "What the agent found out (its conclusions, quoted, the latest last):"
FAILURE_FLOOR = 200
"""Tokens the settled failures may always take (two or three of them), however small the region."""
_SENTENCE_CHARS = 240
_REQUEST_CHARS = 200
_SHORT_REQUEST = 90
_QUOTED_HEAD = 48
_SUB = "  > "
"""A log line under its request: the agent's words quoted (a quote, not a list bullet: the line stays part of its
item when the summary is read back, and claims nothing about the state now)."""

_TERM = re.compile(r"`([^`\n]{1,120})`|([^\s`]+)")
_EDGES = "()[]{}<>,;:!?\"'*“”‘’…"
_RESULTISH = re.compile(
    r"\b(?:because|root cause|the (?:fix|issue|problem|cause) (?:is|was)|instead|decided|chose|option|prefer"
    r"|fail(?:s|ed|ing|ure)?|error|pass(?:es|ed)?|fixed|added|created|removed|renamed|replaced|committed|pushed"
    r"|moved|updated|implemented|now|works?|found|shows?|confirm(?:s|ed)?)\b", re.I)
_ANNOUNCE = re.compile(r"^\W{0,3}(?:let me|let's|i'll|i will|now (?:i'll|let me)|first,? (?:let me|i'll))\b", re.I)
_FILLER = re.compile(r"\b(?:let me know|feel free|hope (?:this|that) helps|anything else|successfully completed)\b",
                     re.I)
_OPENED = re.compile(r"https://[\w.-]{1,100}/[\w.-]{1,100}/[\w.-]{1,100}/(?:-/)?(pull|merge_requests|issues)/(\d{1,7})")
"""The address of a pull request, merge request or issue a ``gh``/``glab`` command created, with its kind and number."""
_KIND_NAMES = {"pull": "PR #", "merge_requests": "MR !", "issues": "issue #"}
_NEW_KEYS = ("newText", "new_string", "new_str", "content", "file_text")
_OLD_KEYS = ("oldText", "old_string", "old_str")
_CODE_CHARS = 20_000
"""Each edit's text is read this far: names are looked for, not the whole of a generated file."""
_PROSE = (".md", ".mdx", ".markdown", ".txt", ".rst", ".adoc", ".org")
"""Prose files: a capitalized "GitHub" in a guide is no name the change defined."""
_MARKER = re.compile(r"^\s{0,8}(?:[-*+•]\s+(?:\[[ xX]\]\s+)?|\d{1,3}[.)]\s+|#{1,6}\s+)")


DETAIL_FLOOR = 1500
"""Tokens the whole summary may take however small the region (about 6,000 characters, the length budget's own
floor): a model's summary of a region of 5,000–30,000 tokens still takes 9,000–14,000 characters, and the details of
such a region are few anyway (they quote it: they never outgrow it)."""


def detail_room(replaced_tokens: int, budget: int) -> int:
    """Tokens the whole summary may take once its details are in: a share of the region, at least
    :data:`DETAIL_FLOOR`, within the budget."""
    return max(0, min(budget, DETAIL_MAX, max(DETAIL_FLOOR, int(replaced_tokens * DETAIL_RATIO))))


def terms(text: str) -> set[str]:
    """The named things in ``text``: backticked values, and words with a path, file, code or number shape."""
    found: set[str] = set()
    for quoted, word in _TERM.findall(text):
        if quoted:
            found.add(quoted.strip().lower())
            continue
        word = word.strip(_EDGES).rstrip(".")
        if len(word) >= 3 and _named(word):
            found.add(word.lower())
    return found


_NAMED_ASCII = re.compile(r"[/_#=@0-9]|[^.]\.+[^.]|[a-z][A-Z]")
""":func:`_named` of an ASCII word in one C call: a mark or a digit, a dot inside, a lowercase letter before a capital."""


def _named(word: str) -> bool:
    """A word that names a thing rather than says something: ``a/b``, ``x.ts``, ``snake_case``, ``camelCase``,
    ``#46``, ``62/62``, ``v2.1``."""
    if word.isascii():
        return bool(_NAMED_ASCII.search(word))
    if any(mark in word for mark in "/_#=@") or any(char.isdigit() for char in word):
        return True
    if "." in word.strip("."):
        return True
    return any(a.islower() and b.isupper() for a, b in zip(word, word[1:]))


@dataclass(frozen=True)
class _Candidate:
    turn: int
    order: int
    text: str
    weight: int


def detail_items(messages: Any, state: RegionState, facts: Facts, cwd: str, shown: str, room: int) -> list[str]:
    """Critical Context items that add to ``shown`` (the summary so far) the region's terms it lacks, within
    ``room`` tokens: what the agent found out, then request by request its sentences that name the most new things."""
    if room <= 0:
        return []
    listed = list(message_dicts(messages))
    have = terms(shown)
    items: list[str] = []
    spent = 0
    found = _found_item(listed, shown, room // 4)
    if found:  # the reasons: what the changed files and commands cannot tell
        items.append(found)
        spent += text_tokens(found)
        have |= terms(found)
    lowered = shown.lower()  # (the Done list names a file by the shortest ending that tells it apart)
    unlisted = [path for path, _ in state.modified if not any(f"`{name}`" in lowered for name in endings(path.lower()))]
    if unlisted:  # the Done list names the files changed last; the room can name the others
        line = _paths_line(EARLIER_CHANGED_LABEL, unlisted, room // 4)
        items.append(line) if line else None
        spent += text_tokens(line) if line else 0
        have |= terms(line)
    staged = _staged_paths(listed, facts, have)
    if staged:  # committed, so part of the work, though no tool of this region changed them; the first always fits
        line = _paths_line(STAGED_LABEL, staged, max(room // 6, _staged_cost(staged)))
        items.append(line) if line else None
        spent += text_tokens(line) if line and text_tokens(line) <= room // 6 else 0  # else beyond the room
        have |= terms(line)
    own = [path for path in _own_files(listed) if path.rsplit("/", 1)[-1].lower() not in shown.lower()]
    if own:  # kept off the project's file lists, yet the next agent can read its plan there again
        line = _paths_line(OWN_LABEL, own, room // 6)
        items.append(line) if line else None
        spent += text_tokens(line) if line else 0
        have |= terms(line)
    ran = _ran_line(facts, have, room // 6, cwd)
    if ran:
        items.append(ran)
        spent += text_tokens(ran)
        have |= terms(ran)
    git = _git_line(listed)
    if git and not terms(git) <= have:
        items.append(git)
        spent += text_tokens(git)
        have |= terms(git)
    named = _changed_names(listed, _path_names(listed, facts, cwd))
    changed = _names_line(named, have, room // 4, short_names([path for path, _ in state.modified] + list(named)))
    if changed:
        items.append(changed)
        spent += text_tokens(changed)
        have |= terms(changed)
    groups = _agent_texts(listed)
    if len(groups) != len(state.turns):
        groups = [[text for group in groups for text in group]] if groups else []
        turns: tuple[Turn, ...] = (state.turns[-1],) if state.turns else ()
    else:
        turns = state.turns
    heads = _heads(turns, one_line(shown), (room - spent) // 2)
    have |= {term for head, _ in heads.values() for term in terms(head)}
    spent += text_tokens(LOG_LABEL) + _cost(heads)
    chosen = _choose(_candidates(groups, turns), have, room - spent, shown + "\n" + "\n".join(items))
    log = _log(turns, heads, chosen)
    return items + ([log] if log else [])


def _found_item(listed: list[dict], shown: str, room: int) -> str:
    """One item: the agent's conclusions (:func:`.findings.findings`) the summary does not hold yet, the latest
    kept first within ``room`` tokens, shown in their order."""
    texts = [content_text(m.get("content"), "\n") for m in listed if m.get("role") == "assistant"]
    said = [f"{_SUB}{finding}" for finding in findings(texts) if finding not in shown]
    kept: list[str] = []
    for line in reversed(said):
        if text_tokens("\n".join([FOUND_LABEL, line, *kept])) <= room:
            kept.insert(0, line)
    return "\n".join([FOUND_LABEL, *kept]) if kept else ""


def _pasted_item(turns: tuple[Turn, ...], shown: str, room: int, earlier_label: str) -> str:
    """One item: the error lines the user pasted into requests (:func:`.pasted.pasted_errors`) that the summary does
    not quote already, the latest last, the oldest dropped beyond ``room`` tokens. An earlier request's line does not
    count as quoting: the work log may take its place, naming the request in fewer words."""
    kept = "\n".join(line for line in shown.splitlines() if not line.startswith(f"- {earlier_label}"))
    lines = list(dict.fromkeys(f"{_SUB}`{line.replace('`', chr(39))}`" for turn in turns
                               for line in pasted_errors(turn.request) if line not in kept))
    while lines and text_tokens("\n".join([PASTED_LABEL, *lines])) > room:
        lines = lines[1:]
    return "\n".join([PASTED_LABEL, *lines]) if lines else ""


def _met_item(listed: list[dict], facts: Facts, state: RegionState, names: PathNames, have: set[str],
              room: int) -> str:
    """The failures the region met and settled (the open ones are under Blocked), each with what failed in the
    tool's own words, what the agent made of it (:func:`_diagnoses`) and what it did next, those naming the most
    things the summary lacks first, within ``room``: commands and file changes; a lookup (a fetch, a browser call)
    only when the same tool then succeeded (what was done instead); the model's own API errors once a later reply
    went through. A call the user stopped or declined, or the harness turned back before it ran, is no such
    failure."""
    open_text = "\n".join(state.open_errors)
    attempts = with_hidden_make_failures(listed, facts.attempts)  # (`make check | tail` that failed, failed)
    then = _next_steps(attempts, names)
    said = _diagnoses(listed, {attempt.index for attempt in attempts if attempt.failed})
    met: dict[str, _Met] = {}  # where it failed (the command, the file) -> its failures there
    for position, attempt in enumerate(attempts):
        if not _settled_failure(attempt, position in then) or attempt.error.strip()[:80] in open_text:
            continue
        where, check = _failure_where(attempt, names)
        group = met.pop(check, None) or _Met(where, shell=is_shell_tool(attempt.tool))  # to the end: the list keeps the order of the latest failures
        met[check] = group
        group.where = where if where == group.where else f"`{check} …`"
        group.findings.pop(attempt.error, None)
        group.findings[attempt.error] = None
        why = said[attempt.index] if 0 <= attempt.index < len(said) else ""
        group.why, group.after = why or group.why, then.get(position, "")
    found = {_met_line(group): (f" — the agent: “{group.why}”" if group.why else "") +
             (f"; then {_then(group.where, group.after)}" if group.after else "") for group in met.values()}
    found = _joined_by_way_out(found)
    for error in _provider_errors(listed):
        found.setdefault(f"{_SUB}a reply of the model ended in an error: {error}", "; then a later reply went through")
    lines = {line + after: line.split(": ", 1)[-1] for line, after in found.items()}
    named = {line: terms(line) for line in lines}
    # the failure itself is the news (a conflict in a file the summary names): a line that adds no name still counts,
    # after those that do, unless its error was said already
    chosen, spent, said = [], text_tokens(MET_LABEL), set()
    for line in sorted(lines, key=lambda line: -len(named[line] - have)):
        cost = text_tokens(line) + 2
        if lines[line] not in said and spent + cost <= room:
            chosen.append(line)
            spent += cost
            said.add(lines[line])
    order = list(lines)
    return "\n".join([MET_LABEL, *sorted(chosen, key=order.index)]) if chosen else ""


def _joined_by_way_out(found: dict[str, str]) -> dict[str, str]:
    """The met failures (line -> what the agent made of it and did next), those the agent got past the same way
    (``jj file show …`` refused, ``jj cat …`` too, then ``jj diff …`` showed the file) said as one line with that way
    once: the tries are one story, and the way out said twice takes the room of another failure."""
    joined: dict[str, list[str]] = {}
    for line, after in found.items():
        # (a way out that names its call: "then edited it" is each failure's own file, no shared way)
        joined.setdefault(after if after.startswith("; then ") and "`" in after else line + after, []).append(line)
    return {(lines[0] + "; " + "; ".join(line.removeprefix(_SUB) for line in lines[1:])) if len(lines) > 1
            else lines[0]: found[lines[0]] for lines in joined.values()}


_CAUSE = re.compile(r"\b(?:because|since|needs?|must|should|missing|wrong|instead|expects?|requires?|likely|seems?"
                    r"|issue|problem|cause[sd]?|fails?|failed|error|only|not|no longer|never|does ?n[o']t|is ?n[o']t"
                    r"|ca ?n[o']t|can ?not|wo ?n[o']t)\b", re.I)
"""Words of a sentence that says why something failed (``The checkpoint ID needs to be 12 lowercase hex``)."""
_DIAGNOSIS_SENTENCES = 4
_DIAGNOSIS_CHARS = 160
_DIAGNOSIS_TEXT = 4000
"""The agent's words are read this far for a diagnosis: it comes first, before the plan of what to do."""


def _diagnoses(listed: list[dict], failed: Container[int] = ()) -> list[str]:
    """Per message of ``listed``, what the agent made of it if it failed: the first sentence of the agent's next words
    (before the user speaks again) that says why, not what it will do (``The worktree path is resolved through
    symlinks on macOS.``, not ``Let me check.``); ``""`` when those words say no such thing. One backward pass: a
    run of failed calls before the agent's next words shares them, and so does a failure followed by silent calls
    that succeeded; but words that come after a silent call which failed itself (a result at a position of
    ``failed``) are about that failure, not the earlier one."""
    found = [""] * len(listed)
    upcoming, failed_after = "", False
    for index in range(len(listed) - 1, -1, -1):
        found[index] = upcoming
        message = listed[index]
        if message.get("role") == "user":
            upcoming, failed_after = "", False
        elif message.get("role") == "assistant":
            text = content_text(message.get("content"), "\n").strip()
            upcoming = _cause(text[:_DIAGNOSIS_TEXT]) if text else "" if failed_after else upcoming
            failed_after = False
        elif index in failed:  # a result: its call, in the assistant message before it, failed
            failed_after = True
    return found


def _cause(text: str) -> str:
    for sentence in _sentences(text)[:_DIAGNOSIS_SENTENCES]:
        if _CAUSE.search(sentence) and not _ANNOUNCE.match(sentence) and not sentence.endswith("?"):
            return clip_words(sentence, _DIAGNOSIS_CHARS).replace("“", '"').replace("”", '"')
    return ""


def _settled_failure(attempt: Attempt, followed: bool) -> bool:
    """A failure worth naming as met and settled: of work (a command, a file change) or, when the same tool then
    succeeded (``followed``), of any other tool; with an error line; not a shell lookup that found nothing."""
    if not attempt.failed or attempt.lookup or attempt.aborted or attempt.refused or not attempt.error.strip():
        return False
    tool = attempt.tool.lower()
    if is_shell_tool(tool):  # a command's output may end on anything: its line must say what failed
        return _names_what_failed(attempt.error)
    # an edit the harness turned back ("String to replace not found") was redone another way: worth knowing
    return tool in EDIT_TOOLS or tool in WRITE_TOOLS or (followed and (not turned_back(attempt) or refused_call(
        attempt))) or out_of_reach(attempt)


_FAILURE_WORDS = re.compile(r"\b(?:no such file|not found|no matches found|permission denied|cannot|could not|unable to"
                            r"|invalid|unknown|refused|timed out|not allowed|failed)\b", re.I)
"""A shell's own words for a failure that names no "error" (zsh's ``no such file or directory: /wfc-plan``)."""


def _names_what_failed(error: str) -> bool:
    """An error line that says what failed (an error, a failing test, a diagnostic), not whatever the output's last
    line was (``ci-cd.md``, ``=== a444d3 ===``)."""
    return bool(error_lines(error, 1) or _FAILURE_WORDS.search(error)) or is_telling(error) or bool(failed_test(error))


@dataclass
class _Met:
    """The failures of one command (one file's changes): a check run again and again (``make check``) that failed
    on one finding after another, each fixed in turn."""

    where: str
    findings: dict[str, None] = field(default_factory=dict)
    """Each distinct error, the latest last."""
    why: str = ""
    """What the agent made of the latest failure it said something of."""
    after: str = ""
    """What it did next after the latest."""
    shell: bool = False
    """A command's failures (its output's words), not a tool's (the harness's words, :func:`_harness_said`)."""


_FINDINGS = 4
"""A command's failures named at most: the latest, the count of the others said."""
_FINDINGS_CHARS = 280
"""The room of a command's findings when it failed on several, shared among them (each at least
:data:`_FINDING_CHARS`): a line per failure would push other failures out of the list's room."""
_FINDING_CHARS = 80
_LISTING = re.compile(r"([a-z]{2,20} [a-z][a-z ]{1,30}):\s")
"""A finding that lists what is still wrong under a label of plain words (``would reformat: a.py, b.py``): the
latest list says what the earlier ones did, less what was fixed since."""


def _failure_where(attempt: Attempt, names: PathNames) -> tuple[str, str]:
    """Where ``attempt`` failed as the list names it (the command, the tool and its file), and the check it ran: a
    command's words before its arguments (``uv run ruff check`` of ``uv run ruff check --fix src/a.py``), the same
    linter or test runner run on one file, then another, being one check."""
    if is_shell_tool(attempt.tool):
        command = command_key(attempt.target)  # without its ``cd dir &&`` and ``| tail``: the check that failed
        shown = in_project(command, names.cwd, without_cd(attempt.target)[1])
        where = f"`{clip_words(shown, 80).replace('`', '')}`" if command else attempt.tool
        return where, _check(command) or where
    target = _shown_target(attempt, names)
    where = f"{attempt.tool} `{target}`" if target else attempt.tool
    return where, where


_CHECK_WORD = re.compile(r"[A-Za-z][\w:+-]{0,40}")
_INTERPRETERS = frozenset({"python", "python3", "py", "node", "deno", "bun", "ruby", "perl", "php", "bash", "sh",
                           "zsh", "tsx", "ts-node", "java", "dotnet", "cargo", "go"})
"""Programs whose first argument is what runs (a script, ``-c`` code, a subcommand's package): two runs of them are
two checks."""


def _check(command: str) -> str:
    """The words of a one-step ``command`` before its first argument (an option, a path): ``""`` for a chain of
    commands or a program whose arguments say what runs (:data:`_INTERPRETERS`)."""
    if any(mark in command for mark in ("&&", "||", ";", "|", "$(", "`")):
        return ""
    words = []
    for word in command.split()[:6]:
        if not _CHECK_WORD.fullmatch(word):
            break
        words.append(word)
    if not words or words[-1].lower() in _INTERPRETERS or len(words) == len(command.split()):
        return ""  # a whole command without arguments is its own key (``make check``)
    return " ".join(words)


def _met_line(group: _Met) -> str:
    """One line for a command's failures: what it failed on, each distinct finding once (one said within another
    is left out), the latest :data:`_FINDINGS` of them, shorter the more there are."""
    kept: list[str] = []
    kinds: set[str] = set()
    errors = list(group.findings)
    while errors and len(kept) < _FINDINGS:
        error = errors.pop()
        kind = _LISTING.match(error.strip())
        if not any(error.strip() in other for other in kept) and not (kind and kind.group(1) in kinds):
            kept = [error] + [other for other in kept if other.strip() not in error]  # said in the fuller one
            kinds.add(kind.group(1)) if kind else None
    chars = 200 if len(kept) == 1 else max(_FINDING_CHARS, _FINDINGS_CHARS // len(kept))
    kept = kept if group.shell else [_harness_said(error) for error in kept]
    shown = [_with_rule(clip_words(error, chars), error) for error in kept]
    shown = [error if error.count("`") % 2 == 0 else error.replace("`", "'") for error in shown]
    more = f" (and {len(errors)} earlier)" if errors else ""
    return f"{_SUB}{group.where}: {'; '.join(shown)}{more}"


_WRAPPER = re.compile(r"^\s{0,4}<([a-z_]{1,40})>|</([a-z_]{1,40})>\s{0,4}$")
"""The tag a harness wraps a tool's error in (``<tool_use_error>…</tool_use_error>``)."""
_GUIDANCE = re.compile(r"(?<=[.!])\s{1,4}(?:Note:|Current working directory:|(?:Please|Read|Display|Retry|Try|Set"
                       r"|Provide|Use|Make sure|Ensure|To [a-z]{2,20})\b)")
"""Where a harness's error turns to telling the model what to do (``Read it first before writing to it.``, ``Note:
your current working directory is …``): words for the agent that met it, not what failed."""


def _harness_said(error: str) -> str:
    """A tool's error without its wrapper tag and the guidance after it: what failed, in the harness's words."""
    error = _WRAPPER.sub("", error.strip()).strip()
    guidance = _GUIDANCE.search(error, 10)
    return error[: guidance.start()] if guidance else error


def _then(where: str, after: str) -> str:
    """What the agent did next, the failed call (its command, its file) said as "it" when it was that call again."""
    verb, _, target = after.partition(" `")
    if target and where.endswith(f"`{target}") and " `" not in verb:
        return f"{verb} it again" if verb == "ran" else f"{verb} it"
    return after


_RULE = re.compile(r"[ \t](\([a-z][a-z0-9_-]{1,40}\)|\[[a-z][a-z0-9_-]{1,40}\])(?=[ \t]*(?:$| — ))", re.M)
"""The rule a diagnostic line ends with (golangci-lint's ``(wrapcheck)``, mypy's ``[attr-defined]``)."""


def _with_rule(clipped: str, error: str) -> str:
    """``clipped`` (``error`` cut short) with the rule ``error``'s first diagnostic ends with, when the cut lost it:
    the rule says what to fix or silence, the line's middle (a long signature) does not."""
    rule = _RULE.search(error[:2000])
    if not rule or rule.group(1) in clipped:
        return clipped
    return f"{clipped} {rule.group(1)}"


def _shown_target(attempt: Attempt, names: PathNames) -> str:
    """A non-shell call's target as the summary names it: a file by its short name, a web address whole."""
    target = attempt.target if "://" in attempt.target else names.name(attempt.target) if attempt.target else ""
    return clip_words(target, 80).replace("`", "'")


def _next_steps(attempts: tuple[Attempt, ...], names: PathNames) -> dict[int, str]:
    """Per failed attempt, what the agent did next that worked: the next successful command or file change after a
    failed one (``git pull --rebase`` after a rejected push, the edit after a lint finding), the same tool's next
    success after any other failed call (the page fetched instead). One pass; each failure waits once."""
    then: dict[int, str] = {}
    waiting: list[int] = []
    others: dict[str, list[int]] = {}
    for position, attempt in enumerate(attempts):
        tool = attempt.tool.lower()
        work = is_shell_tool(tool) or tool in EDIT_TOOLS or tool in WRITE_TOOLS
        if attempt.failed:
            if not attempt.aborted and not attempt.refused:
                (waiting if work else others.setdefault(_family(attempt.tool), [])).append(position)
            continue
        if attempt.aborted or attempt.refused or (work and attempt.lookup):
            continue
        if work and waiting:
            done = _done_as(attempt, names)
            then.update(dict.fromkeys(waiting, done))
            waiting = []
        elif not work and others.get(_family(attempt.tool)):
            then.update(dict.fromkeys(others.pop(_family(attempt.tool)), _done_as(attempt, names)))
    return then


_MCP_SERVER = re.compile(r"^(mcp__[A-Za-z0-9][\w-]{0,80}?)__\w")
"""An MCP tool's name up to its server's (``mcp__Claude_Browser__computer``): the server's tools do one kind of
thing, so a screenshot that timed out is settled by the page's text read with another of them."""


def _family(tool: str) -> str:
    """The tools one failure can be settled by: an MCP server's, else the tool itself."""
    server = _MCP_SERVER.match(tool)
    return server.group(1).lower() if server else tool


def _done_as(attempt: Attempt, names: PathNames) -> str:
    tool = attempt.tool.lower()
    target = _shown_target(attempt, names)
    if is_shell_tool(tool):
        shown = in_project(command_key(attempt.target), names.cwd, without_cd(attempt.target)[1])
        command = clip_words(shown, 80).replace("`", "'")
        return f"ran `{command}`" if command else "ran a command"
    verb = "edited" if tool in EDIT_TOOLS else "wrote" if tool in WRITE_TOOLS else attempt.tool
    return f"{verb} `{target}`" if target else verb


def _provider_errors(listed: list[dict]) -> list[str]:
    """The errors of the model's own API (``API Error: 529 … Overloaded``, ``FailedToOpenSocket``) that a later
    reply got past: a reply that ended in an error, then one that did not."""
    found: dict[str, None] = {}
    pending: list[str] = []
    for message in listed:
        if message.get("role") != "assistant":
            continue
        error = message.get("errorMessage")
        if message.get("stopReason") == "error" and isinstance(error, str) and error.strip():
            pending.append(_api_error(error))
        elif message.get("stopReason") != "error" and pending:
            found.update(dict.fromkeys(pending))
            pending = []
    return list(found)


_JSON_MESSAGE = re.compile(r'"message"\s{0,4}:\s{0,4}"([^"\n]{1,200})"')


def _api_error(error: str) -> str:
    """An API error in few words: the words before its JSON body, and the body's message (``API Error: 529 —
    Overloaded``), not the body's ids."""
    error = one_line(error[:4000])
    head, brace, _ = error.partition("{")
    message = _JSON_MESSAGE.search(error) if brace else None
    return f"{head.strip()} — {message.group(1)}" if head.strip() and message else clip_words(error, 160)


def failure_room(room: int) -> int:
    """Tokens the settled failures may take beyond the details' room: what must not be retried is said whatever
    else fills the summary."""
    return max(FAILURE_FLOOR, room // 4)


def _ran_line(facts: Facts, have: set[str], room: int, cwd: str = "") -> str:
    """The shell commands whose last run succeeded and that changed or checked something (not lookups), the latest
    first, those the summary does not show yet, within ``room``. A pipeline is left out: ``bun verify | grep FAIL``
    exits as grep does, whatever the check found."""
    last: dict[str, bool] = {}  # command -> whether its last run succeeded, the latest run last
    for attempt in facts.attempts:
        if attempt.lookup or attempt.aborted or not attempt.target.strip() or not is_shell_tool(attempt.tool):
            continue
        if "|" in attempt.target or "<<" in attempt.target or "git commit" in attempt.target:
            continue  # a pipeline's status is its filter's; commits are listed under Done
        if prints_only(attempt.target):
            continue  # ``git log main..HEAD``, ``git status``: it looked, it did nothing the next agent builds on
        command = clip_words(_ran_command(attempt.target, cwd).replace("`", "'"), 100)
        last.pop(command, None)
        last[command] = not attempt.failed
    shown = [f"`{command}`" for command, passed in reversed(last.items()) if passed and command.lower() not in have]
    while shown and text_tokens(f"{RAN_LABEL} {', '.join(shown)}") > room:
        shown = shown[: len(shown) * 3 // 4] if len(shown) > 4 else shown[:-1]
    return f"{RAN_LABEL} {', '.join(shown)}" if shown else ""


def _ran_command(command: str, cwd: str) -> str:
    """The command that ran, without the ``cd`` that opens it; the directory's name said after it only when it is
    another project than the session's (outside its working directory), since then it tells where the check passed."""
    ran, directory = without_cd(command)
    ran = in_project(ran, cwd, directory)
    names = PathNames(cwd, ())
    where = names.plain(directory) if directory else ""
    elsewhere = where.startswith(("/", "~", "..")) or bool(re.match(r"[A-Za-z]:[\\/]", where))
    project = directory.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]  # its name says which: room is short
    return f"{ran} (in {project})" if project and elsewhere and cwd else ran


_REDIRECTED = re.compile(r"[ \t]{1,4}2>(?:&1|/dev/null)(?=$|[ \t;&|)])")
"""A command's ``2>&1`` or ``2>/dev/null``: how its output was read, nothing the next agent runs again for."""
_PATH_BEFORE = frozenset(" \t'\"=(:")
"""What may stand before a path in a command (so ``/x/home/me/app/`` is not read as ``/home/me/app/``)."""


def in_project(command: str, cwd: str, directory: str = "") -> str:
    """``command`` as the next agent would type it in the project: the paths under the working directory ``cwd``
    relative to it (a command that ran there, not after a ``cd`` to ``directory`` elsewhere), and no ``2>&1``. An
    absolute path of a deep project took most of a command's 100 characters, so the file it named was cut off."""
    command = _REDIRECTED.sub("", command)
    root = cwd.rstrip("/")
    if not root.startswith("/") or root.count("/") < 2 or (directory and directory.rstrip("/") != root):
        return command
    parts, at = [], 0
    while (found := command.find(root + "/", at)) >= 0:
        end = found + len(root) + 1
        keep = found > 0 and command[found - 1] not in _PATH_BEFORE
        parts.append(command[at:end] if keep else command[at:found])
        at = end
    return "".join(parts) + command[at:]


_COMMITTED = re.compile(r"^\[([^\]\s]{1,200})(?: \(root-commit\))? ([0-9a-f]{7,40})\] (.{1,300})$", re.M)
"""The line ``git commit`` prints: ``[main 1a2b3c4] fix: keep the cache bounded``."""


def commit_hashes(messages: Any) -> dict[str, str]:
    """The first line of each commit message the region's tool results report, and its short hash."""
    found: dict[str, str] = {}
    for message in message_dicts(messages):
        if message.get("role") == "toolResult" and not message.get("isError"):
            for _, sha, subject in _COMMITTED.findall(content_text(message.get("content"), "\n")[:20_000]):
                found[" ".join(subject.split())] = sha
    return found


_HOME = re.compile(r"^(?:[A-Za-z]:)?/(?:Users|home)/[^/]{1,64}(?=/)|^/root(?=/)")
"""The home folder a path opens with, named ``~`` in the details (the file's name is what tells)."""
_GIT_ADD = re.compile(r"\bgit(?:[ \t]{1,4}-C[ \t]{1,4}[^\s;&|]{1,300})?[ \t]{1,4}add[ \t]{1,4}([^;&|\n]{1,4000})")
"""A ``git add`` and what follows it up to the command's end (``&&``, ``;``, a pipe, a new line)."""


def _staged_paths(listed: list[dict], facts: Facts, have: set[str]) -> list[str]:
    """The files the region's successful ``git add`` commands named one by one (not ``-A``, ``.`` or a glob), that no
    tool of the region is known to have changed (pi's ``<modified-files>`` list names those) and the summary does not
    name: the work the commit took in, as the next agent would look for it."""
    failed = {_id(m.get("toolCallId")) for m in listed if m.get("role") == "toolResult" and m.get("isError")}
    changed = {path.rsplit("/", 1)[-1].lower() for path in facts.modified_files}
    found: dict[str, None] = {}
    for message in listed:
        blocks = message.get("content") if message.get("role") == "assistant" else None
        for block in blocks if isinstance(blocks, list) else ():
            if not isinstance(block, dict) or block.get("type") != "toolCall" or _id(block.get("id")) in failed:
                continue
            command = (shell_command(block.get("name"), block.get("arguments")) or "")[:20_000]
            for added in _GIT_ADD.findall(command):
                for word in added.split():
                    path = word.strip("'\"")
                    if path.startswith("-") or path in (".", "..") or any(c in path for c in "*?$`<>()") \
                            or "." not in path.rsplit("/", 1)[-1] and "/" not in path:
                        continue
                    if path.rstrip("/").rsplit("/", 1)[-1].lower() not in changed and path.lower() not in have:
                        found[path] = None
    return list(found)


def _staged_cost(staged: list[str]) -> int:
    """Tokens of the :data:`STAGED_LABEL` item naming the first of ``staged``: the least it takes."""
    return text_tokens(f"{STAGED_LABEL} `{staged[0]}`") if staged else 0


def _staged_excess(listed: list[dict], facts: Facts, shown: str, room: int) -> int:
    """Tokens of the staged files' item when its share of the details' ``room`` cannot hold even its label and first
    file: then it is given beyond the room, as the failures are (a file the commit took in is part of the work), so
    the other details keep theirs."""
    cost = _staged_cost(_staged_paths(listed, facts, terms(shown)))
    return cost if cost > max(0, room) // 6 else 0


def _own_files(listed: list[dict]) -> list[str]:
    """The agent's own files (:func:`.facts.is_agent_own`: its plan file, its memory) that the region's edits and
    writes changed, the home folder spelled ``~``."""
    failed = {_id(m.get("toolCallId")) for m in listed if m.get("role") == "toolResult" and (
        m.get("isError") or refusal(content_text(m.get("content"))[:4000]))}
    found: dict[str, None] = {}
    for message in listed:
        blocks = message.get("content") if message.get("role") == "assistant" else None
        for block in blocks if isinstance(blocks, list) else ():
            if isinstance(block, dict) and block.get("type") == "toolCall" and _id(block.get("id")) not in failed \
                    and str(block.get("name", "")).lower() in EDIT_TOOLS | WRITE_TOOLS:
                path = tool_path(block.get("arguments"))
                if path and is_agent_own(path):
                    found[_HOME.sub("~", path.replace("\\", "/"))] = None
    return list(found)


def _paths_line(label: str, paths: list[str], room: int) -> str:
    """``label`` and the paths, as many of the first as fit ``room`` tokens."""
    line = f"{label} " + ", ".join(f"`{path}`" for path in paths)
    while paths and text_tokens(line) > room:
        paths = paths[: len(paths) * 3 // 4] if len(paths) > 4 else paths[:-1]
        line = f"{label} " + ", ".join(f"`{path}`" for path in paths)
    return line if paths else ""


def _id(value: Any) -> str:
    """A tool call's id as a key (a damaged entry's may be a list or a number)."""
    return value if isinstance(value, str) else ""


def _git_line(listed: list[dict]) -> str:
    """The branch the work is on when the region ends (:func:`.git_state.branch_in_force`), and the pull requests and issues they
    opened, each by its number (how the user and the agent name it later: "PR #22") and address."""
    failed = {_id(m.get("toolCallId")) for m in listed if m.get("role") == "toolResult" and m.get("isError")}
    outputs = {_id(m.get("toolCallId")): content_text(m.get("content"))[:4000] for m in listed
               if m.get("role") == "toolResult" and not m.get("isError")}
    branch, requests = branch_in_force(listed), {}
    for message in listed:
        blocks = message.get("content") if message.get("role") == "assistant" else None
        for block in blocks if isinstance(blocks, list) else ():
            if not isinstance(block, dict) or block.get("type") != "toolCall" or _id(block.get("id")) in failed:
                continue
            command = (shell_command(block.get("name"), block.get("arguments")) or "")[:2000]
            if any(verb in command for verb in ("pr create", "mr create", "issue create")):
                for found in _OPENED.finditer(outputs.get(_id(block.get("id")), "")):
                    requests[found.group(0)] = f"{_KIND_NAMES[found.group(1)]}{found.group(2)}"
    parts = ([f"on {branch}" if branch.startswith("the branch of") else f"on branch `{branch}`"] if branch else []) + [f"opened {name} ({url})" for url, name in requests.items()]
    return f"{GIT_LABEL} {'; '.join(parts)}" if parts else ""


def _path_names(listed: list[dict], facts: Facts, cwd: str) -> PathNames:
    known = [*facts.modified_files, *facts.read_files]
    if not cwd or not any(path.startswith(cwd.rstrip("/") + "/") for path in known if path.startswith("/")):
        cwd = infer_cwd(listed) or cwd  # as the region's state names its files
    return PathNames(cwd, known)


def _changed_names(listed: list[dict], names: PathNames) -> dict[str, list[str]]:
    """Per changed file (the last changed last), the names its successful edits and writes brought in
    (:func:`.definitions.new_names`): what was defined first, then the names of the code the old text did not
    have that the edit gives a value or that the region shows defined in the project (never the language's own)."""
    failed = {_id(m.get("toolCallId")) for m in listed if m.get("role") == "toolResult" and (
        m.get("isError") or refusal(content_text(m.get("content"))[:4000]))}
    known = defined_names(_code_texts(listed))
    found: dict[str, dict[str, None]] = {}
    for message in listed:
        blocks = message.get("content") if message.get("role") == "assistant" else None
        for block in blocks if isinstance(blocks, list) else ():
            if not isinstance(block, dict) or block.get("type") != "toolCall" or _id(block.get("id")) in failed:
                continue
            tool = str(block.get("name", "")).lower()
            path = tool_path(block.get("arguments"))
            if path and (tool in EDIT_TOOLS or tool in WRITE_TOOLS) and not path.lower().endswith(_PROSE):
                new, old = _edit_texts(block.get("arguments"))
                named = found.pop(names.name(path), {})
                named.update(dict.fromkeys(new_names(new, old, path, known)))
                found[names.name(path)] = named
    return {path: list(named) for path, named in found.items() if named}


def _code_texts(listed: list[dict]) -> Iterable[str]:
    """What the region shows of the project's code: the texts the agent wrote and the results of its tools (the
    files it read, what it searched)."""
    for message in listed:
        if message.get("role") == "toolResult":
            yield content_text(message.get("content"))
        for block in message.get("content") if message.get("role") == "assistant" and \
                isinstance(message.get("content"), list) else ():
            if isinstance(block, dict) and block.get("type") == "toolCall":
                yield _edit_texts(block.get("arguments"))[0]


def _edit_texts(arguments: Any) -> tuple[str, str]:
    """The text an edit or write put in and the text it replaced (a multi-edit's edits joined)."""
    parts = [arguments] if isinstance(arguments, dict) else []
    if isinstance(arguments, dict) and isinstance(arguments.get("edits"), list):
        parts += [edit for edit in arguments["edits"] if isinstance(edit, dict)]
    def joined(keys: tuple[str, ...]) -> str:
        return "\n".join(part[key][:_CODE_CHARS] for part in parts for key in keys if isinstance(part.get(key), str))

    return joined(_NEW_KEYS), joined(_OLD_KEYS)


def _names_line(changed: dict[str, list[str]], have: set[str], room: int, shown: dict[str, str] | None = None) -> str:
    """One item: each changed file (by its name in ``shown``, the Done list's: :mod:`.short_paths`) with the names it
    gained that the summary does not show yet, within ``room``."""
    rows = [(path, [n for n in named if n.lower() not in have]) for path, named in changed.items()]
    rows = [(path, named) for path, named in rows if named]
    lines = [f"  `{(shown or {}).get(path, path)}`: " + ", ".join(f"`{name}`" for name in named) for path, named in rows]
    while lines and text_tokens("\n".join([NAMES_LABEL, *lines])) > room:
        lines = lines[1:]  # the files changed longest ago go first
    return "\n".join([NAMES_LABEL, *(line.strip() if n == 0 else line for n, line in enumerate(lines))]) \
        if lines else ""


def _agent_texts(listed: list[dict]) -> list[list[str]]:
    """The agent's texts, grouped by the user request they follow (as :mod:`.state` groups its turns: a message
    the harness injected, a skill's instructions, starts none)."""
    requests = dict(user_requests(listed))
    groups: list[list[str]] = []
    for index, message in enumerate(listed):
        role = message.get("role")
        if role == "user":
            text = requests.get(index, "")
            if text.strip() and not is_slash_command(text):
                groups.append([])
        elif role == "assistant":
            if not groups:
                groups.append([])
            text = content_text(message.get("content"), "\n").strip()
            if text and message.get("stopReason") != "error":  # an error reply's text is the API's, not the agent's
                groups[-1].append(text)
    return groups


def _candidates(groups: list[list[str]], turns: Iterable[Turn]) -> list[_Candidate]:
    found: list[_Candidate] = []
    order = 0
    for number, (group, turn) in enumerate(zip(groups, turns)):
        for text in group:
            for sentence in _sentences(text):
                weight = (1 if _RESULTISH.search(sentence) else 0) - (1 if _ANNOUNCE.match(sentence) else 0)
                found.append(_Candidate(number, order, clip_words(sentence, _SENTENCE_CHARS), weight))
                order += 1
    return found


def _sentences(text: str) -> list[str]:
    """The sentences and list items of an agent text, code blocks and tables left out."""
    found, fenced = [], False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.strip().startswith("|"):
            continue
        for sentence in sentences(_MARKER.sub("", line)):
            if len(sentence) >= 20 and not _FILLER.search(sentence) and not sentence.endswith(":"):
                found.append(sentence.replace("**", "").strip("* "))
    return found


def _heads(turns: tuple[Turn, ...], shown: str, room: int) -> dict[int, tuple[str, bool]]:
    """Every request of the region by number, in the user's words, and whether the summary quotes it already
    (then only its first words name it): whole up to a length; shorter, then only the newest, when they would take
    more than ``room``."""
    heads: dict[int, tuple[str, bool]] = {}
    for limit in (_REQUEST_CHARS, _SHORT_REQUEST):
        heads = {}
        for number, turn in enumerate(turns):
            request = turn.request.strip()
            if request:
                quoted = one_line(request)[:60] in shown
                heads[number] = (f"Request “{clip_words(request, min(limit, _QUOTED_HEAD) if quoted else limit)}”:",
                                 quoted)
        if _cost(heads) <= room:
            return heads
    while heads and _cost(heads) > room:
        del heads[min(heads)]  # the oldest requests go first
    return heads


def _cost(heads: dict[int, tuple[str, bool]]) -> int:
    return sum(text_tokens(head) + 2 for head, _ in heads.values())


def _choose(candidates: list[_Candidate], have: set[str], room: int, said: str = "") -> list[_Candidate]:
    """The candidates that add the most new terms for their weight, taken while they add any and fit ``room``; then,
    in the room still left, those that say something in words ``said`` (the summary so far) and the chosen do not
    hold yet (:func:`_reasons`)."""
    named = {c.text: terms(c.text) for c in candidates}  # read once: sorting and choosing both ask
    scored = sorted(candidates, key=lambda c: (-(len(named[c.text] - have) + c.weight), -c.turn, -c.order))
    chosen, spent, seen = [], 0, set(have)
    for candidate in scored:
        new = named[candidate.text] - seen
        if not new or len(new) + candidate.weight < 1:
            continue
        cost = text_tokens(candidate.text) + 3
        if spent + cost > room:
            continue
        chosen.append(candidate)
        spent += cost
        seen |= new
    return chosen + _reasons([c for c in candidates if c not in chosen], chosen, said, room - spent)


_PLAIN_WORD = re.compile(r"[A-Za-z][a-z]{4,30}")
_NEW_WORDS = 3
"""A sentence chosen for its words must add at least this many (of five letters or more) the summary lacks."""


def _reasons(candidates: list[_Candidate], chosen: list[_Candidate], said: str, room: int) -> list[_Candidate]:
    """The room the named things left, filled with the agent's sentences that say something (a reason, a finding:
    "the hooks ran the old installed binary"; not an announcement, :data:`_ANNOUNCE`) in words the summary lacks, the
    most new words first, the latest first among equals: the terms of :func:`_choose` miss what is said in plain
    words."""
    known = {word.lower() for word in _PLAIN_WORD.findall(said + " " + " ".join(c.text for c in chosen))}
    fresh = {id(c): {w.lower() for w in _PLAIN_WORD.findall(c.text)} - known for c in candidates if c.weight >= 0}
    ranked = sorted((c for c in candidates if id(c) in fresh), key=lambda c: (-len(fresh[id(c)]), -c.turn, -c.order))
    added, spent = [], 0
    for candidate in ranked:
        new = fresh[id(candidate)] - known
        cost = text_tokens(candidate.text) + 3
        if len(new) < _NEW_WORDS or spent + cost > room:
            continue
        added.append(candidate)
        spent += cost
        known |= new
    return added


def _log(turns: tuple[Turn, ...], heads: dict[int, tuple[str, bool]], chosen: list[_Candidate]) -> str:
    """One item: each request, the agent's chosen sentences under it in their order (a request the summary quotes
    already is left out when nothing is said under it)."""
    by_turn: dict[int, list[_Candidate]] = {number: [] for number in heads}
    for candidate in chosen:
        by_turn.setdefault(candidate.turn, []).append(candidate)
    lines = [LOG_LABEL]
    for number in sorted(by_turn):
        said = [f"{_SUB}{c.text}" for c in sorted(by_turn[number], key=lambda c: c.order)]
        request = turns[number].request.strip() if number < len(turns) else ""
        head, quoted = heads.get(number, (f"Request “{clip_words(request, _QUOTED_HEAD)}”:" if request else
                                          "Before any request:", True))
        if said or not (quoted or go_ahead(request)):  # "yes please" alone says nothing the next agent needs
            lines += [head, *said]
    return "\n".join(lines) if len(lines) > 1 else ""



def trimmed_log(log: str) -> str:
    """The work log ``log`` with one line less: the oldest request's last quoted sentence, else that request's own
    line; ``""`` when nothing but the label would be left. The summary cuts it a line at a time when it runs over
    its budget, so a few tokens too many no longer cost the whole log, and the latest requests' words go last."""
    lines = log.splitlines()
    if len(lines) <= 2:
        return ""
    end = next((at for at in range(2, len(lines)) if not lines[at].startswith(_SUB)), len(lines))
    del lines[end - 1]  # the oldest request's last sentence, or the request alone once it has none
    return "\n".join(lines) if len(lines) > 1 else ""


# -- into the summary -----------------------------------------------------------------------------------------

DETAIL_LABELS = (LOG_LABEL, READ_LABEL, NAMES_LABEL, GIT_LABEL, EARLIER_CHANGED_LABEL, MET_LABEL, RAN_LABEL,
                 PASTED_LABEL, FOUND_LABEL, STAGED_LABEL, OWN_LABEL)


def _unsaid(critical: list[str], label: str, met: str) -> None:
    """The ``label`` item of ``critical`` (a comma-separated list of failed actions) without those ``met`` quotes
    already, or gone when none is left."""
    for number, item in enumerate(critical):
        if label and item.startswith(label):
            quoted = [_command(span) for span in _MET_COMMAND.findall(met)]
            left = [part for part in _QUOTED_LIST.findall(item[len(label):])
                    if part.strip() not in met and not any(_same_command(_command(part), q) for q in quoted)]
            if left:
                critical[number] = f"{label} {', '.join(part.strip() for part in left)}"
            else:
                del critical[number]
            return


_QUOTED_LIST = re.compile(r"(?:[^,`]|`[^`]*`)+")
"""The parts of a comma-separated list whose backticked values may hold commas."""
_MET_COMMAND = re.compile(r"^[ \t]{0,8}>[ \t]{0,4}(`[^`\n]{1,2000}`)", re.M)
"""The failed command a settled failure's quote starts with."""


def _command(quoted: str) -> tuple[str, bool]:
    """A backticked command without its backticks, and whether it was cut short (ends with "…")."""
    core = quoted.strip().strip("`").strip()
    return core.rstrip("…").rstrip(), core.endswith("…")


def _same_command(one: tuple[str, bool], other: tuple[str, bool]) -> bool:
    """Two spellings of one command, each perhaps cut at another length: the one cut short begins the other. A
    whole command that merely begins a longer one (``go run .`` of ``go run . --json``) is another command."""
    (short, clipped), (long, _) = sorted((one, other), key=lambda pair: len(pair[0]))
    return bool(short) and (short == long or (clipped and long.startswith(short)))


def _with_hashes(done: list[str], hashes: dict[str, str]) -> None:
    """Each "Committed:" item with the hash git printed for it (the next agent can show, revert or cite it)."""
    for number, item in enumerate(done):
        subject, mark, rest = item.removeprefix(COMMITTED_LABEL).strip(), "", ""
        if subject not in hashes and " — " in subject:  # a mark after the subject (" — pending a push"), which a
            subject, mark, rest = subject.rpartition(" — ")  # subject may hold too ("feat: X — BRO-267")
        if item.startswith(COMMITTED_LABEL) and subject in hashes and hashes[subject] not in item:
            done[number] = f"{COMMITTED_LABEL} {subject} (`{hashes[subject]}`){mark}{rest}"


def add_details(sections: Sections, messages: Any, state: RegionState, facts: Facts, details: tuple[str, int],
                draw: Callable[[], str], earlier_label: str, resolved_label: str = "") -> None:
    """The region's details added to ``sections`` in the room left (``details``: the cwd and the room in tokens;
    ``draw`` renders the summary), the commits' hashes first; an earlier region's details give way to them, an
    ``earlier_label`` item ("Earlier request: …") the work log names already goes, and so do the failures a
    ``resolved_label`` item lists ("Resolved along the way: `make lint`") that the settled failures quote."""
    cwd, room = details
    critical = sections.items["critical"]
    earlier = [item for item in critical if item.startswith(DETAIL_LABELS)]
    critical[:] = [item for item in critical if item not in earlier]
    _with_hashes(sections.items["done"], commit_hashes(messages))  # first: a few tokens each, what a revert cites
    listed = list(message_dicts(messages))
    failures = failure_room(room)
    pasted = _pasted_item(state.turns, draw(), failures // 3, earlier_label)
    if pasted:  # failures the tool results cannot show (what broke on the user's side), in the failures' room
        critical.append(pasted)
        room += text_tokens(pasted) + 2
        failures -= text_tokens(pasted) + 2
    met = _met_item(listed, facts, state, _path_names(listed, facts, cwd), terms(draw()), failures)
    if met:  # beyond the room: the other details keep theirs
        critical.append(met)
        room += text_tokens(met) + 2
        _unsaid(critical, resolved_label, met)
    base, shown = list(critical), draw()
    target, added = room, []
    room += _staged_excess(listed, facts, shown, room - text_tokens(shown))  # the shares stay as they were
    for _ in range(4):  # the estimate of a whole is not the sum of its parts' (letter runs are bounded per text)
        added = detail_items(messages, state, facts, cwd, shown, target - text_tokens(shown))
        critical[:] = base + added
        over = text_tokens(draw()) - room
        if over <= 0:
            break
        target -= over + 8
    else:
        added = []
    critical[:] = base + added
    for item in earlier if not added else ():  # an earlier region's details, while they fit the room
        critical.append(item)
        if text_tokens(draw()) > room:
            critical.pop()
    logged = "\n".join(item for item in added if item.startswith(LOG_LABEL))
    critical[:] = [item for item in critical if not (  # the log names the request already
        item.startswith(earlier_label) and item[len(earlier_label):].strip().rstrip("…").strip() in logged)]


__all__ = ["COMMITTED_LABEL", "DETAIL_FLOOR", "DETAIL_LABELS", "DETAIL_MAX", "DETAIL_RATIO", "EARLIER_CHANGED_LABEL",
           "FOUND_LABEL", "GIT_LABEL", "LOG_LABEL", "MET_LABEL", "NAMES_LABEL", "OWN_LABEL", "PASTED_LABEL", "RAN_LABEL", "READ_LABEL",
           "add_details",
           "commit_hashes", "detail_items", "detail_room", "terms"]
