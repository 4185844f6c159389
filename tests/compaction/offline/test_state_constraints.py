"""Constraints & Preferences: a request's one-off instructions lapse once the user has moved on to other work that
was finished since; pasted program output, a findings table, code a pasted plan describes and the agent's text the
user quotes are no rules of the user's (:func:`.state._binding_rules`, :func:`.facts.constraint_sentences`)."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_offline import items, summarize


def _constraints(*messages: dict) -> list[str]:
    return items(summarize(list(messages)), "## Constraints & Preferences")


@pytest.mark.parametrize(("rule", "kept"), [
    ("make sure it's in the Billing project", False),  # one-off: for that issue only
    ("never assign it to anyone", True),  # lasting: it says so
    ("请确保它属于 Billing 项目，永远不要指派给任何人", False),  # the one-off clause lapses …
    ("永远不要指派给任何人", True),  # … its lasting clause binds
])
def test_a_request_the_user_moved_on_from_keeps_only_its_lasting_rules(rule: str, kept: bool) -> None:
    said = "请确保它属于 Billing 项目，永远不要指派给任何人" if "永远" in rule else rule
    found = _constraints(
        user(f"Let's do option 2 for now, can you create the tracking issue? {said}"),
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


def test_agent_text_the_user_quotes_to_ask_about_it_is_no_rule() -> None:
    found = _constraints(
        user("Find which helpers of the cache layer the invoice path never uses."),
        assistant("Three helpers are dead on that path:\n- `warm_cache` -- returns an empty map (never read by the "
                  "invoice job)\n- `evict_all` -- returns zero (never read by the invoice job)"),
        user("I don't get these - warm_cache -- returns an empty map (never read by the invoice job)\n"
             "- evict_all -- returns zero (never read by the invoice job)\nNever touch the billing schema."),
        assistant("Both are called from `InvoiceJob.run` but their results are dropped."),
    )
    assert not any("invoice job" in item for item in found), found
    assert any("Never touch the billing schema" in item for item in found), found  # the user's own rule stays


def test_rows_of_a_findings_table_the_user_pasted_are_no_rules() -> None:
    found = _constraints(
        user("Fix these:\n| ID | Severity | Finding |\n|----|----|----|\n"
             "| R1 | Low | The loader must only accept `.csv` input but reads any file |\n"
             "| R2 | Medium | Retries never back off |"),
        assistant("Starting with R1."),
    )
    assert not any("csv" in item or "back off" in item for item in found), found


@pytest.mark.parametrize(("line", "kept"), [
    ("`sync_orders` (line 120): Always requires `api_token` -> add a check", False),
    ("`purge_logs` (line 88): never called from the scheduler", False),
    ("Always run the migrations before the tests", True),
    ("Never process the archive twice", True),
])
def test_always_or_never_describing_code_in_a_pasted_plan_is_no_rule(line: str, kept: bool) -> None:
    found = _constraints(
        user(f"Implement the following plan:\n\n# Harden the order sync\n\n## Steps\n\n1. {line}\n"),
        assistant("Reading the sync module first."),
    )
    assert any(line in item for item in found) == kept, found
