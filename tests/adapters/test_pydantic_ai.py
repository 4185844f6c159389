"""pydantic-ai: a real ``Agent`` run with ``FunctionModel`` and our history processor compacting a long history,
and the ``ModelMessage`` ↔ pi message conversions.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from pydantic_ai import Agent
from pydantic_ai.capabilities import ProcessHistory
from pydantic_ai.messages import (
    BinaryContent,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RequestUsage

from pi_compact import Session
from pi_compact.adapters.pydantic_ai import (
    SYSTEM_PROMPT_TYPE,
    PiHistoryProcessor,
    from_pi_messages,
    pi_history_processor,
    to_pi_messages,
)
from pi_compact.compaction import CompactionSettings, estimate_context_tokens
from pi_compact.compaction.serialize import COMPACTION_SUMMARY_PREFIX
from pi_compact.testing import ScriptedSummarizer
from tests.conformance.jsoncmp import first_difference
from tests.conformance.pi_ref import pi_context
from tests.prose import prose

SUMMARY = ("## Goal\nTalk about the weather in Paris.\n\n## Progress\n### Done\n- [x] checked the forecast\n\n"
           "## Original Request\nThe weather.\n\n## Early Progress\nForecasts.\n\n## Context for Suffix\nSunny.")
"""Has the headings of both a compaction and a split turn's prefix, so either request accepts it."""
WINDOW = 3000
SETTINGS = CompactionSettings(reserve_tokens=1000, keep_recent_tokens=400)
T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def long_history(turns: int = 20) -> list[ModelMessage]:
    """An earlier conversation with a tool call in every turn, well over the window."""
    history: list[ModelMessage] = [ModelRequest(parts=[SystemPromptPart("You talk about weather.", timestamp=T0)])]
    for n in range(turns):
        history.append(ModelRequest(parts=[UserPromptPart(f"turn {n}: " + "what about the weather? " * 20, timestamp=T0)]))
        history.append(ModelResponse(parts=[TextPart("checking"), ToolCallPart("forecast", {"day": n}, f"call_{n}")],
                                     timestamp=T0))
        history.append(ModelRequest(parts=[ToolReturnPart("forecast", prose(40), f"call_{n}", timestamp=T0)]))
        history.append(ModelResponse(parts=[TextPart(f"It will be sunny on day {n}.")], timestamp=T0))
    return history


def tokens(messages: list[ModelMessage]) -> int:
    return estimate_context_tokens(to_pi_messages(messages), trust_usage=False).tokens


class Recorder:
    """A FunctionModel function that remembers what it was sent."""

    def __init__(self) -> None:
        self.seen: list[list[ModelMessage]] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen.append(list(messages))
        return ModelResponse(parts=[TextPart("Still sunny.")])


def test_agent_sees_a_compacted_history_that_starts_with_the_summary_and_fits() -> None:
    summarizer = ScriptedSummarizer([SUMMARY] * 3)
    processor = pi_history_processor(window=WINDOW, settings=SETTINGS, summarizer=summarizer)
    model = Recorder()
    agent = Agent(FunctionModel(model), capabilities=[ProcessHistory(processor)])
    history = long_history()
    assert tokens(history) > WINDOW
    result = agent.run_sync("and tomorrow?", message_history=history)
    [sent] = model.seen
    first = sent[0]
    assert isinstance(first, ModelRequest)
    assert isinstance(first.parts[0], SystemPromptPart) and first.parts[0].content == "You talk about weather."
    summary = first.parts[1]
    assert isinstance(summary, UserPromptPart) and summary.content.startswith(COMPACTION_SUMMARY_PREFIX)
    assert "Talk about the weather in Paris." in summary.content
    assert tokens(sent) <= SETTINGS.threshold(WINDOW)
    assert sent[-1].parts[-1].content == "and tomorrow?"
    assert summarizer.calls and processor.last_compaction is not None
    kept = [m for m in sent[1:-1] if isinstance(m, ModelResponse)]
    assert kept and all(any(m is original for original in history) for m in kept), "kept messages are the agent's own"
    assert result.all_messages()[: len(sent)] == sent, "pydantic-ai keeps the compacted history"


def test_the_next_run_continues_from_the_compacted_history() -> None:
    summarizer = ScriptedSummarizer([SUMMARY] * 3)
    processor = PiHistoryProcessor(window=WINDOW, settings=SETTINGS, summarizer=summarizer)
    model = Recorder()
    agent = Agent(FunctionModel(model), capabilities=[ProcessHistory(processor)])
    first = agent.run_sync("and tomorrow?", message_history=long_history())
    calls = len(summarizer.calls)
    agent.run_sync("thanks", message_history=first.all_messages())
    assert calls and len(summarizer.calls) == calls, "nothing new to compact"
    assert model.seen[1][: len(model.seen[0])] == model.seen[0]
    assert model.seen[1][-1].parts[-1].content == "thanks"


def test_tool_loop_inside_a_run_goes_through_the_processor() -> None:
    processor = PiHistoryProcessor(window=WINDOW, settings=SETTINGS, summarizer=ScriptedSummarizer([SUMMARY] * 3))
    calls: list[int] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        calls.append(len(messages))
        if len(calls) == 1:
            return ModelResponse(parts=[ToolCallPart("forecast", {"day": 1}, "call_x")])
        return ModelResponse(parts=[TextPart("sunny")])

    agent = Agent(FunctionModel(model), capabilities=[ProcessHistory(processor)])

    @agent.tool_plain
    def forecast(day: int) -> str:
        return "sunny"

    result = agent.run_sync("weather?")
    assert result.output == "sunny"
    roles = [m["role"] for m in processor.session.build_context().messages]
    assert roles == ["user", "assistant", "toolResult"]


