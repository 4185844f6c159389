"""passed_line: which line of a successful check's output says that checks passed, as a short result (the count or
verdict, not the timings and banners around it: issue 20, class 7), and which says nothing ran."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.outcome import passed_line


@pytest.mark.parametrize("output, expected", [
    ("collected 12 items\n\n===== 12 passed in 0.41s =====", "12 passed"),
    (" Test Files  3 passed (3)\n      Tests  41 passed (41)", "41 passed"),
    ("running 7 tests\ntest result: ok. 7 passed; 0 failed; 0 ignored", "7 passed"),
    ("Found 0 errors. Watching for file changes.", "Found 0 errors"),
    ("5 examples, 0 failures", "5 examples, 0 failures"),
    ("  14 passing (2s)\n  1 pending", "14 passing"),
    ("ok  \texample.com/app/store\t0.012s", "ok store"),
    ("===== 40 passed, 2 skipped in 3.1s =====", "40 passed, 2 skipped"),
])
def test_a_line_that_counts_checks_run_says_they_passed(output: str, expected: str) -> None:
    assert passed_line(output) == expected


@pytest.mark.parametrize("output", [
    "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 20 filtered out; finished in 0.00s",
    "===== 0 passed, 31 deselected in 0.12s =====",
    "Tests: 0 passed, 0 total",
    "0 examples, 0 failures",
    "PASS (no tests ran) all tests passed",
    "  0 passing (2ms)",
])
def test_a_run_that_ran_no_check_says_nothing_passed(output: str) -> None:
    assert passed_line(output) == ""


def test_the_last_line_that_ran_checks_wins_over_a_later_empty_one() -> None:
    # cargo: the crate's tests ran, then its doc-tests (none) printed their own "0 passed"
    output = ("test result: ok. 12 passed; 0 failed; 0 ignored\n\n   Doc-tests app\n\nrunning 0 tests\n"
              "test result: ok. 0 passed; 0 failed; 0 ignored")
    assert passed_line(output) == "12 passed"


@pytest.mark.parametrize("output", [
    "running 5 tests\ntest result: FAILED. 1 passed; 4 failed; 0 ignored\n\nrunning 2 tests\ntest result: ok. 2 passed",
    "============ 3 failed, 10 passed in 1.20s ============",
    "FAIL src/upload.test.ts\nTests:       1 failed, 39 passed, 40 total",
])
def test_a_run_that_counts_a_failure_is_no_pass(output: str) -> None:
    # piped through tail or grep, a failing run exits 0: its counts, not its exit code, say how it went
    assert passed_line(output) == ""


def test_a_test_named_after_failure_does_not_spoil_a_passing_run() -> None:
    assert passed_line("test_failed_login PASSED\ntest_errors_page PASSED\n12 passed in 0.31s") == "12 passed"
