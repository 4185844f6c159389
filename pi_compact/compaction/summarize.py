"""The LLM stage: pi's prompts, with the summarizer's own input bounded by folding in chunks.

A region larger than the summarizer's window is summarized chunk by chunk, each chunk updating the summary
of the ones before, so compaction works exactly when the session is already over the limit. Every request —
system prompt, instructions, carried summary, transcript and the answer's ``max_tokens`` — is planned to fit
:data:`REQUEST_SHARE` of the summarizer's own window (a local server with an 8k context gets 8k requests);
when the server still says the prompt is too long (its tokenizer counts more than our estimate, or its window
is smaller than configured), the window planned for shrinks and the chunk is sent again, smaller. An answer
without the required sections is repaired (missing headings added) or, when it has none of them, rejected.
A split turn whose prefix gets no usable answer keeps the LLM's history summary and an offline prefix summary.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import SummarizerError, SummarizerOverflowError
from .offline import OfflineSummarizer
from .prepare import CompactionPreparation
from .prompts import (REQUIRED_SECTIONS, SYSTEM_PROMPT, TURN_PREFIX_PROMPT, UPDATE_PROMPT, compaction_prompt,
                      missing_sections, turn_prefix_prompt)
from .redact import redact_secrets
from .serialize import convert_to_llm, serialize_conversation, truncate_text
from .settings import CompactionSettings
from .summarizer import Summarizer, SummaryRequest
from .tokens import text_tokens

PROMPT_OVERHEAD_TOKENS = text_tokens(SYSTEM_PROMPT) + max(map(text_tokens, (UPDATE_PROMPT, TURN_PREFIX_PROMPT))) + 100
"""The system prompt, the longest instructions block and the tags around the conversation."""
MIN_CHUNK_TOKENS = 256
"""A summarizer window that leaves less transcript than this per request is too small to fold with."""
REQUEST_SHARE = 0.9
"""Share of the summarizer's window a request is planned to fill: token figures are estimates (characters / 4)
and a real tokenizer may count more."""
OVERFLOW_SHRINK = 2 / 3
"""After the server refuses a request as too long, the window planned for shrinks by this factor."""
MAX_OVERFLOW_RETRIES = 4
MIN_SUMMARY_CHARS = 40
SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n"


@dataclass(frozen=True)
class LLMSummary:
    """What the LLM stage produced: the summary text and the summarizer's input and output tokens."""

    text: str
    input_tokens: int
    output_tokens: int
    prefix_fallback: str | None = None
    """Why the split turn's prefix was summarized offline while the LLM's history summary was kept."""