def test_the_mirror_is_a_session_pi_reads(tmp_path: Path) -> None:
    path = tmp_path / "mirror.jsonl"
    processor = PiHistoryProcessor(window=WINDOW, settings=SETTINGS, summarizer=ScriptedSummarizer([SUMMARY] * 3),
                                   session=Session.create_at(path, "/tmp/project"))
    Agent(FunctionModel(Recorder()), capabilities=[ProcessHistory(processor)]).run_sync("hi", message_history=long_history())
    entries = Session.open(path).entries()
    assert [e["type"] for e in entries].count("compaction") == 1
    difference = first_difference(pi_context(path), Session.open(path).build_context().to_json())
    assert difference is None, difference


def test_a_history_that_does_not_continue_ours_starts_a_new_branch() -> None:
    processor = PiHistoryProcessor(window=100_000)
    processor([ModelRequest(parts=[UserPromptPart("one")])])
    processor([ModelRequest(parts=[UserPromptPart("two")])])
    assert [m["content"] for m in processor.session.build_context().messages] == ["two"]
    assert len(processor.session.tree()) == 2


# -- conversions -----------------------------------------------------------------------------------------------------


PNG = b"\x89PNG\r\n\x1a\n"


def test_every_part_to_pi_and_back() -> None:
    messages: list[ModelMessage] = [
        ModelRequest(parts=[SystemPromptPart("be brief", timestamp=T0),
                            UserPromptPart(["look", BinaryContent(PNG, media_type="image/png")], timestamp=T0)]),
        ModelResponse(parts=[ThinkingPart("hmm", signature="sig"), TextPart("reading"),
                             ToolCallPart("read", {"path": "a.py"}, "call_1")],
                      usage=RequestUsage(input_tokens=10, output_tokens=3), model_name="claude-sonnet-4-6",
                      provider_name="anthropic", timestamp=T0, provider_response_id="msg_1"),
        ModelRequest(parts=[ToolReturnPart("read", "print(1)", "call_1", timestamp=T0)]),
        ModelResponse(parts=[TextPart("done")], timestamp=T0),
    ]
    pi = to_pi_messages(messages)
    assert [m["role"] for m in pi] == ["custom", "user", "assistant", "toolResult", "assistant"]
    assert pi[0]["customType"] == SYSTEM_PROMPT_TYPE
    assert pi[1]["content"] == [{"type": "text", "text": "look"},
                                {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]
    assert pi[2]["content"] == [{"type": "thinking", "thinking": "hmm", "thinkingSignature": "sig"},
                                {"type": "text", "text": "reading"},
                                {"type": "toolCall", "id": "call_1", "name": "read", "arguments": {"path": "a.py"}}]
    assert (pi[2]["stopReason"], pi[2]["usage"]["totalTokens"], pi[2]["model"]) == ("toolUse", 13, "claude-sonnet-4-6")
    back = from_pi_messages(pi)
    assert [type(m).__name__ for m in back] == ["ModelRequest", "ModelResponse", "ModelRequest", "ModelResponse"]
    assert [(type(p).__name__, getattr(p, "content", None)) for p in back[0].parts] == [
        ("SystemPromptPart", "be brief"), ("UserPromptPart", ["look", BinaryContent(PNG, media_type="image/png")])]
    assert back[1].parts == messages[1].parts and back[1].usage == messages[1].usage
    assert (back[1].model_name, back[1].provider_name, back[1].timestamp) == ("claude-sonnet-4-6", "anthropic", T0)
    assert back[2].parts[0].content == "print(1)" and back[2].parts[0].tool_call_id == "call_1"
    assert to_pi_messages(back) == pi


def test_failed_tool_returns_and_summaries() -> None:
    failed = ModelRequest(parts=[ToolReturnPart("read", "no such file", "c", outcome="failed", timestamp=T0)])
    [result] = to_pi_messages([failed])
    assert result["isError"] is True
    summary = {"role": "compactionSummary", "summary": "earlier", "tokensBefore": 5, "timestamp": 1}
    [request] = from_pi_messages([summary, {"role": "user", "content": "next", "timestamp": 2}])
    assert [p.content for p in request.parts] == [COMPACTION_SUMMARY_PREFIX + "earlier\n</summary>", "next"]


def test_an_unanswered_call_is_answered() -> None:
    call = ModelResponse(parts=[ToolCallPart("read", {}, "c1")])
    history = from_pi_messages(to_pi_messages([ModelRequest(parts=[UserPromptPart("q")]), call]))
    assert isinstance(history[-1], ModelRequest) and history[-1].parts[0].tool_call_id == "c1"


def test_files_without_a_pi_block_become_text() -> None:
    from pydantic_ai.messages import DocumentUrl

    [message] = to_pi_messages([ModelRequest(parts=[UserPromptPart(["read", DocumentUrl("https://x/doc.pdf")])])])
    assert message["content"][1] == {"type": "text", "text": "[document-url: https://x/doc.pdf]"}
