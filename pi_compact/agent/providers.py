"""Streaming model calls through the official ``anthropic`` and ``openai`` SDKs, as pi assistant messages.

A provider turns a :class:`ModelRequest` (system prompt, pi context messages, tools, thinking level) into a
:class:`ResponseStream`: iterate it for text, thinking and tool-call deltas as they arrive, then take
:meth:`ResponseStream.message`, the pi ``assistant`` message. The stream events are folded back into the
provider's own non-streaming reply, so the one conversion in :mod:`pi_compact.convert` (``to_anthropic`` /
``from_anthropic_response``, ``to_openai_chat`` / ``from_openai_chat_response``) is the only one there is.

Failures never raise out of a stream: an SDK error becomes an assistant message with ``stopReason: "error"``
and the provider's own wording in ``errorMessage`` (which is how a context overflow is recognised), and a
stream the user cancels ends as ``stopReason: "aborted"`` with what had arrived. SDKs are imported when a
provider is built; ``base_url`` points either SDK at a compatible server (llama.cpp, vLLM, Ollama, …).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from ..convert import from_anthropic_response, from_openai_chat_response, to_anthropic, to_openai_chat
from ..errors import UsageError
from .tools import ToolSpec

PROVIDERS = ("anthropic", "openai")
THINKING_LEVELS = ("off", "minimal", "low", "medium", "high", "xhigh")
DEFAULT_MODELS = {"anthropic": "claude-sonnet-4-6", "openai": "gpt-4.1"}
DEFAULT_MAX_TOKENS = 8192
ANTHROPIC_THINKING_BUDGETS = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384, "xhigh": 32768}
"""pi's default thinking budgets, in tokens."""
OPENAI_REASONING_EFFORT = {"minimal": "minimal", "low": "low", "medium": "medium", "high": "high", "xhigh": "high"}
LOCAL_API_KEY = "sk-local"
"""Sent to a custom OpenAI ``base_url`` when no key is set: the SDK insists on one, local servers ignore it."""
ABORTED_TEXT = "Request was aborted by the user"

_WINDOWS = (("claude", 200_000), ("gpt-4.1", 1_047_576), ("gpt-5", 400_000), ("gpt-4o", 128_000),
            ("o1", 200_000), ("o3", 200_000), ("o4", 200_000))
_FALLBACK_WINDOWS = {"anthropic": 200_000, "openai": 128_000}

PRICES: tuple[tuple[str, tuple[float, float, float, float]], ...] = (
    ("claude-opus-4-5", (5.0, 25.0, 0.5, 6.25)),
    ("claude-opus-4-6", (5.0, 25.0, 0.5, 6.25)),
    ("claude-opus-4", (15.0, 75.0, 1.5, 18.75)),
    ("claude-sonnet-4", (3.0, 15.0, 0.3, 3.75)),
    ("claude-3-7-sonnet", (3.0, 15.0, 0.3, 3.75)),
    ("claude-haiku-4-5", (1.0, 5.0, 0.1, 1.25)),
    ("claude-3-5-haiku", (0.8, 4.0, 0.08, 1.0)),
    ("gpt-4.1-mini", (0.4, 1.6, 0.1, 0.0)),
    ("gpt-4.1", (2.0, 8.0, 0.5, 0.0)),
    ("gpt-4o-mini", (0.15, 0.6, 0.075, 0.0)),
    ("gpt-4o", (2.5, 10.0, 1.25, 0.0)),
    ("gpt-5-mini", (0.25, 2.0, 0.025, 0.0)),
    ("gpt-5", (1.25, 10.0, 0.125, 0.0)),
)
"""US dollars per million tokens (input, output, cache read, cache write), by model-id prefix, most specific
first; published list prices, which change: a model not listed gets no cost rather than a wrong one."""


def context_window(provider: str, model: str) -> int:
    """The model's context window as far as known, else the provider's usual one."""
    return known_window(model) or _FALLBACK_WINDOWS.get(provider, 128_000)


def known_window(model: str) -> int | None:
    """The model's context window when its id is one this table knows; ``None`` for any other (a local model)."""
    for prefix, window in _WINDOWS:
        if model.startswith(prefix):
            return window
    return None


def cost_of(model: str, usage: dict) -> dict:
    """pi's ``usage.cost`` for a reply (all zeros for a model without a known price)."""
    rates = next((r for prefix, r in PRICES if model.startswith(prefix)), (0.0, 0.0, 0.0, 0.0))
    parts = [usage.get(k) or 0 for k in ("input", "output", "cacheRead", "cacheWrite")]
    amounts = [n * rate / 1_000_000 for n, rate in zip(parts, rates, strict=True)]
    keys = ("input", "output", "cacheRead", "cacheWrite")
    return {**dict(zip(keys, amounts, strict=True)), "total": sum(amounts)}


