"""The replay simulator: when it compacts, what it measures, that no request ever exceeds the window, how
retention is scored, and that the session it writes reads the same in the real pi as here."""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_compact import Session
from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.settings import CompactionSettings
from pi_compact.compaction.tokens import UNITS_PER_TOKEN, estimate_context_tokens, text_units
from pi_compact.errors import UsageError
from pi_compact.evaluation.replayer import (
    CATEGORIES,
    Retention,
    Score,
    context_text,
    fact_lists,
    removed_messages,
    replay,
    score_retention,
    settings_for_window,
)
from tests.conformance.jsoncmp import first_difference, normalise
from tests.conformance.pi_ref import pi_contexts
from sessions_fixtures import LARGE_SESSION

PROJECT = Path(__file__).resolve().parents[2]
REALISTIC = PROJECT / "sessions_fixtures" / "realistic.jsonl"
SHARED_V1 = LARGE_SESSION

_clock = iter(range(1_767_600_000_000, 1_867_600_000_000, 1000))


# -- builders ---------------------------------------------------------------------------------------------------


def user(text: str) -> dict:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": next(_clock)}


def assistant(text: str = "", *calls: dict) -> dict:
    content = ([{"type": "text", "text": text}] if text else []) + list(calls)
    return {"role": "assistant", "content": content, "api": "anthropic-messages", "provider": "anthropic",
            "model": "claude-sonnet-4-5", "stopReason": "toolUse" if calls else "stop",
            "usage": {"input": 90_000, "output": 10, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 90_010},
            "timestamp": next(_clock)}


def call(call_id: str, name: str, **arguments) -> dict:
    return {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}


def result(call_id: str, name: str, text: str, *, error: bool = False) -> dict:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": name,
            "content": [{"type": "text", "text": text}], "isError": error, "timestamp": next(_clock)}


def prose(tokens: int, seed: int = 0) -> str:
    """``tokens`` estimated tokens (to within one word) of distinct ASCII text. Measured whole: the estimate of
    a text is not the sum of its words' (each short word has a floor of its own)."""
    words: list[str] = []
    while not words or text_units(" ".join(words)) < tokens * UNITS_PER_TOKEN:
        words.append(f"w{seed}x{len(words):05d}")
    return " ".join(words)


def write_session(path: Path, messages: list[dict]) -> Path:
    session = Session.create_at(path, "/home/dev/project", durable=False)
    for message in messages:
        session.append_message(message)
    session.close()
    return path


# -- when it compacts ---------------------------------------------------------------------------------------------


def test_a_small_session_compacts_exactly_where_the_threshold_says(tmp_path: Path) -> None:
    # Turns of a 10-token prompt and a 3,000-token answer; threshold 8,000, keep 1,000. Requests 1-3 fit
    # (10, 3,020, 6,030 tokens); request 4 carries 9,040 and compacts. What is kept afterwards (the last answer
    # and prompt, 3,010 tokens) plus a summary within its budget (at most ~1,250 tokens) stays under 4,990, so
    # one more turn fits and the one after does not: a compaction before every second request from the 4th on.
    turns = []
    for number in range(1, 10):
        turns += [user(f"Step {number}: continue."), assistant(prose(3000, number))]
    source = write_session(tmp_path / "small.jsonl", turns)
    chosen = CompactionSettings(reserve_tokens=2000, keep_recent_tokens=1000)

    report = replay(source, window=10_000, settings=chosen)

    assert len(report.requests) == 9
    assert [c.message_index for c in report.compactions] == [7, 11, 15]
    assert [p.compacted for p in report.requests] == [False, False, False, True, False, True, False, True, False]
    assert report.violations == 0 and report.over_threshold == 0
    assert report.peak_tokens <= report.threshold
    for compaction in report.compactions:
        assert compaction.tokens_before > report.threshold > compaction.tokens_after
        assert compaction.summary_tokens > 0 and compaction.entry_id
    assert report.output is None


def test_the_curve_is_the_size_of_the_context_each_request_sent(tmp_path: Path) -> None:
    out = tmp_path / "replayed.jsonl"
    report = replay(REALISTIC, window=16_000, out_path=out)
    written = Session.open(out)
    assistants = [e for e in written.entries() if e["type"] == "message" and e["message"]["role"] == "assistant"]
    assert len(assistants) == len(report.requests)
    for entry, point in zip(assistants, report.requests):
        context = written.build_context(entry["parentId"]).messages
        assert point.tokens == estimate_context_tokens(context, trust_usage=False).tokens
    assert len(report.compactions) >= 2
    assert report.peak_tokens == max(p.tokens for p in report.requests) <= report.threshold


