"""A query that found nothing answered its question: ``gh pr checks 5`` exiting 1 with "no checks reported",
``gh run list`` with "no runs found", ``grep`` with no output, ``kubectl get pods`` with "No resources found". The
command's exit status says "nothing", not "broken": no open error, no "Fix:" step (issue 20).

A failure about a pull request that was merged or closed later in the region (``gh pr checks 5`` failed, then
``gh pr merge 5`` succeeded) is settled too: what it was about is over.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from ...accessors import content_text
from .facts import Attempt, is_shell_tool
from .shell import command_words, prints_only, shell_effects

_NOTHING = re.compile(
    r"^\W{0,4}(?:[\w.-]{1,30}: ){0,2}(?:"
    r"no (?:\w{1,30} ){0,3}(?:found|reported|match(?:es|ed)?|available|to (?:show|report|list|display))\b"
    r"|no (?:matches|match|results?|entries|items|hits|runs|checks|resources|records|rows)\b"
    r"|nothing (?:found|matched|to (?:show|report|list|display))\b"
    r"|(?:found |showing )?0 (?:results?|matches|items|hits|runs|checks|files|records|rows)\b"
    r"|(?:not|did not|didn't|could not|couldn't) find any\b|not found any\b|none found\b)", re.I)
"""A line that says the query found nothing, whichever the tool (``no checks reported on the 'x' branch``, ``No
matches found``, ``Found 0 results``, ``no open pull requests found``). Tool output is English whatever the user's
language."""
_STATUS_LINE = re.compile(
    r"^\W{0,4}(?:exit(?:ed)? (?:code|status)|command exited with code|process exited with code|error: exit code)"
    r"\W{0,4}\d{1,3}\W{0,4}$", re.I)
"""The harness's own note of the exit status (``Exit code 1``, ``Command exited with code 1``): no output."""
_MOST_LINES = 6
"""An answer of "nothing" is short; a longer output said something."""

_QUERY_VERBS = frozenset({"list", "ls", "view", "show", "status", "checks", "get", "describe", "search", "diff",
                          "logs", "top", "ps", "images", "inspect", "info"})
"""A sub-command that asks what there is (``gh pr checks``, ``gh run list``, ``kubectl get``, ``docker ps``)."""
_LOOP_WORDS = frozenset({"for", "while", "until", "do", "done", "if", "then", "else", "fi", "echo", "printf", "true",
                         "test", "["})
"""Shell words that only drive a query or print its label (``for f in …; do echo "== $f"; grep … "$f"; done``)."""
_QUERY_PROGRAMS = frozenset({"gh", "glab", "kubectl", "docker", "podman", "helm", "az", "gcloud", "aws", "heroku",
                             "fly", "flyctl", "vercel", "netlify", "npm", "pnpm", "yarn", "pip", "brew", "cargo",
                             "systemctl", "launchctl"})
"""Programs whose read-only sub-commands (:data:`_QUERY_VERBS`) a query may run."""
_MOST_QUERY_WORDS = 4


def queries_only(command: str) -> bool:
    """True when every simple command of ``command`` only asks what there is: a program that prints what is there
    (``grep``, ``git diff``, ``find``: :func:`.shell.prints_only`), a read-only sub-command of a tool
    (``gh pr checks 5``, ``kubectl get pods``), or the loop that runs them and labels their output."""
    commands = command_words(command)
    return bool(commands) and not shell_effects(command).writes and all(_asks(words) for words in commands)


def _asks(words: list[str]) -> bool:
    if words[0] in _LOOP_WORDS or prints_only(shlex.join(words)):
        return True
    if words[0].rsplit("/", 1)[-1] not in _QUERY_PROGRAMS:
        return False
    verbs = [word for word in words[1:1 + _MOST_QUERY_WORDS] if not word.startswith("-")]
    return any(verb in _QUERY_VERBS for verb in verbs[:3])


def says_nothing(output: str) -> bool:
    """True when ``output`` (a command's whole output) is empty, or every line of it but the exit status says
    nothing was found."""
    lines = [line.strip() for line in output[:4000].splitlines()[:_MOST_LINES * 4] if line.strip()]
    lines = [line for line in lines if not _STATUS_LINE.match(line)]
    return len(lines) <= _MOST_LINES and all(_NOTHING.match(line) for line in lines)


def empty_answer(attempt: Attempt, messages: Sequence[dict]) -> bool:
    """A failed query command (:func:`queries_only`) whose output (the result at ``attempt.index`` in
    ``messages``, else its error line) says only that there was nothing to find: answered, not failed."""
    if not attempt.failed or attempt.aborted or not is_shell_tool(attempt.tool) or not queries_only(attempt.target):
        return False
    output = content_text(messages[attempt.index].get("content")) if 0 <= attempt.index < len(messages) \
        else attempt.error
    return says_nothing(output)


_PULL_REQUEST = re.compile(r"(?:^|[;&|(]\s{0,4})(?:gh\s{1,4}pr|glab\s{1,4}mr)\s{1,4}([a-z-]{2,20})\s{1,4}"
                           r"(?:[^\s;&|]{1,200}\s{1,4}){0,3}?#?(\d{1,7})\b")
"""A ``gh pr`` (``glab mr``) command on a numbered pull request: its verb and number."""
_OVER_VERBS = frozenset({"merge", "close"})
_NOT_ONE = frozenset({"list", "create", "status"})
"""Verbs whose number is an option's value (``gh pr list --limit 5``), no pull request."""
_OVER_STATE = re.compile(r"""["']?state["']?\s{0,3}[:=]\s{0,3}["']?(?:MERGED|CLOSED)\b|\bmergedAt["']?\s{0,3}:\s{0,3}"\d"""
                         r"|^\W{0,4}state:\s{0,8}(?:MERGED|CLOSED)\b", re.I | re.M)
"""A pull request's view saying it is over (``"state":"MERGED"``, ``"mergedAt":"2026-…``, ``state: CLOSED``)."""


def _pull_request(command: str) -> tuple[str, str] | None:
    found = _PULL_REQUEST.search(command[:2000])
    return (found.group(1), found.group(2)) if found and found.group(1) not in _NOT_ONE else None


def over_later(attempts: Sequence[Attempt], messages: Sequence[dict]) -> list[bool]:
    """Per attempt: a failed command on a pull request that a later command merged or closed, or whose later view
    says it is merged or closed. One pass from the end."""
    over: set[str] = set()
    settled = [False] * len(attempts)
    for position in range(len(attempts) - 1, -1, -1):
        attempt = attempts[position]
        if not is_shell_tool(attempt.tool) or attempt.aborted:
            continue
        named = _pull_request(attempt.target)
        if named is None:
            continue
        verb, number = named
        if attempt.failed:
            settled[position] = number in over
        elif verb in _OVER_VERBS or (0 <= attempt.index < len(messages) and _OVER_STATE.search(
                content_text(messages[attempt.index].get("content"))[:20_000])):
            over.add(number)
    return settled


__all__ = ["empty_answer", "over_later", "queries_only", "says_nothing"]
