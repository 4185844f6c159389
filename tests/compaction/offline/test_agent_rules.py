"""The rules the agent says it works under (:mod:`pi_compact.compaction.offline.agent_rules`) and a fix announced by
its way alone (:func:`pi_compact.compaction.offline.decided.decisions_in`): kept as decisions."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.agent_rules import agent_rules
from pi_compact.compaction.offline.decided import decisions_in


@pytest.mark.parametrize("said, kept", [
    ("The layering test enforces at most one import of the core per module. I need to merge them.",
     "Enforced by the project: The layering test enforces at most one import of the core per module."),
    ("Mypy requires explicit return types in this package.",
     "Enforced by the project: Mypy requires explicit return types in this package."),
    ("Got it — you want to **drop** the old queue with the new one, not keep both. That simplifies things.",
     "The user wants: drop the old queue with the new one, not keep both"),
    ("Since you want the CLI to replace the web form (no backwards compatibility needed), I'll:",
     "The user wants: the CLI to replace the web form (no backwards compatibility needed)"),
])
def test_a_checks_rule_or_the_users_wish_restated_is_kept(said: str, kept: str) -> None:
    assert agent_rules(said) == [kept]
    assert kept in decisions_in(said)


@pytest.mark.parametrize("said", [
    "Do you want me to replace the parser, not patch it?",
    "You want the tests to pass.",
    "The test checks that the handler is registered.",
])
def test_a_question_a_wish_without_the_way_passed_over_or_a_description_is_no_rule(said: str) -> None:
    assert agent_rules(said) == []


def test_a_fix_announced_by_its_way_alone_is_kept_with_the_failure_before_it() -> None:
    found = decisions_in("Flake8 is complaining about unused imports. Let me fix by removing them:")
    assert "Flake8 is complaining about unused imports — fixed by removing them" in found, found
    assert not any("fixed by" in item for item in decisions_in("The build is green. Let me fix by renaming it:"))
