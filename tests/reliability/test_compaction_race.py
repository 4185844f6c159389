"""A compaction racing another writer (issue 13.4): while the LLM summarizes, another process appends a
message to the same session. The compaction used to be written below the leaf it was planned from, so the
acknowledged message fell out of the context; now it is written after that message, which stays in it."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from pi_compact import Session
from pi_compact.compaction import CompactionSettings, compact
from pi_compact.testing import FakeLLMServer, FakeReply

from .sessions import new_conversation

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
