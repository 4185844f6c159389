"""Replaying a recorded session through the compaction pipeline, and scoring what each compaction kept.

A replay re-appends the active path of a recorded session, entry by entry, into a new session (in memory, or
a new file: the source is only read) and, before every model request (before each assistant message, tool
loops included), runs the same :class:`~pi_compact.compaction.compactor.AutoCompactor` pre-flight a live
agent runs. It records the size of every request, every compaction, and a *retention score*: of the facts in
the part of the context a compaction removed (files, commands, errors, the user's constraints and
identifiers, as :func:`~pi_compact.compaction.offline.facts.extract_facts` finds them), the share still present,
verbatim, in the context that replaced it. Retention cannot see a summary that keeps every string and gets the
state wrong, so each compaction also gets a :class:`~pi_compact.evaluation.quality.Quality` score: of the whole
region compacted so far (every message any compaction has replaced, up to this cut) against the summary
stored — precision, staleness, open-vs-resolved errors and length.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..accessors import content_text, json_strings
from ..compaction.compactor import AutoCompactor, CompactionEvent, CompactionResult
from ..compaction.offline.facts import Facts, extract_facts
from .quality import NO_QUALITY, Quality, RegionIndex, score_quality
from ..compaction.settings import CompactionSettings
from ..compaction.summarizer import Summarizer
from ..context import NOTHING, entry_to_message
from ..compaction.tokens import ContextTokens, estimate_context_tokens, estimate_tokens, text_tokens
from ..errors import UsageError
from ..session import Session

CATEGORIES: tuple[str, ...] = ("read_files", "modified_files", "commands", "errors", "constraints", "identifiers")
"""The kinds of fact the retention score counts, in the order reports show them."""

_SKIPPED_TYPES = frozenset({"compaction"})
"""The source's own compactions: the replay makes its own."""
_ENVELOPE = ("type", "id", "parentId", "timestamp")


# -- retention --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """How many facts of one kind there were, and how many were found again."""

    found: int = 0
    total: int = 0
    missing: tuple[str, ...] = ()
    """The facts that were not found, in order of first appearance."""

    @property
    def fraction(self) -> float | None:
        """``found / total``, or ``None`` when there was nothing to find."""
        return self.found / self.total if self.total else None

    def __add__(self, other: "Score") -> "Score":
        return Score(self.found + other.found, self.total + other.total, self.missing + other.missing)

    def to_json(self) -> dict:
        return {"found": self.found, "total": self.total, "fraction": self.fraction, "missing": list(self.missing)}


@dataclass(frozen=True)
class Retention:
    """A :class:`Score` per category (keys: :data:`CATEGORIES`)."""

    scores: dict[str, Score] = field(default_factory=lambda: {name: Score() for name in CATEGORIES})

    @property
    def overall(self) -> Score:
        return sum(self.scores.values(), Score())

    @property
    def files(self) -> Score:
        """Read and modified files together (the benchmark's "file paths")."""
        return self.scores["read_files"] + self.scores["modified_files"]

    def __add__(self, other: "Retention") -> "Retention":
        return Retention({name: self.scores[name] + other.scores[name] for name in CATEGORIES})

    def to_json(self) -> dict:
        categories = {_camel(name): self.scores[name].to_json() for name in CATEGORIES}  # readFiles, as pi's details
        return {**categories, "files": self.files.to_json(), "overall": self.overall.to_json()}


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part.title() for part in rest)


def fact_lists(facts: Facts) -> dict[str, tuple[str, ...]]:
    """The facts of each category as the strings searched for."""
    return {
        "read_files": facts.read_files,
        "modified_files": facts.modified_files,
        "commands": tuple(dict.fromkeys(c.command for c in facts.commands)),
        "errors": facts.errors,
        # a constraint cut to its length limit ends in "…", which the context never contains
        "constraints": tuple(c[:-1] if c.endswith("…") else c for c in facts.constraints),
        "identifiers": facts.identifiers,
    }


def score_retention(removed: Sequence[dict], context_after: Sequence[dict]) -> Retention:
    """The facts of ``removed`` and which of them occur (case-sensitively) in the text of ``context_after``."""
    haystack = context_text(context_after)
    # the summary a compaction replaced holds no fact the facts read, and without it the list is the one the
    # compaction just summarized, whose facts are kept (extract_facts): a replay reads each region's facts once
    summarized = [m for m in removed if not (isinstance(m, dict) and m.get("role") == "compactionSummary")]
    scores = {}
    for name, wanted in fact_lists(extract_facts(summarized)).items():
        missing = tuple(fact for fact in wanted if fact not in haystack)
        scores[name] = Score(len(wanted) - len(missing), len(wanted), missing)
    return Retention(scores)


