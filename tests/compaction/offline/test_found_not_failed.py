"""Successful output is no failure for the error-like words in it (issue 20, class 3): a command that only prints
what is there (``git show … | grep``, ``git fsck | grep error``, ``git log | head``) and succeeded found those words,
so it is no Blocked item and no "Fix:" step. A check whose filter hid its exit status (``bun verify | grep FAIL``,
``git push | tail``) still failed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.shell import prints_only

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items


@pytest.mark.parametrize(("command", "expected"), [
    ("git show origin/main:logs/run.jsonl | grep -E '\"isError\":true' | head -20", True),
    ("cd ../repo && git fsck --no-dangling 2>&1 | grep -E '^(error|missing)' | head", True),
    ("git -C /srv/repo fsck --full 2>&1 | grep -v hasDotgit | head -30", True),
    ("git log --oneline -20 | grep -i fail", True),
    ("cat build.log | grep -n error", True),
    ("git push origin main 2>&1 | tail -5", False),  # an action: its filtered errors are its own
    ("npm test 2>&1 | grep -E 'FAIL|Error'", False),
    ("git show HEAD:app.py > /srv/app.py", False),  # writes
    ("git stash && git log | head", False),
], ids=lambda v: v if isinstance(v, str) else None)
def test_prints_only(command: str, expected: bool) -> None:
    assert prints_only(command) is expected


LOOKUPS = st.sampled_from([
    ("git fsck --no-dangling 2>&1 | grep -E '^(error|missing|broken)' | head -20",
     "error: 3f2a91c0d4: invalid sha1 pointer in cache-tree of .git/worktrees/2/index\nmissing blob 8c02afd8"),
    ("git show origin/sync:events.jsonl | grep -E '\"type\":\"tool_result\"' | head -5",
     '{"type":"tool_result","is_error":true,"content":"Error: ENOENT: no such file or directory"}'),
    ("git log -p -5 -- src/retry.py | grep -n 'raise'", "41:+        raise TimeoutError('upstream failed')"),
])


@EXAMPLES
@given(lookup=LOOKUPS)
def test_a_successful_lookup_whose_output_names_errors_is_no_failure(lookup: tuple) -> None:
    command, output = lookup
    messages = [user("Find out why the worktree index is corrupt."),
                assistant(call("l", "bash", command=command)), result("l", "bash", output),
                assistant("The index points at objects that were pruned; let me look at when that started.")]
    summary = summarize(messages)
    assert items(summary, "### Blocked") == ["(none)"]
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps"))


@EXAMPLES
@given(lookup=LOOKUPS)
def test_a_filtered_check_beside_such_a_lookup_still_failed(lookup: tuple) -> None:
    command, output = lookup
    messages = [user("Get the build green."),
                assistant(call("a", "bash", command="bun verify | grep -E 'fail'")),
                result("a", "bash", "error: expect(received).toBe(expected)"),
                assistant("Let me look at it.", call("l", "bash", command=command)), result("l", "bash", output),
                assistant("Reading the test now.", call("r", "read", path="src/a.ts")), result("r", "read", "x")]
    blocked = "\n".join(items(summarize(messages), "### Blocked"))
    assert "bun verify" in blocked and "git" not in blocked
