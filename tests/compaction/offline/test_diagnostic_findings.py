"""A diagnostic that lists problems (``git fsck``, ``git status``, a ``grep``) reports findings (issue 20, class 5):
once the agent told them or the user went on, its exit status is no failed step, no Blocked item and no "Fix:"; left
unanswered at the region's end it is still open. A Done item says a check's result once, short (class 7)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

DIAGNOSTIC = st.sampled_from([
    ("git fsck --full", "error: object file .git/objects/ab/cdef is empty\nmissing blob 0123456789abcdef"),
    ("git -C /srv/repo fsck", "broken link from tree 1234abcd\n              to blob 5678ef01\nmissing blob 5678ef01"),
    ("git status", "fatal: not a git repository (or any of the parent directories): .git"),
])
TOOL = st.sampled_from(["bash", "Bash"])


def _diagnosed(command: str, output: str, tool: str, answered: bool) -> list[dict]:
    messages = [user("The repository feels broken since the crash, can you check it?"),
                assistant(call("d", tool, command=command)), result("d", tool, f"Exit code 1\n{output}", error=True)]
    if answered:
        messages += [assistant("It found problems in the object store: an empty object file and a missing blob; "
                               "the working tree itself is intact."),
                     user("ok, then add a test for empty input in tests/test_parser.py"),
                     assistant(call("e", "edit", path="tests/test_parser.py", oldText="a", newText="b")),
                     result("e", "edit", "ok"), assistant("Added the test.")]
    return messages


@EXAMPLES
@given(diagnostic=DIAGNOSTIC, tool=TOOL)
def test_findings_the_agent_told_are_no_failed_step(diagnostic: tuple[str, str], tool: str) -> None:
    summary = summarize(_diagnosed(*diagnostic, tool, answered=True))
    assert items(summary, "### Blocked") == ["(none)"]
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps"))


@EXAMPLES
@given(diagnostic=DIAGNOSTIC, tool=TOOL)
def test_findings_left_unanswered_at_the_end_stay_open(diagnostic: tuple[str, str], tool: str) -> None:
    summary = summarize(_diagnosed(*diagnostic, tool, answered=False))
    assert any(diagnostic[0].split()[-1] in item for item in items(summary, "### Blocked"))


@EXAMPLES
@given(said=st.sampled_from(["Added the test; 3 passed.", "Added the test and all 3 passed."]))
def test_a_done_item_says_the_result_once(said: str) -> None:
    messages = [user("Add a test for empty input."),
                assistant(call("e", "edit", path="tests/test_parser.py", oldText="a", newText="b")),
                result("e", "edit", "ok"),
                assistant(call("t", "bash", command="pytest -q tests/test_parser.py")),
                result("t", "bash", "...\n======== 3 passed in 0.12s ========"), assistant(said)]
    done = [item for item in items(summarize(messages), "### Done") if not item.startswith("Files changed")]
    assert done[0].count("3 passed") == 1 and "0.12s" not in done[0] and "====" not in done[0]
