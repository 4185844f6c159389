"""Sessions we compacted open in the real pi with the context we build: one, two and three compactions, a split
turn, the truncate strategy (some kept, nothing kept), a compacted branch, a recorded failure, and a compacted
copy of pi's own v1 fixture; pi's ``convertToLlm`` of that context matches ours too."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

from compaction.builders import (HUGE_OUTPUT, assistant, bash_run, call, new_session, summary_text, tool_result,
                                 tool_turn, user)
from pi_compact import Session
from pi_compact.compaction import CompactionSettings, compact, convert_to_llm
from pi_compact.errors import SummarizerError
from pi_compact.testing import ScriptedSummarizer
from sessions_fixtures import PI_DIR

from .pi_ref import pi_contexts

FIXTURES = PI_DIR
KEEP = CompactionSettings(keep_recent_tokens=1000, reserve_tokens=1000)
OUTPUT = "output line\n" * 600


def turns(session: Session, first: int, count: int) -> None:
    for n in range(first, first + count):
        tool_turn(session, n, f"step {n}: fix the parser " + "carefully " * 50, OUTPUT)


def one_compaction(path: Path) -> Session:
    session = new_session(path)
    session.append_model_change("anthropic", "claude-test")
    session.append_thinking_level_change("high")
    turns(session, 0, 4)
    compact(session, settings=KEEP)
    session.append_message(user("after the compaction"))
    return session


def repeated(path: Path, times: int) -> Session:
    session = new_session(path)
    summarizers = [None, ScriptedSummarizer([summary_text("two")] * 4), ScriptedSummarizer([SummarizerError("down")])]
    for round_no in range(times):
        turns(session, 10 * round_no, 3)
        session.append_message(bash_run("make test", "ok", exit_code=0))
        session.append_custom_message("ext/note", f"note {round_no}", True)
        compact(session, settings=KEEP, summarizer=summarizers[round_no])
    return session


def split_turn(path: Path) -> Session:
    session = new_session(path)
    turns(session, 0, 2)
    session.append_message(user("migrate everything"))
    for k in range(5):
        session.append_message(assistant(call(f"m{k}", "edit", path=f"src/p{k}.py")))
        session.append_message(tool_result(f"m{k}", "edit", OUTPUT))
    result = compact(session, settings=KEEP)
    assert "<current-request>\nmigrate everything\n</current-request>" in result.summary
    return session


def truncated(path: Path, *, keep_nothing: bool) -> Session:
    session = new_session(path)
    turns(session, 0, 3)
    session.append_message(user("read the log"))
    session.append_message(assistant(call("big", "read", path="huge.log")))
    if keep_nothing:  # the last message alone is bigger than the window
        session.append_message(tool_result("big", "read", HUGE_OUTPUT))
    else:
        session.append_message(tool_result("big", "read", OUTPUT))
        session.append_message(assistant("The log is read."))
    result = compact(session, window=1000 + 900, settings=KEEP.replace(keep_recent_tokens=3000))
    assert result.strategy == "truncate"
    assert (result.first_kept_entry_id == result.entry["id"]) is keep_nothing
    return session


def compacted_branch(path: Path) -> Session:
    session = new_session(path)
    turns(session, 0, 2)
    fork_point = session.leaf_id
    turns(session, 2, 2)
    session.move_leaf(fork_point)
    turns(session, 4, 3)
    compact(session, settings=KEEP)
    return session


def with_failure_record(path: Path) -> Session:
    session = one_compaction(path)
    turns(session, 20, 2)
    with pytest.raises(RuntimeError):
        compact(session, settings=KEEP, summarizer=ScriptedSummarizer([RuntimeError("boom")]))
    return session


def v1_fixture(path: Path) -> Session:
    shutil.copyfile(FIXTURES / "large-session.v1.jsonl", path)
    session = Session.open(path)
    compact(session, window=60_000, settings=CompactionSettings(reserve_tokens=8000))
    return session


BUILDERS = {
    "one-compaction": one_compaction,
    "two-compactions": lambda p: repeated(p, 2),
    "three-compactions": lambda p: repeated(p, 3),
    "split-turn": split_turn,
    "truncate-some-kept": lambda p: truncated(p, keep_nothing=False),
    "truncate-nothing-kept": lambda p: truncated(p, keep_nothing=True),
    "compacted-branch": compacted_branch,
    "failure-record": with_failure_record,
    "pi-v1-fixture": v1_fixture,
}


@pytest.fixture(scope="module")
def compacted(tmp_path_factory) -> dict[str, tuple[Path, dict]]:
    """Every scenario written once; pi asked about all of them with one node start."""
    directory = tmp_path_factory.mktemp("compacted")
    paths = {name: build(directory / f"{name}.jsonl").path for name, build in BUILDERS.items()}
    answers = pi_contexts([{"file": path, "llm": True} for path in paths.values()])
    return {name: (path, answer) for (name, path), answer in zip(paths.items(), answers)}


def as_json(value) -> object:
    return orjson.loads(orjson.dumps(value))


@pytest.mark.parametrize("name", list(BUILDERS))
def test_pi_builds_the_context_we_build(compacted, name) -> None:
    path, answer = compacted[name]
    assert answer["ok"], answer.get("error")
    ours = Session.open(path).build_context()
    assert answer["context"] == as_json(ours.to_json())
    assert answer["context"]["messages"][0]["role"] == "compactionSummary"
    assert answer["llm"] == as_json(convert_to_llm(ours.messages))


def test_the_compactions_are_where_we_think(compacted) -> None:
    for name, count in (("one-compaction", 1), ("two-compactions", 2), ("three-compactions", 3)):
        entries = Session.open(compacted[name][0]).entries()
        assert [e["type"] for e in entries].count("compaction") == count, name
    _, nothing_kept = compacted["truncate-nothing-kept"]
    roles = [m["role"] for m in nothing_kept["context"]["messages"]]
    assert roles == ["compactionSummary"]
