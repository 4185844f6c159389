"""Token figures: pi's chars/4 per role, CJK counted per character, images counted everywhere, and the
usage-aware context size (measured + estimated) that ignores usage from before a compaction."""

from __future__ import annotations

import pytest

from pi_compact.compaction import (ContextTokens, calculate_context_tokens, estimate_context_tokens,
                                   estimate_tokens)
from pi_compact.compaction.tokens import IMAGE_TOKENS, text_tokens

from .builders import assistant, bash_run, call, image, text, tool_result, usage, user

ROLE_CASES = [
    pytest.param(user("x" * 10), 3, id="user-string"),
    pytest.param(user([text("abcd"), text("efgh")]), 2, id="user-blocks"),
    pytest.param(user([text("abcd"), image()]), 1 + IMAGE_TOKENS, id="user-image-counted"),
    pytest.param(assistant("abcd", {"type": "thinking", "thinking": "efgh"}), 2, id="assistant-text-thinking"),
    # name (4) + compact JSON {"path":"a.py"} (15) = 19 chars → 5
    pytest.param(assistant(call("c1", "read", path="a.py")), 5, id="assistant-tool-call"),
    pytest.param(tool_result("c1", "read", "y" * 9), 3, id="tool-result"),
    pytest.param(tool_result("c1", "read", [text("abcd"), image(), image()]), 1 + 2 * IMAGE_TOKENS,
                 id="tool-result-images"),
    pytest.param({"role": "custom", "customType": "x", "content": "abcdefgh", "display": True}, 2, id="custom"),
    pytest.param(bash_run("ls", "abcdef"), 2, id="bash-command-and-output"),
    pytest.param({"role": "branchSummary", "summary": "a" * 40, "fromId": "root"}, 10, id="branch-summary"),
    pytest.param({"role": "compactionSummary", "summary": "a" * 41, "tokensBefore": 1}, 11, id="compaction-summary"),
    pytest.param({"role": "system", "content": "a" * 400}, 0, id="unknown-role"),
    pytest.param("not a message", 0, id="not-a-dict"),
    pytest.param({"role": "user", "content": [{"type": "text", "text": 5}, "junk", None]}, 0, id="junk-blocks"),
]


@pytest.mark.parametrize("message, tokens", ROLE_CASES)
def test_estimate_tokens_per_role(message, tokens) -> None:
    assert estimate_tokens(message) == tokens


@pytest.mark.parametrize(
    "value, tokens",
    [
        pytest.param("", 0, id="empty"),
        pytest.param("abcde", 2, id="ascii-rounds-up"),
        pytest.param("编译器错误", 5, id="chinese-one-per-char"),
        pytest.param("こんにちは", 5, id="japanese"),
        pytest.param("안녕하세요", 5, id="korean"),
        pytest.param("abcd编译", 3, id="mixed"),
        pytest.param("café naïve", 3, id="accents-are-not-cjk"),
    ],
)
def test_cjk_counts_one_token_per_character(value, tokens) -> None:
    assert text_tokens(value) == tokens
    assert estimate_tokens(user(value)) == tokens


@pytest.mark.parametrize(
    "parts, expected",
    [
        pytest.param(usage(1000, 500, 200, 100), 1800, id="sum"),
        pytest.param(usage(0), 0, id="zeros"),
        pytest.param({"input": 5, "output": 5, "totalTokens": 0}, 10, id="total-zero-falls-back"),
        pytest.param({"input": 5, "totalTokens": 99}, 99, id="total-wins"),
    ],
)
def test_calculate_context_tokens(parts, expected) -> None:
    assert calculate_context_tokens(parts) == expected


def test_context_without_usage_is_estimated() -> None:
    messages = [user("a" * 40), assistant("b" * 40, usage={"input": 0, "output": 0, "totalTokens": 0})]
    tokens = estimate_context_tokens(messages)
    assert tokens == ContextTokens(20, 0, 20, None)
    assert not tokens.measured and tokens.describe() == "20 tokens (estimated)"


def test_context_uses_the_last_usable_usage_plus_what_follows() -> None:
    messages = [
        user("hello"),
        assistant("hi", usage=usage(100, 50)),
        user("how are you?"),
        assistant("good", usage=usage(200, 100)),
        user("a" * 40),
        assistant("aborted", usage=usage(900), stop="aborted"),
        assistant("error", usage=usage(900), stop="error"),
    ]
    tokens = estimate_context_tokens(messages)
    assert tokens.last_usage_index == 3
    assert tokens.usage_tokens == 300
    assert tokens.trailing_tokens == 10 + 2 + 2  # "a"*40, "aborted", "error"
    assert tokens.tokens == 314
    assert tokens.describe() == "314 tokens (measured 300 + estimated 14)"


def test_trust_usage_false_estimates_everything() -> None:
    messages = [user("a" * 40), assistant("b" * 40, usage=usage(100_000))]
    assert estimate_context_tokens(messages, trust_usage=False) == ContextTokens(20, 0, 20, None)


def test_usage_older_than_a_leading_compaction_summary_is_ignored() -> None:
    kept = assistant("kept from before the compaction", usage=usage(150_000))
    summary = {"role": "compactionSummary", "summary": "s" * 40, "tokensBefore": 150_000,
               "timestamp": kept["timestamp"] + 1}
    messages = [summary, user("x" * 40), kept]
    tokens = estimate_context_tokens(messages)
    assert not tokens.measured
    assert tokens.tokens == sum(map(estimate_tokens, messages))


def test_usage_newer_than_the_compaction_counts() -> None:
    summary = {"role": "compactionSummary", "summary": "s" * 40, "tokensBefore": 150_000, "timestamp": 1}
    fresh = assistant("after the compaction", usage=usage(3000))
    tokens = estimate_context_tokens([summary, user("x"), fresh, user("y" * 8)])
    assert tokens.measured and tokens.tokens == 3000 + 2
