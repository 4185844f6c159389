"""pi's ``buildSessionContext``: the scenarios of pi's own ``build-context.test.ts``, and its documented quirks.

Every scenario runs twice: through the list function ``build_session_context(entries, leaf)`` and through
``Session.build_context(leaf)`` on a file holding the same entries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from pi_compact import Session, SessionContext, build_session_context
from pi_compact.store.jsonl import dumps_line

T0 = "2025-01-01T00:00:00Z"
T0_MS = 1735689600000
HEADER = {"type": "session", "version": 3, "id": "sess", "timestamp": T0, "cwd": "/p"}
DEFAULT: Any = object()


def user(entry_id: str, parent: str | None, text: str) -> dict:
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": T0, "message": {"role": "user", "content": text, "timestamp": 1}}


def assistant(entry_id: str, parent: str | None, text: str, model: str = "claude-test") -> dict:
    message = {
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": model,
        "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2, "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
        "stopReason": "stop",
        "timestamp": 1,
    }
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": T0, "message": message}


def compaction(entry_id: str, parent: str | None, summary: str, first_kept: str | None) -> dict:
    entry = {"type": "compaction", "id": entry_id, "parentId": parent, "timestamp": T0, "summary": summary}
    if first_kept is not None:
        entry["firstKeptEntryId"] = first_kept
    return {**entry, "tokensBefore": 1000}


def branch_summary(entry_id: str, parent: str | None, summary: str, from_id: str) -> dict:
    return {"type": "branch_summary", "id": entry_id, "parentId": parent, "timestamp": T0, "summary": summary, "fromId": from_id}


def thinking(entry_id: str, parent: str | None, level: str) -> dict:
    return {"type": "thinking_level_change", "id": entry_id, "parentId": parent, "timestamp": T0, "thinkingLevel": level}


def model_change(entry_id: str, parent: str | None, provider: str, model_id: str) -> dict:
    return {"type": "model_change", "id": entry_id, "parentId": parent, "timestamp": T0, "provider": provider, "modelId": model_id}


Build = Callable[..., SessionContext]


@pytest.fixture(params=["list", "session"])
def build(request, tmp_path) -> Build:
    """``build(entries, leaf)``: the context of ``entries`` for ``leaf`` (left out: pi's default)."""

    def through_list(entries: list[dict], leaf: Any = DEFAULT) -> SessionContext:
        return build_session_context(entries) if leaf is DEFAULT else build_session_context(entries, leaf)

    def through_session(entries: list[dict], leaf: Any = DEFAULT) -> SessionContext:
        path = Path(tmp_path) / "s.jsonl"
        path.write_bytes(b"".join(dumps_line(e) for e in [HEADER, *entries]))
        with Session.open(path) as session:
            return session.build_context() if leaf is DEFAULT else session.build_context(leaf)

    return through_list if request.param == "list" else through_session


def contents(context: SessionContext) -> list[Any]:
    """Each message reduced to its text: user content, assistant first text, or summary."""
    out = []
    for message in context.messages:
        if "summary" in message:
            out.append(("summary", message["summary"]))
        elif isinstance(message.get("content"), list):
            out.append(message["content"][0]["text"])
        else:
            out.append(message.get("content"))
    return out


# -- trivial cases -------------------------------------------------------------------------------------------


def test_empty(build):
    context = build([])
    assert (context.messages, context.thinking_level, context.model) == ([], "off", None)
    assert context.to_json() == {"messages": [], "thinkingLevel": "off", "model": None}


def test_single_user_message(build):
    context = build([user("1", None, "hello")])
    assert context.messages == [{"role": "user", "content": "hello", "timestamp": 1}]


def test_simple_conversation(build):
    entries = [user("1", None, "hello"), assistant("2", "1", "hi there"), user("3", "2", "how are you"), assistant("4", "3", "great")]
    assert [m["role"] for m in build(entries).messages] == ["user", "assistant", "user", "assistant"]
    assert build(entries).messages[1] == entries[1]["message"]


def test_thinking_level_is_tracked(build):
    context = build([user("1", None, "hello"), thinking("2", "1", "high"), assistant("3", "2", "thinking hard")])
    assert context.thinking_level == "high" and len(context.messages) == 2


def test_model_comes_from_the_assistant_message(build):
    assert build([user("1", None, "hello"), assistant("2", "1", "hi")]).model == {"provider": "anthropic", "modelId": "claude-test"}


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (["change", "assistant"], {"provider": "anthropic", "modelId": "claude-test"}),
        (["assistant", "change"], {"provider": "openai", "modelId": "gpt-4"}),
        (["change"], {"provider": "openai", "modelId": "gpt-4"}),
    ],
    ids=["assistant-overrides-change", "change-overrides-assistant", "change-alone"],
)
def test_the_last_model_on_the_path_wins(build, order, expected):
    entries = [user("1", None, "hello")]
    for n, kind in enumerate(order, start=2):
        parent = entries[-1]["id"]
        entries.append(model_change(str(n), parent, "openai", "gpt-4") if kind == "change" else assistant(str(n), parent, "hi"))
    assert build(entries).model == expected


