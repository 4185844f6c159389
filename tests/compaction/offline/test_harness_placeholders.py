"""A message the harness writes in a model's place that says nothing ("No response requested.": Claude Code, model
``<synthetic>``, after a turn no model answered) is no word of the agent's: never its last answer, never where it
stopped, and it does not make the turn before it look finished. A synthetic message that reports an error (an API
error, a usage limit) is a failure met, and stays."""

from __future__ import annotations

import pytest

from pi_compact.accessors import placeholder

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

DECLINED = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
            "edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell "
            "you how to proceed.")


def _synthetic(text: str, error: bool = False) -> dict:
    message = {"role": "assistant", "model": "<synthetic>", "content": [{"type": "text", "text": text}],
               "stopReason": "error" if error else "stop"}
    return {**message, "errorMessage": text} if error else message


def _critical(summary: str) -> str:
    return "\n".join(items(summary, "## Critical Context"))


@pytest.mark.parametrize("closing", [[], [user("[Request interrupted by user for tool use]")]])
def test_a_declined_call_then_the_harness_placeholder_waits_for_the_user(closing) -> None:
    messages = [user("Add pylint to the CI and fix what it finds."),
                assistant("Here is the plan.", call("p1", "ExitPlanMode", plan="# Pylint in CI\n1. add the job")),
                result("p1", "ExitPlanMode", DECLINED, error=True), *closing, _synthetic("No response requested.")]
    summary = summarize(messages)
    steps = "\n".join(items(summary, "## Next Steps"))
    assert "No response requested" not in summary
    assert "declined ExitPlanMode" in steps and steps.startswith("Wait for the user to say how to proceed")
    assert "The last request is done" not in steps


@pytest.mark.parametrize("request_text", ["The integration tests are also failing.", "the staging deploy hangs"])
def test_a_request_the_harness_closed_is_still_open(request_text) -> None:
    messages = [user("fix the unit tests"), assistant("Unit tests fixed: all 13 pass."),
                user(request_text), _synthetic("No response requested.")]
    summary = summarize(messages)
    assert "No response requested" not in summary
    assert "The last request is done" not in "\n".join(items(summary, "## Next Steps"))


def test_an_api_error_the_harness_wrote_is_kept() -> None:
    error = _synthetic("API Error: 529 overloaded_error", error=True)
    assert not placeholder(error) and placeholder(_synthetic("No response requested."))
    assert not placeholder(assistant("No response requested."))  # a model's own words are its answer
    messages = [user("run the migration"), assistant(call("b1", "bash", command="alembic upgrade head")),
                result("b1", "bash", "INFO  Running upgrade -> 3f2a"), error]
    assert "529" in summarize(messages)
