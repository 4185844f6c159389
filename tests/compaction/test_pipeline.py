"""The pipeline: each stage and when it wins (prune, summarize, offline, truncate), the fallbacks, the summary's
fixed blocks (original request on top, current request, dropped note, files), and the window guarantee as a
hypothesis property over generated sessions and windows."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pi_compact import Session
from pi_compact.compaction import CompactionSettings, compact, prepare_compaction
from pi_compact.compaction.offline.compose import REQUEST_CHARS, bounded
from pi_compact.compaction.cut import entry_tokens
from pi_compact.compaction.offline import OfflineSummarizer
from pi_compact.compaction.pipeline import SUMMARY_WRAPPER_TOKENS, Planner
from pi_compact.compaction.tokens import text_tokens
from pi_compact.errors import CompactionError, SummarizerError
from pi_compact.testing import ScriptedSummarizer

from .builders import (HUGE_OUTPUT, WRAPPER, assistant, build_session, call, context_tokens, new_session,
                       summary_text, tool_heavy, tool_result, tool_turn, turns, user, wordy)

KEEP_1000 = CompactionSettings(keep_recent_tokens=1000, reserve_tokens=1000)
TURN_PREFIX = "## Original Request\nfix it\n\n## Early Progress\n- read\n\n## Context for Suffix\n- none"


def plan(session: Session, settings: CompactionSettings = KEEP_1000, *, window: int | None = None,
         summarizer=None, fixed_tokens: int = 0, instructions: str | None = None):
    prep = prepare_compaction(session.branch(), settings)
    return Planner(prep, settings, window=window, summarizer=summarizer or OfflineSummarizer(),
                   instructions=instructions, fixed_tokens=fixed_tokens).plan()


def test_the_wrapper_allowance_covers_pi_wrapper() -> None:
    assert WRAPPER <= SUMMARY_WRAPPER_TOKENS


# -- the stages ------------------------------------------------------------------------------------------------------


def test_prune_wins_when_the_condensed_transcript_is_small(tmp_path) -> None:
    summarizer = ScriptedSummarizer([])
    result = plan(tool_heavy(tmp_path / "s.jsonl"), summarizer=summarizer)
    assert result.strategy == "prune" and summarizer.calls == []
    assert "## Condensed transcript\n[User]: fix bug 0" in result.summary
    assert "[read] src/m0.py → 12,000 chars" in result.summary


def test_instructions_skip_prune(tmp_path) -> None:
    """Regression: a condensed transcript ignores "focus on …", so instructions were silently dropped."""
    summarizer = ScriptedSummarizer([summary_text("focused"), TURN_PREFIX])
    result = plan(tool_heavy(tmp_path / "s.jsonl"), summarizer=summarizer, instructions="the parser")
    assert result.strategy == "summarize" and summarizer.calls[0].prompt.endswith("Additional focus: the parser")
    offline = plan(tool_heavy(tmp_path / "t.jsonl"), instructions="focus on src/m1.py")
    assert offline.strategy == "offline" and "Focus: src/m1.py" in offline.summary


def test_the_llm_summarizes_when_prune_is_too_big(tmp_path) -> None:
    summarizer = ScriptedSummarizer([summary_text("llm goal")])
    result = plan(wordy(tmp_path / "s.jsonl"), summarizer=summarizer, instructions="focus")
    assert result.strategy == "summarize" and len(summarizer.calls) == 1
    assert summarizer.calls[0].instructions == "focus"
    assert summary_text("llm goal") in result.summary and result.fallback_reason is None


def test_offline_when_no_llm_is_configured(tmp_path) -> None:
    result = plan(wordy(tmp_path / "s.jsonl"), summarizer=OfflineSummarizer())
    assert result.strategy == "offline" and result.fallback_reason is None
    assert "## Goal\nRequest 0: please do this carefully." in result.summary


def test_offline_when_the_llm_fails(tmp_path) -> None:
    summarizer = ScriptedSummarizer([SummarizerError("provider exploded")])
    result = plan(wordy(tmp_path / "s.jsonl"), summarizer=summarizer)
    assert result.strategy == "offline" and result.fallback_reason == "scripted: provider exploded"


def test_truncate_drops_kept_messages_until_it_fits(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl")
    for n in range(3):
        tool_turn(session, n, f"fix bug {n}", "line\n" * 800)  # 1,000 tokens each
    session.append_message(user("run the tests"))
    session.append_message(assistant(call("t1", "bash", command="pytest -x")))
    failure = "E   AssertionError: boom\n" * 200 + "\n\nCommand exited with code 1"
    session.append_message(tool_result("t1", "bash", failure))
    session.append_message(assistant("The test fails with AssertionError: boom."))
    settings = CompactionSettings(keep_recent_tokens=3000, reserve_tokens=1000)
    summarizer = ScriptedSummarizer([summary_text("llm body"), TURN_PREFIX])
    result = plan(session, settings, window=1000 + 900, summarizer=summarizer)
    assert result.strategy == "truncate" and result.messages_dropped >= 1
    assert result.body_strategy == "summarize" and summary_text("llm body") in result.summary
    kept = session.branch()[result.first_kept_index]
    assert kept["message"]["role"] == "assistant" and kept["message"]["content"][0]["type"] == "text"
    assert f"<dropped-to-fit>\n{result.messages_dropped} more recent message(s) were dropped" in result.summary
    assert "`pytest -x` (exit 1)" in result.summary
    assert "<current-request>\nrun the tests\n</current-request>" in result.summary
    assert result.tokens_after <= 900


def test_truncate_can_keep_nothing(tmp_path) -> None:
    session = tool_heavy(tmp_path / "s.jsonl", 2)
    session.append_message(user("read the log"))
    session.append_message(assistant(call("big", "read", path="huge.log")))
    session.append_message(tool_result("big", "read", HUGE_OUTPUT))
    result = plan(session, window=1000 + 2000)
    assert result.strategy == "truncate" and result.first_kept_index is None
    assert "<current-request>\nread the log\n</current-request>" in result.summary
    assert result.tokens_after <= 2000


def test_the_fixed_part_is_counted_once(tmp_path) -> None:
    """Regression: the system prompt's tokens were taken off the target twice, so messages that fit were dropped."""
    session = tool_heavy(tmp_path / "s.jsonl", 12, lines=100)  # 12 turns of about 330 tokens
    settings = CompactionSettings(keep_recent_tokens=3000, reserve_tokens=1000)
    result = plan(session, settings, window=10_000, fixed_tokens=4000)
    assert result.messages_dropped == 0 and result.strategy == "prune"
    kept = sum(map(entry_tokens, session.branch()[result.first_kept_index:]))
    assert result.tokens_after == 4000 + text_tokens(result.summary) + SUMMARY_WRAPPER_TOKENS + kept
    assert kept > 10_000 - 1000 - 2 * 4000  # more than the old, doubly reduced target allowed
    assert result.tokens_after <= 10_000 - 1000


