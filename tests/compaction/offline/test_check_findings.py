"""A check that failed (issue 20) is named by what it found, each kind once: a linter's codes with their messages
and files (ruff's full format too), the files a formatter would reformat, why a failing test failed (pytest's
``E   AssertionError: …``), git's ``fatal:`` line after its ``warning:``; a ``make`` whose ``| tail`` hid its
failure failed; one failing test several commands met is one open error; an exception the user pasted under a
traceback is told by its last line, with the agent's word on its cause."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.diagnostics import is_telling, telling_line, with_assertion
from pi_compact.compaction.offline.errors import make_failed, open_and_resolved, with_filtered_errors
from pi_compact.compaction.offline.facts import Attempt, extract_facts, failed_test
from pi_compact.compaction.offline.paths import PathNames
from pi_compact.compaction.offline.told import told_errors

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize

RUFF_FULL = """ruff check src tests
E741 [*] Ambiguous variable name: `l`
  --> src/shop/cart.py:12:5
   |
12 |     l = []
   |     ^
   |

F401 [*] `os.path` imported but unused
 --> tests/test_cart.py:3:8
  |
3 | import os.path
  |        ^^^^^^^
  |
help: Remove unused import: `os.path`

Found 2 errors.
[*] 2 fixable with the `--fix` option.
make: *** [lint] Error 1"""

COMPLEXITY = """ruff check src
C901 `parse_order` is too complex (14 > 10)
   --> src/shop/orders.py:40:5
    |
40 | def parse_order(raw):
    |     ^^^^^^^^^^^
    |

Found 1 error.
make: *** [lint] Error 1"""

PYLINT = """************* Module shop.cart
src/shop/cart.py:20:14: W0613: Unused argument 'currency' (unused-argument)
src/shop/cart.py:31:0: C0116: Missing function or method docstring (missing-function-docstring)
src/shop/tax.py:8:4: R1705: Unnecessary "else" after "return" (no-else-return)
src/shop/tax.py:9:4: E1101: Instance of 'Rate' has no 'value' member (no-member)
src/shop/tax.py:11:4: W0611: Unused import sys (unused-import)

Your code has been rated at 9.12/10
make: *** [pylint] Error 30"""

BLACK = """black --check src tests
would reformat /home/dev/shop/src/shop/cart.py
would reformat /home/dev/shop/tests/test_cart.py

Oh no! 💥 💔 💥
2 files would be reformatted, 40 files would be left unchanged."""


@pytest.mark.parametrize(("output", "wanted"), [
    (RUFF_FULL, ["src/shop/cart.py:12:5: E741 Ambiguous variable name", "F401 `os.path` imported but unused",
                 "(test_cart.py:3)"]),
    (COMPLEXITY, ["src/shop/orders.py:40:5: C901 `parse_order` is too complex (14 > 10)"]),
    (PYLINT, ["W0613: Unused argument 'currency'"]),
    (BLACK, ["would reformat: shop/cart.py, tests/test_cart.py"]),
    ("Would reformat: src/shop/cart.py\n1 file would be reformatted", ["would reformat: shop/cart.py"]),
    ("Diff in /home/dev/shop/src/lib.rs at line 4:\n-fn a(){}\n+fn a() {}", ["would reformat: src/lib.rs"]),
    ("warning: could not open directory 'web/web/src/': No such file or directory\n"
     "fatal: pathspec 'web/src/app.ts' did not match any files", ["fatal: pathspec 'web/src/app.ts' did not match"]),
])
def test_a_failed_checks_output_is_named_by_what_it_found(output: str, wanted: list[str]) -> None:
    found = telling_line(output)
    assert all(part in found for part in wanted), found
    assert is_telling(found) and len(found) <= 300 and "[*]" not in found


CONCISE = """src/shop/cart.py:20:14: ARG001 Unused function argument: `currency`
src/shop/cart.py:31:1: D103 Missing docstring in public function
src/shop/cart.py:33:1: D103 Missing docstring in public function
src/shop/tax.py:8:5: RET505 Unnecessary `else` after `return` statement
src/shop/tax.py:9:5: E501 Line too long (130 > 120)
src/shop/tax.py:11:1: F401 [*] `sys` imported but unused
Found 6 errors."""


def test_several_codes_are_each_named_once_up_to_a_few() -> None:
    found = telling_line(CONCISE)
    assert found.startswith("src/shop/cart.py:20:14: ARG001 Unused function argument: `currency`; also "), found
    for code in ("D103", "RET505"):
        assert found.count(code) == 1, found
    assert "D103 Missing docstring in public function (line 31)" in found  # (the first's file: its line only)
    assert "(tax.py:8)" in found and "E501" not in found  # (three kinds at most: the rest is the output's)


def test_tagged_findings_are_named_by_their_linters() -> None:
    assert telling_line(PYLINT).startswith("findings by unused-argument, missing-function-docstring")


def test_a_finding_of_one_code_only_adds_no_list() -> None:
    output = "src/a.py:3:1: F401 `x` imported but unused\nsrc/b.py:4:1: F401 `y` imported but unused\n"
    assert "also" not in telling_line(output)


PYTEST = """============================= FAILURES =============================
______________________ TestLayout.test_one_class_per_file ______________________

    def test_one_class_per_file(self):
