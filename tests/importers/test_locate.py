"""Finding another agent's sessions for a directory: Claude Code's folder naming (both spellings) and the
environment variables that move each agent's home."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_compact import UsageError
from pi_compact.importers.locate import agent_sessions, claude_project_dir

from .rows import cc_user, codex_message, codex_meta, jsonl


@pytest.mark.parametrize(("cwd", "folder"), [
    ("/home/me/proj", "-home-me-proj"),
    ("/home/me/my_proj.v2", "-home-me-my-proj-v2"),
    ("/Users/me/Mes Documents/é", "-Users-me-Mes-Documents--"),
], ids=["plain", "underscore-and-dot", "space-and-accent"])
def test_claude_codes_folder_replaces_every_character_but_letters_and_digits(cwd, folder, tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path))
    assert claude_project_dir(cwd) == tmp_path / "projects" / folder


def test_the_older_spelling_is_used_where_only_it_exists(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path))
    older = tmp_path / "projects" / "-home-me-my_proj"
    older.mkdir(parents=True)
    (older / "s.jsonl").write_bytes(jsonl([cc_user("u1", None, "hello")]))
    assert claude_project_dir("/home/me/my_proj") == older
    assert [s.first_message for s in agent_sessions("claude-code", "/home/me/my_proj")] == ["hello"]


def test_without_the_variables_the_homes_are_under_the_users_home(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    day = tmp_path / ".codex" / "sessions" / "2026" / "01" / "02"
    day.mkdir(parents=True)
    (day / "rollout-x.jsonl").write_bytes(jsonl([codex_meta("r1", "/w"), codex_message("user", "task")]))
    assert claude_project_dir("/w") == tmp_path / ".claude" / "projects" / "-w"
    assert [s.id for s in agent_sessions("codex", "/w")] == ["r1"]
    assert agent_sessions("claude-code", "/w") == []


def test_an_unknown_agent_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown agent 'aider'"):
        agent_sessions("aider", "/w")
