"""Errors reported by someone other than a failing tool result of the agent's work: a provider error the user
pasted on one line, a slash command's output that says it failed, a tool's refusal of the agent's call that the
agent then worked around, a web page out of reach (404), and errors the agent tells in words that were settled
later (a file changed since, a check passed, the user went on): one line, never Blocked. Near-misses: a diagnosis
that names no failure ("The issue is that …"), a guess ("likely"), a failure word that is a value (`FAILED`), the
harness's chatter (a sibling call failed, the input did not fit the schema), a fetch that failed without a status."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

READ = [assistant("Let me read the cart code.", call("r", "read", path="src/cart.ts")),
        result("r", "read", "export const total = 1;\n")]
EDIT = [assistant(call("e", "edit", path="src/cart.ts", oldText="1", newText="2")),
        result("e", "edit", "Successfully replaced text in src/cart.ts.")]


def _blocked(summary: str) -> list[str]:
    return [item for item in items(summary, "### Blocked") if item != "(none)"]


PASTED = [  # (a one-line paste, its identifying words)
    ('API 422: {"success":false,"error":"The operation was aborted due to timeout"}', "API 422"),
    ("HTTP/1.1 503 Service Unavailable from the gateway", "503 Service Unavailable"),
    ("TypeError: Cannot read properties of undefined (reading 'total')", "Cannot read properties"),
    ("fatal: unable to access 'https://example.com/repo.git/': SSL certificate problem", "SSL certificate problem"),
    ("error[E0382]: borrow of moved value: `cart`", "borrow of moved value"),
]


@pytest.mark.parametrize(("paste", "words"), PASTED)
@pytest.mark.parametrize("then", ["open", "settled"])
def test_an_error_the_user_pastes_on_one_line_is_told(paste: str, words: str, then: str) -> None:
    after = READ if then == "open" else EDIT + READ  # (then a new request: the paste is an earlier one)
    summary = summarize([user("Please look into the checkout flow: the totals are wrong for carts with a discount, "
                              "and the tax line is missing on the receipt."), *READ, user(paste), *after,
                         user("Also check the tax page."), *READ])
    assert words in summary, summary
    blocked = any(words in line for line in _blocked(summary))
    assert blocked == (then == "open"), summary


@pytest.mark.parametrize("words", ["Please fix the API 422 handling in the client.",
                                   "the TypeError handler should log more"])
def test_a_request_that_names_an_error_is_no_paste(words: str) -> None:
    summary = summarize([user("Please look into the checkout flow."), *READ, user(words), *READ])
    assert not _blocked(summary), summary


def _slash(output: str) -> list[dict]:
    return [user("<command-name>/install-app</command-name>\n<command-message>install-app</command-message>"),
            user(f"<local-command-stdout>{output}</local-command-stdout>")]


@pytest.mark.parametrize(("output", "failed"), [
    ("Couldn't install the App: the CLI is missing required permissions: workflow.", True),
    ("Error: could not reach the registry at registry.example.com", True),
    ("Installed the App for owner/repo.", False),
])
def test_a_slash_command_that_failed_is_told(output: str, failed: bool) -> None:
    summary = summarize([user("Please set up the CI."), *READ, *_slash(output), *EDIT, *READ])
    assert (output[:40] in summary) == failed, summary


def _refused(error: str) -> list[dict]:
    return [assistant(call("m1", "SendMessage", to="*", message={"type": "shutdown_request"})),
            result("m1", "SendMessage", f"<tool_use_error>{error}</tool_use_error>", error=True),
            assistant(call("m2", "SendMessage", to="dev-agent", message={"type": "shutdown_request"})),
            result("m2", "SendMessage", '{"success":true,"message":"Shutdown request sent to dev-agent."}')]


@pytest.mark.parametrize(("error", "told"), [
    ('structured messages cannot be broadcast (to: "*")', True),
    ("recipient must be one teammate, not a group", True),
    ("Sibling tool call errored", False),
    ("InputValidationError: the required parameter `to` is missing", True),  # what the tool wanted (issue 20)
    ("Permission to use SendMessage has been denied.", False),
])
def test_a_tool_refusing_the_agents_call_is_one_settled_line(error: str, told: bool) -> None:
    summary = summarize([user("Wrap up the team."), *_refused(error), *READ])
    assert (error[:25] in summary) == told, summary
    assert not any(error[:25] in line for line in _blocked(summary)), summary


def _fetch(error: str) -> list[dict]:
    url = "https://raw.githubusercontent.com/acme/design-system/main/guide.md"
    return [assistant(call("w", "WebFetch", url=url, prompt="the design rules")),
            result("w", "WebFetch", error, error=True),
            assistant("The page is out of reach; cloning instead.",
                      call("g", "bash", command="git clone https://github.com/acme/design-system.git /tmp/ds")),
            result("g", "bash", "Cloning into '/tmp/ds'...\n")]


@pytest.mark.parametrize(("error", "told"), [
    ("Request failed with status code 404", True),
    ("HTTP 403 Forbidden", True),
    ("The page took too long to answer", False),
])
def test_a_web_page_out_of_reach_is_one_settled_line(error: str, told: bool) -> None:
    summary = summarize([user("Rework the README to the design system at the link."), *_fetch(error), *READ])
    assert (error in summary) == told, summary
    assert not any(error in line for line in _blocked(summary)), summary


TOLD = [  # (the agent's sentence, its identifying words)
    ("The last failure is because \"ECOG\" appears in the prompt template as an example.", "ECOG"),
    ("The upload fails because `chunk_size` is zero for empty files.", "chunk_size"),
    ("A resposta é truncada: o teste falha porque `parse_date` devolve None.", "parse_date"),
]
LATER = {
    "a file changed": EDIT + READ,
    "a check passed": [assistant(call("t", "bash", command="npm test")),
                       result("t", "bash", "Tests:       12 passed, 12 total\n")] + READ,
    "the user went on": [user("Now the tax page, please.")] + READ,
}


@pytest.mark.parametrize(("sentence", "words"), TOLD)
@pytest.mark.parametrize("later", list(LATER))
def test_a_told_error_settled_later_is_one_line_not_blocked(sentence: str, words: str, later: str) -> None:
    summary = summarize([user("Please look into the checkout flow."), *READ, assistant(sentence), *LATER[later]])
    assert not any(words in line for line in _blocked(summary)), summary
    assert words in summary, summary


@pytest.mark.parametrize(("sentence", "words"), TOLD)
def test_a_told_error_with_nothing_after_it_is_blocked(sentence: str, words: str) -> None:
    summary = summarize([user("Please look into the checkout flow."), *READ, assistant(sentence), *READ])
    assert any(words in line for line in _blocked(summary)), summary


@pytest.mark.parametrize("sentence", [
    "The issue is that `read_input` reads stdin once, so the second call sees nothing.",
    "The parser likely fails because `json_tags` wrap the body.",
    "Used the actual enum values: `MERGED`, `FAILED`, `ROLLED_BACK`.",
])
def test_no_told_error_where_none_was_met(sentence: str) -> None:
    summary = summarize([user("Please look into the checkout flow."), *READ, assistant(sentence), *READ])
    assert not _blocked(summary), summary