def llm_summary(
    prep: CompactionPreparation,
    summarizer: Summarizer,
    settings: CompactionSettings,
    budget: int,
    instructions: str | None,
    previous: str | None,
) -> LLMSummary:
    """The summary of ``prep``'s region; raises ``SummarizerError`` when the history (or, with no history to
    summarize, the turn prefix) gets no usable answer."""
    folder = _Folder(summarizer, settings)
    history = previous
    if prep.messages_to_summarize:
        history = folder.fold(prep.messages_to_summarize, history, budget, instructions)
    text, fallback = history or "No prior history.", None
    if prep.turn_prefix_messages:
        prefix, fallback = _turn_prefix_summary(folder, prep, max(budget // 2, 256))
        text += SPLIT_TURN_SEPARATOR + (prefix or "")
    return LLMSummary(text, folder.input_tokens, folder.output_tokens, fallback)


def _turn_prefix_summary(folder: _Folder, prep: CompactionPreparation, budget: int) -> tuple[str | None, str | None]:
    """The LLM's summary of the split turn's prefix; when that request fails after the history was summarized,
    the offline one and why, so the good (and paid-for) history answer is not thrown away with it."""
    try:
        return folder.fold(prep.turn_prefix_messages, None, budget, None, kind="turn_prefix"), None
    except SummarizerError as exc:
        if not prep.messages_to_summarize:
            raise  # no LLM answer to keep: the whole stage goes offline, as when the history fails
        request = SummaryRequest("", "", budget, "turn_prefix", prep.turn_prefix_messages)
        reason = f"{folder.summarizer.name}: {exc} (only the turn prefix was summarized offline)"
        return OfflineSummarizer().summarize(request).text, reason


class _Folder:
    def __init__(self, summarizer: Summarizer, settings: CompactionSettings) -> None:
        self.summarizer = summarizer
        self.settings = settings
        self.window = int(summarizer.context_window * REQUEST_SHARE)
        """The tokens each request is planned to fit (shrinks when the server refuses one as too long)."""
        self.retries = 0
        self.input_tokens = 0
        self.output_tokens = 0

    def fold(self, messages, running: str | None, budget: int, instructions: str | None, kind: str = "compaction"):
        """Summarize ``messages`` chunk by chunk, each chunk updating the summary of the ones before."""
        # Redacted before anything is cut (a cut secret no longer looks like one); the prompt is redacted again
        # as a whole, since a previous summary written offline quotes the session verbatim.
        redact = self.settings.redact_secrets
        pending = [_map_strings(m, redact_secrets) for m in messages] if redact else list(messages)
        while pending:
            answer = max(1, min(budget, self.window // 4))
            chunk, rest, prompt = self._request(pending, answer, running, instructions, kind)
            request = SummaryRequest(SYSTEM_PROMPT, prompt, answer, kind, tuple(chunk), running, instructions)
            try:
                result = self.summarizer.summarize(request)
            except SummarizerOverflowError as exc:
                self._shrink(exc)
                continue  # the same messages again, in smaller chunks
            pending = rest
            self.input_tokens += result.input_tokens or text_tokens(prompt)
            self.output_tokens += result.output_tokens or text_tokens(result.text)
            running = checked_summary(result.text, kind)
        return running

    def _request(self, pending: list[dict], answer: int, running, instructions, kind: str):
        """The next chunk, what is left and the chunk's prompt, measured whole: the estimate of a text may exceed
        the sum of its parts' (a repeat that spans two messages), so a prompt over the window is planned again
        with less room until it fits or the room is the smallest a chunk may have."""
        room = self._room(answer, running, instructions)
        while True:
            chunk, rest = self._take(pending, room)
            prompt = self._prompt(chunk, running, instructions, kind)
            if text_tokens(SYSTEM_PROMPT + prompt) + answer <= self.window or room <= MIN_CHUNK_TOKENS:
                return chunk, rest, prompt
            room = max(MIN_CHUNK_TOKENS, room * 4 // 5)

    def _prompt(self, chunk: list[dict], running: str | None, instructions: str | None, kind: str) -> str:
        conversation = serialize_conversation(convert_to_llm(chunk), tool_result_chars=self.settings.tool_result_chars)
        if kind == "turn_prefix":
            prompt = turn_prefix_prompt(conversation)
        else:
            prompt = compaction_prompt(conversation, running, instructions)
        return redact_secrets(prompt) if self.settings.redact_secrets else prompt

    def _shrink(self, exc: SummarizerOverflowError) -> None:
        """Plan for a smaller window after the server refused a request as too long, or give up."""
        self.retries += 1
        if self.retries > MAX_OVERFLOW_RETRIES:
            raise exc
        self.window = int(self.window * OVERFLOW_SHRINK)

    def _room(self, budget: int, running: str | None, instructions: str | None) -> int:
        """Tokens of transcript one request may carry: the window minus the answer, the carried summary and
        the prompt around them."""
        window = self.window
        room = window - budget - text_tokens(running or "") - text_tokens(instructions or "") - PROMPT_OVERHEAD_TOKENS
        if room < MIN_CHUNK_TOKENS:
            raise SummarizerError(
                f"the summarizer's window ({self.summarizer.context_window:,} tokens) cannot hold a {budget:,}-token answer, "
                f"the summary carried so far and any conversation"
            )
        return room

    def _take(self, pending: list[dict], room: int) -> tuple[list[dict], list[dict]]:
        """The next chunk (at least one message, shrunk to fit if need be) and what is left."""
        chunk: list[dict] = []
        used = 0
        for index, message in enumerate(pending):
            fitted = self._fit(message, room)
            size = self._size(fitted) + 1  # the blank line between two messages
            if chunk and used + size > room:
                return chunk, pending[index:]
            chunk.append(fitted)
            used += size
        return chunk, []

    def _size(self, message: dict) -> int:
        transcript = serialize_conversation(convert_to_llm([message]), tool_result_chars=self.settings.tool_result_chars)
        return text_tokens(transcript)

    def _fit(self, message: dict, room: int) -> dict:
        """A message whose transcript is bigger than a whole chunk, with its long strings cut (texts, thinking,
        tool-call arguments inside the parsed JSON, command output); pi never has to, its input is unbounded."""
        if self._size(message) < room:
            return message
        limit = room * 4
        while limit >= 64:
            shrunk = _map_strings(message, lambda text: truncate_text(text, limit))
            if self._size(shrunk) < room:
                return shrunk
            limit //= 2
        role = message.get("role")
        return {"role": "user", "content": f"[a {role} message too large to summarize was left out]",
                "timestamp": message.get("timestamp")}


_STRUCTURAL_KEYS = frozenset({"role", "type", "id", "name", "toolCallId", "toolName", "customType", "mimeType",
                              "data", "details", "textSignature", "thinkingSignature", "thoughtSignature"})
"""Ids, names and types, and what the transcript never shows (image data, signatures, details)."""


def _map_strings(value, change):
    """``value`` with ``change`` applied to every string the transcript may show (structure kept)."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [_map_strings(v, change) for v in value]
    if isinstance(value, dict):
        return {k: v if k in _STRUCTURAL_KEYS else _map_strings(v, change) for k, v in value.items()}
    return value


def checked_summary(text: str, kind: str) -> str:
    """An LLM answer fit to store: required sections present (added when a few are missing)."""
    text = (text or "").strip()
    if len(text) < MIN_SUMMARY_CHARS:
        raise SummarizerError(f"implausibly short summary ({len(text)} characters)")
    missing = missing_sections(text, kind)
    if missing and len(missing) == len(REQUIRED_SECTIONS.get(kind, ())):
        raise SummarizerError("the answer has none of the required sections")
    for heading in missing:
        text += f"\n\n{heading}\n(none)"
    return text
