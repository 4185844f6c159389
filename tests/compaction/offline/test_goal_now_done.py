"""The goal's "now" says when it was answered (summary.py): the user's latest request, finished in the region and
reported done with nothing asked since, reads "— now: <request> (done)", so that the next agent does not take up
work already finished; a hand-back that only reports no trouble, an open or asked turn, or a later request keeps it
bare."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

FIRST = "Build a command-line tool that converts CSV files to JSON, with tests."
LATEST = ["Now add a --pretty flag that indents the JSON output.", "Agora adicione uma opção --pretty que indenta o JSON.",
          "JSON 出力をインデントする --pretty オプションを追加してください。"]


def _worked(request: str, path: str, answer: str, tag: str) -> list[dict]:
    block = call(tag, "edit", path=path, oldText="a", newText="b")
    return [user(request), assistant(block), result(tag, "edit", "Edited."), assistant(answer)]


def _goal(answer: str, latest: str, *after: dict) -> str:
    messages = [*_worked(FIRST, "src/conv.py", "Done: `src/conv.py` converts CSV to JSON; tests pass.", "e1"),
                *_worked(latest, "src/conv.py", answer, "e2"), *after]
    goal = items(summarize(messages), "## Goal")
    assert len(goal) == 1, goal
    return goal[0]


@pytest.mark.parametrize("latest", LATEST)
@pytest.mark.parametrize("answer", ["Done: the `--pretty` flag indents the output.",
                                    "I've added the `--pretty` flag; all tests pass.", "完了しました。`--pretty` を追加しました。"])
def test_a_latest_request_reported_done_is_marked(latest: str, answer: str) -> None:
    assert _goal(answer, latest).endswith(f" — now: {latest} (done)")


@pytest.mark.parametrize("latest", LATEST)
@pytest.mark.parametrize("answer", ["Started on the flag in `src/conv.py`.", "Should the indent be 2 or 4 spaces?"])
def test_a_latest_request_not_reported_done_stays_bare(latest: str, answer: str) -> None:
    assert _goal(answer, latest).endswith(f" — now: {latest}")


def test_a_later_open_turn_keeps_the_request_bare() -> None:
    later = [user("Also make it stream large files instead of reading them whole."),
             assistant(call("r", "read", path="src/conv.py")), result("r", "read", "def convert(): ...\n")]
    goal = _goal("Done: the `--pretty` flag indents the output.", LATEST[0], *later)
    assert not goal.endswith("(done)"), goal
