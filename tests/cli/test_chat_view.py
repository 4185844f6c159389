"""How the chat words a compaction: what was dropped and why the summarizer was not used, never left off."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.cli.chat_view import compaction_outcome, complete_blocks
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


_PIECES = st.sampled_from(["word ", "\n", "\n\n", "```", "```py\n", "~~~\n", "   ```\n", "- item\n", "# h\n", "`x`"])


@given(st.lists(_PIECES, max_size=40), st.lists(st.integers(min_value=1, max_value=7), min_size=1, max_size=40))
def test_blocks_are_cut_only_between_blocks_and_nothing_is_lost(pieces: list[str], sizes: list[int]) -> None:
    text = "".join(pieces)
    drawn, pending, position, index = [], "", 0, 0
    while position < len(text):  # fed in deltas of any size, as a stream arrives
        delta = text[position : position + sizes[index % len(sizes)]]
        position, index = position + len(delta), index + 1
        done, pending = complete_blocks(pending + delta)
        drawn.append(done)
    assert "".join(drawn) + pending == text
    for done in drawn:
        if done:
            assert done.endswith("\n\n")
            fences = re.findall(r"^ {0,3}(`{3,}|~{3,})", done, flags=re.M)
            opened = None
            for fence in fences:  # every fence opened in a drawn block is closed in it
                opened = fence[0] if opened is None else (None if fence[0] == opened else opened)
            assert opened is None, done


def test_thinking_and_answers_are_wrapped_at_words_as_they_stream() -> None:
    import io

    from rich.console import Console

    from pi_compact.agent import AgentEvent
    from pi_compact.cli.chat_view import ChatView

    out = io.StringIO()
    view = ChatView(Console(file=out, width=40, color_system=None, force_terminal=False))
    words = [f"word{i}" for i in range(30)]
    thought = " ".join(words[:15]) + "\nsecond line of thought"
    answer = "A **bold** start.\n\n" + " ".join(words[15:])
    for kind, text in (("thinking", thought), ("text", answer)):
        for start in range(0, len(text), 3):  # three characters a delta: words arrive cut in pieces
            view.on_event(AgentEvent(kind, text=text[start : start + 3]))
    view.finish()
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 40 and not line.endswith(" ") for line in lines)  # no padding to copy along
    for word in words:
        assert sum(line.split().count(word) for line in lines) == 1, word
    assert "second line of thought" in lines
    start = lines.index("A bold start.")
    assert lines[start + 1] == "" and lines[start + 2].startswith("word15")  # blocks apart, as rich draws them