# -- values ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelRequest:
    """One model call: everything the provider needs besides its own model id."""

    system: str
    messages: list[dict]
    """pi context messages (any role); converted and repaired (no orphaned tool calls) by the provider."""
    tools: tuple[ToolSpec, ...] = ()
    thinking_level: str = "off"
    max_tokens: int = DEFAULT_MAX_TOKENS


@dataclass(frozen=True)
class Delta:
    """A piece of the reply as it streams: ``text``, ``thinking``, or ``tool`` (a tool call starts: its name)."""

    kind: str
    text: str


class ResponseStream(Protocol):
    def __iter__(self) -> Iterator[Delta]: ...

    def message(self) -> dict:
        """The pi assistant message: final once iteration ended, else what arrived so far (``aborted``)."""
        ...

    def abort(self) -> None:
        """Stop reading (the connection is closed); :meth:`message` then says ``aborted``."""
        ...


class Provider(Protocol):
    """Something that streams pi assistant messages; see :class:`AnthropicProvider`, :class:`OpenAIProvider`."""

    name: str
    model: str

    def stream(self, request: ModelRequest) -> ResponseStream: ...


def make_provider(name: str, model: str | None = None, *, base_url: str | None = None,
                  api_key: str | None = None, max_retries: int = 2) -> Provider:
    """The provider called ``name`` (``anthropic`` or ``openai``) for ``model`` (default: its usual model)."""
    if name == "anthropic":
        return AnthropicProvider(model or DEFAULT_MODELS[name], base_url=base_url, api_key=api_key,
                                 max_retries=max_retries)
    if name == "openai":
        return OpenAIProvider(model or DEFAULT_MODELS[name], base_url=base_url, api_key=api_key,
                              max_retries=max_retries)
    raise UsageError(f"unknown provider {name!r}: use one of {', '.join(PROVIDERS)}")


# -- the stream, shared --------------------------------------------------------------------------------------


class _Stream(ABC):
    """Folds SDK stream events into the provider's reply JSON; subclasses know the event shapes."""

    provider: str

    def __init__(self, open_stream, sdk, model: str, secret: str, timeout: float) -> None:
        self._open = open_stream
        self._sdk = sdk
        self._model = model
        self._secret = secret
        self._timeout = timeout
        self._sdk_stream: Any = None
        self._error: str | None = None
        self._aborted = False
        self._done = False
        self.data: dict = self._empty()

    def __iter__(self) -> Iterator[Delta]:
        try:
            self._sdk_stream = self._open()
            for event in self._sdk_stream:
                delta = self._fold(_as_dict(event))
                if delta is not None and delta.text:
                    yield delta
            self._done = True
        except Exception as exc:  # every SDK failure becomes an error message, as pi records it
            self._error = self._describe(exc)
        finally:
            self._close()

    def abort(self) -> None:
        self._aborted = True
        self._close()

    def _close(self) -> None:
        stream, self._sdk_stream = self._sdk_stream, None
        if stream is not None:
            try:
                stream.close()
            except Exception:
                pass

    def _describe(self, exc: BaseException) -> str:
        from ..llm import sdk_error

        secret = self._secret if len(self._secret) >= 8 else ""  # blanking "k" would garble every message
        return str(sdk_error(self._sdk, self.provider, exc, timeout=self._timeout, secret=secret))

    def message(self) -> dict:
        message = self._convert(self.data)
        message["usage"]["cost"] = cost_of(self._model, message["usage"])
        message = _with_model(message, self._model)
        if self._error is not None:
            return _failed(message, "error", self._error)
        if self._aborted or not self._done:
            return _failed(message, "aborted", ABORTED_TEXT)
        return message

    @abstractmethod
    def _empty(self) -> dict: ...

    @abstractmethod
    def _fold(self, event: dict) -> Delta | None: ...

    @abstractmethod
    def _convert(self, data: dict) -> dict: ...


def _as_dict(event: Any) -> dict:
    if isinstance(event, dict):
        return event
    return event.model_dump(mode="json")


def _with_model(message: dict, requested: str) -> dict:
    """``model`` is the id asked for (what pi stores); the provider's own id goes in ``responseModel``."""
    answered = message.get("model")
    out: dict = {}
    for key, value in message.items():
        out[key] = requested if key == "model" else value
        if key == "model" and answered and answered != requested:
            out["responseModel"] = answered
    return out


