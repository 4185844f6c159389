"""Speculative compaction through the terminal (issue 15.2): a chat near its threshold prepares the summary
in the background, and the request after the crossing goes out without a new summary request.

Two fake servers keep the two conversations apart: the chat's model on one, the summarizer (slow: each
summary takes seconds) on the other, named in the user's own settings file.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pexpect

from pi_compact import Session
from pi_compact.testing import FakeLLMServer, FakeReply, fake_llm_server
from tests.cli.test_chat_pty import SUMMARY, Chat, entries, project  # noqa: F401 - project is a fixture
from tests.conformance.jsoncmp import first_difference, normalise
from tests.conformance.pi_ref import pi_context
from tests.prose import prose

WINDOW = 40_000
THRESHOLD = WINDOW - 16_384  # pi's default reserve, pinned by --reserve (by default it scales to a quarter of 40k)


def near_threshold(file: Path, cwd: Path) -> None:
    """About 17,000 tokens: within the margin (8,000) of the threshold (23,616), not over it."""
    session = Session.create_at(file, str(cwd))
    for turn in range(8):
        session.append_message({"role": "user", "content": f"question {turn}: " + prose(790), "timestamp": turn})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": prose(820)}],
                                "api": "anthropic-messages", "provider": "anthropic", "model": "claude-test",
                                "stopReason": "stop", "timestamp": turn})
    session.close()


def test_the_request_after_the_crossing_does_not_wait_for_a_summary(server: FakeLLMServer, project: Path,
                                                                    tmp_path: Path) -> None:
    agent_dir = tmp_path / "agent"
    agent_dir.mkdir()
    file = tmp_path / "near.jsonl"
    near_threshold(file, project)
    with fake_llm_server() as summarizer:
        settings = {"compaction": {"summarizer": "anthropic", "baseUrl": summarizer.url, "keepRecentTokens": 2000}}
        (agent_dir / "settings.json").write_text(json.dumps(settings))
        summarizer.push(FakeReply(text=SUMMARY, delay=5), FakeReply(text=SUMMARY, delay=1))
        server.push(FakeReply(text="Short."), FakeReply(text="Answered right away."))
        # dense (numbered) lines: the 20,000 bytes a 40k window lets a command return still cross the threshold
        # (estimated 9,240 tokens; hex ids, which the tokenizer cuts finer, are estimated 12,956 since the
        # per-text bounds: a 30,438-token crossing, at which the chat asked the summarizer once more)
        (project / "big.log").write_text("A long log line. 4815162342 " * 2_200 + "\n")
        chat = Chat(["--session", str(file), "--base-url", server.url, "--model", "claude-test", "--window",
                     str(WINDOW), "--reserve", "16384"], agent_dir, project)

        shown = chat.say("first question")  # the background summary starts before this request is sent
        assert re.search(r"\] +[\d,]+ / 40,000 tokens \(\d+%\) · compact at 23,616 · 0 compactions · summarizing…",
                         shown)
        shown = chat.say("!cat big.log")  # the context crosses the threshold; the next request will compact
        assert re.search(r"\] +2[4-9],\d+ / 40,000 tokens", shown)
        for _ in range(200):  # /context shows the state; wait until the slow summarizer has answered
            if "next compaction: summary ready" in chat.say("/context"):
                break
        else:
            raise AssertionError("the background summary never became ready")
        asked = len(summarizer.requests)
        assert asked >= 1 and all("stream" not in r.body for r in summarizer.requests)

        shown = chat.say("second question")
        chat.child.sendline("/exit")
        chat.child.expect(pexpect.EOF)
        assert len(summarizer.requests) == asked  # nothing was asked at the crossing

    done = re.search(r"▣ Compacted \(threshold\): ([\d,]+) → ([\d,]+) tokens .* summary prepared in the background",
                     shown)
    assert done is not None and "Answered right away." in shown
    before, after = (int(n.replace(",", "")) for n in done.groups())
    assert before > THRESHOLD and after < 0.8 * THRESHOLD
    assert shown.index("▣ Compacted") < shown.index("Answered right away.")
    assert "Keep app.py greeting right" in json.dumps(server.requests[-1].body["messages"][0])
    assert "A long log line." in json.dumps(server.requests[-1].body["messages"])  # kept verbatim
    [compaction] = [e for e in entries(file) if e["type"] == "compaction"]
    assert compaction["details"]["speculative"] is True and "Keep app.py greeting right" in compaction["summary"]
    assert shutil.which("node") is None or first_difference(
        normalise(Session.open(file).build_context().to_json()), normalise(pi_context(file))) is None
