"""A request that only attaches a document ("@docs/plans/x.md Go.") names its work by a file the harness attached
outside the transcript: the goal carries what the agent read it to hold, in the agent's first sentence about it
("The plan has 14 tasks for shipping the demo app end-to-end."), so the next agent knows the work without the file."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

GISTS = (
    "The plan has 14 tasks for shipping the demo app end-to-end.",
    "This spec describes a rate limiter for the public API with per-key buckets.",
    "The document lists 6 migrations that move billing onto the new ledger.",
)
POINTERS = ("@docs/plans/2026-02-25-demo-impl.md Go.", "@PLAN.md", "implement @specs/limiter.md please")


def _session(request: str, opening: str) -> list[dict]:
    return [user(request), assistant("Using the executing-plans skill."),
            assistant(f"I'm using the executing-plans skill. {opening} Let me start with the first one.",
                      call("r1", "read", path="src/app.ts")),
            result("r1", "read", "export const app = 1;")]


@pytest.mark.parametrize("request_", POINTERS)
@pytest.mark.parametrize("gist", GISTS)
def test_an_attached_document_goal_says_what_the_agent_read_it_to_hold(request_: str, gist: str) -> None:
    goal = items(summarize(_session(request_, gist)), "## Goal")
    assert any(gist.rstrip(".") in item and request_.split()[0].lstrip("@")[:8] in item for item in goal), goal


@pytest.mark.parametrize("request_", [
    "@docs/plan.md but skip task 3 and keep Postgres instead of moving to Redis",  # the user's own work said
    "What does the checklist in @docs/release.md still miss before we tag?",
])
def test_a_request_with_work_of_its_own_keeps_its_words(request_: str) -> None:
    goal = " ".join(items(summarize(_session(request_, GISTS[0])), "## Goal"))
    assert "read it as" not in goal, goal


@pytest.mark.parametrize("opening", ["Let me read it first.", "Is the plan up to date?"])
def test_no_sentence_about_the_document_leaves_the_goal_as_asked(opening: str) -> None:
    goal = " ".join(items(summarize(_session(POINTERS[0], opening)), "## Goal"))
    assert "read it as" not in goal and "demo-impl.md" in goal, goal
