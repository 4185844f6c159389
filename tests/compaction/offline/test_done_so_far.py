"""Done work says what now exists (edits_said.py, progress.py, summary.py): the request still under way by the agent's
words at its edits that went through; an older finished request by the one sentence of its report that names the code
it made, not why the code was broken nor what the user is told to try."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.edits_said import edits_said
from pi_compact.compaction.offline.progress import brief_done_item
from pi_compact.compaction.offline.state import DONE, Turn

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items


def _under_way(edit_fails: bool = False) -> list[dict]:
    return [
        user("Add retries to the HTTP client in src/client.py and keep make check green."),
        assistant("The `send_request` function is too complex. I need to lower its complexity by extracting a retry "
                  "helper. Let me refactor:"),
        assistant(call("r1", "read", path="src/client.py")),
        result("r1", "read", "def send_request(): ..."),
        assistant("I can pull the loop out:", call("e1", "edit", path="src/client.py", oldText="a", newText="b")),
        result("e1", "edit", "Could not find the text." if edit_fails else "Edited.", error=edit_fails),
        assistant("Let me run the checks.", call("c1", "bash", command="make check")),
    ]


def test_the_words_at_an_edit_that_went_through_say_what_it_did() -> None:
    said = edits_said(_under_way(), 0)
    assert said == ["The `send_request` function is too complex. I need to lower its complexity by extracting a "
                    "retry helper."]


def test_an_edit_that_failed_did_nothing() -> None:
    assert edits_said(_under_way(edit_fails=True), 0) == []


def test_the_summary_says_the_edits_so_far_under_done() -> None:
    done = items(summarize(_under_way()), "### Done")
    assert any(line.startswith("So far on the request under way") and "`send_request`" in line for line in done)


def _turn(answer: str) -> Turn:
    return Turn("the worker hangs after a crash", answer, DONE, (), (), changed=("src/worker.py",))


@pytest.mark.parametrize("answer, wanted", [
    ("Fixed. The issue was that `_read_frames` mixed stdout and stderr into one buffer.\n\n"
     "The new `_split_frames` method separates the two streams, so stderr no longer breaks the JSON.",
     "The new `_split_frames` method"),
    ("Done. **Lazy start** — `start()` now only checks the daemon is reachable.", "`start()` now only checks"),
])
def test_an_older_request_is_said_by_what_it_made(answer: str, wanted: str) -> None:
    item = brief_done_item(_turn(answer))
    assert wanted in item and item.endswith("(asked: “the worker hangs after a crash”)")


def test_an_instruction_to_the_user_is_no_result() -> None:
    assert brief_done_item(_turn("Now try `worker --restart` again — the stale lock is removed.")) == ""
