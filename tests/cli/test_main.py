"""The ``pi-compact`` entry point itself (``pi_compact.cli.main``): how every command fails, ends and prints.

Each case runs the real entry point in a fresh process: one line and exit 2 for every usage error, FILE
arguments that are not regular files refused before anything reads them, a quiet exit 141 when stdout's
reader goes away, output a terminal's encoding cannot hold escaped rather than a traceback, ``--version``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.generate import write_session
from sessions_fixtures import DEMO

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: what a shell reports for ``cat`` or ``git`` killed by a closed pipe."""
HANG_GUARD = 60
"""Seconds after which a command that should have refused at once is killed (it used to hang for ever)."""


def run(*args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "COLUMNS")}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "pi_compact", *args], capture_output=True, env=environ,
                          timeout=timeout)


def assert_one_line_error(done: subprocess.CompletedProcess, *expected: str) -> str:
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert stderr.startswith("pi-compact: error: ") and stderr.count("\n") == 1, stderr
    assert done.stdout == b""
    for text in expected:
        assert text in stderr
    return stderr


# -- usage errors: one line, exit 2 ----------------------------------------------------------------------------

USAGE_ERRORS = [
    (["session", "show"], "Missing argument 'FILE'", "'pi-compact session show -h'"),
    (["session", "bogus"], "No such command 'bogus'", "'pi-compact session -h'"),
    (["session", "show", "{demo}", "--nope"], "No such option: --nope", "'pi-compact session show -h'"),
    (["--bogus"], "No such option: --bogus", "'pi-compact -h'"),
]


@pytest.mark.parametrize("args, problem, help_hint", USAGE_ERRORS, ids=[" ".join(case[0][:3]) for case in USAGE_ERRORS])
def test_usage_errors_are_one_line_and_exit_2(args, problem, help_hint):
    assert_one_line_error(run(*(a.format(demo=DEMO) for a in args)), problem, help_hint)


NEGATIVE_COUNTS = [
    ["session", "compact", "{f}", "--keep-recent", "-100"],
    ["session", "compact", "{f}", "--reserve", "-1"],
    ["session", "compact", "{f}", "--window", "0"],
    ["replay", "{f}", "--keep-recent", "-100"],
    ["replay", "{f}", "--reserve", "-5"],
]


@pytest.mark.parametrize("args", NEGATIVE_COUNTS, ids=lambda a: " ".join(a[:2] + a[3:]))
def test_negative_token_counts_are_refused(tmp_path, args):
    path = tmp_path / "s.jsonl"
    path.write_bytes(DEMO.read_bytes())
    done = run(*(a.format(f=path) for a in args))
    assert_one_line_error(done, ": use a whole number from ")  # tests/cli/test_consistency.py: the one wording
    assert path.read_bytes() == DEMO.read_bytes() and sorted(tmp_path.iterdir()) == [path]


def test_no_arguments_prints_the_help_and_exits_2():
    done = run()
    assert done.returncode == 2 and b"Commands:" in done.stderr and b"Traceback" not in done.stderr


def test_version_is_the_package_version():
    version = re.search(r'^version = "(.+)"$', PYPROJECT.read_text(), flags=re.M).group(1)
    done = run("--version")
    assert done.returncode == 0 and done.stdout.decode() == f"pi-compact {version}\n"


# -- FILE must be a regular file -------------------------------------------------------------------------------


def _fifo(tmp: Path) -> Path:
    path = tmp / "pipe.jsonl"
    os.mkfifo(path)
    return path


NOT_FILES = [
    ("show-dev-zero", lambda t: Path("/dev/zero"), ["session", "show"], "a character device"),
    ("context-dev-zero", lambda t: Path("/dev/zero"), ["session", "context", "{f}", "--json"], "a character device"),
    ("show-fifo", _fifo, ["session", "show"], "a named pipe"),
    ("tree-fifo", _fifo, ["session", "tree"], "a named pipe"),
    ("info-fifo", _fifo, ["session", "info"], "a named pipe"),
    ("label-fifo", _fifo, ["session", "label", "{f}", "x", "y"], "a named pipe"),
    ("diff-fifo", _fifo, ["session", "diff", "{f}", "a", "b"], "a named pipe"),
    ("compact-dev-zero", lambda t: Path("/dev/zero"), ["session", "compact"], "a character device"),
    ("doctor-fifo", _fifo, ["session", "doctor"], "a named pipe"),
    ("replay-fifo", _fifo, ["replay"], "a named pipe"),
    ("chat-session-fifo", _fifo, ["chat", "--session", "{f}"], "a named pipe"),  # refused by the library itself
    ("chat-session-dev-zero", lambda t: Path("/dev/zero"), ["chat", "--session", "{f}"], "a character device"),
]


@pytest.mark.parametrize("make, args, kind", [case[1:] for case in NOT_FILES], ids=[case[0] for case in NOT_FILES])
def test_files_that_are_not_regular_files_are_refused_at_once(tmp_path, make, args, kind):
    target = make(tmp_path)
    args = [a.format(f=target) for a in args] if any("{f}" in a for a in args) else [*args, str(target)]
    done = run(*args, timeout=HANG_GUARD)  # on a FIFO or /dev/zero this used to block or eat all memory
    assert_one_line_error(done, f"{target} is {kind}, not a session file")


def test_a_symlinked_session_file_still_opens(tmp_path):
    link = tmp_path / "link.jsonl"
    link.symlink_to(DEMO)
    done = run("session", "info", str(link), "--json")
    assert done.returncode == 0 and b'"entryCount":' in done.stdout


# -- how output ends ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def long_session(tmp_path_factory):
    """A session whose every view is many times a pipe's buffer (a reader that takes one pipe's worth in one read
    and leaves must still find output left to write)."""
    path = tmp_path_factory.mktemp("long") / "long.jsonl"
    write_session(path, 3_000)
    return path


@pytest.mark.parametrize(
    "args",
    [["session", "show"], ["session", "tree"], ["session", "context"], ["session", "context", "--json"]],
    ids=lambda a: " ".join(a[1:]),
)
def test_a_closed_pipe_ends_the_command_quietly_with_141(args, long_session):
    """``pi-compact session show F | head -1``: the reader leaves after one line; no message, SIGPIPE's status."""
    environ = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "COLUMNS")}
    command = [sys.executable, "-m", "pi_compact", args[0], args[1], str(long_session), *args[2:]]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ) as child:
        assert child.stdout.read(100)  # as `head -c 100`; then the reader leaves
        child.stdout.close()  # the output is larger than a pipe's buffer: the writer will meet the closed end
        stderr = child.stderr.read()
        code = child.wait(timeout=120)
    assert (code, stderr) == (EXIT_BROKEN_PIPE, b"")


@pytest.mark.parametrize("args", [["session", "tree"], ["session", "show"], ["session", "context"]],
                         ids=lambda a: a[1])
def test_characters_the_output_encoding_lacks_are_escaped(args):
    done = run(*args, str(DEMO), env={"PYTHONIOENCODING": "latin-1"})
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    assert b"\\u" in done.stdout  # the tree's bullets and rules, which latin-1 cannot hold
    done.stdout.decode("latin-1")
