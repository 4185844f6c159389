"""The compaction pipeline: cheap first, an LLM when needed, never over the window.

Stages run in order and each runs only when the one before did not produce a summary that fits:

1. ``prune`` — a condensed transcript (no LLM), accepted for a first compaction while it is within the length
   budget of the deterministic summary (a short region is better quoted than judged);
2. ``summarize`` — the configured LLM, fed in chunks no bigger than its own window;
3. ``offline`` — the deterministic summarizer, also the fallback whenever the LLM fails;
4. ``truncate`` — the kept region shrinks, message by message, until the context fits.

Every path ends in one ``compaction`` entry (pi's format; ``details.strategy`` says which stage won), or,
on failure, in one ``custom`` entry saying what failed, with every earlier byte of the file untouched.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

from ..accessors import content_text
from ..errors import CompactionError, PiCompactError, SummarizerError
from .offline.compose import compose, shorten_to, strip_generated
from .cut import entry_tokens, valid_cut_points
from .offline.facts import extract_facts
from .offline.goal import injected, request_words
from .offline import OfflineSummarizer
from .prepare import CompactionPreparation, FileLists, collect_files, message_for_summary
from .prune import condense
from .settings import CompactionSettings
from .offline.state import is_slash_command
from .summarize import llm_summary
from .summarizer import Summarizer, SummaryRequest
from .tokens import estimate_tokens, text_tokens

SUMMARY_WRAPPER_TOKENS = 40
"""The text pi wraps a compaction summary in when it sends it (``The conversation history before …``)."""


@dataclass(frozen=True)
class Plan:
    """A summary and the kept region it goes with, before anything is written."""

    summary: str
    strategy: str
    first_kept_index: int | None
    """``None``: nothing before the compaction is kept (the entry names itself as first kept)."""
    tokens_after: int
    messages_summarized: int
    messages_dropped: int
    files: FileLists
    summarizer_input_tokens: int = 0
    summarizer_output_tokens: int = 0
    fallback_reason: str | None = None
    body_strategy: str = ""
    """The stage that wrote the summary's body (``prune``, ``summarize`` or ``offline``), also under ``truncate``."""


@dataclass(frozen=True)
class Stage:
    """What one stage produced: a body text and what it cost."""

    body: str
    strategy: str
    input_tokens: int = 0
    output_tokens: int = 0


