"""A status table the agent reports is done work, by the names its rows give (issue 20): "| #33 | MERGED |",
"| `--verbose` flag | ✅ Done |", "| Session 1 | PASS |" say what exists now, whether the turn changed anything or
only looked (``gh pr list``), and whether or not it ends on a question to the user. A row whose state is not reached
(open, pending, failed, ❌) is no done work; a table without a state column (a comparison) is no status."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.statuses import status_item, status_rows

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

REQUESTS = ["Which of my PRs are merged?", "tkgshn の PR はどうなっていますか？", "Quais PRs já foram integrados?"]
STATES = [("MERGED", "CLOSED"), ("✅ Done", "✅ Done"), ("完了", "完了"), ("concluído", "fechado"), ("**PASS**", "PASS")]
ENDINGS = ["", "\n\nShall I open a PR for the remaining chapter?", "\n\n残りの章のPRを作りますか？"]


def _table(first: str, second: str) -> str:
    return ("| PR | State | Title |\n|----|-------|-------|\n"
            f"| #33 | {first} | Chapter 11: case studies |\n| #58 | {second} | Chapter 9: dedupe |\n"
            "| #61 | OPEN | Chapter 2: glossary |")


@pytest.mark.parametrize("request_text", REQUESTS)
@pytest.mark.parametrize("states", STATES)
@pytest.mark.parametrize("ending", ENDINGS)
def test_a_status_table_is_done_work_by_its_names(request_text: str, states: tuple[str, str], ending: str) -> None:
    messages = [user(request_text),
                assistant(call("a1", "bash", command="gh pr list --state all --author me")),
                result("a1", "bash", "33\tChapter 11\tMERGED\n58\tChapter 9\tMERGED\n61\tChapter 2\tOPEN"),
                assistant(_table(*states) + ending)]
    done = "\n".join(items(summarize(messages), "### Done"))
    assert "#33" in done and "#58" in done
    assert "#61" not in done  # still open: no done work


@pytest.mark.parametrize(("answer", "rows"), [
    ("| Feature | Status |\n|---|---|\n| `--full` flag | ✅ Done |\n| Docs | ⏳ pending |", [("`--full` flag", "✅ Done")]),
    ("| Run | Tokens | Result |\n|---|---|---|\n| Session 1 | 4,813 | **PASS** |\n| Session 2 | 6,131 | FAIL |",
     [("Session 1", "PASS")]),
    ("| Option | Cost | Speed |\n|---|---|---|\n| Redis | low | fast |\n| Postgres | none | ok-ish |", []),
    ("| タスク | 状態 |\n|---|---|\n| 翻訳 | 完了 |\n| レビュー | 未着手 |", [("翻訳", "完了")]),
    ("| Step | State |\n| `make build` | done |", []),  # no rule line: no table body
    ("Done | merged | closed", []),
])
def test_status_rows_are_rows_with_a_reached_state(answer: str, rows: list[tuple[str, str]]) -> None:
    assert status_rows(answer) == rows


def test_a_long_status_table_is_one_short_item() -> None:
    table = "| Item | State |\n|---|---|\n" + "".join(f"| item-{n} | done |\n" for n in range(30))
    item = status_item(table)
    assert item.startswith("status reported: done: item-0, item-1") and "(+22 more)" in item and len(item) <= 240


def test_a_comparison_answer_leaves_no_done_item() -> None:
    messages = [user("Which cache should we use?"),
                assistant("| Option | Cost |\n|---|---|\n| Redis | low |\n| Memcached | lower |\n\nI'd pick Redis.")]
    assert not any("status reported" in item for item in items(summarize(messages), "### Done"))
