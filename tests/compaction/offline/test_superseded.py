"""A decision the region later reversed is no decision (superseded.py, rules.py; issue 20, class 4 of the validation
faults): the user turns down the way the agent chose ("the interface is better, no?") or says "actually …",
"revert that", "go back to …", and the summary keeps only the standing way (the old one at most as history)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

REFUSAL = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, "
           "the new_string was NOT written to the file). To tell you how to proceed, the user said:\n{}")
WAYS = st.sampled_from([
    ("Rather than changing the Store interface, let me add a helper function in the cache package instead.",
     "the interface is better no? We don't want helper functions picking the store at every call site",
     "src/cache/helpers.py"),
    ("Instead of the JSON encoder, I'll use the YAML encoder for the exported config files.",
     "no, keep the JSON encoder, the YAML encoder is what we dropped last week",
     "src/export/encoder.py"),
])


@EXAMPLES
@given(way=WAYS)
def test_a_way_the_user_turned_down_is_no_standing_decision(way: tuple[str, str, str]) -> None:
    decided, reason, path = way
    edit = call("e1", "edit", path=path, oldText="a", newText="b")
    messages = [user("make the cache layer pluggable so other stores can be added"),
                assistant(decided, edit), result("e1", "edit", REFUSAL.format(reason), error=True),
                assistant("You're right, I'll keep it that way and go on.")]
    decisions = items(summarize(messages), "## Key Decisions")
    standing = [d for d in decisions if not d.startswith(("Was:", "The user declined"))]
    assert not any(decided[:40] in d for d in standing), decisions


REVERSALS = st.sampled_from([
    "actually, let's use sqlite for the job queue, the redis setup is too much",
    "scratch that, go back to sqlite for the job queue",
    "revert that, the job queue should use sqlite instead.",
])


@EXAMPLES
@given(reversal=REVERSALS)
def test_an_agreed_way_the_user_reversed_later_is_history(reversal: str) -> None:
    edit = call("e1", "edit", path="src/jobs/queue.py", oldText="a", newText="b")
    messages = [user("add a background job queue for the exports"),
                assistant("Option 1: keep the job queue in redis with a worker process.\n"
                          "Option 2: keep the job queue in sqlite with a polling loop.\nWhich one should I do?"),
                user("option 1"), assistant("Going with redis for the job queue.", edit),
                result("e1", "edit", "Edited."), assistant("The redis job queue is in place in `src/jobs/queue.py`."),
                user(reversal), assistant("Switching the job queue to sqlite.", edit), result("e1", "edit", "Edited."),
                assistant("The job queue now uses sqlite.")]
    decisions = items(summarize(messages), "## Key Decisions")
    assert not any("redis" in d and not d.startswith("Was:") for d in decisions), decisions
    assert any("sqlite" in d for d in decisions), decisions


@given(key=st.sampled_from(["B", "b"]), lead=st.sampled_from(["I think ", "I'd go with ", "I prefer "]))
def test_a_reply_that_names_an_option_picks_that_option(key: str, lead: str) -> None:
    answer = ("Config format?\n\nA. `auto_summarize: true` - a simple boolean in the strategy options\n"
              "B. `summarize: { enabled: true }` - a nested object, extensible later\n\nWhich do you prefer?")
    messages = [user("add automatic summaries of checkpoints"), assistant(answer),
                user(f"{lead}{key}, nested in strategy options - it leaves room for more later"),
                assistant("Going with the nested object.")]
    decisions = items(summarize(messages), "## Key Decisions")
    assert any("option B" in d for d in decisions), decisions
    assert not any("option A" in d for d in decisions), decisions


RULES = st.sampled_from([
    ("Always use the stdlib json module for parsing, no extra dependencies.",
     "actually, let's use orjson for parsing, the stdlib json module is too slow for the feed"),
    ("Never touch the legacy importer module, it stays as it is.",
     "on second thought, the legacy importer module has to change too: fix its date handling"),
])


@EXAMPLES
@given(rule=RULES)
def test_a_rule_the_user_reversed_is_no_standing_constraint(rule: tuple[str, str]) -> None:
    said, reversal = rule
    edit = call("e1", "edit", path="src/parse.py", oldText="a", newText="b")
    messages = [user(f"add a parser for the event feed. {said}"), assistant("Writing the parser.", edit),
                result("e1", "edit", "Edited."), assistant("Added the parser in `src/parse.py`."),
                user(reversal), assistant("Changing it.", edit), result("e1", "edit", "Edited."),
                assistant("Done: the parser is changed as asked in `src/parse.py`.")]
    rules = items(summarize(messages), "## Constraints & Preferences")
    assert not any(said[:30] in r and not r.startswith("Was:") for r in rules), rules


@EXAMPLES
@given(rule=RULES)
def test_an_earlier_summarys_rule_the_region_reversed_is_history(rule: tuple[str, str]) -> None:
    said, reversal = rule
    previous = (f"## Goal\nAdd a parser for the event feed.\n\n## Constraints & Preferences\n- {said}\n\n"
                "## Progress\n### Done\n- [x] Added the parser in `src/parse.py`.\n")
    edit = call("e1", "edit", path="src/parse.py", oldText="a", newText="b")
    messages = [user(reversal), assistant("Changing it.", edit), result("e1", "edit", "Edited."),
                assistant("Done: the parser is changed as asked in `src/parse.py`.")]
    rules = items(summarize(messages, previous_summary=previous), "## Constraints & Preferences")
    assert not any(said[:30] in r and not r.startswith("Was:") for r in rules), rules
