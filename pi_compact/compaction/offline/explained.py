"""Failures the agent's own words settle or place: one it explained as expected ("that error is expected: the test
checks the failure path", "the warning is harmless"), one it said is not of this work ("pre-existing failure,
unrelated to this change"), and one it said it routes around ("the MCP server is down; reading the file directly",
"let me try a different approach") when a later call of the same role then succeeded.

A failure the agent explained as expected is no open error of the work (it is the reason the agent went on); one
routed around is history once the other way did the job. A failure the agent called pre-existing or unrelated is
still a failure: the check still fails, and a rule such as "do not report done until `task ci` passes" still meets
it, so it stays open, marked as not of this change. The role of a call (search, read, fetch, a check's kind) is told
by what the tool or command is for (:mod:`.jobs`), never by one tool's name: Claude Code's Grep and Glob, an MCP
server's ``mcp__srv__search_code``, ``rg`` in a shell and a sub-agent sent to explore all search. Writing has no role
here: a file is settled by the same file changed since (:mod:`.errors`), not by another file written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...accessors import content_text
from .facts import Attempt, is_shell_tool
from .jobs import BUILD, LINT, SEARCH, TEST, TYPECHECK, jobs_of
from .shell import command_words, shell_effects

READ, FETCH = "read", "fetch"

_SAID_OF_IT = (r"\b(?:this|that|the|these|those|it|which|both)(?:\s[\w-]{1,30}){0,3}?"
               r"(?:\s(?:is|are|was|were|seems?|looks?)|'s|'re)\s(?:an?\s|just\s|all\s|likely\s|probably\s){0,2}")
"""What opens the agent's word about a failure ("that error is", "these are all", "it's likely"): what follows
says what the failure is."""
_EXPECTED = re.compile(
    _SAID_OF_IT + r"(?:(?:expected|harmless|benign)\b(?!\sto\b)"
    r"|expected to (?:fail|error|exit|raise|throw|be rejected)\b|safe to ignore\b)"
    r"|\b(?:fail(?:s|ed|ures?)?|errors?(?:ed)?|exit(?:s|ed)?|rejected|raised?) as expected\b"
    r"|\bcan (?:safely )?be (?:safely )?ignored\b",
    re.I,
)
"""The agent's words that a failure is expected or harmless: "that error is expected", "the warning is harmless",
"fails as expected", "can be safely ignored"; not "is expected to pass", "unexpected", "is not expected". Not
"intentional" nor "by design" either: those say the code behaves as meant, and the failing check is what to change."""
_NOT_OURS = re.compile(
    _SAID_OF_IT + r"(?:pre-?existing\b|unrelated\b|not related\b)"
    r"|\bpre-?existing(?:\s[\w-]{1,30}){0,2}?\s(?:failures?|errors?|issues?|problems?|warnings?|bugs?)\b"
    r"|\b(?:unrelated|not related) to (?:this|our|my|the|these|your) (?:change|work|task|fix|pr|refactor|edit)"
    r"|\bnot (?:caused|introduced) by (?:this|our|my|the|these) (?:change|work|edit|fix)",
    re.I,
)
"""The agent's words that a failure is not of this work: "these are pre-existing failures", "unrelated to this
change", "not introduced by this change". The failure stays open, marked so (see the module docstring)."""
_STILL_TO_FIX = re.compile(r"\b(?:let me|let's|I'll|I will|I need to|we need to|I should|we should|needs? to be)"
                           r"\s(?:\w{1,30}\s){0,2}?(?:fix|update|change|adjust|rewrite|correct)\w{0,3}\b", re.I)
"""Words that a change is still to make ("this is expected since we renamed it; let me update the test"): the
failure is explained, not settled."""
_ROUTED = re.compile(
    r"\binstead\b|\b(?:a |an )?(?:different|another|alternative|other) (?:approach|way|method|tool|route|strategy)\b"
    r"|\bfall(?:ing)?[ -]?back\b|\bdirectly\b|\bmanually\b|\bby hand\b|\bwork[ -]?around\b|\bmyself\b"
    r"|\b(?:is ?n'?t|not|no longer) (?:available|installed|working|connected|running|responding|reachable"
    r"|accessible|supported)\b|\bunavailable\b|\b(?:is|seems|appears)(?: to be)? (?:down|broken|offline)\b"
    r"|\bdoes ?n'?t exist\b",
    re.I,
)
"""The agent's words that it does the job another way ("I'll use Grep instead", "reading the file directly", "the
MCP server isn't connected", "let me try a different approach")."""
_TEXT_CHARS = 4_000
_TEXTS = 2
"""The agent's texts after a failure that may speak of it: the first often only looks further ("Let me check whether
it fails on main too"), the next says what it found ("pre-existing"); later words are about later things."""

