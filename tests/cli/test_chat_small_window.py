"""`pi-compact chat` with a small local model (8k and 16k windows): a long chat with tool output, typed through
a pseudo-terminal against the fake LLM server.

The reserve and the kept tail scale down to the window (pi's fixed 16,384 + 20,000 would refuse a 16k window
and leave a 30k one nothing to summarize), so every compaction is a summary, never a ``truncate``; and no
request the server received, counted with the project's own estimator, asks for more than the window: its
prompt plus the answer it allows (``max_tokens``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import orjson
import pexpect
import pytest

from pi_compact.accessors import json_strings
from pi_compact.compaction.tokens import text_tokens
from pi_compact.testing import FakeLLMServer, FakeReply
from tests.cli.test_chat_pty import Chat, entries, only_session, role_or_type

TURNS = 14
SUMMARY = ("## Goal\nMake the test suite pass\n\n## Constraints & Preferences\n(none)\n\n## Progress\n### Done\n"
           "- [x] ran the suite step by step\n\n## Key Decisions\n(none)\n\n## Next Steps\n1. go on\n\n"
           "## Critical Context\n(none)")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "AGENTS.md").write_text("Answer briefly.\n")
    return root


def request_tokens(body: dict) -> int:
    """A recorded request's size by the project's estimator, weighed as the agent weighs a context: the system
    prompt, the tool schemas, and each message block's text (a tool call: its name and arguments)."""
    tools = [[t["name"], t["description"], t["input_schema"]] for t in body.get("tools", [])]
    total = text_tokens("".join(json_strings(body.get("system")))) + (text_tokens(orjson.dumps(tools).decode()) if tools else 0)
    for message in body["messages"]:
        content = message["content"]
        for block in content if isinstance(content, list) else [{"type": "text", "text": content}]:
            if block["type"] == "tool_use":
                total += text_tokens(block["name"]) + text_tokens(orjson.dumps(block["input"]).decode())
            elif block["type"] == "tool_result":
                total += sum(text_tokens(part.get("text", "")) for part in block["content"])
            else:
                total += text_tokens(block.get("text", ""))
    return total


def chat_requests(server: FakeLLMServer) -> list[dict]:
    """The chat's own requests (streamed), not the summarizer's."""
    return [r.body for r in server.requests if r.body.get("stream")]


def compaction_lines(screen: str) -> list[str]:
    return re.findall(r"▣ Compacted \(\w+\)[^\n]*", screen)


def test_the_window_flags_scale_the_reserve_and_the_kept_tail() -> None:
    from pi_compact.cli.chat_cmds import window_fitter
    from pi_compact.compaction import CompactionSettings

    fit = window_fitter(CompactionSettings())
    assert (fit(8000).reserve_tokens, fit(8000).keep_recent_tokens) == (2000, 1500)
    assert (fit(200_000).reserve_tokens, fit(200_000).keep_recent_tokens) == (16384, 20000)
    pinned = window_fitter(CompactionSettings(), reserve=1000, keep_recent=0)(8000)
    assert (pinned.reserve_tokens, pinned.keep_recent_tokens) == (1000, 0)


@pytest.mark.parametrize("window", [8000, 16000])
def test_a_long_chat_with_tool_output_in_a_small_window(server: FakeLLMServer, project: Path, tmp_path: Path,
                                                        window: int) -> None:
    agent_dir = tmp_path / "agent"
    chat = Chat(["--base-url", server.url, "--model", "local-model", "--window", str(window), "--summarizer", "offline"],
                agent_dir, project)
    assert f"window {window:,} tokens" in chat.screen() and f"working in {project}" in chat.screen()
    for turn in range(TURNS):
        lines = (40, 70, 100, 300)[turn % 4]  # some outputs are longer than a small window lets a tool return
        command = f"for i in $(seq 1 {lines}); do echo \"test_case_{turn}_$i ... ok ({turn * 7 + 3} ms)\"; done"
        server.push(FakeReply(text=f"Running step {turn}.", tool_calls=[
                        {"id": f"b{turn}", "name": "bash", "arguments": {"command": command}}]),
                    FakeReply(text=f"Step {turn} passed: {lines} cases, all ok. " + "Noted. " * 40))
        shown = chat.say(f"step {turn}: run the cases of part {turn} and tell me what failed")
        assert f"Step {turn} passed" in shown
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)

    written = entries(only_session(agent_dir))
    compactions = [e for e in written if e["type"] == "compaction"]
    assert len(compactions) >= (3 if window == 8000 else 1)
    assert [c["details"]["strategy"] for c in compactions if c["details"]["strategy"] == "truncate"] == []
    shown = compaction_lines(chat.screen())
    assert len(shown) == len(compactions) and not any("truncate" in line or "dropped" in line for line in shown)
    assert all(re.search(r"· (offline|prune): [\d,]+ messages? summarized", line) for line in shown), shown

    requests = chat_requests(server)
    assert len(requests) == 2 * TURNS
    reserve = window // 4
    assert {body["max_tokens"] for body in requests} == {reserve}
    sizes = [request_tokens(body) + body["max_tokens"] for body in requests]
    assert max(sizes) <= window, sizes
    assert max(sizes) > window * 3 // 4  # the window is used, not just avoided
    last = json.dumps(requests[-1]["messages"])
    assert f"step {TURNS - 1}: run the cases" in last and "The conversation history before this point" in last
    kinds = [role_or_type(e) for e in written]
    assert kinds.count("user") == TURNS and kinds.count("toolResult") == TURNS
    cut = [e["message"] for e in written if role_or_type(e) == "toolResult" and e["message"].get("details")]
    assert cut and all(r["details"]["truncation"]["maxBytes"] == window // 2 for r in cut)


def test_the_chats_own_model_summarizes_in_an_8k_window(project: Path, tmp_path: Path) -> None:
    # Every request gets the same answer, a summary-shaped text: so the background summaries (which the chat
    # prepares near the threshold, on their own thread) and the turns never race for scripted replies.
    from pi_compact.testing import fake_llm_server

    agent_dir = tmp_path / "agent"
    (project / "notes.txt").write_text("".join(f"note {i}: the parser drops the last token of line {i}\n"
                                               for i in range(45)))
    with fake_llm_server(default_text=SUMMARY) as server:
        chat = Chat(["--base-url", server.url, "--model", "local-model", "--window", "8000"], agent_dir, project)
        for turn in range(TURNS):
            assert "note 44" in chat.say("!cat notes.txt")
            assert "Make the test suite pass" in chat.say(f"question {turn}: which notes matter for the parser?")
        chat.child.sendeof()
        chat.child.expect(pexpect.EOF)
        requests = chat_requests(server)
        summarizer_requests = [r.body for r in server.requests if not r.body.get("stream")]

    compactions = [e for e in entries(only_session(agent_dir)) if e["type"] == "compaction"]
    assert len(compactions) >= 2 and summarizer_requests
    # a first compaction may quote a short region (prune); every later one is the model's summary
    strategies = [(c["details"]["strategy"], c["details"].get("fallbackReason")) for c in compactions]
    assert {s for s, _ in strategies[1:]} == {"summarize"}, strategies
    assert all("Make the test suite pass" in c["summary"] for c in compactions[1:])
    assert max(request_tokens(body) + body["max_tokens"] for body in requests) <= 8000
    assert all(request_tokens(body) + body["max_tokens"] <= 8000 for body in summarizer_requests)
