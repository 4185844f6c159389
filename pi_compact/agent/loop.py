"""The agent loop, independent of any terminal: prompt → (compact if needed) → model → tools → model → …

Every model request, the first of a turn and each one inside a tool loop, is preceded by the same pre-flight:
the system prompt is rebuilt with the project's rules read fresh from disk, the context is built from the
session, and when it is over the compaction threshold it is compacted first. A request the provider still
rejects as too long is compacted and retried once. Near the threshold the summary is prepared in the
background (:mod:`.speculative`), so crossing it costs no wait; every compaction leaves the context under
80% of the threshold, so the next request does not compact again. Everything the turn produces is appended to the session
as it happens (the user message before the request, each assistant message, each tool result), so an
interrupted turn loses nothing that was already written: Ctrl-C (``KeyboardInterrupt``) ends the turn,
storing the partial reply as ``aborted`` and a cancelled tool's output as its (error) result. Appends
themselves are never torn by Ctrl-C: the interrupt is held back until the line is written.

What happens is reported through ``on_event`` as :class:`AgentEvent` values, for a UI to draw.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from ..compaction import AutoCompactor, CompactionEvent, CompactionResult, CompactionSettings, Summarizer, compact
from ..compaction.pipeline import SUMMARY_WRAPPER_TOKENS
from ..compaction.tokens import ContextTokens, estimate_context_tokens, estimate_tokens, text_tokens
from ..errors import CompactionError, CompactionInProgressError, NothingToCompactError, UsageError
from ..llm.overflow import is_context_overflow
from ..session import Session
from ..store.jsonl import now_ms
from .prompt import RulesFile, system_prompt
from .providers import DEFAULT_MAX_TOKENS, THINKING_LEVELS, ModelRequest, Provider, context_window
from .shell import bash_execution_message, held_interrupts, run_bash
from .speculative import Speculator, settled_window
from .tools import Toolbox, ToolOutcome, output_limit, tool_result

DEFAULT_THINKING = "off"
MIN_ANSWER_TOKENS = 256
"""The least ``max_tokens`` a request asks for, whatever the reserve (``--reserve 0`` still gets an answer)."""
OVERFLOW_FAILED = ("Context overflow recovery failed after one compact-and-retry attempt. "
                   "Try reducing context or switching to a larger-context model.")
"""pi's words when the retried request overflows again."""
SKIPPED_TEXT = "Skipped: the user cancelled the turn before this tool ran."


@dataclass(frozen=True)
class AgentEvent:
    """Something a UI may want to show. ``kind`` is one of:

    ``request`` (a model request is being sent; ``tokens`` is the context size), ``text`` / ``thinking``
    (a streamed delta in ``text``), ``tool_call`` (the model started a call to tool ``text``),
    ``assistant`` (an assistant ``message`` was stored), ``tool_start`` / ``tool_end`` (a ``call`` runs; its
    result ``message`` was stored), ``compaction`` (a :class:`CompactionEvent` in ``compaction``),
    ``notice`` (``text`` for the user; ``level`` is ``info``, ``warning`` or ``error``).
    """

    kind: str
    text: str = ""
    message: dict | None = None
    call: dict | None = None
    compaction: CompactionEvent | None = None
    level: str = "info"
    tokens: int = 0


@dataclass(frozen=True)
class TurnResult:
    """How a turn ended: ``stop``, ``length``, ``error``, ``aborted`` (Ctrl-C or a cancelled compaction)."""

    stop_reason: str
    requests: int
    error: str | None = None


@dataclass(frozen=True)
class ContextSize:
    """How full the window is: the next request's size as the pre-flight sees it."""

    tokens: int
    window: int
    threshold: int
    measured: bool
    """Part of the figure is the provider's own count (the last reply's usage)."""
    speculation: str = ""
    """``summarizing`` or ``ready`` while a compaction is prepared in the background, else empty."""

    @property
    def fraction(self) -> float:
        return self.tokens / self.window if self.window else 0.0


