"""The entry tree: ``digest_tree`` (what show and tree draw from) has ``tree()``'s shape and keeps nothing parsed.

Files are opened both ways a file can be read: parsed in full at open (small files) and lazily (as every
file over ``EAGER_PARSE_BYTES`` is), where parsing is what costs time and memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_compact import CorruptEntryError, Session
from pi_compact.store import scan as scan_module
from pi_compact.store.jsonl import dumps_line

HEADER = {"type": "session", "version": 3, "id": "sess", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}


def stamp(second: int) -> str:
    return f"2025-01-01T00:00:{second:02d}.000Z"


def user(entry_id: str, parent: str | None, second: int, text: str = "hi") -> dict:
    message = {"role": "user", "content": text, "timestamp": second}
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": stamp(second), "message": message}


def label(entry_id: str, parent: str, target: str, text: str | None, second: int) -> dict:
    entry = {"type": "label", "id": entry_id, "parentId": parent, "timestamp": stamp(second)}
    return {**entry, "targetId": target, "label": text}


ENTRIES = [
    user("root0001", None, 1),
    user("late0002", "root0001", 9, "newer child, written first"),
    user("earl0003", "root0001", 3, "older child, written second"),
    user("deep0004", "earl0003", 4),
    user("dupe0005", "deep0004", 5, "shadowed"),
    user("dupe0005", "late0002", 6, "shadows it"),
    user("orph0006", "missing0", 7, "a dangling parent: a root"),
    user("cyc00007", "cyc00008", 8, "a cycle"),
    user("cyc00008", "cyc00007", 8, "a cycle"),
    label("lab00009", "deep0004", "earl0003", "kept", 10),
    label("lab00010", "lab00009", "root0001", "gone", 11),
    label("lab00011", "lab00010", "root0001", None, 12),
]


@pytest.fixture(params=["eager", "lazy"])
def mode(request, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "lazy":
        monkeypatch.setattr(scan_module, "EAGER_PARSE_BYTES", 0)
    return request.param


def open_session(tmp_path: Path, entries: list[dict]) -> Session:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(dumps_line(e) for e in [HEADER, *entries]))
    return Session.open(path)


def parsed_ids(session: Session) -> set[str]:
    return {slot.id for slot in session._index.slots if slot.entry is not None}


def shape(nodes, value) -> list:
    """(id, label, value, children) all the way down (the test trees are shallow)."""
    return [(n.id, n.label, value(n), shape(n.children, value)) for n in nodes]


def message_text(entry: dict) -> object:
    return entry.get("message", {}).get("content")


def test_digest_tree_has_the_shape_labels_and_order_of_tree(tmp_path, mode):
    digested = open_session(tmp_path, ENTRIES).digest_tree(message_text)
    full = open_session(tmp_path, ENTRIES).tree()
    assert shape(digested, lambda n: n.digest) == shape(full, lambda n: message_text(n.entry))
    root = digested[0]
    assert [c.id for c in root.children] == ["earl0003", "late0002"], "children sorted by timestamp"
    assert root.children[0].label == "kept" and root.label is None, "the last label wins; a cleared one is gone"
    assert root.children[1].children[0].digest == "shadows it"


def test_digest_tree_reports_a_cycle_as_tree_does(tmp_path, mode):
    digested = open_session(tmp_path, ENTRIES)
    full = open_session(tmp_path, ENTRIES)
    digested.digest_tree(message_text)
    full.tree()
    assert [p for p in digested.problems if p.kind == "cycle"] == [p for p in full.problems if p.kind == "cycle"]
    assert any(p.kind == "cycle" for p in digested.problems)


def test_digest_tree_parses_nothing_it_keeps(tmp_path, monkeypatch):
    monkeypatch.setattr(scan_module, "EAGER_PARSE_BYTES", 0)
    session = open_session(tmp_path, ENTRIES)
    parsed_at_open = parsed_ids(session)
    assert parsed_at_open == {"lab00009", "lab00010", "lab00011"}, "labels are read at open"
    seen = []
    session.digest_tree(seen.append)
    assert len(seen) == len(session) - 1, "every entry but the shadowed duplicate, parsed"
    assert parsed_ids(session) == parsed_at_open
    session.tree()
    assert parsed_ids(session) == {e["id"] for e in ENTRIES}, "tree() keeps what it parsed, as before"


def test_every_line_shows_the_digest_what_iter_entries_lists(tmp_path, mode):
    session = open_session(tmp_path, ENTRIES)
    seen: list[dict] = []
    session.digest_tree(seen.append, every_line=True)
    assert seen == list(open_session(tmp_path, ENTRIES).iter_entries())
    assert [e["id"] for e in seen].count("dupe0005") == 2


def test_a_broken_line_read_lazily_raises_as_in_tree(tmp_path, monkeypatch):
    monkeypatch.setattr(scan_module, "EAGER_PARSE_BYTES", 0)
    path = tmp_path / "s.jsonl"
    broken = b'{"type":"message","id":"bad00002","parentId":"root0001","timestamp":"t","message":{,}}\n'
    path.write_bytes(dumps_line(HEADER) + dumps_line(user("root0001", None, 1)) + broken)
    with pytest.raises(CorruptEntryError, match="line 3"):
        Session.open(path).tree()
    with pytest.raises(CorruptEntryError, match="line 3"):
        Session.open(path).digest_tree(message_text)


def test_path_ids_are_the_ids_of_path_and_parse_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(scan_module, "EAGER_PARSE_BYTES", 0)
    session = open_session(tmp_path, ENTRIES)
    before = parsed_ids(session)
    ids = session.path_ids("deep0004")
    assert parsed_ids(session) == before
    assert ids == [e["id"] for e in session.branch("deep0004")] == ["root0001", "earl0003", "deep0004"]
    assert session.path_ids(None) == [] and session.path_ids("nope") == []
