"""Running a compaction on a session: the one entry written (earlier bytes untouched), events, dry runs, refusals,
one recorded failure entry, one compaction at a time across threads and processes, and ``AutoCompactor``'s
pre-flight with its anti-thrash stop."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import orjson
import pytest

from pi_compact import Session
from pi_compact.compaction import AutoCompactor, CompactionSettings, compact, ensure_fits
from pi_compact.compaction.compactor import FAILURE_TYPE
from pi_compact.compaction.pipeline import Planner
from pi_compact.errors import (CompactionError, CompactionInProgressError, CorruptEntryError, NothingToCompactError,
                               SummarizerError)
from pi_compact.testing import ScriptedSummarizer

from .builders import assistant, call, context_tokens, new_session, summary_text, tool_result, tool_turn, user, wordy
from tests.prose import prose

KEEP_1000 = CompactionSettings(keep_recent_tokens=1000, reserve_tokens=1000)
PROJECT = Path(__file__).resolve().parents[2]


def session_file(path: Path, turns: int = 4) -> Session:
    session = new_session(path)
    for n in range(turns):
        tool_turn(session, n, f"fix bug {n}", "output line\n" * 1000)
    return session


def entries_of(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()[1:]]


class Recorder(list):
    def __call__(self, event) -> None:
        self.append(event)

    @property
    def types(self) -> list[str]:
        return [e.type for e in self]


# -- the entry written ----------------------------------------------------------------------------------------------


def test_one_compaction_entry_is_appended_and_earlier_bytes_stay(tmp_path) -> None:
    session = session_file(tmp_path / "s.jsonl")
    before = session.path.read_bytes()
    events = Recorder()
    result = compact(session, settings=KEEP_1000, on_event=events)
    after = session.path.read_bytes()
    assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
    entry = orjson.loads(after.splitlines()[-1])
    assert entry == result.entry and session.leaf_id == entry["id"]
    assert list(entry) == ["type", "id", "parentId", "timestamp", "summary", "firstKeptEntryId", "tokensBefore",
                           "details", "fromHook"]
    assert entry["fromHook"] is False and entry["firstKeptEntryId"] == result.first_kept_entry_id
    assert entry["details"] == {"readFiles": ["src/m0.py", "src/m1.py", "src/m2.py", "src/m3.py"], "modifiedFiles": [],
                                "strategy": "prune", "summarizer": "none", "tokensAfter": result.tokens_after,
                                "messagesSummarized": result.messages_summarized, "messagesDropped": 0}
    assert events.types == ["compaction_start", "compaction_progress", "compaction_done"]
    assert events[0].reason == "manual" and events[0].tokens_before == result.tokens_before
    assert events[-1].result is result
    assert result.tokens_after >= context_tokens(Session.open(session.path))


def test_the_result_reports_the_llm_and_its_cost(tmp_path) -> None:
    session = wordy(tmp_path / "s.jsonl")
    events = Recorder()
    result = compact(session, settings=KEEP_1000, summarizer=ScriptedSummarizer([summary_text()]), on_event=events,
                     reason="threshold")
    assert (result.strategy, result.summarizer) == ("summarize", "scripted")
    assert result.summarizer_input_tokens > 0 and result.summarizer_output_tokens > 0
    assert [e.stage for e in events if e.type == "compaction_progress"] == ["prune", "summarize"]
    assert {e.reason for e in events} == {"threshold"}


def test_dry_run_writes_nothing(tmp_path) -> None:
    session = session_file(tmp_path / "s.jsonl")
    before = session.path.read_bytes()
    result = compact(session, settings=KEEP_1000, dry_run=True)
    assert result.entry is None and result.summary and result.strategy == "prune"
    assert session.path.read_bytes() == before and len(Session.open(session.path)) == len(session)


JSON_FIELDS = ["compacted", "dryRun", "entryId", "strategy", "tokensBefore", "tokensBeforeMeasured", "tokensAfter",
               "tokensAfterMeasured", "window", "messagesSummarized", "messagesDropped", "firstKeptEntryId",
               "summarizer", "summarizerInputTokens", "summarizerOutputTokens", "fallbackReason", "durationSeconds",
               "summary", "details"]


@pytest.mark.parametrize(("dry_run", "window"), [(False, None), (True, None), (False, 200_000), (True, 200_000)])
def test_the_result_as_json(tmp_path, dry_run, window) -> None:
    session = wordy(tmp_path / "s.jsonl")
    result = compact(session, settings=KEEP_1000, summarizer=ScriptedSummarizer([summary_text()]), window=window,
                     dry_run=dry_run)
    document = result.to_json(window)
    assert list(document) == JSON_FIELDS
    assert document["compacted"] is True and document["dryRun"] is dry_run and document["window"] == window
    assert document["entryId"] == (None if dry_run else session.leaf_id)
    assert (document["strategy"], document["summarizer"], document["fallbackReason"]) == ("summarize", "scripted", None)
    assert document["tokensBefore"] == result.tokens_before and document["tokensAfter"] == result.tokens_after
    assert document["tokensBeforeMeasured"] is result.tokens_before_measured and document["tokensAfterMeasured"] is False
    assert (document["messagesSummarized"], document["messagesDropped"]) == (result.messages_summarized, 0)
    assert document["summarizerInputTokens"] == result.summarizer_input_tokens > 0
    assert document["summarizerOutputTokens"] == result.summarizer_output_tokens > 0
    assert document["firstKeptEntryId"] == result.first_kept_entry_id
    assert document["durationSeconds"] == round(result.duration_s, 4)
    assert (document["summary"], document["details"]) == (result.summary, result.details)
    if not dry_run:
        assert document["details"] == result.entry["details"] and document["summary"] == result.entry["summary"]


def test_already_compacted_and_nothing_to_compact_write_nothing(tmp_path) -> None:
    session = session_file(tmp_path / "s.jsonl")
    compact(session, settings=KEEP_1000)
    before = session.path.read_bytes()
    with pytest.raises(NothingToCompactError, match="Already compacted"):  # a refusal the CLI reports with exit 0
        compact(session, settings=KEEP_1000)
    small = new_session(tmp_path / "small.jsonl", [user("hi")])
    small_before = small.path.read_bytes()
    events = Recorder()
    with pytest.raises(NothingToCompactError, match="Nothing to compact"):
        compact(small, on_event=events)
    assert events.types[0] == "compaction_start" and events.types[-1] == "compaction_skipped"
    assert session.path.read_bytes() == before and small.path.read_bytes() == small_before


# -- failures ------------------------------------------------------------------------------------------------------


def assert_one_failure_entry(path: Path, before: bytes, kind: str, error: str) -> dict:
    after = path.read_bytes()
    assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
    entry = orjson.loads(after.splitlines()[-1])
    assert list(entry)[:3] == ["type", "customType", "data"]
    assert (entry["type"], entry["customType"]) == ("custom", FAILURE_TYPE)
    assert entry["data"] == {"reason": "manual", "error": error, "kind": kind}
    return entry


def test_a_failing_planner_leaves_one_failure_entry(tmp_path, monkeypatch) -> None:
    session = session_file(tmp_path / "s.jsonl")
    before = session.path.read_bytes()
    context_before = session.build_context().messages

    def broken(self):
        raise CorruptEntryError("line 7 failed to parse")

    monkeypatch.setattr(Planner, "plan", broken)
    events = Recorder()
    with pytest.raises(CorruptEntryError):
        compact(session, settings=KEEP_1000, on_event=events)
    assert_one_failure_entry(session.path, before, "CorruptEntryError", "line 7 failed to parse")
    assert events.types == ["compaction_start", "compaction_failed"] and events[-1].error == "line 7 failed to parse"
    assert Session.open(session.path).build_context().messages == context_before  # pi leaves custom entries out


@pytest.mark.parametrize(
    "error",
    [CorruptEntryError("entry 12 is torn"), RuntimeError("summarizer bug")],
    ids=["pi-compact-error", "any-exception"],
)
def test_a_summarizer_error_without_fallback_is_recorded(tmp_path, error) -> None:
    """Only ``SummarizerError`` falls back to the offline summary; anything else is a failure, recorded once."""
    session = wordy(tmp_path / "s.jsonl")
    before = session.path.read_bytes()
    with pytest.raises(type(error)):
        compact(session, settings=KEEP_1000, summarizer=ScriptedSummarizer([error]))
    assert_one_failure_entry(session.path, before, type(error).__name__, str(error))


def test_a_failed_dry_run_records_nothing(tmp_path) -> None:
    session = wordy(tmp_path / "s.jsonl")
    before = session.path.read_bytes()
    with pytest.raises(CorruptEntryError):
        compact(session, settings=KEEP_1000, summarizer=ScriptedSummarizer([CorruptEntryError("x")]), dry_run=True)
    assert session.path.read_bytes() == before


# -- one at a time ------------------------------------------------------------------------------------------------


class BlockingSummarizer(ScriptedSummarizer):
    """Answers only once released, so a test can act while a compaction is under way."""

    def __init__(self) -> None:
        super().__init__([summary_text()])
        self.entered = threading.Event()
        self.release = threading.Event()

    def summarize(self, request):
        self.entered.set()
        assert self.release.wait(10)
        return super().summarize(request)


def test_two_threads_compacting_one_file(tmp_path) -> None:
    path = tmp_path / "s.jsonl"
    wordy(path)
    first, second = Session.open(path), Session.open(path)
    blocking = BlockingSummarizer()
    results: list = []
    worker = threading.Thread(target=lambda: results.append(compact(first, settings=KEEP_1000, summarizer=blocking)))
    worker.start()
    try:
        assert blocking.entered.wait(10)
        events = Recorder()
        with pytest.raises(CompactionInProgressError, match="another compaction"):
            compact(second, settings=KEEP_1000, on_event=events)
        assert events.types == ["compaction_skipped"]
    finally:
        blocking.release.set()
        worker.join(10)
    assert results[0].strategy == "summarize"
    assert [e["type"] for e in entries_of(path)].count("compaction") == 1
    with pytest.raises(CompactionInProgressError, match="just compacted by another process"):
        compact(second, settings=KEEP_1000)
    assert second.leaf_id == results[0].entry["id"]  # it adopted the other compaction
    assert [e["type"] for e in entries_of(path)].count("compaction") == 1


CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from pi_compact import Session
    from pi_compact.compaction import CompactionSettings, compact
    from pi_compact.testing import ScriptedSummarizer
    from tests.compaction.builders import summary_text

    class Slow(ScriptedSummarizer):
        def summarize(self, request):
            Path(sys.argv[2]).touch()
            deadline = time.monotonic() + 20
            while not Path(sys.argv[3]).exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            return super().summarize(request)

    result = compact(Session.open(sys.argv[1]), settings=CompactionSettings(keep_recent_tokens=1000),
                     summarizer=Slow([summary_text()]))
    print(result.entry["id"])
    """
)


