"""Preparing a compaction: what is summarized and kept, the region starting at the previous compaction's kept
boundary (pi 0.73), the previous summary carried, split turns, and file lists accumulated across compactions
and branch summaries (pi's read/write/edit calls, plus paths in bash commands)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from pi_compact import Session
from pi_compact.compaction import CompactionSettings, compact, estimate_tokens, prepare_compaction
from pi_compact.compaction.prepare import FileLists
from pi_compact.compaction.tokens import text_tokens
from sessions_fixtures import PI_DIR

from .builders import assistant, call, new_session, tool_result, tool_turn, usage, user

FIXTURES = PI_DIR
SMALL = CompactionSettings(keep_recent_tokens=1000)
OUTPUT = "line of output\n" * 400  # 1,500 tokens


def roles(messages) -> list[str]:
    return [m["role"] for m in messages]


def test_nothing_to_prepare_for_an_empty_path_or_a_compaction_leaf(tmp_path) -> None:
    assert prepare_compaction([], SMALL) is None
    session = new_session(tmp_path / "s.jsonl", [user("hi")])
    session.append_compaction("s", session.leaf_id, 1)
    assert prepare_compaction(session.branch(), SMALL) is None


def test_first_compaction(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl")
    for n in range(4):
        tool_turn(session, n, f"request {n}", OUTPUT)
    path = session.branch()
    prep = prepare_compaction(path, SMALL)
    assert prep.previous_summary is None and prep.boundary_start == 0
    # Turn 3 alone is 1,500 tokens > 1,000: the cut splits it after its tool result.
    assert prep.first_kept_entry_id == path[15]["id"] and prep.is_split_turn
    assert prep.cut.turn_start_index == 12
    assert roles(prep.messages_to_summarize) == ["user", "assistant", "toolResult", "assistant"] * 3
    assert roles(prep.turn_prefix_messages) == ["user", "assistant", "toolResult"]
    assert prep.tokens_before == sum(map(estimate_tokens, (e["message"] for e in path)))
    assert not prep.tokens_before_measured  # no usage was reported


def test_tokens_before_trusts_the_reported_usage(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl")
    tool_turn(session, 0, "request", OUTPUT)
    session.append_message(assistant("measured", usage=usage(50_000)))
    session.append_message(user("a" * 400))
    prep = prepare_compaction(session.branch(), SMALL)
    assert prep.tokens_before == 50_000 + text_tokens("a" * 400) and prep.tokens_before_measured


def test_small_session_keeps_everything(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl", [user("hi"), assistant("hello")])
    prep = prepare_compaction(session.branch(), CompactionSettings())
    assert prep.cut.first_kept_index == 0 and prep.messages_to_summarize == () and not prep.is_split_turn


def test_iterative_update_starts_at_the_previous_kept_boundary(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl")
    for n in range(3):
        tool_turn(session, n, f"request {n}", OUTPUT)
    kept = session.branch()[8]  # the user message of turn 2
    session.append_compaction("SUMMARY ONE", kept["id"], 5000, {"readFiles": [], "modifiedFiles": []}, False)
    for n in range(3, 6):
        tool_turn(session, n, f"request {n}", OUTPUT)
    path = session.branch()
    prep = prepare_compaction(path, SMALL)
    assert prep.previous_summary == "SUMMARY ONE"
    assert path[prep.boundary_start]["id"] == kept["id"]
    # The message kept last time is summarized now; the compaction itself contributes only its summary.
    assert prep.messages_to_summarize[0] is kept["message"]
    assert "compactionSummary" not in roles(prep.messages_to_summarize)
    assert prep.messages_to_summarize[4]["content"] == "request 3"


def test_a_previous_first_kept_off_the_path_starts_after_the_compaction(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl", [user("a"), assistant("b")])
    session.append_compaction("S", "not-an-id", 10)
    session.append_message(user("c" * 8000))
    session.append_message(assistant("d"))
    path = session.branch()
    prep = prepare_compaction(path, SMALL)
    assert prep.boundary_start == 3 and prep.previous_summary == "S"


def test_the_previous_summary_travels_through_compact(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl")
    for n in range(3):
        tool_turn(session, n, f"request {n}", OUTPUT)
    first = compact(session, settings=SMALL)
    for n in range(3, 6):
        tool_turn(session, n, f"request {n}", OUTPUT)
    prep = prepare_compaction(session.branch(), SMALL)
    assert prep.previous_summary == first.summary
    assert session.branch()[prep.boundary_start]["id"] == first.first_kept_entry_id


def details_of(session: Session, entry_id: str) -> tuple[list[str], list[str]]:
    details = session.entry(entry_id)["details"]
    return details["readFiles"], details["modifiedFiles"]


def test_file_lists_accumulate_through_two_compactions_and_a_branch_summary(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl")
    session.append_message(user("start"))
    session.append_message(assistant(call("c1", "read", path="a.py"), call("c2", "edit", path="b.py")))
    session.append_message(tool_result("c1", "read", OUTPUT))
    session.append_message(tool_result("c2", "edit", "ok"))
    tool_turn(session, 10, "more", OUTPUT, path="z.py")
    tool_turn(session, 11, "recent", OUTPUT, path="kept.py")
    first = compact(session, settings=SMALL)
    # kept.py: turn 11 is split, and its prefix (the read call) is summarized too.
    assert details_of(session, first.entry["id"]) == (["a.py", "kept.py", "z.py"], ["b.py"])

    session.append_branch_summary(session.leaf_id, "explored", {"readFiles": ["c.py"], "modifiedFiles": ["d.py"]})
    session.append_message(user("next"))
    session.append_message(assistant(call("c3", "bash", command="cat e.py && sed -i 's/x/y/' g.py"),
                                     call("c4", "write", path="f.py", content="x"), call("c5", "read", path="b.py")))
    session.append_message(tool_result("c3", "bash", OUTPUT))
    session.append_message(tool_result("c4", "write", "ok"))
    session.append_message(tool_result("c5", "read", "b"))
    tool_turn(session, 12, "latest", OUTPUT, path="kept2.py")
    second = compact(session, settings=SMALL)
    read, modified = details_of(session, second.entry["id"])
    # From the first compaction, the branch summary, pi's read/write/edit calls and the bash command;
    # b.py was read again but stays listed as modified only.
    assert read == ["a.py", "c.py", "e.py", "kept.py", "kept2.py", "z.py"]
    assert modified == ["b.py", "d.py", "f.py", "g.py"]

    session.append_message(user("edit a"))
    session.append_message(assistant(call("c6", "edit", path="a.py")))
    session.append_message(tool_result("c6", "edit", "ok"))
    tool_turn(session, 13, "last", OUTPUT, path="kept3.py")
    third = compact(session, settings=SMALL)
    read3, modified3 = details_of(session, third.entry["id"])
    assert "a.py" in modified3 and "a.py" not in read3
    assert set(modified3) >= set(modified) and set(read3) >= set(read) - {"a.py"}
    assert "<modified-files>\n" in third.summary and "\na.py\n" in third.summary.split("<modified-files>")[1]


def test_a_hook_compaction_seeds_nothing(tmp_path) -> None:
    session = new_session(tmp_path / "s.jsonl", [user("a")])
    session.append_compaction("S", session.leaf_id, 1, {"readFiles": ["hook.py"], "modifiedFiles": ["h.py"]}, True)
    session.append_message(user("b" * 8000))
    session.append_message(assistant("c"))
    prep = prepare_compaction(session.branch(), SMALL)
    assert prep.files == FileLists()


def test_file_lists_sort_in_javascript_order() -> None:
    files = FileLists.build({"b.py", "B.py", "\U0001f600.py", "\uff5e.py"}, {"a.py"})
    # UTF-16 code units: the emoji's surrogate (0xD83D) sorts before U+FF5E.
    assert files.read_files == ("B.py", "b.py", "\U0001f600.py", "\uff5e.py")
    assert files.details() == {"readFiles": list(files.read_files), "modifiedFiles": ["a.py"]}


def test_pi_v1_fixture_prepares_with_a_valid_cut() -> None:
    fixture = FIXTURES / "large-session.v1.jsonl"
    digest = hashlib.sha256(fixture.read_bytes()).hexdigest()
    path = Session.open(fixture).branch()
    prep = prepare_compaction(path, CompactionSettings())
    kept = path[prep.cut.first_kept_index]
    assert kept["type"] == "message" and kept["message"]["role"] in ("user", "assistant")
    assert prep.first_kept_entry_id == kept["id"]
    assert len(prep.messages_to_summarize) > 100
    assert prep.tokens_before > CompactionSettings().keep_recent_tokens and prep.tokens_before_measured
    assert prep.files.modified_files  # the fixture edits files through pi's tools
    assert hashlib.sha256(fixture.read_bytes()).hexdigest() == digest
