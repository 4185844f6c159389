"""Mistakes in git's state that no failing command shows: a push of the wrong branch, a commit made on a branch the
shell had drifted into (a ``cd`` into a worktree, then ``git commit`` there), a merge that carried unwanted files.
Every command succeeded; the error is in what git reported (``[feature/x 197e4e6] …``, ``main -> main``), and the
agent or the user says so afterwards ("that committed to `feature/x`, not `main`", "Partial push — only went to
`ed29cd6`", "the fix went to the wrong branch").

:func:`git_mistake` tells such a sentence: a git action (commit, push, merge, branch) with words of a mismatch
(the wrong branch, "to `x`, not `y`", "instead of", "by mistake", a partial push, files it should not have carried).
:func:`git_reports` gives, per git command's result, the lines in which git said where the work went (the commit's
``[branch sha]`` header, the push's ``old..new  src -> dst``): what the sentence is about, with the commit ids and
branch names the next agent can look up.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from ...accessors import content_text
from .facts import Attempt, is_shell_tool

_ACTION = re.compile(r"\b(?:commit(?:s|ted)?|push(?:es|ed)?|merge[sd]?|branch(?:es)?|rebased?|cherry-picked|checked out|landed)"
                     r"\b", re.I)
"""Words for what git did with the work (``landed``: a commit on a branch)."""
_MISMATCH = re.compile(
    r"\bwrong (?:branch|remote|repo(?:sitory)?|worktree|directory|folder)\b|\bpartial push\b"
    r"|\b(?:on|to|into|from) `[^`\n]{1,100}`,? (?:and )?not (?:on |to |into )?`[^`\n]{1,100}`"
    r"|\binstead of (?:on |to |into )?`[^`\n]{1,100}`|\bby mistake\b|\baccidentally\b|\bmistakenly\b"
    r"|\bunintended(?:ly)?\b|\bunwanted\b|\bdrifted\b|\bnever (?:got )?pushed\b|\bonly (?:went|pushed|reached) to\b",
    re.I)
"""Words that say git's work went elsewhere than meant (not a command's failure)."""
_HEADER = re.compile(r"^\[([\w./+-]{1,120})(?: \(root-commit\))? ([0-9a-f]{7,40})\] ")
"""``git commit``'s first line: ``[main a821905] fix: …`` — the branch the commit landed on, and its id."""
_PUSHED = re.compile(r"^[ \t]{0,4}(?:[+*=!-][ \t]{1,4})?([0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}|\[new branch\])[ \t]{1,40}"
                     r"([^\s>]{1,120}) -> ([^\s]{1,120})")
"""``git push``'s line per branch: ``   ed29cd6..197e4e6  feature/x -> feature/x``."""
_GIT = re.compile(r"\bgit\b[^|;&\n]{0,80}?\b(?:commit|push|merge|pull|cherry-pick|rebase)\b")
_REPORT_CHARS = 200
_SCAN_LINES = 200


def git_mistake(sentence: str) -> bool:
    """True when ``sentence`` says git's work went elsewhere than meant: a git action and a mismatch."""
    return bool(_ACTION.search(sentence)) and bool(_MISMATCH.search(sentence))


def git_reports(messages: list[dict], attempts: tuple[Attempt, ...]) -> list[tuple[int, str]]:
    """Per git command that committed, pushed or merged and succeeded: its result's index and where git said the
    work went (``[feature/x 197e4e6]; ed29cd6..197e4e6 feature/x -> feature/x``), in order."""
    found = []
    for attempt in attempts:
        if attempt.failed or not is_shell_tool(attempt.tool) or not _GIT.search(attempt.target[:2000]) \
                or not 0 <= attempt.index < len(messages):
            continue
        said = _where_it_went(content_text(messages[attempt.index].get("content")))
        if said:
            found.append((attempt.index, said))
    return found


def _where_it_went(text: str) -> str:
    parts, branches = [], set()
    for line in text.splitlines()[:_SCAN_LINES]:
        header = _HEADER.match(line)
        pushed = _PUSHED.match(line) if not header else None
        if header:
            parts.append(f"[{header.group(1)} {header.group(2)}]")
            branches.add(header.group(1))
        elif pushed and pushed.group(2) in branches and pushed.group(2) == pushed.group(3):
            parts.append("pushed")  # (the branch just committed to, pushed under its name: said once)
        elif pushed:
            parts.append(f"{pushed.group(1)} {pushed.group(2)} -> {pushed.group(3)}")
    said = "; ".join(dict.fromkeys(parts))
    return said[:_REPORT_CHARS]


def report_before(reports: list[tuple[int, str]], at: int, since: int) -> str:
    """The last of ``reports`` (in order of index) between ``since`` and ``at``: the git output a sentence at
    ``at`` speaks of, or ``""``."""
    position = bisect_left(reports, at, key=lambda report: report[0])
    if position == 0 or reports[position - 1][0] <= since:
        return ""
    return reports[position - 1][1]


__all__ = ["git_mistake", "git_reports", "report_before"]
