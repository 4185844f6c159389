"""Recognise "the prompt did not fit" in a provider's error text, the way pi does.

An overflow is not retried like a transient error: it is fixed by compacting and trying again, so callers need
to tell the two apart from the message alone (providers agree on no error code). The pattern lists are pi's
(``isContextOverflow``, case 1), kept verbatim so both tools make the same call on the same message.
"""

from __future__ import annotations

import re

NON_OVERFLOW_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"^(Throttling error|Service unavailable):",
        r"rate limit",
        r"too many requests",
    )
)
"""Messages that mention tokens or limits but mean "slow down" (checked first, so they never count)."""

OVERFLOW_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"prompt is too long",
        r"request_too_large",
        r"input is too long for requested model",
        r"exceeds the context window",
        # pi's "input token count.*exceeds the maximum", tried from each line's first "input token count"
        # only (the same lines match): from every occurrence, a long line took quadratic time
        r"(?m)^(?:(?!input token count).)*+input token count.*exceeds the maximum",
        r"maximum prompt length is \d+",
        r"reduce the length of the messages",
        r"maximum context length is \d+ tokens",
        r"exceeds the limit of \d+",
        r"exceeds the available context size",
        r"greater than the context length",
        r"context window exceeds limit",
        r"exceeded model token limit",
        r"too large for model with \d+ maximum context length",
        r"model_context_window_exceeded",
        r"prompt too long; exceeded (?:max )?context length",
        r"context[_ ]length[_ ]exceeded",
        r"too many tokens",
        r"token limit exceeded",
        r"^4(?:00|13)\s*(?:status code\s*)?\(no body\)",  # pi's \s*(?:status code)?\s*, without two adjacent \s*
    )
)
"""Anthropic, OpenAI, Google, Bedrock, Mistral, llama.cpp, Ollama, LM Studio, ... wordings of an overflow."""


def is_context_overflow(error_message: str) -> bool:
    """Whether a provider error message says the context window was exceeded.

    Rate-limit wordings win over overflow wordings ("too many tokens per minute" is a throttle, not an overflow).
    """
    if not error_message:
        return False
    if any(p.search(error_message) for p in NON_OVERFLOW_PATTERNS):
        return False
    return any(p.search(error_message) for p in OVERFLOW_PATTERNS)