def removed_messages(before: Sequence[Any], after: Sequence[Any]) -> list[dict]:
    """The messages of ``before`` that ``after`` no longer holds (compared as JSON values, repeats counted)."""
    remaining = Counter(_key(m) for m in after)
    removed = []
    for message in before:
        key = _key(message)
        if remaining[key] > 0:
            remaining[key] -= 1
        elif isinstance(message, dict):
            removed.append(message)
    return removed


def _key(message: Any) -> bytes:
    return orjson.dumps(message, option=orjson.OPT_SORT_KEYS, default=str)


def context_text(messages: Sequence[Any]) -> str:
    """Everything a model reads in ``messages``, as plain text (tool-call arguments unescaped)."""
    return "\n".join(_texts(messages))


def _texts(messages: Sequence[Any]) -> Iterator[str]:
    # More than content_text: an assistant's thinking and tool calls are read by the model too, and the
    # facts a replay looks for (paths, commands) are often only in a tool call's arguments.
    for message in messages:
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role in ("compactionSummary", "branchSummary"):
            yield _str(message.get("summary"))
        elif role in ("user", "custom", "toolResult"):
            yield content_text(message.get("content"))
        elif role == "bashExecution":
            yield _str(message.get("command"))
            yield _str(message.get("output"))
        elif role == "assistant" and isinstance(message.get("content"), list):
            for block in message["content"]:
                yield from _block_texts(block)


def _block_texts(block: Any) -> Iterator[str]:
    if not isinstance(block, dict):
        return
    kind = block.get("type")
    if kind == "text":
        yield _str(block.get("text"))
    elif kind == "thinking":
        yield _str(block.get("thinking"))
    elif kind == "toolCall":
        yield _str(block.get("name"))
        yield from json_strings(block.get("arguments"))


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


# -- the report -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RequestPoint:
    """One model request of the replay: the context it sent."""

    message_index: int
    """Position of the assistant message it produced among the replayed messages (0-based)."""
    tokens: int
    """Estimated size of the context sent."""
    compacted: bool
    """True when a compaction ran just before this request."""
    uncompacted_tokens: int = 0
    """Estimated size of the context had nothing been compacted: every message so far (the plot's baseline)."""


@dataclass(frozen=True)
class ReplayCompaction:
    """One compaction the replay triggered."""

    message_index: int
    """The request it ran before (see :attr:`RequestPoint.message_index`)."""
    entry_id: str
    strategy: str
    tokens_before: int
    """Estimated context size before (the request that would have been sent)."""
    tokens_after: int
    """Estimated context size after (the request actually sent)."""
    summary_tokens: int
    messages_summarized: int
    messages_dropped: int
    duration_s: float
    summarizer: str
    summarizer_input_tokens: int
    summarizer_output_tokens: int
    fallback_reason: str | None
    retention: Retention
    quality: Quality = NO_QUALITY
    """The stored summary against every message compacted so far (see the module docstring)."""

    def to_json(self) -> dict:
        return {
            "messageIndex": self.message_index,
            "entryId": self.entry_id,
            "strategy": self.strategy,
            "tokensBefore": self.tokens_before,
            "tokensAfter": self.tokens_after,
            "summaryTokens": self.summary_tokens,
            "messagesSummarized": self.messages_summarized,
            "messagesDropped": self.messages_dropped,
            "durationSeconds": round(self.duration_s, 4),
            "summarizer": self.summarizer,
            "summarizerInputTokens": self.summarizer_input_tokens,
            "summarizerOutputTokens": self.summarizer_output_tokens,
            "fallbackReason": self.fallback_reason,
            "retention": self.retention.to_json(),
            "quality": self.quality.to_json(),
        }


