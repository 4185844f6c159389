"""The pinned real pi opens every imported file with the context we build: the bundled transcripts of both
formats and hand-made hostile ones (compactions old and new, branches, sub-agents, a cycle, a torn line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.importers import import_transcript, transcript_files
from sessions_fixtures import AGENTS_DIR
from tests.conformance.jsoncmp import first_difference
from tests.conformance.pi_ref import pi_contexts

from .rows import (CONTINUED, boundary, cc_assistant, cc_user, codex_call, codex_line, codex_message, codex_meta,
                   codex_output, jsonl, text, tool_result, tool_use)

SCENARIOS: dict[str, list[dict]] = {
    "boundary": [
        cc_user("u1", None, "build it", 1), cc_assistant("a1", "u1", [tool_use("t1", command="make")], "m1", 2),
        cc_user("r1", "a1", [tool_result("t1", "ok")], 3), boundary("b1", "r1", 9000, 4),
        cc_user("s1", "b1", CONTINUED + "Built.", 5, isCompactSummary=True),
        cc_user("u2", "s1", "test it", 6), cc_assistant("a2", "u2", [text("tested")], "m2", 7),
        boundary("b2", "a2", 12000, 8), cc_user("s2", "b2", CONTINUED + "Built, tested.", 9, isCompactSummary=True),
    ],
    "continuation-and-branches": [
        cc_user("u1", None, "start", 1), cc_assistant("a1", "u1", [text("one")], "m1", 2),
        cc_assistant("a1b", "u1", [text("retry")], "m1b", 3),
        cc_user("s1", None, "side task", 4, isSidechain=True),
        cc_user("c1", None, CONTINUED + "Started twice.", 5), cc_user("u2", "c1", "go on", 6),
    ],
    "cycle-orphan-torn": [
        cc_user("u1", None, "root", 1), cc_user("x", "y", "x", 2), cc_user("y", "x", "y", 3),
        cc_user("r1", "u1", [tool_result("nowhere", "stray")], 4), {"type": "mystery", "uuid": "m", "parentUuid": "r1"},
    ],
    "codex": [
        codex_meta(), codex_line("turn_context", {"model": "gpt-5-codex"}), codex_message("user", "ls", 1),
        codex_call("c1", ["ls"], 2), codex_output("c1", "a.py", 0, 3), codex_message("assistant", "a.py", 4),
        codex_line("compacted", {"message": "Listed files."}, 5), codex_message("user", "thanks", 6),
        codex_message("developer", "be brief", 7),
    ],
}


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> dict[str, Path]:
    """Every bundled transcript and every scenario, imported into one folder."""
    out = tmp_path_factory.mktemp("imported")
    made: dict[str, Path] = {}
    for path in transcript_files(AGENTS_DIR):
        name = str(path.relative_to(AGENTS_DIR))
        made[name] = out / name.replace("/", "__")
        import_transcript(path, made[name])
    for name, rows in SCENARIOS.items():
        source = out / f"{name}.source.jsonl"
        data = jsonl(rows)
        source.write_bytes(data + (b'{"type":"user","uuid":"torn' if "torn" in name else b""))
        made[name] = out / f"{name}.jsonl"
        import_transcript(source, made[name])
    return made


def test_the_corpus_has_files_of_both_formats(imported: dict[str, Path]) -> None:
    folders = {name.split("/")[0] for name in imported if "/" in name}
    assert {"claude-code", "codex"} <= folders


def test_pi_builds_the_same_context_from_every_imported_file(imported: dict[str, Path]) -> None:
    names = sorted(imported)
    answers = pi_contexts([{"file": imported[name]} for name in names])
    for name, answer in zip(names, answers):
        assert answer["ok"], (name, answer)
        with Session.open(imported[name]) as session:
            assert session.problems == [], name
            ours = session.build_context().to_json()
        assert first_difference(ours, answer["context"]) is None, name


def test_the_scenarios_keep_their_compactions_and_summaries(imported: dict[str, Path]) -> None:
    with Session.open(imported["boundary"]) as session:
        context = session.build_context().messages
    assert [m["role"] for m in context] == ["compactionSummary"]
    assert context[0]["summary"] == "Built, tested." and context[0]["tokensBefore"] == 12000
