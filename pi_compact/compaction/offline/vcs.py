"""Version control command lines (git, Jujutsu's ``jj``): which subcommand a call ran and which files a reading one
showed, so a failed call is judged by what the same tool did later.

Agents fumble a VCS's syntax and then find it: ``jj show ticket/X -- a.tsx`` is refused ("unexpected argument"),
``jj file show ticket/X:a.tsx`` too ("Failed to parse fileset"), then ``jj diff --from X~ --to X -- a.tsx`` shows
the file; ``jj describe -m …`` fails on a stale working copy and succeeds after ``jj workspace update-stale``. A
failure is history once a later call of the same VCS ran the same subcommand and succeeded (``jj git push`` after
a failed ``jj git push``, ``git commit`` after a hook's refusal), or, for a call that only reads, once a later
reading call of that VCS showed every file it asked for. The failed call must be the VCS's alone (a filter of its
output or a ``cd`` aside): ``npm test && git commit`` may have failed on the tests.
"""

from __future__ import annotations

import re

from .shell import simple_commands

VCS = frozenset({"git", "jj"})
"""Version control programs: git, and Jujutsu (``jj``), which agents drive as they drive git."""
_GLOBAL_VALUES = {
    "git": frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"}),
    "jj": frozenset({"-R", "--repository", "--at-op", "--at-operation", "--config", "--config-toml", "--config-file",
                     "--color"}),
}
"""Each VCS's own options before its subcommand that take a value (``git -C web push``, ``jj -R ../repo log``)."""
_GROUPS = {
    "git": frozenset({"stash", "remote", "worktree", "submodule", "notes", "bisect", "lfs", "config"}),
    "jj": frozenset({"file", "bookmark", "branch", "git", "op", "operation", "workspace", "config", "util", "sparse",
                     "tag", "debug"}),
}
"""Subcommands that name a group of them: the subcommand is the pair (``jj git push``, ``jj file show``,
``git stash pop``)."""
_READERS = {
    "git": frozenset({"show", "log", "diff", "blame", "cat-file", "grep"}),
    "jj": frozenset({"show", "log", "diff", "cat", "interdiff", "evolog", "obslog", "file show", "file annotate",
                     "file list"}),
}
"""Subcommands that only show what a revision holds (its files, their history)."""
_SETUP = frozenset({"cd", "pushd", "popd", "export", "set", "true", ":"})
_FILTERS = frozenset({"head", "tail", "grep", "egrep", "less", "more", "wc", "sort", "uniq", "cut", "cat", "tee"})
"""Pipeline stages that only trim what the VCS printed (their status is theirs, the output the VCS's)."""
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w{0,100}=")
_REVISION_PATH = re.compile(r"^[^\s:]{1,200}:(?!/)([^\s:]{1,400})$")
"""``HEAD~1:src/a.py``, ``ticket/X:apps/a.tsx``: a file as a revision holds it."""
_FILE_NAME = re.compile(r"[^/\s]\.[A-Za-z][A-Za-z0-9]{0,7}$")
_MOST_WORDS = 60

Subcommand = tuple[str, ...]
"""A VCS and its subcommand: ``("jj", "git", "push")``, ``("git", "commit")``."""


def _call(words: list[str]) -> tuple[Subcommand, list[str]] | None:
    """The subcommand a simple command's words run and the words after it, or ``None`` for no VCS call."""
    words = words[:_MOST_WORDS]
    while words and _ASSIGNMENT.match(words[0]):
        words = words[1:]  # JJ_EDITOR=true jj split …, GIT_EDITOR=true git rebase --continue
    if not words or (program := words[0].rsplit("/", 1)[-1]) not in VCS:
        return None
    rest = words[1:]
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in _GLOBAL_VALUES[program] else rest[1:]
    if not rest:
        return None
    size = 2 if rest[0] in _GROUPS[program] and len(rest) > 1 and not rest[1].startswith("-") else 1
    return (program, *rest[:size]), rest[size:]


