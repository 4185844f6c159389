"""A request that takes back the work just done (issue 20, class 5): "nonono, please undo that" makes the turn it
answers not done — Done says it was undone (or is being undone), never that its work stands — and the undoing is
what the user asks for now. A request to revert something it names ("revert the 2024 migration") is work of its
own and takes nothing back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.progress import undoes

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

UNDOS = st.sampled_from(["nonono, that's wrong, please undo that", "revert that", "Undo it!", "please revert those changes.",
                         "no! roll it back", "That broke the layout, undo the last change please", "revert everything",
                         "put it back"])
WORK = st.sampled_from([("Add a dark mode toggle to the settings page.", "src/settings.tsx", "Added the toggle."),
                        ("Rename the config loader to load_settings.", "app/config.py", "Renamed it to load_settings."),
                        ("Switch the CI to Node 22.", ".github/workflows/ci.yml", "CI now runs on Node 22.")])
TOOLS = st.sampled_from(["bash", "Bash", "exec_command"])


def _session(work: tuple[str, str, str], undo: str, tool: str, finished: bool) -> list[dict]:
    request, path, answer = work
    messages = [user(request), assistant(call("e1", "edit", path=path, oldText="a", newText="b")),
                result("e1", "edit", f"Successfully replaced text in {path}."), assistant(answer), user(undo)]
    if finished:
        messages += [assistant(call("u1", tool, command=f"git checkout -- {path}")),
                     result("u1", tool, "Updated 1 path from the index"), assistant(f"Reverted {path}.")]
    return messages


@EXAMPLES
@given(work=WORK, undo=UNDOS, tool=TOOLS, finished=st.booleans())
def test_work_the_user_took_back_is_not_done(work, undo, tool, finished) -> None:
    text = summarize(_session(work, undo, tool, finished))
    done = items(text, "### Done")
    assert not any(work[2] in item for item in done)  # the agent's report of the work taken back
    assert any("undone at the user's request" in item for item in done) == finished
    if finished:
        assert f"changed by git: `{work[1].rsplit('/', 1)[-1]}`" in text  # named by its short name (short_paths)
    assert " ".join(undo.split())[:40] in items(text, "## Goal")[0] if items(text, "## Goal") else True


@pytest.mark.parametrize(("request_", "expected"), [
    ("nonono, that's wrong, please undo that", True),
    ("revert that", True),
    ("Revert those changes!", True),
    ("roll it back", True),
    ("undo", True),
    ("Please undo your last edit.", True),
    ("revert the migration from 2024", False),
    ("Undo support for the editor: add Ctrl+Z", False),
    ("git revert abc1234 and push", False),
    ("add an undo button to the toolbar", False),
])
def test_what_takes_back_the_work_before(request_: str, expected: bool) -> None:
    assert undoes(request_) is expected
