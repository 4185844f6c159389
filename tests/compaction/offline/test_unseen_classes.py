"""Classes of fault seen on sessions nobody tuned the summarizer on (issue 20), each from a small synthetic session
in the agents' real formats: an agent team's envelope tag is a request (relay.py); a short approval in any language
stands for what the agent proposed (goal.approves); a goal is not a question that was only asked (goal.objective);
a reply that asks for work settles the agent's question (steps.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.goal import approves, is_request, request_words

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

REQUEST = "Add a CSV exporter for the reports in src/export.py and test it."


def _edit(path: str, tag: str, words: str = "") -> list[dict]:
    return [assistant(call(tag, "edit", path=path, oldText="a", newText="b")), result(tag, "edit", "Edited."),
            *([assistant(words)] if words else [])]


# -- 1. an envelope tag without a sender attribute ---------------------------------------------------------------

ENVELOPES = [
    lambda body: f'<teammate-message teammate_id="lead" color="blue" summary="exporter">\n{body}\n</teammate-message>',
    lambda body: f"<teammate-message>{body}</teammate-message>",
    lambda body: f"<message>\n{body}\n</message>",
    lambda body: f'<inbound-message id="m-7">{body}</inbound-message>',
    lambda body: f"<user-input>{body}</user-input>",
    lambda body: f"<task>\n{body}\n</task>",
]


@pytest.mark.parametrize("wrap", ENVELOPES)
def test_a_message_in_an_envelope_tag_is_a_request(wrap) -> None:
    assert request_words(wrap(REQUEST)) == REQUEST and is_request(wrap(REQUEST))


@pytest.mark.parametrize("wrap", ENVELOPES)
def test_the_goal_of_an_enveloped_request_is_its_body(wrap) -> None:
    goal = items(summarize([user(wrap(REQUEST)), *_edit("src/export.py", "e1", "I added `export_csv()`.")]),
                 "## Goal")
    assert goal == [REQUEST]


@pytest.mark.parametrize("text", [
    "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>",
    "<command-message>review is running…</command-message>\n<command-name>/review</command-name>",
    "<local-command-stdout>Compacted</local-command-stdout>", "<bash-input>git status</bash-input>",
    "<system-reminder>The task tools were not used recently.</system-reminder>",
    "<user_instructions>Always use tabs.</user_instructions>",
    '<teammate-message teammate_id="w1">{"type": "idle_notification", "from": "w1"}</teammate-message>'])
def test_a_harness_notice_in_a_tag_stays_markup(text: str) -> None:
    assert not is_request(text)


# -- 2. a short approval in any language -------------------------------------------------------------------------

PROPOSAL = ("I looked at the handlers. I propose to move the auth handler first, then users, then billing, each with "
            "its tests. Shall I start with the auth handler?")
APPROVALS = ["ㅇㅋ. 알았어. 하나씩 하자", "vale, adelante", "d'accord", "好的，继续", "はい、お願いします", "ok do it"]


@pytest.mark.parametrize("reply", APPROVALS)
def test_a_short_reply_to_a_proposal_approves_it(reply: str) -> None:
    assert approves(reply, PROPOSAL)


@pytest.mark.parametrize("reply", ["ok, fix the tests", "no, not like that", "아니", "non", "do it in src/a.py",
                                   "what about billing?", "use version 2", "show me the diff",
                                   "whats the status now", "later", "아니, 잠깐"])
def test_a_refusal_a_question_or_work_of_its_own_is_no_approval(reply: str) -> None:
    assert not approves(reply, PROPOSAL)


@given(reply=st.text(max_size=80), answer=st.text(max_size=300))
def test_approves_takes_any_text(reply: str, answer: str) -> None:
    assert approves(reply, answer) in (True, False)


def test_a_short_reply_after_a_report_is_no_approval() -> None:
    assert not approves("vale, adelante", "I fixed the parser and all 40 tests pass.")


@pytest.mark.parametrize("reply", APPROVALS)
def test_an_approval_is_not_the_task_in_progress(reply: str) -> None:
    messages = [user("Migrate the three request handlers in src/handlers/ to the new client API."),
                assistant(call("r1", "read", path="src/handlers/auth.py")), result("r1", "read", "def auth(): pass\n"),
                assistant(PROPOSAL), user(reply), *_edit("src/handlers/auth.py", "e1")]
    text = summarize(messages)
    progress, steps = items(text, "### In Progress"), items(text, "## Next Steps")
    assert not any(line.startswith(f"“{reply}”") for line in progress)
    assert any("move the auth handler first" in line for line in progress)
    assert not any(f"latest request: “{reply}”" in step for step in steps)
    assert "now:" not in " ".join(items(text, "## Goal"))


# -- 3. a stale goal: a question only asked, work set later --------------------------------------------------------

def test_a_question_only_asked_yields_the_goal_to_the_work_a_later_reply_sets() -> None:
    messages = [user("do you have access to the `release-notes` skill? if so load it"),
                assistant("Yes, I loaded it. Do you want me to write the notes for v2.3 now?"),
                user("okay but first I want the changelog generator in tools/changelog.py to group entries by scope "
                     "and then write the v2.3 notes with it."),
                *_edit("tools/changelog.py", "e1", "The generator groups entries by scope now."),
                user("so whats the status now?"), assistant("The generator is done; the notes are next.")]
    goal = " ".join(items(summarize(messages), "## Goal"))
    assert "changelog generator" in goal and "do you have access" not in goal


# -- 4. a question the user settled outside its options ------------------------------------------------------------

@pytest.mark.parametrize("reply", ["can't we do both?", "could you keep both flags and deprecate the old one?"])
def test_a_reply_that_asks_for_work_answers_the_question(reply: str) -> None:
    question = "Should I keep the old `--csv` flag or remove it in favour of `--format csv`?"
    messages = [user(REQUEST), *_edit("src/export.py", "e1", f"The exporter works. {question}"),
                user(reply), *_edit("src/cli.py", "e2", "Both flags work now; `--csv` prints a deprecation note."),
                user("now add a line about it to the README please"),
                assistant(call("r", "read", path="README.md")), result("r", "read", "# Reports\n")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert "Still unanswered" not in steps and "keep the old" not in steps


def test_a_question_put_off_stays_open() -> None:
    question = "Should I keep the old `--csv` flag or remove it in favour of `--format csv`?"
    messages = [user(REQUEST), *_edit("src/export.py", "e1", f"The exporter works. {question}"),
                user("quick question first: does the exporter stream rows or build the whole file in memory?"),
                assistant("It streams rows."), user("now add a line about it to the README please"),
                assistant(call("r", "read", path="README.md")), result("r", "read", "# Reports\n")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert "keep the old" in steps


# -- growth: the goal's order of requests stays linear in their number -------------------------------------------

def test_the_objective_grows_linearly_in_replies_that_set_work() -> None:
    from pi_compact.compaction.offline.goal import objective

    from tests.growth import growth

    def build(size: int):
        requests = ["do you have access to the release skill?"] + [
            f"but I want the changelog entry {n} grouped by scope and written out" for n in range(size)]
        return lambda: objective(requests, lambda r: True, lambda r: False)

    found = growth("objective over many replies", build, 300, runs=3)
    assert found.linear, str(found)
