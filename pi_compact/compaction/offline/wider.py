"""A failed narrow check settled by a later passing run of a wider set that holds it (issue 20).

``bun test src/tests/landing/stats.test.tsx`` failed; the agent fixed the component, then ran ``cd apps/demo && bun
test src/tests/`` and everything passed: the narrow failure is history, though the two commands share no words and
ran from different folders. Each run's targets are named from where the session started (its folder joined with
each path it was given, an absolute one made relative to the session's folder): a later pass covers a failure when
it is of the same kind and runner (or ran in the same folder, a project script such as ``npm test`` for a tool's
run such as ``npx jest a.test.ts``, or the other way) and every target of the failure lies within one of its own
targets, or the pass ran all of a folder that holds it.

Some runners read their arguments as filters of the test files' paths, not as paths (:data:`_PATH_FILTERS`):
``bun test landing/`` runs every test file under its folder whose path holds ``landing/``, so it settles a failure
of ``bun test src/tests/landing/page-composition.test.tsx`` run in that folder or below, and of any file or folder
whose path under the pass's folder holds the filter.

Not settled: a wider run that failed (it is no pass), a narrower later run (``pytest tests/a.py`` does not answer
for ``pytest tests/``), a sibling folder's run, a pass an option narrowed (``-k total``, ``-t cart``), a failure of a
script of its own name (``npm run test:e2e`` is not what ``npm test`` runs), a check of another kind or runner.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from .cores import TRIAL_OPTIONS
from .jobs import FORMAT, LINT, SEARCH, TEST, TYPECHECK, Selection, selection
from .paths import PathNames
from .shell import placed_commands

_SCRIPT, _OTHER = "\0script", "\0tool"
"""The index keys of the project scripts' passes (``npm test``, ``make test``) and the tools' (``pytest``, ``npx
jest``) by the folder they ran in: a script answers for a tool's run there, a tool for a script's."""
_MOST_PARTS = 64
_NO_RUN = TRIAL_OPTIONS | {"--collect-only", "--co", "--listTests", "--list-tests", "--passWithNoTests"}
"""Options under which a check passes without running what it selects (it lists, collects or may find none)."""
_CHECKS = frozenset({TEST, TYPECHECK, LINT, FORMAT})
"""The checks that are run on files or folders (a build or a search is not run on a selection)."""
_PATH_FILTERS = frozenset({"bun", "jest", "vitest"})
"""Runners whose arguments filter the test files by their paths: ``bun test stats`` runs each test file whose path
holds ``stats`` (one that opens with ``./`` or ``/`` names a path), jest's and vitest's arguments are patterns
matched within the path (``pytest``'s are paths; ``-k`` filters test names)."""
_PATH_MARKS = ("./", "../", "/", "~")
_PATTERN_MARKS = frozenset("\\^$*+?()[]{}|")
"""Characters that make a jest or vitest argument a pattern that is more than its own words."""
_SUBCOMMANDS = frozenset({"run", "watch", "dev"})
_RELATED = frozenset({"related", "--findRelatedTests", "--related"})
"""Words that make the arguments source files whose tests run (``vitest related src/a.ts``), not filters."""
_MOST_FILTERS = 64
"""Filters kept per folder (the latest passes', as they are added from the end): a failure compares with these
only, not with every pass of a region that ran many."""


class WiderRuns:
    """The passing checks seen so far (the caller adds them from the end of the region), each as the targets it
    ran, by kind and runner."""

    def __init__(self, names: PathNames) -> None:
        self.names = names
        self.targets: dict[tuple[str, str, str], set[str]] = {}
        self.filters: dict[tuple[str, str, str], dict[str, set[str]]] = {}
        """By kind and runner as :attr:`targets`: each folder a filtering runner passed in and its filters."""

    def add(self, command: str, folder: str | None) -> None:
        """Index what a command that passed ran (each simple command's check, where the line put it)."""
        if not _NO_RUN.isdisjoint(command[:20_000].split()):
            return  # (it listed or collected: it ran nothing)
        for run, root in _runs(command, folder, self.names):
            if run.narrowed or run.named or run.kind not in _CHECKS:
                continue  # (it ran a selection: no wider set)
            # a project's script (`npm test`) stands for the tool run in its folder (`npx jest`), not in another
            filters = _pass_filters(run)
            for key in ((run.kind, run.runner, ""), (run.kind, _OTHER if run.runner else _SCRIPT, root)):
                self.targets.setdefault(key, set()).update(_targets(run, root, self.names))
                kept = self.filters.setdefault(key, {}).setdefault(root, set()) if filters else set()
                kept.update(sorted(filters)[:_MOST_FILTERS - len(kept)])

    def settles(self, command: str, folder: str | None) -> bool:
        """Whether the passes added cover the failed ``command``: it ran one check, and every target of it lies
        within a target of a pass of the same kind and runner (or, run in the same folder, a project script for a tool's
        run or a tool for a script's)."""
        runs = list(_runs(command, folder, self.names))
        if len(runs) != 1 or runs[0][0].named or runs[0][0].kind not in _CHECKS:
            return False  # (which check of `npm run build && npm test` failed is not known)
        run, root = runs[0]
        keys = [(run.kind, run.runner, ""), (run.kind, _SCRIPT if run.runner else _OTHER, root)]
        wide = [self.targets[key] for key in keys if key in self.targets]
        filtered = [self.filters[key] for key in keys if key in self.filters]
        filters = _failed_filters(run, root, self.names) if filtered else {}
        return bool(wide) and all(any(part in targets for part in _holders(target) for targets in wide)
                                  or _filtered_in(target, root, filters.get(target), not run.paths, filtered)
                                  for target in _targets(run, root, self.names))


def _runs(command: str, folder: str | None, names: PathNames) -> Iterator[tuple[Selection, str]]:
    """Each check ``command`` runs, with the folder it ran in named from the session's folder; a check run where
    the line does not say (``cd $DIR``) is left out, and so is a search (``| grep FAIL`` only filters what it
    printed)."""
    for words, place in placed_commands(command, folder):
        run = selection(words)
        if run is not None and run.kind != SEARCH and place is not None:
            yield run, _rooted(names, place)


def _rooted(names: PathNames, path: str) -> str:
    """``path`` named from the session's folder, ``""`` for that folder itself."""
    plain = names.plain(path) if path else ""
    return "" if plain in (".", "./") else plain.rstrip("/")


def _targets(run: Selection, root: str, names: PathNames) -> set[str]:
    """What a run ran, named from the session's folder: each path it was given under the folder it ran in (a Go
    package pattern, ``./pkg/...``, as its folder), or that folder when it was given none."""
    if not run.paths:
        return {root}
    return {_target(names, root, path) for path in run.paths}


def _target(names: PathNames, root: str, path: str) -> str:
    path = path.removesuffix("/...").removesuffix("...") or "."
    return _rooted(names, path if path.startswith("/") else posixpath.join(root, path) if root else path)


def _failed_filters(run: Selection, root: str, names: PathNames) -> dict[str, str]:
    """A failed run's arguments that a filtering runner (:data:`_PATH_FILTERS`) read as filters, by the target
    :func:`_targets` names for each (``src/tests/``: its folder's ``src/tests``)."""
    if run.runner not in _PATH_FILTERS:
        return {}
    return {_target(names, root, word.rstrip("/")): word for word in _positional(run.arguments, run.runner)
            if _is_filter(word, run.runner) and word.rstrip("/") in run.paths}


def _pass_filters(run: Selection) -> set[str]:
    """The filters of a passing run: its arguments but those that may be an option's value (``--timeout 5000``),
    unless that would leave none (then each may be a filter, and it ran at most what they match)."""
    if run.runner not in _PATH_FILTERS:
        return set()
    words = _positional(run.arguments, run.runner)
    sure = [word for at, word in enumerate(run.arguments) if word in words and not (
        at and run.arguments[at - 1].startswith("-") and "=" not in run.arguments[at - 1])]
    return {word for word in (sure or words) if _is_filter(word, run.runner)} if all(
        _is_filter(word, run.runner) for word in words) else set()


def _positional(arguments: tuple[str, ...], runner: str) -> list[str]:
    if not _RELATED.isdisjoint(arguments):
        return []
    words = [word for word in arguments if not word.startswith("-")]
    if runner == "vitest" and words[:1] and words[0] in _SUBCOMMANDS:
        return words[1:]
    return words


def _is_filter(word: str, runner: str) -> bool:
    """``word`` is matched within the paths (not a path a runner takes as it is, nor a pattern of more than its
    words)."""
    return bool(word) and not word.startswith(_PATH_MARKS) and word not in (".", "..") and (
        runner == "bun" or _PATTERN_MARKS.isdisjoint(word))


def _filtered_in(target: str, root: str, word: str | None, folder: bool, passes: list[dict[str, set[str]]]) -> bool:
    """Whether a pass of a filtering runner ran every file of ``target``: one that ran in a folder holding it, with
    a filter that each of its files' paths under that folder holds (a ``folder`` target's paths hold its name and a
    slash). A failed run's filter ``word`` ran each file under the failed run's ``root`` whose path holds it: a pass
    covers those from that folder or one above it, with a filter within ``word`` or within the folders between."""
    if word is not None:
        return any(_holds(filters, word) or (part != root and _holds(filters, _under(root, part) + "/"))
                   for part in _holders(root) for found in passes if (filters := found.get(part)) is not None)
    return any(_holds(filters, _under(target, part) + ("/" if folder and target != part else ""))
               for part in _holders(target) for found in passes if (filters := found.get(part)) is not None)


def _under(target: str, folder: str) -> str:
    """``target`` named from ``folder`` that holds it (``""`` for the folder itself)."""
    if target == folder:
        return ""
    return target[len(folder) + 1:] if folder else target


def _holds(filters: set[str], path: str) -> bool:
    return any(word in path for word in filters)


def _holders(target: str) -> Iterator[str]:
    """``target`` and every target that holds it: its folders (``src/tests`` of ``src/tests/a.ts``), the file of a
    test node (``tests/a.py`` of ``tests/a.py::T::test_b``), the session's folder for a relative one."""
    yield target
    if not target.startswith("/"):
        yield ""
    at = len(target)
    for _ in range(_MOST_PARTS):
        at = max(target.rfind("/", 0, at), target.rfind("::", 0, at))
        if at <= 0:
            return
        yield target[:at]


__all__ = ["WiderRuns"]
