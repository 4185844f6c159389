"""A failed narrow check settled by a later passing run of a wider set that holds it (issue 20).

``bun test src/tests/landing/stats.test.tsx`` failed; the agent fixed the component, then ran ``cd apps/demo && bun
test src/tests/`` and everything passed: the narrow failure is history, though the two commands share no words and
ran from different folders. Each run's targets are named from where the session started (its folder joined with
each path it was given, an absolute one made relative to the session's folder): a later pass covers a failure when
it is of the same kind and runner (or ran in the same folder, a project script such as ``npm test`` for a tool's
run such as ``npx jest a.test.ts``, or the other way) and every target of the failure lies within one of its own
targets, or the pass ran all of a folder that holds it.

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


class WiderRuns:
    """The passing checks seen so far (the caller adds them from the end of the region), each as the targets it
    ran, by kind and runner."""

    def __init__(self, names: PathNames) -> None:
        self.names = names
        self.targets: dict[tuple[str, str, str], set[str]] = {}

    def add(self, command: str, folder: str | None) -> None:
        """Index what a command that passed ran (each simple command's check, where the line put it)."""
        if not _NO_RUN.isdisjoint(command[:20_000].split()):
            return  # (it listed or collected: it ran nothing)
        for run, root in _runs(command, folder, self.names):
            if run.narrowed or run.named or run.kind not in _CHECKS:
                continue  # (it ran a selection: no wider set)
            # a project's script (`npm test`) stands for the tool run in its folder (`npx jest`), not in another
            for key in ((run.kind, run.runner, ""), (run.kind, _OTHER if run.runner else _SCRIPT, root)):
                self.targets.setdefault(key, set()).update(_targets(run, root, self.names))

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
        return bool(wide) and all(any(part in targets for part in _holders(target) for targets in wide)
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
    found = set()
    for path in run.paths:
        path = path.removesuffix("/...").removesuffix("...") or "."
        found.add(_rooted(names, path if path.startswith("/") else posixpath.join(root, path) if root else path))
    return found


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
