"""A Key Decision reads as a whole clause (issue 20): a decision that opened a list ("… manually since:" and the
reasons as items), a clause cut at a preposition or a conjunction ("and use the cache for the"), or one that lost its
head ("which means that we") is no decision a continuing agent can follow; the item keeps its whole clause."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.rules import whole_clause

from ..messages import assistant, bash_fail, call, result, user
from .test_offline import items, summarize


@pytest.mark.parametrize(("item", "whole"), [
    ("**Decision:** Implement the parser by hand using the grammar since:", "**Decision:** Implement the parser by hand"
                                                                             " using the grammar"),
    ("and use the cache for the", "use the cache"),
    ("Agreed with the user: and keep the old API for the", "Agreed with the user: keep the old API"),
    ("which means that we", ""),
    ("the change for the", ""),
])
def test_a_cut_clause_is_made_whole(item: str, whole: str) -> None:
    assert whole_clause(item) == whole


@pytest.mark.parametrize("item", [
    "We'll use Redis for the session store.", "Keep the file we depend on.", "Use Redis",
    "Asked “Which store?” — the user chose “Redis”", "Proposed by the agent: keep the cache in…",
    "The user declined `rm -rf build` (not done)",
])
def test_a_whole_item_is_left_as_it_is(item: str) -> None:
    assert whole_clause(item) == item


def test_a_decision_that_opened_a_list_ends_before_its_conjunction() -> None:
    summary = summarize([
        user("Add the AST metrics to the review step."),
        assistant(call("c1", "bash", command="python -m tools.orchestrate ast")),
        result("c1", "bash", bash_fail("ImportError: cannot import name 'mock_review'", 1), error=True),
        assistant("The orchestrator is broken.\n\n**Decision:** Implement the AST metrics manually with the TDD "
                  "workflow since:\n1. Faster for a 7-task plan\n2. The orchestrator has bugs\n\nStarting now."),
    ])
    found = items(summary, "## Key Decisions")
    assert any("Implement the AST metrics manually with the TDD workflow" in item for item in found), found
    assert not any(item.rstrip(" :*").endswith((" since", " with", " the")) for item in found), found


def test_a_wrapped_listed_decision_keeps_its_whole_sentence() -> None:
    summary = summarize([
        user("Implement the following plan:\n\n# Site refresh\n\n## Decisions — do not relitigate\n\n"
             "1. **Light first.** The hero stops being a hardcoded dark panel and sits on the page background. Drop\n"
             "   the `hero--primary` class and the rules that force the hero title white.\n"
             "2. **`hero.png` stays.** It shows the default prompt; the SVG encoder of phase 2 replaces\n"
             "   it later.\n"),
        assistant("Starting with the hero styles."),
    ])
    found = items(summary, "## Key Decisions")
    assert any("sits on the page background." in item for item in found), found
    assert any("the SVG encoder of phase 2 replaces it later." in item for item in found), found
    assert not any(item.endswith((" Drop", " replaces")) for item in found), found
