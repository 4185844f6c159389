"""Summarize with Claude through the official ``anthropic`` SDK (Messages API).

The SDK is imported when a summarizer is built, never when this module is imported. Retries, backoff and
``retry-after`` handling are the SDK's; this module only shapes the request and turns every failure into a
:class:`~pi_compact.errors.SummarizerError`.
"""

from __future__ import annotations

import os
from typing import Any

from pi_compact.compaction.summarizer import SummaryRequest, SummaryResult
from pi_compact.errors import SummarizerError
from pi_compact.llm import http_client, import_sdk, model_window, sdk_error

DEFAULT_MODEL = "claude-sonnet-4-6"


class AnthropicSummarizer:
    """A :class:`~pi_compact.compaction.summarizer.Summarizer` that asks a Claude model for the summary.

    A fresh SDK client is opened and closed around each call: summaries are rare (one per compaction), and
    this way a summarizer holds no sockets between calls and never needs closing.
    """

    name = "anthropic"

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        context_window: int | None = None,
    ) -> None:
        self.model = model
        self.context_window = context_window or model_window(self.name, model)
        """The model's own window: the compaction stage keeps every request (answer included) within it."""
        self.timeout = timeout
        key = api_key or os.environ.get("ANTHROPIC_API_KEY") or ""
        if not key:
            raise SummarizerError("ANTHROPIC_API_KEY is not set")
        self._sdk = import_sdk("anthropic")
        self._api_key = key
        self._client_options = {"api_key": key, "base_url": base_url, "timeout": timeout, "max_retries": max_retries}

    def __repr__(self) -> str:
        return f"AnthropicSummarizer(model={self.model!r})"

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        try:
            with self._sdk.Anthropic(**self._client_options, http_client=http_client(self._sdk, self.timeout)) as client:
                message = client.messages.create(
                    model=self.model,
                    max_tokens=request.max_tokens,
                    system=request.system,
                    messages=[{"role": "user", "content": [{"type": "text", "text": request.prompt}]}],
                )
        except Exception as exc:
            raise sdk_error(self._sdk, self.name, exc, timeout=self.timeout, secret=self._api_key) from exc
        return self._result(message)

    def _result(self, message: Any) -> SummaryResult:
        text = _joined_text(message)
        if not text.strip():
            raise SummarizerError("empty summary")
        usage = getattr(message, "usage", None)
        return SummaryResult(
            text=text,
            input_tokens=_input_tokens(usage),
            output_tokens=getattr(usage, "output_tokens", None) or 0,
            model=getattr(message, "model", None) or self.model,
        )


def _joined_text(message: Any) -> str:
    """Text blocks joined with newlines, as pi does; thinking and tool blocks are not part of a summary."""
    blocks = getattr(message, "content", None)
    if not isinstance(blocks, list):
        raise SummarizerError("malformed anthropic response: no content blocks")
    texts = [getattr(b, "text", None) for b in blocks if getattr(b, "type", None) == "text"]
    return "\n".join(t for t in texts if isinstance(t, str))


def _input_tokens(usage: Any) -> int:
    """Anthropic reports cached input apart from ``input_tokens``; the request's size is their sum."""
    fields = ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    return sum(getattr(usage, f, None) or 0 for f in fields)
