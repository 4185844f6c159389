"""Errors that are no errors (issue 20): a query command whose only answer is "nothing" (``gh pr checks 5`` exiting 1
with "no checks reported", ``gh run list`` with "no runs found", a ``grep`` loop), a failure about a pull request
merged later, a call a tool refused for its input and the agent then made right. None is a Blocked item nor a
"Fix:" step; a query that failed for real, a failure about another pull request, a refusal never followed by a
working call stay open."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.bad_input import bad_input
from pi_compact.compaction.offline.empty_answer import queries_only, says_nothing
from pi_compact.compaction.offline.facts import Attempt

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items


def _open(summary: str) -> list[str]:
    return [step for step in items(summary, "## Next Steps") if step.startswith("Fix")] + \
        [item for item in items(summary, "### Blocked") if item != "(none)"]


def _after_query(command: str, output: str, code: int, *later: dict) -> list[dict]:
    return [user("Check whether the pull request can go in, then tidy the parser."),
            assistant(call("q", "bash", command=command)), result("q", "bash", bash_fail(output, code), error=True),
            *later,
            assistant(call("e", "edit", path="src/parser.py", oldText="a", newText="b")),
            result("e", "edit", "Successfully replaced text in src/parser.py."),
            assistant("Let me look at the next part.")]


EMPTY = [
    ("gh pr checks 5", "no checks reported on the 'feature/logging' branch", 1),
    ("gh run list --branch feature/logging", "no runs found", 1),
    ("kubectl get pods -n staging", "No resources found in staging namespace.", 1),
    ("gh pr list --author me", "no open pull requests match your search", 1),
    ("gh search issues 'flaky test' --repo o/r", "", 1),
    ("for f in a.py b.py; do echo \"== $f\"; grep -n TODO \"$f\"; done", "", 1),
]


@pytest.mark.parametrize(("command", "output", "code"), EMPTY)
def test_a_query_that_found_nothing_is_no_open_error(command: str, output: str, code: int) -> None:
    summary = summarize(_after_query(command, output, code))
    assert _open(summary) == [], summary


@pytest.mark.parametrize(("command", "output", "code"), [
    ("gh pr checks 5", "HTTP 401: Bad credentials (https://api.github.com/graphql)", 1),
    ("npm run build", "no files found, build failed: error TS18003", 2),
    ("gh pr merge 5 --squash", "no checks reported; merge blocked: required status checks missing", 1),
])
def test_a_query_that_failed_for_real_stays_open(command: str, output: str, code: int) -> None:
    assert _open(summarize(_after_query(command, output, code))) != []


def _merged(number: int) -> list[dict]:
    return [assistant(call("m", "bash", command=f"gh pr merge {number} --squash")),
            result("m", "bash", f"✓ Squashed and merged pull request #{number}")]


def _viewed(number: int, state: str) -> list[dict]:
    return [assistant(call("v", "bash", command=f"gh pr view {number} --json state,mergedAt")),
            result("v", "bash", f'{{"state":"{state}","mergedAt":null}}')]


FAILED_CHECK = "X  test (ubuntu)  1m2s  https://github.com/o/r/actions/runs/1\nsome checks were not successful"


@pytest.mark.parametrize("later", [_merged(5), _viewed(5, "MERGED"), _viewed(5, "CLOSED")])
def test_a_failure_about_a_pull_request_merged_later_is_settled(later: list[dict]) -> None:
    summary = summarize(_after_query("gh pr checks 5", FAILED_CHECK, 1, *later))
    assert _open(summary) == [], summary


@pytest.mark.parametrize("later", [_merged(6), _viewed(5, "OPEN")])
def test_a_failure_about_a_pull_request_still_open_stays_open(later: list[dict]) -> None:
    assert _open(summarize(_after_query("gh pr checks 5", FAILED_CHECK, 1, *later))) != []


REFUSALS = [  # (the tool's error text, whether the harness reports it as an error result)
    "<tool_use_error>InputValidationError: Task failed due to the following issue:\n"
    "The required parameter `description` is missing</tool_use_error>",
    "Invalid tool parameters: description: Required",
    "failed to parse function arguments: missing field `description` at line 1 column 40",
    "The task tool was called with invalid arguments: [{\"path\": [\"description\"], \"message\": \"Required\"}]",
    "Validation failed for tool \"task\":\n  - root: must have required property 'description'",
]


def _refused(error: str, *, retried: bool) -> list[dict]:
    again = [assistant(call("t2", "task", description="Explore the parser", prompt="Find the header code.")),
             result("t2", "task", "The header code is in src/parser.py, parse_header.")] if retried else []
    return [user("Explore the parser, then tidy it."),
            assistant(call("t1", "task", prompt="Find the header code.")), result("t1", "task", error, error=True),
            *again,
            assistant(call("e", "edit", path="src/parser.py", oldText="a", newText="b")),
            result("e", "edit", "Successfully replaced text in src/parser.py."),
            assistant("Let me look at the next part.")]


@pytest.mark.parametrize("error", REFUSALS)
def test_a_refused_input_the_agent_retried_is_settled_and_named(error: str) -> None:
    summary = summarize(_refused(error, retried=True))
    assert _open(summary) == [], summary
    met = summary.split("Failures met on the way and since settled", 1)
    said = error.splitlines()[0].removeprefix("<tool_use_error>")[:30]  # quoted without the harness's wrapper tag
    assert len(met) == 2 and said in met[1].split("\n- ", 1)[0], summary


@pytest.mark.parametrize("error", REFUSALS)
def test_a_refused_input_never_retried_stays_open(error: str) -> None:
    summary = summarize(_refused(error, retried=False))
    assert any("task" in item.lower() and "description" in item for item in items(summary, "### Blocked")), summary


@pytest.mark.parametrize(("output", "nothing"), [
    ("no checks reported on the 'x' branch", True), ("Exit code 1\nno runs found", True), ("", True),
    ("Found 0 results", True), ("No matches found", True),
    ("grep: src/a.py: No such file or directory", False), ("error: build failed", False),
    ("no runs found\nerror: HTTP 502", False),
])
def test_says_nothing(output: str, nothing: bool) -> None:
    assert says_nothing(output) is nothing


@pytest.mark.parametrize(("command", "query"), [
    ("gh pr checks 5", True), ("kubectl get pods", True), ("git diff --exit-code", True),
    ("for f in a b; do grep -n x \"$f\"; done", True),
    ("gh pr merge 5", False), ("npm test", False), ("for f in a b; do rm \"$f\"; done", False),
    ("kubectl get pods > pods.txt", False),
])
def test_queries_only(command: str, query: bool) -> None:
    assert queries_only(command) is query


def test_bad_input_reads_the_refusal_not_the_output() -> None:
    late = "ok\n" * 200 + "invalid input"
    assert not bad_input(Attempt(0, "task", "", True, late))
    assert bad_input(Attempt(0, "task", "", True, REFUSALS[0]))