def test_no_room_for_the_fixed_part_is_an_error(tmp_path) -> None:
    with pytest.raises(CompactionError, match="the fixed part"):
        plan(tool_heavy(tmp_path / "s.jsonl"), window=5000, fixed_tokens=4000)


def test_the_current_request_survives_a_tiny_window(tmp_path) -> None:
    """Regression: the summary was cut from its end, so the current request (after the body) went first."""
    session = wordy(tmp_path / "s.jsonl", 3)
    session.append_message(user("now fix the CI"))
    session.append_message(assistant("x" * 4000))
    result = plan(session, CompactionSettings(keep_recent_tokens=100, reserve_tokens=50), window=50 + 160)
    assert result.summary.startswith("<current-request>\nnow fix the CI\n</current-request>")
    assert result.first_kept_index is None and result.tokens_after <= 160


# -- the summary's fixed blocks ----------------------------------------------------------------------------------------


def test_the_first_request_stays_on_top_after_three_compactions(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl")
    first = "Port the billing service to Rust. Never touch the legacy/ folder. " + "Keep the API stable. " * 200
    session.append_message(user(first))
    session.append_message(assistant("Starting."))
    summarizers = [None, ScriptedSummarizer([summary_text("llm")] * 5), None]
    for round_no, summarizer in enumerate(summarizers):
        for n in range(3):
            tool_turn(session, 10 * round_no + n, f"round {round_no} step {n} " + "more words " * 200, "out\n" * 500)
        result = compact(session, settings=KEEP_1000, summarizer=summarizer)
        assert result.summary.startswith(f"<original-request>\n{bounded(first)}\n</original-request>\n\n")
        assert len(bounded(first)) <= REQUEST_CHARS + 60
        assert result.summary.count("<original-request>") == 1
    messages = session.build_context().messages
    assert messages[0]["role"] == "compactionSummary" and messages[0]["summary"].startswith("<original-request>")


@pytest.mark.parametrize("wrapped", [
    "<system_instruction>\nYou are working inside an app that runs agents. Work in /w/ws-1.\n</system_instruction>\n\n{ask}",
    "<system-reminder>Rename the branch first; use the prefix \"me/\".</system-reminder>\n{ask}",
    "<environment_context>\n  <cwd>/w/ws-1</cwd>\n  <shell>zsh</shell>\n</environment_context>\n{ask}",
    "{ask}\n<system-reminder>\nThe TodoWrite tool hasn't been used recently.\n</system-reminder>",
], ids=["instruction-block", "reminder-first", "environment", "reminder-after"])
def test_the_original_request_is_the_users_words_without_a_harness_wrapping(tmp_path, wrapped) -> None:
    """Claude Code, Codex and apps around them wrap injected instructions around the user's first message: the
    head-protected request holds what the user asked, not the harness's text."""
    ask = "Store which migrations were applied, and when, in the database itself instead of the repository."
    session = new_session(tmp_path / "s.jsonl")
    session.append_message(user(wrapped.format(ask=ask)))
    session.append_message(assistant("Starting."))
    for n in range(3):
        tool_turn(session, n, f"step {n} " + "more words " * 200, "out\n" * 500)
    result = compact(session, settings=KEEP_1000)
    head = result.summary.split("</original-request>")[0] if "<original-request>" in result.summary else ""
    assert ask in result.summary and ask in (head or result.summary.split("## Constraints")[0])
    for harness_words in ("inside an app", "prefix", "<cwd>", "zsh", "TodoWrite", "system"):
        assert harness_words not in head


def test_the_latest_request_is_kept_or_quoted(tmp_path) -> None:
    session = tool_heavy(tmp_path / "s.jsonl", 3)
    session.append_message(user("LATEST: rename the module"))
    for k in range(3):
        session.append_message(assistant(call(f"z{k}", "read", path=f"z{k}.py")))
        session.append_message(tool_result(f"z{k}", "read", "zz\n" * 2000))
    result = compact(session, settings=KEEP_1000)
    kept = [m for m in session.build_context().messages[1:] if m["role"] == "user"]
    assert result.summary.count("<current-request>\nLATEST: rename the module\n</current-request>") == 1
    assert not kept  # the cut split the turn, so the request is quoted in the summary


def test_file_lists_close_the_summary(tmp_path) -> None:
    result = compact(tool_heavy(tmp_path / "s.jsonl"), settings=KEEP_1000)
    files = ["src/m0.py", "src/m1.py", "src/m2.py", "src/m3.py"]  # the last turn is split: its call is summarized
    assert result.summary.endswith("<read-files>\n" + "\n".join(files) + "\n</read-files>")
    assert result.details["readFiles"] == files


# -- the window guarantee -----------------------------------------------------------------------------------------


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    spec=turns,
    reserve=st.integers(50, 20_000),
    keep=st.integers(100, 30_000),
    room=st.one_of(st.integers(100, 1500), st.integers(1500, 250_000)),
    fixed=st.one_of(st.just(0), st.integers(1, 5000)),
    huge_at=st.one_of(st.none(), st.integers(0, 6)),
    rounds=st.integers(1, 3),
    llm_answer=st.one_of(st.none(), st.integers(0, 60_000)),
)
def test_the_context_fits_the_window_after_compaction(spec, reserve, keep, room, fixed, huge_at, rounds,
                                                       llm_answer) -> None:
    """Offline, or an LLM whose answers are any size (ignoring ``max_tokens``), with or without a fixed part
    (system prompt, tools): the context always fits what the window leaves."""
    session = Session.in_memory("/project")
    last = build_session(session, spec, huge_at=huge_at)
    window = reserve + fixed + text_tokens(last) + room
    compaction_settings = CompactionSettings(reserve_tokens=reserve, keep_recent_tokens=keep)
    answer = None if llm_answer is None else summary_text("g" * llm_answer)
    for round_no in range(rounds):
        summarizer = None if answer is None else ScriptedSummarizer([answer] * 100, context_window=50_000)
        try:
            result = compact(session, window=window, settings=compaction_settings, summarizer=summarizer,
                             fixed_tokens=fixed)
            assert result.tokens_after <= window - reserve
        except CompactionError as exc:
            assert "Nothing to compact" in str(exc)
        assert context_tokens(session) + fixed <= window - reserve
        assert_latest_request_present(session, last)
        last = f"follow-up {round_no}: " + "keep going " * round_no
        session.append_message(user(last))


def assert_latest_request_present(session: Session, request: str) -> None:
    messages = session.build_context().messages
    if any(m.get("role") == "user" and m.get("content") == request for m in messages):
        return
    assert messages[0]["role"] == "compactionSummary"
    assert bounded(request) in messages[0]["summary"]
