"""`pi-compact session compact` through the real entry point: JSON and human reports, dry runs, the window,
settings files, an LLM summarizer (the real OpenAI and Anthropic SDKs against the fake server) with
instructions and model, and one-line errors with exit code 2."""

from __future__ import annotations

import hashlib
import re
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from pi_compact import Session
from pi_compact.cli.app import app
from pi_compact.testing import FakeReply, fake_llm_server

SECTIONS = ("## Goal\nrefactor\n\n## Constraints & Preferences\n(none)\n\n## Progress\n### Done\n- [x] read\n\n"
            "## Key Decisions\n(none)\n\n## Next Steps\n1. go on\n\n## Critical Context\n(none)")


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch) -> Path:
    """No settings, keys or base URLs from the developer's machine; the project is an empty folder."""
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return agent


def message(role: str, **fields) -> dict:
    return {"role": role, "timestamp": 1_750_000_000_000, **fields}


def session_file(path: Path, turns: int = 4, request_words: int = 20) -> Path:
    session = Session.create_at(path, cwd=str(path.parent), durable=False)
    usage = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0}
    common = {"api": "anthropic-messages", "provider": "anthropic", "model": "claude-test", "usage": usage}
    for n in range(turns):
        session.append_message(message("user", content=f"Request {n}: " + "refactor the parser " * request_words))
        call = {"type": "toolCall", "id": f"c{n}", "name": "read", "arguments": {"path": f"src/m{n}.py"}}
        session.append_message(message("assistant", content=[call], stopReason="toolUse", **common))
        session.append_message(message("toolResult", toolCallId=f"c{n}", toolName="read", isError=False,
                                       content=[{"type": "text", "text": "code line\n" * 800}]))
        session.append_message(message("assistant", content=[{"type": "text", "text": f"Done {n}."}],
                                       stopReason="stop", **common))
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def invoke(*args: str, env: dict | None = None):
    """The typer app in this process (fast)."""
    result = CliRunner().invoke(app, ["session", "compact", *args], env=env)
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def invoke_json(*args: str, env: dict | None = None) -> dict:
    return orjson.loads(invoke(*args, "--json", env=env).stdout)


def run(*args: str) -> subprocess.CompletedProcess:
    """The real entry point, ``python -m pi_compact``, in a fresh process."""
    return subprocess.run([sys.executable, "-m", "pi_compact", "session", "compact", *args], capture_output=True,
                          env=dict(os.environ), timeout=120)


# -- reports -------------------------------------------------------------------------------------------------------


def test_json_report_through_the_real_entry_point(tmp_path) -> None:
    path = session_file(tmp_path / "s.jsonl")
    before = path.read_bytes()
    done = run(str(path), "--keep-recent", "1000", "--json")
    assert done.returncode == 0, done.stderr.decode()
    report = orjson.loads(done.stdout)
    entry = orjson.loads(path.read_bytes().splitlines()[-1])
    assert path.read_bytes().startswith(before)
    assert report["entryId"] == entry["id"] and entry["type"] == "compaction"
    assert report["summary"] == entry["summary"] and report["details"] == entry["details"]
    assert report["firstKeptEntryId"] == entry["firstKeptEntryId"]
    assert report["strategy"] == entry["details"]["strategy"] == "prune"
    assert report["tokensBefore"] == entry["tokensBefore"] and report["tokensBeforeMeasured"] is False
    assert report["tokensAfterMeasured"] is False and report["tokensAfter"] < report["tokensBefore"]
    assert report["dryRun"] is False and report["window"] is None and report["fallbackReason"] is None
    assert report["summarizer"] == "none" and report["messagesDropped"] == 0


def test_human_report(tmp_path) -> None:
    path = session_file(tmp_path / "s.jsonl")
    out = invoke(str(path), "--keep-recent", "1000", "--window", "30000", env={"COLUMNS": "200"}).stdout
    entry = orjson.loads(path.read_bytes().splitlines()[-1])
    assert f"Compaction entry {entry['id']} appended" in out
    assert "(estimated) → " in out and "of a 30,000-token window" in out
    assert "strategy   prune" in out and f"kept from  {entry['firstKeptEntryId']}" in out
    assert "<original-request>" in out