class PreFlight(AutoCompactor):
    """:class:`AutoCompactor` that reports the size it judged (for the token bar), commits a summary prepared
    in the background when it can, and compacts to under 80% of the threshold."""

    speculator: Speculator | None = None

    def context_tokens(self, session: Session) -> ContextTokens:
        """pi's figure (the last reported usage plus estimates after it), but never below the estimate of the
        whole request: a server that counts fewer tokens than the estimator (a local one, a fake) must not let
        a request past the window as the estimator sees it, the bound every other part of compaction works to."""
        messages = session.build_context().messages
        found = estimate_context_tokens(messages)
        if not found.measured:
            return found
        estimated = sum(map(estimate_tokens, messages))
        if found.tokens >= estimated + self.fixed_tokens:
            return found
        return ContextTokens(estimated, 0, estimated, None)

    def size(self, session: Session) -> ContextSize:
        found = self.request_tokens(session)
        state = self.speculator.state(session) if self.speculator is not None else ""
        return ContextSize(found.tokens, self.window, self.settings.threshold(self.window), found.measured, state)

    def settled_window(self) -> int:
        return settled_window(self.window, self.settings)

    def emit(self, event: CompactionEvent) -> None:
        if self.on_event is not None:
            self.on_event(event)

    def prepared(self, session: Session, reason: str) -> CompactionResult | None:
        return self.speculator.commit(session, reason) if self.speculator is not None else None

    def compaction_window(self) -> int:
        return self.settled_window()


RECALL_NOTE = ("(The full conversation before this summary is still stored: use the recall tool to look up exact "
               "details the summary left out, such as error messages, command output or file contents.)")
"""Added to the compaction summary in each request (not in the file: pi reads the same context from it)."""


def _with_recall_note(message: dict) -> dict:
    if message.get("role") != "compactionSummary" or not isinstance(message.get("summary"), str):
        return message
    return {**message, "summary": f"{message['summary']}\n\n{RECALL_NOTE}"}


@contextmanager
def deferred_interrupt() -> Iterator[None]:
    """Hold Ctrl-C back until the block is done (a session line is written whole), then raise it."""
    with held_interrupts() as received:
        yield
    if received:
        raise KeyboardInterrupt


