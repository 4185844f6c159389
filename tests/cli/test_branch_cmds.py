"""`pi-compact session checkout` and `session diff` through the real entry point, and pi reading the result.

The conformance test checks the ``branches.jsonl`` fixture out back and forth, one process per command as a
user would, and after every step asks the real pi 0.73.1 for the context of the file: it must equal ours
(and be the context of the path to the target, plus the summary of what was left).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from pi_compact import Session
from pi_compact.context import context_from_path
from pi_compact.store.paths import AGENT_DIR_ENV
from pi_compact.testing import FakeReply
from tests.conformance.jsoncmp import first_difference, normalise
from tests.conformance.pi_ref import pi_contexts

PROJECT = Path(__file__).resolve().parents[2]
FIXTURE = PROJECT / "sessions_fixtures" / "branches.jsonl"
NO_RETRY = {"x-should-retry": "false"}


def _generator():
    spec = importlib.util.spec_from_file_location("branches_fixture", PROJECT / "sessions_fixtures" / "branches.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


GENERATOR = _generator()
ID = GENERATOR.entry_id


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty pi agent directory, so the developer's own settings change nothing."""
    (tmp_path / "agent").mkdir()
    return tmp_path / "agent"


@pytest.fixture
def session_file(tmp_path: Path) -> Path:
    return Path(shutil.copy(FIXTURE, tmp_path / "branches.jsonl"))