_TOOL_ROLES = (
    (re.compile(r"web|fetch|browse|http|url|navigate|scrape|download|curl", re.I), FETCH),
    (re.compile(r"grep|glob|search|find|lookup|symbol|reference", re.I), SEARCH),
    (re.compile(r"read|view|cat\b|open|get_?file|contents|outline|overview|list_?(?:dir|files)", re.I), READ),
    (re.compile(r"typecheck|type_check", re.I), TYPECHECK),
    (re.compile(r"test", re.I), TEST),
    (re.compile(r"build|compile", re.I), BUILD),
    (re.compile(r"lint", re.I), LINT),
)
"""A tool's role by the words of its own name (an MCP tool's part after the server's)."""
_DELEGATES = frozenset({"task", "agent", "subagent", "sub_agent", "dispatch_agent", "delegate", "spawn_agent"})
"""Tools that send a sub-agent off, most often to explore: it searches, reads and fetches."""
_LOOKING = frozenset({SEARCH, READ, FETCH})
_FETCHERS = frozenset({"curl", "wget", "http", "https", "xh", "httpie", "gh"})


def roles(attempt: Attempt) -> frozenset[str]:
    """What a call was for: the checks of a command (:func:`.jobs.jobs_of`), a fetch, a read; of another tool, by
    its name. Empty when not known (a write, a tool whose name says nothing)."""
    if is_shell_tool(attempt.tool):
        found = {job.kind for job in jobs_of(attempt.target)}
        effects = shell_effects(attempt.target)
        if any(program.lower() in _FETCHERS for program in effects.programs) or any(
                words[:2] in (["git", "clone"], ["git", "fetch"], ["git", "pull"]) for words in command_words(attempt.target)):
            found.add(FETCH)
        if effects.reads and effects.inspects_only and not found:  # (a search reads too; it is a search)
            found.add(READ)
        return frozenset(found)
    name = attempt.tool.rsplit("__", 1)[-1].lower()
    if name in _DELEGATES:
        return frozenset({SEARCH, READ, FETCH})
    return next((frozenset({role}) for pattern, role in _TOOL_ROLES if pattern.search(name)), frozenset())


def _routable(attempt: Attempt) -> frozenset[str]:
    """The roles by which a failure routed around is settled: of a command, only a lookup's (search, read, fetch); a
    failed check is settled by a check that covers it (:func:`.jobs.covers`), not by any passing run of its kind."""
    found = roles(attempt)
    return found & _LOOKING if is_shell_tool(attempt.tool) else found


@dataclass(frozen=True)
class AgentWords:
    """What the agent's words say of the region's failures, by the index of the failed call."""

    settled: dict[int, Attempt | None]
    """Failures settled: each with the later call that did its job another way, ``None`` for one explained as
    expected."""
    not_ours: frozenset[int]
    """Failures the agent said are not of this work (pre-existing, unrelated): still open."""


def settled_by_words(messages: Sequence[dict], attempts: Sequence[Attempt]) -> AgentWords:
    """What the agent's words say of the failed ``attempts`` (see the module docstring). One pass over the messages: a
    failure waits for the agent's next few texts, then, when they route around it, for a later success of one of
    its roles; each failure is taken out once, so the cost is that of the messages and the attempts."""
    at: dict[int, list[Attempt]] = {}
    for attempt in attempts:
        at.setdefault(attempt.index, []).append(attempt)
    settled: dict[int, Attempt | None] = {}
    not_ours: set[int] = set()
    pending: list[tuple[Attempt, int]] = []  # a failure and how many texts of the agent's came since
    waiting: dict[str, list[int]] = {}  # a role -> the failures a success of that role settles
    for index, message in enumerate(messages):
        for attempt in at.get(index, ()):
            if attempt.aborted:
                continue
            if attempt.failed:
                pending.append((attempt, 0))
            elif waiting:
                for role in roles(attempt):
                    settled.update(dict.fromkeys(waiting.pop(role, ()), attempt))
        if not pending or not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        text = content_text(message.get("content"))[:_TEXT_CHARS]
        if not text.strip():
            continue
        if _STILL_TO_FIX.search(text):
            pending = []  # the agent takes the failures on: a later word of "pre-existing" is about others
            continue
        if _EXPECTED.search(text):
            settled.update(dict.fromkeys((attempt.index for attempt, _ in pending), None))
            pending = []
            continue
        if _NOT_OURS.search(text):
            not_ours.update(attempt.index for attempt, _ in pending)
            pending = []
            continue
        routed = _ROUTED.search(text) is not None
        for attempt, seen in pending:
            if routed and seen == 0:  # (only the agent's first words after a failure say it routes around it)
                for role in _routable(attempt):
                    waiting.setdefault(role, []).append(attempt.index)
        pending = [(attempt, seen + 1) for attempt, seen in pending if seen + 1 < _TEXTS]
    return AgentWords(settled, frozenset(not_ours))


__all__ = ["FETCH", "READ", "AgentWords", "roles", "settled_by_words"]
