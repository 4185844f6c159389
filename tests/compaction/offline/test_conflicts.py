"""The side each merge conflict took is a decision, said per resolution with the side named for that merge."""

import pytest

from pi_compact.compaction.offline.conflicts import resolutions
from pi_compact.compaction.offline.facts import Attempt


def _ran(*commands: str, failed: int = -1) -> list[Attempt]:
    return [Attempt(index, "bash", command, index == failed) for index, command in enumerate(commands)]


CASES = [
    (("git merge main", "git checkout --theirs src/a.go src/b.go", "git add ."),
     ["Conflicts resolved: main's version (--theirs) of a.go, b.go"]),
    (("git merge origin/main", "cd /repo && git checkout --ours -- lib/x.py"),
     ["Conflicts resolved: the current branch's version (--ours) of x.py"]),
    (("git rebase main", "git checkout --ours go.sum"),
     ["Conflicts resolved: main's version (--ours) of go.sum"]),
    (("git rebase develop", "git restore --theirs app.ts"),
     ["Conflicts resolved: the rebased branch's version (--theirs) of app.ts"]),
    (("git pull origin main", "git checkout main -- package-lock.json"),
     ["Conflicts resolved: main's version of package-lock.json"]),
    (("git merge origin/dev 2>&1", "git checkout --theirs a.go && git add a.go", "git checkout --theirs b.go"),
     ["Conflicts resolved: origin/dev's version (--theirs) of a.go, b.go"]),  # one line per side taken
    (("git rebase main", "git rebase --continue", "git checkout --ours c.go"),
     ["Conflicts resolved: main's version (--ours) of c.go"]),
    (("git merge -X theirs main",), ["Conflicts resolved: main's version (--theirs) for every conflict"]),
    (("git merge main", "git checkout --theirs a b c d e f"),
     ["Conflicts resolved: main's version (--theirs) of a, b, c, d (+2 more)"]),
    (("git merge feature", "git checkout --theirs a.go", "git checkout --ours b.go"),
     ["Conflicts resolved: feature's version (--theirs) of a.go",
      "Conflicts resolved: the current branch's version (--ours) of b.go"]),
]


@pytest.mark.parametrize(("commands", "said"), CASES)
def test_a_side_taken_in_a_conflict_is_a_decision(commands, said):
    assert resolutions(_ran(*commands)) == said


GUARDS = [
    ("git checkout main -- README.md",),  # no merge: restoring a file is no conflict's resolution
    ("git checkout --theirs a.go",),  # no merge before it
    ("git merge main", "git commit -m merge", "git checkout main -- a.go"),  # the merge is over
    ("git merge main", "git merge --abort", "git checkout --theirs a.go"),  # given up
    ("git merge main", "git checkout -- a.go"),  # discarding edits takes no side
]


@pytest.mark.parametrize("commands", GUARDS)
def test_what_takes_no_side_says_nothing(commands):
    assert resolutions(_ran(*commands)) == []


def test_a_failed_checkout_took_no_side():
    assert resolutions(_ran("git merge main", "git checkout --theirs a.go", failed=1)) == []
