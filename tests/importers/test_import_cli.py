"""``pi-compact import`` and ``session list --agent`` through the real entry point: files, folders, refusals,
one-line errors, and the session commands working on what was imported."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import orjson
import pytest

from pi_compact import Session
from sessions_fixtures import AGENTS_DIR
from tests.reliability.clirun import assert_clean_outcome, run_forked, sha256

from .rows import CONTINUED, boundary, cc_assistant, cc_user, codex_message, codex_meta, jsonl, text

ROWS = [cc_user("u1", None, "fix the parser in src/parse.py", 1), cc_assistant("a1", "u1", [text("fixed")], "m1", 2),
        boundary("b1", "a1", 5000, 3), cc_user("s1", "b1", CONTINUED + "Fixed src/parse.py.", 4, isCompactSummary=True),
        cc_user("u2", "s1", "now the docs", 5), cc_assistant("a2", "u2", [text("documented")], "m2", 6)]


@pytest.fixture
def transcript(tmp_path: Path) -> Path:
    path = tmp_path / "abc.jsonl"
    path.write_bytes(jsonl(ROWS))
    return path


def test_a_file_is_imported_and_only_read(transcript: Path, tmp_path: Path) -> None:
    before = (sha256(transcript), transcript.stat().st_mtime_ns)
    out = tmp_path / "pi.jsonl"
    run = run_forked("import", str(transcript), "-o", str(out))
    assert_clean_outcome(run, 0)
    assert b"claude-code, 5 entries, 1 compaction" in run.stdout
    assert (sha256(transcript), transcript.stat().st_mtime_ns) == before
    with Session.open(out) as session:
        assert [m["role"] for m in session.build_context().messages] == ["compactionSummary", "user", "assistant"]


def test_an_existing_output_is_refused_unless_forced(transcript: Path, tmp_path: Path) -> None:
    out = tmp_path / "pi.jsonl"
    out.write_bytes(b"keep me\n")
    run = run_forked("import", str(transcript), "-o", str(out))
    assert_clean_outcome(run, 2)
    assert b"exists; --force replaces it" in run.stderr and out.read_bytes() == b"keep me\n"
    assert_clean_outcome(run_forked("import", str(transcript), "-o", str(out), "--force"), 0)
    assert orjson.loads(out.read_bytes().split(b"\n")[0])["type"] == "session"


def test_an_existing_folder_as_output_gets_the_file_by_name(transcript: Path, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    assert_clean_outcome(run_forked("import", str(transcript), "-o", str(folder)), 0)
    assert (folder / "abc.jsonl").is_file()


def test_a_folder_becomes_a_folder_of_pi_files(tmp_path: Path) -> None:
    source = tmp_path / "projects"
    (source / "-home-me-a").mkdir(parents=True)
    (source / "-home-me-a" / "one.jsonl").write_bytes(jsonl(ROWS))
    (source / "two.jsonl.gz").write_bytes(gzip.compress(jsonl([codex_meta(), codex_message("user", "hi")])))
    out = tmp_path / "imported"
    run = run_forked("import", str(source), "-o", str(out))
    assert_clean_outcome(run, 0)
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*.jsonl")) == ["-home-me-a/one.jsonl", "two.jsonl"]
    assert b"2 of 2 transcripts imported" in run.stdout and b"(1 compactions)" in run.stdout
    with Session.open(out / "two.jsonl") as session:
        assert session.build_context().messages[0]["content"] == [{"type": "text", "text": "hi"}]


def test_a_folder_with_a_file_that_is_no_transcript_imports_the_rest_and_exits_1(tmp_path: Path) -> None:
    source = tmp_path / "in"
    source.mkdir()
    (source / "good.jsonl").write_bytes(jsonl(ROWS))
    (source / "notes.jsonl").write_bytes(b'{"hello": "world"}\n')
    out = tmp_path / "out"
    run = run_forked("import", str(source), "-o", str(out))
    assert_clean_outcome(run, 1)
    assert (out / "good.jsonl").is_file() and not (out / "notes.jsonl").exists()
    assert b"warning: not imported: " in run.stderr and b"notes.jsonl: not a Claude Code or Codex transcript" in run.stderr
    assert run.stderr.count(b"\n") == 1


@pytest.mark.parametrize(("content", "args", "message"), [
    (None, (), b"does not exist"),
    (b'{"hello": 1}\n', (), b"not a Claude Code or Codex transcript"),
    (b'{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}\n', (),
     b"is a pi session already"),
    (jsonl(ROWS) + b"{torn\n", ("--strict",), b"line 7: not valid JSON"),
    (jsonl(ROWS), ("--format", "aider"), b"unknown --format 'aider'"),
    (b"\x1f\x8b\x08\x00broken", (), b"damaged gzip data"),
], ids=["missing", "unknown-rows", "pi-file", "strict", "bad-format", "bad-gzip"])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path: Path, content, args, message: bytes) -> None:
    source = tmp_path / "in.jsonl"
    if content is not None:
        source.write_bytes(content)
    out = tmp_path / "out.jsonl"
    run = run_forked("import", str(source), "-o", str(out), *args)
    assert_clean_outcome(run, 2)
    assert message in run.stderr
    assert not out.exists()


def test_the_session_commands_work_on_an_imported_file(transcript: Path, tmp_path: Path) -> None:
    out = tmp_path / "pi.jsonl"
    assert_clean_outcome(run_forked("import", str(transcript), "-o", str(out)), 0)
    show = run_forked("session", "show", str(out))
    assert_clean_outcome(show, 0)
    assert b"5000 tokens before" in show.stdout
    search = run_forked("session", "search", str(out), "parse.py", "--json")
    assert_clean_outcome(search, 0)
    assert "u1" in {hit["id"] for hit in orjson.loads(search.stdout)["hits"]}
    replay = run_forked("replay", str(out), "--window", "32000", "--json")
    assert_clean_outcome(replay, 0)
    assert orjson.loads(replay.stdout)["window"] == 32000


def _claude_home(tmp_path: Path, cwd: Path) -> Path:
    home = tmp_path / "claude"
    folder = home / "projects" / str(cwd).replace("/", "-").replace(".", "-").replace("_", "-")
    folder.mkdir(parents=True)
    (folder / "s-1.jsonl").write_bytes(jsonl([{"type": "summary", "summary": "Parser work", "leafUuid": "u1"}, *ROWS]))
    return home


def test_session_list_agent_lists_this_directorys_claude_code_sessions(tmp_path: Path, monkeypatch) -> None:
    cwd = tmp_path / "my_proj.v2"
    cwd.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(_claude_home(tmp_path, cwd)))
    monkeypatch.chdir(cwd)
    run = run_forked("session", "list", "--agent", "claude-code", "--json")
    assert_clean_outcome(run, 0)
    (row,) = orjson.loads(run.stdout)
    assert (row["id"], row["name"], row["firstMessage"]) == ("sess-1", "Parser work", "fix the parser in src/parse.py")
    assert row["messageCount"] == 5 and Path(row["path"]).name == "s-1.jsonl"
    text_run = run_forked("session", "list", "--agent", "claude-code")
    assert_clean_outcome(text_run, 0)
    assert b"Parser work" in text_run.stdout


def test_session_list_agent_codex_keeps_only_this_directory(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "codex"
    day = home / "sessions" / "2026" / "01" / "01"
    day.mkdir(parents=True)
    here = tmp_path / "here"
    here.mkdir()
    (day / "rollout-2026-01-01T10-00-00-a.jsonl").write_bytes(
        jsonl([codex_meta("mine", str(here)), codex_message("user", "my task")]))
    (day / "rollout-2026-01-01T11-00-00-b.jsonl").write_bytes(
        jsonl([codex_meta("other", "/elsewhere"), codex_message("user", "not mine")]))
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.chdir(here)
    run = run_forked("session", "list", "--agent", "codex", "--json")
    assert_clean_outcome(run, 0)
    assert [(r["id"], r["firstMessage"]) for r in orjson.loads(run.stdout)] == [("mine", "my task")]


@pytest.mark.parametrize("args", [("--agent", "aider"), ("--agent", "codex", "--all")], ids=["unknown", "with-all"])
def test_session_list_agent_refuses_what_it_cannot_do(args: tuple[str, ...], tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path))
    assert_clean_outcome(run_forked("session", "list", *args), 2)


def test_every_bundled_transcript_imports_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "all"
    run = run_forked("import", str(AGENTS_DIR), "-o", str(out))
    assert_clean_outcome(run, 0)
    assert len(list(out.rglob("*.jsonl"))) == len([p for p in AGENTS_DIR.rglob("*") if p.name.endswith(
        (".jsonl", ".jsonl.gz"))])
    assert os.listdir(out)
