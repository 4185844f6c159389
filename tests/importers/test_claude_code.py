"""Claude Code transcripts read as pi trees: merged rows, tool results, compactions, branches, hostile DAGs."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact import Session, TranscriptError
from pi_compact.importers import import_transcript, read_transcript
from pi_compact.importers.claude_code import read_claude_code

from .rows import CONTINUED, boundary, cc_assistant, cc_user, jsonl, stamp, text, tool_result, tool_use


def _write(tmp_path: Path, rows: list[dict], name: str = "in.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(jsonl(rows))
    return path


@pytest.fixture
def imported(tmp_path: Path):
    """``imported(rows)``: the rows written as a Claude Code file, imported, and opened as a pi session."""

    def run(rows: list[dict] | bytes) -> Session:
        source = tmp_path / "in.jsonl"
        source.write_bytes(rows if isinstance(rows, bytes) else jsonl(rows))
        out = tmp_path / "out.jsonl"
        import_transcript(source, out, force=True)
        return Session.open(out)

    return run


def _context(session: Session) -> list[dict]:
    return session.build_context().messages


def test_the_rows_of_one_api_message_become_one_assistant_message(imported) -> None:
    session = imported([
        cc_user("u1", None, "list files"),
        cc_assistant("a1", "u1", [{"type": "thinking", "thinking": "ls", "signature": "sig"}], "m1",
                     usage={"input_tokens": 5, "output_tokens": 1, "cache_read_input_tokens": 90}),
        cc_assistant("a2", "a1", [text("running ls")], "m1", usage={"input_tokens": 5, "output_tokens": 7}),
        cc_assistant("a3", "a2", [tool_use("t1", command="ls")], "m1", usage={"input_tokens": 5, "output_tokens": 9}),
        cc_user("r1", "a3", [tool_result("t1", "a.py\nb.py")]),
    ])
    roles = [m["role"] for m in _context(session)]
    assert roles == ["user", "assistant", "toolResult"]
    assistant = _context(session)[1]
    assert [b["type"] for b in assistant["content"]] == ["thinking", "text", "toolCall"]
    assert assistant["content"][0]["thinkingSignature"] == "sig"
    assert assistant["content"][2] == {"type": "toolCall", "id": "t1", "name": "Bash", "arguments": {"command": "ls"}}
    assert assistant["usage"]["output"] == 9 and assistant["usage"]["cacheRead"] == 90
    assert assistant["stopReason"] == "toolUse" and assistant["model"] == "claude-sonnet-4-5"


def test_rows_of_one_message_split_by_a_tool_result_still_join(imported) -> None:
    # Claude Code may run the first call while the second streams: its result sits between the two rows.
    session = imported([
        cc_user("u1", None, "two calls"),
        cc_assistant("a1", "u1", [tool_use("t1")], "m1"),
        cc_user("r1", "a1", [tool_result("t1", "one")]),
        cc_assistant("a2", "r1", [tool_use("t2")], "m1"),
        cc_user("r2", "a2", [tool_result("t2", "two")]),
    ])
    messages = _context(session)
    assert [m["role"] for m in messages] == ["user", "assistant", "toolResult", "toolResult"]
    assert [b["id"] for b in messages[1]["content"]] == ["t1", "t2"]


def _progress(uid: str, parent: str) -> dict:
    return {"type": "progress", "uuid": uid, "parentUuid": parent, "sessionId": "sess-1", "timestamp": stamp(0)}


def test_results_of_parallel_calls_written_as_rows_of_their_own_stay_on_one_path(imported) -> None:
    # as Claude Code writes two parallel calls: each call a row of the same message, progress rows between
    # them, each result a child of its own call's row, the conversation going on after the last result
    session = imported([
        cc_user("u1", None, "check it"),
        cc_assistant("a1", "u1", [text("running both")], "m1"),
        cc_assistant("a2", "a1", [tool_use("t1", command="ruff check && mypy")], "m1"),
        _progress("p1", "a2"),
        cc_assistant("a3", "p1", [tool_use("t2", command="pytest")], "m1"),
        _progress("p2", "a3"),
        cc_user("r1", "a2", [tool_result("t1", "ruff: ok\nmypy: ok")]),
        _progress("p3", "r1"),
        cc_user("r2", "a3", [tool_result("t2", "3 passed")]),
        cc_assistant("a4", "r2", [text("all green")], "m2"),
    ])
    messages = _context(session)
    assert [m["role"] for m in messages] == ["user", "assistant", "toolResult", "toolResult", "assistant"]
    assert [m["toolCallId"] for m in messages if m["role"] == "toolResult"] == ["t1", "t2"]


def test_tool_results_carry_the_error_flag_and_the_name_of_their_call(imported) -> None:
    session = imported([
        cc_user("u1", None, "go"),
        cc_assistant("a1", "u1", [tool_use("t1", "Read", file_path="x"), tool_use("t2", "Write", file_path="y")]),
        cc_user("r1", "a1", [tool_result("t1", "ok"), tool_result("t2", "The user doesn't want to proceed", True),
                             text("and stop there")]),
    ])
    results = [m for m in _context(session) if m["role"] == "toolResult"]
    assert [(r["toolName"], r["isError"]) for r in results] == [("Read", False), ("Write", True)]
    assert _context(session)[-1] == {"role": "user", "content": [text("and stop there")],
                                     "timestamp": results[0]["timestamp"]}


def test_a_tool_result_without_its_call_is_kept(imported) -> None:
    session = imported([cc_user("u1", None, "hi"), cc_user("r1", "u1", [tool_result("nowhere", "stray")])])
    stray = _context(session)[-1]
    assert stray["role"] == "toolResult" and stray["toolCallId"] == "nowhere" and stray["toolName"] == ""


def test_a_compact_boundary_and_its_summary_become_one_compaction(imported) -> None:
    session = imported([
        cc_user("u1", None, "build it", 1),
        cc_assistant("a1", "u1", [text("built")], "m1", 2),
        boundary("b1", "a1", pre_tokens=155025, second=3),
        cc_user("s1", "b1", CONTINUED + "1. Primary Request: build it", 4, isCompactSummary=True),
        cc_user("u2", "s1", "now test it", 5),
    ])
    compaction = session.entry("b1")
    assert compaction["type"] == "compaction" and compaction["parentId"] == "a1"
    assert compaction["summary"] == "1. Primary Request: build it"
    assert compaction["tokensBefore"] == 155025 and compaction["firstKeptEntryId"] == "b1"
    assert [m["role"] for m in _context(session)] == ["compactionSummary", "user"]
    assert _context(session)[-1]["content"] == "now test it"


def test_an_older_continuation_chain_becomes_a_compaction_after_the_chain_before_it(imported) -> None:
    session = imported([
        cc_user("u1", None, "first", 1),
        cc_assistant("a1", "u1", [text("answer")], "m1", 2, usage={"input_tokens": 400, "output_tokens": 100}),
        cc_user("c1", None, CONTINUED + "Summary of the first chain", 3),
        cc_user("u2", "c1", "go on", 4),
    ])
    compaction = session.entry("c1")
    assert compaction["type"] == "compaction" and compaction["parentId"] == "a1"
    assert compaction["summary"] == "Summary of the first chain"
    assert compaction["tokensBefore"] == 500  # the last reply's recorded context, when Claude Code kept no count
    assert [m["role"] for m in _context(session)] == ["compactionSummary", "user"]


def test_branches_are_kept_and_the_newest_is_the_leaf(imported) -> None:
    session = imported([
        cc_user("u1", None, "start", 1),
        cc_assistant("a1", "u1", [text("first try")], "m1", 2),
        cc_assistant("a2", "u1", [text("second try")], "m2", 3),
        cc_user("u2", "a2", "good", 4),
    ])
    assert sorted(e["id"] for e in session.children("u1")) == ["a1", "a2"]
    assert [m["role"] for m in _context(session)] == ["user", "assistant", "user"]
    assert _context(session)[1]["content"] == [text("second try")]


def test_sidechain_rows_stay_off_the_main_path(imported) -> None:
    session = imported([
        cc_user("u1", None, "main", 1),
        cc_user("s1", None, "sub-agent task", 2, isSidechain=True),
        cc_assistant("s2", "s1", [text("sub-agent answer")], "ms", 3, isSidechain=True),
        cc_assistant("a1", "u1", [text("main answer")], "m1", 4),
    ])
    path = session.path_ids()
    assert "s1" not in path and "s2" not in path and "a1" in path
    assert session.entry("s2")["parentId"] == "s1" and session.entry("s1")["parentId"] is None


def test_unknown_rows_are_kept_unchanged_as_custom_entries(imported) -> None:
    odd = {"type": "progress", "uuid": "p1", "parentUuid": "u1", "data": {"hook": "PreToolUse", "n": [1, 2]}}
    loose = {"type": "file-history-snapshot", "messageId": "x", "snapshot": {"files": {}}}
    session = imported([cc_user("u1", None, "hi"), odd, loose, cc_assistant("a1", "p1", [text("yo")])])
    customs = {e["customType"]: e["data"] for e in session.iter_entries("custom")}
    assert customs == {"claude-code:progress": odd, "claude-code:file-history-snapshot": loose}
    assert [m["role"] for m in _context(session)] == ["user", "assistant"]


@pytest.mark.parametrize("content", ["Stop hook feedback:\nrun the linter", [text("Base directory for this skill: /s")]],
                         ids=["text", "blocks"])
def test_a_row_claude_code_wrote_itself_reaches_the_model_but_is_no_user_request(imported, content) -> None:
    from pi_compact.compaction.offline.goal import user_requests

    session = imported([
        cc_user("u1", None, "fix the parser"),
        cc_assistant("a1", "u1", [text("fixed")]),
        cc_user("u2", "a1", content, isMeta=True),
    ])
    meta = list(session.iter_entries("custom_message"))
    assert [(e["customType"], e["display"], e["content"]) for e in meta] == [
        ("claude-code:meta", False, content if isinstance(content, str) else [{"type": "text", "text": "Base directory for this skill: /s"}])]
    context = _context(session)
    assert [m["role"] for m in context] == ["user", "assistant", "custom"]  # pi sends a custom message as a user turn
    assert [text for _, text in user_requests(context)] == ["fix the parser"]


@pytest.mark.parametrize(("rows", "name"), [
    ([{"type": "summary", "summary": "Generated title", "leafUuid": "u1"}], "Generated title"),
    ([{"type": "custom-title", "customTitle": "Mine", "sessionId": "s"},
      {"type": "summary", "summary": "Generated", "leafUuid": "u1"}], "Mine"),
], ids=["summary", "custom-title-wins"])
def test_a_title_row_names_the_session(imported, rows: list[dict], name: str) -> None:
    session = imported([*rows, cc_user("u1", None, "hi")])
    assert session.name == name
    assert [m["role"] for m in _context(session)] == ["user"]


def test_header_takes_the_session_id_cwd_and_first_time(imported) -> None:
    session = imported([cc_user("u1", None, "hi", 7)])
    assert (session.id, session.cwd, session.header["timestamp"]) == ("sess-1", "/home/me/proj",
                                                                       "2026-01-01T10:00:07.000Z")


def test_images_are_carried_over(imported) -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "AAAA"}}
    session = imported([cc_user("u1", None, [text("look"), image])])
    assert _context(session)[0]["content"][1] == {"type": "image", "data": "AAAA", "mimeType": "image/jpeg"}


def test_an_api_error_row_is_an_errored_assistant_message(imported) -> None:
    session = imported([cc_user("u1", None, "hi"),
                        cc_assistant("a1", "u1", [text("API Error: 529 overloaded")], isApiErrorMessage=True)])
    assert _context(session)[-1]["stopReason"] == "error"
    assert _context(session)[-1]["errorMessage"] == "API Error: 529 overloaded"


# -- hostile input ------------------------------------------------------------------------------------------


def test_a_torn_last_line_is_noted_and_skipped(tmp_path: Path) -> None:
    data = jsonl([cc_user("u1", None, "hi")]) + b'{"type":"user","uuid":"u2","parentUu'
    imported = read_claude_code(data)
    assert [e["id"] for e in imported.entries] == ["u1"]
    assert imported.notes == ("line 2: not valid JSON (cut off: the last line has no newline); skipped",)


def test_strict_refuses_a_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(jsonl([cc_user("u1", None, "hi")]) + b"[1, 2]\n")
    with pytest.raises(TranscriptError, match=r"line 2: a JSON list, not an object"):
        read_transcript(path, strict=True)
    assert read_transcript(path).notes == ("line 2: a JSON list, not an object; skipped",)


def test_a_parent_cycle_is_cut_and_every_row_kept(imported) -> None:
    session = imported([
        cc_user("u0", None, "root", 0),
        cc_user("x", "z", "x", 1), cc_assistant("y", "x", [text("y")], "my", 2), cc_user("z", "y", "z", 3),
    ])
    assert {"x", "y", "z", "u0"} <= {e["id"] for e in session.entries()}
    assert session.problems == []
    assert session.entry("x")["parentId"] is None  # the cycle's earliest line became a root


def test_a_missing_parent_and_a_repeated_uuid_are_noted() -> None:
    imported = read_claude_code(jsonl([cc_user("u1", "gone", "a"), cc_user("u1", None, "again")]))
    assert imported.notes == ("line 2: uuid u1 already used on line 1; skipped",
                              "line 1: parent gone is not in the file; kept as a root")
    assert [e["message"]["content"] for e in imported.entries] == ["a"]


@st.composite
def _dags(draw) -> list[dict]:
    """Rows whose parents point anywhere: earlier, later, nowhere, at themselves (cycles), with repeats."""
    count = draw(st.integers(1, 25))
    ids = [f"r{i}" for i in range(count)]
    rows = []
    for i, uid in enumerate(ids):
        parent = draw(st.one_of(st.none(), st.sampled_from(ids), st.just("missing")))
        kind = draw(st.sampled_from(["user", "assistant", "result", "system", "boundary", "summary"]))
        if kind == "user":
            rows.append(cc_user(uid, parent, draw(st.sampled_from(["hi", CONTINUED + "sum"])), i))
        elif kind == "assistant":
            rows.append(cc_assistant(uid, parent, [tool_use(f"t{i % 3}")], f"m{i % 4}", i))
        elif kind == "result":
            rows.append(cc_user(uid, parent, [tool_result(f"t{i % 3}", "out")], i))
        elif kind == "boundary":
            rows.append(boundary(uid, parent, second=i))
        elif kind == "summary":
            rows.append(cc_user(uid, parent, CONTINUED + "s", i, isCompactSummary=True))
        else:
            rows.append({"type": "system", "subtype": "turn_duration", "uuid": uid, "parentUuid": parent})
    return rows + draw(st.lists(st.sampled_from(rows), max_size=3))


@settings(max_examples=150, deadline=None)
@given(_dags())
def test_any_dag_imports_to_a_clean_tree_whose_last_line_is_the_leaf(rows: list[dict]) -> None:
    imported = read_claude_code(jsonl(rows))
    seen: set[str] = set()
    for entry in imported.entries:
        assert entry["parentId"] is None or entry["parentId"] in seen
        assert entry["id"] not in seen
        seen.add(entry["id"])
    parents = {e["parentId"] for e in imported.entries}
    assert imported.entries and imported.entries[-1]["id"] not in parents
    for entry in imported.entries:
        if entry["type"] == "compaction":
            assert entry["firstKeptEntryId"] == entry["id"]
    ids = {e["id"] for e in imported.entries}
    answers = {e["message"].get("responseId") for e in imported.entries if e["type"] == "message"}
    summaries = sum(1 for e in imported.entries if e["type"] == "compaction" and e["details"]["summaryLine"])
    for row in {r["uuid"]: r for r in reversed(rows)}.values():  # the first row of each uuid is the one kept
        if row["type"] == "assistant":
            assert row["uuid"] in ids or row["message"]["id"] in answers
        elif row["type"] == "user" and str(row["message"]["content"]).startswith("This session"):
            assert row["uuid"] in ids or summaries
        else:
            assert row["uuid"] in ids


def test_fifty_megabytes_of_rows_import_and_open(tmp_path: Path, deadline) -> None:
    rows, parent = [], None
    filler = "x" * 4500
    for i in range(12_000):
        uid = f"u{i}"
        rows.append(cc_user(uid, parent, f"{i} {filler}", i) if i % 2 == 0 else
                    cc_assistant(uid, parent, [text(filler)], f"m{i}", i))
        parent = uid
    path = _write(tmp_path, rows)
    assert path.stat().st_size > 50_000_000
    with deadline(300, "importing 50 MB"):
        import_transcript(path, tmp_path / "out.jsonl")
        session = Session.open(tmp_path / "out.jsonl")
    assert len(session) == 12_000 and session.leaf_id == "u11999"
    assert orjson.loads((tmp_path / "out.jsonl").read_bytes().split(b"\n", 1)[0])["type"] == "session"


def test_a_compaction_that_kept_the_newest_messages_keeps_them_in_the_context(imported) -> None:
    # Claude Code 2.1 keeps a tail of the conversation: the boundary names the kept segment, whose tail is
    # written after the boundary (so the boundary's logical parent comes later in the file, not before it).
    kept = {"headUuid": "a2", "anchorUuid": "s1", "tailUuid": "a3"}
    cut = boundary("b1", "a3", 120000, 5)
    cut["compactMetadata"]["preservedSegment"] = kept
    session = imported([
        cc_user("u1", None, "old request", 1), cc_assistant("a1", "u1", [text("old answer")], "m1", 2),
        cc_user("u2", "a1", "recent request", 3), cc_assistant("a2", "u2", [text("recent answer")], "m2", 4),
        cut, cc_user("s1", "b1", CONTINUED + "Old work done.", 6, isCompactSummary=True),
        cc_assistant("a3", "s1", [text("carrying on")], "m3", 7),
    ])
    compaction = session.entry("b1")
    assert (compaction["parentId"], compaction["firstKeptEntryId"]) == ("a2", "a2")
    assert compaction["details"]["linkedByFileOrder"] is True
    texts = [m.get("summary") or m["content"][0]["text"] for m in _context(session)]
    assert texts == ["Old work done.", "recent answer", "carrying on"]
