"""Slash commands driven through a scripted UI: what they write to the session and what they refuse."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.agent import Agent, Commands, Reply, make_provider
from pi_compact.agent.commands import NAVIGATION_BUSY
from pi_compact.branching import CHECKOUT_TYPE
from pi_compact.compaction import CompactionSettings
from pi_compact.compaction.compactor import compaction_lock_path
from pi_compact.store.locks import try_exclusive
from pi_compact.store.paths import AGENT_DIR_ENV
from pi_compact.testing import FakeLLMServer, FakeReply

KEY = "sk-ant-test-0123456789"


class ScriptedUI:
    """Answers questions from a list and keeps every reply."""

    def __init__(self, answers: list[str | None] | None = None) -> None:
        self.answers = list(answers or [])
        self.replies: list[Reply] = []
        self.questions: list[str] = []

    def show(self, reply: Reply) -> None:
        self.replies.append(reply)

    def ask(self, question: str) -> str | None:
        self.questions.append(question)
        return self.answers.pop(0) if self.answers else None

    def texts(self) -> list[str]:
        return [r.text for r in self.replies if r.text]


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(AGENT_DIR_ENV, str(tmp_path / "agent"))


def chat(server: FakeLLMServer, tmp_path: Path, answers=None) -> tuple[Commands, ScriptedUI]:
    (tmp_path / "proj").mkdir(exist_ok=True)
    llm = make_provider("anthropic", "claude-test", base_url=server.url, api_key=KEY, max_retries=0)
    agent = Agent(Session.create(str(tmp_path / "proj")), llm, cwd=str(tmp_path / "proj"),
                  settings=CompactionSettings(keep_recent_tokens=10))
    ui = ScriptedUI(answers)

    def factory(name: str, model: str):
        return make_provider(name, model, base_url=server.url if name == "anthropic" else server.url + "/v1",
                             api_key=KEY, max_retries=0)

    return Commands(agent, ui, factory), ui


def two_turns(commands: Commands, server: FakeLLMServer) -> list[dict]:
    server.push(FakeReply(text="first answer"), FakeReply(text="second answer"))
    commands.agent.prompt("first question")
    commands.agent.prompt("second question")
    return [e for e in commands.agent.session.entries() if e["type"] == "message"]


@pytest.mark.parametrize("line", ["/help", "/stats", "/context", "/model", "/thinking", "/name"],
                         ids=["help", "stats", "context", "model", "thinking", "name"])
def test_reports_write_nothing(server, tmp_path, line) -> None:
    commands, ui = chat(server, tmp_path)
    assert commands.run(line).exit is False
    assert ui.replies and ui.replies[0].kind != "error"
    assert commands.agent.session.path is not None and not commands.agent.session.path.exists()


def test_commands_and_prompts_are_told_apart(server, tmp_path) -> None:
    commands, ui = chat(server, tmp_path)
    assert Commands.is_command("/compact focus on tests") and Commands.is_command("/exit")
    assert not Commands.is_command("/usr/bin/python crashes, why?") and not Commands.is_command("hello")
    assert commands.run("/quit").exit and commands.run("/exit").exit
    commands.run("/nope")
    assert ui.texts() == ["Unknown command /nope. Type /help for the list of commands."]


def test_label_name_and_thinking_are_entries(server, tmp_path) -> None:
    commands, ui = chat(server, tmp_path)
    first = two_turns(commands, server)[0]
    commands.run(f"/label {first['id'][:5]} start here")
    commands.run("/name  Parser work ")
    commands.run("/thinking high")
    commands.run("/thinking high")
    commands.run("/thinking extreme")
    session = commands.agent.session
    assert session.label(first["id"]) == "start here" and session.name == "Parser work"
    assert [e["thinkingLevel"] for e in session.entries() if e["type"] == "thinking_level_change"] == ["off", "high"]
    assert "unknown thinking level 'extreme'" in ui.texts()[-1]
    commands.run(f"/label {first['id']}")
    assert session.label(first["id"]) is None


def test_model_switch_is_a_model_change_and_the_next_request_uses_it(server, tmp_path) -> None:
    commands, ui = chat(server, tmp_path)
    two_turns(commands, server)
    commands.run("/model openai/gpt-4.1")
    assert "Model: openai/gpt-4.1 (window 1,047,576 tokens)" in ui.texts()
    commands.agent.prompt("third")
    assert server.requests[-1].path == "/v1/chat/completions" and server.requests[-1].body["model"] == "gpt-4.1"
    changes = [(e["provider"], e["modelId"]) for e in commands.agent.session.entries() if e["type"] == "model_change"]
    assert changes == [("anthropic", "claude-test"), ("openai", "gpt-4.1")]
    commands.run("/model mistral/large")
    assert "usage: /model PROVIDER/MODEL" in ui.texts()[-1]


@pytest.mark.parametrize(
    ("content", "given_back"),
    [
        ("plain text", "plain text"),
        ([{"type": "text", "text": "look at "}, {"type": "image", "data": "AA==", "mimeType": "image/png"},
          {"type": "text", "text": "this"}], "look at this"),
        ([{"type": "text", "text": 42}, {"type": "text"}, "stray", {"type": "text", "text": "kept"}], "kept"),
        ({"not": "a list"}, ""),
    ],
    ids=["string", "text-and-image-blocks", "malformed-blocks", "not-a-list"],
)
def test_checkout_of_a_prompt_gives_back_the_text_of_its_content(server, tmp_path, content, given_back) -> None:
    commands, _ = chat(server, tmp_path)
    two_turns(commands, server)
    prompt = commands.agent.session.append_message({"role": "user", "content": content, "timestamp": 0})
    assert commands.run(f"/checkout {prompt['id']}").editor_text == given_back


def test_checkout_of_a_prompt_lands_before_it_and_gives_it_back(server, tmp_path) -> None:
    commands, ui = chat(server, tmp_path)
    messages = two_turns(commands, server)
    second_question = messages[2]
    outcome = commands.run(f"/checkout {second_question['id']}")
    assert outcome.editor_text == "second question"
    session = commands.agent.session
    summary = session.entry(session.leaf_id)
    assert summary["type"] == "branch_summary" and summary["parentId"] == messages[1]["id"]
    assert [r.kind for r in ui.replies] == ["checkout"]


def test_tree_asks_where_and_whether_to_summarize(server, tmp_path) -> None:
    commands, ui = chat(server, tmp_path, answers=["root", "n"])
    two_turns(commands, server)
    commands.run("/tree")
    assert [r.kind for r in ui.replies] == ["tree", "checkout"]
    assert ui.questions[1].startswith("Summarize the branch you leave?")
    leaf = commands.agent.session.entry(commands.agent.session.leaf_id)
    assert (leaf["type"], leaf["customType"], leaf["parentId"]) == ("custom", CHECKOUT_TYPE, None)
    assert commands.agent.session.build_context().messages == []


def test_tree_with_no_answer_stays(server, tmp_path) -> None:
    commands, ui = chat(server, tmp_path, answers=[""])
    two_turns(commands, server)
    leaf = commands.agent.session.leaf_id
    commands.run("/tree")
    assert commands.agent.session.leaf_id == leaf and [r.kind for r in ui.replies] == ["tree"]


def test_navigation_waits_for_a_running_compaction(server, tmp_path) -> None:
    commands, ui = chat(server, tmp_path)
    messages = two_turns(commands, server)
    session = commands.agent.session
    before = session.path.read_bytes()
    with try_exclusive(compaction_lock_path(session)) as held:
        assert held
        commands.run(f"/checkout {messages[1]['id']}")
    assert ui.texts() == [NAVIGATION_BUSY] and session.path.read_bytes() == before
    commands.run(f"/checkout {messages[1]['id']}")
    assert ui.replies[-1].kind == "checkout"


def test_compact_and_fork(server, tmp_path) -> None:
    commands, ui = chat(server, tmp_path)
    commands.run("/compact")
    assert ui.texts() == ["Nothing to compact (no messages yet)"]
    two_turns(commands, server)
    commands.run("/compact keep the questions")
    assert ui.replies[-1].kind == "compaction"
    old = commands.agent.session
    commands.run("/fork")
    forked = commands.agent.session
    assert forked.path != old.path and forked.header["parentSession"] == str(old.path)
    assert forked.build_context().to_json() == Session.open(old.path).build_context().to_json()