def test_two_processes_compacting_one_file(tmp_path) -> None:
    path = tmp_path / "s.jsonl"
    wordy(path)
    mine = Session.open(path)
    entered, release = tmp_path / "entered", tmp_path / "release"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(entered), str(release)], cwd=PROJECT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(2000):
            if entered.exists() or child.poll() is not None:
                break
            threading.Event().wait(0.01)
        assert entered.exists(), child.communicate()[1].decode()
        with pytest.raises(CompactionInProgressError):
            compact(mine, settings=KEEP_1000)
    finally:
        release.touch()
        out, err = child.communicate(timeout=30)
    assert child.returncode == 0, err.decode()
    assert [e["type"] for e in entries_of(path)].count("compaction") == 1
    with pytest.raises(CompactionInProgressError, match="just compacted"):
        compact(mine, settings=KEEP_1000)
    assert mine.leaf_id == out.decode().strip()


# -- the automatic pre-flight ----------------------------------------------------------------------------------------


def test_ensure_fits_does_nothing_when_the_context_fits(tmp_path) -> None:
    session = session_file(tmp_path / "s.jsonl")
    before = session.path.read_bytes()
    assert ensure_fits(session, 200_000, settings=KEEP_1000) is None
    assert session.path.read_bytes() == before


def test_ensure_fits_compacts_above_the_threshold(tmp_path) -> None:
    session = session_file(tmp_path / "s.jsonl", turns=6)
    events = Recorder()
    auto = AutoCompactor(window=8000, settings=KEEP_1000, on_event=events)
    assert auto.needs_compaction(session)
    result = auto.ensure_fits(session)
    assert result is not None and result.entry is not None
    assert {e.reason for e in events} == {"threshold"}
    assert context_tokens(session) <= 8000 - 1000 and not auto.needs_compaction(session)
    assert auto.ensure_fits(session) is None and auto.disabled_reason is None