def test_dry_run_writes_nothing(tmp_path) -> None:
    path = session_file(tmp_path / "s.jsonl")
    digest = sha256(path)
    report = invoke_json(str(path), "--keep-recent", "1000", "--dry-run")
    assert report["dryRun"] is True and report["entryId"] is None and report["summary"]
    assert sha256(path) == digest
    assert "Dry run: nothing written" in invoke(str(path), "--keep-recent", "1000", "--dry-run").stdout
    assert sha256(path) == digest


def test_the_window_is_honoured(tmp_path) -> None:
    path = session_file(tmp_path / "s.jsonl", turns=6)
    report = invoke_json(str(path), "--window", "3000", "--reserve", "1000")
    assert report["window"] == 3000 and report["tokensAfter"] <= 2000


def test_settings_come_from_the_project_and_flags_win(tmp_path) -> None:
    path = session_file(tmp_path / "s.jsonl")
    settings = Path.cwd() / ".pi" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"compaction": {"keepRecentTokens": 1000}}')
    kept_1000 = invoke_json(str(path), "--dry-run")
    kept_5000 = invoke_json(str(path), "--dry-run", "--keep-recent", "5000")
    assert kept_1000["messagesSummarized"] > kept_5000["messagesSummarized"]


# -- an LLM summarizer --------------------------------------------------------------------------------------------


def test_openai_summarizer_gets_instructions_and_model(tmp_path) -> None:
    path = session_file(tmp_path / "s.jsonl", request_words=200)
    with fake_llm_server() as server:
        server.push(FakeReply(text=SECTIONS))
        # 3,000 kept tokens: more than the last tool result and less than the last turn, so the cut lands on the
        # last request and there is no split turn (one request)
        report = invoke_json(str(path), "--keep-recent", "3000", "--summarizer", "openai", "--model", "local-model",
                             "--base-url", server.url + "/v1", "--instructions", "focus on the parser")
    [request] = server.requests
    assert request.body["model"] == "local-model"
    assert request.body["messages"][1]["content"].endswith("\n\nAdditional focus: focus on the parser")
    assert report["strategy"] == "summarize" and report["summarizer"] == "openai" and SECTIONS in report["summary"]
    assert report["summarizerInputTokens"] > 0


def test_anthropic_failure_falls_back_offline(tmp_path) -> None:
    path = session_file(tmp_path / "s.jsonl", request_words=200)
    with fake_llm_server() as server:
        server.push(*[FakeReply(status=400, text="bad request")] * 3)
        report = invoke_json(str(path), "--keep-recent", "2500", "--summarizer", "anthropic",
                             "--model", "claude-sonnet-4-6", "--base-url", server.url,
                             env={"ANTHROPIC_API_KEY": "sk-ant-test-key-0000000000"})
    assert server.requests and server.requests[0].body["model"] == "claude-sonnet-4-6"
    assert report["strategy"] == "offline" and "anthropic API error 400: bad request" in report["fallbackReason"]
    assert "sk-ant-test-key" not in orjson.dumps(report).decode()


def test_a_summarizer_failure_is_said_on_stderr_too(tmp_path) -> None:
    path = session_file(tmp_path / "s.jsonl", request_words=200)
    with fake_llm_server() as server:
        server.push(*[FakeReply(status=500, text="overloaded")] * 3)
        done = invoke(str(path), "--keep-recent", "2500", "--summarizer", "anthropic", "--base-url", server.url,
                      env={"ANTHROPIC_API_KEY": "sk-ant-test-key-0000000000"})
    assert "strategy offline (summarizer failed: anthropic: anthropic API error 500: overloaded)" in " ".join(
        done.stdout.split())
    assert done.stderr.startswith("warning: the summarizer failed: anthropic: anthropic API error 500: overloaded")
    assert done.stderr.count("\n") == 1


def test_a_missing_key_names_the_settings_file_that_chose_the_summarizer(tmp_path) -> None:
    agent_dir = tmp_path / "home" / ".pi" / "agent"
    agent_dir.mkdir(parents=True)
    (agent_dir / "settings.json").write_text('{"compaction": {"summarizer": "anthropic"}}')
    path = session_file(tmp_path / "s.jsonl")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(HOME=str(tmp_path / "home"), PI_CODING_AGENT_DIR=str(agent_dir))
    done = subprocess.run([sys.executable, "-m", "pi_compact", "session", "compact", str(path)], capture_output=True,
                          env=env, timeout=120)
    assert done.returncode == 2 and done.stderr.decode() == (
        "pi-compact: error: the summarizer (anthropic, from ~/.pi/agent/settings.json) needs ANTHROPIC_API_KEY: "
        "set it, or choose another summarizer with --summarizer\n")


