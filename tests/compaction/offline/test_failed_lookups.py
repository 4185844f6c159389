"""A failed read-only lookup is a finding, not a blocker (issue 20): ``git show X | xargs git ls-tree`` on an
object that does not exist, ``ls`` of a missing folder, ``cat`` of a missing file. Once the agent went on, it is no
"Fix:" step nor Blocked item; a build, test, push or install that failed is."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.shell import prints_only

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items

LOOKUPS = [
    ("git show abc123 --name-only --format= | xargs git ls-tree HEAD", "fatal: Not a valid object name abc123", 128),
    ("git ls-tree -r v1.2 | xargs -n1 echo", "fatal: Not a valid object name v1.2", 128),
    ("ls docs/build/", "ls: docs/build/: No such file or directory", 1),
    ("cat src/old/config.yml", "cat: src/old/config.yml: No such file or directory", 1),
    ("git show HEAD~3:config.yml | head -40", "fatal: path 'config.yml' does not exist in 'HEAD~3'", 128),
]


def _session(command: str, error: str, code: int) -> list[dict]:
    return [user("Bring back the old config."),
            assistant(call("a", "bash", command=command)), result("a", "bash", bash_fail(error, code), error=True),
            assistant("It is not there; writing it from the docs.",
                      call("w", "write", path="config.yml", content="retries: 3")), result("w", "write", "ok"),
            assistant("Let me look at the next part.")]


def _open(summary: str) -> list[str]:
    return [step for step in items(summary, "## Next Steps") if step.startswith("Fix")] + \
        [item for item in items(summary, "### Blocked") if item != "(none)"]


@pytest.mark.parametrize(("command", "error", "code"), LOOKUPS)
def test_a_failed_lookup_the_agent_went_on_from_is_no_blocker(command: str, error: str, code: int) -> None:
    assert _open(summarize(_session(command, error, code))) == []


@pytest.mark.parametrize(("command", "error"), [
    ("git push origin main | xargs echo", "error: failed to push some refs"),
    ("npm run build", "error TS2322: Type 'string' is not assignable"),
])
def test_a_failed_build_or_push_stays_open(command: str, error: str) -> None:
    assert _open(summarize(_session(command, error, 1)))


@pytest.mark.parametrize(("command", "printing"), [
    ("git show abc --name-only | xargs git ls-tree HEAD", True),
    ("git ls-files | xargs -I {} cat {}", True),
    ("find . -name '*.pyc' | xargs rm", False),
    ("git diff --name-only | xargs git add", False),
])
def test_xargs_prints_what_the_command_it_runs_prints(command: str, printing: bool) -> None:
    assert prints_only(command) is printing


def test_a_command_of_thousands_of_xargs_is_read_without_recursion() -> None:
    assert prints_only("git ls-files | " + "xargs " * 3_000 + "cat")
    assert not prints_only("git ls-files | " + "xargs " * 3_000 + "rm")
