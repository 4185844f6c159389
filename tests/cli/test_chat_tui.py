"""`pi-compact chat` as a terminal program, through a pty against the fake server: answers drawn as Markdown
and wrapped at words, `/tree` as an arrow-key selector, line history kept across runs, Tab completing slash
commands, and an unknown model's window shown as assumed.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pexpect
import pytest

from pi_compact import Session
from pi_compact.cli.chat_input import HISTORY_FILE
from pi_compact.cli.chat_picker import Picker, preorder_ids
from pi_compact.store.paths import AGENT_DIR_ENV
from pi_compact.testing import FakeLLMServer, FakeReply
from tests.cli.test_chat_pty import Chat

UP, DOWN = "\x1b[A", "\x1b[B"
WORDS = ("parser", "tokenizer", "whitespace", "regression", "boundary", "lookahead", "terminator", "identifier")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root


def chat_in(project: Path, server: FakeLLMServer, *extra: str) -> Chat:
    return Chat(["--base-url", server.url, "--model", "claude-test", "--summarizer", "offline", *extra],
                project.parent / "agent", project)


def test_answers_are_markdown_wrapped_at_words(server: FakeLLMServer, project: Path) -> None:
    paragraph = " ".join(WORDS[i % len(WORDS)] + str(i) for i in range(60))  # ~700 characters, one line
    answer = (f"# The plan\n\nFirst **fix** the `lexer`.\n\n{paragraph}\n\n```python\nprint('kept as is')\n```\n\n"
              "- one item\n- another item\n")
    server.push(FakeReply(text=answer))
    chat = chat_in(project, server)
    shown = chat.say("what now?")
    assert "The plan" in shown and "# The plan" not in shown
    assert "First fix the lexer." in shown and "**" not in shown and "`lexer`" not in shown
    assert "print('kept as is')" in shown and "```" not in shown
    assert "• one item" in shown and "• another item" in shown
    lines = shown.splitlines()
    assert all(len(line) <= 120 for line in lines)
    for i in range(60):  # wrapped between words: every word whole on some line
        word = WORDS[i % len(WORDS)] + str(i)
        assert any(word in line.split() for line in lines), word
    assert sum(1 for line in lines if WORDS[0] in line or WORDS[3] in line) >= 5
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)


def test_the_tree_selector_moves_with_the_arrow_keys(server: FakeLLMServer, project: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(AGENT_DIR_ENV, str(tmp_path / "agent"))
    session = Session.create(str(project))
    ids = []
    for turn in range(3):
        ids.append(session.append_message({"role": "user", "content": f"question {turn}", "timestamp": turn})["id"])
        ids.append(session.append_message({"role": "assistant", "content": [{"type": "text", "text": f"answer {turn}"}],
                                           "stopReason": "stop", "timestamp": turn})["id"])
    session.close()
    chat = chat_in(project, server, "--session", str(session.path))
    chat.child.sendline("/tree")
    chat.child.expect_exact("Esc stay")
    chat.child.send("\x1b")  # Esc: stay where we are
    chat.prompt()
    assert Session.open(session.path).leaf_id == ids[-1]

    chat.child.sendline("/tree")
    chat.child.expect_exact("Esc stay")
    chat.child.send(UP + UP + DOWN)  # from the leaf (answer 2) up to answer 1, down to question 2
    chat.child.send("\r")
    chat.child.expect_exact("Summarize the branch you leave?")
    chat.child.sendline("n")
    shown = chat.prompt()
    assert "Your message is back in the input line" in shown
    server.push(FakeReply(text="Asked again."))
    assert "Asked again." in chat.say("")  # Enter sends the message put back: question 2
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)
    assert server.requests[-1].body["messages"][-1]["content"][-1]["text"] == "question 2"
    history = (tmp_path / "agent" / HISTORY_FILE).read_text().splitlines()
    assert history == ["/tree", "question 2"]  # the y/N answer is no prompt: not kept
    path = [e["id"] for e in Session.open(session.path).branch()]
    assert ids[3] in path and ids[4] not in path  # the question asked again hangs after answer 1


def test_picker_keys_and_the_drawing_order() -> None:
    picker = Picker(["a", "b", "c", "d", "e"], cursor=4, height=2, top=3)
    assert [picker.key(k) for k in ("up", "up", "k", "j")] == [None] * 4 and picker.cursor == 2
    assert picker.key("page_up") is None and (picker.cursor, picker.top) == (0, 0)
    assert picker.key("end") is None and (picker.cursor, picker.top) == (4, 3)
    assert picker.key("enter") == "e"
    for key in "ro" + "x" + "":
        picker.key(key)
    picker.key("backspace")
    assert picker.key("k") is None and picker.typed == "rok" and picker.cursor == 4  # typed, not moved
    picker.key("backspace"), picker.key("o"), picker.key("t")
    assert picker.key("enter") == "root" and picker.key("escape") == ""

    class Node:
        def __init__(self, id_: str, *children: "Node") -> None:
            self.id, self.children = id_, children

    roots = [Node("r", Node("a", Node("a1")), Node("b")), Node("s")]
    assert preorder_ids(roots) == ["r", "a", "a1", "b", "s"]


def test_history_is_kept_across_runs_and_tab_completes_commands(server: FakeLLMServer, project: Path) -> None:
    chat = chat_in(project, server)
    chat.child.send("/sta\t")
    chat.child.send("\r")
    shown = chat.prompt()
    assert "tokens in" in shown and "tool calls" in shown
    server.push(FakeReply(text="Noted."))
    assert "Noted." in chat.say("remember this line")
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)
    history = project.parent / "agent" / HISTORY_FILE
    assert stat.S_IMODE(os.stat(history).st_mode) == 0o600
    assert history.read_text().splitlines()[-2:] == ["/stats ", "remember this line"]

    server.push(FakeReply(text="Again."))
    again = chat_in(project, server)
    again.child.send(UP)
    again.child.send("\r")
    assert "Again." in again.prompt()
    again.child.sendeof()
    again.child.expect(pexpect.EOF)
    assert json.dumps(server.requests[-1].body["messages"][-1]).count("remember this line") == 1
    assert history.read_text().splitlines() == ["/stats ", "remember this line"]  # readline skips a repeat


def test_an_unknown_models_window_is_shown_as_assumed(server: FakeLLMServer, project: Path) -> None:
    chat = Chat(["--provider", "openai", "--base-url", server.url + "/v1", "--model", "qwen-local"],
                project.parent / "agent", project)
    assert "openai/qwen-local · window 128,000 (assumed; set --window) · thinking off" in chat.screen()
    chat.child.sendeof()
    chat.child.expect(pexpect.EOF)
    given = Chat(["--provider", "openai", "--base-url", server.url + "/v1", "--model", "qwen-local", "--window",
                  "32000"], project.parent / "agent", project)
    assert "window 32,000 tokens" in given.screen() and "assumed" not in given.screen()
    given.child.sendeof()
    given.child.expect(pexpect.EOF)
