"""A :class:`~pi_compact.compaction.summarizer.Summarizer` that answers from a script, with no network at all."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from pi_compact.compaction.summarizer import SummaryRequest, SummaryResult
from pi_compact.errors import SummarizerError


def rough_tokens(text: str) -> int:
    """pi's chars/4 heuristic: good enough for doubles, and predictable in assertions."""
    return len(text) // 4


class ScriptedSummarizer:
    """A :class:`Summarizer` that replays a script: each call takes the next item in order.

    A string item is returned as the summary; an exception instance is raised instead, so failure paths
    (timeouts, provider errors) are as easy to script as successes. Every request is kept in :attr:`calls`,
    including those that raised, so tests can assert on prompts and call counts.
    """

    def __init__(
        self,
        summaries: Iterable[str | BaseException],
        *,
        name: str = "scripted",
        context_window: int = 200_000,
    ) -> None:
        self.name = name
        self.context_window = context_window
        self.calls: list[SummaryRequest] = []
        self._script: deque[str | BaseException] = deque(summaries)

    @property
    def remaining(self) -> int:
        """How many scripted items have not been consumed yet."""
        return len(self._script)

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.calls.append(request)
        if not self._script:
            raise SummarizerError("no scripted summary left")
        item = self._script.popleft()
        if isinstance(item, BaseException):
            raise item
        return SummaryResult(
            text=item,
            input_tokens=rough_tokens(request.system + request.prompt),
            output_tokens=rough_tokens(item),
            model=self.name,
        )
