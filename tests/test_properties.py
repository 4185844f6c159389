"""Invariants of the store over random histories: appends of every entry type, leaf moves and reopenings.

Whatever happened, reopening the file gives the same tree, labels, name and context for every leaf; every
append added exactly one line and left the earlier bytes alone; and the list function
``build_session_context`` agrees with ``Session.build_context``.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_compact import Session, build_session_context
from pi_compact.store import scan
from pi_compact.store.jsonl import dumps_line

KINDS = [
    "user",
    "assistant",
    "tool_result",
    "bash",
    "custom_role",
    "thinking",
    "model",
    "compaction",
    "branch_summary",
    "custom",
    "custom_message",
    "label",
    "session_info",
    "unknown",
]
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPEN_MODES = pytest.mark.parametrize("open_mode", ["eager", "lazy"])


@contextmanager
def opening(mode: str):
    """Open files in the given mode: small files are parsed eagerly unless the size limit says otherwise."""
    with mock.patch.object(scan, "EAGER_PARSE_BYTES", -1 if mode == "lazy" else scan.EAGER_PARSE_BYTES):
        yield


def pick(data: st.DataObject, made: list[dict], label: str, allow_none: bool = True) -> str | None:
    """An existing entry id (or ``None``: the root position)."""
    choices = [e["id"] for e in made] + ([None] if allow_none or not made else [])
    return data.draw(st.sampled_from(choices), label=label)


def append_one(session: Session, kind: str, data: st.DataObject, made: list[dict]) -> dict | None:
    text = data.draw(TEXT, label="text")
    if kind == "user":
        return session.append_message({"role": "user", "content": text, "timestamp": 1})
    if kind == "assistant":
        cost = data.draw(st.sampled_from([0, 0.0, 1.0, 0.000003, 12.5]), label="cost")
        return session.append_message(
            {
                "role": "assistant",
                "content": [{"type": "text", "text": text}],
                "provider": data.draw(st.sampled_from(["anthropic", "openai"]), label="provider"),
                "model": data.draw(st.sampled_from(["m1", "m2"]), label="model"),
                "usage": {"input": 1, "output": 2, "cost": {"total": cost}},
                "stopReason": "stop",
                "timestamp": 2,
            }
        )
    if kind == "tool_result":
        return session.append_message({"role": "toolResult", "toolCallId": "t", "toolName": "bash", "content": [{"type": "text", "text": text}], "isError": False, "timestamp": 3})
    if kind == "bash":
        return session.append_message({"role": "bashExecution", "command": text, "output": "", "exitCode": None, "cancelled": False, "truncated": False, "timestamp": 4})
    if kind == "custom_role":
        return session.append_message({"role": "custom", "customType": "x", "content": text, "display": True, "timestamp": 5})
    if kind == "thinking":
        return session.append_thinking_level_change(data.draw(st.sampled_from(["off", "low", "high"]), label="level"))
    if kind == "model":
        return session.append_model_change("openai", text)
    if kind == "compaction":
        first_kept = data.draw(st.sampled_from([e["id"] for e in made] + ["elsewhere"]), label="first kept")
        return session.append_compaction(text, first_kept, 100, {"readFiles": [], "modifiedFiles": []}, False)
    if kind == "branch_summary":
        return session.append_branch_summary(pick(data, made, "at"), text)
    if kind == "custom":
        return session.append_custom("ext", {"text": text})
    if kind == "custom_message":
        return session.append_custom_message("ext", text, data.draw(st.booleans(), label="display"))
    if kind == "label":
        if not made:
            return None
        return session.append_label(pick(data, made, "target", allow_none=False), data.draw(st.one_of(st.none(), TEXT), label="label"))
    if kind == "session_info":
        return session.append_session_info(text)
    return session.append("unknown_type", {"payload": text})


def expected_labels(entries: list[dict]) -> dict[str, str]:
    labels: dict[str, str] = {}
    for entry in entries:
        if entry["type"] == "label":
            if entry.get("label"):
                labels[entry["targetId"]] = entry["label"]
            else:
                labels.pop(entry["targetId"], None)
    return labels


def flatten(nodes) -> list[tuple]:
    out, stack = [], [(node, 0) for node in reversed(nodes)]
    while stack:
        node, depth = stack.pop()
        out.append((depth, node.id, node.entry["type"], node.label))
        stack.extend((child, depth + 1) for child in reversed(node.children))
    return out


def snapshot(session: Session) -> dict[str, Any]:
    leaves = [None, *[e["id"] for e in session.entries()]]
    return {
        "entries": session.entries(),
        "tree": flatten(session.tree()),
        "labels": session.labels,
        "name": session.name,
        "contexts": {leaf: session.build_context(leaf).to_json() for leaf in leaves},
    }


@OPEN_MODES
@SETTINGS
@given(st.data())
def test_any_history_reloads_to_the_same_tree_labels_name_and_contexts(open_mode, tmp_path_factory, data):
    with opening(open_mode):
        check_random_history(tmp_path_factory.mktemp("history") / "s.jsonl", data)


def check_random_history(path: Path, data: st.DataObject) -> None:
    made: list[dict] = []
    session = Session.create_at(path, "/project", durable=False)
    try:
        for _ in range(data.draw(st.integers(1, 18), label="steps")):
            action = data.draw(st.sampled_from(["append"] * 5 + ["move", "reopen"]), label="action")
            if action == "move":
                session.move_leaf(pick(data, made, "leaf"))
            elif action == "reopen" and path.exists():
                before = snapshot(session)
                session.close()
                session = Session.open(path, durable=False)
                assert snapshot(session) == before
                assert session.leaf_id == made[-1]["id"]  # pi: the leaf on open is the last line
            elif action == "append":
                old = path.read_bytes() if path.exists() else b""
                entry = append_one(session, data.draw(st.sampled_from(KINDS), label="kind"), data, made)
                if entry is None:
                    continue
                made.append(entry)
                new = path.read_bytes()
                assert new.startswith(old)
                assert new[len(old) :] == (dumps_line(session.header) if not old else b"") + dumps_line(entry)
                assert session.leaf_id == entry["id"]
        final = snapshot(session)
    finally:
        session.close()
    assert final["entries"] == made
    assert final["labels"] == expected_labels(made)
    names = [e["name"] for e in made if e["type"] == "session_info"]
    assert final["name"] == (names[-1] or None if names else None)
    for leaf, context in final["contexts"].items():
        assert build_session_context(made, leaf).to_json() == context
    if made:
        with Session.open(path) as reopened:
            assert snapshot(reopened) == final
            assert reopened.problems == []


@OPEN_MODES
@SETTINGS
@given(st.data())
def test_the_list_function_and_the_session_agree_on_hand_made_trees(open_mode, tmp_path_factory, data):
    """Arbitrary parent links (orphans, self-parents, cycles, duplicate ids) in a file we did not write."""
    ids = data.draw(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=10), label="ids")
    entries = []
    for n, entry_id in enumerate(ids):
        parent = data.draw(st.sampled_from([None, "zz", *ids]), label="parent")
        kind = data.draw(st.sampled_from(["message", "compaction", "branch_summary", "custom_message"]), label="kind")
        entry = {"type": kind, "id": entry_id, "parentId": parent, "timestamp": f"2025-01-01T00:00:{n:02d}.000Z"}
        if kind == "message":
            entry["message"] = {"role": "user", "content": str(n), "timestamp": n}
        elif kind == "compaction":
            entry.update(summary=str(n), firstKeptEntryId=data.draw(st.sampled_from(ids), label="kept"), tokensBefore=n)
        elif kind == "branch_summary":
            entry.update(fromId="root", summary=str(n) if n % 3 else "")
        else:
            entry = {"type": kind, "customType": "c", "content": str(n), "display": False, **entry}
        entries.append(entry)
    path = Path(tmp_path_factory.mktemp("hand")) / "s.jsonl"
    header = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/"}
    path.write_bytes(b"".join(dumps_line(e) for e in [header, *entries]))
    with opening(open_mode), Session.open(path) as session:
        for leaf in [None, "zz", *ids]:
            assert session.build_context(leaf).to_json() == build_session_context(entries, leaf).to_json()
        assert session.build_context().to_json() == build_session_context(entries).to_json()
        assert len(flatten(session.tree())) == len(set(ids))