def test_anti_thrash_stops_after_two_attempts_that_cannot_fit(tmp_path) -> None:
    session = session_file(tmp_path / "s.jsonl", turns=6)
    auto = AutoCompactor(window=20_000, settings=KEEP_1000, fixed_tokens=19_000)
    assert auto.ensure_fits(session) is None and auto.disabled_reason is None
    assert auto.ensure_fits(session) is None
    assert auto.disabled_reason.startswith("auto-compaction stopped after two attempts that did not fit: ")
    assert "the fixed part (19,000 tokens) leaves no room" in auto.disabled_reason
    failures = [e for e in entries_of(session.path) if e.get("customType") == FAILURE_TYPE]
    assert len(failures) == 2 and failures[0]["data"]["reason"] == "threshold"
    size = session.path.stat().st_size
    assert auto.ensure_fits(session) is None and not auto.needs_compaction(session)
    assert session.path.stat().st_size == size  # stopped: no third attempt


def test_a_success_resets_the_anti_thrash_count(tmp_path) -> None:
    session = session_file(tmp_path / "s.jsonl", turns=6)
    auto = AutoCompactor(window=20_000, settings=KEEP_1000, fixed_tokens=19_000)
    auto.ensure_fits(session)
    auto.fixed_tokens = 0
    auto.window = 8000
    assert auto.ensure_fits(session) is not None
    auto.fixed_tokens, auto.window = 19_000, 20_000
    for n in range(6, 12):
        tool_turn(session, n, f"fix bug {n}", "output line\n" * 1000)
    auto.ensure_fits(session)
    assert auto.disabled_reason is None  # one failure since the success, not two


