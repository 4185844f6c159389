"""A failure a sub-agent reports is a failure of the work (issue 20): the sub-agent ran the tests or the build and
says in its result what failed ("2 tests fail", ``FAILED tests/test_cart.py::test_discount``, a compiler's located
error). Left open it is Blocked with the failing test or message; a later passing check settles it. A report of
checks that pass, of failures it fixed or found there before, or a review's finding, is no failure."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

TOOLS = {
    "claude": ("Task", {"description": "Run the test suite", "subagent_type": "general-purpose",
                        "prompt": "Run npm test and report what fails."}),
    "codex": ("spawn_agent", {"task": "Run the test suite and report what fails."}),
}

FAILING = [  # (report, words that identify the failure)
    ("I ran `npm test`. 2 tests fail:\n- `src/cart.test.ts` > applies discount: expected 90 but received 100\n"
     "- `src/tax.test.ts` > rounds: TypeError: round is not a function\nAll other 48 tests pass.", "2 tests fail"),
    ("Ran the suite.\n\nFAILED tests/test_cart.py::test_discount - AssertionError: assert 100 == 90\n\n"
     "Everything else passed.", "test_discount"),
    ("The build does not compile:\n\nsrc/cart.ts(12,5): error TS2345: Argument of type 'string' is not "
     "assignable to parameter of type 'number'.\n", "TS2345"),
    ("## Result\n3 unit tests are failing in pkg/cart:\n--- FAIL: TestDiscount (0.00s)\n", "TestDiscount"),
]


def _session(report: str, agent: str, after: list[dict] | None = None) -> list[dict]:
    tool, arguments = TOOLS[agent]
    return [user("Run the full test suite through a sub-agent and fix whatever fails."),
            assistant(call("s", tool, **arguments)),
            result("s", tool, report),
            *(after or [assistant("Let me look at the cart code.", call("r", "read", path="src/cart.ts")),
                        result("r", "read", "export const discount = (p: number) => p;\n")])]


def _blocked(summary: str) -> list[str]:
    return [item for item in items(summary, "### Blocked") if item != "(none)"]


@pytest.mark.parametrize("agent", sorted(TOOLS))
@pytest.mark.parametrize(("report", "words"), FAILING)
def test_a_failure_a_sub_agent_reports_is_blocked_while_open(agent: str, report: str, words: str) -> None:
    blocked = _blocked(summarize(_session(report, agent)))
    assert len(blocked) == 1 and words in blocked[0]


@pytest.mark.parametrize("agent", sorted(TOOLS))
@pytest.mark.parametrize(("report", "words"), FAILING)
def test_a_later_passing_check_settles_it(agent: str, report: str, words: str) -> None:
    fixed = [assistant(call("e", "edit", path="src/cart.ts", oldText="p;", newText="p * 0.9;")),
             result("e", "edit", "Successfully replaced text in src/cart.ts."),
             assistant(call("t", "bash", command="npm test")),
             result("t", "bash", "Tests:       50 passed, 50 total\n"),
             assistant("All 50 tests pass now.")]
    assert not _blocked(summarize(_session(report, agent, fixed)))


@pytest.mark.parametrize("agent", sorted(TOOLS))
@pytest.mark.parametrize("report", [
    "I ran `npm test`: all 50 tests pass.",
    "Fixed the 2 failing tests in src/cart.test.ts; all pass now.",
    "The 3 failing tests in legacy/ are pre-existing and fail on main too.",
    "## Review\n- src/cart.ts:12: discount is applied twice when the coupon repeats\n- Verdict: needs changes",
    "Tests: 0 failed, 50 passed.",
])
def test_no_failure_where_the_sub_agent_reports_none(agent: str, report: str) -> None:
    assert not _blocked(summarize(_session(report, agent)))
