"""The same operation tried again: its latest outcome is what counts (issue 20). ``git rebase origin/main`` stopped
on a conflict, then ``git rebase --continue`` failed with another error: only that one is the repository's state,
the conflict is history. So for any failed command run again on the same things (``pytest tests/a.py -x``, then
``uv run pytest tests/a.py -v`` failing on another test; ``docker compose up -d``, then ``sudo docker compose up -d
--build``), and for a stopped ``rebase``, ``merge``, ``cherry-pick``, ``revert`` or ``am`` that a later ``--continue``
or ``--skip`` took on (failing or not). Another operation, other things, another place, an ``--abort`` (the operation
given up, not done) leave the earlier failure open. Each case in three agents' shell tools, the region ending
mid-turn."""

from __future__ import annotations

import pytest

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .shell_runs import FORMATS, open_failures

CONFLICT = ("Auto-merging src/app.py\nCONFLICT (content): Merge conflict in src/app.py\n"
            "error: could not apply 3f2a1b9... add retry\nhint: Resolve all conflicts manually")
NEEDS_MERGE = ("src/app.py: needs merge\nYou must edit all merge conflicts and then mark them as resolved using "
               "git add")
MERGE_CONFLICT = ("CONFLICT (content): Merge conflict in web/cart.ts\n"
                  "Automatic merge failed; fix conflicts and then commit the result.")
UNMERGED = "error: Committing is not possible because you have unmerged files."
TEST_A = "FAILED tests/test_api.py::test_refund - AssertionError: 3 != 4\n1 failed in 0.2s"
TEST_B = "FAILED tests/test_api.py::test_total - KeyError: 'sum'\n1 failed in 0.2s"
SUPERSEDED = [  # (failed command, its error, the later attempt of the same operation, its output, whether it failed)
    ("git rebase origin/main", CONFLICT, "git rebase --continue", NEEDS_MERGE, True),
    ("git merge feature/cart", MERGE_CONFLICT, "git add -A && git merge --continue", UNMERGED, True),
    ("git cherry-pick 3f2a1b9", CONFLICT, "GIT_EDITOR=true git cherry-pick --continue", NEEDS_MERGE, True),
    ("pytest tests/test_api.py -x", TEST_A, "uv run pytest tests/test_api.py -v", TEST_B, True),
    ("docker compose up -d", "Error: Bind for 0.0.0.0:5432 failed: port is already allocated",
     "sudo docker compose up -d --build", "failed to solve: process \"/bin/sh -c npm ci\" did not complete", True),
    ("git rebase main", CONFLICT, "git add src/app.py && GIT_EDITOR=true git rebase --continue",
     "Successfully rebased and updated refs/heads/feat.", False),
    ("cd web && git revert 3f2a1b9", CONFLICT, "cd web && git revert --skip", "", False),
]
OPEN = [  # (failed command, its error, a later attempt of something else, its output, whether it failed)
    ("git rebase main", CONFLICT, "git merge main", MERGE_CONFLICT, True),
    ("pytest tests/test_api.py", TEST_A, "pytest tests/test_cart.py", TEST_B.replace("api", "cart"), True),
    ("cd web && npm test", "Tests:       1 failed, 9 passed", "cd api && npm test", "Tests:       2 failed", True),
    ("git rebase main", CONFLICT, "git rebase --abort", "", False),
]


def _session(agent: str, failed: str, error: str, later: str, output: str, later_failed: bool) -> list[dict]:
    first, first_arguments = FORMATS[agent](failed)
    # Claude Code's one shell stays in the folder the failed call's `cd` took it to: the agent steps back out first
    back = agent == "claude" and failed.startswith("cd ") and later.startswith("cd ")
    second, second_arguments = FORMATS[agent](f"cd .. && {later}" if back else later)
    return [user("Bring the branch up to date and make the checks pass."),
            assistant(call("a", first, **first_arguments)), result("a", first, bash_fail(error, 1), error=True),
            assistant(call("b", second, **second_arguments)),
            result("b", second, bash_fail(output, 1) if later_failed else output, error=later_failed),
            assistant(call("r", "read", path="docs/notes.md")), result("r", "read", "# Notes\n")]


def _names(command: str, item: str) -> bool:
    return f"`{command.rsplit('&& ', 1)[-1]}" in item


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output", "later_failed"), SUPERSEDED)
def test_only_the_latest_attempt_of_an_operation_is_open(agent: str, failed: str, error: str, later: str,
                                                         output: str, later_failed: bool) -> None:
    opened = open_failures(summarize(_session(agent, failed, error, later, output, later_failed)))
    assert not any(_names(failed, item) for item in opened)
    assert any(later.rsplit("&& ", 1)[-1] in item for item in opened) == later_failed


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output", "later_failed"), OPEN)
def test_another_operation_place_or_an_abort_leaves_it_open(agent: str, failed: str, error: str, later: str,
                                                            output: str, later_failed: bool) -> None:
    opened = open_failures(summarize(_session(agent, failed, error, later, output, later_failed)))
    assert any(_names(failed, item) for item in opened)


def _retried_region(size: int):
    """``size`` failed commands, each retried once later and failing, and ``size`` continued rebases: each failure
    is looked up by its core, never against every later attempt."""
    from pi_compact.compaction.offline.facts import Attempt
    from pi_compact.compaction.offline.retries import superseded

    commands = [f"cd pkg{i} && pytest tests/t{i}.py -x" for i in range(size)] \
        + [f"git rebase b{i}" for i in range(size)] \
        + [f"cd pkg{i} && uv run pytest tests/t{i}.py -v" for i in range(size)] + ["git rebase --continue"] * size
    attempts = [Attempt(i, "bash", command, True, "1 failed") for i, command in enumerate(commands)]
    return lambda: superseded(attempts)


def test_the_lookups_grow_linearly() -> None:
    from tests.growth import growth

    found = growth("later attempts of the same operation", _retried_region, 200, runs=3)
    assert found.linear, str(found)
