"""A rule the user asks the agent to keep from now on is a constraint however it is phrased (issue 20, the
omission beside class 3): "make a rule to always …", "make a note to never …", "from now on …", "remember that …",
"going forward …", "please update CLAUDE.md to always …". It stays after its request is finished, it is no work of
its own (the goal and the next step are the work's), and a request to do something once is no such rule."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import constraint_sentences
from pi_compact.compaction.offline.goal import sets_work
from pi_compact.compaction.offline.rules import standing

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

LEADS = ["", "Great. ", "Thanks, that works. ", "ok. "]
STANDING = [
    "Make a rule to always run the linter before committing.",
    "make a note to never push straight to main",
    "From now on, use pnpm for every install.",
    "Going forward you should squash the fixup commits before pushing.",
    "Please update CLAUDE.md to always follow the release checklist.",
    "Next time you touch the schema, regenerate the client types.",
    "Whenever you add an endpoint, add it to the OpenAPI spec as well.",
    "以后提交前先运行测试。",
]
KEPT_IN_MIND = ["Remember that the staging database is shared with the QA team.",
                "Keep in mind that the API is rate limited to 10 requests a second.",
                "Don't forget to bump the version in package.json."]
ONCE = [
    "Update CLAUDE.md with the new build commands.",
    "Run the linter on the parser module.",
    "It crashes every time I open the settings page.",
    "Can you remember what we changed in the parser yesterday?",
    "To suppress this warning in future sessions, run the setup script.",
    "The scanner would see it in its list and make a note to fix it in a tasks file.",
]


@pytest.mark.parametrize("sentence", STANDING + KEPT_IN_MIND)
def test_a_standing_rule_is_a_rule_however_it_is_asked(sentence: str) -> None:
    assert standing(sentence)
    assert constraint_sentences(sentence) == [sentence]


@pytest.mark.parametrize("sentence", ONCE)
def test_a_request_to_do_something_once_or_a_report_is_no_standing_rule(sentence: str) -> None:
    assert not standing(sentence)


@EXAMPLES
@given(lead=st.sampled_from(LEADS), rule=st.sampled_from(STANDING + KEPT_IN_MIND))
def test_a_standing_rule_given_between_tasks_is_a_constraint_not_the_work(lead: str, rule: str) -> None:
    messages = [user("Add a retry with backoff to the HTTP client."),
                assistant(call("e", "edit", path="src/http.py", oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant("Added the retry with backoff."),
                user(lead + rule), assistant("Noted, I will keep to that."),
                user("Now add a timeout option to the client."),
                assistant(call("f", "edit", path="src/http.py", oldText="b", newText="c")), result("f", "edit", "ok")]
    summary = summarize(messages)
    assert rule in items(summary, "## Constraints & Preferences")
    assert not sets_work(lead + rule)
    assert rule not in "\n".join(items(summary, "## Goal") + items(summary, "## Next Steps"))
    assert not any(line.startswith("Earlier request:") and rule in line for line in items(summary, "## Critical Context"))


@EXAMPLES
@given(rule=st.sampled_from(STANDING))
def test_a_standing_rule_with_work_in_the_same_message_keeps_both(rule: str) -> None:
    rule = rule if rule.endswith((".", "。")) else rule + "."
    request = f"{rule} Also rename the `fetch_all` helper to `fetch_pages` everywhere."
    assert sets_work(request)
    messages = [user(request), assistant(call("e", "edit", path="src/api.py", oldText="a", newText="b")),
                result("e", "edit", "ok"), assistant("Renamed `fetch_all` to `fetch_pages`: done."),
                user("Now update the changelog for the rename."),
                assistant(call("c", "edit", path="CHANGELOG.md", oldText="a", newText="b")), result("c", "edit", "ok")]
    assert rule in items(summarize(messages), "## Constraints & Preferences")


@EXAMPLES
@given(point=st.sampled_from(KEPT_IN_MIND[:2]))  # ("don't …" lasts as any "don't" rule)
def test_a_point_to_keep_in_mind_for_a_finished_request_is_no_lasting_rule(point: str) -> None:
    messages = [user(f"Summarize how the exporter handles retries. {point}"),
                assistant(call("r", "read", path="src/exporter.py")), result("r", "read", "def export(): ..."),
                assistant("Done: the exporter retries three times with backoff, then gives up."),
                user("Now add a dry-run flag to the exporter."),
                assistant(call("e", "edit", path="src/exporter.py", oldText="a", newText="b")), result("e", "edit", "ok")]
    assert point not in "\n".join(items(summarize(messages), "## Constraints & Preferences"))