# -- compaction ----------------------------------------------------------------------------------------------


def test_compaction_emits_its_summary_then_the_kept_entries_then_what_follows(build):
    entries = [
        user("1", None, "first"),
        assistant("2", "1", "response1"),
        user("3", "2", "second"),
        assistant("4", "3", "response2"),
        compaction("5", "4", "Summary of first two turns", "3"),
        user("6", "5", "third"),
        assistant("7", "6", "response3"),
    ]
    context = build(entries)
    assert contents(context) == [("summary", "Summary of first two turns"), "second", "response2", "third", "response3"]
    assert context.messages[0] == {"role": "compactionSummary", "summary": "Summary of first two turns", "tokensBefore": 1000, "timestamp": T0_MS}


def test_compaction_keeping_from_the_first_entry_keeps_everything(build):
    entries = [user("1", None, "first"), assistant("2", "1", "response"), compaction("3", "2", "Empty summary", "1"), user("4", "3", "second")]
    assert contents(build(entries)) == [("summary", "Empty summary"), "first", "response", "second"]


def test_the_latest_of_several_compactions_wins(build):
    entries = [
        user("1", None, "a"),
        assistant("2", "1", "b"),
        compaction("3", "2", "First summary", "1"),
        user("4", "3", "c"),
        assistant("5", "4", "d"),
        compaction("6", "5", "Second summary", "4"),
        user("7", "6", "e"),
    ]
    assert contents(build(entries)) == [("summary", "Second summary"), "c", "d", "e"]


@pytest.mark.parametrize("first_kept", ["elsewhere", None], ids=["not-on-the-path", "missing"])
def test_a_first_kept_entry_off_the_path_keeps_nothing_before_the_compaction(build, first_kept):
    entries = [user("1", None, "a"), assistant("2", "1", "b"), user("x", "1", "other branch"), compaction("3", "2", "S", first_kept), user("4", "3", "after")]
    if first_kept == "elsewhere":
        entries[2]["id"] = "elsewhere"
    assert contents(build(entries, "4")) == [("summary", "S"), "after"]


def test_model_and_thinking_level_count_before_the_compaction_too(build):
    entries = [thinking("0", None, "low"), user("1", "0", "a"), assistant("2", "1", "b", model="old"), compaction("3", "2", "S", "1")]
    context = build(entries)
    assert (context.thinking_level, context.model) == ("low", {"provider": "anthropic", "modelId": "old"})
    assert contents(context) == [("summary", "S"), "a", "b"]


def test_an_empty_compaction_summary_is_still_emitted(build):
    assert contents(build([user("1", None, "a"), compaction("2", "1", "", "1")])) == [("summary", ""), "a"]


# -- branches ------------------------------------------------------------------------------------------------


def test_the_path_follows_the_leaf(build):
    entries = [user("1", None, "start"), assistant("2", "1", "response"), user("3", "2", "branch A"), user("4", "2", "branch B")]
    assert contents(build(entries, "3")) == ["start", "response", "branch A"]
    assert contents(build(entries, "4")) == ["start", "response", "branch B"]
    assert contents(build(entries, "2")) == ["start", "response"]


def test_a_branch_summary_on_the_path_becomes_a_message(build):
    entries = [
        user("1", None, "start"),
        assistant("2", "1", "response"),
        user("3", "2", "abandoned path"),
        branch_summary("4", "2", "Summary of abandoned work", "2"),
        user("5", "4", "new direction"),
    ]
    context = build(entries, "5")
    assert contents(context) == ["start", "response", ("summary", "Summary of abandoned work"), "new direction"]
    assert context.messages[2] == {"role": "branchSummary", "summary": "Summary of abandoned work", "fromId": "2", "timestamp": T0_MS}


@pytest.mark.parametrize("summary", ["", None], ids=["empty", "null"])
def test_an_empty_branch_summary_adds_nothing(build, summary):
    entries = [user("1", None, "start"), branch_summary("2", "1", summary, "1"), user("3", "2", "go on")]
    assert contents(build(entries)) == ["start", "go on"]


def test_a_complex_tree_with_compaction_and_branch_summary(build):
    entries = [
        user("1", None, "start"),
        assistant("2", "1", "r1"),
        user("3", "2", "q2"),
        assistant("4", "3", "r2"),
        compaction("5", "4", "Compacted history", "3"),
        user("6", "5", "q3"),
        assistant("7", "6", "r3"),
        user("8", "3", "wrong path"),
        assistant("9", "8", "wrong response"),
        branch_summary("10", "3", "Tried wrong approach", "3"),
        user("11", "10", "better approach"),
    ]
    assert contents(build(entries, "7")) == [("summary", "Compacted history"), "q2", "r2", "q3", "r3"]
    assert contents(build(entries, "11")) == ["start", "r1", "q2", ("summary", "Tried wrong approach"), "better approach"]


