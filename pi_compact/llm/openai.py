"""Summarize through the official ``openai`` SDK (Chat Completions), or any OpenAI-compatible local server.

Chat Completions rather than the Responses API, because it is the one dialect that llama.cpp, vLLM, Ollama and
LM Studio all speak: with ``base_url`` (or ``OPENAI_BASE_URL``) set, the same class summarizes with a local
model, and a dummy key is sent since such servers ignore it. The SDK is imported when a summarizer is built.
"""

from __future__ import annotations

import os
from typing import Any

from pi_compact.compaction.summarizer import SummaryRequest, SummaryResult
from pi_compact.errors import SummarizerError
from pi_compact.llm import http_client, import_sdk, model_window, sdk_error

DEFAULT_MODEL = "gpt-4o-mini"
LOCAL_API_KEY = "sk-local"
"""Sent to a custom ``base_url`` when no key is configured: the SDK insists on one, local servers ignore it."""


class OpenAISummarizer:
    """A :class:`~pi_compact.compaction.summarizer.Summarizer` backed by a Chat Completions endpoint.

    Like the Anthropic summarizer, it opens and closes an SDK client around each call, so it holds no sockets.
    """

    name = "openai"

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
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = api_key or os.environ.get("OPENAI_API_KEY") or (LOCAL_API_KEY if self.base_url else "")
        if not key:
            raise SummarizerError("OPENAI_API_KEY is not set")
        self._sdk = import_sdk("openai")
        self._api_key = key
        self._client_options = {
            "api_key": key,
            "base_url": self.base_url,
            "timeout": timeout,
            "max_retries": max_retries,
        }

    def __repr__(self) -> str:
        return f"OpenAISummarizer(model={self.model!r}, base_url={self.base_url!r})"

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        messages = [{"role": "system", "content": request.system}, {"role": "user", "content": request.prompt}]
        try:
            with self._sdk.OpenAI(**self._client_options, http_client=http_client(self._sdk, self.timeout)) as client:
                completion = client.chat.completions.create(
                    model=self.model, messages=messages, **self._token_limit(request.max_tokens)
                )
        except Exception as exc:
            raise sdk_error(self._sdk, self.name, exc, timeout=self.timeout, secret=self._api_key) from exc
        return self._result(completion)

    def _token_limit(self, max_tokens: int) -> dict[str, int]:
        """OpenAI's own API wants ``max_completion_tokens`` (reasoning models reject ``max_tokens``), while
        compatible servers have long understood only ``max_tokens``."""
        if self.base_url is None or "api.openai.com" in self.base_url:
            return {"max_completion_tokens": max_tokens}
        return {"max_tokens": max_tokens}

    def _result(self, completion: Any) -> SummaryResult:
        text = _message_text(completion)
        if not text.strip():
            raise SummarizerError("empty summary")
        usage = getattr(completion, "usage", None)
        return SummaryResult(
            text=text,
            input_tokens=getattr(usage, "prompt_tokens", None) or 0,
            output_tokens=getattr(usage, "completion_tokens", None) or 0,
            model=getattr(completion, "model", None) or self.model,
        )


def _message_text(completion: Any) -> str:
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise SummarizerError("malformed openai response: no choices")
    content = getattr(getattr(choices[0], "message", None), "content", None)
    return content if isinstance(content, str) else ""
