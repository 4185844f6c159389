"""The failures met and settled (issue 20): one check that failed again and again on other findings (``make check``
on a lint code, then files to reformat, then a failing test, each fixed in turn) is one line naming each finding
once, so the list's room holds more of them; and what the agent said of a failure is quoted with that failure only,
not with an earlier one whose call had no words after it."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.details import MET_LABEL

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize

CWD = "/home/dev/shop"

LINT = "src/shop/cart.py:20:14: W0613: Unused argument 'currency' (unused-argument)\nmake: *** [lint] Error 1"
REFORMAT = "would reformat src/shop/tax.py\nOh no! 1 file would be reformatted.\nmake: *** [fmt] Error 1"
TEST = "FAILED tests/test_tax.py::test_rounding_half_even - assert 1.25 == 1.24\nmake: *** [test] Error 1"


def _run(call_id: str, command: str, output: str, failed: bool) -> list[dict]:
    return [assistant(call(call_id, "bash", command=command)),
            result(call_id, "bash", bash_fail(output, 2) if failed else output, error=failed)]


def _edit(call_id: str, name: str) -> list[dict]:
    return [assistant(call(call_id, "edit", path=f"{CWD}/src/shop/{name}", oldText="a", newText="b")),
            result(call_id, "edit", "Edited.")]


def _met(messages: list[dict]) -> list[str]:
    text = summarize(messages, metadata={"cwd": CWD})
    assert MET_LABEL in text
    return text.split(MET_LABEL, 1)[1].split("\n- ", 1)[0].strip("\n").splitlines()


@pytest.mark.parametrize("commands", [
    ("make check", "make check", "make check"),
    ("uv run ruff check src/shop/cart.py", "uv run ruff check --fix src", "uv run ruff check tests/"),
])
def test_a_check_that_failed_on_one_finding_after_another_is_one_line(commands: tuple[str, str, str]) -> None:
    messages = [user("Make the checks pass.")]
    for number, (command, output, name) in enumerate(zip(commands, (LINT, REFORMAT, TEST),
                                                         ("cart.py", "tax.py", "rounding.py"))):
        messages += _run(f"c{number}", command, output, True) + _edit(f"e{number}", name)
    messages += _run("ok", commands[0], "All checks passed.", False) + [assistant("The checks pass now.")]
    met = _met(messages)
    lines = [line for line in met if "W0613" in line or "tax.py" in line or "test_rounding_half_even" in line]
    assert len(lines) == 1, met
    assert all(finding in lines[0] for finding in ("W0613", "tax.py", "test_rounding_half_even"))


def test_runs_of_different_scripts_stay_apart() -> None:
    messages = [user("Run the two migration scripts.")]
    messages += _run("a", "python scripts/migrate_users.py", "KeyError: 'email'", True) + _edit("e1", "users.py")
    messages += _run("b", "python scripts/migrate_orders.py", "ValueError: bad total", True) + _edit("e2", "orders.py")
    messages += _run("c", "python scripts/migrate_users.py", "done", False)
    messages += _run("d", "python scripts/migrate_orders.py", "done", False) + [assistant("Both scripts ran.")]
    met = _met(messages)
    assert any("migrate_users.py" in line and "KeyError" in line for line in met)
    assert any("migrate_orders.py" in line and "ValueError" in line for line in met)


def test_a_finding_said_in_a_fuller_one_is_said_once() -> None:
    both = ("src/shop/cart.py:4:89: E501 Line too long (95 > 88)\nsrc/shop/cart.py:9:1: I001 Import block is "
            "un-sorted or un-formatted\nFound 2 errors.")
    messages = [user("Fix the lint.")]
    messages += _run("a", "make check", both, True) + _edit("e1", "cart.py")
    messages += _run("b", "make check", "src/shop/cart.py:4:89: E501 Line too long (95 > 88)\nFound 1 error.",
                     True) + _edit("e2", "cart.py")
    messages += _run("c", "make check", "All checks passed.", False) + [assistant("Lint is clean.")]
    met = _met(messages)
    assert sum(line.count("E501") for line in met) == 1 and any("I001" in line for line in met), met


def test_the_latest_list_of_files_to_reformat_stands_for_the_earlier() -> None:
    messages = [user("Make the checks pass.")]
    messages += _run("a", "make check", "would reformat src/shop/cart.py\nwould reformat src/shop/tax.py\n"
                     "Oh no! 2 files would be reformatted.", True) + _edit("e1", "cart.py")
    messages += _run("b", "make check", LINT, True) + _edit("e2", "cart.py")
    messages += _run("c", "make check", "would reformat src/shop/orders.py\nOh no! 1 file would be reformatted.",
                     True) + _edit("e3", "orders.py")
    messages += _run("d", "make check", "All checks passed.", False) + [assistant("The checks pass now.")]
    line = next(line for line in _met(messages) if "W0613" in line)
    assert "orders.py" in line and line.count("would reformat") == 1


def test_words_after_a_later_silent_failure_are_not_the_earlier_ones_diagnosis() -> None:
    messages = [user("Make the checks pass.")]
    messages += _run("a", "npm run lint", "src/cart.ts:3:1: error  Unexpected console statement  no-console", True)
    messages += _run("b", "npm test", "FAIL src/tax.test.ts\n  ● rounds half even\n    Expected: 1.24", True)
    messages += [assistant("The tax fixture needs a UTC timezone because the rounding depends on the date.")]
    messages += _edit("e1", "tax.ts") + _edit("e2", "cart.ts")
    messages += _run("c", "npm run lint", "ok", False) + _run("d", "npm test", "ok", False)
    messages += [assistant("Both pass now.")]
    met = _met(messages)
    lint = next(line for line in met if "npm run lint" in line)
    assert "UTC timezone" not in lint, lint
    assert any("npm test" in line and "UTC timezone" in line for line in met), met
