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
import posixpath
from bisect import bisect_left
from ...accessors import content_text
from .facts import Attempt, exit_status, is_shell_tool, shell_command
from .shell import command_words, final_folder

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


# -- the branch in force at the region's end ----------------------------------------------------------------

_SAID_BRANCH = re.compile(r"^(?:Switched to (?:a new )?branch|Switched to and reset branch|Reset branch|Already on)"
                          r" '([^'\n]{1,200})'|^On branch (\S{1,200})\s*$")
"""git's own words on the branch the work is on: ``Switched to branch 'x'`` (checkout, switch, ``gh pr checkout``),
``Already on 'x'``, ``On branch x`` (``git status``)."""
_DETACHED = re.compile(r"^(?:HEAD detached (?:at|from) |HEAD is now at |You are in 'detached HEAD' state)")
"""git's words for a checkout of a commit, not a branch: no branch is in force."""
_COMMIT_ID = re.compile(r"^[0-9a-f]{7,40}$")
_FILE_LIKE = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")
"""A name with a file's extension (``src/app.tsx``): ``git checkout`` of a file puts it back, it moves no branch."""
_NOT_BRANCHES = frozenset({".", "-", "HEAD", "--force", "-f"})
_GIT_GLOBALS = frozenset({"-C", "-c", "--git-dir", "--work-tree"})
_CREATE = {"checkout": ("-b", "-B", "--orphan"), "switch": ("-c", "-C", "--create", "--force-create", "--orphan")}
_PUSH_UPSTREAM = frozenset({"-u", "--set-upstream"})
_OUTPUT_CHARS = 20_000
_COMMAND_CHARS = 4000


def branch_in_force(listed: list[dict]) -> str:
    """The branch the work is on when the region ends, in the order things happened: the branch each git command's
    output reports (``Switched to branch 'x'``, ``On branch x``, a commit's ``[x 1a2b3c]``; a detached HEAD is none)
    and the one each successful checkout, switch, rename or upstream push moved to (``git checkout b``, ``git switch
    -c c``, ``git branch -m d``, ``git push -u origin e``; a worktree's branch once a later command works in it). A
    failed checkout moves nothing; ``git checkout -- file`` or ``git checkout src/app.ts`` is no branch move. ``""``
    when no command says, ``"the branch of PR #12"`` when only ``gh pr checkout 12`` does."""
    results = {message.get("toolCallId"): message for message in listed
               if message.get("role") == "toolResult" and isinstance(message.get("toolCallId"), str)}
    branch, worktrees = "", {}
    for message in listed:
        blocks = message.get("content") if message.get("role") == "assistant" else None
        for block in blocks if isinstance(blocks, list) else ():
            if not isinstance(block, dict) or block.get("type") != "toolCall":
                continue
            command = (shell_command(block.get("name"), block.get("arguments")) or "")[:_COMMAND_CHARS]
            if "git" not in command and "gh " not in command and not worktrees:
                continue
            answer = results.get(block.get("id"))
            text = content_text(answer.get("content"))[:_OUTPUT_CHARS] if isinstance(answer, dict) else ""
            failed = exit_status(answer, text)[1] if isinstance(answer, dict) else False
            if not failed:
                branch = _moved_to(command, branch, worktrees)
            said = _reported_branch(text)
            branch = said if said is not None else branch
    return branch


def _moved_to(command: str, branch: str, worktrees: dict[str, str]) -> str:
    """The branch after ``command`` succeeded, having been on ``branch``; ``worktrees`` gathers the folders of
    worktrees added with their branches (a later command that works there is on that branch)."""
    place = final_folder(command)
    for words in command_words(command):
        program, rest = words[0].rsplit("/", 1)[-1], words[1:]
        if program == "cd" and place and posixpath.normpath(place) in worktrees:
            branch = worktrees[posixpath.normpath(place)]
        elif program == "gh" and rest[:2] == ["pr", "checkout"] and len(rest) > 2:
            branch = f"the branch of PR #{rest[2].lstrip('#')}"
        elif program == "git":
            branch = _git_moved_to(rest, branch, worktrees)
    return branch


def _git_moved_to(args: list[str], branch: str, worktrees: dict[str, str]) -> str:
    """The branch after one git command (its words after ``git``) that succeeded."""
    while args and args[0].startswith("-"):
        if args[0] == "-C" and len(args) > 1 and posixpath.normpath(args[1]) in worktrees:
            branch = worktrees[posixpath.normpath(args[1])]
        args = args[2:] if args[0] in _GIT_GLOBALS else args[1:]
    if not args:
        return branch
    subcommand, rest = args[0], args[1:]
    if subcommand in _CREATE:
        created = next((rest[at + 1] for at, word in enumerate(rest[:-1]) if word in _CREATE[subcommand]), "")
        if created:
            return created
        if subcommand == "checkout" and "--" in rest:
            return branch  # `git checkout -- a.py`, `git checkout main -- a.py`: files put back
        if "--detach" in rest:
            return ""
        named = [word for word in rest if not word.startswith("-")]
        if len(named) != 1 or named[0] in _NOT_BRANCHES or _FILE_LIKE.search(named[0]):
            return branch  # several names, `.`, a file: files put back
        return "" if _COMMIT_ID.match(named[0]) else named[0]
    if subcommand == "branch" and rest[:1] and rest[0] in ("-m", "-M", "--move") and len(rest) > 1:
        return rest[-1]
    if subcommand == "push" and _PUSH_UPSTREAM & set(rest):
        named = [word for word in rest if not word.startswith("-")]
        return named[1].split(":", 1)[-1] if len(named) > 1 and named[1] not in _NOT_BRANCHES else branch
    if subcommand == "worktree" and rest[:1] == ["add"]:
        created = next((rest[at + 1] for at, word in enumerate(rest[:-1]) if word in ("-b", "-B")), "")
        named = [word for at, word in enumerate(rest[1:], 1) if not word.startswith("-")
                 and rest[at - 1] not in ("-b", "-B", "--reason")]
        if named and (created or len(named) > 1):
            worktrees[posixpath.normpath(named[0])] = created or named[1]
    return branch


def _reported_branch(text: str) -> str | None:
    """The last branch git's output in ``text`` says the work is on (``""`` for a detached HEAD), or ``None`` when it
    says none."""
    said = None
    for line in text.splitlines():
        if (found := _SAID_BRANCH.match(line)) is not None:
            said = found.group(1) or found.group(2)
        elif (header := _HEADER.match(line)) is not None:
            said = header.group(1)
        elif _DETACHED.match(line):
            said = ""
    return said


__all__ = ["branch_in_force", "git_mistake", "git_reports", "report_before"]
