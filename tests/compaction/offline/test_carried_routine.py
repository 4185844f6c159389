"""An earlier summary's pending routine step said in words ("Run the new tests to verify they pass", "Run tests and
lint", "Commit the changes", "Push the branch") quotes no command, so only the kind of command the region ran tells
it was done: each kind it names ran with success, and no command of that kind is failing since (carried.py)."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

PREVIOUS = """This session is being continued from a previous conversation. The conversation is summarized below:

1. Primary Request and Intent:
   The user asked for a CSV export of the reports.

7. Pending Tasks:
   - {item}
   - Update the changelog with the export usage

8. Current Work:
   Writing the exporter in src/export.py.
"""
TESTS = ("pytest tests/test_export.py -q", "go test ./export/...", "npm test", "mise run test 2>&1 | tail -20")
LINTS = ("ruff check src", "mise run lint", "npx eslint src")
LONG_COMMIT = ("git add src/export.py src/export_helpers.py tests/test_export.py tests/test_export_helpers.py "
               "docs/export.md && git commit -m 'Add the CSV export of the reports'")


def _region(*runs: tuple[str, str, bool]) -> list[dict]:
    messages: list[dict] = [user("continue")]
    for number, (command, output, failed) in enumerate(runs):
        messages += [assistant(call(f"b{number}", "bash", command=command)),
                     result(f"b{number}", "bash", output, error=failed)]
    return messages + [assistant("That is as far as it goes for now."), user("now add a --since flag"),
                       assistant("Adding the flag.")]


def _pending(item: str, *runs: tuple[str, str, bool]) -> str:
    critical = items(summarize(_region(*runs), previous_summary=PREVIOUS.format(item=item)), "## Critical Context")
    return next(line for line in critical if line.startswith(item[:20]))


@pytest.mark.parametrize("command", TESTS)
@pytest.mark.parametrize("item", ["Run the new tests to verify they pass", "Re-run the tests", "Run tests"])
def test_a_test_run_asked_in_words_is_done_since_a_test_command_passed(item: str, command: str) -> None:
    assert _pending(item, (command, "ok  all 12 tests passed", False)).endswith("— done since")


@pytest.mark.parametrize("test, lint", [(TESTS[0], LINTS[0]), (TESTS[1], LINTS[1]), (TESTS[2], LINTS[2])])
def test_each_kind_an_item_names_must_have_run(test: str, lint: str) -> None:
    item = "Run tests and lint"
    assert not _pending(item, (test, "12 passed", False)).endswith("done since")
    assert _pending(item, (test, "12 passed", False), (lint, "All checks passed!", False)).endswith("— done since")


@pytest.mark.parametrize("command", TESTS[:3])
def test_tests_failing_since_keep_the_item_to_do(command: str) -> None:
    runs = ((command, "12 passed", False), (command, "FAILED tests/test_export.py::test_since - AssertionError", True))
    assert not _pending("Run the tests to verify they pass", *runs).endswith("done since")


@pytest.mark.parametrize("kind", ["integration", "e2e"])
def test_a_named_kind_of_tests_needs_a_run_of_that_kind(kind: str) -> None:
    item = f"Run {kind} tests to verify nothing is broken"
    assert not _pending(item, ("go test ./...", "ok", False)).endswith("done since")
    assert _pending(item, (f"mise run test:{kind}", "ok", False)).endswith("— done since")


@pytest.mark.parametrize("item, command, done", [
    ("Commit the changes", LONG_COMMIT, True),  # the command is longer than an action's label: read whole
    ("Commit the changes", "git status", False),
    ("Push the branch to update the draft PR", "git push origin feature/export", True),
    ("Push the branch to update the draft PR", "git commit -m 'x'", False),
])
def test_a_commit_or_push_asked_in_words(item: str, command: str, done: bool) -> None:
    output = "[feature/export 1a2b3c4] Add the CSV export" if "commit" in command else "ok"
    assert _pending(item, (command, output, False)).endswith("— done since") is done


@pytest.mark.parametrize("item", ["Decide whether to run the tests in CI", "Update the changelog with the usage",
                                  "Runbook: document the rollout"])
def test_an_item_that_does_not_ask_for_the_step_stays(item: str) -> None:
    assert not _pending(item, (TESTS[0], "12 passed", False), ("git commit -m 'x'", "[main 1a2b3c4] x", False)
                        ).endswith("done since")