def _failed(message: dict, stop: str, error: str) -> dict:
    stamp = message.pop("timestamp")
    message["stopReason"] = stop
    message["errorMessage"] = error
    message["timestamp"] = stamp
    return message


def _parse_json(raw: str) -> dict:
    try:
        value = orjson.loads(raw) if raw else {}  # not json: its recursion crashes on a model's deep arguments
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


# -- Anthropic ---------------------------------------------------------------------------------------------------


class _AnthropicStream(_Stream):
    provider = "anthropic"

    def __init__(self, *args: Any) -> None:
        self._json: dict[int, str] = {}
        """Tool-call arguments as streamed so far, by content index (JSON only once complete)."""
        super().__init__(*args)

    def _empty(self) -> dict:
        return {"id": None, "model": self._model, "content": [], "stop_reason": None, "usage": {}}

    def _fold(self, event: dict) -> Delta | None:
        kind = event.get("type")
        if kind == "message_start":
            message = event.get("message") or {}
            self.data.update(id=message.get("id"), model=message.get("model") or self._model)
            self.data["usage"].update({k: v for k, v in (message.get("usage") or {}).items() if v is not None})
        elif kind == "content_block_start":
            block = dict(event.get("content_block") or {})
            self.data["content"].append(block)
            if block.get("type") == "tool_use":
                self._json[len(self.data["content"]) - 1] = ""
                return Delta("tool", str(block.get("name") or ""))
        elif kind == "content_block_delta":
            return self._delta(event.get("delta") or {})
        elif kind == "content_block_stop":
            self._finish_tool_input()
        elif kind == "message_delta":
            self.data["stop_reason"] = (event.get("delta") or {}).get("stop_reason")
            self.data["usage"].update({k: v for k, v in (event.get("usage") or {}).items() if v is not None})
        return None

    def _delta(self, delta: dict) -> Delta | None:
        if not self.data["content"]:
            return None
        block, index = self.data["content"][-1], len(self.data["content"]) - 1
        kind = delta.get("type")
        if kind == "text_delta":
            block["text"] = block.get("text", "") + delta.get("text", "")
            return Delta("text", delta.get("text", ""))
        if kind == "thinking_delta":
            block["thinking"] = block.get("thinking", "") + delta.get("thinking", "")
            return Delta("thinking", delta.get("thinking", ""))
        if kind == "signature_delta":
            block["signature"] = delta.get("signature", "")
        elif kind == "input_json_delta" and index in self._json:
            self._json[index] += delta.get("partial_json", "")
        return None

    def _finish_tool_input(self) -> None:
        for index, raw in self._json.items():
            self.data["content"][index]["input"] = _parse_json(raw)

    def _convert(self, data: dict) -> dict:
        self._finish_tool_input()
        return from_anthropic_response(data, provider=self.provider)


class AnthropicProvider:
    """Claude through the Messages API (streaming); prompt caching marks the system prompt and the last turn."""

    name = "anthropic"

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 timeout: float = 600.0, max_retries: int = 2) -> None:
        from ..llm import import_sdk

        key = api_key or os.environ.get("ANTHROPIC_API_KEY") or ""
        if not key:
            raise UsageError("ANTHROPIC_API_KEY is not set (or choose another provider with --provider)")
        self.model = model
        self.base_url = base_url
        self.timeout = timeout
        self._sdk = import_sdk("anthropic")
        self._key = key
        self._client = self._sdk.Anthropic(api_key=key, base_url=base_url, timeout=timeout, max_retries=max_retries)

    def request_params(self, request: ModelRequest) -> dict:
        """The keyword arguments of ``client.messages.create`` for ``request`` (without ``stream``)."""
        _, messages = to_anthropic(request.messages)
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_tokens,
            "messages": _mark_last_block(messages),
        }
        if request.system:
            params["system"] = [{"type": "text", "text": request.system, "cache_control": {"type": "ephemeral"}}]
        if request.tools:
            params["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.parameters}
                               for t in request.tools]
        budget = ANTHROPIC_THINKING_BUDGETS.get(request.thinking_level)
        if budget:
            params["thinking"] = {"type": "enabled", "budget_tokens": budget}
            params["max_tokens"] = request.max_tokens + budget
        return params

    def stream(self, request: ModelRequest) -> ResponseStream:
        params = self.request_params(request)
        return _AnthropicStream(lambda: self._client.messages.create(stream=True, **params), self._sdk, self.model,
                                self._key, self.timeout)


