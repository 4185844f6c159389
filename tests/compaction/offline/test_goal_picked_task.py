"""The goal when the user picks the next task from the agent's proposals (issue 20): the agent finished the work
and offered what could come next (a numbered list, a table of candidates, in any language); the user picked one
("#1 please", "let's do option 2", "1で", "vamos com a 3", "the caching one", two of them) and asked for it to be
done. The objective is the picked task in the words of the proposal, not the finished one. A pick of an answer to a
question that is no task, a pick taken back, or a proposal list the user passed over leaves the goal as it was."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

FIRST = "Add a CSV export of the reports in src/export.py, with tests for the column order and the quoting rules."
TASKS = {"1": "Add retry with backoff to the fetch client in src/fetch.py",
         "2": "Cache the parsed reports in a local SQLite file",
         "3": "Write the user guide for the export command"}
_LIST = "\n".join(f"{key}. {text}" for key, text in TASKS.items())
_TABLE = "| # | Task | Effort |\n|---|------|--------|\n" + "\n".join(
    f"| {key} | {text} | small |" for key, text in TASKS.items())
PROPOSALS = {
    "en-list": f"Done: the CSV export is in src/export.py and the tests pass.\n\nPossible next tasks:\n\n{_LIST}\n\n"
               "Which one should I take next?",
    "en-bold": "The export works.\n\n**Suggested follow-ups**\n\n" + "\n".join(
        f"{key}. **{text}**" for key, text in TASKS.items()) + "\n\nLet me know which you want.",
    "en-table": f"All green. Candidates for the next step:\n\n{_TABLE}\n\nPick one and I'll start.",
    "ja": f"CSVエクスポートが完了しました。\n\n次の候補:\n\n{_LIST}\n\nどれにしますか？",
    "pt": f"A exportação está pronta.\n\nPróximos passos sugeridos:\n\n{_LIST}\n\nQual prefere?",
    "ko": f"내보내기가 끝났습니다.\n\n다음 작업 후보:\n\n{_LIST}\n\n어느 것을 할까요?",
}
PICKS = [("#1 please", ["1"]), ("let's do option 2", ["2"]), ("1で", ["1"]), ("2번으로 해주세요", ["2"]),
         ("vamos com a 3", ["3"]), ("the second one", ["2"]), ("go with the fetch one", ["1"]),
         ("the caching one", ["2"]), ("1 and 3", ["1", "3"]), ("let's do #2 & #3", ["2", "3"])]
TAILS = {"implement": ["implement it"], "ja": ["実装してください"], "do-it": ["do it"], "none": [],
         "plan-approved": ["write a plan for it first", "yes, go ahead"]}


def _work(path: str, key: str, words: str) -> list[dict]:
    return [assistant(call(key, "edit", path=path, oldText="a", newText="b")), result(key, "edit", "ok"),
            assistant(words)]


def _goal(proposals: str, pick: str, tail: list[str]) -> str:
    messages = [user(FIRST), *_work("src/export.py", "e0", proposals), user(pick),
                assistant("Sure, that one is next.")]
    for number, request in enumerate(tail):
        messages += [user(request), *_work("src/next.py", f"e{number + 1}", "1. Read the code\n2. Change it\n\n"
                                           "Shall I go on?" if "plan" in request else "Working on it.")]
    goal = items(summarize(messages), "## Goal")
    assert len(goal) == 1, goal
    return goal[0]


@pytest.mark.parametrize("tail", list(TAILS.values()), ids=list(TAILS))
@pytest.mark.parametrize("proposals", list(PROPOSALS.values()), ids=list(PROPOSALS))
@pytest.mark.parametrize("pick, keys", PICKS, ids=[pick for pick, _ in PICKS])
def test_the_goal_is_the_task_the_user_picked(proposals: str, pick: str, keys: list[str], tail: list[str]) -> None:
    goal = _goal(proposals, pick, tail)
    assert all(TASKS[key] in goal for key in keys), goal
    assert "CSV" not in goal and all(TASKS[key] not in goal for key in TASKS if key not in keys), goal


QUESTION = ("The header is done.\n\nWhich colour should the header use?\n\n1. Blue (#0055ff)\n2. Green (#00aa55)\n"
            "3. Grey (#888888)")


@pytest.mark.parametrize("proposals, pick, tail", [
    (QUESTION, "use option 2 for the colour", ["do it"]),  # an answer to a question, no task
    (QUESTION, "2", ["implement it"]),
    (PROPOSALS["en-list"], "#1 please", ["no wait, not now"]),  # the pick taken back
    (PROPOSALS["ja"], "1で", ["いや、待って"]),
    (PROPOSALS["en-list"], "Thanks. First fix the flaky quoting test in tests/test_export.py, it fails on CI.", []),
    (PROPOSALS["en-table"], "Rename the export command to `report-export` in the CLI and its tests please.", []),
])
def test_no_pick_of_a_task_leaves_the_goal(proposals: str, pick: str, tail: list[str]) -> None:
    goal = _goal(proposals, pick, tail)
    assert all(text not in goal for text in TASKS.values()), goal


def test_a_later_request_of_its_own_ends_the_pick() -> None:
    goal = _goal(PROPOSALS["en-list"], "#1 please",
                 ["implement it", "Now add a --dry-run flag to the export command that prints the rows only."])
    assert TASKS["1"] not in goal and "dry-run" in goal, goal
