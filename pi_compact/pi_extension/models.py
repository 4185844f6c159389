"""Who writes a summary asked for by pi: the model pi itself would use, unless the user's settings say otherwise.

The extension sends pi's current model (provider, id, API dialect, base URL, context window) and the key pi
resolved for it, on stdin. A model that speaks the Anthropic Messages or an OpenAI dialect is called through
pi-compact's own summarizers, so its input is folded to the summarizer's window and redacted; any other
dialect, a missing key or a failing call gives the offline summary, and the reason travels in ``details``.

The user's own ``~/.pi/agent/settings.json`` may name a ``compaction.summarizer`` (with ``model``,
``baseUrl``, ``summarizerWindow``) as for every other pi-compact command; then that one is used and pi's
model is not. A project's ``.pi/settings.json`` cannot: :func:`pi_compact.compaction.load_settings` leaves
those keys out of it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from ..compaction.settings import CompactionSettings
from ..compaction.summarizer import Summarizer, SummaryRequest, SummaryResult
from ..errors import PiCompactError, SummarizerError
from ..store.paths import agent_dir
from .protocol import ProtocolError, count, field

DIALECTS = {"anthropic-messages": "anthropic", "openai-completions": "openai", "openai-responses": "openai"}
"""pi's ``model.api`` values pi-compact can call, and the summarizer that speaks each."""
SUMMARIZER_TIMEOUT = 60.0
"""Seconds one summarizer request may take when the request names no deadline."""
NEW_CALLS_SHARE = 0.4
"""No summarizer request starts after this share of the caller's deadline has passed ..."""
CALL_SHARE = 0.125
"""... and each may take this share (the SDK retries twice): the offline fallback then still finishes in time."""


@dataclass(frozen=True)
class PiModel:
    """The part of pi's model (and its resolved key) a summarizer needs."""

    provider: str
    id: str
    api: str
    base_url: str | None
    context_window: int | None
    api_key: str | None

    def __repr__(self) -> str:  # never show the key
        return f"PiModel({self.provider}/{self.id}, api={self.api!r}, base_url={self.base_url!r})"


@dataclass(frozen=True)
class Choice:
    """The summarizer picked, and why a better one was not (``None`` when it is the one wanted)."""

    summarizer: Summarizer
    reason: str | None = None


def pi_model(request: dict) -> PiModel | None:
    """``request["model"]`` read as a :class:`PiModel`, or ``None`` when pi had no model."""
    raw = field(request, "model", dict)
    if raw is None:
        return None
    where = "request.model"
    return PiModel(
        provider=field(raw, "provider", str, where=where) or "",
        id=field(raw, "id", str, where=where, required=True),
        api=field(raw, "api", str, where=where) or "",
        base_url=field(raw, "baseUrl", str, where=where) or None,
        context_window=count(raw, "contextWindow", where=where) or None,
        api_key=field(raw, "apiKey", str, where=where) or None,
    )


def user_chooses_summarizer() -> bool:
    """The user's own settings name a summarizer (a project's never count)."""
    path = agent_dir() / "settings.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False  # load_settings has already refused a broken file; a missing one chooses nothing
    block = data.get("compaction") if isinstance(data, dict) else None
    return isinstance(block, dict) and block.get("summarizer") is not None


class Deadline:
    """A summarizer that starts no request once its share of the caller's deadline is spent.

    The extension kills pi-compact at its deadline; a chunked summary makes several requests, so without this
    a slow model would be killed mid-way and pi would fall back to its own compaction, where the offline
    summary was still possible. Raising :class:`SummarizerError` makes the pipeline write that one.
    """

    def __init__(self, inner: Summarizer, seconds: float) -> None:
        self.inner = inner
        self.name = inner.name
        self.context_window = inner.context_window
        self.seconds = seconds
        self._stop_at = time.monotonic() + seconds * NEW_CALLS_SHARE

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        if time.monotonic() >= self._stop_at:
            raise SummarizerError(f"out of time: {self.seconds:g} s deadline")
        return self.inner.summarize(request)


def choose(model: PiModel | None, settings: CompactionSettings, *, deadline: float | None = None) -> Choice:
    """The summarizer for this request; the offline one (with the reason) when no model can be called."""
    choice = _choose(model, settings, deadline * CALL_SHARE if deadline else SUMMARIZER_TIMEOUT)
    if deadline and choice.summarizer.name != "offline":
        return Choice(Deadline(choice.summarizer, deadline), choice.reason)
    return choice


def _choose(model: PiModel | None, settings: CompactionSettings, timeout: float) -> Choice:
    from ..llm import make_summarizer, summarizer_for

    try:
        if user_chooses_summarizer():
            return Choice(summarizer_for(settings, timeout=timeout))
        if model is None:
            return _offline("pi has no model selected")
        provider = DIALECTS.get(model.api)
        if provider is None:
            return _offline(f"pi's model {model.provider}/{model.id} speaks {model.api or 'an unknown API'}, "
                            f"which pi-compact cannot call (it calls {', '.join(DIALECTS)})")
        if model.api_key is None:
            # never fall back to a key from the environment: it would go to pi's base URL, which may be anyone's
            return _offline(f"pi has no API key for {model.provider}/{model.id}")
        window = settings.summarizer_window or model.context_window
        return Choice(make_summarizer(provider, model=model.id, base_url=model.base_url, api_key=model.api_key,
                                      timeout=timeout, context_window=window))
    except ProtocolError:
        raise
    except (PiCompactError, ImportError) as exc:
        return _offline(str(exc))


def _offline(reason: str) -> Choice:
    from ..compaction.offline import OfflineSummarizer

    return Choice(OfflineSummarizer(), reason)


__all__ = ["DIALECTS", "Choice", "Deadline", "PiModel", "choose", "pi_model", "user_chooses_summarizer"]