def run(*args: str, home: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """``python -m pi_compact session ARGS`` in a fresh process, from the home's folder."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    return subprocess.run(
        [sys.executable, "-m", "pi_compact", "session", *args],
        capture_output=True, text=True, timeout=120, cwd=home.parent,
        env={**clean, AGENT_DIR_ENV: str(home), **(env or {})},
    )


def run_json(*args: str, home: Path, env: dict | None = None) -> dict:
    done = run(*args, "--json", home=home, env=env)
    assert done.returncode == 0, done.stderr
    return orjson.loads(done.stdout)


# -- the fixture ---------------------------------------------------------------------------------------------


def test_the_fixture_is_what_its_generator_writes(tmp_path: Path) -> None:
    GENERATOR.main([str(tmp_path / "fresh.jsonl")])

    def content(path: Path) -> list[dict]:
        lines = [orjson.loads(line) for line in path.read_bytes().splitlines()]
        return [{k: v for k, v in line.items() if k not in ("timestamp", "id")} if i == 0 else
                {k: v for k, v in line.items() if k != "timestamp"} for i, line in enumerate(lines)]

    assert content(tmp_path / "fresh.jsonl") == content(FIXTURE)


# -- checkout ------------------------------------------------------------------------------------------------


def test_checkout_prints_the_abandoned_size_the_summary_and_the_new_position(session_file, home) -> None:
    lines = session_file.read_bytes().count(b"\n")
    done = run("checkout", str(session_file), "regex-attempt", home=home)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"Checked out {ID('regex-end')}" in out
    assert f"left       {ID('docs-label')} (branches meet at {ID('fork')})" in out
    assert "abandoned  17 entries, 15 messages, ~" in out
    assert "The user explored a different conversation branch before returning here." in out
    reopened = Session.open(session_file)
    assert f"now at     {reopened.leaf_id} (branch summary at {ID('regex-end')})" in out
    assert session_file.read_bytes().count(b"\n") == lines + 1


def test_checkout_json(session_file, home) -> None:
    data = run_json("checkout", str(session_file), ID("hints"), home=home)
    summary = Session.open(session_file).entry(data["summaryEntryId"])
    assert data["changed"] and data["targetId"] == ID("hints") and data["newLeafId"] == summary["id"]
    assert data["oldLeafId"] == ID("docs-label") == summary["fromId"]
    assert data["commonAncestorId"] == ID("hints")  # an ancestor of the leaf: the entries below it are left
    assert data["abandoned"]["entries"] == 7 and data["abandoned"]["messages"] == 5
    assert data["strategy"] == "offline" and data["fallbackReason"] is None
    assert data["readFiles"] == summary["details"]["readFiles"] == ["pyproject.toml"]  # from pi's nested summary
    assert data["modifiedFiles"] == summary["details"]["modifiedFiles"] == ["docs/usage.md",
                                                                            "src/inilite/dataclass_config.py"]
    assert data["summary"] == summary["summary"]


def test_no_summary_records_the_position(session_file, home) -> None:
    data = run_json("checkout", str(session_file), "changelog", "--no-summary", home=home)
    assert data["summary"] is None and data["strategy"] == "move"
    position = Session.open(session_file).entry(data["positionEntryId"])
    assert (position["type"], position["customType"], position["parentId"]) == ("custom", "pi-compact/checkout",
                                                                                 ID("log-end"))
    assert Session.open(session_file).leaf_id == position["id"] == data["newLeafId"]
    human = run("checkout", str(session_file), "changelog", home=home)
    assert "Already at" in human.stdout and "nothing written" in human.stdout


def test_checking_out_the_leaf_writes_nothing(session_file, home) -> None:
    before = session_file.read_bytes()
    done = run("checkout", str(session_file), ID("docs-label"), home=home)
    assert done.returncode == 0 and "Already at" in done.stdout
    assert session_file.read_bytes() == before


@pytest.mark.parametrize(
    ("ref", "message"),
    [("b", "'b' matches several entries"), ("b0", "'b0' matches several entries"), ("zzz", "no entry 'zzz'")],
    ids=["ambiguous", "ambiguous-longer", "unknown"],
)
def test_a_bad_entry_is_one_line_and_exit_2(session_file, home, ref, message) -> None:
    before = session_file.read_bytes()
    for command in (["checkout", str(session_file), ref], ["diff", str(session_file), ref, "docs"]):
        done = run(*command, home=home)
        assert done.returncode == 2
        assert done.stderr.startswith("pi-compact: error: ") and message in done.stderr
        assert done.stderr.count("\n") == 1 and done.stdout == ""
    assert session_file.read_bytes() == before


def test_an_unknown_summarizer_is_a_usage_error(session_file, home) -> None:
    done = run("checkout", str(session_file), "start", "--summarizer", "psychic", home=home)
    assert done.returncode == 2 and "unknown summarizer 'psychic'" in done.stderr


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_an_llm_failing_with_500_falls_back_to_offline(session_file, home, server, provider) -> None:
    server.push(FakeReply(text="overloaded upstream", status=500, headers=NO_RETRY))
    model, url = ("claude-sonnet-4-6", server.url) if provider == "anthropic" else ("gpt-test", server.url + "/v1")
    env = {"ANTHROPIC_API_KEY": "sk-ant-test-key", "OPENAI_API_KEY": "sk-test-key"}
    data = run_json("checkout", str(session_file), "regex-attempt", "--summarizer", provider, "--model", model,
                    "--base-url", url, "--instructions", "focus on tests", home=home, env=env)
    [request] = server.requests
    assert "focus on tests" in orjson.dumps(request.body).decode()
    assert data["strategy"] == "offline" and data["fallbackReason"].startswith(f"{provider}: ")
    assert "500" in data["fallbackReason"]
    entry = Session.open(session_file).entry(data["summaryEntryId"])
    assert entry["details"]["fallbackReason"] == data["fallbackReason"]


# -- diff ----------------------------------------------------------------------------------------------------


def test_diff_of_sibling_branches(session_file, home) -> None:
    data = run_json("diff", str(session_file), "regex-attempt", "changelog", home=home)
    assert data["relation"] == "diverged" and data["commonAncestor"] == ID("fork")
    assert data["commonAncestorType"] == "assistant" and data["sharedEntries"] == 7
    a, b = data["sides"]["a"], data["sides"]["b"]
    assert (a["entries"], a["messages"], a["firstEntryId"], a["lastEntryId"]) == (6, 6, ID("regex-ask"), ID("regex-end"))
    assert a["byKind"] == {"user": 1, "assistant": 3, "toolResult": 2}
    assert a["modifiedFiles"] == ["src/inilite/parser.py"] and a["readFiles"] == []
    assert b["messages"] == 17 and "CHANGELOG.md" in b["modifiedFiles"] and b["tokens"] > a["tokens"] > 0


@pytest.mark.parametrize(
    ("a", "b", "relation", "ancestor"),
    [("start", "docs", "a-before-b", "start"), ("docs", "start", "b-before-a", "start"),
     ("docs", "docs", "same", "docs-end"), ("other-root", "docs", "separate-roots", None),
     ("root", "docs", "a-before-b", None)],
    ids=["ancestor", "descendant", "same", "separate-roots", "root"],
)
def test_diff_relations(session_file, home, a, b, relation, ancestor) -> None:
    data = run_json("diff", str(session_file), a, b, home=home)
    assert data["relation"] == relation
    assert data["commonAncestor"] == (ID(ancestor) if ancestor else None)


def test_diff_for_people(session_file, home) -> None:
    done = run("diff", str(session_file), "regex-attempt", "changelog", home=home)
    assert done.returncode == 0, done.stderr
    assert f"branches meet at {ID('fork')} (assistant), after 7 shared entries" in done.stdout
    assert "CHANGELOG.md" in done.stdout and "src/inilite/parser.py" in done.stdout
    other = run("diff", str(session_file), "other-root", "docs", home=home)
    assert "no common entry" in other.stdout


def test_help_lists_the_commands(home) -> None:
    done = run("--help", home=home)
    assert "checkout" in done.stdout and "diff" in done.stdout


# -- pi reads what we wrote ----------------------------------------------------------------------------------

STEPS: list[tuple[str, ...]] = [
    ("regex-attempt",),              # label; from docs, across the fork
    ("changelog",),                  # back to the other side
    (ID("hints")[:4],),              # a prefix, an ancestor of the summary written just before
    ("root",),                       # the summary becomes a new root
    ("other-root",),                 # the second root
    ("other-root",),                 # again: nothing written
    ("start", "--no-summary"),       # a position entry on the first root's user message
    ("docs",),                       # nothing abandoned but a position entry: a position entry
    ("regex-attempt", "--instructions", "keep the failing test name"),
    ("root", "--no-summary"),        # a root position entry: pi's empty context
    ("docs",),
]


def test_checkouts_back_and_forth_build_the_context_pi_builds(tmp_path, session_file, home) -> None:
    snapshots, expected = [], []
    for number, step in enumerate(STEPS):
        before = session_file.read_bytes()
        data = run_json("checkout", str(session_file), *step, home=home)
        session = Session.open(session_file)
        ours = normalise(session.build_context().to_json())
        if not data["changed"]:
            assert session_file.read_bytes() == before and ours == expected[-1]
            continue
        target = data["targetId"]
        path = session.branch(target) if target != "root" else []
        wanted = context_from_path(path).to_json()
        if data["summaryEntryId"] is not None:
            summary = session.entry(data["summaryEntryId"])
            assert summary["parentId"] == (target if target != "root" else None)
            assert summary["fromId"] == data["oldLeafId"]
            wanted["messages"] = [*wanted["messages"], context_from_path([summary]).messages[0]]
        if target == "root" and data["summaryEntryId"] is None:
            wanted = {"messages": [], "thinkingLevel": "off", "model": None}
        assert first_difference(ours, normalise(wanted)) is None, (step, first_difference(ours, normalise(wanted)))
        snapshot = Path(shutil.copy(session_file, tmp_path / f"step{number:02d}.jsonl"))
        snapshots.append(snapshot)
        expected.append(ours)
    answers = pi_contexts([{"file": path} for path in snapshots])
    assert len(answers) == len(STEPS) - 1
    for snapshot, ours, answer in zip(snapshots, expected, answers):
        assert answer["ok"], answer
        assert first_difference(ours, answer["context"]) is None, (snapshot.name, first_difference(ours, answer["context"]))
    written = [orjson.loads(line) for line in session_file.read_bytes().splitlines()][1:]
    kinds = [e["type"] for e in written[len(Session.open(FIXTURE).entries()):]]
    assert kinds.count("branch_summary") >= 5 and kinds.count("custom") >= 2


# -- the tree ------------------------------------------------------------------------------------------------


def test_tree_says_where_summaries_hang_and_what_they_summarise(session_file, home) -> None:
    summary_id = run_json("checkout", str(session_file), "regex-attempt", home=home)["summaryEntryId"]
    done = run("tree", str(session_file), home=home)
    assert done.returncode == 0, done.stderr
    legend = done.stdout.split("\nbranch summaries\n", 1)[1].splitlines()
    assert legend == [
        f"⎇ {ID('pi-summary')} hangs at {ID('hints-label')}: summary of a branch left from here (written by pi, "
        "which does not record which branch)",
        f"⎇ {summary_id} hangs at {ID('regex-end')}: summary of abandoned branch ending at {ID('docs-label')} "
        f"(17 entries, from {ID('part-ask')})",
    ]


def test_tree_without_branch_summaries_has_no_legend(tmp_path, home) -> None:
    path = tmp_path / "plain.jsonl"
    with Session.create_at(path, "/p") as session:
        session.append_message({"role": "user", "content": "hi", "timestamp": 1})
    done = run("tree", str(path), home=home)
    assert done.returncode == 0 and "branch summaries" not in done.stdout and "⎇" not in done.stdout
