"""is_context_overflow: pi's overflow and non-overflow patterns, one real-world message per pattern."""

from __future__ import annotations

import pytest

from pi_compact.llm import is_context_overflow
from pi_compact.llm.overflow import OVERFLOW_PATTERNS

OVERFLOWS = {
    "anthropic": "prompt is too long: 250000 tokens > 200000 maximum",
    "anthropic-413": '{"type":"error","error":{"type":"request_too_large","message":"Request too big"}}',
    "bedrock": "Input is too long for requested model.",
    "google": "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    "xai": "This model's maximum prompt length is 131072 but the request contains 140000 tokens.",
    "groq": "Please reduce the length of the messages or completion.",
    "openai": "This model's maximum context length is 128000 tokens. However, you requested 130000 tokens.",
    "openrouter": "This endpoint's maximum context length is exceeded; exceeds the limit of 65536",
    "llama.cpp": "the request exceeds the available context size, try increasing it",
    "lm-studio": "tokens to keep from the initial prompt is greater than the context length",
    "minimax": "invalid params, context window exceeds limit (2013)",
    "kimi": "Your request exceeded model token limit: 262144",
    "ollama": "prompt too long; exceeded max context length by 412 tokens",
    "ollama-plain": "prompt too long; exceeded context length by 12 tokens",
    "cerebras": "400 status code (no body)",
    "cerebras-413": "413 (no body)",
    "mistral": "Prompt contains 40000 tokens, too large for model with 32768 maximum context length",
    "zai": "model_context_window_exceeded",
    "context_length_exceeded": "Error: context_length_exceeded",
    "context length exceeded": "Context length exceeded for this model",
    "vertex": "exceeds the context window of this model",
    "generic-too-many": "Too many tokens in the request",
    "generic-limit": "Token limit exceeded",
}

NOT_OVERFLOWS = {
    "empty": "",
    "throttling": "Throttling error: Too many tokens, please wait before trying again.",
    "unavailable": "Service unavailable: token limit exceeded on this shard",
    "rate-limit": "Rate limit reached for gpt-4o: too many tokens per minute",
    "too-many-requests": "429 Too Many Requests: token limit exceeded",
    "overloaded": "Overloaded",
    "server-error": "500 Internal server error",
    "no-body-not-at-start": "upstream said 400 status code (no body)",
    "other-4xx-no-body": "404 (no body)",
    "auth": "invalid x-api-key",
}


@pytest.mark.parametrize("message", OVERFLOWS.values(), ids=OVERFLOWS.keys())
def test_overflow_messages(message: str) -> None:
    assert is_context_overflow(message)
    assert is_context_overflow(message.upper())


@pytest.mark.parametrize("message", NOT_OVERFLOWS.values(), ids=NOT_OVERFLOWS.keys())
def test_non_overflow_messages(message: str) -> None:
    assert not is_context_overflow(message)


def test_every_overflow_pattern_has_a_case() -> None:
    for pattern in OVERFLOW_PATTERNS:
        assert any(pattern.search(message) for message in OVERFLOWS.values()), pattern.pattern