def test_replay_copies_the_active_path_and_makes_its_own_compactions(tmp_path: Path) -> None:
    out = tmp_path / "replayed.jsonl"
    before = REALISTIC.read_bytes()
    report = replay(REALISTIC, window=16_000, out_path=out)
    source, written = Session.open(REALISTIC), Session.open(out)
    assert REALISTIC.read_bytes() == before
    kept = [e for e in source.branch() if e["type"] != "compaction"]
    replayed = [e for e in written.branch() if e["type"] not in ("compaction", "custom")]
    assert [e["id"] for e in replayed] == [e["id"] for e in kept]
    assert [e.get("message") for e in replayed] == [e.get("message") for e in kept]
    ours = [e for e in written.entries() if e["type"] == "compaction"]
    assert [e["id"] for e in ours] == [c.entry_id for c in report.compactions]
    assert written.labels == {t: label for t, label in source.labels.items() if t in written}
    assert written.name == source.name
    assert written.header["parentSession"] == str(REALISTIC)


def test_a_v1_session_replays_without_being_written(tmp_path: Path) -> None:
    before = SHARED_V1.read_bytes()
    report = replay(SHARED_V1, window=32_000)
    assert SHARED_V1.read_bytes() == before
    assert report.violations == 0 and len(report.compactions) >= 3
    assert report.retention.files.fraction is not None and report.retention.files.fraction >= 0.95


def test_recorded_usage_does_not_trigger_compaction(tmp_path: Path) -> None:
    # every assistant message above claims 90,000 tokens of usage: the replay sizes contexts by estimates
    source = write_session(tmp_path / "s.jsonl", [user("hi"), assistant("hello"), user("again"), assistant("ok")])
    report = replay(source, window=32_000)
    assert report.compactions == () and report.peak_tokens < 100


def test_bad_arguments_are_usage_errors(tmp_path: Path) -> None:
    source = write_session(tmp_path / "s.jsonl", [user("hi"), assistant("hello")])
    with pytest.raises(UsageError, match="larger than the reserve"):
        replay(source, window=1000, settings=CompactionSettings(reserve_tokens=1000))
    with pytest.raises(UsageError, match="already exists"):
        replay(source, window=32_000, out_path=source)


@pytest.mark.parametrize(
    ("window", "reserve", "keep"),
    [(200_000, 16_384, 20_000), (128_000, 16_384, 20_000), (32_000, 8_000, 6_000), (8_000, 2_000, 1_500)],
    ids=["200k", "128k", "32k", "8k"],
)
def test_settings_scale_down_for_small_windows(window: int, reserve: int, keep: int) -> None:
    scaled = settings_for_window(window)
    assert (scaled.reserve_tokens, scaled.keep_recent_tokens) == (reserve, keep)


# -- never over the window ------------------------------------------------------------------------------------------

_TEXTS = {"ascii": "The parser reads the header line first. ", "cjk": "解析器先读取标题行，然后逐行处理。",
          "code": "def f(x):\n    return x * 2  # doubled\n"}


@st.composite
def sessions(draw) -> tuple[int, list[dict]]:
    """A window and a conversation: prompts short and long, tool loops, results up to 1.5 windows."""
    window = draw(st.sampled_from([2_000, 4_000, 12_000, 40_000, 128_000]))
    threshold = settings_for_window(window).threshold(window)
    messages: list[dict] = []
    for turn in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(sorted(_TEXTS)))
        size = draw(st.sampled_from([0.001, 0.02, 0.2])) * threshold
        messages.append(user(_text(kind, size, turn)))
        for step in range(draw(st.integers(0, 4))):
            call_id = f"call_{turn}_{step}"
            messages.append(assistant("", call(call_id, draw(st.sampled_from(["read", "bash"])), path=f"src/m{step}.py")))
            share = draw(st.sampled_from([0.0, 0.01, 0.1, 0.4, 1.5]))
            messages.append(result(call_id, "read", _text(draw(st.sampled_from(sorted(_TEXTS))), share * window, step)))
        messages.append(assistant(_text(kind, draw(st.sampled_from([0.001, 0.05, 0.3])) * threshold, turn)))
    return window, messages


def _text(kind: str, tokens: float, seed: int) -> str:
    unit = _TEXTS[kind]
    per_unit = max(1, estimate_context_tokens([user(unit)]).tokens)
    return f"[{seed}] " + unit * max(1, int(tokens / per_unit))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sessions())
def test_no_request_ever_exceeds_the_window(case: tuple[int, list[dict]]) -> None:
    window, messages = case
    with tempfile.TemporaryDirectory() as folder:
        source = write_session(Path(folder) / "s.jsonl", messages)
        report = replay(source, window=window)
    assert report.violations == 0, [p for p in report.requests if p.tokens > window]
    assert report.peak_tokens <= window
    assert len(report.requests) == sum(m["role"] == "assistant" for m in messages)


