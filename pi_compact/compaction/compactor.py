"""Running a compaction on a session: locking, events, the one entry written, and the automatic trigger.

``compact()`` is the manual ``/compact``; :class:`AutoCompactor` is what an agent calls before every model
request (``ensure_fits``), tool loops included. Only one compaction of a session runs at a time, across
processes too; the other caller is told it was skipped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import CompactionError, CompactionInProgressError, LeafMovedError, NothingToCompactError
from ..session import Session
from ..store.locks import try_exclusive
from .cut import entry_tokens
from .pipeline import SUMMARY_WRAPPER_TOKENS, Plan, Planner
from .prepare import prepare_compaction
from .recent import compaction_path
from .settings import CompactionSettings, should_compact
from .summarizer import Summarizer
from .tokens import ContextTokens, estimate_context_tokens

FAILURE_TYPE = "pi-compact/compaction-failed"


@dataclass(frozen=True)
class CompactionResult:
    """What a compaction did (``entry`` is ``None`` for a dry run)."""

    entry: dict | None
    strategy: str
    summary: str
    first_kept_entry_id: str
    tokens_before: int
    tokens_before_measured: bool
    tokens_after: int
    """Estimated size of the context the session now builds (plus the fixed part)."""
    messages_summarized: int
    messages_dropped: int
    duration_s: float
    summarizer: str
    summarizer_input_tokens: int
    summarizer_output_tokens: int
    fallback_reason: str | None
    details: dict

    def to_json(self, window: int | None = None) -> dict:
        """What ``pi-compact session compact --json`` prints: ``window`` is the one the result had to fit, if any."""
        return {
            "compacted": True,
            "dryRun": self.entry is None,
            "entryId": self.entry["id"] if self.entry else None,
            "strategy": self.strategy,
            "tokensBefore": self.tokens_before,
            "tokensBeforeMeasured": self.tokens_before_measured,
            "tokensAfter": self.tokens_after,
            "tokensAfterMeasured": False,
            "window": window,
            "messagesSummarized": self.messages_summarized,
            "messagesDropped": self.messages_dropped,
            "firstKeptEntryId": self.first_kept_entry_id,
            "summarizer": self.summarizer,
            "summarizerInputTokens": self.summarizer_input_tokens,
            "summarizerOutputTokens": self.summarizer_output_tokens,
            "fallbackReason": self.fallback_reason,
            "durationSeconds": round(self.duration_s, 4),
            "summary": self.summary,
            "details": self.details,
        }


@dataclass(frozen=True)
class CompactionEvent:
    """``compaction_start``, ``compaction_done``, ``compaction_failed`` or ``compaction_skipped``."""

    type: str
    reason: str
    tokens_before: int | None = None
    result: CompactionResult | None = None
    error: str | None = None
    stage: str | None = None


EventHandler = Callable[[CompactionEvent], None]


def compaction_lock_path(session: Session) -> Path | None:
    """The side file whose lock one running compaction (or tree navigation) of ``session`` holds.

    It exists only while held: :func:`try_exclusive` removes it on release, so session folders keep no
    ``.<name>.compact.lock`` files (listings look at ``*.jsonl`` files only, as pi's do).
    """
    return session.path.with_name(f".{session.path.name}.compact.lock") if session.path is not None else None


def compact(
    session: Session,
    *,
    window: int | None = None,
    settings: CompactionSettings | None = None,
    summarizer: Summarizer | None = None,
    instructions: str | None = None,
    reason: str = "manual",
    fixed_tokens: int = 0,
    dry_run: bool = False,
    on_event: EventHandler | None = None,
) -> CompactionResult:
    """Compact the session's current branch; raise :class:`CompactionInProgressError` if one is running."""
    lock = compaction_lock_path(session)
    if lock is None:
        return _compact_locked(session, window, settings, summarizer, instructions, reason, fixed_tokens, dry_run, on_event)
    with try_exclusive(lock) as acquired:
        if not acquired:
            _emit(on_event, CompactionEvent("compaction_skipped", reason, error="another compaction is running"))
            raise CompactionInProgressError("another compaction of this session is running; skipped")
        return _compact_locked(session, window, settings, summarizer, instructions, reason, fixed_tokens, dry_run, on_event)


def _compact_locked(session, window, settings, summarizer, instructions, reason, fixed_tokens, dry_run, on_event):
    from .offline import OfflineSummarizer

    settings = settings or CompactionSettings()
    summarizer = summarizer or OfflineSummarizer()
    _follow_other_writers(session, on_event, reason)
    prep = prepare_compaction(compaction_path(session), settings)
    if prep is None:
        raise NothingToCompactError("Already compacted" if session.leaf_id else "Nothing to compact (no messages yet)")
    _emit(on_event, CompactionEvent("compaction_start", reason, tokens_before=prep.tokens_before))
    started = time.monotonic()
    progress = lambda stage: _emit(on_event, CompactionEvent("compaction_progress", reason, stage=stage))
    try:
        plan = Planner(prep, settings, window=window, summarizer=summarizer, instructions=instructions,
                       fixed_tokens=fixed_tokens, progress=progress, cwd=session.cwd).plan()
        result = None
        if plan.messages_summarized or plan.messages_dropped or _over_threshold(prep, window, settings, fixed_tokens):
            result = _write(session, prep, plan, summarizer, time.monotonic() - started, dry_run)
    except LeafMovedError as exc:
        # Not a failure to record: an entry on the old branch would move the leaf back there just the same.
        _emit(on_event, CompactionEvent("compaction_skipped", reason, tokens_before=prep.tokens_before, error=str(exc)))
        raise
    except Exception as exc:
        _record_failure(session, reason, exc, dry_run)
        _emit(on_event, CompactionEvent("compaction_failed", reason, tokens_before=prep.tokens_before, error=str(exc)))
        raise
    if result is None:
        # A refusal, like "Already compacted": nothing failed, so nothing is recorded in the file.
        message = "Nothing to compact: the whole conversation fits in keepRecentTokens"
        if window is not None:
            message += " and the context fits the window"
        _emit(on_event, CompactionEvent("compaction_skipped", reason, tokens_before=prep.tokens_before, error=message))
        raise NothingToCompactError(message)
    _emit(on_event, CompactionEvent("compaction_done", reason, tokens_before=prep.tokens_before, result=result))
    return result


def _over_threshold(prep, window: int | None, settings: CompactionSettings, fixed_tokens: int) -> bool:
    """The context is too big for the window now, so a compaction that summarizes nothing new is still worth
    writing: it re-composes the summary (no stale dropped note or quoted request) and drops what must go."""
    # the context opens with the previous summary inside pi's wrapper text, which the model is sent too
    wrapper = SUMMARY_WRAPPER_TOKENS if prep.previous_summary is not None else 0
    return window is not None and prep.tokens_before + wrapper + fixed_tokens > settings.threshold(window)


def _follow_other_writers(session: Session, on_event, reason: str) -> None:
    """Before planning, read what other writers appended since we last looked. Entries that extend our leaf
    are followed (the plan then covers them: an acknowledged message stays on the path); a compaction among
    them is adopted instead of compacting again; entries on another branch refuse the compaction
    (:class:`LeafMovedError`), which would otherwise pull the leaf back to ours."""
    appended = session.refresh()
    followed = _extension(session.leaf_id, appended)
    compactions = [entry for entry in followed if entry.get("type") == "compaction"]
    if followed:
        session.move_leaf(followed[-1]["id"])
    if compactions:
        _emit(on_event, CompactionEvent("compaction_skipped", reason, error="compacted by another process"))
        raise CompactionInProgressError("this branch was just compacted by another process; skipped")
    _refuse_if_leaf_moved(appended, followed, on_event, reason)


def _extension(leaf_id: str | None, appended: list[dict]) -> list[dict]:
    """The entries of ``appended`` (file order) that continue the chain below ``leaf_id``, in order; where the
    chain forks, the newest child is followed, as the file's last line is pi's leaf."""
    chain, followed = {leaf_id}, []
    for entry in appended:
        if entry.get("parentId") in chain and entry.get("id") not in chain:
            chain.add(entry["id"])
            followed.append(entry)
    if followed:
        tip = followed[-1]
        path = {tip["id"]}
        by_id = {entry["id"]: entry for entry in followed}
        parent = tip.get("parentId")
        while parent in by_id:
            path.add(parent)
            parent = by_id[parent].get("parentId")
        followed = [entry for entry in followed if entry["id"] in path]
    return followed


def _refuse_if_leaf_moved(appended: list[dict], followed: list[dict], on_event=None, reason: str = "") -> None:
    """Another writer's newest entry is off our chain: it went on elsewhere, and the session's leaf with it."""
    if appended and (not followed or appended[-1] is not followed[-1]):
        moved = appended[-1].get("id")
        if on_event is not None:
            _emit(on_event, CompactionEvent("compaction_skipped", reason, error=f"another writer moved to {moved}"))
        raise LeafMovedError(
            f"another writer went on at entry {moved}, on another branch, while this compaction ran; nothing "
            "was written (compact again on the branch you want)"
        )


def _write(session: Session, prep, plan: Plan, summarizer, duration: float, dry_run: bool) -> CompactionResult:
    entry_id = session.new_id()
    first_kept = prep.path[plan.first_kept_index]["id"] if plan.first_kept_index is not None else entry_id
    details = {
        **plan.files.details(),
        "strategy": plan.strategy,
        "summarizer": {"summarize": summarizer.name, "prune": "none"}.get(plan.body_strategy, "offline"),
        "tokensAfter": plan.tokens_after,
        "messagesSummarized": plan.messages_summarized,
        "messagesDropped": plan.messages_dropped,
    }
    if plan.fallback_reason:
        details["fallbackReason"] = plan.fallback_reason
    entry = None
    if not dry_run:
        fields = {"summary": plan.summary, "firstKeptEntryId": first_kept, "tokensBefore": prep.tokens_before,
                  "details": details, "fromHook": False}
        entry = session.append("compaction", fields, entry_id=entry_id, on_locked=_follow_concurrent_appends)
        first_kept = entry["firstKeptEntryId"]
    return CompactionResult(
        entry=entry,
        strategy=plan.strategy,
        summary=plan.summary,
        first_kept_entry_id=first_kept,
        tokens_before=prep.tokens_before,
        tokens_before_measured=prep.tokens_before_measured,
        tokens_after=details["tokensAfter"],
        messages_summarized=plan.messages_summarized,
        messages_dropped=plan.messages_dropped,
        duration_s=duration,
        summarizer=details["summarizer"],
        summarizer_input_tokens=plan.summarizer_input_tokens,
        summarizer_output_tokens=plan.summarizer_output_tokens,
        fallback_reason=plan.fallback_reason,
        details=details,
    )


def _follow_concurrent_appends(entry: dict, appended: list[dict]) -> None:
    """Under the file's lock, just before the compaction is written: another process (pi, a second chat)
    may have appended below the leaf it was planned from while the summarizer ran. The compaction then goes
    after the newest of those entries, which stay in the kept region: nothing acknowledged leaves the context.
    If instead the newest entry is on another branch, nothing is written (:class:`LeafMovedError`).
    """
    followed = _extension(entry["parentId"], appended)
    _refuse_if_leaf_moved(appended, followed)
    if not followed:
        return
    entry["parentId"] = followed[-1]["id"]
    if entry["firstKeptEntryId"] == entry["id"]:  # nothing was to be kept: keep what arrived meanwhile
        entry["firstKeptEntryId"] = followed[0]["id"]
    details = entry["details"]
    details["tokensAfter"] += sum(entry_tokens(other) for other in followed)
    details["appendedMeanwhile"] = len(followed)


def _record_failure(session: Session, reason: str, exc: Exception, dry_run: bool) -> None:
    """One ``custom`` entry (pi leaves it out of the context) so a failing compaction is visible in the file."""
    if dry_run or session.leaf_id is None:
        return
    try:
        session.append_custom(FAILURE_TYPE, {"reason": reason, "error": str(exc), "kind": type(exc).__name__})
    except Exception:
        pass  # the original error is the one worth reporting


def _emit(handler: EventHandler | None, event: CompactionEvent) -> None:
    if handler is not None:
        handler(event)


@dataclass
class AutoCompactor:
    """The pre-flight an agent runs before every model request: compact when over the threshold.

    Stops (and says why in :attr:`disabled_reason`) after two compactions in a row that could not bring the
    context under the threshold, instead of compacting on every request.
    """

    window: int
    settings: CompactionSettings = field(default_factory=CompactionSettings)
    summarizer: Summarizer | None = None
    fixed_tokens: int = 0
    on_event: EventHandler | None = None
    disabled_reason: str | None = None
    _failures: int = 0

    def context_tokens(self, session: Session) -> ContextTokens:
        return estimate_context_tokens(session.build_context().messages)

    def request_tokens(self, session: Session) -> ContextTokens:
        """The size of the next request: the context plus the fixed part (system prompt, tool schemas).

        Usage reported by the provider already includes the fixed part, so it is added to estimates only.
        """
        found = self.context_tokens(session)
        if found.measured:
            return found
        return ContextTokens(found.tokens + self.fixed_tokens, 0, found.trailing_tokens + self.fixed_tokens, None)

    def needs_compaction(self, session: Session) -> bool:
        tokens = self.request_tokens(session).tokens
        return self.disabled_reason is None and should_compact(tokens, self.window, self.settings)

    def ensure_fits(self, session: Session, *, reason: str = "threshold") -> CompactionResult | None:
        """Compact if needed; ``None`` when nothing was done (fits, disabled, or another process is at it)."""
        if not self.needs_compaction(session):
            return None
        result = self.prepared(session, reason)
        if result is None:
            try:
                result = compact(session, window=self.compaction_window(), settings=self.settings,
                                 summarizer=self.summarizer, reason=reason, fixed_tokens=self.fixed_tokens,
                                 on_event=self.on_event)
            except CompactionInProgressError:
                return None
            except CompactionError as exc:
                self._failed(str(exc))
                return None
        if result.tokens_after > self.settings.threshold(self.window):
            self._failed(f"context still {result.tokens_after:,} tokens after compaction")
        else:
            self._failures = 0
        return result

    def prepared(self, session: Session, reason: str) -> CompactionResult | None:
        """A compaction made ahead of time and committed now; ``None`` to compact here (subclasses that
        summarize in the background override it)."""
        return None

    def compaction_window(self) -> int:
        """The window a compaction sizes its result for (a subclass may leave room below the threshold)."""
        return self.window

    def _failed(self, why: str) -> None:
        self._failures += 1
        if self._failures >= 2:
            self.disabled_reason = f"auto-compaction stopped after two attempts that did not fit: {why}"


def ensure_fits(session: Session, window: int, **options) -> CompactionResult | None:
    """One-shot :meth:`AutoCompactor.ensure_fits` (no anti-thrash memory between calls)."""
    return AutoCompactor(window=window, **options).ensure_fits(session)
