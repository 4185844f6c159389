"""A Done item says what now exists or behaves differently (progress.py), not only which file changed: when the
agent's last answer states no result ("Done!", "No response requested.", a sentence that ends on the colon before a
code block, a report of headings and code), its other words in the turn or the parts its report names say it. The
file alone is the fallback only when nothing says more."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items


def _turn(request: str, path: str, *texts: str) -> list[dict]:
    """The request, an edit of ``path``, then the agent's texts (the last is its final answer)."""
    edit = [assistant(call("e1", "edit", path=path, oldText="a", newText="b")), result("e1", "edit", "Edited.")]
    return [user(request), *edit, *(assistant(text) for text in texts)]


def _done(messages: list[dict]) -> list[str]:
    return [line for line in items(summarize(messages), "### Done") if not line.startswith("Files changed")]


@EXAMPLES
@given(last=st.sampled_from(["No response requested.", "Done!", "All set.", "✅"]))
def test_the_words_before_an_empty_last_answer_say_what_changed(last: str) -> None:
    done = _done(_turn("yes, remove it", "cmd/strategy/common.go",
                       "Done. Removed the dead `StageFiles()` function; tests pass.", last))
    assert any("StageFiles()" in line for line in done)
    assert not any(line.startswith("changed `") for line in done)


@pytest.mark.parametrize("introduced, following, expected", [
    ("Done. Branches are now sorted by most recent session activity:", "\n\n1. Current branch (always first)\n",
     "sorted by most recent session activity"),
    ("The design doc has been written to:", "\n\n```\ndocs/plans/auto-summarise-design.md\n```\n",
     "docs/plans/auto-summarise-design.md"),
])
def test_a_result_that_ends_on_a_colon_is_read_with_what_it_introduces(introduced: str, following: str,
                                                                      expected: str) -> None:
    done = _done(_turn("can you sort the branches by date?", "cmd/list/data.go", introduced + following))
    assert any(expected in line for line in done)
    assert not any(line.startswith("changed `") for line in done)


def test_a_report_of_headings_and_code_names_what_it_made() -> None:
    report = ("All done. Here's a summary of the implementation:\n\n## New `entire list` Command\n\n### Files Created\n"
              "\n```\ncmd/list/\n├── model.go\n└── view.go\n```\n")
    done = _done(_turn("yeah, let's give it a try", "cmd/list/model.go", report))
    assert any("`entire list` Command" in line for line in done)


@pytest.mark.parametrize("announced", ["Now update the test to match the new order:",
                                       "Now commit, push, tag, and publish", "Next, bump the version and release it.",
                                       "Then deploy the functions."])
def test_what_the_agent_set_out_to_do_is_no_result(announced: str) -> None:
    done = _done(_turn("swap the two lines", "hooks.go", announced, "Done!"))
    assert not any(announced.rstrip(":.") in line for line in done)
    assert any(line.startswith("changed `hooks.go`") for line in done)  # nothing says more: the file alone
