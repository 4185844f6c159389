"""A failure a tool result does not flag is still a failure (issue 20): a check whose status a last step masks
(``pytest || true``, ``go test ./...; echo "exit: $?"``) or a filter hides (``| tail``), or a check that exited 0
while its output names a failing test or counts failures (``Tests: 1 failed, 7 passed``), failed; left open it is
Blocked with its identifying words, settled by a later passing run it is resolved. A lookup that finds the word
"error", a run that passed, a step that runs only on success (``&& echo ok``) and a clean-up whose error the agent
meant to ignore (``docker rm -f web || true``) are no failure."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

FORMATS = {
    "pi": lambda command: ("bash", {"command": command}),
    "claude": lambda command: ("Bash", {"command": command, "description": "Run the checks"}),
    "codex": lambda command: ("exec_command", {"cmd": command}),
}

FAILING = [  # (command, output, words that identify the failure)
    ("pytest -q tests/ || true",
     "..F.\nFAILED tests/test_client.py::test_retry_backoff - AssertionError: expected 3 calls, got 1\n"
     "1 failed, 3 passed in 0.2s\n", "test_retry_backoff"),
    ('go test ./...; echo "exit: $?"',
     "--- FAIL: TestRetry (0.00s)\n    client_test.go:31: got 1 calls, want 3\nFAIL\nFAIL\texample.com/client\t0.01s\n"
     "exit: 1\n", "TestRetry"),
    ("npm test",
     "> jest\n\n FAIL src/client.test.ts\n  ● retry › backs off\n\nTests:       1 failed, 7 passed, 8 total\n",
     "backs off"),
    ("npx tsc --noEmit",
     "src/client.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type "
     "'number'.\n\nFound 1 error in src/client.ts:12\n", "TS2345"),
    ("cargo build 2>&1 || true", "error[E0308]: mismatched types\n  --> src/main.rs:4:18\n", "E0308"),
    ("npm install 2>&1 | tail -5",
     "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\n", "ERESOLVE"),
    ("npm ci 2>&1 | tail -3", "npm error code ERESOLVE\nnpm error ERESOLVE could not resolve\n", "ERESOLVE"),
    ("uv run pytest -x || echo 'tests failed'",
     "E   ModuleNotFoundError: No module named 'httpx'\n1 error in 0.05s\ntests failed\n", "httpx"),
]


def _session(command: str, output: str, agent: str, rerun: str | None = None) -> list[dict]:
    tool, arguments = FORMATS[agent](command)
    messages = [user("Add retry to the HTTP client in src/client.py, then document it in docs/client.md."),
                assistant(call("e", "edit", path="src/client.py", oldText="calls = 1", newText="calls = retries")),
                result("e", "edit", "Successfully replaced text in src/client.py."),
                assistant(call("t", tool, **arguments)),
                result("t", tool, output)]
    if rerun is not None:  # the agent fixed it and ran the same check again, which passed
        again_tool, again = FORMATS[agent](command)
        messages += [assistant(call("f", "edit", path="src/client.py", oldText="x", newText="y")),
                     result("f", "edit", "Successfully replaced text in src/client.py."),
                     assistant(call("r", again_tool, **again)), result("r", again_tool, rerun)]
    return messages + [assistant("Now the docs.", call("d", "read", path="docs/client.md")),
                       result("d", "read", "# Client\n")]


def _blocked(summary: str) -> list[str]:
    return [item for item in items(summary, "### Blocked") if item != "(none)"]


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("command", "output", "words"), FAILING)
def test_an_unflagged_failure_left_open_is_blocked_with_its_words(agent: str, command: str, output: str,
                                                                   words: str) -> None:
    blocked = _blocked(summarize(_session(command, output, agent)))
    assert len(blocked) == 1 and words in blocked[0]


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("command", "output", "words"), FAILING[:5])
def test_an_unflagged_failure_a_later_run_passed_is_resolved(agent: str, command: str, output: str,
                                                             words: str) -> None:
    summary = summarize(_session(command, output, agent, rerun="all 8 tests passed\n8 passed in 0.3s\n"))
    assert not _blocked(summary)
    assert any(line.startswith("- Resolved along the way:") for line in summary.splitlines())


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("command", "output"), [
    ('grep -rn "Error:" src/ || true', "src/client.py:12:        raise ValueError('Error: bad retry count')\n"),
    ("pytest -q || true", "........\n8 passed in 0.3s\n"),
    ("go vet ./... && echo ok", "ok\n"),
    ("npm test", "> jest\n\nTests:       0 failed, 8 passed, 8 total\n"),
    ("pytest -q tests/test_errors.py", "tests/test_errors.py ....\n4 passed in 0.1s\n"),
    ("cat build.log; echo", "error: linker failed last week\n"),
    ("docker rm -f web || true", "Error: No such container: web\n"),
    ("pkill -f 'node server.js'; echo stopped", "pkill: error: no process found\nstopped\n"),
])
def test_no_failure_where_nothing_failed(agent: str, command: str, output: str) -> None:
    assert not _blocked(summarize(_session(command, output, agent)))
