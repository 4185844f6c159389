"""A failed command retried under a prefix that fixed its setting is settled: ``git rebase main`` failed on
unstaged changes, then ``git stash`` and ``git rebase main`` as two lines of one call succeeded; ``pytest`` failed,
then ``bash -c 'source .venv/bin/activate && pytest …'``, ``bundle exec rspec``, ``sudo -E docker compose up``,
``nice -n 10 make test``, ``FOO=1 go test … | grep -v`` succeeded. The later success's core (the command without
its setup, wrappers, environment and output filters) holds the failed one's. Another subcommand, another target,
another place, a success whose status a last step hid or that went to the background settles nothing. Each case in
three agents' shell tools, the region ending mid-turn (a finished turn settles its failures anyway)."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.cores import failed_core, passed_core

from .shell_runs import FORMATS, failed_then_later, open_failures
from .test_classes import summarize

REBASE_ERROR = "error: cannot rebase: You have unstaged changes.\nerror: Please commit or stash them."
SETTLED = [  # (failed command, its error, the retry that succeeded, its output)
    ("git rebase origin/main", REBASE_ERROR, "git stash\ngit rebase origin/main",
     "Saved working directory and index state WIP\nSuccessfully rebased and updated refs/heads/feat."),
    ("flask db upgrade", "Error: Could not locate a Flask application.", "export FLASK_APP=app.py\nflask db upgrade",
     "INFO  [alembic.runtime.migration] Running upgrade -> 3f2a, add orders"),
    ("pytest tests/test_api.py", "E   ModuleNotFoundError: No module named 'httpx'\n1 error in 0.05s",
     "bash -lc 'source .venv/bin/activate && pytest tests/test_api.py'", "5 passed in 0.4s"),
    ("rspec spec/models/order_spec.rb", "cannot load such file -- rails_helper (LoadError)",
     "bundle exec rspec spec/models/order_spec.rb", "12 examples, 0 failures"),
    ("docker compose up -d", "permission denied while trying to connect to the Docker daemon socket",
     "sudo -E docker compose up -d", "Container app-db-1  Started"),
    ("go test ./pkg/cart/...", "--- FAIL: TestCartTotal (0.00s)\nFAIL",
     "GOFLAGS=-mod=mod go test ./pkg/cart/... 2>&1 | grep -v 'go: downloading'", "ok  \texample.com/pkg/cart\t0.02s"),
    ("make test", "make: *** [test] Error 137", "nice -n 10 make test", "ran 40 checks, all passed"),
]
OPEN = [  # (failed command, its error, a later success that does not settle it, its output)
    ("git rebase dev", REBASE_ERROR, "git stash\ngit rebase main", "Successfully rebased and updated refs/heads/x."),
    ("pytest tests/test_api.py", "FAILED tests/test_api.py::test_refund - AssertionError\n1 failed",
     "bash -c 'source .venv/bin/activate && pytest tests/test_cart.py'", "5 passed in 0.4s"),
    ("pytest -k test_refund", "FAILED tests/test_api.py::test_refund - AssertionError\n1 failed",
     "timeout 120 pytest -k test_total", "3 passed"),
    ("docker compose up -d", "permission denied while trying to connect to the Docker daemon socket",
     "sudo docker compose down", "Container app-db-1  Removed"),
    ("make deploy", "make: *** [deploy] Error 1", "make deploy; echo done", "done"),
    ("git rebase origin/main", REBASE_ERROR, "git stash && git rebase origin/main || true", ""),
    ("npm run e2e", "Error: Timed out waiting for the page", "npm run e2e &", "[1] 4242"),
]


def _session(agent: str, failed: str, error: str, later: str, output: str) -> list[dict]:
    return failed_then_later(agent, "Bring the branch up to date and make the checks pass.", failed, error, later,
                             output)


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output"), SETTLED)
def test_a_failure_retried_under_a_prefix_is_settled(agent: str, failed: str, error: str, later: str,
                                                     output: str) -> None:
    assert not open_failures(summarize(_session(agent, failed, error, later, output)))


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output"), OPEN)
def test_another_target_or_a_hidden_status_settles_nothing(agent: str, failed: str, error: str, later: str,
                                                           output: str) -> None:
    assert any(failed in item for item in open_failures(summarize(_session(agent, failed, error, later, output))))


@pytest.mark.parametrize(("command", "core"), [
    ("sudo -E FOO=1 nice -n 10 uv run --with httpx pytest -q tests/a.py", {("pytest", "tests/a.py")}),
    ("cd web && timeout 60 npx -y playwright test 2>&1 | tail -20", {("playwright", "test")}),
    ("python3 -m pytest a.py; echo done", {("echo", "done")}),
    ("set -e\ncd web\nnpm ci\nnpm test", {("npm", "ci"), ("npm", "test")}),
    ("make lint || true", set()),
    ("npm test &&\n  npm run build", {("npm", "test"), ("npm", "run", "build")}),
    ("cat data.json | python3 load.py", {("python", "load.py")}),
])
def test_what_a_success_shows_ran_well(command: str, core: set) -> None:
    assert passed_core(command) == core


def test_a_failure_may_be_any_part_but_the_setup() -> None:
    assert failed_core("cd web && source .env && npm run build && ls dist/") == {("npm", "run", "build")}
    assert failed_core("git fetch && git rebase origin/main") == {("git", "fetch"), ("git", "rebase", "origin/main")}
