"""The LLM stage: pi's prompts, answers checked (repaired or rejected), chunk folding within the summarizer's
window, split turns joined with pi's separator, and the real ``anthropic`` and ``openai`` SDKs talking HTTP to
the fake server: what was sent, and each fallback to the offline summary."""

from __future__ import annotations


import pytest

from pi_compact.compaction import SYSTEM_PROMPT, CompactionSettings, compact
from pi_compact.compaction.offline import OfflineSummarizer
from pi_compact.compaction.prompts import INITIAL_PROMPT, TURN_PREFIX_PROMPT, UPDATE_PROMPT, compaction_prompt
from pi_compact.compaction.summarize import REQUEST_SHARE, SPLIT_TURN_SEPARATOR, checked_summary
from pi_compact.compaction.tokens import text_tokens
from pi_compact.errors import SummarizerError
from pi_compact.llm.anthropic import AnthropicSummarizer
from pi_compact.llm.openai import OpenAISummarizer
from pi_compact.testing import FakeLLMServer, FakeReply, ScriptedSummarizer

from .builders import assistant, call, new_session, summary_text, tool_result, user

KEY = "sk-test-key-for-the-fake-server"
FAST_RETRY = {"retry-after-ms": "1"}
FIXED_BUDGET = CompactionSettings(keep_recent_tokens=1000, summary_min_tokens=777, summary_max_tokens=777)
"""Small kept tail, and a summary budget of exactly 777 tokens (so ``max_tokens`` is known)."""


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)


def wordy_session(path, turns: int = 4, *, secret: str = ""):
    """Long user requests, so the condensed transcript is no cheaper than a summary (prune is rejected)."""
    session = new_session(path)
    for n in range(turns):
        session.append_message(user(f"Request {n}: please refactor module {n}. {secret}" + " Details follow." * 150))
        session.append_message(assistant(f"Reading module {n}.", call(f"c{n}", "read", path=f"src/m{n}.py")))
        session.append_message(tool_result(f"c{n}", "read", f"def f{n}():\n    pass\n" * 100))
        session.append_message(assistant(f"Module {n} is refactored."))
    return session


# -- checking an answer ------------------------------------------------------------------------------------------


def test_a_complete_answer_is_kept_as_is() -> None:
    assert checked_summary("\n" + summary_text() + "\n\n", "compaction") == summary_text()


def test_missing_sections_are_repaired() -> None:
    answer = "## Goal\nFix the parser\n\n## Progress\n### Done\n- [x] read the code"
    repaired = checked_summary(answer, "compaction")
    assert repaired.startswith(answer)
    for heading in ("## Constraints & Preferences", "## Key Decisions", "## Next Steps", "## Critical Context"):
        assert f"\n\n{heading}\n(none)" in repaired


@pytest.mark.parametrize(
    "answer, message",
    [
        pytest.param("", "implausibly short", id="empty"),
        pytest.param("## Goal\nok", "implausibly short", id="too-short"),
        pytest.param("Sure! Here is what happened in the conversation: the user asked for a fix.", "none of the",
                     id="no-sections"),
    ],
)
def test_unusable_answers_are_rejected(answer, message) -> None:
    with pytest.raises(SummarizerError, match=message):
        checked_summary(answer, "compaction")


def test_turn_prefix_answers_need_the_turn_prefix_sections() -> None:
    answer = "## Original Request\nrefactor it\n\n## Early Progress\n- read files"
    assert checked_summary(answer, "turn_prefix").endswith("## Context for Suffix\n(none)")
    with pytest.raises(SummarizerError):
        checked_summary(summary_text(), "turn_prefix")


# -- prompts ----------------------------------------------------------------------------------------------------------


