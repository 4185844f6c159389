"""A standing rule said in passing, inside a request for something else ("fix the login bug — and never push to main
without asking me", "以后一律用 pnpm"), is a constraint for the rest of the work: its clause, found by its standing
adverb (always, never, don't ever, from now on, 以后, 今後, désormais, …), not the request around it, which is a
one-off instruction and history once that request is done (issue 20)."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.facts import constraint_sentences

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

SAID = [
    ("Fix the login bug — and never push to main without asking me.", "never push to main without asking me",
     "Fix the login bug"),
    ("Fix the login bug, and from now on use pnpm, not npm.", "from now on use pnpm, not npm", "Fix the login bug"),
    ("Please fix the login bug; also, from now on use pnpm instead of npm.", "from now on use pnpm instead of npm",
     "fix the login bug"),
    ("Fix the login bug and don't ever commit the .env file.", "don't ever commit the .env file", "Fix the login bug"),
    ("Fix the login bug (and always run the linter before committing).", "always run the linter before committing",
     "Fix the login bug"),
    ("修复登录的问题，以后一律用 pnpm，不要用 npm。", "以后一律用 pnpm，不要用 npm", "修复登录的问题"),
    ("ログインのバグを直して、今後は必ず pnpm を使ってください。", "今後は必ず pnpm を使ってください", "ログインのバグを直して"),
    ("Corrige le bug de connexion, et désormais utilise pnpm.", "désormais utilise pnpm", "Corrige le bug"),
    ("Behebe den Login-Fehler, und ab jetzt nutze pnpm.", "ab jetzt nutze pnpm", "Behebe den Login-Fehler"),
]


@pytest.mark.parametrize(("request_", "rule", "one_off"), SAID)
def test_the_rule_said_in_passing_is_kept_as_its_clause(request_: str, rule: str, one_off: str) -> None:
    found = constraint_sentences(request_)
    assert any(item.startswith(rule) for item in found), found
    assert not any(one_off in item for item in found), found


@pytest.mark.parametrize(("request_", "rule", "one_off"), SAID)
def test_the_rule_binds_after_its_request_is_done_and_the_request_does_not(request_: str, rule: str,
                                                                          one_off: str) -> None:
    messages = [user(request_),
                assistant(call("e", "edit", path="src/login.ts", oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant("The login bug is fixed."),
                user("Now add a logout button to the nav bar."),
                assistant(call("f", "edit", path="src/nav.ts", oldText="a", newText="b")), result("f", "edit", "ok"),
                assistant("Added the logout button.")]
    rules = items(summarize(messages), "## Constraints & Preferences")
    assert any(rule in item for item in rules), rules
    assert not any(one_off in item for item in rules), rules


@pytest.mark.parametrize("said", [
    "I checked the logs and never saw the warning.",  # a subject: what happened, no order
    "The build passed, and always has on this branch.",  # what some code does
    "It works now, never mind the earlier error.",
    "Fix the login bug and the logout bug.",
    "I would add that logic to the website build only, and never in the artifacts we ship.",  # no verb of its own
    # the clause before the bare "and" has a subject of its own, whatever the sentence opened with
    "Since 500 >= 400 is true, a 5xx `context_size_error` would be caught by the 500 handler first and never reach "
    "the new detection code.",
    "After the merge, the hook fires twice and never clears the flag.",
    "Because of the retry loop, an expired token is refreshed again and always returns the same error.",
    "On a cold start; the worker reads the queue and never acknowledges the message.",
])
def test_words_that_state_what_happened_set_no_rule(said: str) -> None:
    assert constraint_sentences(said) == []


@pytest.mark.parametrize("said", [
    'Warn users: "API key stored in browser only, never sent to our servers"',
    "Show the banner “saved on this device only, never uploaded” under the form.",
    'The toast reads "Draft kept locally - always synced on reconnect" after a save.',
])
def test_a_clause_inside_a_quote_is_no_rule_of_its_own(said: str) -> None:
    assert not any(rule.lower().startswith(("never", "always")) for rule in constraint_sentences(said))


@pytest.mark.parametrize("said", ['Rename the "save" button, and never push to main.',
                                  "Keep the “Draft” label - and always run the linter first."])
def test_a_rule_after_a_closed_quote_is_kept(said: str) -> None:
    assert any(rule.lower().startswith(("never", "always")) for rule in constraint_sentences(said))
