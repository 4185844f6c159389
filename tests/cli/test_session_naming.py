"""Naming a session as ``chat -r`` does: every command that takes FILE also takes an id prefix of a session in
pi's folder for this directory (then every project's), and ``-c``/``--latest`` for the newest one there."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command, get_group

from pi_compact.cli.app import SESSION_COMMAND_MODULES, app, session_app
from pi_compact.cli.params import FileCommand
from pi_compact.store.jsonl import dumps_line
from pi_compact.store.paths import project_dir_name

CWD_NAME = "proj"


def header(session_id: str, cwd: str) -> dict:
    return {"type": "session", "version": 3, "id": session_id, "timestamp": "2025-01-01T00:00:00.000Z", "cwd": cwd}


def user(entry_id: str, parent: str | None, text: str) -> dict:
    message = {"role": "user", "content": text, "timestamp": 1735689600000}
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "2025-01-01T00:00:01.000Z",
            "message": message}


@pytest.fixture
def home(tmp_path: Path) -> dict:
    """An agent folder with two sessions of the project ``proj`` (the newer by mtime: ``b``) and one of
    another project, and the environment that points pi-compact at it."""
    project = tmp_path / CWD_NAME
    project.mkdir()
    agent = tmp_path / "agent"
    here = agent / "sessions" / project_dir_name(str(project))
    elsewhere = agent / "sessions" / project_dir_name("/other")
    files = {
        "a": write(here / "a.jsonl", header("0193aaaa-1111", str(project)), user("e1", None, "alpha one"), mtime=1_000),
        "b": write(here / "b.jsonl", header("0193aaab-2222", str(project)), user("e2", None, "bravo two"), mtime=2_000),
        "c": write(elsewhere / "c.jsonl", header("77cc-3333", "/other"), user("e3", None, "charlie"), mtime=3_000),
    }
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "COLUMNS")}
    env["PI_CODING_AGENT_DIR"] = str(agent)
    env.pop("PI_CODING_AGENT_SESSION_DIR", None)
    return {"cwd": project, "env": env, "files": files}


def write(path: Path, *entries: dict, mtime: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(dumps_line(entry) for entry in entries))
    os.utime(path, (mtime, mtime))
    return path


def run(home: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pi_compact", *args], capture_output=True, text=True,
                          cwd=home["cwd"], env=home["env"], timeout=120)


def session_id_of(done: subprocess.CompletedProcess) -> str:
    rows = dict(line.split(None, 1) for line in done.stdout.splitlines() if line.strip())
    return rows["id"].strip()


@pytest.mark.parametrize(("ref", "expected"), [
    ("0193aaaa", "0193aaaa-1111"),
    ("0193aaab-2", "0193aaab-2222"),
    ("77cc", "77cc-3333"),  # not in this project's folder: every project's
], ids=["prefix-here", "longer-prefix", "another-project"])
def test_an_id_prefix_names_a_session(home, ref, expected):
    done = run(home, "session", "info", ref)
    assert done.returncode == 0, done.stderr
    assert session_id_of(done) == expected


@pytest.mark.parametrize("flag", ["-c", "--latest"])
def test_latest_is_the_newest_session_of_this_directory(home, flag):
    done = run(home, "session", "info", flag)
    assert done.returncode == 0, done.stderr
    assert session_id_of(done) == "0193aaab-2222"  # c.jsonl is newer, but another project's


def test_latest_stands_in_for_file_before_the_other_arguments(home):
    done = run(home, "session", "label", "-c", "e2", "checkpoint")
    assert done.returncode == 0, done.stderr
    assert b'"label":"checkpoint"' in home["files"]["b"].read_bytes()
    assert b"checkpoint" not in home["files"]["a"].read_bytes()


def test_a_value_that_looks_like_the_flag_is_an_options_value(home):
    done = run(home, "session", "compact", str(home["files"]["a"]), "--dry-run", "-i", "-c", "--json")
    assert done.returncode == 0, done.stderr  # -c is the instructions' text, not --latest


def test_an_ambiguous_prefix_lists_the_candidates(home):
    done = run(home, "session", "show", "0193aaa")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "matches 2 sessions" in done.stderr and "0193aaaa-1111" in done.stderr and "0193aaab-2222" in done.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["session", "show", "ffff"], "ffff: no such file, and no session id starts with it"),
    (["session", "show", "missing.jsonl"], "no such file"),
    (["session", "show", "-c", "a.jsonl"], "not both"),
], ids=["unknown-prefix", "missing-path", "file-and-latest"])
def test_a_name_that_fits_nothing_is_one_line(home, args, message):
    (home["cwd"] / "a.jsonl").write_bytes(home["files"]["a"].read_bytes())
    done = run(home, *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("pi-compact: error: ") and message in done.stderr


def test_latest_in_a_directory_without_sessions_is_an_error(home, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    done = subprocess.run([sys.executable, "-m", "pi_compact", "session", "show", "-c"], capture_output=True,
                          text=True, cwd=empty, env=home["env"], timeout=120)
    assert done.returncode == 2 and "no session in" in done.stderr


def test_an_existing_path_wins_over_an_id_prefix(home):
    (home["cwd"] / "77cc").write_bytes(home["files"]["a"].read_bytes())
    done = run(home, "session", "info", "77cc")
    assert done.returncode == 0 and session_id_of(done) == "0193aaaa-1111"


def test_replay_takes_latest_too(home):
    done = run(home, "replay", "-c", "--window", "16000", "--json")
    assert done.returncode == 0, done.stderr


def _file_commands():
    for module in SESSION_COMMAND_MODULES:
        importlib.import_module(module)
    session_group = get_group(session_app)
    found = [(f"session {name}", command) for name, command in session_group.commands.items()
             if any(param.name == "file" for param in command.params)]
    found.append(("replay", get_command(app).commands["replay"]))
    return found


@pytest.mark.parametrize(("name", "command"), _file_commands(), ids=[name for name, _ in _file_commands()])
def test_every_command_that_takes_a_file_takes_latest(name, command):
    assert isinstance(command, FileCommand), name
    options = [opt for param in command.params for opt in getattr(param, "opts", ())]
    assert "-c" in options and "--latest" in options
