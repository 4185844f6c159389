"""A request relayed by a chat or mail bridge (relay.py, goal.py): the envelope's header, attributes or JSON fields
say who sent it and where, its body is the user's words: the goal is the body, never "(no user request in this
part)" nor the bridge's metadata; a harness's notice, which names no sender, stays markup."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.goal import is_request, request_words
from pi_compact.compaction.offline.relay import relayed

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

REQUEST = "Add a CSV exporter for the reports in src/export.py and test it."
ENVELOPES = [
    lambda body: f"[Discord #dev] alice: {body}",
    lambda body: f"[Telegram Alice (@alice) id:4211 +2m 2026-01-03 10:02 UTC] {body}",
    lambda body: f"[Matrix !room:example.org] @alice:example.org: {body}",
    lambda body: f"Message from @bob on Slack:\n{body}",
    lambda body: f"New message from Carol via WhatsApp:\n{body}",
    lambda body: f'<message from="alice" channel="dev">{body}</message>',
    lambda body: f'<channel source="telegram" chat_id="42" user="alice">\n{body}\n</channel>',
    lambda body: json.dumps({"user": "alice", "channel": "C0123", "text": body}),
    lambda body: json.dumps({"update_id": 7, "message": {"from": {"id": 1}, "chat": {"id": 2}, "text": body}}),
    lambda body: f"From: Alice <alice@example.org>\nTo: agent@example.org\nSubject: exporter\n\n{body}",
]


@pytest.mark.parametrize("wrap", ENVELOPES)
def test_the_body_of_a_relayed_message_is_the_users_words(wrap) -> None:
    assert request_words(wrap(REQUEST)) == REQUEST


@pytest.mark.parametrize("text", ["<system-reminder>The task tools were not used recently.</system-reminder>",
                                  "[Request interrupted by user]", "<task-notification>\n<status>completed</status>"
                                  "\n</task-notification>", '<file path="src/a.py">print(1)</file>'])
def test_a_harness_notice_is_no_relayed_request(text: str) -> None:
    assert not is_request(text) and relayed(text) == text


@pytest.mark.parametrize("text", ["[WIP] Fix the parser: it drops the last line.", "Fix: the parser drops lines.",
                                  '{"name": "pkg", "version": "1.0"}', "From here on, use tabs."])
def test_a_message_that_is_no_envelope_stays_whole(text: str) -> None:
    assert relayed(text) == text


@EXAMPLES
@given(wrap=st.sampled_from(ENVELOPES))
def test_the_goal_of_a_relayed_request_is_its_body(wrap) -> None:
    edit = [assistant(call("e1", "edit", path="src/export.py", oldText="a", newText="b")), result("e1", "edit", "Ok."),
            assistant("I added `export_csv()` in src/export.py.")]
    goal = items(summarize([user(wrap(REQUEST)), *edit]), "## Goal")
    assert goal == [REQUEST]


@pytest.mark.parametrize("depth", [1_000, 5_000])
def test_a_message_of_json_nested_past_any_recursion_limit_is_no_envelope(depth: int) -> None:
    text = '{"text": ' + "[" * depth + "]" * depth + "}"
    assert relayed(text) == text
