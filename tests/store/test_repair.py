"""``session doctor --json`` from the library (``pi_compact.store.repair.doctor_json``): the diagnosis of a file,
and the repaired copy, whose ``linesLeftOut`` counts every line of the original it leaves out (bad lines and
unusable entries) while ``leftOut`` counts entries only."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.store.doctor import diagnose
from pi_compact.store.repair import Repaired, doctor_json, repair, write_repaired
from tests.reliability.make_corpus import chain, header, lines, msg

TORN = b'{"type":"message","id":"t'
GARBAGE = b"{oops\n"
NOT_OBJECT = b"[1, 2]\n"
TYPELESS = {"id": "x1", "parentId": "a2", "timestamp": "2025-03-01T10:00:09.000Z"}
"""An entry without a type: the copy leaves it out."""


def test_a_clean_file_has_no_problems_and_no_repair(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines(header(), *chain(3)))
    document = doctor_json(path, diagnose(path.read_bytes()))
    assert document == {"file": str(path), "clean": True, "version": 3, "entries": 3, "errors": 0, "warnings": 0,
                        "problems": [], "repair": None}


@pytest.mark.parametrize(
    ("damage", "lines_left_out", "entries_left_out", "kinds"),
    [
        (TORN, 1, 0, ["torn_tail"]),
        (GARBAGE, 1, 0, ["invalid_json"]),
        (NOT_OBJECT, 1, 0, ["not_object"]),
        (lines(header()), 1, 0, ["extra_header"]),
        (lines(TYPELESS), 1, 1, ["bad_type"]),
        (GARBAGE + NOT_OBJECT + lines(TYPELESS) + TORN, 4, 1, ["invalid_json", "not_object", "bad_type",
                                                             "torn_tail"]),
    ],
    ids=["torn-tail", "invalid-json", "not-an-object", "extra-header", "typeless-entry", "all-of-them"],
)
def test_the_repair_counts_lines_and_entries_left_out_apart(tmp_path: Path, damage, lines_left_out,
                                                             entries_left_out, kinds) -> None:
    source, output = tmp_path / "s.jsonl", tmp_path / "fixed.jsonl"
    source.write_bytes(lines(header(), *chain(2)) + damage)
    diagnosis, repaired = write_repaired(source, output)
    document = doctor_json(source, diagnosis, repaired, output)
    assert [problem["kind"] for problem in document["problems"]] == kinds
    assert (document["clean"], document["errors"] + document["warnings"]) == (False, len(kinds))
    assert document["repair"] == {"output": str(output), "entries": 2, "leftOut": entries_left_out,
                                  "linesLeftOut": lines_left_out, "actions": list(repaired.actions)}
    assert sum(": left out" in action for action in repaired.actions) == lines_left_out
    assert output.read_bytes().count(b"\n") == 1 + document["repair"]["entries"]


BAD_LINES = st.sampled_from([GARBAGE, NOT_OBJECT, lines(header()), lines(TYPELESS)])


@given(st.lists(st.one_of(st.just(None), BAD_LINES), max_size=12), st.booleans())
def test_every_line_is_in_the_copy_or_counted_as_left_out(layout: list[bytes | None], torn: bool) -> None:
    body, parent, good = [], None, 0
    for part in layout:
        if part is None:  # a good entry, the child of the previous good one
            good += 1
            body.append(lines(msg(f"g{good}", parent, second=good)))
            parent = f"g{good}"
        else:
            body.append(part)
    data = lines(header()) + b"".join(body) + (TORN if torn else b"")
    repaired: Repaired = repair(data)[1]
    original_lines = len(layout) + torn
    assert repaired.entries == good
    assert repaired.lines_left_out == original_lines - good
    assert repaired.left_out == layout.count(lines(TYPELESS))
    assert repaired.data.count(b"\n") == 1 + good
    assert [orjson.loads(line)["id"] for line in repaired.data.splitlines()[1:]] == [f"g{n + 1}" for n in range(good)]
