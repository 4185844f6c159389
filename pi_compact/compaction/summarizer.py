"""The one small protocol every summarizer implements, and the values that cross it.

Compaction and branch summaries build the prompt (system text + one user text) and hand it to a
:class:`Summarizer`; the summarizer only turns a prompt into text. Providers that talk to an LLM live in
``pi_compact.llm`` and import their SDK lazily; the offline summarizer needs no prompt at all and is called
through :class:`SummaryRequest.transcript` instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class SummaryRequest:
    """What a summarizer is asked to do."""

    system: str
    """System prompt (pi's summarization system prompt)."""
    prompt: str
    """The single user message: ``<conversation>…</conversation>``, previous summary, instructions."""
    max_tokens: int
    """Upper bound on the answer's length, in tokens."""
    kind: str = "compaction"
    """``compaction``, ``turn_prefix`` or ``branch``: lets scripted doubles and logs tell calls apart."""
    messages: tuple[dict, ...] = ()
    """The agent messages the prompt was made from (pi's message dicts, any role), oldest first.

    LLM providers ignore them; the offline summarizer builds its summary from them instead of the prompt.
    """
    previous_summary: str | None = None
    """The summary being updated (iterative compaction), also embedded in ``prompt``."""
    instructions: str | None = None
    """The user's extra focus (``/compact focus on the parser``), also embedded in ``prompt``."""
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SummaryResult:
    """A summarizer's answer."""

    text: str
    input_tokens: int = 0
    """Tokens the provider reported for the request (0 when unknown)."""
    output_tokens: int = 0
    model: str = ""


@runtime_checkable
class Summarizer(Protocol):
    """Turns a :class:`SummaryRequest` into a :class:`SummaryResult`, or raises ``SummarizerError``."""

    name: str
    """Short name shown to users and stored in ``details.summarizer``: ``offline``, ``anthropic``, ``openai``."""
    context_window: int
    """How many tokens the summarizer's own model accepts; larger inputs are folded in chunks."""

    def summarize(self, request: SummaryRequest) -> SummaryResult: ...