def test_a_tool_result_larger_than_the_window_is_never_sent(tmp_path: Path) -> None:
    huge = _text("ascii", 12_000, 1)
    source = write_session(tmp_path / "huge.jsonl", [
        user("Read the log."), assistant("", call("c1", "read", path="/var/log/app.log")),
        result("c1", "read", huge), assistant("It is long; the error is near the end."),
        user("And now?"), assistant("Done."),
    ])
    report = replay(source, window=8_000)
    assert report.violations == 0
    assert report.requests[1].compacted and report.requests[1].tokens <= report.threshold
    assert report.compactions[0].tokens_before > 8_000


def test_two_refused_compactions_in_a_row_do_not_let_a_request_overflow(tmp_path: Path) -> None:
    # Window 2,000 (threshold 1,500, keep 375). A 3,000-token read is truncated away before request 9; the next
    # answer and prompt (750 tokens) then start the kept region and fill the keep budget, so the next two
    # compactions have nothing new to summarize and are refused, although the re-composed summary would fit.
    messages = [user("Look at the m files.")]
    for step in range(4):
        messages += [assistant("", call(f"a{step}", "read", path=f"src/m{step}.py")), result(f"a{step}", "read", "x = 1")]
    messages += [assistant("Read them."), user("Next."), assistant("Ok."), user("And?"), assistant("Done."),
                 user(prose(300, 1)), assistant("", call("b0", "read", path="big.log")), result("b0", "read", prose(3000, 2)),
                 assistant(prose(450, 3)), user(prose(300, 4)), assistant("", call("b1", "read", path="a.py")),
                 result("b1", "read", "small"), assistant("", call("b2", "read", path="b.py")),
                 result("b2", "read", prose(800, 5)), assistant("Fine.")]
    report = replay(write_session(tmp_path / "s.jsonl", messages), window=2_000)
    assert report.violations == 0, (report.failures, report.disabled_reason)


# -- retention ----------------------------------------------------------------------------------------------------

REGION = [
    user("Fix issue #42 in `parse_file`. Never edit tests/fixtures. 不要修改 README.md。"),
    assistant("", call("r1", "read", path="src/a.py"), call("r2", "read", path="src/c.py")),
    result("r1", "read", "x = 1"),
    result("r2", "read", "y = 2"),
    assistant("", call("e1", "edit", path="src/b.py", oldText="x = 1", newText="x = 2")),
    result("e1", "edit", "Successfully replaced text in src/b.py."),
    assistant("", call("b1", "bash", command="python -m pytest -q"), call("b2", "bash", command="git status")),
    result("b1", "bash", "Traceback (most recent call last):\n  File \"src/b.py\", line 3\nValueError: boom\n\n"
                         "Command exited with code 1", error=True),
    result("b2", "bash", "On branch main\nnothing to commit"),
]
EXPECTED_FACTS = {
    "read_files": ("src/a.py", "src/c.py"),
    "modified_files": ("src/b.py",),
    "commands": ("python -m pytest -q", "git status"),
    "errors": ("Traceback (most recent call last):", "ValueError: boom"),
    "constraints": ("Never edit tests/fixtures.", "不要修改 README.md。"),
    "identifiers": ("#42", "parse_file", "README.md"),
}


def test_the_hand_made_region_has_the_facts_we_score() -> None:
    assert fact_lists(extract_facts(REGION)) == EXPECTED_FACTS


def test_retention_is_the_share_of_facts_found_verbatim_after() -> None:
    summary = ("## Goal\nFix #42.\n## Constraints\n- Never edit tests/fixtures.\n- 不要修改 README.md。\n"
               "## Critical Context\n- Read `src/a.py`; read SRC/C.PY\n- Ran `python -m pytest -q` → ValueError: boom")
    after = [{"role": "compactionSummary", "summary": summary, "tokensBefore": 1, "timestamp": 0},
             user("Edit src/b.py again, then run git  status.")]
    retention = score_retention(REGION, after)
    found = {name: (retention.scores[name].found, retention.scores[name].total) for name in CATEGORIES}
    assert found == {"read_files": (1, 2), "modified_files": (1, 1), "commands": (1, 2), "errors": (1, 2),
                     "constraints": (2, 2), "identifiers": (2, 3)}
    assert retention.scores["read_files"].missing == ("src/c.py",)  # the search is case-sensitive
    assert retention.scores["commands"].missing == ("git status",)  # and exact about spaces
    assert retention.scores["identifiers"].missing == ("parse_file",)
    assert (retention.overall.found, retention.overall.total) == (8, 12)
    assert retention.files.fraction == pytest.approx(2 / 3)


