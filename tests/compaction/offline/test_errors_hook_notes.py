"""What a hook or a plugin adds to a tool result (outcome.without_hook_notes) is no failure of the tool: Claude Code's
"PostToolUse:Edit hook succeeded: …", a ``<system-reminder>`` block, a bracketed "[hook] …", a banner about the
context or tokens ("📊 Context: 45% used"). A result that holds only those is no failure, whatever its flag; one
that holds a real error beside them is told by that error. A hook that turned a call back stays a refusal."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.outcome import hook_reply, without_hook_notes

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

NOTES = [
    "PostToolUse:Edit hook succeeded: formatted src/cart.ts with prettier",
    "PostToolUse:Write hook additional context: remember to run the tests",
    "<system-reminder>\nThe TodoWrite tool hasn't been used recently.\n</system-reminder>",
    "[hook] lint passed (0 problems)",
    "📊 Context: 45% used (90k/200k tokens)",
    "💰 Token savings: 12,400 tokens saved by the compressor",
    "[plugin:rtk] output compressed",
]
ERROR = "error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'."


def _session(text: str, error: bool = True) -> list[dict]:
    return [user("Make the discount a percentage."),
            assistant(call("e", "edit", path="src/cart.ts", oldText="p;", newText="p * 0.9;")),
            result("e", "edit", text, error=error),
            assistant("Next I'll update the tax code.", call("r", "read", path="src/tax.ts")),
            result("r", "read", "export const tax = 1;\n")]


def _failures(summary: str) -> str:
    return "\n".join(items(summary, "### Blocked") + items(summary, "## Critical Context")
                     + items(summary, "## Next Steps"))


@pytest.mark.parametrize("note", NOTES)
def test_a_result_of_hook_notes_only_is_no_failure(note: str) -> None:
    assert hook_reply(note)
    summary = summarize(_session(note))
    assert "failed" not in _failures(summary), summary


@pytest.mark.parametrize("note", NOTES)
def test_a_real_error_beside_a_note_is_told_by_the_error(note: str) -> None:
    text = f"{note}\n{ERROR}"
    assert without_hook_notes(text).strip() == ERROR
    assert not hook_reply(text)


@pytest.mark.parametrize("text", [
    "PreToolUse:Bash hook error: blocked: rm -rf is not allowed",
    "❌ context deadline exceeded after 30s",
    "[hook] lint failed: 3 problems",
    "Successfully replaced text in src/cart.ts.",
])
def test_refusals_errors_and_tool_words_are_kept(text: str) -> None:
    assert without_hook_notes(text) == text and not hook_reply(text)
