"""A version control call that failed is settled by a later success of the same VCS (issue 20): Jujutsu's ``jj`` as
git. Agents fumble a VCS's syntax and then find it (``jj show ticket/X -- a.tsx`` refused, then ``jj diff --from
X~ --to X -- a.tsx`` shows the file; ``jj describe -m …`` fails on a stale working copy, later ``jj describe``
works); a summary that still lists the first failure as blocking sends the next agent after a problem that is gone.
A later success of the same subcommand settles it (``jj git push`` after a failed ``jj git push``), a later read of
the same files settles a failed read, a later run of a program called with an unknown subcommand settles that
(whatever filter its output went through). Another subcommand (of the same group too), another file, or no later
success whose status shows leaves it open. Each case in three agents' shell tools, the region ending mid-turn."""

from __future__ import annotations

import pytest

from .shell_runs import FORMATS, failed_then_later, open_failures
from .test_classes import summarize

STALE = "Error: The working copy is stale (not updated since operation 2ba9f4c1).\nHint: Run `jj workspace update-stale`"
SETTLED = [  # (failed command, its error, the later command that succeeded, its output)
    ('jj describe -m "feat(landing): add stats"', STALE, 'jj describe -m "feat(landing): add the stats table"',
     "Working copy  (@) now at: wypyumro 2bdb2df8 feat(landing): add the stats table"),
    ("jj git push --bookmark ticket/VP-004", "Error: Refusing to push a bookmark that unexpectedly moved on the remote",
     "jj git fetch && jj git push -b ticket/VP-004 --allow-new", "Changes to push to origin:\n  Add bookmark ticket/VP-004"),
    ("jj bookmark set ticket/VP-004 -r @", "Error: Refusing to move bookmark backwards or sideways: ticket/VP-004",
     "jj bookmark set ticket/VP-004 -r @ --allow-backwards", "Moved 1 bookmarks to qutsmsvt 8a1f2c3d ticket/VP-004*"),
    ("jj new ticket/VP-004", "Error: Revision `ticket/VP-004` doesn't exist",
     'jj git fetch && jj new ticket/VP-004 -m "review fixes"', "Working copy  (@) now at: xsnzxxnk 11aa22bb review fixes"),
    ("jj show ticket/LANDING-004 -- apps/demo/src/app/page.tsx 2>&1 | head -40",
     "error: unexpected argument 'apps/demo/src/app/page.tsx' found\n\nUsage: jj show [OPTIONS] [REVSET]",
     "jj diff --from ticket/LANDING-004~ --to ticket/LANDING-004 -- apps/demo/src/app/page.tsx",
     "Modified regular file apps/demo/src/app/page.tsx:\n   1    1: import { Hero } from './hero'"),
    ("jj file show ticket/LANDING-004:apps/demo/src/app/page.tsx", "Error: Failed to parse fileset: Syntax error",
     "jj diff --from ticket/LANDING-004~ --to ticket/LANDING-004 -- apps/demo/src/app/page.tsx",
     "Modified regular file apps/demo/src/app/page.tsx:\n   1    1: import { Hero } from './hero'"),
    ("jj file restore --from kxzysxzx 2>&1 | head -5", "error: unrecognized subcommand 'restore'\n\nUsage: jj file "
     "[OPTIONS] <COMMAND>", 'jj restore --from kxzysxzx "apps/demo/src/app/page.tsx"',
     "Working copy  (@) now at: wypyumro 2bdb2df8 (no description set)"),
    ("git commit -m 'fix: stats'", "husky - pre-commit script failed (code 1)", "git commit -m 'fix: the stats table'",
     "[main 1a2b3c4] fix: the stats table\n 2 files changed"),
    ("git -C web push origin feat/stats", "! [rejected]        feat/stats -> feat/stats (fetch first)",
     "git -C web pull --rebase && git -C web push origin feat/stats", "   8a1f2c3..9b2e4d5  feat/stats -> feat/stats"),
    ("git show HEAD~3:src/stats.ts", "fatal: path 'src/stats.ts' exists on disk, but not in 'HEAD~3'",
     "git log -p -3 -- src/stats.ts", "commit 9b2e4d5\n    feat: stats\n+export const rows = []"),
]
OPEN = [  # (failed command, its error, a later success that does not settle it, its output)
    ("jj git push --bookmark ticket/VP-004", "Error: Refusing to push a bookmark that unexpectedly moved on the remote",
     "jj log --limit 5 --no-graph", "qutsmsvt 8a1f2c3d ticket/VP-004* review fixes"),
    ('jj describe -m "feat: stats"', STALE, "jj st", "Working copy changes:\nM apps/demo/src/app/page.tsx"),
    ("jj git push -b ticket/VP-004", "Error: Refusing to push a bookmark that unexpectedly moved on the remote",
     "jj git fetch", "Nothing changed."),  # another subcommand of the same group
    ("git rebase dev", "error: cannot rebase: You have unstaged changes.", "git stash\ngit rebase main",
     "Successfully rebased and updated refs/heads/x."),  # another target
    ("jj file show ticket/LANDING-004:apps/demo/src/app/page.tsx", "Error: Failed to parse fileset: Syntax error",
     "jj diff --from ticket/LANDING-004~ --to ticket/LANDING-004 -- apps/demo/src/app/hero.tsx",
     "Modified regular file apps/demo/src/app/hero.tsx:\n   1    1: export function Hero() {}"),
    ("git -C web push origin feat/stats", "! [rejected]        feat/stats -> feat/stats (fetch first)",
     "git -C web push origin feat/stats || true", ""),
]


def _session(agent: str, failed: str, error: str, later: str, output: str) -> list[dict]:
    return failed_then_later(agent, "Fix the stats table, describe the change and push the ticket bookmark.", failed,
                             error, later, output)


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output"), SETTLED)
def test_a_vcs_failure_a_later_success_of_its_subcommand_or_read_settles(agent: str, failed: str, error: str,
                                                                         later: str, output: str) -> None:
    summary = summarize(_session(agent, failed, error, later, output))
    assert not open_failures(summary), summary


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output"), OPEN)
def test_another_subcommand_or_file_settles_nothing(
        agent: str, failed: str, error: str, later: str, output: str) -> None:
    summary = summarize(_session(agent, failed, error, later, output))
    assert any(failed.split(" 2>&1")[0][:30] in item for item in open_failures(summary)), summary
