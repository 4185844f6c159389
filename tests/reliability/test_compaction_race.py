"""A compaction racing another writer (issue 13.4, 23.4): while the LLM summarizes, another process appends a
message to the same session. The compaction used to be written below the leaf it was planned from, so the
acknowledged message fell out of the context; now it is written after that message, which stays in it. The
same holds for a message appended between opening the session and starting the compaction; and when the
other writer went on on another branch, the compaction is not written (it would pull the leaf back)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pi_compact import LeafMovedError, Session
from pi_compact.compaction import AutoCompactor, CompactionSettings, compact
from pi_compact.compaction.summarizer import SummaryRequest, SummaryResult
from pi_compact.testing import FakeLLMServer, FakeReply, ScriptedSummarizer

from .clirun import assert_clean_outcome, run_forked
from .sessions import USAGE, assistant, new_conversation

SUMMARY = "## Goal\nFix the parser.\n\n## Progress\n### Done\n- [x] read the modules\n\n## Next Steps\n1. test"
SETTINGS = CompactionSettings(keep_recent_tokens=300, summary_min_tokens=100, summary_max_tokens=200)
APPENDER = """
import sys
from pi_compact import Session
session = Session.open(sys.argv[1])
sys.stdin.readline()  # started ahead, so appending takes milliseconds once told to
entry = session.append_message({"role": "user", "content": "acknowledged while compacting", "timestamp": 9})
print(entry["id"], flush=True)
"""


def _wait_for_request(server: FakeLLMServer) -> None:
    deadline = time.monotonic() + 60
    while not server.requests:
        assert time.monotonic() < deadline, "the summarizer was never asked"
        time.sleep(0.01)


def test_a_message_appended_while_the_llm_summarizes_stays_in_the_context(server: FakeLLMServer,
                                                                          tmp_path: Path) -> None:
    from pi_compact.llm.anthropic import AnthropicSummarizer

    path = new_conversation(tmp_path / "s.jsonl", turns=12)
    server.push(FakeReply(text=SUMMARY, delay=4.0))  # the slow summarizer the other process races
    appender = subprocess.Popen([sys.executable, "-c", APPENDER, str(path)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
    results = []
    summarizer = AnthropicSummarizer(api_key="test", base_url=server.url, timeout=60, max_retries=0)
    with Session.open(path) as session:
        planned_leaf = session.leaf_id
        worker = threading.Thread(target=lambda: results.append(compact(session, settings=SETTINGS,
                                                                        summarizer=summarizer)))
        worker.start()
        _wait_for_request(server)
        appended_id = appender.communicate("go\n", timeout=60)[0].strip()
        worker.join(timeout=120)
    assert results and results[0].strategy == "summarize"
    compaction = results[0].entry
    assert compaction["parentId"] == appended_id != planned_leaf
    assert compaction["details"]["appendedMeanwhile"] == 1
    reopened = Session.open(path)
    assert reopened.leaf_id == compaction["id"]
    texts = [m.get("content") for m in reopened.build_context().messages]
    assert "acknowledged while compacting" in texts
    assert reopened.build_context().messages[0]["role"] == "compactionSummary"


def test_a_compaction_that_keeps_nothing_keeps_what_arrived_meanwhile(tmp_path: Path) -> None:
    """The appended message goes into the kept region even when the plan kept no message at all."""
    path = new_conversation(tmp_path / "s.jsonl", turns=3)
    with Session.open(path) as session:
        other = Session.open(path)
        entry_id = session.new_id()
        fields = {"summary": SUMMARY, "firstKeptEntryId": entry_id, "tokensBefore": 100,
                  "details": {"tokensAfter": 50}, "fromHook": False}
        from pi_compact.compaction.compactor import _follow_concurrent_appends

        appended = other.append_message({"role": "user", "content": "late", "timestamp": 9})
        written = session.append("compaction", fields, entry_id=entry_id, on_locked=_follow_concurrent_appends)
    assert written["parentId"] == appended["id"] and written["firstKeptEntryId"] == appended["id"]
    assert [m.get("content") for m in Session.open(path).build_context().messages][-1] == "late"


# -- issue 23.4: appends before the compaction started, and another writer moving the leaf -----------------

OTHER_BRANCH = """
import sys
from pi_compact import Session
session = Session.open(sys.argv[1])
session.move_leaf(sys.argv[2])  # checks out an earlier entry, as `session checkout` or pi's /tree would
print(session.append_message({"role": "user", "content": "on another branch", "timestamp": 9})["id"], flush=True)
"""


def _append_in_another_process(path: Path, text: str) -> str:
    script = ("import sys\nfrom pi_compact import Session\n"
              "print(Session.open(sys.argv[1]).append_message({'role': 'user', 'content': sys.argv[2], "
              "'timestamp': 9})['id'])")
    return subprocess.run([sys.executable, "-c", script, str(path), text], capture_output=True, text=True,
                          check=True, timeout=60).stdout.strip()


def _on_path(path: Path) -> tuple[list[dict], list[str]]:
    """The entries on the path to the file's leaf (its last line, as pi takes it) and the context's texts."""
    with Session.open(path) as reopened:
        texts = [m.get("content") for m in reopened.build_context().messages]
        return reopened.branch(), [t for t in texts if isinstance(t, str)]


def test_an_append_between_opening_and_compacting_is_followed(tmp_path: Path) -> None:
    path = new_conversation(tmp_path / "s.jsonl", turns=12)
    with Session.open(path) as session:
        appended = _append_in_another_process(path, "acknowledged before the compaction started")
        result = compact(session, settings=SETTINGS, summarizer=ScriptedSummarizer([SUMMARY]))
    assert result.entry["parentId"] == appended
    branch, texts = _on_path(path)
    assert [e["id"] for e in branch][-2:] == [appended, result.entry["id"]]
    assert "acknowledged before the compaction started" in texts


class _OtherBranchDuringSummary:
    """A summarizer during whose first call another process checks out ``target`` and appends there."""

    name, context_window = "scripted", 200_000

    def __init__(self, path: Path, target: str) -> None:
        self.path, self.target, self.appended = path, target, ""

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        if self.appended:  # the pipeline may ask more than once (a split turn's prefix)
            return SummaryResult(SUMMARY)
        self.appended = subprocess.run([sys.executable, "-c", OTHER_BRANCH, str(self.path), self.target],
                                       capture_output=True, text=True, check=True, timeout=60).stdout.strip()
        return SummaryResult(SUMMARY)


def test_a_compaction_does_not_pull_the_leaf_back_from_another_branch(tmp_path: Path) -> None:
    path = new_conversation(tmp_path / "s.jsonl", turns=12)
    before = path.read_bytes()
    events: list[str] = []
    with Session.open(path) as session:
        target = session.branch()[5]["id"]
        summarizer = _OtherBranchDuringSummary(path, target)
        with pytest.raises(LeafMovedError, match="another branch"):
            compact(session, settings=SETTINGS, summarizer=summarizer, on_event=lambda e: events.append(e.type))
    assert events[-1] == "compaction_skipped"
    data = path.read_bytes()
    assert data.startswith(before) and data[len(before):].count(b"\n") == 1  # only the other writer's entry
    branch, texts = _on_path(path)
    assert branch[-1]["id"] == summarizer.appended and branch[-2]["id"] == target
    assert texts[-1] == "on another branch"


def test_another_branch_appended_before_the_compaction_started_refuses_it_too(tmp_path: Path) -> None:
    path = new_conversation(tmp_path / "s.jsonl", turns=12)
    with Session.open(path) as session:
        target = session.branch()[5]["id"]
        subprocess.run([sys.executable, "-c", OTHER_BRANCH, str(path), target], check=True, timeout=60,
                       capture_output=True)
        size = path.stat().st_size
        with pytest.raises(LeafMovedError):
            compact(session, settings=SETTINGS, summarizer=ScriptedSummarizer([SUMMARY]))
        assert path.stat().st_size == size
        again = compact(session, settings=SETTINGS, summarizer=ScriptedSummarizer([SUMMARY]))  # told, it may
    assert again.entry is not None


def _append_slowly(path: Path, report_fd: int, seed: int) -> None:
    """A child: append a few messages at random moments, reporting each once acknowledged; never returns."""
    code = 0
    try:
        rng = random.Random(seed)
        session = Session.open(path)
        for n in range(rng.randrange(5, 40)):
            time.sleep(rng.uniform(0, 0.01))
            entry = session.append_message({"role": "user", "content": f"acknowledged {n}", "timestamp": n})
            os.write(report_fd, f"{entry['id']}\n".encode())
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which fails the test
        os.write(report_fd, b"ERROR " + repr(exc).encode()[:300] + b"\n")
        code = 1
    finally:
        os._exit(code)


CLI_ROUNDS = 20


def test_cli_compactions_racing_an_appender_keep_every_acknowledged_entry_on_the_path(tmp_path: Path) -> None:
    seed = int(os.environ.get("PI_COMPACT_RACE_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    lost_rounds = acknowledged = 0
    for n in range(CLI_ROUNDS):
        path = new_conversation(tmp_path / f"race-{n}.jsonl", turns=8)
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(reader)
            _append_slowly(path, writer, rng.randrange(1 << 30))
        os.close(writer)
        time.sleep(rng.uniform(0, 0.1))
        run = run_forked("session", "compact", "--keep-recent", "300", str(path))
        assert_clean_outcome(run)
        _, status = os.waitpid(pid, 0)
        reports = b""
        while chunk := os.read(reader, 65536):
            reports += chunk
        os.close(reader)
        assert os.waitstatus_to_exitcode(status) == 0, reports
        ids = reports.decode().split()
        acknowledged += len(ids)
        lost_rounds += bool(_left_behind(path, ids))
    print(f"\ncompaction vs appender (seed {seed}): {CLI_ROUNDS} CLI rounds, {acknowledged} acknowledged appends, "
          f"{lost_rounds} rounds with one off the active path")
    assert lost_rounds == 0


def _left_behind(path: Path, acknowledged: list[str]) -> set[str]:
    """Acknowledged entries written before the compaction but not on its path (the path it made the leaf's)."""
    with Session.open(path) as session:
        order = [e["id"] for e in session.entries()]
        compaction = next(e["id"] for e in session.entries() if e["type"] == "compaction")
        ancestors = set(session.path_ids(compaction))
    before = set(order[: order.index(compaction)])
    return {i for i in acknowledged if i in before and i not in ancestors}


def test_an_agent_s_auto_compaction_skips_when_the_leaf_moved_and_stays_enabled(tmp_path: Path) -> None:
    path = new_conversation(tmp_path / "s.jsonl", turns=12)
    with Session.open(path) as session:
        target = session.branch()[5]["id"]
        session.append_message(assistant("Done.") | {"usage": {**USAGE, "input": 30_000, "totalTokens": 30_005}})
        auto = AutoCompactor(window=20_000, settings=CompactionSettings(keep_recent_tokens=300, reserve_tokens=1_000),
                             summarizer=_OtherBranchDuringSummary(path, target))
        size = path.stat().st_size
        assert auto.ensure_fits(session) is None  # skipped, as when another process is compacting
        assert auto.disabled_reason is None
        assert Session.open(path).branch()[-1]["id"] == auto.summarizer.appended
        assert path.stat().st_size > size and b'"type":"compaction"' not in path.read_bytes()
