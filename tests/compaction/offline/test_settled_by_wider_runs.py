"""A failed narrow check is settled by a later passing run of a wider set that holds it (issue 20): ``bun test
src/a.test.ts`` failed, then ``cd apps/demo && bun test src/tests/`` passed, run from another folder; ``pytest
tests/test_x.py::test_y`` then ``pytest backend/tests``; a run from a parent folder (``cd web/src && npx jest
a.test.ts``, then ``cd web && npx jest``). The targets compare as paths from where the session started, whatever
``cd`` (relative or absolute) put the shell there. A wider run that failed, a narrower later run, a run of a sibling
folder, a run narrowed by an option (``-k``, ``-t``), a check of another kind settle nothing. Each case in three
agents' shell tools, the region ending mid-turn."""

from __future__ import annotations

import pytest

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_settled_under_prefix import FORMATS, _open

CWD = "/home/dev/proj"
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
    first, first_arguments = FORMATS[agent](failed)
    # Claude Code's one shell stays where the failed run's `cd` took it: the agent goes back first
    second, second_arguments = FORMATS[agent](f"cd {CWD} && {later}" if agent == "claude" and
                                              failed.startswith("cd ") else later)
    return [user("Fix the landing stats and make the tests pass."),
            assistant(call("a", first, **first_arguments)), result("a", first, bash_fail(error, 1), error=True),
            assistant(call("b", second, **second_arguments)),
            result("b", second, bash_fail(output, 1) if later_failed else output, error=later_failed),
            assistant(call("r", "read", path=f"{CWD}/docs/notes.md")), result("r", "read", "# Notes\n")]


def _summary(messages: list[dict]) -> str:
    return summarize(messages, metadata={"cwd": CWD})


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output"), SETTLED)
def test_a_failed_narrow_run_is_settled_by_a_wider_one_that_passed(agent: str, failed: str, error: str, later: str,
                                                                   output: str) -> None:
    assert not _open(_summary(_session(agent, failed, error, later, output)))


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("failed", "error", "later", "output", "later_failed"), OPEN)
def test_a_failed_wider_narrower_or_other_run_settles_nothing(agent: str, failed: str, error: str, later: str,
                                                              output: str, later_failed: bool) -> None:
    opened = _open(_summary(_session(agent, failed, error, later, output, later_failed)))
    assert any(failed.rsplit("&& ", 1)[-1] in item for item in opened)


def _wider_region(size: int):
    """``size`` failed runs of files and ``size`` passing runs of other folders, and one deep path: each failure
    is looked up by its folders, never against every pass."""
    from pi_compact.compaction.offline.wider import WiderRuns
    from pi_compact.compaction.offline.paths import PathNames

    deep = "/".join(["d"] * size) + "/a.test.ts"
    failed = [f"cd pkg{i} && bun test src/t{i}/a.test.ts {deep}" for i in range(size)]
    passed = [f"cd pkg{i} && bun test src/u{i}/" for i in range(size)]

    def run() -> None:
        runs = WiderRuns(PathNames(CWD, ()))
        for command in passed:
            runs.add(command, "")
        for command in failed:
            runs.settles(command, "")
    return run


def test_the_lookups_grow_linearly() -> None:
    from tests.growth import growth

    found = growth("wider runs", _wider_region, 200, runs=3)
    assert found.linear, str(found)
