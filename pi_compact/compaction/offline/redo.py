"""What a redo has not reached yet: the files an earlier run of the same job acted on that the run under way has not.

When the user asks for a job again ("sorry I messed up, can you do it again") and the region ends while the agent
is redoing it, the agent's last words name only the file it was on ("Now `auto_commit.go` - stage type changes").
The earlier run shows the rest of the job: the files it went on to act on, in its order. Those the redo has not
touched yet are the work still ahead, whatever the job is (staging hunks, renaming, reformatting).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .facts import Attempt

_REDO = re.compile(r"\b(?:re-?do|start (?:it )?over|from scratch|(?:do|try|run|make|go)\b[^.?!\n]{0,30}"
                   r"\b(?:again|one more time))\b", re.I)
"""A request to do the job again ("can you do it again", "redo it", "try that again from scratch")."""
_REDO_WORDS = 15
"""A request to redo is short: a longer one that says "again" asks for something of its own."""
_PATH = re.compile(r"(?<![\w.~/-])[\w.~/-]*\w\.\w{1,8}\b")
"""A file name in a command, read from the start of its run of path characters only (tried inside the run too,
a long run without a dot took time growing with its square)."""
_PIECE = re.compile(r"\|\|?|&&|;|\n")
_LOOKS = frozenset({"cat", "head", "tail", "less", "ls", "find", "grep", "rg", "wc", "diff", "echo", "printf", "cd",
                    "sed", "awk", "sort", "jq", "stat", "file", "tree", "true", "xxd"})
_GIT_LOOKS = frozenset({"show", "log", "status", "diff", "blame", "ls-files", "rev-parse", "grep", "reflog"})
_FILES = 6
"""Files named as still to redo, at most (the earlier run's order; the rest is said as a count)."""


def asks_redo(request: str) -> bool:
    """``request`` asks the agent to do the previous job again."""
    return len(request.split()) <= _REDO_WORDS and bool(_REDO.search(request))


def redo_left(previous: Sequence[Attempt], current: Sequence[Attempt], name: Callable[[str], str],
              known: set[str]) -> list[str]:
    """The files (named by ``name``, among ``known``) that ``previous`` (the earlier run's calls) acted on and
    ``current`` (the redo's calls so far) has not, in the earlier run's order; ``[]`` unless the redo has already
    acted on one of the earlier run's files (then it follows that run, and the rest is what is left)."""
    before = _acted_on(previous, name, known)
    now = set(_acted_on(current, name, known))
    if not now & set(before):
        return []
    return [path for path in before if path not in now]


def _acted_on(attempts: Sequence[Attempt], name: Callable[[str], str], known: set[str]) -> list[str]:
    """The known files the calls changed or acted on (not only looked at), in order, each once."""
    found: dict[str, None] = {}
    for attempt in attempts:
        if attempt.failed or attempt.lookup or not attempt.target:
            continue
        if "/" in attempt.target and "\n" not in attempt.target and " " not in attempt.target.strip():
            candidates = [attempt.target]  # a file tool's path
        elif _acts(attempt.target):
            candidates = _PATH.findall(attempt.target)
        else:
            continue
        for candidate in candidates:
            path = name(candidate.strip("'\""))
            if path in known:
                found[path] = None
    return list(found)


def _acts(command: str) -> bool:
    """Some piece of ``command`` runs a program that changes something (``printf 'y' | git add -p x``), not only
    one that shows something (``git diff x | head``)."""
    for piece in _PIECE.split(command):
        words = piece.strip().split()
        if not words or words[0].startswith("#"):
            continue
        program = words[0].rsplit("/", 1)[-1]
        if program == "git":
            sub = next((w for w in words[1:] if not w.startswith("-")), "")
            if sub and sub not in _GIT_LOOKS:
                return True
        elif program not in _LOOKS and "=" not in program:
            return True
    return False


def redo_step(left: Sequence[str]) -> str:
    """The Next Steps line for the files a redo has not reached."""
    if not left:
        return ""
    shown = ", ".join(f"`{path}`" for path in left[:_FILES])
    more = f" and {len(left) - _FILES} more" if len(left) > _FILES else ""
    return f"Redo still to reach (the earlier run went on to these, in this order): {shown}{more}"


__all__ = ["asks_redo", "redo_left", "redo_step"]
