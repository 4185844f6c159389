"""Key Decisions: a design the agent proposed and the user approved, whatever words the approval takes ("yes", "the
approach is good, but …", "方針は良いです。ただし…"), with the changes the user asked for; a plan the user approved
through the agent's plan tool (:mod:`~pi_compact.compaction.offline.rules`, :mod:`~pi_compact.compaction.offline.state`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.rules import accepted_proposal, answered_proposal, plan_in_brief

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

DESIGN = ("The export job reads every row into memory. I propose the following design:\n\n"
          "1. Stream the rows with a server-side cursor in `export_rows()`\n"
          "2. Write the CSV through `csv.writer` in chunks of 5,000 rows\n"
          "3. Drop the `--all-in-memory` flag\n\nShall I proceed?")
DESIGN_JA = ("エクスポート処理が全行をメモリに読み込んでいます。以下の方針を提案します：\n\n"
             "## 実装方針\n### 1. `export_rows()` でサーバーサイドカーソルを使う\n"
             "- 5,000 行ずつ `csv.writer` で書き出す\n\n"
             "```python\ncursor.itersize = 5000\n```\n\nこの方針で進めてよろしいですか？")


def _decisions(*messages: dict) -> list[str]:
    return items(summarize(list(messages)), "## Key Decisions")


@given(reply=st.sampled_from(["yes", "Looks good", "The approach is good.", "Sounds right, go ahead",
                              "This plan looks really solid", "方針は良いです。", "いいですね", "这个方案可以"]))
def test_an_approval_in_any_words_accepts_the_plan_listed_before_the_question(reply: str) -> None:
    agreed = accepted_proposal(DESIGN, reply)
    assert "server-side cursor" in agreed and "csv.writer" in agreed and "?" not in agreed, agreed
    assert "the user added" not in agreed  # nothing but an approval: no changes


@pytest.mark.parametrize(("reply", "changes"), [
    ("The approach is good, but keep the flag and use chunks of 1,000 rows.", "keep the flag and use chunks of 1,000"),
    ("yes - but name the function stream_rows and log the row count", "name the function stream_rows"),
    ("方針は良いです。ただし、フラグは残して、チャンクは1,000行にしてください。", "フラグは残して"),
])
def test_the_changes_asked_with_an_approval_are_kept_with_the_plan(reply: str, changes: str) -> None:
    agreed = accepted_proposal(DESIGN, reply)
    assert "server-side cursor" in agreed and changes in agreed and "the user added" in agreed, agreed


@pytest.mark.parametrize("reply", [
    "no, use the ORM's iterator instead", "Is the cursor safe with pgbouncer?", "the approach is not good",
    "いいえ、ORM のイテレータを使ってください。", "方針は良いですか？", "Actually, let's leave it as it is",
    "不可以，先别改",
])
def test_a_refusal_or_a_question_accepts_nothing(reply: str) -> None:
    assert accepted_proposal(DESIGN, reply) == ""


def test_a_japanese_plan_under_a_heading_is_accepted_with_its_parts_and_the_changes() -> None:
    agreed = accepted_proposal(DESIGN_JA, "方針は良いです。ただし、2点変更してください。列名は exported_at にして、ログも出してください。")
    assert "実装方針" in agreed and "サーバーサイドカーソル" in agreed and "cursor.itersize" not in agreed
    assert "exported_at" in agreed, agreed


@pytest.mark.parametrize("answer", [
    "What I found:\n- the cursor is closed early\n- the writer is fine\n\nShall I proceed?",  # findings, no proposal
    "Summary of changes:\n- `export_rows()` streams\n- the flag is gone\n\nWant me to commit?",  # a report
    "You're suggesting:\n- stream the rows\n- drop the flag\n\nShould I go ahead?",  # the user's idea, restated
])
def test_a_list_nothing_proposes_is_not_what_a_yes_accepts(answer: str) -> None:
    assert accepted_proposal(answer, "yes") == ""
    assert answered_proposal(answer, "sure, and add a test") == ""


def test_a_reply_in_its_own_words_is_kept_with_the_plan_it_answers() -> None:
    said = answered_proposal(DESIGN, "Proceed, and keep the flag as a hidden option for one release")
    assert "server-side cursor" in said and "“Proceed, and keep the flag as a hidden option" in said, said
    assert answered_proposal(DESIGN, "no, keep it in memory") == ""
    assert answered_proposal(DESIGN, "why not keep it in memory?") == ""


@pytest.mark.parametrize(("reply", "words"), [
    ("The approach is good, but keep the flag for one more release.", "keep the flag for one more release"),
    ("方針は良いです。ただし、フラグは次のリリースまで残してください。", "フラグは次のリリースまで残して"),
])
def test_the_summary_keeps_the_approved_design_as_a_decision(reply: str, words: str) -> None:
    found = _decisions(
        user("The CSV export runs out of memory on big tables. Propose a fix before changing anything."),
        assistant(DESIGN),
        user(reply),
        assistant("Implementing the streaming export now."),
    )
    assert any("server-side cursor" in item and words in item for item in found), found


def test_a_plan_the_user_approved_through_the_plan_tool_is_a_decision() -> None:
    plan = "# Stream the CSV export\n\n## Context\n\nRows are read at once.\n\n## Changes\n\n- `export_rows()` streams"
    found = _decisions(
        user("Plan the fix for the CSV export."),
        assistant(call("p1", "ExitPlanMode", plan=plan)),
        result("p1", "ExitPlanMode", "User has approved your plan. You can now start coding."),
        assistant("Starting with the cursor."),
    )
    assert any("Stream the CSV export" in item and "approved" in item for item in found), found


def test_a_plan_the_user_turned_down_is_no_approval() -> None:
    plan = "# Stream the CSV export\n\n- `export_rows()` uses a cursor"
    found = _decisions(
        user("Plan the fix for the CSV export."),
        assistant(call("p1", "ExitPlanMode", plan=plan)),
        result("p1", "ExitPlanMode", "The user doesn't want to proceed with this tool use.", error=True),
    )
    assert not any("approved" in item for item in found), found


@pytest.mark.parametrize("tool", ["AskUserQuestion", "ask_user", "request_user_input"])
def test_a_question_the_user_turned_down_to_answer_in_words_is_no_declined_action(tool: str) -> None:
    text = summarize([
        user("Review the caching design and ask me about anything unclear."),
        assistant("Two readings conflict.", call("q1", tool, questions=[{"question": "Which TTL should win?"}])),
        result("q1", tool, "The user doesn't want to proceed with this tool use. The tool use was rejected. "
               "To tell you how to proceed, the user said:\nThe user wants to clarify these questions.", error=True),
        assistant("What would you like to clarify about the TTL question?"),
        user("Explain what the short TTL protects against first."),
        assistant("The short TTL keeps stale prices out of the checkout page."),
    ])
    assert tool not in text.split("## Critical Context")[0], text  # no "declined <tool>", no error, no blocker
    assert "declined" not in text, text


def test_a_plan_in_brief_is_its_title_else_its_first_items() -> None:
    assert plan_in_brief("# Stream the CSV export\n\n## Context\n- rows\n") == "Stream the CSV export"
    assert plan_in_brief("- stream the rows\n- drop the flag\n") == "stream the rows; drop the flag"


def test_a_plan_written_out_before_calls_that_end_on_a_bare_question_is_what_was_approved() -> None:
    found = _decisions(
        user("The CSV export runs out of memory on big tables. Propose a fix before changing anything."),
        assistant(DESIGN.rsplit("\n\n", 1)[0], call("w1", "write", path="docs/export-plan.md", content="plan")),
        result("w1", "write", "ok"),
        assistant("Plan saved. Shall I proceed?"),
        user("方針は良いです。ただし、フラグは次のリリースまで残してください。"),
        assistant("Implementing the streaming export now."),
    )
    assert any("server-side cursor" in item and "フラグは次のリリースまで残して" in item for item in found), found


OPTIONS = ("The build writes `.js` files next to the sources. Two options:\n\n"
           "1. **Set `outDir`** to `build` so the compiled files go to their own folder\n"
           "2. **Run the sources directly** with a loader and skip compiling\n\n"
           "Which do you prefer? Or shall I just delete the generated files for now?")


@pytest.mark.parametrize(("reply", "chosen"), [
    ("yes, send them to a build folder instead", "option 1: Set `outDir`"),
    ("skip compiling, use a loader", "option 2: Run the sources directly"),
])
def test_a_reply_that_describes_a_listed_option_records_that_option(reply: str, chosen: str) -> None:
    agreed = accepted_proposal(OPTIONS, reply)
    assert agreed.startswith(chosen) and reply in agreed, agreed
    assert "delete the generated files" not in agreed


@pytest.mark.parametrize("reply", ["yes", "what does a loader cost at start-up?", "yes, and also update the README"])
def test_a_reply_that_describes_no_single_option_picks_none(reply: str) -> None:
    assert not accepted_proposal(OPTIONS, reply).startswith("option"), accepted_proposal(OPTIONS, reply)


def test_a_long_list_of_findings_is_no_choice_a_reply_describes() -> None:
    findings = "Checked:\n" + "".join(f"{n}. Item {n} keeps the cache key {n} in sync\n" for n in range(1, 8)) + \
        "Anything else?"
    assert not accepted_proposal(findings, "we need to prove the cache key is in sync").startswith("option")


CONCLUSION = ("Both readings were checked against the call sites.\n\n"
              "So Layout B is right: `render(rows, theme)` with the theme resolved inside. Ready to go on to the "
              "next issue?")


@pytest.mark.parametrize("reply", ["yes choose Layout B and go on with the rest", "go with `render(rows, theme)`"])
def test_a_reply_that_chooses_an_alternative_by_its_name_records_what_the_answer_said_of_it(reply: str) -> None:
    agreed = accepted_proposal(CONCLUSION, reply)
    assert agreed.startswith("So Layout B is right: `render(rows, theme)`") and reply in agreed, agreed


@pytest.mark.parametrize("reply", ["pick Layout C", "go with the flow", "keep 2 of them"])
def test_a_name_the_answer_never_mentions_chooses_nothing(reply: str) -> None:
    assert "Layout B" not in accepted_proposal(CONCLUSION, reply)
