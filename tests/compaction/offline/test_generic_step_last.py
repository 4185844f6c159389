"""A generic next step is the last resort (steps.py): when the agent's last words name no work ("Let me explore the
codebase first.", "Continue the work.") and the region names concrete remaining work (a task still to do on the
agent's list, the user's request), the next step names that work; the agent's own object ("Let me read
`src/cli.py`") makes its words a concrete step."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

REQUEST = "Add a CSV exporter for the reports with a --format flag, and test it."
GENERIC = st.sampled_from(["Let me explore the codebase first.", "Continue the work.", "Let me look around.",
                           "Now let me check the current state of things."])
TODO = call("t1", "TodoWrite", todos=[
    {"content": "Add the CSV writer to src/export.py", "status": "completed", "activeForm": "Adding the writer"},
    {"content": "Add the --format flag to src/cli.py", "status": "in_progress", "activeForm": "Adding the flag"},
    {"content": "Test the exporter in tests/test_export.py", "status": "pending", "activeForm": "Testing"}])


def _region(last: str, tasks: bool) -> list[dict]:
    listed = [assistant(TODO), result("t1", "TodoWrite", "Todos have been modified successfully.")] if tasks else []
    return [user(REQUEST), *listed, assistant(call("e1", "edit", path="src/export.py", oldText="a", newText="b")),
            result("e1", "edit", "Edited."), assistant(last, call("r1", "read", path="src/cli.py")),
            result("r1", "read", "import sys")]


@EXAMPLES
@given(last=GENERIC, tasks=st.booleans())
def test_concrete_remaining_work_comes_before_generic_words(last: str, tasks: bool) -> None:
    steps = items(summarize(_region(last, tasks)), "## Next Steps")
    assert not steps[0].startswith("Continue where the agent stopped"), steps
    assert ("tests/test_export.py" in steps[0]) if tasks else (REQUEST in steps[0])


def test_words_that_name_their_object_stay_the_step() -> None:
    steps = items(summarize(_region("Let me read `src/cli.py` to find where the flags are parsed.", True)),
                  "## Next Steps")
    assert steps[0].startswith("Continue where the agent stopped: Read `src/cli.py`"), steps