@dataclass(frozen=True)
class ReplayReport:
    """Everything a replay measured. Token figures are estimates (recorded usage describes another context)."""

    source: str
    output: str | None
    """The file written, or ``None`` for a replay kept in memory."""
    window: int
    settings: CompactionSettings
    summarizer: str
    messages: int
    """Messages replayed."""
    requests: tuple[RequestPoint, ...]
    compactions: tuple[ReplayCompaction, ...]
    failures: tuple[str, ...]
    """Compactions that failed or were refused (the request then went out as it was), and why."""
    disabled_reason: str | None
    """Why auto-compaction stopped, if it did (anti-thrash)."""
    cpu_s: float
    wall_s: float

    @property
    def threshold(self) -> int:
        return self.settings.threshold(self.window)

    @property
    def peak_tokens(self) -> int:
        return max((point.tokens for point in self.requests), default=0)

    @property
    def violations(self) -> int:
        """Requests larger than the window: they would have failed."""
        return sum(point.tokens > self.window for point in self.requests)

    @property
    def over_threshold(self) -> int:
        """Requests above ``window - reserve``: they fit, but left the answer less room than asked for."""
        return sum(point.tokens > self.threshold for point in self.requests)

    @property
    def summarizer_input_tokens(self) -> int:
        return sum(c.summarizer_input_tokens for c in self.compactions)

    @property
    def summarizer_output_tokens(self) -> int:
        return sum(c.summarizer_output_tokens for c in self.compactions)

    @property
    def retention(self) -> Retention:
        """Found and total facts summed over every compaction."""
        return sum((c.retention for c in self.compactions), Retention())

    @property
    def quality(self) -> Quality:
        """Every compaction's quality figures added up (a share over all their items)."""
        return sum((c.quality for c in self.compactions), NO_QUALITY)

    def to_json(self) -> dict:
        return {
            "source": self.source,
            "output": self.output,
            "window": self.window,
            "threshold": self.threshold,
            "reserveTokens": self.settings.reserve_tokens,
            "keepRecentTokens": self.settings.keep_recent_tokens,
            "summarizer": self.summarizer,
            "tokensEstimated": True,
            "messages": self.messages,
            "requests": len(self.requests),
            "peakTokens": self.peak_tokens,
            "violations": self.violations,
            "overThreshold": self.over_threshold,
            "summarizerInputTokens": self.summarizer_input_tokens,
            "summarizerOutputTokens": self.summarizer_output_tokens,
            "compactions": [c.to_json() for c in self.compactions],
            "failures": list(self.failures),
            "disabledReason": self.disabled_reason,
            "retention": self.retention.to_json(),
            "quality": self.quality.to_json(),
            "curve": [[p.message_index, p.tokens, p.compacted] for p in self.requests],
            "cpuSeconds": round(self.cpu_s, 4),
            "wallSeconds": round(self.wall_s, 4),
        }


# -- replaying --------------------------------------------------------------------------------------------------


