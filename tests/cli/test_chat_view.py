"""How the chat words a compaction: what was dropped and why the summarizer was not used, never left off."""

from __future__ import annotations

import pytest

from pi_compact.cli.chat_view import compaction_outcome
from pi_compact.compaction import CompactionResult


def result(strategy: str, summarized: int, dropped: int, fallback: str | None) -> CompactionResult:
    return CompactionResult(entry=None, strategy=strategy, summary="s", first_kept_entry_id="e", tokens_before=25_351,
                            tokens_before_measured=True, tokens_after=10_717, messages_summarized=summarized,
                            messages_dropped=dropped, duration_s=0.1, summarizer="offline", summarizer_input_tokens=0,
                            summarizer_output_tokens=0, fallback_reason=fallback, details={})


@pytest.mark.parametrize(
    ("strategy", "summarized", "dropped", "fallback", "words"),
    [
        ("truncate", 0, 6, "anthropic: anthropic API error 529: overloaded",
         "truncate: 6 messages dropped (summarizer failed: anthropic: anthropic API error 529: overloaded)"),
        ("truncate", 12, 1, None, "truncate: 1 message dropped (the summary and the kept messages did not fit otherwise)"),
        ("offline", 14, 0, "openai: cannot reach the openai API", "offline: 14 messages summarized (summarizer failed: "
         "openai: cannot reach the openai API)"),
        ("summarize", 1, 0, None, "summarize: 1 message summarized"),
        ("prune", 1_234, 0, None, "prune: 1,234 messages summarized"),
    ],
)
def test_the_compaction_line_says_what_was_lost_and_why(strategy, summarized, dropped, fallback, words) -> None:
    assert compaction_outcome(result(strategy, summarized, dropped, fallback)) == words
