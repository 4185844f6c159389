"""`pi-compact chat` options: which session and model it picks, and the one-line errors for what it refuses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.cli.chat_cmds import _find_session, _open_session, _provider_choice
from pi_compact.errors import UsageError
from pi_compact.store.paths import AGENT_DIR_ENV


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(AGENT_DIR_ENV, str(tmp_path / "agent"))
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)


def stored(cwd: Path, session_id: str, provider: str = "openai", model: str = "gpt-4o") -> Session:
    session = Session.create(str(cwd), session_id=session_id)
    session.append_model_change(provider, model)
    session.append_message({"role": "user", "content": "hi", "timestamp": 1})
    return session


def chat(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pi_compact", "chat", *args], capture_output=True, text=True,
                          env=env, timeout=60, stdin=subprocess.DEVNULL)


def test_resume_finds_a_session_by_id_prefix_here_first_then_anywhere(tmp_path: Path) -> None:
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir(), elsewhere.mkdir()
    mine = stored(here, "aaaa-1111")
    other = stored(elsewhere, "aaaa-2222")
    assert _find_session(str(here), "aaaa") == mine.path
    assert _find_session(str(here), "aaaa-2") == other.path
    with pytest.raises(UsageError, match="zz: no such file, and no session id starts with it"):
        _find_session(str(here), "zz")
    stored(here, "aaaa-3333")
    with pytest.raises(UsageError, match="'aaaa' matches 2 sessions"):
        _find_session(str(here), "aaaa")


def test_continue_takes_the_latest_session_and_the_model_it_used(tmp_path: Path) -> None:
    stored(tmp_path, "bbbb-1111", "anthropic", "claude-haiku-4-5")
    session = _open_session(str(tmp_path), True, None, None)
    assert session.id == "bbbb-1111"
    assert _provider_choice(None, None, session) == ("anthropic", "claude-haiku-4-5")
    assert _provider_choice("openai", None, session) == ("openai", "gpt-4.1")
    assert _provider_choice(None, "claude-opus-4-6", session) == ("anthropic", "claude-opus-4-6")
    file = tmp_path / "explicit.jsonl"
    assert _open_session(str(tmp_path), False, None, file).path == file and not file.exists()


def test_a_new_session_picks_the_provider_whose_key_is_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = Session.create(str(tmp_path))
    assert _provider_choice(None, None, fresh) == ("anthropic", "claude-sonnet-4-6")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
    assert _provider_choice(None, None, fresh) == ("openai", "gpt-4.1")
    with pytest.raises(UsageError, match="unknown provider 'mistral'"):
        _provider_choice("mistral", None, fresh)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--continue", "--resume", "x"], "use only one of --continue, --resume and --session"),
        (["--resume", "nope"], "nope: no such file, and no session id starts with it"),
        (["--cwd", "/nonexistent/dir"], "--cwd /nonexistent/dir: not a directory"),
        (["--provider", "anthropic"], "ANTHROPIC_API_KEY is not set"),
        (["--provider", "openai"], "OPENAI_API_KEY is not set (or give --base-url for a local server)"),
        (["--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "--window", "1000"],
         "the window (1,000) leaves no room for the conversation: the reserve takes 250 tokens"),
        (["--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "--window", "16000", "--reserve", "16384"],
         "the window (16,000) must be larger than the reserve (16,384)"),
        (["--window", "0"], "Invalid value for '--window': 0 is not in the range x>=1."),
        (["--window", "-5"], "Invalid value for '--window': -5 is not in the range x>=1."),
        (["--summarizer-window", "0"], "Invalid value for '--summarizer-window': 0 is not in the range x>=1."),
        (["--reserve", "-1"], "Invalid value for '--reserve': -1 is not in the range x>=0."),
        (["--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "--thinking", "max"],
         "unknown thinking level 'max'"),
    ],
    ids=["two-sessions", "unknown-id", "bad-cwd", "no-anthropic-key", "no-openai-key", "tiny-window", "reserve-over-window",
         "zero-window", "negative-window", "zero-summarizer-window", "negative-reserve", "bad-thinking"],
)
def test_what_chat_refuses_is_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), AGENT_DIR_ENV: str(tmp_path / "agent")}
    where = [] if "--cwd" in args else ["--cwd", str(tmp_path)]
    done = chat(*args, *where, env=env)
    assert done.returncode == 2, done.stderr + done.stdout
    assert done.stderr.startswith(f"pi-compact: error: {message}") and done.stderr.count("\n") == 1
    assert not (tmp_path / "agent" / "sessions").exists() or not list((tmp_path / "agent" / "sessions").rglob("*.jsonl"))


def test_a_missing_summarizer_key_says_what_needs_it_and_where_it_was_chosen(tmp_path: Path) -> None:
    agent_dir = tmp_path / ".pi" / "agent"
    agent_dir.mkdir(parents=True)
    (agent_dir / "settings.json").write_text('{"compaction": {"summarizer": "anthropic"}}')
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), AGENT_DIR_ENV: str(agent_dir)}
    local = ["--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "--cwd", str(tmp_path)]
    done = chat(*local, env=env)
    assert done.returncode == 2 and done.stderr == (
        "pi-compact: error: the summarizer (anthropic, from ~/.pi/agent/settings.json) needs ANTHROPIC_API_KEY: "
        "set it, or choose another summarizer with --summarizer\n")
    done = chat(*local, "--summarizer", "anthropic", env={**env, AGENT_DIR_ENV: str(tmp_path / "elsewhere")})
    assert done.returncode == 2 and "the summarizer (anthropic, from --summarizer) needs ANTHROPIC_API_KEY" in done.stderr