def settings_for_window(window: int, base: CompactionSettings | None = None) -> CompactionSettings:
    """``base`` (pi's defaults) with the reserve and the kept tail scaled down when the window is too small.

    pi's defaults suit a 200k window; at 32k its 20,000 kept tokens would exceed the whole threshold. Here the
    reserve is at most a quarter of the window and the kept tail at most a quarter of what remains.
    """
    base = base or CompactionSettings()
    reserve = min(base.reserve_tokens, window // 4)
    keep = min(base.keep_recent_tokens, (window - reserve) // 4)
    return base.replace(reserve_tokens=reserve, keep_recent_tokens=keep)


class _ReplayCompactor(AutoCompactor):
    """The agent's pre-flight, sized by estimates only: the recorded usage describes the original context.

    The replay keeps the size of the current context up to date as it appends (``known``), so asking costs
    nothing; for any other state of the session it is computed from scratch.
    """

    known: tuple[str | None, int] | None = None

    def context_tokens(self, session: Session) -> ContextTokens:
        if self.known is not None and self.known[0] == session.leaf_id:
            return ContextTokens(self.known[1], 0, self.known[1], None)
        return estimate_context_tokens(session.build_context().messages, trust_usage=False)


def replay(
    source_path: str | os.PathLike,
    *,
    window: int,
    settings: CompactionSettings | None = None,
    summarizer: Summarizer | None = None,
    out_path: str | os.PathLike | None = None,
    on_event: Callable[[CompactionEvent], None] | None = None,
) -> ReplayReport:
    """Replay the active path of ``source_path`` with a ``window``-token model; see the module docstring.

    ``settings`` default to :func:`settings_for_window`; ``summarizer`` to the offline one. With ``out_path``
    (which must not exist) the replayed session is written there; the source is never written.
    """
    settings = settings or settings_for_window(window)
    if window <= settings.reserve_tokens:
        raise UsageError(f"window {window:,} must be larger than the reserve ({settings.reserve_tokens:,})")
    if summarizer is None:
        from ..llm import make_summarizer

        summarizer = make_summarizer("offline")
    cpu, wall = time.process_time(), time.monotonic()
    source = Session.open(source_path)
    path = source.branch()
    source.close()
    if out_path is not None:
        target = Session.create_at(out_path, source.cwd, parent_session=str(source.path), durable=False)
    else:
        target = Session.in_memory(source.cwd)
    with target:
        run = _Run(target, window, settings, summarizer, on_event)
        run.replay(path)
    return ReplayReport(
        source=str(source.path),
        output=str(target.path) if target.path is not None else None,
        window=window,
        settings=settings,
        summarizer=summarizer.name,
        messages=run.messages,
        requests=tuple(run.requests),
        compactions=tuple(run.compactions),
        failures=tuple(run.failures),
        disabled_reason=run.compactor.disabled_reason,
        cpu_s=time.process_time() - cpu,
        wall_s=time.monotonic() - wall,
    )


class _Run:
    """The state of one replay: the target session, and its current context kept up to date as it grows."""

    def __init__(self, target: Session, window: int, settings, summarizer, on_event) -> None:
        self.target = target
        self.on_event = on_event
        self.compactor = _ReplayCompactor(window=window, settings=settings, summarizer=summarizer,
                                          on_event=self._event)
        self.context: list = []
        """``target.build_context().messages``, extended as entries are appended (rebuilt after a compaction)."""
        self.tokens = 0
        self.uncompacted = 0
        self.messages = 0
        self.requests: list[RequestPoint] = []
        self.compactions: list[ReplayCompaction] = []
        self.failures: list[str] = []
        self.compacted = RegionIndex()
        """Every message a compaction has replaced so far, in order (summaries left out): the region the latest
        summary has to describe."""

    def _event(self, event: CompactionEvent) -> None:
        if event.type in ("compaction_failed", "compaction_skipped"):
            what = event.type.removeprefix("compaction_")
            self.failures.append(f"{what} before message {self.messages}: {event.error or 'no reason given'}")
        if self.on_event is not None:
            self.on_event(event)

    def replay(self, path: list[dict]) -> None:
        for entry in path:
            kind = entry.get("type")
            if kind in _SKIPPED_TYPES or not isinstance(kind, str):
                continue
            if kind == "label" and entry.get("targetId") not in self.target:
                continue  # a label of an entry off the active path
            if kind == "message":
                message = entry.get("message")
                if isinstance(message, dict) and message.get("role") == "assistant":
                    self._request()
                self.messages += 1
            self._copy(entry)

    def _copy(self, entry: dict) -> None:
        fields = {k: v for k, v in entry.items() if k not in _ENVELOPE}
        entry_id = entry.get("id")
        keep_id = isinstance(entry_id, str) and entry_id not in self.target
        appended = self.target.append(entry["type"], fields, entry_id=entry_id if keep_id else None)
        message = entry_to_message(appended)
        if message is not NOTHING:
            self.context.append(message)
            tokens = estimate_tokens(message)
            self.tokens += tokens
            self.uncompacted += tokens

    def _request(self) -> None:
        """What an agent does before asking the model: make the context fit, then send it."""
        before, tokens_before = self.context, self.tokens
        self.compactor.known = (self.target.leaf_id, self.tokens)
        result = self.compactor.ensure_fits(self.target)
        if result is not None:
            self.context = self.target.build_context().messages
            self.tokens = _tokens(self.context)
            self.compactions.append(self._compaction(result, before, tokens_before))
        self.requests.append(RequestPoint(self.messages, self.tokens, result is not None, self.uncompacted))

    def _compaction(self, result: CompactionResult, before: list, tokens_before: int) -> ReplayCompaction:
        removed = removed_messages(before, self.context)
        self.compacted.extend(removed)
        return ReplayCompaction(
            message_index=self.messages,
            entry_id=result.entry["id"] if result.entry is not None else "",
            strategy=result.strategy,
            tokens_before=tokens_before,
            tokens_after=self.tokens,
            summary_tokens=text_tokens(result.summary),
            messages_summarized=result.messages_summarized,
            messages_dropped=result.messages_dropped,
            duration_s=result.duration_s,
            summarizer=result.summarizer,
            summarizer_input_tokens=result.summarizer_input_tokens,
            summarizer_output_tokens=result.summarizer_output_tokens,
            fallback_reason=result.fallback_reason,
            retention=score_retention(removed, self.context),
            quality=score_quality(self.compacted, result.summary),
        )


def _tokens(messages: list) -> int:
    return estimate_context_tokens(messages, trust_usage=False).tokens


__all__ = [
    "CATEGORIES",
    "ReplayCompaction",
    "ReplayReport",
    "Quality",
    "RequestPoint",
    "Retention",
    "Score",
    "context_text",
    "fact_lists",
    "removed_messages",
    "replay",
    "score_retention",
    "settings_for_window",
]