def test_first_update_and_focus_prompts() -> None:
    first = compaction_prompt("[User]: hi", None, None)
    assert first == f"<conversation>\n[User]: hi\n</conversation>\n\n{INITIAL_PROMPT}"
    update = compaction_prompt("[User]: hi", "OLD", "the parser")
    assert update == (f"<conversation>\n[User]: hi\n</conversation>\n\n<previous-summary>\nOLD\n</previous-summary>\n\n"
                      f"{UPDATE_PROMPT}\n\nAdditional focus: the parser")
    for heading in ("## Goal", "## Constraints & Preferences", "## Progress", "### Done", "### In Progress",
                    "### Blocked", "## Key Decisions", "## Next Steps", "## Critical Context"):
        assert f"\n{heading}\n" in INITIAL_PROMPT and f"\n{heading}\n" in UPDATE_PROMPT
    assert SYSTEM_PROMPT.endswith("ONLY output the structured summary.")


def _hint(prompt: str, heading: str) -> str:
    return prompt.split(f"\n{heading}\n", 1)[1].split("\n\n", 1)[0]


@pytest.mark.parametrize(("heading", "words"), [
    ("## Goal", "Keep the previous goal"), ("### Done", "previous done items"),
    ("### In Progress", "still unfinished"), ("### Blocked", "remove those the new messages resolved"),
    ("## Key Decisions", "keep the previous ones"), ("## Critical Context", "Keep what is still needed"),
])
def test_the_update_prompt_says_per_section_how_to_merge(heading: str, words: str) -> None:
    assert words in _hint(UPDATE_PROMPT, heading) and words not in _hint(INITIAL_PROMPT, heading)


# -- folding and split turns (scripted) -----------------------------------------------------------------------------


def test_a_region_bigger_than_the_summarizer_window_is_folded(tmp_path) -> None:
    session = wordy_session(tmp_path / "s.jsonl", turns=8)
    answers = [summary_text(f"goal after chunk {i}") for i in range(20)]
    summarizer = ScriptedSummarizer(answers, context_window=3000)
    result = compact(session, settings=FIXED_BUDGET, summarizer=summarizer)
    calls = summarizer.calls
    assert result.strategy == "summarize" and len(calls) >= 3
    for request in calls:
        planned = int(3000 * REQUEST_SHARE)  # a margin for a tokenizer that counts more than our estimate
        assert request.max_tokens == planned // 4  # the budget shrinks to a quarter of a small window
        assert text_tokens(request.system + request.prompt) + request.max_tokens <= planned
    assert calls[0].previous_summary is None and INITIAL_PROMPT in calls[0].prompt
    assert calls[1].previous_summary == answers[0]
    assert f"<previous-summary>\n{answers[0]}\n</previous-summary>" in calls[1].prompt
    assert UPDATE_PROMPT in calls[1].prompt
    # Every message reached exactly one chunk, in order.
    assert [m for c in calls for m in c.messages][0]["content"].startswith("Request 0:")
    assert "Request 6:" in "".join(str(m.get("content")) for c in calls for m in c.messages)
    assert answers[len(calls) - 1] in result.summary


