"""Done work and the next step named so a continuing agent can act on them (referent.py, trackers.py, progress.py,
statuses.py): a merged PR said as "PR #12 merged" and said once; a pending outside step that points back ("this
should work") carried with the command it stands over; a status table kept with the request that named its ticket."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items


def _bash(call_id: str, command: str, output: str) -> list[dict]:
    return [assistant(call(call_id, "bash", command=command)), result(call_id, "bash", output)]


def _done(summary: str) -> str:
    return "\n".join(items(summary, "### Done"))


# -- a change under review merged on the tracker: said in words, and once ------------------------------------

@pytest.mark.parametrize("program, command, output", [
    ("gh", "gh pr merge 12 --squash --delete-branch", "✓ Squashed and merged pull request #12 (Add the export)"),
    ("glab", "glab mr merge 12", "Merged!"),
])
def test_a_merged_review_is_named_by_its_number_and_state(program: str, command: str, output: str) -> None:
    summary = summarize([user("looks good, please merge it"), *_bash("m", command, output), assistant("Done.")])
    noun = "MR" if program == "glab" else "PR"
    assert f"{noun} #12 merged" in _done(summary)
    assert "Closed on the tracker: `12`" not in summary


def test_a_closed_issue_is_named_by_its_noun() -> None:
    summary = summarize([user("close the stale bug"), *_bash("c", "gh issue close 31", "✓ Closed issue #31"),
                         assistant("Done.")])
    assert "Closed on the tracker: issue #31" in _done(summary)


@pytest.mark.parametrize("answer", [
    "PR #12 is merged into main and its branch deleted.",
    "✅ **PR #12 successfully merged!** The branch was deleted.",
])
def test_a_merge_the_answer_reports_is_not_said_twice(answer: str) -> None:
    summary = summarize([user("looks good, please merge it"),
                         *_bash("m", "gh pr merge 12 --squash", "✓ Squashed and merged pull request #12"),
                         assistant(answer)])
    done = _done(summary)
    assert "#12" in done
    assert done.count("#12") == 1


# -- a pending outside step that points back carries the command it stands over ------------------------------

_FIXED = "Fixed the date filter of the monthly query in `report.go` and pushed it.\n\n"


@pytest.mark.parametrize("tail, command", [
    ("```bash\n# Once deployed, this should work without errors\ncurl -s https://api.example.test/rpc \\\n"
     "  -d '{\"name\":\"monthly_totals\"}'\n```", "monthly_totals"),
    ("Once it's deployed, run it again:\n```\nmake smoke TARGET=ledger_export\n```", "ledger_export"),
])
def test_a_pending_step_that_points_back_names_its_command(tail: str, command: str) -> None:
    summary = summarize([user("can we fix the monthly query?"),
                         assistant(call("e", "edit", path="report.go", oldText="a", newText="b")),
                         result("e", "edit", "Successfully replaced text in report.go."),
                         assistant(_FIXED + tail)])
    steps = "\n".join(items(summary, "## Next Steps"))
    assert "Still to do outside the code" in steps and command in steps


@pytest.mark.parametrize("answer, sentence, expected", [
    ("Check it:\n```bash\n# Once deployed, this should work\ncurl -s https://x.test/a \\\n  -d '{}'\n```\n",
     "Once deployed, this should work", "curl -s https://x.test/a -d '{}'"),
    ("Once it's live, run it again:\n```\nnpm run smoke\n```", "Once it's live, run it again:", "npm run smoke"),
    ("Einmal deployed, sollte es gehen:\n```\n./check.sh\n```", "Einmal deployed, sollte es gehen:", "./check.sh"),
])
def test_the_command_a_sentence_introduces(answer: str, sentence: str, expected: str) -> None:
    from pi_compact.compaction.offline.referent import introduced_command  # (here: the module is new)
    assert introduced_command(answer, sentence) == expected


@pytest.mark.parametrize("answer, sentence", [
    ("Once deployed, this should work.\n\nNext I can add tests.", "Once deployed, this should work."),  # no code
    ("Once deployed, it needs these:\n- a restart\n- a cache flush", "Once deployed, it needs these:"),  # a list
    ("```\nmake build\n```\nOnce deployed, this works:\nthe page loads.", "Once deployed, this works:"),  # prose
    ("Something else entirely.", "Once deployed, this should work"),  # not in the answer
])
def test_a_sentence_that_introduces_no_command_gets_none(answer: str, sentence: str) -> None:
    from pi_compact.compaction.offline.referent import introduced_command
    assert introduced_command(answer, sentence) == ""


@pytest.mark.parametrize("sentence, expected", [
    ("Once deployed, this should work without errors", True),
    ("Nach dem Deploy sollte es gehen", True),
    ("デプロイ後、これで動くはずです", True),
    ("Once deployed, `monthly_totals` should work", False),  # it names its subject
    ("Once deployed, the report_job runs nightly", False),
])
def test_what_points_back(sentence: str, expected: bool) -> None:
    from pi_compact.compaction.offline.referent import refers_back
    assert refers_back(sentence) is expected


# -- a status table stays with the request that named what it is of ----------------------------------------

_STATUS = ("Here's where we're at with **ABC-12**:\n\n| Feature | Status |\n|---|---|\n| `--json` flag | ✅ Done |\n"
           "| Paging | ✅ Done |\n\nAll tests pass.")


def test_a_status_table_keeps_the_ticket_its_request_named() -> None:
    summary = summarize([user("we were working on ABC-12 on this branch, where are we up to?"),
                         *_bash("g", "git log --oneline main..HEAD", "a1b2c3d Add paging\n"),
                         assistant(_STATUS)])
    [status] = [item for item in items(summary, "### Done") if "`--json` flag" in item]
    assert "ABC-12" in status


@pytest.mark.parametrize("prose, expected", [
    ("The branch has **14 commits ahead of main**.\n\n**No PR exists yet** for this branch.",
     ["14 commits ahead of main", "No PR exists yet"]),
    ("Branch pushed, PR not opened.", ["Branch pushed", "PR not opened"]),
])
def test_a_status_table_carries_where_its_branch_stands(prose: str, expected: list[str]) -> None:
    from pi_compact.compaction.offline.statuses import status_item
    item = status_item(f"{prose}\n\n| Feature | Status |\n|---|---|\n| `--json` flag | ✅ Done |\n")
    assert all(words in item for words in expected) and "`--json` flag" in item


def test_prose_without_a_status_table_is_no_status_item() -> None:
    from pi_compact.compaction.offline.statuses import status_item
    assert status_item("The branch has 14 commits ahead of main. No PR exists yet.") == ""