def _files(subcommand: Subcommand, args: list[str]) -> frozenset[str]:
    """The files a reading call asks for: those after ``--``, a revision's file (``REV:path``), a word with a file's
    extension; a bare word is as often a revision or a bookmark as a file."""
    if " ".join(subcommand[1:]) not in _READERS[subcommand[0]]:
        return frozenset()
    if "--" in args:
        return frozenset(arg for arg in args[args.index("--") + 1:] if arg and not arg.startswith("-"))
    found = set()
    for arg in args:
        if arg.startswith("-"):
            continue
        if shown := _REVISION_PATH.match(arg):
            found.add(shown.group(1))
        elif ".." not in arg and _FILE_NAME.search(arg):
            found.add(arg)
    return frozenset(found)


def _operands(args: list[str]) -> frozenset[str]:
    """The things a call names (``dev`` of ``git rebase dev``): its words that are no option nor an option's value
    (``-m "msg"``, ``-r @``), so a later ``git rebase main`` does not answer for it, ``describe -m "other"`` does."""
    found, after_option = set(), False
    for arg in args:
        if arg.startswith("-"):
            after_option = "=" not in arg and arg != "--"
        elif not after_option:
            found.add(arg)
        else:
            after_option = False
    return frozenset(found)


def vcs_calls(command: str) -> list[tuple[Subcommand, frozenset[str], frozenset[str], frozenset[str]]] | None:
    """The VCS calls of ``command``, each as its subcommand, the files it reads (empty for one that does not read),
    the things it names (:func:`_operands`) and all its words, when the command is those calls alone (filters of their output and setup such as ``cd`` aside); else
    ``None``: another program may be what ran or failed."""
    found = []
    for joint, words in simple_commands(command):
        while words and _ASSIGNMENT.match(words[0]):
            words = words[1:]
        program = words[0].rsplit("/", 1)[-1] if words else ""
        if program in _SETUP or (joint == "|" and program in _FILTERS):
            continue
        call = _call(words)
        if call is None:
            return None
        found.append((call[0], _files(*call), _operands(call[1]), frozenset(call[1])))
    return found or None


class VcsLater:
    """The VCS subcommands later calls ran successfully and the files later reading calls showed, each with the
    places they ran, gathered from the end of the region (see the module)."""

    def __init__(self) -> None:
        self.ran: dict[Subcommand, list[tuple[str, frozenset[str]]]] = {}
        self.read: dict[tuple[str, str], set[str]] = {}

    def add(self, command: str, place: str | None) -> None:
        if any(joint in ("||", "&") for joint, _ in simple_commands(command)):
            return  # (which part ran, or whether it finished, its status does not say)
        for subcommand, files, _, words in vcs_calls(command) or ():
            self.ran.setdefault(subcommand, []).append((place or "", words))
            for path in files:
                self.read.setdefault((subcommand[0], path), set()).add(place or "")

    def settles(self, command: str, place: str | None) -> bool:
        """Whether every VCS call of a failed ``command`` ran since (or, reading, had its files shown since) where
        it ran, or where the shell stood."""
        calls = vcs_calls(command)
        return bool(calls) and all(self._ran(subcommand, named, place) or (files and all(
            self._at(self.read.get((subcommand[0], path)), place) for path in files))
            for subcommand, files, named, _ in calls)

    def _ran(self, subcommand: Subcommand, named: frozenset[str], place: str | None) -> bool:
        """A later success of ``subcommand`` that named every thing the failed call named, where it ran."""
        return any(named <= words and (not place or there in ("", place))
                   for there, words in self.ran.get(subcommand, ()))

    @staticmethod
    def _at(places: set[str] | None, place: str | None) -> bool:
        return bool(places) and (not place or place in places or "" in places)


__all__ = ["VCS", "VcsLater", "vcs_calls"]