def test_a_message_bigger_than_a_chunk_is_shrunk_to_fit(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl")
    session.append_message(user("Write the data file. " + "Be careful. " * 400))
    session.append_message(assistant("x" * 40_000, call("c1", "write", path="data.txt", content="y" * 60_000)))
    session.append_message(tool_result("c1", "write", "ok"))
    session.append_message(user("now the tail " + "t" * 8000))
    summarizer = ScriptedSummarizer([summary_text()] * 10, context_window=4000)
    result = compact(session, settings=FIXED_BUDGET, summarizer=summarizer)
    assert result.strategy == "summarize"
    for request in summarizer.calls:
        assert text_tokens(request.system + request.prompt) + request.max_tokens <= 4000
    prompts = [r.prompt for r in summarizer.calls]
    assert any("more characters truncated]" in p and 'write(path="data.txt"' in p for p in prompts)


def test_a_summarizer_window_too_small_to_fold_falls_back_offline(tmp_path) -> None:
    session = wordy_session(tmp_path / "s.jsonl")
    summarizer = ScriptedSummarizer([summary_text()], context_window=800)
    result = compact(session, settings=FIXED_BUDGET, summarizer=summarizer)
    assert result.strategy == "offline" and summarizer.calls == []
    assert "window (800 tokens) cannot hold" in result.details["fallbackReason"]


def split_turn_session(path, *, earlier_turns: int):
    session = wordy_session(path, turns=earlier_turns) if earlier_turns else new_session(path)
    session.append_message(user("Migrate every module to the new API. " + "Keep the tests green. " * 100))
    for k in range(4):
        session.append_message(assistant(f"Migrating part {k}. " * 20, call(f"m{k}", "edit", path=f"src/p{k}.py")))
        session.append_message(tool_result(f"m{k}", "edit", "edited\n" * 400))
    return session


def test_a_split_turn_is_joined_with_pi_separator(tmp_path) -> None:
    session = split_turn_session(tmp_path / "s.jsonl", earlier_turns=3)
    prefix = "## Original Request\nMigrate every module\n\n## Early Progress\n- part 0\n\n## Context for Suffix\n- p1"
    summarizer = ScriptedSummarizer([summary_text("history"), prefix])
    result = compact(session, settings=FIXED_BUDGET, summarizer=summarizer)
    history_call, prefix_call = summarizer.calls
    assert (history_call.kind, prefix_call.kind) == ("compaction", "turn_prefix")
    assert prefix_call.prompt.endswith(TURN_PREFIX_PROMPT) and prefix_call.previous_summary is None
    assert prefix_call.messages[0]["content"].startswith("Migrate every module")
    assert summary_text("history") + SPLIT_TURN_SEPARATOR + prefix in result.summary


def test_a_split_turn_without_history_says_so(tmp_path) -> None:
    session = split_turn_session(tmp_path / "s.jsonl", earlier_turns=0)
    prefix = "## Original Request\nMigrate every module\n\n## Early Progress\n- part 0\n\n## Context for Suffix\n- p1"
    summarizer = ScriptedSummarizer([prefix])
    result = compact(session, settings=FIXED_BUDGET, summarizer=summarizer)
    assert [c.kind for c in summarizer.calls] == ["turn_prefix"]
    assert "No prior history." + SPLIT_TURN_SEPARATOR + prefix in result.summary


BAD_PREFIX_ANSWERS = [
    pytest.param(summary_text("wrong sections"), "the answer has none of the required sections",
                 id="no-prefix-sections"),
    pytest.param(SummarizerError("timed out after 0.3s"), "timed out after 0.3s", id="timeout"),
]


@pytest.mark.parametrize("bad_prefix, reason", BAD_PREFIX_ANSWERS)
def test_a_failing_turn_prefix_keeps_the_llm_history(tmp_path, bad_prefix, reason) -> None:
    session = split_turn_session(tmp_path / "s.jsonl", earlier_turns=3)
    summarizer = ScriptedSummarizer([summary_text("history"), bad_prefix])
    result = compact(session, settings=FIXED_BUDGET, summarizer=summarizer)
    assert [c.kind for c in summarizer.calls] == ["compaction", "turn_prefix"]
    history, prefix = result.summary.split(SPLIT_TURN_SEPARATOR)
    assert history.endswith(summary_text("history"))
    offline = OfflineSummarizer().summarize(summarizer.calls[1]).text  # the same messages and budget
    assert prefix.startswith(offline) and "## Original Request\nMigrate every module" in offline
    assert (result.strategy, result.details["summarizer"]) == ("summarize", "scripted")
    assert result.fallback_reason == f"scripted: {reason} (only the turn prefix was summarized offline)"
    assert result.entry["details"]["fallbackReason"] == result.fallback_reason


def test_a_failing_turn_prefix_without_history_falls_back_entirely(tmp_path) -> None:
    """With nothing else asked of the LLM there is no answer to keep: the whole region is summarized offline."""
    session = split_turn_session(tmp_path / "s.jsonl", earlier_turns=0)
    summarizer = ScriptedSummarizer([SummarizerError("provider exploded")])
    result = compact(session, settings=FIXED_BUDGET, summarizer=summarizer)
    assert [c.kind for c in summarizer.calls] == ["turn_prefix"]
    assert (result.strategy, result.details["summarizer"]) == ("offline", "offline")
    assert result.details["fallbackReason"] == "scripted: provider exploded"
    assert SPLIT_TURN_SEPARATOR not in result.summary and "## Goal\nMigrate every module" in result.summary


def test_a_failing_history_still_falls_back_entirely(tmp_path) -> None:
    session = split_turn_session(tmp_path / "s.jsonl", earlier_turns=3)
    summarizer = ScriptedSummarizer(["Sure! The user refactored four modules and then migrated them. " * 2])
    result = compact(session, settings=FIXED_BUDGET, summarizer=summarizer)
    assert [c.kind for c in summarizer.calls] == ["compaction"]  # the prefix is never asked for
    assert (result.strategy, result.details["summarizer"]) == ("offline", "offline")
    assert result.details["fallbackReason"] == "scripted: the answer has none of the required sections"
    assert SPLIT_TURN_SEPARATOR not in result.summary and "Request 0: please refactor module 0." in result.summary


# -- the real SDKs over HTTP -----------------------------------------------------------------------------------------


def anthropic(server: FakeLLMServer, **options) -> AnthropicSummarizer:
    return AnthropicSummarizer("claude-sonnet-4-6", **{"api_key": KEY, "base_url": server.url, "timeout": 2.0,
                                                       "max_retries": 0, **options})


def openai(server: FakeLLMServer, **options) -> OpenAISummarizer:
    return OpenAISummarizer("gpt-test", **{"api_key": KEY, "base_url": server.url + "/v1", "timeout": 2.0,
                                           "max_retries": 0, **options})


def sent_prompt(request) -> tuple[str, str, int]:
    """System prompt, user text and token limit of a recorded Anthropic or OpenAI request."""
    body = request.body
    if request.path == "/v1/messages":
        [message] = body["messages"]
        return body["system"], message["content"][0]["text"], body["max_tokens"]
    system, message = body["messages"]
    assert (system["role"], message["role"]) == ("system", "user")
    return system["content"], message["content"], body["max_tokens"]


@pytest.mark.parametrize("make", [anthropic, openai], ids=["anthropic", "openai"])
def test_what_the_sdks_send_over_two_compactions(tmp_path, server, make) -> None:
    session = wordy_session(tmp_path / "s.jsonl")
    server.push(FakeReply(text=summary_text("first goal")), FakeReply(text=summary_text("second goal")))
    first = compact(session, settings=FIXED_BUDGET, summarizer=make(server), instructions="the parser")
    for n in range(4, 7):
        session.append_message(user(f"Request {n}: more work. " + "Details follow." * 150))
        session.append_message(assistant(f"Done {n}."))
    second = compact(session, settings=FIXED_BUDGET, summarizer=make(server))

    one, two = server.requests
    system, text, max_tokens = sent_prompt(one)
    assert system == SYSTEM_PROMPT and max_tokens == 777
    assert text.startswith("<conversation>\n[User]: Request 0: please refactor module 0.")
    assert "\n\n[Assistant tool calls]: read(path=\"src/m0.py\")\n\n[Tool result]: def f0():" in text
    assert "<previous-summary>" not in text and INITIAL_PROMPT in text
    assert text.endswith("\n\nAdditional focus: the parser")
    _, text, _ = sent_prompt(two)
    assert f"<previous-summary>\n{summary_text('first goal')}\n</previous-summary>\n\n{UPDATE_PROMPT}" in text
    assert "Additional focus" not in text
    assert (first.strategy, second.strategy) == ("summarize", "summarize")
    assert summary_text("second goal") in second.summary
    assert second.details["summarizer"] == make(server).name


def test_secrets_never_reach_the_server(tmp_path, server) -> None:
    secret = "sk-ant-api03-SUPERSECRETvalue1234567890"
    session = wordy_session(tmp_path / "s.jsonl", secret=f"My key is {secret} and\nexport DB_PASSWORD=hunter2\n")
    server.push(FakeReply(text=summary_text()))
    compact(session, settings=FIXED_BUDGET, summarizer=anthropic(server))
    [request] = server.requests
    assert secret.encode() not in request.raw and b"hunter2" not in request.raw
    assert b"[REDACTED]" in request.raw


def test_secrets_in_an_offline_previous_summary_or_cut_output_never_reach_the_server(tmp_path, server) -> None:
    """Regression: only the transcript was redacted, after long tool results were cut, so a key quoted by an
    offline summary (sent as ``<previous-summary>``) or cut in half by the 2000-character limit went out."""
    secret = "sk-ant-api03-SUPERSECRETvalue1234567890"
    session = wordy_session(tmp_path / "s.jsonl", secret=f"Use the key {secret} and never print it.")
    first = compact(session, settings=FIXED_BUDGET)
    assert first.strategy == "offline" and secret in first.summary
    session.append_message(user("Request 4: check the output " + "Details follow." * 150))
    session.append_message(assistant(call("c9", "bash", command="env")))
    session.append_message(tool_result("c9", "bash", "x" * 1989 + " " + secret))  # cut at 2000 characters
    session.append_message(assistant("Checked."))
    session.append_message(user("Request 5: go on " + "Details follow." * 150))
    session.append_message(assistant("Going on. " * 200))  # the kept region starts at request 5: no split turn
    server.push(FakeReply(text=summary_text()))
    second = compact(session, settings=FIXED_BUDGET, summarizer=anthropic(server))
    [request] = server.requests
    assert second.strategy == "summarize" and b"<previous-summary>" in request.raw
    assert secret[:12].encode() not in request.raw and b"x" * 1989 + b" sk-" not in request.raw
    assert b"x" * 1989 + b" [REDACTED]" in request.raw


def test_retry_after_a_429_then_success(tmp_path, server) -> None:
    session = wordy_session(tmp_path / "s.jsonl")
    server.push(FakeReply(status=429, text="slow down", headers=FAST_RETRY), FakeReply(text=summary_text()))
    result = compact(session, settings=FIXED_BUDGET, summarizer=openai(server, max_retries=1))
    assert len(server.requests) == 2
    assert result.strategy == "summarize" and result.fallback_reason is None


FALLBACKS = [
    pytest.param([FakeReply(delay=3, text=summary_text())], "timed out after 0.3s", id="slow-answer"),
    pytest.param([FakeReply(status=500, text="boom", headers=FAST_RETRY)] * 2, "API error 500: boom",
                 id="repeated-500"),
    pytest.param([FakeReply(text="")], "empty summary", id="empty-summary"),
    pytest.param([FakeReply(text="Here is a summary: the user refactored four modules and all went well. " * 3)],
                 "none of the required sections", id="no-sections"),
]
"""Replies that make the LLM stage fail; the SDK retries once, so a 500 is answered twice."""


@pytest.mark.parametrize("make", [anthropic, openai], ids=["anthropic", "openai"])
@pytest.mark.parametrize("replies, reason", FALLBACKS)
def test_a_failing_llm_falls_back_to_the_offline_summary(tmp_path, server, make, replies, reason) -> None:
    session = wordy_session(tmp_path / "s.jsonl")
    server.push(*replies)
    retries = len(replies) - 1
    result = compact(session, settings=FIXED_BUDGET, summarizer=make(server, timeout=0.3, max_retries=retries))
    assert result.strategy == "offline"
    assert result.details["fallbackReason"].startswith(f"{make(server).name}: ")
    assert reason in result.details["fallbackReason"]
    assert result.entry["details"]["fallbackReason"] == result.details["fallbackReason"]
    assert result.details["summarizer"] == "offline"
    assert "## Goal" in result.summary and "Request 0: please refactor module 0." in result.summary
    assert len(server.requests) == len(replies)
