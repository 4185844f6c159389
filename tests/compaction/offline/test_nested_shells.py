"""A shell given code inside a shell given code (``bash -lc "sh -c '…'"``) is unwrapped to the command it runs, a
bounded number of times: each level is read again by the same reader, and a command whose code were a shell again
without end must not recurse without end (no reader of session text may end in a ``RecursionError``)."""

from __future__ import annotations

import shlex

import pytest

from pi_compact.compaction.offline import cores
from pi_compact.compaction.offline.cores import failed_core, passed_core


@pytest.mark.parametrize("levels", [1, 2, 3, 5])
@pytest.mark.parametrize("shell", ["bash", "sh", "zsh"])
def test_nested_shells_are_read_to_the_command_they_run(levels, shell) -> None:
    command = "pytest tests/test_api.py"
    for _ in range(levels):
        command = f"{shell} -c {shlex.quote(command)}"
    assert passed_core(command) == failed_core(command) == {("pytest", "tests/test_api.py")}


@pytest.mark.parametrize("reader", [passed_core, failed_core])
def test_a_shell_whose_code_is_a_shell_again_is_unwrapped_a_bounded_number_of_times(reader, monkeypatch) -> None:
    # quoting grows with each level, so a real command cannot nest deep; the reader's own bound is what holds when
    # the code it is given reads as a shell again at every level
    monkeypatch.setattr(cores, "_shell_code", lambda args: "bash -c again")
    assert reader("bash -c again") <= {("bash", "again"), ("bash",)}
