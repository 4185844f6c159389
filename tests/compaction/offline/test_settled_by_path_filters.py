"""A failed test run is settled by a later pass of a runner that reads its arguments as filters of the test files'
paths (issue 20): ``bun test landing`` runs every test file whose path holds ``landing``, so after ``bun test
src/tests/landing/page-composition.test.tsx`` failed, a passing ``bun test src/tests/landing/`` (or ``bun test
landing``) run where it ran, or above it, ran that file again; jest's and vitest's arguments are patterns matched
within the path too. Not settled: a pass whose filter the failed run's paths need not hold (``stats.test`` for a
failed ``stats``), a pass run below where the failure ran, a word that may be an option's value (``--timeout
5000``), a pattern (``ca(r)t``), ``pytest``'s arguments (paths), another file's name, the tests related to a source file (``vitest related``). Each case
in three agents' shell tools, the region ending mid-turn."""

from __future__ import annotations

import pytest

from .shell_runs import CWD, FORMATS, failed_then_later, open_failures, summary_in_cwd, wider_lookups

BUN = "error: Received value does not have a length property: undefined\n(fail) Home > composes the page\n 1 fail"
BUN_PASS = " 32 pass\n 0 fail\nRan 32 tests across 6 files."
JEST = "FAIL src/cart.test.ts\nTests:       1 failed, 9 passed, 10 total"
JEST_PASS = "Tests:       40 passed, 40 total"
PYERROR = "FAILED tests/test_api.py::test_refund - AssertionError: 3 != 4\n1 failed in 0.2s"
PAGE = "src/tests/landing/page-composition.test.tsx"
SETTLED = [  # (failed command, its error, the filtering run that passed later, its output)
    (f"bun test {PAGE}", BUN, "bun test src/tests/landing/", BUN_PASS),
    (f"bun test {PAGE} 2>&1 | tail -15", BUN, "bun test landing", BUN_PASS),
    (f"cd apps/demo && bun test {PAGE}", BUN, "bun test landing/", BUN_PASS),
    ("cd apps/demo && bun test", BUN, "bun test demo/", BUN_PASS),
    (f"bun test {PAGE}", BUN, "bun test --bail composition", BUN_PASS),
    ("npx jest src/cart.test.ts", JEST, "npx jest cart", JEST_PASS),
    ("npx vitest run src/cart.test.ts", JEST, "npx vitest run src/", JEST_PASS),
]
OPEN = [  # (failed command, its error, a later pass that does not settle it, its output)
    (f"bun test {PAGE}", BUN, "cd apps && bun test landing/", BUN_PASS),
    ("bun test stats", BUN, "bun test stats.test", BUN_PASS),
    ("bun test src/5000.test.ts", BUN, "bun test --timeout 5000 src/other.test.ts", BUN_PASS),
    (f"bun test {PAGE}", BUN, "bun test hero", BUN_PASS),
    ("npx jest src/cart.test.ts", JEST, "npx jest 'ca(r)t'", JEST_PASS),
    ("pytest tests/test_api.py", PYERROR, "pytest test_api", "3 passed in 0.1s"),
    ("npx vitest run src/related/cart.test.ts", JEST, "npx vitest related src/cart.ts", JEST_PASS),
]


def _session(agent: str, failed: str, error: str, later: str, output: str) -> list[dict]:
    return failed_then_later(agent, "Fix the landing page and make the tests pass.", failed, error, later, output,
                             cwd=CWD)


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output"), SETTLED)
def test_a_failure_is_settled_by_a_pass_whose_filter_its_paths_hold(agent: str, failed: str, error: str, later: str,
                                                                     output: str) -> None:
    assert not open_failures(summary_in_cwd(_session(agent, failed, error, later, output)))


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output"), OPEN)
def test_a_filter_the_failed_paths_need_not_hold_settles_nothing(agent: str, failed: str, error: str, later: str,
                                                                 output: str) -> None:
    opened = open_failures(summary_in_cwd(_session(agent, failed, error, later, output)))
    assert any(failed.rsplit("&& ", 1)[-1].split(" 2>&1")[0] in item for item in opened)


def _filtered_region(size: int):
    """``size`` failed runs of files and ``size`` passing filtered runs in one folder: each failure compares with a
    bounded number of filters, never with every pass."""
    return wider_lookups(passed=[f"bun test u{i}/" for i in range(size)],
                         failed=[f"bun test src/t{i}/a.test.ts" for i in range(size)])


def test_the_filter_lookups_grow_linearly() -> None:
    from tests.growth import growth

    found = growth("filtered runs", _filtered_region, 200, runs=3)
    assert found.linear, str(found)