def test_tool_call_arguments_are_searched_unescaped() -> None:
    quoted = assistant("", call("b9", "bash", command='grep -n "a\\tb" src/x.py'))
    assert 'grep -n "a\\tb" src/x.py' in context_text([quoted])
    region = [quoted, result("b9", "bash", "3: a\tb")]
    assert score_retention(region, [quoted]).scores["commands"] == Score(1, 1, ())


def test_removed_messages_counts_repeats_and_ignores_what_stayed() -> None:
    same = result("x", "bash", "ok")
    kept, gone = user("kept"), user("gone")
    assert removed_messages([same, dict(same), kept, gone], [kept, dict(same)]) == [same, gone]


def test_retention_adds_up_across_compactions() -> None:
    one = Retention({name: Score(1, 2, ("a",)) for name in CATEGORIES})
    two = Retention({name: Score(3, 3) for name in CATEGORIES})
    total = one + two
    assert total.scores["errors"] == Score(4, 5, ("a",))
    assert total.overall.fraction == pytest.approx(24 / 30)
    assert Retention().overall.fraction is None


# -- pi reads what replay wrote -------------------------------------------------------------------------------------


def test_pi_builds_the_same_context_from_the_replayed_file(tmp_path: Path) -> None:
    outputs = []
    for window in (12_000, 32_000):
        out = tmp_path / f"replayed-{window}.jsonl"
        replay(REALISTIC, window=window, out_path=out)
        outputs.append(out)
    huge = write_session(tmp_path / "huge.jsonl", [
        user("Read the log."), assistant("", call("c1", "read", path="app.log")),
        result("c1", "read", _text("cjk", 9_000, 2)), assistant("Found it."),
    ])
    outputs.append(tmp_path / "huge-replayed.jsonl")
    replay(huge, window=6_000, out_path=outputs[-1])
    answers = pi_contexts([{"file": path} for path in outputs])
    for path, answer in zip(outputs, answers):
        assert answer["ok"], answer
        ours = normalise(Session.open(path).build_context().to_json())
        assert first_difference(ours, answer["context"]) is None, path.name


def test_the_realistic_fixture_is_what_its_generator_writes(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_realistic", PROJECT / "sessions_fixtures" / "make_realistic.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    module.main([str(tmp_path / "fresh.jsonl")])
    assert (tmp_path / "fresh.jsonl").read_bytes() == REALISTIC.read_bytes()
    facts = extract_facts(Session.open(REALISTIC).build_context().messages)
    assert "不要修改 README.md，文档由另一位同事维护。" in facts.constraints
    assert any("Traceback" in e or "ValueError" in e for e in facts.errors)


# -- quality ----------------------------------------------------------------------------------------------------------

WRONG_STATE = ("## Goal\nShip the verbose flag.\n\n## Constraints & Preferences\n(none)\n\n## Progress\n### Done\n"
               "- [x] Migrated `billing/stripe_gateway.py` to the `PaymentIntent` API\n\n### In Progress\n"
               "- [ ] Add the `--verbose` flag to `src/cli.py`\n\n### Blocked\n(none)\n\n## Key Decisions\n(none)\n\n"
               "## Next Steps\n1. Document `--verbose` in `docs/cli.md`\n\n## Critical Context\n(none)")


def test_each_compaction_is_scored_for_quality_against_everything_compacted_so_far(tmp_path: Path) -> None:
    from pi_compact.testing import ScriptedSummarizer

    turns = [user("Add the `--verbose` flag to `src/cli.py`. " + prose(3000, 1)),
             assistant("Done! The `--verbose` flag is added to `src/cli.py` and committed.")]
    for number in range(2, 9):
        turns += [user(f"Step {number}: document `--verbose` in `docs/cli.md`. " + prose(3000, number)),
                  assistant(f"Working on step {number}.")]
    source = write_session(tmp_path / "quality.jsonl", turns)
    summarizer = ScriptedSummarizer([WRONG_STATE] * 10)
    report = replay(source, window=10_000, summarizer=summarizer,
                    settings=CompactionSettings(reserve_tokens=2000, keep_recent_tokens=1000))

    assert len(report.compactions) >= 2 and all(c.strategy == "summarize" for c in report.compactions)
    first, second = report.compactions[0].quality, report.compactions[1].quality
    assert first.stale == ("Add the `--verbose` flag to `src/cli.py`",)  # the region says it is done
    assert any("stripe_gateway" in item for item in first.unsupported) and first.precision < 1
    assert second.region_chars > first.region_chars  # the region of a later compaction includes the earlier one
    assert report.quality.count == len(report.compactions)
    assert report.to_json()["quality"]["stale"] and report.to_json()["compactions"][0]["quality"]["precision"] < 1
