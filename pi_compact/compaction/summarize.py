"""The LLM stage: pi's prompts, with the summarizer's own input bounded by folding in chunks.

A region larger than the summarizer's window is summarized chunk by chunk, each chunk updating the summary
of the ones before, so compaction works exactly when the session is already over the limit. An answer
without the required sections is repaired (missing headings added) or, when it has none of them, rejected.
"""

from __future__ import annotations

from ..errors import SummarizerError
from .prepare import CompactionPreparation
from .prompts import SYSTEM_PROMPT, REQUIRED_SECTIONS, compaction_prompt, missing_sections, turn_prefix_prompt
from .redact import redact_secrets
from .serialize import convert_to_llm, serialize_conversation, truncate_text
from .settings import CompactionSettings
from .summarizer import Summarizer, SummaryRequest
from .tokens import text_tokens

PROMPT_OVERHEAD_TOKENS = 1500
"""Room for the system prompt and instructions around the conversation."""
MIN_SUMMARY_CHARS = 40
SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n"


def llm_summary(
    prep: CompactionPreparation,
    summarizer: Summarizer,
    settings: CompactionSettings,
    budget: int,
    instructions: str | None,
    previous: str | None,
) -> tuple[str, int, int]:
    """The summary text and the summarizer's input and output tokens; raises ``SummarizerError``."""
    folder = _Folder(summarizer, settings)
    history = previous
    if prep.messages_to_summarize:
        history = folder.fold(prep.messages_to_summarize, history, budget, instructions)
    text = history or "No prior history."
    if prep.turn_prefix_messages:
        prefix = folder.fold(prep.turn_prefix_messages, None, max(budget // 2, 256), None, kind="turn_prefix")
        text += SPLIT_TURN_SEPARATOR + (prefix or "")
    return text, folder.input_tokens, folder.output_tokens


class _Folder:
    def __init__(self, summarizer: Summarizer, settings: CompactionSettings) -> None:
        self.summarizer = summarizer
        self.settings = settings
        self.input_tokens = 0
        self.output_tokens = 0

    def fold(self, messages, running: str | None, budget: int, instructions: str | None, kind: str = "compaction"):
        for chunk in self._chunks(list(messages), budget, running):
            conversation = serialize_conversation(convert_to_llm(chunk), tool_result_chars=self.settings.tool_result_chars)
            if self.settings.redact_secrets:
                conversation = redact_secrets(conversation)
            if kind == "turn_prefix":
                prompt = turn_prefix_prompt(conversation)
            else:
                prompt = compaction_prompt(conversation, running, instructions)
            request = SummaryRequest(SYSTEM_PROMPT, prompt, budget, kind, tuple(chunk), running, instructions)
            result = self.summarizer.summarize(request)
            self.input_tokens += result.input_tokens or text_tokens(prompt)
            self.output_tokens += result.output_tokens or text_tokens(result.text)
            running = checked_summary(result.text, kind)
        return running

    def _chunks(self, messages: list[dict], budget: int, running: str | None) -> list[list[dict]]:
        """Consecutive groups of messages whose transcript fits the summarizer's window."""
        room = self.summarizer.context_window - budget - PROMPT_OVERHEAD_TOKENS - 2 * text_tokens(running or "")
        room = max(room, 1024)
        chunks: list[list[dict]] = [[]]
        used = 0
        for message in messages:
            size = self._size(message, room)
            if chunks[-1] and used + size > room:
                chunks.append([])
                used = 0
            chunks[-1].append(self._fit(message, room))
            used += size
        return chunks

    def _size(self, message: dict, room: int) -> int:
        text = serialize_conversation(convert_to_llm([message]), tool_result_chars=self.settings.tool_result_chars)
        return min(text_tokens(text), room)

    def _fit(self, message: dict, room: int) -> dict:
        """A user or assistant text bigger than a whole chunk is cut (pi never truncates them)."""
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, str) and text_tokens(content) > room:
            return {**message, "content": truncate_text(content, room * 3)}
        return message


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
