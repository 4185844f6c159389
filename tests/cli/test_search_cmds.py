"""`pi-compact session search FILE QUERY` (issue 15.3): the recall search on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_recaller import ERROR, compacted, worked_session

PROJECT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pi_compact", "session", "search", *args], capture_output=True,
                          text=True, cwd=PROJECT, timeout=60)


@pytest.fixture
def session_file(tmp_path: Path) -> Path:
    file = tmp_path / "work.jsonl"
    compacted(worked_session(file)).close()
    return file


def test_search_finds_the_compacted_error_with_its_entry_id(session_file: Path) -> None:
    done = run(str(session_file), "ENOENT")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("1 match(es) in ")
    assert "toolResult(bash)" in done.stdout and ERROR in done.stdout


def test_search_json_has_the_hits_and_counts(session_file: Path) -> None:
    done = run(str(session_file), "/srv/app/config.yml", "--json", "--limit", "1")
    data = json.loads(done.stdout)
    assert (data["totalMatches"], len(data["hits"]), data["byId"]) == (2, 1, False)
    hit = data["hits"][0]
    assert set(hit) == {"id", "kind", "timestamp", "abandoned", "excerpt"} and ERROR in hit["excerpt"]
    by_id = json.loads(run(str(session_file), hit["id"][:8], "--json").stdout)
    assert by_id["byId"] and by_id["hits"][0]["id"] == hit["id"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["QUERY_FILE_MISSING", "x"], "QUERY_FILE_MISSING"),
        (["{file}", "  "], "QUERY is empty"),
        (["{file}", "x", "--limit", "0"], "--limit 0: use a number from 1 to 50"),
    ],
    ids=["missing-file", "empty-query", "bad-limit"],
)
def test_bad_input_is_one_line_and_exit_2(session_file: Path, args: list[str], message: str) -> None:
    done = run(*[a.replace("{file}", str(session_file)) for a in args])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr and done.stderr.startswith("pi-compact: error:")