@dataclass
class Agent:
    """A coding agent working on one session, in one directory, through one provider."""

    session: Session
    provider: Provider
    cwd: str
    window: int | None = None
    """Context window in tokens; ``None``: the model's own (as far as known)."""
    settings: CompactionSettings = field(default_factory=CompactionSettings)
    summarizer: Summarizer | None = None
    """A :class:`~pi_compact.compaction.Summarizer` for compactions; ``None``: the offline one."""
    toolbox: Toolbox | None = None
    thinking_level: str | None = None
    """``None``: the level stored on the session's branch, else ``off``."""
    on_event: Callable[[AgentEvent], None] | None = None
    max_tokens: int = DEFAULT_MAX_TOKENS
    home: Path | None = None
    """Agent directory for the global rules file (default: pi's, honouring ``PI_CODING_AGENT_DIR``)."""
    rules: list[RulesFile] = field(default_factory=list)
    """The rules files the last system prompt included."""
    speculate: bool = False
    """Prepare compaction summaries in the background near the threshold (``pi-compact chat`` does)."""
    recall: bool = False
    """Offer the ``recall`` tool, and say so in the compaction summary the model is sent."""
    fit_settings: Callable[[int], CompactionSettings] | None = None
    """The settings for a window, asked again whenever the window changes (``/model``): ``pi-compact chat``
    scales the reserve and the kept tail to it. ``None``: :attr:`settings` as given, for every window."""
    _begun: bool = field(default=False, init=False, repr=False)
    _fitted: bool = field(default=False, init=False, repr=False)
    _told_disabled: str | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.toolbox = self.toolbox or Toolbox(self.cwd)
        if self.recall:
            self.toolbox.enable_recall(lambda: self.session)
        stored = self.session.build_context().thinking_level
        if self.thinking_level is None:
            self.thinking_level = stored if stored in THINKING_LEVELS else DEFAULT_THINKING
        self._check_level(self.thinking_level)
        self.preflight = PreFlight(self.current_window(), self.settings, self.summarizer,
                                   on_event=self._compaction_event)
        self._fit_window()
        if self.speculate:
            self.preflight.speculator = Speculator(self.preflight)

    # -- state ---------------------------------------------------------------------------------------------

    def current_window(self) -> int:
        return self.window or context_window(self.provider.name, self.provider.model)

    def _fit_window(self) -> None:
        """Size the pre-flight, the settings and the tools' output limit for the current window."""
        window = self.current_window()
        if self.fit_settings is not None and (window != self.preflight.window or not self._fitted):
            self.settings = self.fit_settings(window)
            self.preflight.settings = self.settings
            self._fitted = True
        self.preflight.window = window
        self.toolbox.max_bytes = output_limit(window)

    def answer_tokens(self) -> int:
        """``max_tokens`` of a request: the answer must fit the room the reserve leaves, so a request never asks
        for more than the window holds (a local server refuses one whose prompt plus answer exceed it)."""
        return min(self.max_tokens, max(self.settings.reserve_tokens, MIN_ANSWER_TOKENS))

    def begin(self) -> None:
        """Record the model and thinking level as pi does when a session starts (once, before the first write).

        A new session gets a ``model_change`` then a ``thinking_level_change``; a resumed one gets a
        ``model_change`` if its model differs, and a ``thinking_level_change`` if its branch has none or
        another level.
        """
        if self._begun:
            return
        self._begun = True
        stored = self.session.build_context()
        if stored.model != {"provider": self.provider.name, "modelId": self.provider.model}:
            self._write(lambda: self.session.append_model_change(self.provider.name, self.provider.model))
        has_level = any(e.get("type") == "thinking_level_change" for e in self.session.branch())
        if not has_level or stored.thinking_level != self.thinking_level:
            self._write(lambda: self.session.append_thinking_level_change(self.thinking_level))

    def set_provider(self, provider: Provider) -> None:
        """Switch model (a ``model_change`` entry, as pi's ``setModel``)."""
        self.begin()
        self.provider = provider
        self._fit_window()
        self._write(lambda: self.session.append_model_change(provider.name, provider.model))

    def set_thinking_level(self, level: str) -> bool:
        """Change the thinking level; an entry is written only when it actually changes (pi). True if it did."""
        self._check_level(level)
        self.begin()
        if level == self.thinking_level:
            return False
        self.thinking_level = level
        self._write(lambda: self.session.append_thinking_level_change(level))
        return True

    @staticmethod
    def _check_level(level: object) -> None:
        if level not in THINKING_LEVELS:
            raise UsageError(f"unknown thinking level {level!r}: use one of {', '.join(THINKING_LEVELS)}")

    def context_size(self) -> ContextSize:
        self._refresh_system()
        return self.preflight.size(self.session)

    def compactions(self) -> int:
        """Compaction entries in the session file (every branch); read from the index, nothing parsed."""
        return self.session.count_type("compaction")

    def request(self) -> ModelRequest:
        """The request the next model call would send (after any compaction), as the provider gets it."""
        system = self._refresh_system()
        messages = self.session.build_context().messages
        if self.recall:
            messages = [_with_recall_note(m) for m in messages]
        return ModelRequest(system, messages, self.toolbox.specs, self.thinking_level, self.answer_tokens())

    def _refresh_system(self) -> str:
        system, self.rules = system_prompt(self.cwd, self.toolbox.specs, home=self.home)
        tools = orjson.dumps([[t.name, t.description, t.parameters] for t in self.toolbox.specs]).decode()
        # the text a request adds around a compaction summary (pi's wrapper, the recall note) is no message's
        # own: counted here, or a context at the threshold would be sent a few dozen tokens over it
        wrapping = SUMMARY_WRAPPER_TOKENS + (text_tokens(RECALL_NOTE) if self.recall else 0)
        self.preflight.fixed_tokens = text_tokens(system) + text_tokens(tools) + wrapping
        self._fit_window()
        return system

    # -- user actions ----------------------------------------------------------------------------------------

    def prompt(self, text: str) -> TurnResult:
        """Append a user message and run the turn to its end."""
        self.begin()
        message = {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": now_ms()}
        self._append(message)
        return self.run()

    def run_bash(self, command: str, *, exclude_from_context: bool = False) -> dict:
        """The user's ``!cmd`` (``!!cmd``: kept out of the context): run it, store a ``bashExecution``."""
        self.begin()
        run = run_bash(command, self.cwd, max_bytes=self.toolbox.max_bytes)
        message = bash_execution_message(run, exclude_from_context=exclude_from_context)
        self._append(message)
        self.speculate_now()
        return message

    def compact(self, instructions: str | None = None) -> CompactionResult:
        """The manual ``/compact``: compact the current branch now (pi refuses with fewer than 2 messages)."""
        if self.session.count_type("message") < 2:
            raise NothingToCompactError("Nothing to compact (no messages yet)")
        self.begin()
        self._refresh_system()
        return compact(self.session, window=self.preflight.settled_window(), settings=self.settings,
                       summarizer=self.summarizer, instructions=instructions or None, reason="manual",
                       fixed_tokens=self.preflight.fixed_tokens, on_event=self._compaction_event)

    # -- the loop ------------------------------------------------------------------------------------------------

    def run(self) -> TurnResult:
        """Request, run tools, request again, … until the model stops, fails, or the user cancels."""
        result = self._turn()
        self.speculate_now()  # the user reads and types meanwhile: time the background summary can use
        return result

    def _turn(self) -> TurnResult:
        requests, overflow_retried = 0, False
        try:
            while True:
                if not self._preflight():
                    return TurnResult("aborted", requests)
                message = self._stream()
                requests += 1
                if message["stopReason"] == "error":
                    error = str(message.get("errorMessage") or "")
                    if is_context_overflow(error):
                        if not overflow_retried and self._recover_overflow():
                            overflow_retried = True
                            continue
                        if overflow_retried:
                            self._notice(OVERFLOW_FAILED, "error")
                    return TurnResult("error", requests, error)
                if message["stopReason"] == "aborted":
                    return TurnResult("aborted", requests)
                calls = [b for b in message["content"] if b.get("type") == "toolCall"]
                if not calls:
                    return TurnResult(message["stopReason"], requests)
                if not self._run_tools(calls):
                    return TurnResult("aborted", requests)
        except KeyboardInterrupt:
            self._notice("Cancelled.", "warning")
            return TurnResult("aborted", requests)

    def _preflight(self) -> bool:
        """Compact when over the threshold; False when the user cancelled the compaction."""
        self._refresh_system()
        try:
            self.preflight.ensure_fits(self.session)
        except KeyboardInterrupt:
            self._notice("Compaction cancelled; nothing was written. The request was not sent.", "warning")
            return False
        reason = self.preflight.disabled_reason
        if reason and reason != self._told_disabled:
            self._told_disabled = reason
            self._notice(reason, "warning")
        self.speculate_now()
        return True

    def speculate_now(self) -> None:
        """Start the background summary if the context is near the threshold (a no-op unless ``speculate``)."""
        if self.preflight.speculator is not None:
            self.preflight.speculator.consider(self.session)

    def _stream(self) -> dict:
        request = self.request()
        self._emit(AgentEvent("request", tokens=self.preflight.size(self.session).tokens))
        stream = self.provider.stream(request)
        try:
            for delta in stream:
                self._emit(AgentEvent("tool_call" if delta.kind == "tool" else delta.kind, text=delta.text))
        except KeyboardInterrupt:
            stream.abort()
        message = stream.message()
        self._append(message)
        self._emit(AgentEvent("assistant", message=message))
        return message

    def _recover_overflow(self) -> bool:
        """pi's overflow case: compact (whatever the threshold says) so the retried request fits."""
        self._notice("The provider says the context is too long: compacting, then retrying once.", "warning")
        try:
            compact(self.session, window=self.preflight.settled_window(), settings=self.settings,
                    summarizer=self.summarizer, reason="overflow", fixed_tokens=self.preflight.fixed_tokens, on_event=self._compaction_event)
        except (CompactionError, CompactionInProgressError) as exc:
            self._notice(f"Context overflow recovery failed: {exc}", "error")
            return False
        return True

    def _run_tools(self, calls: list[dict]) -> bool:
        """Run the calls in order, storing each result; False when the user cancelled one."""
        for index, call in enumerate(calls):
            self._emit(AgentEvent("tool_start", call=call))
            try:
                result, cancelled = self.toolbox.run(call)
            except KeyboardInterrupt:
                result, cancelled = tool_result(call, ToolOutcome("Cancelled by the user.", is_error=True)), True
            try:
                self._append(result)
            except KeyboardInterrupt:  # held back while the result was written; the rest is skipped
                cancelled = True
            self._emit(AgentEvent("tool_end", call=call, message=result))
            if cancelled:
                with deferred_interrupt():
                    for skipped in calls[index + 1 :]:
                        self.session.append_message(tool_result(skipped, ToolOutcome(SKIPPED_TEXT, is_error=True)))
                self._notice("Cancelled.", "warning")
                return False
        return True

    # -- plumbing ----------------------------------------------------------------------------------------------

    def _write(self, append: Callable[[], dict]) -> dict:
        with deferred_interrupt():
            return append()

    def _append(self, message: dict) -> dict:
        with deferred_interrupt():
            return self.session.append_message(message)

    def _compaction_event(self, event: CompactionEvent) -> None:
        self._emit(AgentEvent("compaction", compaction=event))

    def _notice(self, text: str, level: str = "info") -> None:
        self._emit(AgentEvent("notice", text=text, level=level))

    def _emit(self, event: AgentEvent) -> None:
        if self.on_event is not None:
            self.on_event(event)


__all__ = ["Agent", "AgentEvent", "ContextSize", "PreFlight", "TurnResult", "deferred_interrupt"]
