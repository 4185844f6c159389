"""`pi-compact chat --confine --confirm-bash` in a pseudo-terminal, with a model scripted to misbehave.

The model reads /dev/zero (issue 13, item 6: that used to end the chat with a MemoryError) and a file
outside the project, and runs two bash commands; the user refuses the first and allows the second.
"""

from __future__ import annotations

import json
from pathlib import Path

import pexpect

from pi_compact.testing import FakeLLMServer, FakeReply
from tests.cli.test_chat_pty import Chat, entries, only_session, project  # noqa: F401 - project is a fixture


def tool_results(session_file: Path) -> dict[str, dict]:
    found = [e["message"] for e in entries(session_file) if e["type"] == "message"]
    return {m["toolCallId"]: m for m in found if m["role"] == "toolResult"}


def test_confined_chat_survives_dev_zero_and_asks_before_bash(server: FakeLLMServer, project: Path,
                                                              tmp_path: Path) -> None:
    (tmp_path / "outside.txt").write_text("secret outside\n")
    server.push(
        FakeReply(tool_calls=[
            {"id": "z", "name": "read", "arguments": {"path": "/dev/zero"}},
            {"id": "o", "name": "read", "arguments": {"path": "../outside.txt"}},
            {"id": "b1", "name": "bash", "arguments": {"command": "touch refused.txt"}}]),
        FakeReply(tool_calls=[{"id": "b2", "name": "bash", "arguments": {"command": "touch allowed.txt"}}]),
        FakeReply(text="Finished, within bounds."),
    )
    chat = Chat(["--base-url", server.url, "--model", "claude-test", "--summarizer", "offline", "--confine",
                 "--confirm-bash"], tmp_path / "agent", project)
    assert f"tools confined to {project} (bash is not) · bash asks first" in chat.screen()
    chat.child.sendline("poke around")
    chat.child.expect_exact("Run `touch refused.txt`? [y/N]")
    chat.child.sendline("n")
    chat.child.expect_exact("Run `touch allowed.txt`? [y/N]")
    chat.child.sendline("y")
    shown = chat.prompt()
    assert "Finished, within bounds." in shown
    chat.child.sendline("/exit")
    chat.child.expect(pexpect.EOF)

    screen = chat.screen()
    assert "/dev/zero is outside the working directory" in screen  # confinement is checked first
    assert "outside.txt is outside the working directory" in screen and "Traceback" not in screen
    assert not (project / "refused.txt").exists() and (project / "allowed.txt").exists()
    results = tool_results(only_session(tmp_path / "agent"))
    assert {call: r["isError"] for call, r in results.items()} == {"z": True, "o": True, "b1": True, "b2": False}
    assert "declined" in results["b1"]["content"][0]["text"]
    assert "secret outside" not in json.dumps([r.body for r in server.requests])


def test_without_the_options_chat_says_its_tools_are_unconfined(server: FakeLLMServer, project: Path,
                                                                tmp_path: Path) -> None:
    server.push(FakeReply(tool_calls=[{"id": "z", "name": "read", "arguments": {"path": "/dev/zero"}}]),
                FakeReply(text="Still here."))
    chat = Chat(["--base-url", server.url, "--model", "claude-test", "--summarizer", "offline"],
                tmp_path / "agent", project)
    assert "tools run unconfined, bash without asking (as in pi)" in chat.screen()
    shown = chat.say("read the zero device")
    assert "Not a regular file: /dev/zero" in shown and "Still here." in shown
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)
