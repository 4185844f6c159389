"""Two soft spots of settling (errors.py): a failure a sub-agent reports is settled only by a later passing check
where it stood or in a folder its report names, not by a check of another package; a failure that names a missing
thing is settled by the same command run on another name in whichever of its simple commands names it, not only
the first."""

from __future__ import annotations

import pytest

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items

REPORT = "I ran the tests of packages/api. 2 tests fail:\nFAILED tests/test_cart.py::test_discount - assert 100 == 90\n"


def _run(tag: str, command: str, output: str, code: int = 0) -> list[dict]:
    text = bash_fail(output, code) if code else output
    return [assistant(call(tag, "bash", command=command)), result(tag, "bash", text, error=bool(code))]


def _blocked(messages: list[dict]) -> list[str]:
    return [item for item in items(summarize(messages), "### Blocked") if item != "(none)"]


def _subagent(*after: dict) -> list[dict]:
    return [user("Have a sub-agent run the api tests and fix whatever fails."),
            assistant(call("s", "Task", description="Run the api tests", prompt="Run the api tests, report failures.")),
            result("s", "Task", REPORT), *after,
            assistant("Let me read the cart code.", call("r", "read", path="src/cart.py")),
            result("r", "read", "def discount(price):\n    return price\n")]


@pytest.mark.parametrize("command", ["cd packages/web && npm test", "cd packages/web && npx tsc --noEmit"])
def test_a_check_of_another_package_leaves_the_report_open(command: str) -> None:
    blocked = _blocked(_subagent(*_run("t", command, "Tests: 12 passed, 12 total\n")))
    assert any("test_discount" in line or "2 tests fail" in line for line in blocked), blocked


@pytest.mark.parametrize("command", ["cd packages/api && pytest", "pytest", "cd packages/api && pytest tests/test_cart.py"])
def test_a_check_where_it_failed_settles_it(command: str) -> None:
    assert not _blocked(_subagent(*_run("t", command, "===== 14 passed in 0.4s =====\n")))


@pytest.mark.parametrize("failed, retried", [
    ("docker logs web-1 || docker restart web-1", "docker restart web"),
    ("docker inspect web-1 >/dev/null; docker exec web-1 bin/rails db:migrate", "docker exec web bin/rails db:migrate"),
])
def test_each_simple_command_that_names_the_missing_thing_counts(failed: str, retried: str) -> None:
    messages = [user("Find out why the web container restarts."),
                *_run("a", failed, "Error response from daemon: No such container: web-1", 1),
                *_run("b", retried, "listening on :3000"),
                assistant("The container is named web.", call("r", "read", path="docker-compose.yml")),
                result("r", "read", "services:\n  web:\n    build: .\n")]
    assert not any("web-1" in line for line in _blocked(messages))
