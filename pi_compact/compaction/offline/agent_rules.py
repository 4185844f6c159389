"""The rules the agent says it works under: what a check of the project enforces, what the user wants as it restates it.

Agents learn rules from a failing check and say them once ("The architecture test enforces at most one class per
unit test file."), and restate what the user wants when they take a course from it ("Got it — you want to replace
the old runtime, not keep both."; "Since you want Docker to replace the subprocess approach, I'll …"). Neither says
"decided", yet the next agent must keep to both: it would write a second class into the test file or put the old
runtime back. A rule of a check is told by a check as its subject and a verb of enforcing; a restated wish by "you
want" with the way passed over ("not", "rather than", "instead of") or as the reason of the agent's course."""

from __future__ import annotations

import re

from .text import clip_words, sentences

_CHECK = (r"(?:tests?|test suite|linter|lint(?:ing)?|checks?|hooks?|ci|pipeline|rule|config|pylint|ruff|eslint|mypy"
          r"|flake8|black|prettier|radon|clippy|golangci-lint|pre-commit|tsc|type ?checker|formatter|make check)")
_ENFORCED = re.compile(
    r"^\W{0,3}(?:the\s{1,3}|our\s{1,3}|this\s{1,3}|an?\s{1,3})?(?:[\w`.-]{1,30}\s{1,3}){0,2}?" + _CHECK +
    r"\s{1,3}(?:enforces|requires|forbids|disallows|prohibits|only allows|allows only|allows at most|limits|caps"
    r"|rejects any|fails on any|demands)\s{1,3}\S", re.I)
"""A rule a check of the project holds the code to ("The architecture test enforces at most one class per file",
"Ruff requires sorted imports", "The pre-commit hook rejects any print call")."""
_WANT = re.compile(r"\byou(?:'d| would)?\s{1,3}(?:want|like|prefer|need)\s{1,3}(?:me\s{1,3})?(?:to\s{1,3})?"
                   r"([^.;!?\n]{6,200})", re.I)
_PASSED_OVER = re.compile(r"(?:,|—|–|-|\()\s{0,2}(?:not|rather than|instead of|no)\s\S"
                          r"|\s(?:rather than|instead of)\s\S", re.I)
"""The way the wish passes over ("…, not keep both", "… rather than beside it", "(no backwards compatibility …")."""
_RESTATES = re.compile(r"^\W{0,3}(?:(?:got it|understood|ok(?:ay)?|right|i see|makes sense)\W{1,4}\s{0,2})?"
                       r"(?:so\s{1,3}|since\s{1,3}|because\s{1,3}|as\s{1,3})?you(?:'d| would)?\s{1,3}(?:want|like"
                       r"|prefer|need)\b", re.I)
"""The agent restating the wish as what it heard or as the reason for its course, not asking ("do you want …?")."""
_READ = 20_000
_CHARS = 200
_MOST = 3


def agent_rules(text: str) -> list[str]:
    """The rules the agent's words ``text`` say it works under: a check's rule, the user's wish restated."""
    found: list[str] = []
    for sentence in sentences(text[:_READ]):
        said = sentence.replace("**", "").strip()
        if said.endswith("?"):
            continue
        if _ENFORCED.match(said):
            found.append(clip_words(f"Enforced by the project: {said}", _CHARS))
        elif _RESTATES.match(said) and (want := _WANT.search(said)) and _PASSED_OVER.search(want.group(0)):
            wish = re.split(r",\s{0,2}(?:I'll|I will|let me|so I|I'm going to)\b", want.group(1), maxsplit=1)[0]
            found.append(clip_words(f"The user wants: {wish.strip().rstrip(':,')}", _CHARS))
        if len(found) >= _MOST:
            break
    return found


__all__ = ["agent_rules"]
