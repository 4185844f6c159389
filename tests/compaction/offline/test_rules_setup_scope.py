"""Constraints the user states without a rule's words (issue 20): a fact of their own environment that the work must
respect ("I run llama-server with a 128K context, -c 131072", "done, changed to 128k"), a method of work asked for by
its name ("use TDD", "TDDで進めて"), and a scope limit in a plan the user gave ("This phase adds three read-only
endpoints … No changes to the pipeline.", the limit kept with what it bounds). One-off steps, questions and
descriptions stay out."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.facts import constraint_sentences
from pi_compact.compaction.offline.rules import SETUP_LABEL, lasting

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

SETUP = ["I run llama-server with a 128K context, -c 131072.", "done, changed to 128k",
         "we're on Node 18.20 in production, keep that in mind", "My server has 16 GB of RAM.",
         "Eu uso o Postgres 15.4 aqui.", "Ich verwende Python 3.11 auf dem Server.", "コンテキストは128Kで動かしています。",
         "我用的是 Node 20.11。"]
METHOD = ["Use TDD for this.", "Please follow conventional commits.", "write the tests first", "TDDで進めてください",
          "Vamos fazer com TDD.", "Bitte mit TDD arbeiten."]
NOT_RULES = ["I have 3 ideas for this.", "if you use 16 GB does it work?", "I ran the tests with -v and two failed.",
             "what does -c 131072 do?", "The server has 16 GB.", "Is TDD worth it here?", "I changed my mind.",
             "This phase adds the export endpoints.", "Add a --limit 20 flag to the list command."]


@pytest.mark.parametrize("said", SETUP + METHOD)
def test_a_setup_or_a_method_is_a_lasting_constraint(said: str) -> None:
    found = constraint_sentences(said)
    assert found and said.strip().rstrip(".").split(",")[0][:15] in found[0], found
    assert lasting(found[0])
    assert found[0].startswith(SETUP_LABEL) == (said in SETUP), found


@pytest.mark.parametrize("said", NOT_RULES)
def test_steps_questions_and_descriptions_are_none(said: str) -> None:
    assert constraint_sentences(said) == []


PLAN = ("Implement the following plan:\n\n# Phase 4: Export\n\n## Scope\n\nThis phase adds **three read-only "
        "endpoints** to the api service and a migration for the indexes. {limit}\n\n## Steps\n1. Add the endpoints\n")


@pytest.mark.parametrize("limit", ["No changes to the ingest pipeline.", "Do not touch the worker service.",
                                   "Don't modify the scheduler."])
def test_a_plan_limit_keeps_the_scope_it_bounds(limit: str) -> None:
    messages = [user(PLAN.format(limit=limit)), assistant(call("e", "edit", path="api/export.py", oldText="a",
                                                               newText="b")), result("e", "edit", "ok"),
                assistant("Started on the endpoints.")]
    rules = items(summarize(messages), "## Constraints & Preferences")
    assert any("read-only endpoints" in rule and limit.rstrip(".") in rule for rule in rules), rules


def test_a_setup_stated_in_a_finished_turn_still_binds() -> None:
    messages = [user("why 32768? i want more context for the summaries"), assistant("Because of the default."),
                user("done, changed to 128k"), assistant("Good, with 128k the budget fits."),
                user("Now make the chunker use the whole context when the server allows it, and add a test."),
                assistant(call("e", "edit", path="src/chunk.py", oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant("Working on it.")]
    rules = items(summarize(messages), "## Constraints & Preferences")
    assert any("128k" in rule for rule in rules), rules
