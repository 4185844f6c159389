"""`pi-compact chat` end to end: the real entry point in a pseudo-terminal (pexpect), against the fake LLM server.

A person's session is typed in: a question, a tool-using turn that edits a temporary project, shell commands,
/compact, /label, /name, /stats, /context, an unknown command, a context-overflow error, /tree back to an
earlier prompt with a branch summary, and /exit. Then the screen, the session file (which the real pi must
read to the same context) and the project's files are checked. A second chat shows that a line typed while a
compaction runs is kept and answered afterwards.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import time
from pathlib import Path

import pexpect
import pytest

from pi_compact import Session
from pi_compact.testing import FakeLLMServer, FakeReply
from tests.conformance.jsoncmp import first_difference, normalise
from tests.conformance.pi_ref import pi_context
from tests.prose import prose


PROJECT = Path(__file__).resolve().parents[2]
CHAT = [str(PROJECT / ".venv" / "bin" / "python"), "-m", "pi_compact", "chat"]
KEY = "sk-ant-test-0123456789"
OVERFLOW = "prompt is too long: 250000 tokens > 200000 maximum"
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\r")
SUMMARY = ("## Goal\nKeep app.py greeting right\n\n## Constraints & Preferences\n(none)\n\n## Progress\n"
           "### Done\n- [x] talked\n\n## Key Decisions\n(none)\n\n## Next Steps\n1. go on\n\n## Critical Context\n(none)")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / ".pi").mkdir(parents=True)
    (root / "app.py").write_text("def greet():\n    return 'hello'\n")
    (root / "AGENTS.md").write_text("Answer briefly.\n")
    (root / ".pi" / "settings.json").write_text(json.dumps({"compaction": {"keepRecentTokens": 30}}))
    return root


class Chat:
    """One ``pi-compact chat`` process in a pseudo-terminal, with everything it printed kept as plain text."""

    def __init__(self, args: list[str], agent_dir: Path, cwd: Path, *, env: dict[str, str] | None = None) -> None:
        base = {"PATH": "/usr/bin:/bin", "HOME": str(agent_dir.parent), "TERM": "xterm", "COLUMNS": "120",
                "PI_CODING_AGENT_DIR": str(agent_dir), "ANTHROPIC_API_KEY": KEY}
        self.log = io.StringIO()
        self.child = pexpect.spawn(CHAT[0], CHAT[1:] + args, env={**base, **(env or {})}, cwd=str(cwd),
                                   encoding="utf-8", timeout=30, dimensions=(50, 120))
        self.child.logfile_read = self.log
        self.prompt()

    def prompt(self) -> str:
        """Wait for the input prompt; return the plain text printed since the last one."""
        start = len(self.log.getvalue())
        self.child.expect_exact("\n> ")
        return plain(self.log.getvalue()[start:])

    def say(self, line: str) -> str:
        self.child.sendline(line)
        return self.prompt()

    def screen(self) -> str:
        return plain(self.log.getvalue())


def plain(text: str) -> str:
    return _ANSI.sub("", text)


def only_session(agent_dir: Path) -> Path:
    [path] = list((agent_dir / "sessions").rglob("*.jsonl"))
    return path


def entries(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def role_or_type(entry: dict) -> str:
    return entry["message"]["role"] if entry["type"] == "message" else entry["type"]


def test_a_working_session_through_the_terminal(server: FakeLLMServer, project: Path, tmp_path: Path) -> None:
    agent_dir = tmp_path / "agent"
    server.push(
        FakeReply(text="Hello from the fake model, ready to help."),
        FakeReply(tool_calls=[{"id": "t1", "name": "read", "arguments": {"path": "app.py"}}]),
        FakeReply(text="Changing it.", tool_calls=[
            {"id": "t2", "name": "edit", "arguments": {"path": "app.py", "oldText": "'hello'", "newText": "'bye'"}},
            {"id": "t3", "name": "bash", "arguments": {"command": "python3 -c 'import app; print(app.greet())'"}}]),
        FakeReply(text="All done: greet returns bye."),
    )
    chat = Chat(["--provider", "anthropic", "--model", "claude-test", "--base-url", server.url, "--summarizer",
                 "offline"], agent_dir, project)
    assert "anthropic/claude-test · window 200,000 tokens" in chat.screen()
    assert f"rules: {project / 'AGENTS.md'}" in chat.screen()

    shown = chat.say("hello")
    assert "Hello from the fake model, ready to help." in shown
    assert re.search(r"\] +[\d,]+ / 200,000 tokens \(\d+%\)( est\.)? · compact at 183,616 · 0 compactions", shown)

    shown = chat.say("make greet say bye")
    assert "● read(app.py)" in shown and "-    return 'hello'" in shown and "+    return 'bye'" in shown
    assert "● bash(python3 -c 'import app; print(app.greet())')" in shown and "  bye" in shown
    assert "All done: greet returns bye." in shown
    assert (project / "app.py").read_text() == "def greet():\n    return 'bye'\n"

    server.push(FakeReply(status=400, text=OVERFLOW), FakeReply(text="Recovered after compacting."))
    shown = chat.say("one more question")
    assert OVERFLOW in shown and "▣ Compacted (overflow)" in shown and "Recovered after compacting." in shown
    assert "· 1 compaction" in shown

    assert "from-the-user" in chat.say("!echo from-the-user")
    assert "(not sent to the model)" in chat.say("!!echo kept-out")

    shown = chat.say("/compact focus on app.py")
    assert "▣ Compacted (manual)" in shown and "· 2 compactions" in shown

    session_file = only_session(agent_dir)
    first_user = next(e for e in entries(session_file) if role_or_type(e) == "user")
    assert f"Labelled {first_user['id']} “greeting”." in chat.say(f"/label {first_user['id'][:6]} greeting")
    assert "Session named “Greeting work”." in chat.say("/name Greeting work")

    shown = chat.say("/stats")
    assert "Greeting work" in shown and "2 compactions" in shown and "tool calls  3" in shown
    assert re.search(r"tokens in +[\d,]+", shown) and "cost        unknown for this model" in shown
    shown = chat.say("/context")
    assert re.search(r"\d+ messages · [\d,]+ of 200,000 tokens", shown) and "compactionSummary" not in shown
    assert "The conversation history before this point was compacted" in shown
    assert "Unknown command /frobnicate. Type /help for the list of commands." in chat.say("/frobnicate")

    second_user = [e for e in entries(session_file) if role_or_type(e) == "user"][1]
    chat.child.sendline("/tree")
    chat.child.expect_exact("Esc stay")  # the selector; typing an id prefix goes to that entry
    chat.child.sendline(second_user["id"][:8])
    chat.child.expect_exact("Summarize the branch you leave?")
    chat.child.sendline("y")
    shown = chat.prompt()
    assert "branch summary" in shown and "Your message is back in the input line" in shown
    server.push(FakeReply(text="A second try, from the earlier prompt."))
    shown = chat.say("")  # the prompt was put back in the input line: Enter sends it again
    assert "A second try, from the earlier prompt." in shown

    chat.child.sendline("/exit")
    chat.child.expect(pexpect.EOF)
    assert f"Session saved: {session_file}" in chat.screen()

    written = entries(session_file)
    kinds = [role_or_type(e) for e in written]
    assert kinds[:3] == ["model_change", "thinking_level_change", "user"]
    for kind in ("toolResult", "bashExecution", "compaction", "label", "session_info", "branch_summary"):
        assert kind in kinds, kind
    assert kinds.count("compaction") == 2
    bash_runs = [e["message"] for e in written if role_or_type(e) == "bashExecution"]
    assert [(b["command"], b.get("excludeFromContext", False)) for b in bash_runs] == [
        ("echo from-the-user", False), ("echo kept-out", True)]
    resent = server.requests[-1].body["messages"]
    assert resent[-1]["content"][-1]["text"] == "make greet say bye"
    assert "The following is a summary of a branch" in json.dumps(resent)

    ours = normalise(Session.open(session_file).build_context().to_json())
    assert first_difference(ours, normalise(pi_context(session_file))) is None
    assert ours["messages"][-1]["content"][0]["text"] == "A second try, from the earlier prompt."


def test_a_line_typed_during_a_compaction_is_answered_after_it(server: FakeLLMServer, project: Path,
                                                                tmp_path: Path) -> None:
    agent_dir = tmp_path / "agent"
    settings = {"compaction": {"keepRecentTokens": 60, "summaryMinTokens": 64, "summaryMaxTokens": 200}}
    (project / ".pi" / "settings.json").write_text(json.dumps(settings))
    file = tmp_path / "work.jsonl"
    session = Session.create_at(file, str(project))
    for turn in range(6):
        session.append_message({"role": "user", "content": f"question {turn}: " + prose(120), "timestamp": turn})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": f"answer {turn}"}],
                                "api": "anthropic-messages", "provider": "anthropic", "model": "claude-test",
                                "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                                          "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                                "stopReason": "stop", "timestamp": turn})
    session.close()
    server.push(FakeReply(text=SUMMARY, delay=2.0), FakeReply(text="Answer to the queued question."))
    chat = Chat(["--session", str(file), "--base-url", server.url], agent_dir, project)
    assert "(resumed)" in chat.screen() and "12 messages on this branch" in chat.screen()

    chat.child.sendline("/compact")
    chat.child.expect_exact("Compacting")
    chat.child.sendline("the queued question")
    chat.child.expect_exact("▣ Compacted (manual)")
    chat.prompt()
    shown = chat.prompt()
    assert "Answer to the queued question." in shown
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)

    summary_request, answer_request = server.requests
    assert "stream" not in summary_request.body  # the summarizer, not the chat
    kinds = [role_or_type(e) for e in entries(file)]
    assert kinds[-4:] == ["thinking_level_change", "compaction", "user", "assistant"]
    assert entries(file)[-2]["message"]["content"][0]["text"] == "the queued question"
    assert "## Goal\nKeep app.py greeting right" in entries(file)[-3]["summary"]
    assert "the queued question" in json.dumps(answer_request.body["messages"][-1])
    assert shutil.which("node") is None or first_difference(
        normalise(Session.open(file).build_context().to_json()), normalise(pi_context(file))) is None


def test_ctrl_c_cancels_a_reply_or_a_tool_and_keeps_what_was_written(server: FakeLLMServer, project: Path,
                                                                     tmp_path: Path) -> None:
    agent_dir = tmp_path / "agent"
    server.push(FakeReply(text="too late", delay=20),
                FakeReply(tool_calls=[{"id": "s1", "name": "bash", "arguments": {"command": "echo going; sleep 30"}}]))
    chat = Chat(["--base-url", server.url, "--model", "claude-test"], agent_dir, project)
    chat.child.sendline("a slow question")
    chat.child.expect_exact("Waiting for the model")
    chat.child.sendintr()
    assert "(reply cut short: what arrived is kept)" in chat.prompt()
    chat.child.sendline("run something slow")
    chat.child.expect_exact("bash(echo going; sleep 30)")
    chat.child.expect_exact("Running")
    time.sleep(0.5)  # let the command print before it is cancelled
    chat.child.sendintr()
    assert "Command aborted by the user" in chat.prompt()
    chat.child.sendintr()
    assert "(Ctrl-D or /exit to leave)" in chat.prompt()
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)

    written = entries(only_session(agent_dir))
    aborted = [e["message"] for e in written if role_or_type(e) == "assistant"][0]
    assert (aborted["stopReason"], aborted["content"]) == ("aborted", [])
    result = written[-1]["message"]
    assert (result["role"], result["toolCallId"], result["isError"]) == ("toolResult", "s1", True)
    assert result["content"][0]["text"].startswith("going")
    assert len(server.requests) == 2  # nothing was sent after the cancelled tool
