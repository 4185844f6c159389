"""A "continue" reply (steps.py): when the user's last message only says to go on, in any language, the next step
is the concrete work that was under way before it — the item the agent's task list has in progress (else its first
pending one), or the move the agent last said it would make — never "Go on with the request in progress"."""

from __future__ import annotations

import pytest

from ..messages import assistant, user
from .test_steps_under_way import _steps, _todos

REQUEST = "Add a parser for the config file with tests and docs"
GO_ON = ["continue", "go on", "keep going", "proceed", "weiter", "continua", "続けて", "계속", "继续"]
VAGUE = "Go on with the request in progress"


@pytest.mark.parametrize("reply", GO_ON)
@pytest.mark.parametrize("announced", ["I added the parser in `src/config.py`. Next I'll write the tests in "
                                       "`tests/test_config.py`.",
                                       "The parser is in `src/config.py`. Next step: write the tests in "
                                       "`tests/test_config.py`.",
                                       "Parser done. Now let me write the tests in `tests/test_config.py`."])
def test_the_announced_move_is_the_step(reply: str, announced: str) -> None:
    steps = _steps([user(REQUEST), assistant(announced), user(reply)])
    assert steps[0].startswith("Write the tests in `tests/test_config.py`"), steps
    assert not any(step.startswith(VAGUE) for step in steps)


@pytest.mark.parametrize("reply", GO_ON)
@pytest.mark.parametrize("style", ["claude", "codex"])
@pytest.mark.parametrize("tasks, named", [
    ([("Add the parser", "completed"), ("Write the parser tests", "in_progress"), ("Update the README", "pending")],
     "Write the parser tests (in progress"),
    ([("Add the parser", "completed"), ("Write the parser tests", "pending"), ("Update the README", "pending")],
     "Write the parser tests (the first still to do"),
])
def test_the_open_task_list_item_is_the_step(reply: str, style: str, tasks: list, named: str) -> None:
    steps = _steps([user(REQUEST), *_todos(style, tasks), assistant("Parser written."), user(reply)])
    assert steps[0].startswith(named), steps
    assert not any(step.startswith(VAGUE) for step in steps)


def test_a_finished_task_list_gives_no_step_from_the_list() -> None:
    tasks = [("Add the parser", "completed"), ("Write the parser tests", "completed")]
    steps = _steps([user(REQUEST), *_todos("claude", tasks),
                    assistant("Parser and tests are in. Next I'll update the README with the new options."),
                    user("continue")])
    assert steps[0].startswith("Update the README with the new options"), steps
    assert not any("Write the parser tests" in step for step in steps)


def test_nothing_said_before_keeps_the_request_with_the_agents_words() -> None:
    steps = _steps([user(REQUEST), assistant("Parser written."), user("continue")])
    assert any(step.startswith(VAGUE) and "Parser written." in step for step in steps)
