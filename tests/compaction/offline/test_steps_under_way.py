"""Work under way beats "carry out the latest request" (steps.py): when the region ends while the agent works and
its words say nothing of how far it got, the next step names the work begun — the task in progress, the files it
edited or read last, the command whose outcome it had not read — and what is left; the request quoted again stays
the step only when nothing shows the work begun."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

REQUESTS = ["Add a retry with backoff to the HTTP client and cover it with tests",
            "给 HTTP 客户端加上带退避的重试，并补上测试",
            "Ajoute une nouvelle tentative avec délai au client HTTP et couvre-la par des tests"]
GENERIC = "Carry out the user's latest request"


def _edit(style: str, path: str, call_id: str = "e") -> list[dict]:
    if style == "claude":
        block = call(call_id, "Edit", file_path=path, old_string="a", new_string="def retry(attempts):")
        return [assistant(block), result(call_id, "Edit", "The file has been updated.")]
    block = call(call_id, "edit", path=path, oldText="a", newText="def retry(attempts):")
    return [assistant(block), result(call_id, "edit", "Successfully replaced text.")]


RETRY_TASKS = (("Add the retry helper", "completed"), ("Write the retry tests", "in_progress"))


def _todos(style: str, tasks: tuple | list = RETRY_TASKS) -> list[dict]:
    if style == "claude":
        block = call("t", "TodoWrite", todos=[{"content": t, "status": s, "activeForm": t} for t, s in tasks])
    else:
        block = call("t", "update_plan", plan=[{"step": t, "status": s} for t, s in tasks])
    return [assistant(block), result("t", block["name"], "Todos have been modified successfully.")]


def _steps(messages: list[dict]) -> list[str]:
    return items(summarize(messages), "## Next Steps")


@pytest.mark.parametrize("request_text", REQUESTS)
@pytest.mark.parametrize("style", ["pi", "claude"])
def test_edits_without_a_word_name_the_files_and_the_check(request_text: str, style: str) -> None:
    steps = _steps([user(request_text), *_edit(style, "src/net/client.py")])
    assert not any(step.startswith(GENERIC) for step in steps)
    assert any(step.startswith("Finish the work under way") and "`src/net/client.py`" in step
               and "then check the edits" in step for step in steps)


@pytest.mark.parametrize("request_text", REQUESTS)
@pytest.mark.parametrize("style", ["pi", "claude"])
def test_a_task_in_progress_is_the_step(request_text: str, style: str) -> None:
    steps = _steps([user(request_text), *_todos(style), *_edit(style, "tests/test_retry.py")])
    step = next(step for step in steps if step.startswith("Finish the work under way"))
    assert "Write the retry tests" in step and "`tests/test_retry.py`" in step
    assert not any(step.startswith(GENERIC) for step in steps)


@pytest.mark.parametrize("request_text", REQUESTS)
def test_a_command_that_ran_last_is_checked(request_text: str) -> None:
    steps = _steps([user(request_text), *_edit("pi", "src/net/client.py"),
                    assistant(call("b", "bash", command="pytest -q tests/test_client.py")),
                    result("b", "bash", "3 passed in 0.2s")])
    assert any("`src/net/client.py`" in step and "check the outcome of `pytest -q tests/test_client.py`" in step
               for step in steps)


def test_reading_only_goes_on_with_the_request_where_it_stopped() -> None:
    steps = _steps([user(REQUESTS[0]), assistant(call("r", "read", path="src/net/client.py")),
                    result("r", "read", "x")])
    assert any(step.startswith("Go on with the user's latest request") and "reading `src/net/client.py`" in step
               for step in steps)


@pytest.mark.parametrize("request_text", REQUESTS)
def test_nothing_begun_keeps_the_request_as_the_step(request_text: str) -> None:
    steps = _steps([user(request_text)])
    assert any(step.startswith(GENERIC) for step in steps)


def test_what_the_agent_announced_still_comes_first() -> None:
    steps = _steps([user(REQUESTS[0]), assistant("The helper is in. Now let me update the tests.",
                                                 call("e", "edit", path="tests/test_client.py", oldText="a",
                                                      newText="b")),
                    result("e", "edit", "ok")])
    assert steps[0].startswith("Continue where the agent stopped") and "Update the tests" in steps[0]