>       assert violations == [], "Test files must hold one class:\\n" + listed
E       AssertionError: Test files must hold one class:
E           - tests/unit/shop/test_cart_totals.py has 2 classes: ['TestA', 'TestB']
E       assert ['tests/unit/...'] == []

tests/arch/test_layout.py:20: AssertionError
______________________ TestTax.test_rounding ______________________
E       assert 10.5 == 10.0
=========================== short test summary info ============================
FAILED tests/arch/test_layout.py::TestLayout::test_one_class_per_file
FAILED tests/unit/test_tax.py::TestTax::test_rounding
========================= 2 failed, 80 passed in 3.10s ========================="""


@pytest.mark.parametrize(("failed", "output", "wanted"), [
    ("FAILED tests/arch/test_layout.py::TestLayout::test_one_class_per_file", PYTEST,
     "FAILED test_layout.py::test_one_class_per_file — AssertionError: Test files must hold one class: "
     "shop/test_cart_totals.py has 2 classes"),
    ("FAILED tests/unit/test_tax.py::TestTax::test_rounding", PYTEST,
     "FAILED test_tax.py::test_rounding — assert 10.5 == 10.0"),
    # output cut above the headers (`| tail -8`) with one failing test: the explanation shown is its
    ("FAILED tests/arch/test_routes.py::test_every_route_logs",
     "E       AssertionError: Routes without logging:\nE           - src/shop/api/routes.py: logger not imported\n"
     "FAILED tests/arch/test_routes.py::test_every_route_logs\n1 failed in 0.1s",
     "FAILED test_routes.py::test_every_route_logs — AssertionError: Routes without logging: api/routes.py: logger "
     "not imported"),
])
def test_a_failing_test_is_named_with_why_it_failed(failed: str, output: str, wanted: str) -> None:
    assert with_assertion(failed, output).startswith(wanted)
    assert failed_test(output)  # (the line it starts from)


@pytest.mark.parametrize(("failed", "output"), [
    ("FAILED tests/unit/test_tax.py::test_total - assert 1 == 2", PYTEST),  # `-ra`: the reason is there
    ("FAILED tests/unit/test_tax.py::test_other", PYTEST),  # no explanation of this test in the output
    ("--- FAIL: TestTotal (0.00s)", PYTEST),  # not pytest's
])
def test_a_failing_test_without_its_own_explanation_stays_as_it_is(failed: str, output: str) -> None:
    assert with_assertion(failed, output) == failed


@pytest.mark.parametrize(("text", "failed"), [
    ("make: *** [lint] Error 1", True),
    ("make[1]: *** [Makefile:12: test] Error 2", True),
    ("make: *** [lint] Error 1 (ignored)", False),
    ("All checks passed!", False),
])
def test_makes_verdict_says_the_run_failed(text: str, failed: bool) -> None:
    assert bool(make_failed(f"some output\n{text}\n")) is failed


@pytest.mark.parametrize(("command", "output", "wanted"), [
    ("make check 2>&1 | tail -20", COMPLEXITY, "C901"),
    ("make check 2>&1 | tail -20", f"ruff check src\nAll checks passed!\n{BLACK}\nmake: *** [format-check] Error 1",
     "would reformat"),
    ("make format && make check 2>&1 | tail -10", PYLINT, "W0613"),
])
def test_a_make_whose_tail_hid_its_failure_failed(command: str, output: str, wanted: str) -> None:
    messages = [user("Add the discount."), assistant(call("b", "bash", command=command)),
                result("b", "bash", output)]
    attempts = with_filtered_errors(messages, extract_facts(messages).attempts)
    failed = [attempt for attempt in attempts if attempt.failed]
    assert failed and wanted in failed[0].error, attempts


def _attempt(index: int, command: str, error: str) -> Attempt:
    return Attempt(index, "bash", command, True, error, False, False, False, "", "")


def test_one_failing_test_several_commands_met_is_one_open_error() -> None:
    node = "FAILED tests/arch/test_routes.py::TestRoutes::test_every_route_logs"
    attempts = (_attempt(1, "make check", node), _attempt(3, "pytest tests/arch/test_routes.py", node),
                _attempt(5, "pytest tests/arch/test_routes.py -v",
                         "FAILED test_routes.py::test_every_route_logs — AssertionError: logger not imported"))
    open_errors, _ = open_and_resolved(attempts, lambda index: False, PathNames("", []))
    assert len(open_errors) == 1, open_errors
    # the command names the test's file: the line keeps its room for the reason
    assert open_errors[0] == ("`pytest tests/arch/test_routes.py -v` failed: FAILED test_every_route_logs — "
                              "AssertionError: logger not imported")


def test_different_failing_tests_stay_apart() -> None:
    attempts = (_attempt(1, "make check", "FAILED tests/test_a.py::test_one"),
                _attempt(3, "pytest tests/test_b.py", "FAILED tests/test_b.py::test_two"))
    open_errors, _ = open_and_resolved(attempts, lambda index: False, PathNames("", []))
    assert len(open_errors) == 2, open_errors


def test_the_checks_findings_reach_the_summary_and_are_settled_by_the_fix() -> None:
    messages = [user("Add the discount to the cart."),
                assistant(call("b1", "bash", command="make check")), result("b1", "bash", bash_fail(RUFF_FULL, 2)),
                assistant(call("e1", "edit", path="src/shop/cart.py", oldText="l = []", newText="items = []")),
                result("e1", "edit", "ok"),
                assistant(call("b2", "bash", command="make check 2>&1 | tail -20")),
                result("b2", "bash", COMPLEXITY),
                assistant(call("e2", "edit", path="src/shop/orders.py", oldText="a", newText="b")),
                result("e2", "edit", "ok"),
                assistant(call("b3", "bash", command="make check")), result("b3", "bash", "All checks passed!"),
                assistant("The check passes now.")]
    summary = summarize(messages)
    assert "E741" in summary and "F401" in summary and "C901" in summary, summary
    assert "### Blocked\n- `make check`" not in summary, summary


TRACEBACK = """I get an error when I start the dev server: shop serve
Traceback (most recent call last):
  File "/home/dev/shop/cli.py", line 40, in serve
    build_assets(root)
  File "/home/dev/shop/assets.py", line 12, in build_assets
    subprocess.run(["esbuild", entry], check=True)
FileNotFoundError: [Errno 2] No such file or directory: 'esbuild'"""

RICH_TRACEBACK = """shop serve
╭──────────── Traceback (most recent call last) ────────────╮
│ /home/dev/shop/cli.py:40 in serve                          │
│ ❱ 40 │   build_assets(root)  # fails when assets are stale   │
╰────────────────────────────────────────────────────────────╯
FileNotFoundError: [Errno 2] No such file or directory: 'esbuild'"""


@pytest.mark.parametrize("paste", [TRACEBACK, RICH_TRACEBACK])
def test_a_pasted_traceback_is_told_by_its_exception_with_the_agents_cause(paste: str) -> None:
    messages = [user(paste),
                assistant("This is unrelated to the cart changes. The issue is that `assets_stale` returns True, "
                          "so it runs esbuild, which is not installed."),
                assistant(call("e", "edit", path="shop/assets.py", oldText="a", newText="b")),
                result("e", "edit", "ok")]
    told = told_errors(messages, extract_facts(messages).attempts)
    line = next((line for line in told.settled if "FileNotFoundError" in line), "")
    assert "'esbuild'" in line and "`assets_stale` returns True" in line, told
    assert not any("❱" in line or "│" in line for line in told.settled + told.open), told
