"""The agent's corrections of itself (rules.py ``corrections``): when the agent retracts what it said or believed
("My mistake! It's actually …", "the cache bug was a misdiagnosis. The actual issue was: …"), what is true instead
is a decision the next agent must not undo, in any language; a hedged guess corrects nothing."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.rules import corrections

from ..messages import assistant, user
from .test_classes import summarize
from .test_offline import items


@pytest.mark.parametrize(("answer", "kept"), [
    ("My mistake! The exporter reads `REPORT_DIR`, not `OUTPUT_DIR`.", "`REPORT_DIR`, not `OUTPUT_DIR`"),
    ("So the \"stale cache\" theory was a misdiagnosis. The actual issue was:\n\n**the worker runs as another user**",
     "the worker runs as another user"),  # the retraction ends on a colon: what follows is the correction
    ("You're right. I was wrong.\n\nThe parser never sees the BOM because the reader strips it first.",
     "the reader strips it first"),  # "I was wrong." alone says too little
    ("すみません、間違えました。設定ファイルは config/app.toml ではなく config/main.toml です。", "config/main.toml"),
    ("抱歉，我搞错了。实际原因是迁移脚本没有运行。", "迁移脚本没有运行"),
])
def test_a_retraction_is_kept_with_what_is_true_instead(answer: str, kept: str) -> None:
    found = corrections(answer)
    assert len(found) == 1 and found[0].startswith("Corrected: ") and kept in found[0]


@pytest.mark.parametrize("answer", [
    "The real issue is likely the async inserts: the data is not in the table yet.",  # a guess, not a correction
    "Was the real issue the timeout?",
    "Let me verify it's actually used now.",
    "The tests pass and the exporter writes to `REPORT_DIR`.",
])
def test_a_guess_a_question_or_a_report_corrects_nothing(answer: str) -> None:
    assert corrections(answer) == []


def test_the_correction_reaches_the_key_decisions() -> None:
    messages = [user("Which variable turns on the debug log?"),
                assistant("Set `APP_TRACE=1` before the command."),
                user("why APP_TRACE? that is the SDK's variable"),
                assistant("My mistake! I incorrectly named the SDK's variable. The CLI reads `CLI_LOG_LEVEL=debug`.")]
    decisions = items(summarize(messages), "## Key Decisions")
    assert any(d.startswith("Corrected:") and "CLI_LOG_LEVEL=debug" in d for d in decisions)