# -- entries that become messages, or do not ---------------------------------------------------------------


def test_a_custom_message_entry_becomes_a_custom_message_with_a_ms_timestamp(build):
    shown = {"type": "custom_message", "customType": "ext", "content": [{"type": "text", "text": "t"}], "display": True, "details": {"k": 1}, "id": "2", "parentId": "1", "timestamp": "2025-01-01T00:00:01.500Z"}
    hidden = {"type": "custom_message", "customType": "ext", "content": "plain", "display": False, "id": "3", "parentId": "2", "timestamp": T0}
    context = build([user("1", None, "a"), shown, hidden])
    assert context.messages[1:] == [
        {"role": "custom", "customType": "ext", "content": [{"type": "text", "text": "t"}], "display": True, "details": {"k": 1}, "timestamp": T0_MS + 1500},
        {"role": "custom", "customType": "ext", "content": "plain", "display": False, "timestamp": T0_MS},
    ]


def test_entries_that_are_not_messages_add_nothing(build):
    entries = [
        user("1", None, "a"),
        {"type": "custom", "customType": "state", "data": {"x": 1}, "id": "2", "parentId": "1", "timestamp": T0},
        {"type": "label", "id": "3", "parentId": "2", "timestamp": T0, "targetId": "1", "label": "l"},
        {"type": "session_info", "id": "4", "parentId": "3", "timestamp": T0, "name": "n"},
        {"type": "future_type", "id": "5", "parentId": "4", "timestamp": T0, "message": {"role": "user"}},
        user("6", "5", "b"),
    ]
    assert contents(build(entries)) == ["a", "b"]


def test_message_entries_are_passed_through_whatever_their_role(build):
    bash = {"role": "bashExecution", "command": "ls", "output": "", "exitCode": 0, "cancelled": False, "truncated": False, "timestamp": 1, "excludeFromContext": True}
    odd = {"role": "somethingNew", "content": "?"}
    entries = [user("1", None, "a"), {**user("2", "1", ""), "message": bash}, {**user("3", "2", ""), "message": odd}]
    assert build(entries).messages[1:] == [bash, odd]


# -- the leaf ------------------------------------------------------------------------------------------------


def test_an_unknown_leaf_falls_back_to_the_last_entry(build):
    entries = [user("1", None, "hello"), assistant("2", "1", "hi"), user("3", "1", "last line")]
    assert contents(build(entries, "nonexistent")) == ["hello", "last line"]
    assert contents(build(entries)) == ["hello", "last line"]


def test_an_explicit_null_leaf_gives_an_empty_context(build):
    context = build([thinking("0", None, "high"), user("1", "0", "hello")], None)
    assert (context.messages, context.thinking_level, context.model) == ([], "off", None)


def test_an_orphan_yields_only_itself(build):
    entries = [user("1", None, "hello"), assistant("2", "missing", "orphan")]
    assert contents(build(entries, "2")) == ["orphan"]


@pytest.mark.parametrize(
    ("entries", "leaf", "expected"),
    [
        ([user("a", "b", "from-a"), assistant("b", "a", "from-b")], "b", ["from-a", "from-b"]),
        ([user("a", "c", "cycle-a"), assistant("b", "a", "cycle-b"), user("c", "b", "cycle-c")], "c", ["cycle-a", "cycle-b", "cycle-c"]),
        ([user("s", "s", "self")], "s", ["self"]),
    ],
    ids=["two-node-cycle", "three-node-cycle", "self-parent"],
)
def test_parent_cycles_terminate_where_pi_0_73_loops_forever(build, entries, leaf, expected):
    assert contents(build(entries, leaf)) == expected


def test_an_empty_id_is_never_followed_as_in_javascript(build):
    """pi tests ``if (leafId)`` and ``current.parentId ? ...``: an empty string is no leaf and no parent."""
    entries = [user("", None, "empty id"), user("b", "", "b"), user("c", "b", "c")]
    assert contents(build(entries, "c")) == ["b", "c"]
    assert contents(build(entries, "")) == ["b", "c"]


def test_to_json_is_pis_object():
    entries = [{"type": "thinking_level_change", "id": "1", "parentId": None, "timestamp": T0}, user("2", "1", "x")]
    assert build_session_context(entries).to_json() == {"messages": [entries[1]["message"]], "model": None}
    assert list(build_session_context([thinking("1", None, "low")]).to_json()) == ["messages", "thinkingLevel", "model"]
