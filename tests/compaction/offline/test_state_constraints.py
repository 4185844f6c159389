"""Constraints & Preferences: a request's one-off instructions lapse once the user has moved on to other work that
was finished since; pasted program output is no rule of the user's (:func:`.state._binding_rules`)."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_offline import items, summarize


def _constraints(*messages: dict) -> list[str]:
    return items(summarize(list(messages)), "## Constraints & Preferences")


@pytest.mark.parametrize(("rule", "kept"), [
    ("make sure it's in the Billing project", False),  # one-off: for that issue only
    ("never assign it to anyone", True),  # lasting: it says so
    ("请确保它属于 Billing 项目，永远不要指派给任何人", True),
])
def test_a_request_the_user_moved_on_from_keeps_only_its_lasting_rules(rule: str, kept: bool) -> None:
    found = _constraints(
        user(f"Let's do option 2 for now, can you create the tracking issue? {rule}"),
        assistant(call("c1", "bash", command="tracker issue create --title 'Split the git helpers'")),
        result("c1", "bash", "Created ISSUE-129"),
        user("Now have a look at the remaining direct git calls in the strategy package and move them too."),
        assistant("Done: the strategy package now calls the git helpers only; all tests pass."),
    )
    assert any(rule in item for item in found) == kept, found


def test_a_request_still_under_way_keeps_its_one_off_rules() -> None:
    found = _constraints(
        user("Create the tracking issue for the helper split; make sure it's in the Billing project."),
        assistant(call("c1", "bash", command="tracker issue create --title 'Split the git helpers'")),
        result("c1", "bash", "Created ISSUE-129"),
    )
    assert any("Billing project" in item for item in found), found


def test_pasted_graph_output_is_no_rule() -> None:
    pasted = ("the branch view looks wrong, here is what I see:\n"
              "╭ - 654274e make sure calling with --agent does all setup steps — 1 week ago\n"
              "│ - 1a2b3c4 always rebuild the index — 2 weeks ago\n"
              "Can you find out why main shows up there?")
    found = _constraints(user(pasted), assistant(call("c1", "bash", command="git log --oneline -5")),
                         result("c1", "bash", "654274e x"))
    assert not any("654274e" in item or "1a2b3c4" in item for item in found), found
