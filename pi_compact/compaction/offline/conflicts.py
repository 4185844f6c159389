"""How merge conflicts were resolved: which side each file took.

After ``git merge main`` stops on conflicts, the agent runs ``git checkout --theirs a.go b.go`` and says "keeping
main's version of the tool files": a choice per file the next agent must not undo (a later merge that takes the
other side silently reverts it). The work log shows only a command; the decision is the side taken. One line per
resolution, the side named by what it is in that merge or rebase (``--theirs`` of ``git merge main`` is main's
version; of ``git rebase main`` it is the commits being replayed), the files listed up to :data:`_FILES`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from .facts import Attempt, is_shell_tool
from .text import clip_words

_PIECES = re.compile(r"&&|\|\||;|\||\n")
"""What joins the commands of one shell line (each piece is stripped: no run of spaces in the pattern)."""
_STARTS = re.compile(r"^git\s{1,3}(merge|rebase|pull|cherry-pick)\b")
"""A command that can stop on conflicts, and whose other side ``--theirs`` then names."""
_SIDE = re.compile(r"^git\s{1,3}(?:checkout|restore)\s[^\n]{0,80}?--(theirs|ours)\b")
_FROM_REF = re.compile(r"^git\s{1,3}checkout\s{1,3}([\w./-]{1,80})\s{1,3}--\s")
"""``git checkout main -- path``: a file taken whole from a branch."""
_STRATEGY = re.compile(r"^git\s{1,3}merge\s[^\n]{0,80}?(?:-X\s{0,2}|--strategy-option[= ])(theirs|ours)\b")
_REF = re.compile(r"(?![-\d])[\w./@^~-]{1,80}")
"""A branch or a commit named on the command line: not an option, not a redirection (``2>&1``)."""
_FILES = 4
_LINE_CHARS = 240


def _side(side: str, command: str, other: str) -> str:
    """What ``--theirs`` / ``--ours`` is in the conflict ``command`` (merge, rebase, …) with ``other``."""
    other = other or "the other branch"
    if command == "rebase":  # a rebase replays the branch onto ``other``: "ours" is ``other``
        return f"{other}'s version (--ours)" if side == "ours" else "the rebased branch's version (--theirs)"
    return f"{other}'s version (--theirs)" if side == "theirs" else "the current branch's version (--ours)"


def _words(piece: str) -> list[str]:
    try:
        return shlex.split(piece)
    except ValueError:
        return piece.split()


def _paths(words: list[str]) -> list[str]:
    """The file operands of a checkout or restore: no options, no ref before ``--``."""
    if "--" in words:
        words = words[words.index("--") + 1 :]
    else:
        words = words[2:]
    return [word.rsplit("/", 1)[-1] for word in words if word and not word.startswith("-") and word != "."] or (
        ["all files"] if "." in words else [])


def _listed(paths: list[str]) -> str:
    names = list(dict.fromkeys(paths))
    more = len(names) - _FILES
    return ", ".join(names[:_FILES]) + (f" (+{more} more)" if more > 0 else "")


def resolutions(attempts: Sequence[Attempt]) -> list[str]:
    """``Conflicts resolved: <side> of <files>`` for each side the region's commands took after a merge, rebase, pull
    or cherry-pick (a merge strategy option first); each cut to :data:`_LINE_CHARS`."""
    found: list[str] = []
    taken: dict[str, list[str]] = {}  # side -> its files: one line per side taken, however many commands took it
    command, other = "", ""
    for attempt in sorted(attempts, key=lambda a: a.index):
        if not is_shell_tool(attempt.tool) or attempt.aborted:
            continue
        for piece in (part.strip() for part in _PIECES.split(attempt.target[:4000])):
            if re.match(r"git\s{1,3}(?:commit\b|(?:merge|rebase|cherry-pick)\s{1,3}--(?:abort|quit)\b)", piece):
                command, other = "", ""  # the conflicts are over: a later checkout takes no side
                continue
            started = _STARTS.match(piece)
            strategy = _STRATEGY.match(piece)
            if started and not re.search(r"\s--(?:continue|skip)\b", piece):  # (a rebase going on keeps its sides)
                words = [w for w in _words(piece)[2:] if _REF.fullmatch(w) and w not in ("theirs", "ours")]
                command, other = started.group(1), (words[-1] if words else "")
            if strategy and not attempt.failed:
                found.append(f"Conflicts resolved: {_side(strategy.group(1), 'merge', other)} for every conflict")
                continue
            if not command or attempt.failed:
                continue
            side, from_ref = _SIDE.match(piece), _FROM_REF.match(piece)
            if side and (paths := _paths(_words(piece))):
                taken.setdefault(_side(side.group(1), command, other), []).extend(paths)
            elif from_ref and not from_ref.group(1).startswith(("-", "HEAD")) and (paths := _paths(_words(piece))):
                taken.setdefault(f"{from_ref.group(1)}'s version", []).extend(paths)
    found += [f"Conflicts resolved: {side} of {_listed(paths)}" for side, paths in taken.items()]
    return [clip_words(line, _LINE_CHARS) for line in dict.fromkeys(found)]
