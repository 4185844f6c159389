"""Context building reads only what it needs: the kept region's message entries and the last setters above.

A long session's file is indexed lazily, so what building the context parses is what it costs. These tests
open files in lazy mode (as every file over ``EAGER_PARSE_BYTES`` is) and check both the answer (equal to
the plain-list ``build_session_context``) and which entries were parsed to get it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_compact import Session, build_session_context
from pi_compact.store import scan as scan_module
from pi_compact.store.jsonl import dumps_line

T0 = "2025-01-01T00:00:00.000Z"
HEADER = {"type": "session", "version": 3, "id": "sess", "timestamp": T0, "cwd": "/p"}


def base(kind: str, entry_id: str, parent: str | None, **fields) -> dict:
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": T0, **fields}


def user(entry_id: str, parent: str | None, text: str) -> dict:
    return base("message", entry_id, parent, message={"role": "user", "content": text, "timestamp": 1})


def assistant(entry_id: str, parent: str, model: str) -> dict:
    message = {"role": "assistant", "content": [{"type": "text", "text": model}], "provider": "p", "model": model}
    return base("message", entry_id, parent, message=message)


def extension(entry_id: str, parent: str) -> dict:
    """An entry type pi does not know, written in pi's key order: indexed lazily, never a message."""
    return base("x_extension_state", entry_id, parent, data={"big": "x" * 100})


def compaction(entry_id: str, parent: str, first_kept: str) -> dict:
    return base("compaction", entry_id, parent, summary="S", firstKeptEntryId=first_kept, tokensBefore=9)


@pytest.fixture
def lazy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scan_module, "EAGER_PARSE_BYTES", 0)


def open_lazily(tmp_path: Path, entries: list[dict]) -> Session:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(dumps_line(e) for e in [HEADER, *entries]))
    return Session.open(path)


def parsed_ids(session: Session) -> set[str]:
    return {slot.id for slot in session._index.slots if slot.entry is not None}


HISTORY = [
    base("thinking_level_change", "t1", None, thinkingLevel="low"),
    user("u1", "t1", "old question"),
    assistant("a1", "u1", "old-model"),
    extension("x1", "a1"),
    base("thinking_level_change", "t2", "x1", thinkingLevel="high"),
    user("u2", "t2", "older still"),
    assistant("a2", "u2", "model-above"),
    user("k1", "a2", "first kept"),
    extension("x2", "k1"),
    assistant("a3", "x2", "kept-model"),
]


def test_a_compacted_context_parses_only_the_kept_region_and_the_setters_above(tmp_path, lazy):
    entries = [*HISTORY, compaction("c1", "a3", "k1"), user("u3", "c1", "after"), extension("x3", "u3")]
    session = open_lazily(tmp_path, entries)
    assert parsed_ids(session) == set()

    context = session.build_context()

    assert context == build_session_context(entries)
    assert [m.get("content") for m in context.messages][1:2] == ["first kept"]
    assert context.thinking_level == "high" and context.model == {"provider": "p", "modelId": "kept-model"}
    assert parsed_ids(session) == {"t2", "k1", "a3", "c1", "u3"}


def test_a_kept_id_off_the_path_parses_nothing_above_the_compaction_but_its_setters(tmp_path, lazy):
    entries = [*HISTORY, compaction("c1", "a3", "gone"), user("u3", "c1", "after")]
    session = open_lazily(tmp_path, entries)

    context = session.build_context()

    assert context == build_session_context(entries)
    assert [m["role"] for m in context.messages] == ["compactionSummary", "user"]
    assert context.thinking_level == "high" and context.model == {"provider": "p", "modelId": "kept-model"}
    assert parsed_ids(session) == {"t2", "a3", "c1", "u3"}


def test_without_a_compaction_every_message_entry_is_parsed_and_nothing_else(tmp_path, lazy):
    session = open_lazily(tmp_path, HISTORY)

    context = session.build_context()

    assert context == build_session_context(HISTORY)
    assert parsed_ids(session) == {e["id"] for e in HISTORY if e["type"] != "x_extension_state"}


def test_a_kept_entry_of_an_unknown_type_still_marks_where_emitting_starts(tmp_path, lazy):
    entries = [*HISTORY, compaction("c1", "a3", "x2"), user("u3", "c1", "after")]
    session = open_lazily(tmp_path, entries)

    context = session.build_context()

    assert context == build_session_context(entries)
    assert [m.get("content") for m in context.messages][1:] == [[{"type": "text", "text": "kept-model"}], "after"]
    assert "x2" in parsed_ids(session)
