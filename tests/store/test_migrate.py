"""Schema migrations v1 → v2 → v3, as pi's ``migrateSessionEntries`` performs them, on hand-made and real files.

The real files are pi's own v1 test fixtures, read in place (never copied into the project).
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.store.migrate import header_version, migrate
from sessions_fixtures import PI_DIR

PI_FIXTURES = PI_DIR
ID = re.compile(r"[0-9a-f]{8}")


def v1_header(**extra) -> dict:
    return {"type": "session", "id": "sess-1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p", **extra}


def user(text: str) -> dict:
    return {
        "type": "message",
        "timestamp": "2025-01-01T00:00:01.000Z",
        "message": {"role": "user", "content": text, "timestamp": 1},
    }


def compaction(**fields) -> dict:
    return {"type": "compaction", "timestamp": "2025-01-01T00:00:02.000Z", "summary": "s", "tokensBefore": 9, **fields}


def read_lines(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def test_v1_gets_ids_a_linear_chain_and_version_3():
    lines = [v1_header(provider="anthropic"), user("a"), {"type": "thinking_level_change", "thinkingLevel": "high"}, user("b")]
    assert migrate(lines) is True
    header, *entries = lines
    assert header["version"] == 3
    assert list(header) == ["type", "id", "timestamp", "cwd", "provider", "version"]  # new keys land at the end
    assert all(ID.fullmatch(e["id"]) for e in entries)
    assert len({e["id"] for e in entries}) == 3
    assert [e["parentId"] for e in entries] == [None, entries[0]["id"], entries[1]["id"]]
    assert list(entries[0])[-2:] == ["id", "parentId"]


@pytest.mark.parametrize(
    ("index", "expected"),
    [
        (2, "second"),
        (1, "first"),
        (2.0, "second"),
        (0, None),
        (3, "itself"),
        (4, None),
        (99, None),
        (-1, None),
        (1.5, None),
    ],
    ids=["second-entry", "first-entry", "integral-float", "header-is-line-0", "itself", "forward", "beyond-end", "negative", "fraction"],
)
def test_first_kept_entry_index_counts_the_header_as_line_0(index, expected):
    lines = [v1_header(), user("first"), user("second"), compaction(firstKeptEntryIndex=index), user("after")]
    migrate(lines)
    kept = lines[3]
    assert "firstKeptEntryIndex" not in kept
    by_text = {line["message"]["content"]: line["id"] for line in lines if line.get("type") == "message"}
    by_text["itself"] = kept["id"]  # the compaction has its id by the time its index is resolved
    if expected is None:
        assert "firstKeptEntryId" not in kept
    else:
        assert kept["firstKeptEntryId"] == by_text[expected]
        assert list(kept)[-3:] == ["id", "parentId", "firstKeptEntryId"]


def test_forward_index_drops_even_an_existing_first_kept_entry_id():
    """pi assigns ``undefined``, which JSON.stringify leaves out: the compaction then keeps nothing (pi bug #4)."""
    lines = [v1_header(), user("a"), compaction(firstKeptEntryIndex=3, firstKeptEntryId="stale"), user("b")]
    migrate(lines)
    assert "firstKeptEntryId" not in lines[2]


@pytest.mark.parametrize("value", ["2", None, [2], True], ids=["string", "null", "list", "bool"])
def test_a_non_numeric_first_kept_entry_index_is_left_alone(value):
    lines = [v1_header(), user("a"), user("b"), compaction(firstKeptEntryIndex=value)]
    migrate(lines)
    assert lines[3]["firstKeptEntryIndex"] == value
    assert "firstKeptEntryId" not in lines[3]


def test_v1_file_whose_entries_already_have_ids_is_relinked_as_pi_does():
    """A header without ``version`` means v1 even when entries carry ids: pi regenerates them (its bug #3)."""
    lines = [v1_header(), {**user("a"), "id": "aaaaaaaa", "parentId": None}, {**user("b"), "id": "bbbbbbbb", "parentId": None}]
    migrate(lines)
    assert lines[1]["id"] != "aaaaaaaa" and lines[2]["parentId"] == lines[1]["id"]


def test_header_typed_lines_get_a_version_but_no_id():
    lines = [v1_header(), user("a"), v1_header(), user("b")]
    migrate(lines)
    assert lines[2]["version"] == 3 and "id" in lines[2] and lines[2]["id"] == "sess-1"
    assert lines[3]["parentId"] == lines[1]["id"]


def test_v2_hook_message_becomes_custom_and_nothing_else_changes():
    hook = {"role": "hookMessage", "customType": "x", "content": "c", "display": True, "timestamp": 1}
    lines = [
        {"type": "session", "version": 2, "id": "s", "timestamp": "t", "cwd": "/"},
        {"type": "message", "id": "aaaaaaaa", "parentId": None, "timestamp": "t", "message": hook},
        {"type": "message", "id": "bbbbbbbb", "parentId": "aaaaaaaa", "timestamp": "t", "message": {"role": "user", "content": "u"}},
    ]
    before = copy.deepcopy(lines)
    assert migrate(lines) is True
    assert lines[0]["version"] == 3
    assert lines[1]["message"] == {**hook, "role": "custom"}
    assert lines[1:][0]["id"] == "aaaaaaaa" and lines[2] == before[2]


def test_v3_is_untouched():
    lines = [{"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"}, {"type": "message", "message": {"role": "hookMessage"}}]
    before = copy.deepcopy(lines)
    assert migrate(lines) is False
    assert lines == before


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        (..., 1),
        (None, 1),
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
        (2.5, 2),
        (1.9, 1),
        (True, 1),
        ("3", 3),
        (" 2 ", 2),
        ("", 0),
        ("three", 3),
        ([3], 3),
        (float("inf"), 3),
        (float("-inf"), 1),
    ],
    ids=[
        "missing", "null", "v1", "v2", "v3", "newer", "fraction", "below-2", "bool", "numeric-string",
        "padded-string", "empty-string-is-0", "nan-runs-no-step", "object-runs-no-step", "infinity", "minus-infinity",
    ],
)
def test_header_version_compares_as_javascript(version, expected):
    """pi compares ``header.version ?? 1`` with ``<``/``>=``; a value that is not a number runs no step."""
    header = {"type": "session"} if version is ... else {"type": "session", "version": version}
    assert header_version(header) == expected


