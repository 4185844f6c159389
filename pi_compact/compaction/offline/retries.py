"""The same operation tried again: only its latest outcome is current (issue 20).

``git rebase origin/main`` stopped on a conflict; the agent resolved it and ran ``git rebase --continue``, which
failed on a file still unmerged. The repository is in the state the last attempt left: a summary that lists the
conflict beside the new error sends the next agent to a problem that is no longer there. So a failure is
*superseded* by a later failed attempt of the same operation, in the same place:

- the same command run again on the same things, whatever its options, wrappers and setup (its core, :mod:`.cores`,
  holds the earlier one's: ``pytest tests/a.py -x`` then ``uv run pytest tests/a.py -v``; ``docker compose up -d``
  then ``sudo docker compose up -d --build``);
- a stopped git operation (``rebase``, ``merge``, ``cherry-pick``, ``revert``, ``am``) taken on by its ``--continue``
  or ``--skip``, which failed, or succeeded as its status shows (``git add x && git rebase --continue``).

A later success of the same core settles a failure already (:class:`.errors._CoresLater`). Another operation
(``git merge main`` after a failed ``git rebase main``), other things (``pytest tests/b.py``), another place, a
``--abort`` (the operation given up, not done) supersede nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cores import Core, failed_core, passed_core, unwrapped
from .facts import Attempt, is_shell_tool
from .shell import GIT_VALUES, after_options, command_words, final_folder

_SEQUENCERS = frozenset({"rebase", "merge", "cherry-pick", "revert", "am"})
"""git operations that stop midway (on a conflict) and are taken on again by ``--continue`` or ``--skip``."""
_RESUME = frozenset({"--continue", "--skip"})


def superseded(attempts: Sequence[Attempt]) -> list[bool]:
    """Per attempt: a failed shell command a later attempt of the same operation superseded (see the module). One
    pass from the end, the later attempts indexed by core and place."""
    later = _Later()
    found = [False] * len(attempts)
    for position in range(len(attempts) - 1, -1, -1):
        attempt = attempts[position]
        if attempt.aborted or not is_shell_tool(attempt.tool):
            continue
        if attempt.failed:
            found[position] = later.supersede(attempt)
        later.add(attempt)
    return found


class _Later:
    def __init__(self) -> None:
        self.failed: dict[Core, set[str]] = {}
        """The cores of the later failed commands, each with the places it ran."""
        self.resumed: dict[str, set[str]] = {}
        """The git operations a later ``--continue`` or ``--skip`` took on, each with the places it ran."""

    def add(self, attempt: Attempt) -> None:
        place = _place(attempt)
        if attempt.failed:
            for core in failed_core(attempt.target):
                self.failed.setdefault(core, set()).add(place)
        shown = failed_core(attempt.target) if attempt.failed else passed_core(attempt.target)
        for operation in _resumed(attempt.target):
            if ("git", operation) in shown:  # (a success whose status a last step hid proves nothing)
                self.resumed.setdefault(operation, set()).add(place)

    def supersede(self, attempt: Attempt) -> bool:
        place = _place(attempt)
        cores = failed_core(attempt.target)
        if cores and all(_at(place, self.failed.get(core)) for core in cores):
            return True
        only = next(iter(cores)) if len(cores) == 1 else ()
        return len(only) > 1 and only[0] == "git" and only[1] in _SEQUENCERS and _at(place, self.resumed.get(only[1]))


def _resumed(command: str) -> set[str]:
    """The git operations ``command`` takes on again (``git rebase --continue``, ``GIT_EDITOR=true git cherry-pick
    --skip``)."""
    found = set()
    for words in command_words(command):
        words = unwrapped(words)
        if not words or words[0].rsplit("/", 1)[-1] != "git":
            continue
        rest = after_options(words[1:], GIT_VALUES)
        if rest and rest[0] in _SEQUENCERS and not _RESUME.isdisjoint(rest[1:]):
            found.add(rest[0])
    return found


def _place(attempt: Attempt) -> str:
    """Where a command ran (``cd web && npm test``: ``web``; ``""`` where the shell stood or a place not known)."""
    folder = final_folder(attempt.target, attempt.folder)
    return folder.rstrip("/").removeprefix("./") if folder else ""


def _at(place: str, places: set[str] | None) -> bool:
    """Whether a later attempt ran in ``place``: there, or where the shell stood (either named no folder)."""
    return bool(places) and (not place or place in places or "" in places)


__all__ = ["superseded"]