def _mark_last_block(messages: list[dict]) -> list[dict]:
    """A cache breakpoint on the last block of the last message, when that block may carry one."""
    if not messages or not isinstance(messages[-1].get("content"), list) or not messages[-1]["content"]:
        return messages
    last = dict(messages[-1])
    blocks = list(last["content"])
    if blocks[-1].get("type") in ("text", "tool_result", "image"):
        blocks[-1] = {**blocks[-1], "cache_control": {"type": "ephemeral"}}
    last["content"] = blocks
    return [*messages[:-1], last]


# -- OpenAI Chat Completions ---------------------------------------------------------------------------------------


class _OpenAIStream(_Stream):
    provider = "openai"

    def _empty(self) -> dict:
        message = {"role": "assistant", "content": "", "reasoning_content": "", "tool_calls": []}
        return {"id": None, "model": self._model, "choices": [{"index": 0, "message": message, "finish_reason": None}],
                "usage": None}

    def _fold(self, chunk: dict) -> Delta | None:
        self.data["id"] = chunk.get("id") or self.data["id"]
        self.data["model"] = chunk.get("model") or self.data["model"]
        if chunk.get("usage"):
            self.data["usage"] = chunk["usage"]
        choices = chunk.get("choices") or []
        if not choices:
            return None
        choice = self.data["choices"][0]
        choice["finish_reason"] = choices[0].get("finish_reason") or choice["finish_reason"]
        return self._delta(choice["message"], choices[0].get("delta") or {})

    def _delta(self, message: dict, delta: dict) -> Delta | None:
        found: Delta | None = None
        thinking = delta.get("reasoning_content") or delta.get("reasoning")
        if isinstance(thinking, str) and thinking:
            message["reasoning_content"] += thinking
            found = Delta("thinking", thinking)
        if isinstance(delta.get("content"), str) and delta["content"]:
            message["content"] += delta["content"]
            found = Delta("text", delta["content"])
        for piece in delta.get("tool_calls") or []:
            found = self._tool_piece(message["tool_calls"], piece) or found
        return found

    @staticmethod
    def _tool_piece(calls: list[dict], piece: dict) -> Delta | None:
        index = piece.get("index", len(calls))
        while len(calls) <= index:
            calls.append({"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
        call, function = calls[index], piece.get("function") or {}
        call["id"] = piece.get("id") or call["id"]
        call["function"]["arguments"] += function.get("arguments") or ""
        if function.get("name"):
            call["function"]["name"] += function["name"]
            return Delta("tool", function["name"])
        return None

    def _convert(self, data: dict) -> dict:
        return from_openai_chat_response(data, provider=self.provider)


class OpenAIProvider:
    """Chat Completions (streaming), the dialect OpenAI and every local OpenAI-compatible server speak."""

    name = "openai"

    def __init__(self, model: str, *, base_url: str | None = None, api_key: str | None = None,
                 timeout: float = 600.0, max_retries: int = 2) -> None:
        from ..llm import import_sdk

        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = api_key or os.environ.get("OPENAI_API_KEY") or (LOCAL_API_KEY if self.base_url else "")
        if not key:
            raise UsageError("OPENAI_API_KEY is not set (or give --base-url for a local server)")
        self.model = model
        self.timeout = timeout
        self._sdk = import_sdk("openai")
        self._key = key
        self._client = self._sdk.OpenAI(api_key=key, base_url=self.base_url, timeout=timeout, max_retries=max_retries)

    def request_params(self, request: ModelRequest) -> dict:
        """The keyword arguments of ``client.chat.completions.create`` for ``request`` (without ``stream``)."""
        params: dict[str, Any] = {
            "model": self.model,
            "messages": to_openai_chat(request.messages, system=request.system or None),
            "stream_options": {"include_usage": True},
        }
        if request.tools:
            params["tools"] = [{"type": "function", "function": {"name": t.name, "description": t.description,
                                                                  "parameters": t.parameters}} for t in request.tools]
        effort = OPENAI_REASONING_EFFORT.get(request.thinking_level)
        if effort:
            params["reasoning_effort"] = effort
        return params

    def stream(self, request: ModelRequest) -> ResponseStream:
        params = self.request_params(request)
        return _OpenAIStream(lambda: self._client.chat.completions.create(stream=True, **params), self._sdk,
                             self.model, self._key, self.timeout)


__all__ = [
    "DEFAULT_MODELS",
    "PRICES",
    "PROVIDERS",
    "THINKING_LEVELS",
    "AnthropicProvider",
    "Delta",
    "ModelRequest",
    "OpenAIProvider",
    "Provider",
    "ResponseStream",
    "context_window",
    "known_window",
    "cost_of",
    "make_provider",
]
