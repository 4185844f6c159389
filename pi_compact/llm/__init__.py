"""Summarizers backed by a real LLM, and the one factory that picks between them.

Each provider lives in its own module and imports its SDK only when a summarizer is built, so importing
``pi_compact`` (and ``pi-compact --help``) never pays for ``anthropic`` or ``openai``. Every SDK failure is
turned into a one-line :class:`~pi_compact.errors.SummarizerError` that never contains the API key.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pi_compact.errors import SummarizerError, SummarizerOverflowError, UsageError
from pi_compact.llm.overflow import is_context_overflow

if TYPE_CHECKING:
    from pi_compact.compaction.settings import CompactionSettings
    from pi_compact.compaction.summarizer import Summarizer

__all__ = [
    "API_KEY_VARIABLES",
    "SUMMARIZERS",
    "check_summarizer",
    "check_summarizer_key",
    "is_context_overflow",
    "make_summarizer",
    "missing_key",
    "model_window",
    "summarizer_for",
]

SUMMARIZERS: tuple[str, ...] = ("offline", "anthropic", "openai")
"""The summarizers :func:`make_summarizer` builds, the default first: the one list every option is checked against."""

_MAX_MESSAGE_CHARS = 500

_MODEL_WINDOWS = (("claude", 200_000), ("gpt-4.1", 1_047_576), ("gpt-5", 400_000), ("gpt-4o", 128_000),
                  ("gpt-4-turbo", 128_000), ("gpt-4", 8_192), ("gpt-3.5-turbo", 16_385), ("o1", 200_000),
                  ("o3", 200_000), ("o4", 200_000))
"""Known context windows by model-id prefix, most specific first."""
_PROVIDER_WINDOWS = {"anthropic": 200_000, "openai": 128_000}
"""A model not listed gets its provider's usual window: a local server with less needs ``summarizer_window``."""


def check_summarizer(name: str, *, also: tuple[str, ...] = ()) -> str:
    """``name`` when it is one of :data:`SUMMARIZERS` (or of ``also``, a caller's own extra choices), else a
    :class:`~pi_compact.errors.UsageError` that lists them all."""
    choices = (*also, *SUMMARIZERS)
    if name not in choices:
        raise UsageError(f"unknown summarizer {name!r}: use one of {', '.join(choices)}")
    return name


API_KEY_VARIABLES = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
"""The environment variable each remote summarizer reads its key from."""


def missing_key(provider: str, *, base_url: str | None = None) -> str | None:
    """The environment variable ``provider``'s summarizer needs and does not find, else ``None`` (the offline
    one needs no key, nor does an OpenAI-compatible local server: a ``base_url`` or ``OPENAI_BASE_URL``)."""
    variable = API_KEY_VARIABLES.get(provider)
    if variable is None or os.environ.get(variable):
        return None
    if provider == "openai" and (base_url or os.environ.get("OPENAI_BASE_URL")):
        return None
    return variable


def check_summarizer_key(provider: str, *, origin: str, base_url: str | None = None) -> None:
    """A :class:`~pi_compact.errors.UsageError` saying what the key is for and where the choice came from
    (``origin``: ``--summarizer``, a settings file), when the summarizer ``provider`` lacks its key. Without
    it, a chat with another provider would only say "ANTHROPIC_API_KEY is not set", as if the chat needed it."""
    variable = missing_key(provider, base_url=base_url)
    if variable is not None:
        raise UsageError(f"the summarizer ({provider}, from {origin}) needs {variable}: set it, or choose "
                         "another summarizer with --summarizer")


def model_window(provider: str, model: str | None) -> int:
    """The context window of ``model`` as far as known, else the provider's usual one."""
    name = (model or "").lower()
    for prefix, window in _MODEL_WINDOWS:
        if name.startswith(prefix):
            return window
    return _PROVIDER_WINDOWS.get(provider, 128_000)


def make_summarizer(
    provider: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float | None = None,
    context_window: int | None = None,
) -> Summarizer:
    """Build the summarizer for ``provider``; options left as ``None`` keep that provider's defaults.

    ``context_window`` is the summarizer model's own window (default: :func:`model_window`): each request,
    answer included, is kept within it, the input folded in chunks. ``offline`` needs no model, key or network,
    so the other options are ignored for it.
    """
    if context_window is not None and context_window <= 0:
        raise UsageError(f"the summarizer window must be a positive number of tokens, got {context_window}")
    name = check_summarizer(provider.strip().lower())
    if name == "offline":
        from pi_compact.compaction.offline import OfflineSummarizer

        return OfflineSummarizer()
    options = {k: v for k, v in {"api_key": api_key, "base_url": base_url, "timeout": timeout,
                                 "context_window": context_window}.items() if v is not None}
    if model is not None:
        options["model"] = model
    if name == "anthropic":
        from pi_compact.llm.anthropic import AnthropicSummarizer

        return AnthropicSummarizer(**options)
    from pi_compact.llm.openai import OpenAISummarizer

    return OpenAISummarizer(**options)


