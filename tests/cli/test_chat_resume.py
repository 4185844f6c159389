"""`pi-compact chat` resumed from another directory, and the losses a compaction reports, through a pty.

A session recorded in a project works in that project when resumed from anywhere else: its tools run there and
its AGENTS.md is loaded, and the banner says where it works; a session whose directory is gone says so in one
line and works in the current one. A compaction whose summarizer failed says so on its status line.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pexpect
import pytest

from pi_compact import Session
from pi_compact.store.paths import AGENT_DIR_ENV
from pi_compact.testing import FakeLLMServer, FakeReply, fake_llm_server
from tests.cli.test_chat_pty import Chat, entries


@pytest.fixture
def agent_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "agent"
    monkeypatch.setenv(AGENT_DIR_ENV, str(folder))  # where Session.create files the recorded sessions
    return folder


def recorded(project: Path, turns: int = 3, words: int = 0) -> Session:
    session = Session.create(str(project))
    for turn in range(turns):
        session.append_message({"role": "user", "content": f"question {turn} about the parser", "timestamp": turn})
        text = f"answer {turn}: look at lexer.py" + " and the tokens it drops" * words
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": text}],
                                "api": "anthropic-messages", "provider": "anthropic", "model": "claude-test",
                                "stopReason": "stop", "timestamp": turn})
    session.close()
    return session


def test_resuming_from_elsewhere_works_in_the_sessions_directory(server: FakeLLMServer, tmp_path: Path,
                                                                 agent_dir: Path) -> None:
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir(), elsewhere.mkdir()
    (project / "AGENTS.md").write_text("Project rule: answer in haiku.\n")
    session = recorded(project)
    server.push(FakeReply(tool_calls=[{"id": "p1", "name": "bash", "arguments": {"command": "pwd"}}]),
                FakeReply(text="You are in the project."))
    chat = Chat(["-r", session.id[:8], "--base-url", server.url, "--summarizer", "offline"], agent_dir, elsewhere)
    banner = chat.screen()
    assert f"working in {project}" in banner and f"rules: {project / 'AGENTS.md'}" in banner
    assert "6 messages on this branch" in banner
    assert "you        question 2 about the parser" in banner and "assistant  answer 2: look at lexer.py" in banner
    assert "question 0" not in banner  # the recap is the last messages, not the whole branch

    shown = chat.say("where are we?")
    assert f"  {project}" in shown and "You are in the project." in shown
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)
    first = server.requests[0].body
    assert "Project rule: answer in haiku." in json.dumps(first["system"])
    result = entries(session.path)[-2]["message"]
    assert (result["role"], result["content"][0]["text"]) == ("toolResult", str(project))


def test_a_session_whose_directory_is_gone_works_here_and_says_so(server: FakeLLMServer, tmp_path: Path,
                                                                 agent_dir: Path) -> None:
    gone, here = tmp_path / "gone", tmp_path / "here"
    gone.mkdir(), here.mkdir()
    session = recorded(gone, turns=1)
    shutil.rmtree(gone)
    server.push(FakeReply(tool_calls=[{"id": "p1", "name": "bash", "arguments": {"command": "pwd"}}]),
                FakeReply(text="Here it is."))
    chat = Chat(["--session", str(session.path), "--base-url", server.url, "--summarizer", "offline"], agent_dir, here)
    banner = chat.screen()
    warning = f"warning: the session's directory {gone} no longer exists; working in {here}"
    assert warning in banner and f"working in {here}" in banner
    assert banner.index(warning) < banner.index("pi-compact chat ·")
    chat.say("where?")
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)
    assert entries(session.path)[-2]["message"]["content"][0]["text"] == str(here)


def test_cwd_overrides_the_sessions_directory(server: FakeLLMServer, tmp_path: Path, agent_dir: Path) -> None:
    project, chosen = tmp_path / "project", tmp_path / "chosen"
    project.mkdir(), chosen.mkdir()
    session = recorded(project, turns=1)
    chat = Chat(["--session", str(session.path), "--cwd", str(chosen), "--base-url", server.url, "--summarizer",
                 "offline"], agent_dir, tmp_path)
    assert f"working in {chosen}" in chat.screen()
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)


def test_a_failed_summarizer_is_named_on_the_compaction_line(server: FakeLLMServer, tmp_path: Path,
                                                             agent_dir: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    session = recorded(project, turns=6, words=300)  # too long to quote: a summarizer's work
    with fake_llm_server() as failing:
        failing.push(*[FakeReply(status=500, text="summarizer overloaded")] * 6)
        agent_dir.mkdir(parents=True, exist_ok=True)
        (agent_dir / "settings.json").write_text(json.dumps(
            {"compaction": {"summarizer": "anthropic", "baseUrl": failing.url, "keepRecentTokens": 20}}))
        chat = Chat(["--session", str(session.path), "--base-url", server.url], agent_dir, project)
        shown = chat.say("/compact focus on the lexer")  # instructions: a summarizer's work, never a quoted transcript
        chat.child.sendeof()
        chat.child.expect(pexpect.EOF)
    line = next(text for text in shown.splitlines() if "▣ Compacted (manual)" in text)
    assert "· offline: " in line and "messages summarized" in line
    assert "(summarizer failed: anthropic: anthropic API error 500: summarizer overloaded)" in line
    [entry] = [e for e in entries(session.path) if e["type"] == "compaction"]
    assert entry["details"]["fallbackReason"].startswith("anthropic: anthropic API error 500")
