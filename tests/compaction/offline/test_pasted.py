"""The error lines of output a user pasted into a request, in the tool's own words."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.pasted import pasted_errors


@pytest.mark.parametrize(("paste", "found"), [
    ("> git gc\nfatal: bad tree object 082c2c44\nfatal: failed to run repack\n\nHALP",
     ["fatal: bad tree object 082c2c44", "fatal: failed to run repack"]),
    ("=== Step 3: Enable ===\ngo: cannot find main module, but found .git/config in /tmp/x\n        go mod init",
     ["go: cannot find main module, but found .git/config in /tmp/x"]),
    ('=== Step 15: List sessions ===\nunknown command "session" for "entire"',
     ['unknown command "session" for "entire"']),
    ("the build says:\ncmd/cli/a.go:364:22: cannot use id (variable of type string) as CheckpointID",
     ["cmd/cli/a.go:364:22: cannot use id (variable of type string) as CheckpointID"]),
    ("Traceback (most recent call last):\n  File \"a.py\", line 3\nValueError: bad header",
     ["Traceback (most recent call last):", "ValueError: bad header"]),
])
def test_the_failing_lines_of_a_paste_are_found(paste: str, found: list[str]) -> None:
    assert pasted_errors(paste) == found


@pytest.mark.parametrize("request_text", [
    "it says cannot connect when I open the page",  # one line: the user's own words
    "looks good now\nthe page loads and the tree shows every checkpoint",
    "Feb  9 09:00:08.092 |DEBU| hook invoked\nFeb  9 09:00:08.120 |DEBU| hook completed success=true",
])
def test_a_request_without_failing_output_has_none(request_text: str) -> None:
    assert pasted_errors(request_text) == []


def test_at_most_three_lines_of_one_paste_and_no_log_record() -> None:
    paste = "\n".join(f"error: step {n} failed" for n in range(9)) + "\nerror: " + "x" * 400
    assert pasted_errors(paste) == ["error: step 0 failed", "error: step 1 failed", "error: step 2 failed"]


@pytest.mark.parametrize("plan", [
    # a plan's code that handles an error, in a fence naming its language: source, not a failure that happened
    "Implement this plan:\n```python\ndef load(path):\n    print('error: could not open', path)\n```\nThanks",
    "Rewrite the entry point:\n```ts\nrun().catch(err => {\n  reporter.report('Fatal error:', err)\n})\n```",
    # the same line outside a fence still reads as a statement of code
    "New main:\n  reporter.fail(\"Upload error: quota exceeded\");\nkeep the rest",
])
def test_source_code_in_a_request_is_no_pasted_error(plan: str) -> None:
    assert pasted_errors(plan) == []


def test_output_fenced_as_text_or_shell_is_still_read() -> None:
    paste = ("the deploy broke:\n```console\n$ make deploy\nerror: image tag missing\n```\n"
             "```rust\nlet e = Error::new(\"error: not real\");\n```")
    assert pasted_errors(paste) == ["error: image tag missing"]