def summarizer_for(settings: CompactionSettings, provider: str | None = None, **options: Any) -> Summarizer:
    """The summarizer ``settings`` name (or ``provider``), with their model, base URL and summarizer window."""
    window = settings.summarizer_window
    if window < 0:
        raise UsageError(f"compaction.summarizerWindow must be a positive number of tokens, got {window}")
    options = {"model": settings.model, "base_url": settings.base_url, "context_window": window or None, **options}
    name = (provider or settings.summarizer).strip().lower()
    variable = None if options.get("api_key") else missing_key(name, base_url=options.get("base_url"))
    if variable is not None:  # said here, so no command reports a bare "ANTHROPIC_API_KEY is not set"
        raise SummarizerError(f"the summarizer ({name}) needs {variable}")
    return make_summarizer(name, **options)


# -- shared by the provider modules -----------------------------------------------------------------------


def import_sdk(module: str) -> ModuleType:
    """Import a provider SDK on first use, with an actionable message when it is missing."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"the {module} summarizer needs the {module!r} package: pip install {module}") from exc


def http_client(sdk: ModuleType, max_wait: float) -> Any:
    """The SDK's default HTTP client, except that a ``retry-after`` never makes it wait more than ``max_wait``.

    Both SDKs sleep as long as a 429 or 503 tells them to (``anthropic`` up to 49 days, ``openai`` up to two
    minutes), per retry; a compaction must end in bounded time, so a longer wait is cut to ``max_wait``.
    """

    def cap_retry_after(response: Any) -> None:
        for name, limit in (("retry-after-ms", max_wait * 1000), ("retry-after", max_wait)):
            value = response.headers.get(name)
            if value is not None and not _at_most(value, limit):
                response.headers[name] = f"{limit:g}"

    return sdk.DefaultHttpxClient(event_hooks={"response": [cap_retry_after]})


def _at_most(value: str, limit: float) -> bool:
    try:
        return float(value) <= limit  # an HTTP date, NaN or junk is not "at most" anything
    except ValueError:
        return False


def sdk_error(sdk: ModuleType, provider: str, exc: BaseException, *, timeout: float, secret: str) -> SummarizerError:
    """Map an exception raised by the ``anthropic`` or ``openai`` SDK (same class names) to one line.

    The provider's own error message is kept, since callers match on it (:func:`is_context_overflow`).
    """
    if isinstance(exc, sdk.APITimeoutError):
        detail = f"{provider} request timed out after {timeout:g}s"
    elif isinstance(exc, sdk.APIConnectionError):
        detail = f"cannot reach the {provider} API: {exc.__cause__ or exc}"
    elif isinstance(exc, sdk.APIStatusError):
        detail = f"{provider} API error {exc.status_code}: {_api_message(exc.body) or exc.message}"
    elif isinstance(exc, (ValueError, TypeError, KeyError, AttributeError)):
        detail = f"malformed {provider} response: {exc}"
    else:
        detail = f"{provider} request failed: {type(exc).__name__}: {exc}"
    overflow = isinstance(exc, sdk.APIStatusError) and is_context_overflow(detail)
    return (SummarizerOverflowError if overflow else SummarizerError)(one_line(detail, secret=secret))


def _api_message(body: object) -> str | None:
    """``error.message`` from either provider's error JSON (OpenAI's SDK already unwraps ``error``)."""
    if not isinstance(body, dict):
        return None
    inner = body.get("error")
    message = inner.get("message") if isinstance(inner, dict) else body.get("message")
    return message if isinstance(message, str) and message else None


def one_line(text: Any, *, secret: str = "") -> str:
    """Collapse whitespace, cut to a readable length, and blank out ``secret`` wherever it appears."""
    line = " ".join(str(text).split())
    if secret:
        line = line.replace(secret, "***")
    return line if len(line) <= _MAX_MESSAGE_CHARS else line[: _MAX_MESSAGE_CHARS - 1] + "…"