def test_a_compaction_with_nothing_new_to_summarize_is_written_when_over_the_threshold(tmp_path) -> None:
    """Regression (found by the replay simulator): after a compaction that kept nothing, new messages filled
    the kept budget, so the next compactions had nothing new to summarize and were refused ("Nothing to
    compact") although the re-composed summary fits; two refusals stopped auto-compaction."""
    session = new_session(tmp_path / "s.jsonl")
    session.append_message(user("Look at the logs."))
    session.append_message(assistant("Which one?"))
    session.append_message(user("Please read big.log and tell me what failed. " + "Context words. " * 80))
    session.append_message(assistant(call("b0", "read", path="big.log")))
    session.append_message(tool_result("b0", "read", "log line that is long\n" * 550))
    auto = AutoCompactor(window=2000, settings=CompactionSettings(reserve_tokens=500, keep_recent_tokens=375))
    first = auto.ensure_fits(session)
    assert first.strategy == "truncate" and first.first_kept_entry_id == first.entry["id"]  # nothing kept
    assert "<current-request>\nPlease read big.log" in first.summary
    session.append_message(assistant("The failure is a timeout in the fetcher. " * 50))
    session.append_message(user("Then fix the fetcher. " + "More detail here. " * 60))  # over the threshold
    assert auto.needs_compaction(session)
    second = auto.ensure_fits(session)
    # Nothing new is summarized or dropped: the request quoted last time is gone from the summary, since the
    # new one is kept, and that is enough to fit.
    assert (second.messages_summarized, second.messages_dropped) == (0, 0)
    assert "<current-request>" not in second.summary
    assert context_tokens(session) <= 1500 and auto.disabled_reason is None


def test_summarizer_errors_in_auto_mode_fall_back(tmp_path) -> None:
    session = wordy(tmp_path / "s.jsonl", 8)
    auto = AutoCompactor(window=4000, settings=KEEP_1000, summarizer=ScriptedSummarizer([SummarizerError("down")]))
    result = auto.ensure_fits(session)
    assert result.strategy in ("offline", "truncate") and result.fallback_reason == "scripted: down"
    assert context_tokens(session) <= 3000


# -- the lock's side file ---------------------------------------------------------------------------------------------


def test_no_lock_file_stays_after_a_compaction_done_failed_or_refused(tmp_path) -> None:
    from pi_compact.compaction.compactor import compaction_lock_path
    from pi_compact.store.locks import try_exclusive

    session = wordy(tmp_path / "s.jsonl")
    lock = compaction_lock_path(session)
    seen: list[bool] = []
    compact(session, settings=KEEP_1000, summarizer=ScriptedSummarizer([summary_text()]),
            on_event=lambda e: seen.append(lock.exists()))
    assert seen and all(seen) and not lock.exists()  # there while compacting, gone after
    session.append_message(user(prose(2000)))
    with pytest.raises(CorruptEntryError):
        compact(session, settings=KEEP_1000, summarizer=ScriptedSummarizer([CorruptEntryError("x")]))
    assert not lock.exists()
    with try_exclusive(lock) as held:
        assert held
        with pytest.raises(CompactionInProgressError):
            compact(session, settings=KEEP_1000)
        assert lock.exists()  # the refused compaction left the holder's file alone
    assert not lock.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]