# -- errors --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra, message",
    [
        pytest.param(["--summarizer", "gpt"], "unknown summarizer 'gpt': use one of offline, anthropic, openai",
                     id="unknown-summarizer"),
        pytest.param(["--window", "1000", "--reserve", "2000"],
                         "--window 1,000 must be larger than the reserve (2,000); pass a smaller --reserve",
                         id="window-below-reserve"),
        pytest.param(["--summarizer", "anthropic"], "the summarizer (anthropic, from --summarizer) needs "
                     "ANTHROPIC_API_KEY: set it, or choose another summarizer with --summarizer", id="no-key"),
    ],
)
def test_usage_errors_are_one_line_with_exit_code_2(tmp_path, extra, message) -> None:
    path = session_file(tmp_path / "s.jsonl")
    digest = sha256(path)
    done = run(str(path), *extra)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == f"pi-compact: error: {message}\n"
    assert sha256(path) == digest


def test_compacting_twice_says_so_with_the_figures_and_exits_0(tmp_path) -> None:
    path = session_file(tmp_path / "s.jsonl")
    invoke_json(str(path), "--keep-recent", "1000")
    digest = sha256(path)
    again = run(str(path), "--keep-recent", "1000")
    out = again.stdout.decode()
    assert again.returncode == 0 and again.stderr == b"", again.stderr
    assert out.startswith("Already compacted\n") and "tokens (estimated)" in out and "Nothing was written." in out
    as_json = orjson.loads(run(str(path), "--keep-recent", "1000", "--json").stdout)
    assert as_json["compacted"] is False and as_json["reason"] == "Already compacted"
    assert as_json["tokens"] > 0 and as_json["keepRecentTokens"] == 1000
    assert sha256(path) == digest


@pytest.mark.parametrize("turns", [0, 1], ids=["no-messages", "fits-keep-recent"])
def test_nothing_to_compact_prints_the_figures_and_exits_0(tmp_path, turns) -> None:
    path = session_file(tmp_path / "s.jsonl", turns=turns) if turns else tmp_path / "s.jsonl"
    if not turns:
        Session.create_at(path, cwd=str(tmp_path), durable=False).append_session_info("empty")
    digest = sha256(path)
    done = run(str(path))
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert done.stdout.decode().startswith("Nothing to compact") and b"keep       20,000 recent tokens" in done.stdout
    assert sha256(path) == digest


def test_missing_files(tmp_path) -> None:
    missing = run(str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "no such file" in missing.stderr.decode()


def test_a_window_scales_the_reserve_and_the_kept_tail_as_replay_does(tmp_path) -> None:
    """pi's 16,384-token reserve would not leave room in an 8,000-token window: it scales to a quarter."""
    path = session_file(tmp_path / "s.jsonl", turns=6)
    done = run(str(path), "--window", "8000", "--dry-run", "--json")
    assert done.returncode == 0, done.stderr.decode()
    report = orjson.loads(done.stdout)
    assert report["window"] == 8000 and report["tokensAfter"] <= 8000 - 8000 // 4


def test_the_summary_is_shortened_unless_asked_for_in_full(tmp_path) -> None:
    path = session_file(tmp_path / "s.jsonl")
    short = run(str(path), "--keep-recent", "1000", "--dry-run").stdout.decode()
    full = run(str(path), "--keep-recent", "1000", "--dry-run", "--full-summary").stdout.decode()
    hidden = int(re.search(r"… (\d+) more lines of summary \(--full-summary prints them\)", short).group(1))
    summary = orjson.loads(run(str(path), "--keep-recent", "1000", "--dry-run", "--json").stdout)["summary"]
    lines = [line for line in summary.splitlines() if line.strip()]
    assert hidden == len(summary.splitlines()) - 12 > 0 and "more lines of summary" not in full
    assert lines[0][:40] in short and lines[0][:40] in full
    assert lines[-1][:40] not in short and lines[-1][:40] in full
