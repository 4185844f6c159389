"""Reader and writer agree on how deep a line may be nested (issue 13.5).

orjson parses at most 1,024 levels; lines from 1,025 to 4,000 levels were written but skipped on reading,
and the turns before them vanished from the context. Now whatever the writer writes (up to ``DEEPEST``
levels) reads back, through the library and the command line; deeper values are refused when written, with
a clear error, and a deeper line from elsewhere is reported as unparsable rather than crashing anything.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.store import jsonl
from pi_compact.store.scan import parse_line
from tests.reliability.clirun import assert_clean_outcome, run_cli


def nested(depth: int) -> object:
    value: object = "bottom"
    for _ in range(depth):
        value = [value]
    return value


def depth_of(value: object) -> int:
    depth = 0
    while isinstance(value, list):
        value, depth = value[0], depth + 1
    return depth


def deep_session(path: Path, depth: int) -> Path:
    with Session.create_at(path, cwd="/p") as session:
        session.append_message({"role": "user", "content": "first turn", "timestamp": 1})
        session.append_custom("deep", {"value": nested(depth)})
        session.append_message({"role": "user", "content": "last turn", "timestamp": 2})
    return path


@pytest.mark.parametrize("depth", [1_025, 2_000, jsonl.DEEPEST])
def test_a_line_as_deep_as_the_writer_writes_reads_back(depth: int, tmp_path: Path) -> None:
    path = deep_session(tmp_path / "s.jsonl", depth)
    session = Session.open(path)
    assert session.problems == []
    assert [m["content"] for m in session.build_context().messages] == ["first turn", "last turn"]
    deep = next(e for e in session.entries() if e.get("type") == "custom")
    assert depth_of(deep["data"]["value"]) == depth


@pytest.mark.parametrize("depth", [1_025, jsonl.DEEPEST])
def test_the_command_line_reads_it_without_a_warning(depth: int, tmp_path: Path) -> None:
    path = deep_session(tmp_path / "s.jsonl", depth)
    for command in (("show",), ("context", "--json"), ("doctor",)):
        run = run_cli("session", *command, str(path))
        assert_clean_outcome(run, 0)
        assert b"warning" not in run.stderr, run.describe()
    context = json.loads(run_cli("session", "context", "--json", str(path)).stdout)
    assert len(context["messages"]) == 2


def test_the_reader_parses_every_depth_the_writer_writes() -> None:
    line = jsonl.dumps(nested(jsonl.DEEPEST))
    assert depth_of(parse_line(line)) == jsonl.DEEPEST


def test_deeper_values_are_refused_by_the_writer_with_a_clear_error(tmp_path: Path) -> None:
    path = deep_session(tmp_path / "s.jsonl", 3)
    before = path.read_bytes()
    with Session.open(path) as session, pytest.raises(ValueError, match="nested too deeply"):
        session.append_custom("too-deep", {"value": nested(jsonl.DEEPEST + 100)})
    assert path.read_bytes() == before


def test_a_deeper_line_from_elsewhere_is_reported_not_fatal(tmp_path: Path) -> None:
    path = deep_session(tmp_path / "s.jsonl", 3)
    with open(path, "ab") as out:
        out.write(b'{"type":"custom","id":"deadbeef","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z",'
                  b'"customType":"x","data":' + b"[" * 50_000 + b"]" * 50_000 + b"}\n")
    session = Session.open(path)
    assert [p.kind for p in session.problems] == ["invalid_json"]
    assert len(session.build_context().messages) == 2
