"""A failed narrow check is settled by a later passing run of a wider set that holds it (issue 20): ``bun test
src/a.test.ts`` failed, then ``cd apps/demo && bun test src/tests/`` passed, run from another folder; ``pytest
tests/test_x.py::test_y`` then ``pytest backend/tests``; a run from a parent folder (``cd web/src && npx jest
a.test.ts``, then ``cd web && npx jest``). The targets compare as paths from where the session started, whatever
``cd`` (relative or absolute) put the shell there. A wider run that failed, a narrower later run, a run of a sibling
folder, a run narrowed by an option (``-k``, ``-t``), a check of another kind settle nothing. Each case in three
agents' shell tools, the region ending mid-turn."""

from __future__ import annotations

import pytest

from .shell_runs import CWD, FORMATS, failed_then_later, open_failures, summary_in_cwd, wider_lookups

ERROR = "error: expect(received).toBe(expected)\n(fail) landing > renders the stats\n 1 fail"
PYERROR = "FAILED tests/test_api.py::test_refund - AssertionError: 3 != 4\n1 failed in 0.2s"
SETTLED = [  # (failed command, its error, the wider run that passed later, its output)
    ("bun test apps/demo/src/tests/landing/stats.test.tsx", ERROR,
     "cd apps/demo && bun test src/tests/", " 178 pass\n 0 fail\nRan 178 tests across 31 files."),
    ("bun test apps/demo/src/tests/landing/stats.test.tsx", ERROR,
     f"cd {CWD}/apps/demo && bun test src/tests/ 2>&1 | tail -5", " 178 pass\n 0 fail"),
    ("cd backend && pytest tests/test_api.py::test_refund", PYERROR, "pytest backend/tests -q", "52 passed in 3.1s"),
    ("cd backend && uv run pytest tests/test_api.py -k refund", PYERROR, "cd backend && pytest", "52 passed in 3.1s"),
    ("cd web && npx jest src/cart.test.ts", "FAIL src/cart.test.ts\nTests:       1 failed, 9 passed, 10 total",
     "npx jest web/src", "Tests:       40 passed, 40 total"),
    (f"cd {CWD}/web/src && npx jest cart.test.ts", "FAIL cart.test.ts\nTests:       1 failed, 9 passed, 10 total",
     "cd web && npx jest", "Tests:       40 passed, 40 total"),
]
OPEN = [  # (failed command, its error, a later run that does not settle it, its output, whether that run failed)
    ("bun test src/tests/landing/stats.test.tsx", ERROR, "bun test src/tests/",
     "error: Cannot find module './setup'\n 3 fail", True),
    ("cd backend && pytest tests/", PYERROR, "cd backend && pytest tests/test_api.py", "4 passed in 0.1s", False),
    ("cd web && bun test src/cart.test.ts", ERROR, "cd api && bun test", " 40 pass\n 0 fail", False),
    ("cd backend && pytest tests/test_api.py", PYERROR, "pytest backend/tests -k test_total", "3 passed", False),
    ("cd backend && pytest tests/test_api.py", PYERROR, "cd backend && ruff check .", "All checks passed!", False),
]


def _session(agent: str, failed: str, error: str, later: str, output: str, later_failed: bool = False) -> list[dict]:
    return failed_then_later(agent, "Fix the landing stats and make the tests pass.", failed, error, later, output,
                             later_failed=later_failed, cwd=CWD)


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output"), SETTLED)
def test_a_failed_narrow_run_is_settled_by_a_wider_one_that_passed(agent: str, failed: str, error: str, later: str,
                                                                   output: str) -> None:
    assert not open_failures(summary_in_cwd(_session(agent, failed, error, later, output)))


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output", "later_failed"), OPEN)
def test_a_failed_wider_narrower_or_other_run_settles_nothing(agent: str, failed: str, error: str, later: str,
                                                              output: str, later_failed: bool) -> None:
    opened = open_failures(summary_in_cwd(_session(agent, failed, error, later, output, later_failed)))
    assert any(failed.rsplit("&& ", 1)[-1] in item for item in opened)


def _wider_region(size: int):
    """``size`` failed runs of files and ``size`` passing runs of other folders, and one deep path: each failure
    is looked up by its folders, never against every pass."""
    deep = "/".join(["d"] * size) + "/a.test.ts"
    return wider_lookups(passed=[f"cd pkg{i} && bun test src/u{i}/" for i in range(size)],
                         failed=[f"cd pkg{i} && bun test src/t{i}/a.test.ts {deep}" for i in range(size)])


def test_the_lookups_grow_linearly() -> None:
    from tests.growth import growth

    found = growth("wider runs", _wider_region, 200, runs=3)
    assert found.linear, str(found)
