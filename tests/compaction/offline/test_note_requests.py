"""A request to write something down once ("make a note of this somewhere", "make a note in the README") is work
the agent does and finishes, not a rule it keeps (issue 20, finished requests filed as constraints); a request to
keep a rule ("make a note to always …", "make a mental note: never …") stays one."""

from __future__ import annotations

import pytest

from ..messages import assistant, user
from .test_offline import items, summarize


def _constraints(request: str) -> list[str]:
    return items(summarize([user("Fix the flaky login test."), assistant("The flake comes from clock skew in CI."),
                            user(request), assistant("Done — added a note to NOTES.md about the clock skew."),
                            user("Now bump the version to 1.2."), assistant("Bumped to 1.2 in package.json.")]),
                 "## Constraints & Preferences")


@pytest.mark.parametrize("request_", [
    "Great find. Make a note of this somewhere so we remember the quirk.",
    "Make a note in the README about the skew.",
    "Please make a note about this in NOTES.md.",
])
def test_a_note_asked_for_once_is_no_rule(request_: str) -> None:
    assert items_without_none(_constraints(request_)) == []


@pytest.mark.parametrize(("request_", "rule"), [
    ("Make a note to always pin the CI clock.", "always pin the CI clock"),
    ("Make a mental note: never trust the CI clock.", "never trust the CI clock"),
])
def test_a_note_that_keeps_a_rule_is_one(request_: str, rule: str) -> None:
    assert any(rule in item for item in _constraints(request_)), _constraints(request_)


def items_without_none(found: list[str]) -> list[str]:
    return [item for item in found if item != "(none)"]