def test_string_version_3_is_not_migrated():
    lines = [{"type": "session", "version": "3", "id": "s", "timestamp": "t", "cwd": "/"}, {"type": "message", "id": "a", "parentId": None}]
    before = copy.deepcopy(lines)
    assert migrate(lines) is False
    assert lines == before


@given(st.lists(st.sampled_from(["user", "compaction", "change", "hook"]), max_size=12), st.data())
def test_migration_is_idempotent_and_links_every_entry(kinds, data):
    lines = [v1_header()]
    for kind in kinds:
        if kind == "compaction":
            lines.append(compaction(firstKeptEntryIndex=data.draw(st.integers(-1, len(kinds) + 1))))
        elif kind == "hook":
            lines.append({"type": "message", "message": {"role": "hookMessage", "content": "x"}})
        elif kind == "change":
            lines.append({"type": "model_change", "provider": "p", "modelId": "m"})
        else:
            lines.append(user("u"))
    migrate(lines)
    once = copy.deepcopy(lines)
    assert migrate(lines) is False
    assert lines == once
    ids = [line["id"] for line in lines[1:]]
    assert len(set(ids)) == len(ids)
    assert [line["parentId"] for line in lines[1:]] == [None, *ids][: len(ids)]
    assert all(line.get("message", {}).get("role") != "hookMessage" for line in lines)
    for line in lines:
        if line.get("firstKeptEntryId") is not None:
            assert line["firstKeptEntryId"] in ids[: ids.index(line["id"]) + 1]


def test_real_before_compaction_fixture_resolves_both_compactions_to_user_messages():
    raw = read_lines(PI_FIXTURES / "before-compaction.v1.jsonl")
    indexes = [line["firstKeptEntryIndex"] for line in raw if line.get("type") == "compaction"]
    assert indexes == [293, 551]
    lines = copy.deepcopy(raw)
    assert migrate(lines) is True
    assert lines[0]["branchedFrom"] == raw[0]["branchedFrom"]  # legacy header keys are kept, never renamed
    compactions = [line for line in lines if line.get("type") == "compaction"]
    by_id = {line["id"]: line for line in lines[1:]}
    for index, found in zip(indexes, compactions):
        assert found["firstKeptEntryId"] == lines[index]["id"]
        assert by_id[found["firstKeptEntryId"]]["message"]["role"] == "user"


def test_real_large_session_fixture_becomes_one_chain():
    lines = read_lines(PI_FIXTURES / "large-session.v1.jsonl")
    assert "version" not in lines[0]
    migrate(lines)
    ids = [line["id"] for line in lines[1:]]
    assert len(ids) == 1018 and len(set(ids)) == 1018 and all(ID.fullmatch(i) for i in ids)
    assert [line["parentId"] for line in lines[1:]] == [None, *ids[:-1]]
