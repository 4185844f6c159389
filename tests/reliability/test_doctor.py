"""``pi-compact session doctor``: what it reports (kinds, line numbers, ids), its exit status, and what
``--repair -o OUT`` does to each kind of damage."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from pi_compact import Session
from pi_compact.store.doctor import diagnose
from pi_compact.store.repair import repair

from .clirun import assert_clean_outcome, run_forked, sha256
from .make_corpus import chain, entry, header, lines, msg

CORPUS = Path(__file__).resolve().parent / "corpus"


def repaired_entries(data: bytes) -> list[dict]:
    fixed = repair(data)[1].data
    return [orjson.loads(line) for line in fixed.split(b"\n")[1:-1]]


def parents(entries: list[dict]) -> dict[str, str | None]:
    return {e["id"]: e["parentId"] for e in entries}


# -- the command -------------------------------------------------------------------------------------------------


def test_exit_status_is_0_clean_1_problems_2_unreadable(tmp_path: Path) -> None:
    assert_clean_outcome(run_forked("session", "doctor", str(CORPUS / "valid-small.jsonl")), 0)
    assert_clean_outcome(run_forked("session", "doctor", str(CORPUS / "torn-tail.jsonl")), 1)
    assert_clean_outcome(run_forked("session", "doctor", str(CORPUS / "empty.jsonl")), 1)
    assert_clean_outcome(run_forked("session", "doctor", str(tmp_path / "missing.jsonl")), 2)
    assert_clean_outcome(run_forked("session", "doctor", str(tmp_path)), 2)
    for wrong in (("--repair",), ("-o", str(tmp_path / "out.jsonl"))):
        assert_clean_outcome(run_forked("session", "doctor", str(CORPUS / "torn-tail.jsonl"), *wrong), 2)
    assert not (tmp_path / "out.jsonl").exists()


def test_the_report_names_lines_and_ids() -> None:
    run = run_forked("session", "doctor", str(CORPUS / "duplicate-ids.jsonl"))
    assert_clean_outcome(run, 1)
    assert "line 5: error duplicate_id: id a2 is already used on line 3" in run.stdout.decode()
    report = orjson.loads(run_forked("session", "doctor", "--json", str(CORPUS / "parent-cycle.jsonl")).stdout)
    assert report["clean"] is False and report["errors"] == 1 and report["warnings"] == 0
    [cycle] = report["problems"]
    assert (cycle["kind"], cycle["line"], cycle["entryId"], cycle["severity"]) == ("cycle", 4, "c1", "error")
    assert "c1 → c2 → c3" in cycle["message"]


def test_every_problem_is_reported_not_just_the_first(tmp_path: Path) -> None:
    data = lines(header(), *chain(3), msg("a2", "a3", second=9), msg("s1", "s1", second=10),
                 msg("d1", "ghost", second=11)) + b"{oops\n" + line_torn()
    kinds = [(f.kind, f.line) for f in diagnose(data).findings]
    assert kinds == [("duplicate_id", 5), ("self_parent", 6), ("dangling_parent", 7), ("invalid_json", 8),
                     ("torn_tail", 9)]


def line_torn() -> bytes:
    return orjson.dumps(msg("t1", "a3", content="y" * 100))[:60]


def test_repair_writes_a_new_file_and_reports_what_it_did(tmp_path: Path) -> None:
    source = CORPUS / "pi-duplicate-header-bug.jsonl"
    out = tmp_path / "fixed.jsonl"
    before = sha256(source)
    run = run_forked("session", "doctor", "--json", str(source), "--repair", "-o", str(out))
    assert_clean_outcome(run, 1)  # the status describes FILE, which still has its problems
    report = orjson.loads(run.stdout)["repair"]
    assert report["output"] == str(out) and report["entries"] == 5 and report["leftOut"] == 0
    assert any("extra_header" in action for action in report["actions"])
    assert sha256(source) == before
    assert_clean_outcome(run_forked("session", "doctor", str(out)), 0)


# -- what repair does --------------------------------------------------------------------------------------------


def test_later_duplicates_get_fresh_ids_and_their_children_follow() -> None:
    data = lines(header(), msg("x", None, second=1), msg("c1", "x", second=2), msg("x", "c1", second=3),
                 msg("c2", "x", second=4), entry("label", "l1", "c2", 5, targetId="x", label="second x"))
    first_x, c1, second_x, c2, label = repaired_entries(data)
    assert first_x["id"] == "x" and c1["parentId"] == "x"
    assert second_x["id"] != "x" and second_x["parentId"] == "c1"
    assert c2["parentId"] == second_x["id"] and label["targetId"] == second_x["id"]


def test_cycles_are_broken_where_they_start_in_file_order() -> None:
    data = (CORPUS / "parent-cycle.jsonl").read_bytes()
    fixed = parents(repaired_entries(data))
    assert fixed["c1"] == "a2"  # re-attached under the entry before it in the file
    assert (fixed["c2"], fixed["c3"]) == ("c1", "c2")


def test_orphans_are_re_attached_to_the_entry_before_them() -> None:
    for name, orphan in (("dangling-parents", "d1"), ("self-parent", "s1"), ("parent-id-number", "p1"),
                         ("missing-parent-key", "p1")):
        fixed = parents(repaired_entries((CORPUS / f"{name}.jsonl").read_bytes()))
        assert fixed[orphan] == "a2", name


def test_unusable_entries_are_left_out_and_their_children_move_up() -> None:
    fixed = parents(repaired_entries((CORPUS / "message-not-object.jsonl").read_bytes()))
    assert "m1" not in fixed and fixed["a3"] == "a2"


def test_untouched_lines_are_copied_byte_for_byte() -> None:
    data = (CORPUS / "torn-tail.jsonl").read_bytes()
    fixed = repair(data)[1].data
    assert fixed == data[: data.rfind(b"\n") + 1]
    crlf = (CORPUS / "crlf.jsonl").read_bytes()
    assert repair(crlf)[1].data == crlf.replace(b"\r\n", b"\n")


def test_a_lost_header_is_rebuilt_from_what_is_left_of_it() -> None:
    _, fixed = repair((CORPUS / "corrupt-header.jsonl").read_bytes())
    head = orjson.loads(fixed.data.split(b"\n")[0])
    assert head["type"] == "session" and head["version"] == 3
    assert head["id"].startswith("0195f3a0-0")  # the id survived the damage
    _, moved = repair((CORPUS / "header-not-first.jsonl").read_bytes())
    assert orjson.loads(moved.data.split(b"\n")[0])["id"] == "0195f3a0-0000-7000-8000-000000000001"


@pytest.mark.parametrize("name", ["compaction-first-kept-missing", "compaction-first-kept-off-branch",
                                  "compaction-first-kept-absent"])
def test_a_compaction_that_keeps_from_nowhere_keeps_nothing(name: str, tmp_path: Path) -> None:
    """As pi reads it: no first kept entry on the path means only the summary and what follows."""
    data = (CORPUS / f"{name}.jsonl").read_bytes()
    [compaction] = [e for e in repaired_entries(data) if e["type"] == "compaction"]
    assert compaction["firstKeptEntryId"] == compaction["id"]
    out = tmp_path / "fixed.jsonl"
    out.write_bytes(repair(data)[1].data)
    with Session.open(out) as session:
        messages = session.build_context().messages
    assert [m["role"] for m in messages] == ["compactionSummary"]
