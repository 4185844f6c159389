"""Third-party errors the user pastes from a log (issue 20): a server log's exception under its prefix
(``web-1 | [req-id] ActionController::RoutingError (No route matches …)``) and an API's error body whose generic
``message`` hides the provider's reason (``raw: '… spend limit exceeded'``). Each is told in its own words: settled
once something changed after it, open while nothing did."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.told import Told
from pi_compact.compaction.offline.told import told_errors as _told_errors

from ..messages import assistant, call, result, user

SERVER_LOGS = [
    ("web-1     | [39a9-48d] Started GET \"/live/7/socket\" for 10.0.0.1\n"
     "web-1     | [39a9-48d] ActionController::RoutingError (No route matches [GET] \"/live/7/socket\"):\n"
     "web-1     | [39a9-48d]", "RoutingError"),
    ("[2026-02-14 05:32:37] [worker] Job 12 picked\n"
     "[2026-02-14 05:32:38] [worker] Sidekiq::JobRetry::HandledError (Net::ReadTimeout with #<TCPSocket>)\n", "HandledError"),
]

def told_errors(messages: list[dict]) -> Told:
    return _told_errors(messages, extract_facts(messages).attempts)


API_BODIES = [
    ("Request from ::1: POST /functions/proxy/chat\nAPI error: {\n  error: {\n    message: 'Provider returned error',\n"
     "    code: 429,\n    metadata: {\n      raw: 'model-x:free is temporarily rate-limited upstream. Retry later',\n"
     "    }\n  }\n}\n", "rate-limited upstream"),
    ('Upstream said:\n{\n  "error": {\n    "message": "Request failed",\n'
     '    "detail": "{\\"error\\":\\"API key spend limit exceeded for this key\\"}"\n  }\n}\n', "spend limit exceeded"),
]


def _session(paste: str, *, changed: bool) -> list[dict]:
    later = [assistant(call("e", "edit", path="config/routes.rb", oldText="a", newText="b")),
             result("e", "edit", "ok")] if changed else []
    return [user(f"i see this in the log:\n{paste}"), assistant("Looking into it."), *later]


@pytest.mark.parametrize(("paste", "word"), SERVER_LOGS + API_BODIES)
def test_a_pasted_third_party_error_is_told_settled_once_something_changed(paste: str, word: str) -> None:
    told = told_errors(_session(paste, changed=True))
    assert any(word in line for line in told.settled), told
    assert not any(word in line for line in told.open), told


@pytest.mark.parametrize(("paste", "word"), SERVER_LOGS + API_BODIES)
def test_a_pasted_third_party_error_nothing_dealt_with_stays_open(paste: str, word: str) -> None:
    told = told_errors(_session(paste, changed=False))
    assert any(word in line for line in told.open), told


def test_the_generic_message_of_a_body_with_a_reason_is_not_told() -> None:
    told = told_errors(_session(API_BODIES[0][0], changed=True))
    assert not any("Provider returned error" in line for line in told.settled + told.open), told


@pytest.mark.parametrize("text", [
    "please tidy this:\n  indented: value\n  [x] done item\n",
    "the config:\n  detail: 'short'\n  reason: 'this is only a description field of a form'\n",
])
def test_a_plain_multi_line_request_tells_no_error(text: str) -> None:
    told = told_errors([user(text), assistant("ok")])
    assert told.open == [] and told.settled == [], told
