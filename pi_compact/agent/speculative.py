"""Speculative compaction: the summary is written in the background before the threshold is crossed.

When the next request comes within :func:`margin` tokens of the compaction threshold, the region a
compaction would cut *now* is summarized in a background thread (nothing is written). When the threshold is
then crossed, the ready summary is committed at once, provided the region is unchanged: the path the
summary was made from is still the start of the current path, with no compaction since. The cut point stays
where it was, so the kept region is the old one plus whatever was added meanwhile. Then the pipeline runs
again on that pinned region with the background answers replayed (no request is sent); if the result does
not fit, the pipeline goes on to ``truncate``, as any compaction does. If anything differs (another branch,
a new compaction, another system prompt, a replay that misses), the normal path compacts as before.

Every compaction the agent starts aims at :data:`SETTLE_FRACTION` of the threshold, so the next turn does not
compact again (a known loop in pi's forks: a compaction leaving the context just under the threshold).
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
from dataclasses import dataclass, field

from ..compaction import CompactionEvent, CompactionResult, CompactionSettings, Summarizer
from ..compaction.compactor import compaction_lock_path
from ..compaction.pipeline import Plan, Planner
from ..compaction.prepare import CompactionPreparation, prepare_compaction
from ..compaction.summarizer import SummaryRequest, SummaryResult
from ..errors import PiCompactError, SummarizerError
from ..session import Session
from ..store.locks import try_exclusive

SETTLE_FRACTION = 0.8
"""A compaction leaves the context under this share of the threshold."""
MARGIN_SHARE, MARGIN_MIN, MARGIN_MAX = 0.125, 8_000, 32_000


def margin(threshold: int) -> int:
    """How far below the threshold the background summary starts: 12.5% of it, within 8k..32k tokens."""
    return min(MARGIN_MAX, max(MARGIN_MIN, int(threshold * MARGIN_SHARE)))


def settled_window(window: int, settings: CompactionSettings) -> int:
    """The window to hand the pipeline so that what it leaves is under 80% of ``window``'s threshold."""
    return math.ceil(settings.threshold(window) * SETTLE_FRACTION) - 1 + settings.reserve_tokens


def _key(request: SummaryRequest) -> tuple:
    return (request.kind, request.system, request.prompt, request.max_tokens, request.previous_summary,
            request.instructions)


class _Recording:
    """The real summarizer, its answers kept by request."""

    def __init__(self, inner: Summarizer) -> None:
        self.inner = inner
        self.name = inner.name
        self.context_window = inner.context_window
        self.answers: dict[tuple, SummaryResult] = {}

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        result = self.inner.summarize(request)
        self.answers[_key(request)] = result
        return result


class _Replaying:
    """The recorded answers again; a request that was not recorded is a miss (never sent anywhere)."""

    def __init__(self, recording: _Recording) -> None:
        self.name = recording.name
        self.context_window = recording.context_window
        self.answers = recording.answers
        self.missed = False

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        found = self.answers.get(_key(request))
        if found is None:
            self.missed = True
            raise SummarizerError("not prepared in the background")
        return found


@dataclass
class _Attempt:
    """One background summary: the path it was made from and what it produced."""

    path_ids: tuple[str, ...]
    prep: CompactionPreparation
    recording: _Recording
    fixed_tokens: int
    done: threading.Event = field(default_factory=threading.Event)
    failed: bool = False

    def run(self, settings: CompactionSettings, window: int) -> None:
        try:
            Planner(self.prep, settings, window=window, summarizer=self.recording, instructions=None,
                    fixed_tokens=self.fixed_tokens).plan()
        except Exception:  # a failed guess costs nothing: the normal path runs at the threshold
            self.failed = True
        finally:
            self.done.set()

    def matches(self, path: list[dict]) -> bool:
        """The summarized region is unchanged: our path starts the current one, and nothing compacted since."""
        ids = tuple(str(e.get("id")) for e in path[: len(self.path_ids)])
        return ids == self.path_ids and all(e.get("type") != "compaction" for e in path[len(self.path_ids):])