class Planner:
    """Runs the stages over one preparation."""

    def __init__(
        self,
        prep: CompactionPreparation,
        settings: CompactionSettings,
        *,
        window: int | None,
        summarizer: Summarizer,
        instructions: str | None,
        fixed_tokens: int = 0,
        progress: Callable[[str], None] | None = None,
        cwd: str = "",
    ) -> None:
        self.prep = prep
        self.settings = settings
        self.path = list(prep.path)
        self.summarizer = summarizer
        self.instructions = instructions
        self.fixed_tokens = fixed_tokens
        self.progress = progress or (lambda stage: None)
        self.target = settings.threshold(window) - fixed_tokens if window else None
        """What the built context may hold: the threshold minus the fixed part (system prompt, tools)."""
        region_tokens = sum(map(estimate_tokens, prep.summarized_messages))
        self.budget = settings.summary_budget(region_tokens)
        if self.target is not None:
            self.budget = max(64, min(self.budget, self.target // 3))
        self.first_request = _first_user_text(self.path)
        self.previous = strip_generated(prep.previous_summary)
        self.cwd = cwd

    # -- the stages -------------------------------------------------------------------------------------------

    def plan(self) -> Plan:
        if self.target is not None and self.target <= SUMMARY_WRAPPER_TOKENS:
            raise CompactionError(
                f"the fixed part ({self.fixed_tokens:,} tokens) leaves no room in this window; "
                "use a larger window or a smaller system prompt"
            )
        if self._may_prune():
            pruned = self._prune()
            if text_tokens(pruned.body) <= self._prune_budget() and \
                    self._fits(pruned.body, self.prep.cut.first_kept_index):
                return self._finish(pruned, self.prep.cut.first_kept_index)
        stage, fallback = self._summarize()
        return self._finish(stage, self.prep.cut.first_kept_index, fallback)

    def _may_prune(self) -> bool:
        """A condensed transcript serves only a first compaction without instructions: it cannot follow "focus on
        …", and pasted under an earlier summary it would grow with every compaction instead of merging."""
        return not self.instructions and not self.previous

    def _prune_budget(self) -> int:
        """A transcript is no state summary: it may stand in for one only while it is short (the length budget of
        the deterministic summary), where quoting the region beats judging it."""
        region_tokens = sum(map(estimate_tokens, self.prep.summarized_messages))
        return min(self.budget, self.settings.length_budget(region_tokens))

    def _prune(self) -> Stage:
        self.progress("prune")
        body = condense(list(self.prep.summarized_messages)) if self.prep.summarized_messages else ""
        return Stage("## Condensed transcript\n" + body if body else "(nothing before this point)", "prune")

    def _summarize(self) -> tuple[Stage, str | None]:
        if self.summarizer.name != "offline" and self.prep.summarized_messages:
            self.progress("summarize")
            try:
                made = llm_summary(
                    self.prep, self.summarizer, self.settings, self.budget, self.instructions, self.previous
                )
                return Stage(made.text, "summarize", made.input_tokens, made.output_tokens), made.prefix_fallback
            except SummarizerError as exc:
                return self._offline(), f"{self.summarizer.name}: {exc}"
        return self._offline(), None

    def _offline(self) -> Stage:
        self.progress("offline")
        request = SummaryRequest(
            system="",
            prompt="",
            max_tokens=self.budget,
            kind="compaction",
            messages=self.prep.summarized_messages,
            previous_summary=self.previous,
            instructions=self.instructions,
            metadata={"cwd": self.cwd, "first_request": self.first_request or ""},
        )
        result = OfflineSummarizer(self.settings).summarize(request)
        return Stage(result.text, "offline", result.input_tokens, result.output_tokens)

    # -- fitting --------------------------------------------------------------------------------------------

    def _kept_tokens(self, first_kept: int | None) -> int:
        if first_kept is None:
            return 0
        return sum(entry_tokens(e) for e in self.path[first_kept:])

    def _fits(self, body: str, first_kept: int | None) -> bool:
        if self.target is None:
            return True
        summary = self._compose(body, first_kept, None, self.prep.files)
        return self._context_tokens(summary, first_kept) <= self.target

    def _context_tokens(self, summary: str, first_kept: int | None) -> int:
        """The built context: the wrapped summary and the kept messages (not the fixed part)."""
        return text_tokens(summary) + SUMMARY_WRAPPER_TOKENS + self._kept_tokens(first_kept)

    def _compose(self, body: str, first_kept: int | None, dropped_note: str | None, files: FileLists) -> str:
        return compose(
            body,
            first_request=self.first_request,
            current_request=self._current_request(first_kept),
            dropped_note=dropped_note,
            read_files=files.read_files,
            modified_files=files.modified_files,
            cwd=self.cwd,
            gone=self._gone,
        )

    @functools.cached_property
    def _gone(self) -> tuple[str, ...]:
        """Files pi lists as modified that were not (a write the user declined, a file deleted since)."""
        return extract_facts(self.prep.summarized_messages).gone

    def _current_request(self, first_kept: int | None) -> str | None:
        """The latest user request, when the kept region no longer holds it."""
        for index in range(len(self.path) - 1, -1, -1):
            message = self.path[index].get("message") if self.path[index].get("type") == "message" else None
            if isinstance(message, dict) and message.get("role") == "user":
                kept = first_kept is not None and index >= first_kept
                return None if kept else _text(message.get("content"))
        return None

    def _finish(self, stage: Stage, first_kept: int | None, fallback: str | None = None) -> Plan:
        strategy, files, note, dropped = stage.strategy, self.prep.files, None, 0
        if not self._fits(stage.body, first_kept):
            first_kept, dropped = self._shrink(stage.body, first_kept)
            strategy = "truncate"
            dropped_messages = self._messages_between(self.prep.cut.first_kept_index, first_kept)
            files = collect_files(self.path, self.prep.summarized_messages + dropped_messages)
            note = _dropped_note(dropped_messages)
        summary = self._fitted_summary(stage.body, first_kept, note, files)
        return Plan(
            summary=summary,
            strategy=strategy,
            first_kept_index=first_kept,
            tokens_after=self._context_tokens(summary, first_kept) + self.fixed_tokens,
            messages_summarized=len(self.prep.summarized_messages),
            messages_dropped=dropped,
            files=files,
            summarizer_input_tokens=stage.input_tokens,
            summarizer_output_tokens=stage.output_tokens,
            fallback_reason=fallback,
            body_strategy=stage.strategy,
        )

    def _fitted_summary(self, body: str, first_kept: int | None, note: str | None, files: FileLists) -> str:
        """The composed summary, cut to the room left by the kept messages: the body goes first, then the file
        lists and the original request; the current request goes last (only when nothing else is left)."""
        summary = self._compose(body, first_kept, note, files)
        if self.target is None:
            return summary
        room = self.target - SUMMARY_WRAPPER_TOKENS - self._kept_tokens(first_kept)
        if text_tokens(summary) <= room:
            return summary
        frame = text_tokens(self._compose("", first_kept, note, files))
        # the body joins the frame with a blank line, which costs tokens of its own
        body_room = room - frame - text_tokens("\n\n")
        for _ in range(4):
            if body_room <= 0:
                break
            fitted = self._compose(shorten_to(body, body_room), first_kept, note, files)
            over = text_tokens(fitted) - room  # parts do not add up exactly (a letter run's bound is per text)
            if over <= 0:
                return fitted
            body_room -= over
        bare = compose("", first_request=None, current_request=self._current_request(first_kept),
                       dropped_note=note, read_files=(), modified_files=())
        return shorten_to(bare, room)

    def _shrink(self, body: str, first_kept: int | None) -> tuple[int | None, int]:
        """The earliest later cut point that fits, else nothing kept; and how many messages that drops."""
        start = (first_kept if first_kept is not None else len(self.path)) + 1
        for index in valid_cut_points(self.path, start, len(self.path)):
            if self._fits(body, index):
                return index, len(self._messages_between(first_kept, index))
        return None, len(self._messages_between(first_kept, None))

    def _messages_between(self, begin: int | None, end: int | None) -> tuple[dict, ...]:
        begin = len(self.path) if begin is None else begin
        end = len(self.path) if end is None else end
        found = (message_for_summary(e) for e in self.path[begin:end])
        return tuple(m for m in found if m is not None)


def _dropped_note(messages: tuple[dict, ...]) -> str:
    facts = extract_facts(list(messages))
    lines = [f"{len(messages)} more recent message(s) were dropped, not summarized, to fit the context window."]
    if facts.commands:
        shown = [f"`{c.command}` (exit {c.exit_code if c.exit_code is not None else '?'})" for c in facts.commands[-10:]]
        lines.append("Commands run there: " + ", ".join(shown))
    if facts.errors:
        lines.append("Errors seen there: " + " | ".join(facts.errors[-5:]))
    return "\n".join(lines)


def _text(content: object) -> str | None:
    return content_text(content, "\n") or None


def _first_user_text(path: list[dict]) -> str | None:
    previous = None
    for entry in path:
        message = entry.get("message") if entry.get("type") == "message" else None
        before, previous = previous, message if isinstance(message, dict) else previous
        if isinstance(message, dict) and message.get("role") == "user" and not injected(before, message):
            text = _text(message.get("content"))
            if text and not is_slash_command(text):  # "/mode" is no request
                words = request_words(text)  # the user's words, without what a harness wrapped around them
                if words:
                    return text if words == text.strip() else words
    return None


__all__ = ["Plan", "Planner", "SUMMARY_WRAPPER_TOKENS", "PiCompactError"]
