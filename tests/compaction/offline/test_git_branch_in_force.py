"""The Git line names the branch in force when the region ends: the latest of the branch a git command's output
reports (``Switched to branch 'x'``, ``On branch x``, a commit's ``[x 1a2b3c]``) and the one a successful checkout,
switch or worktree moved to, in the order they happened. A failed checkout moves nothing, nor does a checkout of
files (``git checkout -- a.py``, ``git checkout src/app.ts``). Each case in the shapes of three agents' shell tools."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.details import GIT_LABEL

from ..messages import assistant, bash_fail, call, result
from .test_classes import summarize
from .test_details import CWD, _region

FORMATS = {
    "pi": lambda command: ("bash", {"command": command}),
    "claude": lambda command: ("Bash", {"command": command, "description": "Run git"}),
    "codex": lambda command: ("exec_command", {"cmd": command}),
}
START = ("git checkout -b feature/a", "Switched to a new branch 'feature/a'")


def _git_line(steps: list[tuple[str, str, bool]], agent: str) -> str:
    """The summary's Git line after ``steps`` (command, output, failed), the first on branch ``feature/a``."""
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    for number, (command, output, failed) in enumerate([(*START, False), *steps]):
        tool, arguments = FORMATS[agent](command)
        messages += [assistant(call(f"g{number}", tool, **arguments)),
                     result(f"g{number}", tool, bash_fail(output, 1) if failed else output, error=failed)]
    messages.append(assistant("Done with git for now."))
    text = summarize(messages, metadata={"cwd": CWD})
    return next((line for line in text.splitlines() if GIT_LABEL in line), "")


MOVES = [  # (steps after `git checkout -b feature/a`, the branch in force at the end)
    ([("git checkout b", "Switched to branch 'b'", False)], "b"),
    ([("git checkout -q b", "", False)], "b"),
    ([("git switch release/2.1", "", False)], "release/2.1"),
    ([("git stash && git checkout -b c origin/main", "Saved working directory\nSwitched to a new branch 'c'", False)],
     "c"),
    ([("gh pr checkout 12", "From github.com:acme/tool\nSwitched to branch 'fix-login'", False)], "fix-login"),
    ([("gh pr checkout 12", "", False)], "the branch of PR #12"),
    ([("git status", "On branch develop\nnothing to commit, working tree clean", False)], "develop"),
    ([("git add -A && git commit -m 'Fix the importer'", "[hotfix/9 1a2b3c4] Fix the importer\n 1 file changed", False)],
     "hotfix/9"),
    ([("git worktree add ../wt-docs -b docs/guide", "Preparing worktree (new branch 'docs/guide')", False),
      ("cd ../wt-docs && npm test", "8 passing", False)], "docs/guide"),
    ([("git checkout b", "Switched to branch 'b'", False), ("git checkout -", "Switched to branch 'feature/a'", False)],
     "feature/a"),
]


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("steps", "branch"), MOVES)
def test_the_git_line_names_the_branch_in_force_at_the_end(agent: str, steps: list, branch: str) -> None:
    line = _git_line(steps, agent)
    expected = f"on {branch}" if branch.startswith("the branch of") else f"on branch `{branch}`"
    assert expected in line and "feature/a`" not in line.replace(f"`{branch}`", "")


STAYS = [  # steps that move no branch: the work stays on `feature/a`
    [("git checkout b", "error: Your local changes to the following files would be overwritten by checkout:\n\t"
      "src/app.py\nAborting", True)],
    [("git checkout -- src/app.py", "Updated 1 path from the index", False)],
    [("git checkout src/app.ts", "Updated 1 path from the index", False)],
    [("git checkout main -- README.md", "", False)],
    [("git checkout .", "", False)],
    [("git worktree add ../wt-docs -b docs/guide", "Preparing worktree (new branch 'docs/guide')", False)],
    [("git rebase main", "Successfully rebased and updated refs/heads/feature/a.", False)],
]


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("steps", STAYS)
def test_a_failed_checkout_or_a_checkout_of_files_moves_no_branch(agent: str, steps: list) -> None:
    assert "on branch `feature/a`" in _git_line(steps, agent)
