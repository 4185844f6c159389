"""`pi-compact session search FILE QUERY` (issues 15.3, 24): every entry by default, `--compacted` as recall; the
README's examples find hits in the bundled data."""

from __future__ import annotations

import json
import shlex
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
    assert done.stdout.startswith("1 match in ")
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
        (["{file}", "x", "--limit", "0"], "--limit 0: use a whole number from 1 to 50"),
    ],
    ids=["missing-file", "empty-query", "bad-limit"],
)
def test_bad_input_is_one_line_and_exit_2(session_file: Path, args: list[str], message: str) -> None:
    done = run(*[a.replace("{file}", str(session_file)) for a in args])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr and done.stderr.startswith("pi-compact: error:")


# -- the whole session by default, --compacted as recall ---------------------------------------------------


def test_the_whole_session_is_searched_by_default(tmp_path: Path) -> None:
    file = tmp_path / "fresh.jsonl"
    worked_session(file).close()  # never compacted: everything is still in the context
    whole = json.loads(run(str(file), "ENOENT", "--json").stdout)
    assert whole["totalMatches"] == 1 and whole["hits"][0]["kind"] == "toolResult(bash)"
    compacted_only = json.loads(run(str(file), "ENOENT", "--compacted", "--json").stdout)
    assert (compacted_only["totalMatches"], compacted_only["entriesSearched"]) == (0, 0)


def test_text_still_in_the_context_is_found_only_without_compacted(session_file: Path) -> None:
    # "Next step 3" is in the kept tail of the compacted session: in the file, and in the context.
    assert json.loads(run(str(session_file), "Next step 3", "--json").stdout)["totalMatches"] == 1
    assert json.loads(run(str(session_file), "Next step 3", "--compacted", "--json").stdout)["totalMatches"] == 0


README_SEARCHES = [
    shlex.split(line.split("  #", 1)[0])[1:]
    for line in (PROJECT / "README.md").read_text(encoding="utf-8").splitlines()
    if line.startswith(".venv/bin/pi-compact session search ")
]


def test_the_readme_has_search_examples() -> None:
    assert len(README_SEARCHES) >= 2


@pytest.mark.parametrize("args", README_SEARCHES, ids=[" ".join(a[2:4]) for a in README_SEARCHES])
def test_every_readme_search_example_finds_something_in_the_bundled_data(args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "pi_compact", *args, *([] if "--json" in args else ["--json"])],
                          capture_output=True, text=True, cwd=PROJECT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totalMatches"] >= 1
