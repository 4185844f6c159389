"""A failure that names a thing that is not there, settled by the same command on another name (errors.py): ``docker
exec web-1 …`` fails with "No such container: web-1", then ``docker exec web …`` succeeds — the failure is history
(resolved), never Blocked nor a "Fix:" step, while the work goes on; the same command not run again, or run on another name that failed too,
leaves it open."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.errors import missing_name

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items

CASES = [
    ("docker exec web-1 bin/rails runner 'puts Sandbox.count'", "Error response from daemon: No such container: web-1",
     "docker exec web bin/rails runner 'puts Sandbox.count'", "12"),
    ("git checkout feature-login", "error: pathspec 'feature-login' did not match any file(s) known to git",
     "git checkout feature/login", "Switched to branch 'feature/login'"),
    ("kubectl -n prod get pods", "Error from server (NotFound): namespaces \"prod\" not found",
     "kubectl -n production get pods", "NAME READY STATUS\napi-1 1/1 Running"),
    ("docker restart sandcastle-web-1", "Error response from daemon: No such container: sandcastle-web-1",
     "docker restart sandcastle-web", "sandcastle-web"),
]


def _run(tag: str, command: str, output: str, code: int = 0) -> list[dict]:
    text = bash_fail(output, code) if code else output
    return [assistant(call(tag, "bash", command=command)), result(tag, "bash", text, error=bool(code))]


def _sections(messages: list[dict]) -> tuple[list[str], list[str]]:
    text = summarize(messages)
    return items(text, "### Blocked"), items(text, "## Next Steps")


@pytest.mark.parametrize("failed, error, retried, output", CASES)
def test_the_same_command_on_another_name_settles_it(failed: str, error: str, retried: str, output: str) -> None:
    blocked, steps = _sections([user("Find out why the terminal page fails for sandbox 19."),
                                *_run("a", failed, error, 1), *_run("b", retried, output),
                                assistant("Sandbox 19 shows as destroyed; let me check the Traefik config next.")])
    assert not any(failed in line for line in blocked + steps), (blocked, steps)


@pytest.mark.parametrize("failed, error, retried, output", CASES)
def test_no_retry_or_a_failed_one_leaves_it_open(failed: str, error: str, retried: str, output: str) -> None:
    blocked, _ = _sections([user("Find out why the terminal page fails for sandbox 19."), *_run("a", failed, error, 1),
                            assistant("That did not work; I'll look again.")])
    assert any(failed.split()[0] in line for line in blocked), blocked
    blocked, _ = _sections([user("Find out why the terminal page fails for sandbox 19."), *_run("a", failed, error, 1),
                            *_run("b", retried, error.replace(failed.split()[-1], retried.split()[-1]), 1),
                            assistant("Both failed.")])
    assert blocked and blocked != ["(none)"], blocked


@pytest.mark.parametrize("error, name", [
    ("Error response from daemon: No such container: web-1", "web-1"),
    ("error: pathspec 'app/x.erb' did not match any file(s) known to git", "app/x.erb"),
    ("ls: cannot access 'build': No such file or directory", "build"),
    ("FileNotFoundError: [Errno 2] No such file or directory: 'data.csv'", "data.csv"),
    ("Traceback (most recent call last):\nValueError: bad value", ""),
])
def test_the_missing_name_is_read_from_the_error(error: str, name: str) -> None:
    assert missing_name(error) == name
