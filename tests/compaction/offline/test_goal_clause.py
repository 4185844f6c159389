"""The goal's "now" is the user's request as a clause (clause.py): never their text cut mid-clause, never the log, the
error dump, the listing or the code they pasted into it (issue 20, class 1 of the validation faults)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.clause import own_lines, request_clause
from pi_compact.compaction.offline.goal import task_goal

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES
from .test_goal_now import _goal

ASKS = st.sampled_from([
    "ok, it mostly works now but I think the line numbers in the report are off",
    "the logs are still leaking into the terminal after the last change",
    "it somehow always lists these under each branch",
    "can you look at why the export step fails for these",
])
PASTED = st.sampled_from([
    "\n\nBuilding cli from: /Users/someone/work/cli\n=== Step 1: init ===\nInitialized empty repo in /tmp/x/.git/\n"
    "Did you mean this? Did you mean this?",
    "\nFeb  9 09:00:08.092 |DEBU| hook invoked\nFeb  9 09:00:08.120 |INFO| session-end component=hooks id=28c3",
    "     > * 2026-01-06-c93f3533 (1 checkpoints) - by using this software you a... <active>\n"
    "    > * 2026-01-06-488c5296 (2 checkpoints) - I just tried to make a release w... <active>",
    "\n```\nTraceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    main(),\nValueError: bad\n```",
    "\n  at Object.<anonymous> (src/index.ts:12:5)\n  at Module._compile (node:internal/modules:1105:14)",
])
INTRO = st.sampled_from([":", "", ":\n"])


def _worked(words: str) -> list[dict]:
    block = call("e1", "edit", path="src/report.py", oldText="a", newText="b")
    return [assistant(block), result("e1", "edit", "Edited."), assistant(words)]


@EXAMPLES
@given(ask=ASKS, intro=INTRO, pasted=PASTED)
def test_the_now_is_the_users_words_not_what_they_pasted(ask: str, intro: str, pasted: str) -> None:
    messages = [user("Add a weekly report command to the CLI, with tests."), *_worked("Added the report command."),
                user(ask + intro + pasted), *_worked("Looking at it.")]
    now = _goal(messages)[1]
    assert now.startswith(ask)
    for mark in ("Did you mean", "|DEBU|", "c93f3533", "Traceback", "Object.<anonymous>", "ValueError"):
        assert mark not in now
    assert not now.endswith((",", ":", ";", "("))


LONG = st.sampled_from([
    "do something requiring multiple tools in one turn, reading the config, the schema and the fixtures, then "
    "writing the migration and running it against the staging database before the release tomorrow morning",
    "in the exporter: the code uses a heuristic (a min-based split) to divide the accumulated edits between the "
    "agent's files and the others, but the data to do it precisely already exists in the per-file counts",
])


@given(sentence=LONG, limit=st.integers(min_value=60, max_value=160))
def test_a_long_sentence_is_cut_at_a_clause_end_never_on_a_comma(sentence: str, limit: int) -> None:
    clause = request_clause(sentence, limit)
    assert sentence.startswith(clause.rstrip("…"))
    assert len(clause) <= limit + 1
    assert not re.search(r"[,;:(—-]\s*…?$", clause)


@given(items=st.lists(st.sampled_from(["Redaction consistency - relies on the caller", "Missing unit tests for "
                                       "the overlap check", "Duplicated helper across tests", "Linear scan in the "
                                       "content overlap - should use a map"]), min_size=2, max_size=4, unique=True))
def test_a_list_the_user_wrote_is_kept_as_its_items(items: list[str]) -> None:
    text = "Can you address the following items:\n\n" + "\n".join(f"  {n}. {item}" for n, item in enumerate(items, 1))
    clause = request_clause(text, 160)
    assert clause.startswith("Can you address the following items: ")
    assert items[0].split(" - ")[0] in clause
    assert not clause.endswith(("1.", ":", ","))


def test_own_lines_drop_fences_quotes_and_output() -> None:
    text = "why does this fail?\n```\nnpm ERR! code 1\n```\n> quoted answer of the agent\n2024-01-02 10:00 INFO x"
    assert own_lines(text) == ["why does this fail?"]


SUBJECTS = st.sampled_from([
    "The cache key uses the user id only, but this does not tell the tenants apart vs. the users of one tenant.",
    "The humanModified count uses min(added, removed), which cannot tell edits to agent code from edits to user code.",
])


@given(subject=SUBJECTS, lead=st.sampled_from(["can you look at the changes in this branch and tell me what effort it "
                                               "is to fix this:", "please check how hard it would be to fix this:"]))
def test_a_goal_that_announces_its_subject_goes_on_to_it(subject: str, lead: str) -> None:
    goal = task_goal(f"{lead}\n\n{subject}")
    assert not goal.endswith((":", ",", "vs.")), goal
    assert subject.split(",")[0][:30] in goal, goal