class Speculator:
    """Starts background summaries and commits them; ``preflight`` is the agent's :class:`PreFlight`."""

    def __init__(self, preflight) -> None:
        self.preflight = preflight
        self._attempt: _Attempt | None = None

    def state(self, session: Session) -> str:
        """``summarizing``, ``ready`` or ``""`` (nothing prepared for the current path)."""
        attempt = self._attempt
        if attempt is None or attempt.failed or not attempt.matches(session.branch()):
            return ""
        return "ready" if attempt.done.is_set() else "summarizing"

    def consider(self, session: Session) -> None:
        """Start a background summary when the next request is within the margin of the threshold."""
        pre = self.preflight
        summarizer = pre.summarizer
        if summarizer is None or summarizer.name == "offline" or pre.disabled_reason or not pre.settings.enabled:
            return  # the offline summary takes milliseconds: nothing to gain
        threshold = pre.settings.threshold(pre.window)
        tokens = pre.request_tokens(session).tokens
        if not threshold - margin(threshold) <= tokens <= threshold:
            return
        path = session.branch()
        if self._attempt is not None and not self._attempt.failed and self._attempt.matches(path):
            return
        prep = prepare_compaction(path, pre.settings)
        if prep is None or not prep.summarized_messages:
            return
        attempt = _Attempt(tuple(str(e.get("id")) for e in path), prep, _Recording(summarizer), pre.fixed_tokens)
        self._attempt = attempt
        window = settled_window(pre.window, pre.settings)
        threading.Thread(target=attempt.run, args=(pre.settings, window), name="pi-compact-speculation",
                         daemon=True).start()

    def commit(self, session: Session, reason: str) -> CompactionResult | None:
        """Write the prepared compaction if the region is unchanged; ``None``: take the normal path.

        A summary still being written is waited for (it started earlier than a new one would); Ctrl-C
        interrupts the wait as it would the normal compaction.
        """
        attempt, pre = self._attempt, self.preflight
        if attempt is None or not attempt.matches(session.branch()) or attempt.fixed_tokens != pre.fixed_tokens:
            return None
        if not attempt.done.is_set():
            pre.emit(CompactionEvent("compaction_progress", reason, stage="finishing the background summary"))
            while not attempt.done.wait(0.1):
                pass
        if attempt.failed:
            return None
        lock = compaction_lock_path(session)
        if lock is None:
            return self._write(session, attempt, reason)
        with try_exclusive(lock) as acquired:
            if not acquired or session.refresh():
                return None  # another process is compacting or wrote meanwhile: the normal path sorts it out
            return self._write(session, attempt, reason)

    def _write(self, session: Session, attempt: _Attempt, reason: str) -> CompactionResult | None:
        started = time.monotonic()
        pre = self.preflight
        path = session.branch()
        now = prepare_compaction(path, pre.settings)
        if now is None or not attempt.matches(path):
            return None
        prep = dataclasses.replace(attempt.prep, path=now.path, tokens_before=now.tokens_before,
                                   tokens_before_measured=now.tokens_before_measured)
        replay = _Replaying(attempt.recording)
        try:
            plan = Planner(prep, pre.settings, window=settled_window(pre.window, pre.settings), summarizer=replay,
                           instructions=None, fixed_tokens=pre.fixed_tokens).plan()
        except PiCompactError:
            return None
        if replay.missed or plan.messages_dropped:
            # a summary of the region as it was leaves everything since kept verbatim; when that no longer fits
            # (a small window fills in a turn or two), messages would be dropped that the normal path summarizes
            return None
        self._attempt = None
        pre.emit(CompactionEvent("compaction_start", reason, tokens_before=prep.tokens_before))
        result = _append(session, prep, plan, attempt.recording.name, time.monotonic() - started)
        pre.emit(CompactionEvent("compaction_done", reason, tokens_before=prep.tokens_before, result=result))
        return result


def _append(session: Session, prep: CompactionPreparation, plan: Plan, summarizer: str,
            duration: float) -> CompactionResult:
    """The one ``compaction`` entry, as :func:`~pi_compact.compaction.compact` writes it, marked speculative."""
    first_kept = prep.path[plan.first_kept_index]["id"] if plan.first_kept_index is not None else None
    entry_id = session.new_id()
    details = {
        **plan.files.details(),
        "strategy": plan.strategy,
        "summarizer": {"summarize": summarizer, "prune": "none"}.get(plan.body_strategy, "offline"),
        "tokensAfter": plan.tokens_after,
        "messagesSummarized": plan.messages_summarized,
        "messagesDropped": plan.messages_dropped,
        "speculative": True,
    }
    if plan.fallback_reason:
        details["fallbackReason"] = plan.fallback_reason
    entry = session.append_compaction(plan.summary, first_kept or entry_id, prep.tokens_before, details, False,
                                      entry_id=entry_id)
    return CompactionResult(
        entry=entry, strategy=plan.strategy, summary=plan.summary, first_kept_entry_id=first_kept or entry_id,
        tokens_before=prep.tokens_before, tokens_before_measured=prep.tokens_before_measured,
        tokens_after=plan.tokens_after, messages_summarized=plan.messages_summarized,
        messages_dropped=plan.messages_dropped, duration_s=duration, summarizer=details["summarizer"],
        summarizer_input_tokens=plan.summarizer_input_tokens, summarizer_output_tokens=plan.summarizer_output_tokens,
        fallback_reason=plan.fallback_reason, details=details,
    )


__all__ = ["SETTLE_FRACTION", "Speculator", "margin", "settled_window"]
