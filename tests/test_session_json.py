"""A session as JSON documents (``pi_compact.session_json``): the tree, show and info documents, read back.

Files are written by hand so that every odd shape is there on purpose: a role that is ``null``, a missing
role, a label, a float that pi prints as an integer, a shadowed duplicate id, a line that is not JSON.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import pi_compact
from pi_compact import (
    CompactionError,
    CompactionSettings,
    Session,
    UsageError,
    compact,
    compaction_refusal_json,
    session_info_json,
    session_show_json,
    session_tree_json,
)
from pi_compact.compaction.tokens import estimate_tokens
from pi_compact.errors import PiCompactError
from pi_compact.session_json import EntryCounts, counted_tree, entry_tokens, json_bytes

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p",
          "ratio": 1.0, "tiny": 1e-6}


def entry(kind: str, entry_id: str, parent: str | None, **fields) -> dict:
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": f"2025-01-01T00:00:0{len(entry_id)}.000Z",
            **fields}


ENTRIES = [
    entry("message", "u1", None, message={"role": "user", "content": "hello there", "timestamp": 1}),
    entry("message", "a1", "u1", message={"role": "assistant", "content": [{"type": "text", "text": "hi"}],
                                          "timestamp": 2}),
    entry("message", "n1", "u1", message={"role": None, "content": "odd", "timestamp": 3}),
    entry("message", "m1", "a1", message={"content": "no role", "timestamp": 4}),
    entry("thinking_level_change", "t1", "m1", thinkingLevel="high"),
    entry("label", "l1", "t1", targetId="a1", label="answered"),
]


def write(path: Path, entries: list[dict], extra: bytes = b"") -> Path:
    path.write_bytes(b"".join(orjson.dumps(item) + b"\n" for item in [HEADER, *entries]) + extra)
    return path


@pytest.fixture
def session(tmp_path: Path):
    with Session.open(write(tmp_path / "s.jsonl", ENTRIES)) as opened:
        yield opened


def _nodes(roots: list) -> dict[str, dict]:
    found, stack = {}, list(roots)
    while stack:
        node = stack.pop()
        found[node["id"]] = node
        stack.extend(node["children"])
    return found


# -- session_tree_json ---------------------------------------------------------------------------------------


def test_tree_nodes_keep_values_as_the_entries_have_them(session) -> None:
    roots = orjson.loads(session_tree_json(session))
    nodes = _nodes(roots)
    assert [root["id"] for root in roots] == ["u1"]
    assert list(nodes["a1"]) == ["id", "parentId", "type", "role", "label", "timestamp", "children"]
    assert nodes["a1"]["label"] == "answered" and nodes["a1"]["role"] == "assistant"
    assert "role" in nodes["n1"] and nodes["n1"]["role"] is None  # a null role is printed as null
    assert "role" not in nodes["m1"] and "role" not in nodes["t1"]  # a missing one is left out
    assert [child["id"] for child in nodes["u1"]["children"]] == ["a1", "n1"]  # oldest first
    assert "tokens" not in nodes["u1"]


def test_a_tree_deeper_than_any_json_library_follows_is_written_without_recursion() -> None:
    depth = 5_000
    s = Session.in_memory("/p")
    for n in range(depth):
        s.append_message({"role": "user", "content": f"m{n}", "timestamp": n})
    out = session_tree_json(s)
    assert out.count(b'"children":[') == depth and out.endswith(b"[]" + b"}]" * depth)
    assert json.loads(out[1 : out.index(b',"children"')] + b"}")["parentId"] is None


def test_an_empty_session_is_an_empty_tree() -> None:
    assert session_tree_json(Session.in_memory("/p")) == b"[]"


# -- session_show_json ---------------------------------------------------------------------------------------


def test_show_has_the_header_as_pi_prints_it_counts_and_tokens(session) -> None:
    out = session_show_json(session)
    assert out.startswith(b'{"header":{"type":"session","version":3,"id":"s1",') and b'"ratio":1,"tiny":0.000001}' in out
    data = orjson.loads(out)
    assert list(data) == ["header", "fileVersion", "name", "leafId", "counts", "problems", "tree"]
    assert (data["fileVersion"], data["name"], data["leafId"], data["problems"]) == (3, None, "l1", [])
    assert data["counts"] == {"entries": 6, "types": {"message": 4, "thinking_level_change": 1, "label": 1},
                              "roles": {"user": 1, "assistant": 1, "None": 2}}
    nodes = _nodes(data["tree"])
    assert nodes["u1"]["tokens"] == estimate_tokens(ENTRIES[0]["message"])
    assert "tokens" not in nodes["t1"]


def test_show_lists_every_problem_of_a_damaged_file(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.jsonl", [*ENTRIES, ENTRIES[0]], extra=b"{not json\n")
    with Session.open(path) as damaged:
        data = orjson.loads(session_show_json(damaged))
        expected = [problem.to_json() for problem in damaged.problems]
    assert {p["kind"] for p in data["problems"]} >= {"invalid_json"} and data["problems"] == expected
    assert all(list(p) == ["line", "kind", "message", "entryId"] for p in data["problems"])
    assert data["counts"]["entries"] == 7  # the shadowed duplicate is counted, as Session.entries() lists it


# -- session_info_json ---------------------------------------------------------------------------------------


def test_info_is_the_listing_row_and_the_figures_of_the_file(session) -> None:
    data = session_info_json(session)
    assert list(data)[:9] == ["path", "id", "cwd", "name", "parentSession", "created", "modified", "messageCount",
                              "firstMessage"]
    assert (data["id"], data["cwd"], data["firstMessage"]) == ("s1", "/p", "hello there")
    assert data["modified"].endswith("Z")
    assert (data["entryCount"], data["leafId"], data["labelCount"]) == (6, "l1", 1)
    assert (data["fileSize"], data["version"], data["problems"]) == (session.path.stat().st_size, 3, [])


def test_info_of_a_session_without_a_file_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="could not be summarized"):
        session_info_json(Session.in_memory("/p"))


# -- compaction_refusal_json ---------------------------------------------------------------------------------

USAGE = {"input": 1000, "output": 200, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 1200}
QUESTION = {"role": "user", "content": "abcd" * 10, "timestamp": 1}
ANSWER = {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "usage": USAGE, "stopReason": "stop",
          "timestamp": 2}


@pytest.mark.parametrize(
    ("messages", "tokens", "measured"),
    [([QUESTION], estimate_tokens(QUESTION), False), ([QUESTION, ANSWER], 1200, True),
     ([QUESTION, ANSWER, QUESTION], 1200 + estimate_tokens(QUESTION), True)],
    ids=["estimated", "measured", "measured-then-estimated"],
)
@pytest.mark.parametrize("window", [None, 50_000])
def test_a_refused_compaction_reports_the_context_and_the_settings(messages, tokens, measured, window) -> None:
    session = Session.in_memory("/p")
    for message in messages:
        session.append_message(message)
    settings = CompactionSettings(keep_recent_tokens=2_000, reserve_tokens=3_000)
    with pytest.raises(CompactionError) as refused:
        compact(session, settings=settings, window=window)
    assert compaction_refusal_json(session, str(refused.value), settings, window) == {
        "compacted": False, "reason": str(refused.value), "tokens": tokens, "tokensMeasured": measured,
        "window": window, "reserveTokens": 3_000, "keepRecentTokens": 2_000}


def test_a_refusal_without_settings_reports_the_defaults() -> None:
    document = compaction_refusal_json(Session.in_memory("/p"), "Nothing to compact (no messages yet)")
    defaults = CompactionSettings()
    assert (document["tokens"], document["tokensMeasured"], document["window"]) == (0, False, None)
    assert (document["reserveTokens"], document["keepRecentTokens"]) == (defaults.reserve_tokens,
                                                                         defaults.keep_recent_tokens)


# -- the parts -----------------------------------------------------------------------------------------------


def test_counted_tree_digests_and_counts_every_line_once(session) -> None:
    seen: list[str] = []
    roots, counts = counted_tree(session, lambda e: seen.append(e["id"]) or e["id"])
    assert sorted(seen) == sorted(e["id"] for e in ENTRIES) and roots[0].digest == "u1"
    assert isinstance(counts, EntryCounts) and counts.entries == len(ENTRIES)


_ODD_VALUES = ["message", "label", 1, True, 1.0, 0, False, None, "1", "True", "None", [1], {"a": 1}, "none"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_ODD_VALUES) | st.text(max_size=3), st.sampled_from(_ODD_VALUES + ["x"]))))
def test_counts_name_every_type_and_role_as_str_does(lines) -> None:
    """Types and roles are noted as the entries have them and named at the end: 1 and True (one key to a
    Counter), a list (no key at all) are named as ``str`` names them, in the order first met."""
    counts, types, roles = EntryCounts(), Counter(), Counter()
    for kind, role in lines:
        message = {"role": role} if role != "x" else "not an object"
        counts.add({"type": kind, "message": message})
        types[str(kind)] += 1
        if kind == "message":
            roles[str(role) if role != "x" else "none"] += 1
    assert counts.to_json() == {"entries": len(lines), "types": dict(types), "roles": dict(roles)}
    assert list(counts.types.items()) == list(types.items()) and list(counts.roles.items()) == list(roles.items())


@pytest.mark.parametrize(
    ("an_entry", "expected"),
    [
        ({"type": "message", "message": {"role": "user", "content": "abcd" * 10}}, 10),
        ({"type": "message", "message": "not a dict"}, None),
        ({"type": "label", "message": {"role": "user", "content": "x"}}, None),
    ],
    ids=["message", "malformed-message", "not-a-message"],
)
def test_entry_tokens(an_entry: dict, expected: int | None) -> None:
    assert entry_tokens(lambda message: len(message["content"]) // 4)(an_entry) == expected


def test_an_estimate_that_cannot_read_the_message_gives_no_figure() -> None:
    def broken(message: dict) -> int:
        raise TypeError("content of the wrong type")

    assert entry_tokens(broken)({"type": "message", "message": {"role": "user"}}) is None


def test_json_bytes_prints_as_pi_does_and_refuses_what_it_cannot_write() -> None:
    assert json_bytes({"a": 1.0, "b": 1e-6, "c": "é"}) == '{"a":1,"b":0.000001,"c":"é"}'.encode()
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(PiCompactError, match="cannot print this as JSON"):
        json_bytes(deep)


def test_the_documents_are_exported() -> None:
    for name in ("session_show_json", "session_tree_json", "session_info_json", "compaction_refusal_json"):
        assert name in pi_compact.__all__


_STAMPS = st.one_of(st.integers(-1, 3), st.sampled_from([10**14, 10**14 + 1, 3 * 10**14, 10**16, -10**16]),
                    st.sampled_from([None, True, False, 2.5, 7.0, "2025-01-01T00:00:00.000Z", "x"]))
_CONTENTS = st.one_of(st.text(max_size=3), st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": st.text(max_size=2)}),
                                                    max_size=2), st.none())


@st.composite
def _message_entries(draw) -> dict:
    message: dict = {"role": draw(st.sampled_from(["user", "assistant", "user", "assistant", "toolResult", None]))}
    if draw(st.integers(0, 4)):
        message["content"] = draw(_CONTENTS)
    if draw(st.integers(0, 4)):
        message["timestamp"] = draw(_STAMPS)
    stamp = draw(st.sampled_from(["1970-01-01T00:00:00.004Z", "2026-06-01T00:00:00.000Z", 5]))
    return {"type": "message", "id": "m", "parentId": None, "timestamp": stamp,
            "message": message if draw(st.integers(0, 9)) else draw(st.sampled_from([None, "text", []]))}


def _said(role: str, stamp: object, content: object = "") -> dict:
    return {"type": "message", "id": "m", "parentId": None, "timestamp": "2026-06-01T00:00:00.000Z",
            "message": {"role": role, "content": content, "timestamp": stamp}}


@settings(max_examples=300, deadline=None)
@given(entries=st.lists(_message_entries(), max_size=12), known=st.lists(st.booleans(), max_size=12))
@example(entries=[_said("assistant", 3), _said("assistant", 2)], known=[])  # the newest is not the last
@example(entries=[_said("assistant", 3 * 10**14), _said("assistant", 2)], known=[])  # a time no listing takes
@example(entries=[_said("assistant", 3), _said("user", 2, ""), _said("user", 1, "hi")], known=[])  # first text, older
@example(entries=[_said("assistant", 3), _said("user", 2, ""), _said("user", 1, "hi")], known=[True] * 3)
def test_the_messages_that_decide_a_listing_decide_it_as_all_of_them(entries, known, tmp_path_factory) -> None:
    """session info hands a listing only the messages that may decide its first message and newest activity
    (_DecidingMessages): the same row as every message handed over, the count kept apart; a message known from
    its row (``known``) parsed only when it needs to be."""
    from dataclasses import replace

    from pi_compact.session_json import INFO_ROW_COLUMNS, _DecidingMessages, _listed_time
    from pi_compact.store.listing import summarize_messages

    path = tmp_path_factory.mktemp("s") / "s.jsonl"
    path.write_bytes(orjson.dumps(HEADER) + b"\n")
    everything = summarize_messages(path, HEADER, iter(entries), lambda: None)
    deciding = _DecidingMessages()

    def stream():
        for entry, is_known in zip(entries, known + [False] * len(entries)):
            message = entry["message"]
            role = message.get("role") if isinstance(message, dict) else "none"
            if not is_known or not (role is None or type(role) is str):  # such a line has no row
                yield entry
                continue
            row = ("message", entry["id"], role, _listed_time(entry))
            assert len(row) == len(INFO_ROW_COLUMNS)
            yield orjson.loads(orjson.dumps(entry)) if deciding.needs(row) else (row, orjson.dumps(entry))

    decided = summarize_messages(path, HEADER, deciding.of(stream()), lambda: None)
    assert replace(decided, message_count=deciding.count) == everything
