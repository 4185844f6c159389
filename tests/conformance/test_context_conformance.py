"""Our session context is pi's: the same JSON from the real pi 0.73.1 and from pi-compact, file for file.

Five sources of session files, each compared on ``buildSessionContext`` (messages, thinking level, model):

1. pi's own v1 session files from ``sessions_fixtures/pi`` (read in place, never written): the default leaf,
   the migrated entries (ids normalised by position, since v1 migration draws random ids), and many explicit
   leaves on a v3 copy that our migration wrote to a temporary directory.
2. Trees that pi's ``SessionManager`` writes from hypothesis-generated scripts, at the default leaf, at pi's
   live leaf, at an explicit null leaf, at an unknown id and at every entry.
3. Hand-written edge cases. Where pi crashes or hangs (a ``null`` line, a parent cycle, a message entry
   without a message), pi is not asked; our documented behaviour is asserted instead.
4. Files our store writes (random trees, our forks, a v1 file we migrated and appended to), read by pi.
5. ``pi-compact session context FILE [--leaf ID] --json`` as a subprocess, stdout against pi's JSON.

Our side is computed twice, through ``Session.open(path).build_context(leaf)`` and through the pure
``build_session_context(entries, leaf)``; both must equal pi's answer as JSON values (see ``jsoncmp``).
Every pi call is batched (one node start per file group or per hypothesis example) to keep this fast.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_compact import Session, build_session_context
from pi_compact.store.jsonl import dumps_line
from sessions_fixtures import PI_DIR, PI_SESSIONS

from .jsoncmp import first_difference, normalise
from .pi_ref import PROJECT, pi_contexts, pi_writes
from .scripts import replay, scripts, v1_files

FIXTURES = PI_DIR
FIXTURE_FILES = list(PI_SESSIONS)

# The leaf left out: pi's default, the last entry in file order.
DEFAULT: Any = type("Default", (), {"__repr__": lambda self: "<default leaf>"})()

EXAMPLES = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


# -- both sides -------------------------------------------------------------------------------------------


def request(path: Path, leaf: Any = DEFAULT, **extra: Any) -> dict:
    asked: dict[str, Any] = {"file": path, **extra}
    if leaf is not DEFAULT:
        asked["leaf"] = leaf
    return asked


def ours_by_session(session: Session, leaf: Any = DEFAULT) -> dict:
    context = session.build_context() if leaf is DEFAULT else session.build_context(leaf)
    return normalise(context.to_json())


def ours_by_function(entries: list[dict], leaf: Any = DEFAULT) -> dict:
    context = build_session_context(entries) if leaf is DEFAULT else build_session_context(entries, leaf)
    return normalise(context.to_json())


# A v3 file's entries parsed line by line, independently of our store, as pi's ``getEntries``.
# Every line must hold an object; header lines (the first, and repeats further down) are left out.
def raw_entries(path: Path) -> list[dict]:
    lines = [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
    return [line for line in lines[1:] if line.get("type") != "session"]


# Ask pi once for every (file, leaf) and compare with both of our ways; returns the differences.
# ``expected`` adds (file, leaf, context, label) checks of contexts computed elsewhere (a writer's live
# state, a file before it was rewritten) to the same node call.
def compare_files(
    cases: list[tuple[Path, list[Any]]], *, pure: bool = True, expected: list[tuple[Path, Any, dict, str]] = ()
) -> list[str]:
    asked: list[tuple[Path, Any]] = [(path, leaf) for path, leaves in cases for leaf in leaves]
    answers = pi_contexts([request(path, leaf) for path, leaf in [*asked, *((p, l) for p, l, _, _ in expected)]])
    sessions = {path: Session.open(path) for path, _ in cases}
    entries = {path: raw_entries(path) for path, _ in cases} if pure else {}
    problems = []
    for (path, leaf), answer in zip(asked, answers):
        where = f"{path.name} leaf={leaf!r}"
        if not answer["ok"]:
            problems.append(f"{where}: pi failed: {answer['error']}")
            continue
        found = first_difference(ours_by_session(sessions[path], leaf), answer["context"])
        if found is not None:
            problems.append(f"{where} (Session.build_context): {found}")
        if pure:
            found = first_difference(ours_by_function(entries[path], leaf), answer["context"])
            if found is not None:
                problems.append(f"{where} (build_session_context): {found}")
    for (path, leaf, context, label), answer in zip(expected, answers[len(asked) :]):
        found = first_difference(context, answer["context"]) if answer["ok"] else f"pi failed: {answer['error']}"
        if found is not None:
            problems.append(f"{path.name} {label} leaf={leaf!r}: {found}")
    for session in sessions.values():
        session.close()
    return problems


# The default leaf, an explicit null, an unknown id, and every entry of a v3 file.
def every_leaf(path: Path) -> list[Any]:
    return [DEFAULT, None, "no-such-id", *(entry["id"] for entry in raw_entries(path))]


def report(problems: list[str]) -> str:
    shown = problems[:15]
    more = f"\n… and {len(problems) - len(shown)} more" if len(problems) > len(shown) else ""
    return "ours differs from pi:\n" + "\n".join(shown) + more


# -- 1. pi's real v1 session files ------------------------------------------------------------------------


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# pi's default-leaf context and migrated entries for every fixture, asked in one go.
@pytest.fixture(scope="module")
def fixture_answers() -> dict[Path, dict]:
    if not FIXTURE_FILES:
        pytest.fail(f"no pi fixtures in {FIXTURES}")
    before = {path: sha256(path) for path in FIXTURE_FILES}
    answers = pi_contexts([request(path, entries=True) for path in FIXTURE_FILES])
    assert {path: sha256(path) for path in FIXTURE_FILES} == before, "a fixture was modified"
    for path, answer in zip(FIXTURE_FILES, answers):
        assert answer["ok"], f"pi failed on {path.name}: {answer['error']}"
    return dict(zip(FIXTURE_FILES, answers))


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=lambda p: p.name)
def test_fixture_default_leaf(fixture: Path, fixture_answers: dict[Path, dict]) -> None:
    theirs = fixture_answers[fixture]["context"]
    digest = sha256(fixture)
    with Session.open(fixture) as session:
        assert session.version == 1
        assert first_difference(ours_by_session(session), theirs) is None
        assert first_difference(ours_by_function(session.entries()), theirs) is None
    assert sha256(fixture) == digest, "opening a fixture must not write it"
    assert len(theirs["messages"]) > 100


# Lines with every entry id (and every reference to one) replaced by the entry's position.
def _by_position(lines: list[dict]) -> list[dict]:
    position = {line["id"]: f"#{n}" for n, line in enumerate(lines[1:]) if "id" in line}
    renamed = []
    for line in [lines[0], *lines[1:]]:
        line = dict(line)
        if line.get("type") != "session":
            for key in ("id", "parentId", "firstKeptEntryId", "targetId", "fromId"):
                if isinstance(line.get(key), str):
                    line[key] = position.get(line[key], line[key])
        renamed.append(line)
    return renamed


@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=lambda p: p.name)
def test_fixture_migration_matches_pi(fixture: Path, fixture_answers: dict[Path, dict]) -> None:
    with Session.open(fixture) as session:
        ours = normalise([session.header, *session.entries()])
    theirs = fixture_answers[fixture]["entries"]
    assert len(ours) == len(theirs)
    assert all(isinstance(line.get("id"), str) and len(line["id"]) == 8 for line in ours[1:])
    assert first_difference(_by_position(ours), _by_position(theirs)) is None
    # Migration adds keys at the end of each object, as pi's in-place mutation does.
    assert [list(line) for line in _by_position(ours)] == [list(line) for line in _by_position(theirs)]


# Evenly spread positions plus both sides of every compaction, kept entry and model change.
def _interesting_positions(entries: list[dict], spread: int = 14) -> list[int]:
    count = len(entries)
    positions = {0, 1, count - 1, *range(0, count, max(1, count // spread))}
    ids = {entry["id"]: n for n, entry in enumerate(entries)}
    for n, entry in enumerate(entries):
        if entry["type"] in ("compaction", "model_change"):
            positions.update({n - 1, n, n + 1})
        if entry["type"] == "compaction" and entry.get("firstKeptEntryId") in ids:
            kept = ids[entry["firstKeptEntryId"]]
            positions.update({kept - 1, kept, kept + 1})
    return sorted(p for p in positions if 0 <= p < count)


# v1 migration draws fresh ids on every load, so leaves are named on a v3 copy our migration wrote.
@pytest.mark.parametrize("fixture", FIXTURE_FILES, ids=lambda p: p.name)
def test_fixture_explicit_leaves_on_migrated_copy(fixture: Path, fixture_answers: dict[Path, dict], tmp_path: Path) -> None:
    with Session.open(fixture) as session:
        lines = [session.header, *session.entries()]
    copy = tmp_path / fixture.name.replace(".v1", ".v3")
    copy.write_bytes(b"".join(dumps_line(line) for line in lines))
    entries = lines[1:]
    leaves = [entries[p]["id"] for p in _interesting_positions(entries)]
    assert len(leaves) >= 15
    # pi also reads our v3 copy exactly as it reads the v1 original.
    original = (copy, DEFAULT, fixture_answers[fixture]["context"], "against pi on the v1 original")
    problems = compare_files([(copy, [DEFAULT, *leaves])], expected=[original])
    assert not problems, report(problems)


# -- 2. trees written by pi's own SessionManager ----------------------------------------------------------


@EXAMPLES
@given(st.lists(scripts(), min_size=3, max_size=4))
def test_pi_written_trees_every_leaf(batch: list[list[dict]]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        written = pi_writes([{"dir": f"{scratch}/{n}", "script": script} for n, script in enumerate(batch)])
        for result in written:
            assert result["ok"], f"pi_write failed: {result['error']}"
        cases = [(Path(result["file"]), every_leaf(Path(result["file"]))) for result in written]
        problems = compare_files(cases)
        # pi's live manager may sit elsewhere than the last line (a branch or reset at the end of a script).
        for result in written:
            with Session.open(result["file"]) as session:
                found = first_difference(ours_by_session(session, result["leaf"]), result["context"])
            if found is not None:
                problems.append(f"{Path(result['file']).name} live leaf={result['leaf']!r}: {found}")
        assert not problems, report(problems)


# -- 3. hand-written edge cases ---------------------------------------------------------------------------

HEADER = {"type": "session", "version": 3, "id": "e2f0a1c4-0000-7000-8000-000000000001",
          "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/tmp/edge"}


def ts(n: int) -> str:
    return f"2025-01-01T00:{n // 60:02d}:{n % 60:02d}.{(n * 37) % 1000:03d}Z"


def entry(kind: str, entry_id: str, parent: str | None, n: int, **fields: Any) -> dict:
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": ts(n), **fields}


def user(entry_id: str, parent: str | None, n: int, text: str = "", **extra: Any) -> dict:
    message = {"role": "user", "content": text or f"user {entry_id}", "timestamp": 1_735_689_600_000 + n}
    return entry("message", entry_id, parent, n, message={**message, **extra})


def assistant(entry_id: str, parent: str | None, n: int, *, provider: str = "anthropic",
              model: str = "claude-opus-4-5", stop: str = "stop", **extra: Any) -> dict:
    message = {
        "role": "assistant", "content": [{"type": "text", "text": f"assistant {entry_id}"}],
        "api": "anthropic-messages", "provider": provider, "model": model,
        "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
                  "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
        "stopReason": stop, "timestamp": 1_735_689_600_000 + n, **extra,
    }
    return entry("message", entry_id, parent, n, message=message)


def compaction(entry_id: str, parent: str, n: int, keep: Any = DEFAULT, summary: str = "summary", **extra: Any) -> dict:
    fields: dict[str, Any] = {"summary": summary}
    if keep is not DEFAULT:
        fields["firstKeptEntryId"] = keep
    return entry("compaction", entry_id, parent, n, **fields, tokensBefore=1234, **extra)


def custom_message(entry_id: str, parent: str | None, n: int, content: Any, **extra: Any) -> dict:
    return {"type": "custom_message", "customType": "note", "content": content, "display": True, **extra,
            "id": entry_id, "parentId": parent, "timestamp": ts(n)}


def branch_summary(entry_id: str, parent: str | None, n: int, summary: Any, **extra: Any) -> dict:
    fields = {"fromId": parent or "root", "summary": summary, **extra}
    return entry("branch_summary", entry_id, parent, n, **fields)


def chain(*entries: dict) -> list[dict]:
    return [HEADER, *entries]


# name -> (lines: dicts, or bytes written as they are; leaves besides DEFAULT, None and "no-such-id")
EDGE_CASES: dict[str, tuple[list[Any], list[Any]]] = {
    "empty-session": ([HEADER], []),
    "compaction-keeps-entry-off-path": (chain(
        user("u1", None, 1), assistant("a1", "u1", 2), user("u2", "a1", 3), assistant("a2", "u2", 4),
        user("b1", "a1", 5), assistant("b2", "b1", 6), compaction("c1", "b2", 7, keep="u2"), user("b3", "c1", 8),
    ), ["c1", "b3", "a2"]),
    "compaction-without-first-kept": (chain(
        user("u1", None, 1), assistant("a1", "u1", 2), compaction("c1", "a1", 3), user("u2", "c1", 4),
    ), ["c1"]),
    "compaction-first-kept-null-or-unknown": (chain(
        user("u1", None, 1), assistant("a1", "u1", 2), compaction("c1", "a1", 3, keep=None), user("u2", "c1", 4),
        compaction("c2", "u2", 5, keep="nowhere"), assistant("a2", "c2", 6),
    ), ["c1", "u2"]),
    "compaction-keeps-everything-and-is-the-leaf": (chain(
        {"type": "model_change", "id": "m1", "parentId": None, "timestamp": ts(0), "provider": "openai", "modelId": "gpt-5"},
        entry("thinking_level_change", "t1", "m1", 1, thinkingLevel="high"),
        user("u1", "t1", 2), assistant("a1", "u1", 3), compaction("c1", "a1", 4, keep="m1", summary=""),
    ), ["a1"]),
    "two-compactions-latest-wins": (chain(
        user("u1", None, 1), assistant("a1", "u1", 2), user("u2", "a1", 3), assistant("a2", "u2", 4),
        compaction("c1", "a2", 5, keep="u2", summary="first"), user("u3", "c1", 6), assistant("a3", "u3", 7),
        compaction("c2", "a3", 8, keep="u2", summary="second"), user("u4", "c2", 9),
        compaction("c3", "u4", 10, keep="u3", summary="third"), assistant("a4", "c3", 11),
    ), ["c1", "u3", "c2", "u4", "c3"]),
    "branch-summaries": (chain(
        branch_summary("r1", None, 1, "started over at the root"), user("u1", "r1", 2), assistant("a1", "u1", 3),
        branch_summary("e1", "a1", 4, ""), user("u2", "e1", 5),
        branch_summary("s1", "a1", 6, "explored another way", details={"readFiles": ["x"]}, fromHook=False),
        user("u3", "s1", 7), branch_summary("n1", "u3", 8, None), branch_summary("z1", "n1", 9, "zero", fromId="a1"),
        {"type": "branch_summary", "id": "k1", "parentId": "z1", "timestamp": ts(10), "fromId": "z1"},
        branch_summary("r2", None, 11, ""), assistant("a2", "r2", 12),
    ), ["r1", "e1", "u2", "s1", "u3", "n1", "z1", "k1", "r2"]),
    "branch-summary-truthiness": (chain(
        user("u1", None, 1), branch_summary("f1", "u1", 2, 0), branch_summary("f2", "f1", 3, False),
        branch_summary("t1", "f2", 4, "0"), branch_summary("t2", "t1", 5, 7), branch_summary("t3", "t2", 6, True),
        branch_summary("t4", "t3", 7, {"text": "structured"}), branch_summary("t5", "t4", 8, ["a", "list"]),
    ), ["f1", "f2", "t1", "t2", "t3", "t4"]),
    "branch-summary-empty-structures": (chain(
        user("u1", None, 1), branch_summary("o1", "u1", 2, {}), branch_summary("l1", "o1", 3, []),
    ), ["o1"]),
    "unknown-types-and-fields": (chain(
        {**user("u1", None, 1), "extra": {"kept": True}, "zzz": [1, 2]},
        entry("message", "a1", "u1", 2, message={**assistant("x", None, 2)["message"], "futureField": {"nested": [None]},
                                                   "content": [{"type": "text", "text": "t", "unknownBlockKey": 1},
                                                               {"type": "hologram", "payload": "?"}]}),
        entry("future_entry_type", "f1", "a1", 3, payload={"a": 1}, summary="not a summary", message={"role": "user"}),
        entry("compaction_v4", "f2", "f1", 4, summary="unknown compaction-like type", firstKeptEntryId="u1"),
        {**custom_message("cm", "f2", 5, "note text"), "unknownTopLevel": 5},
        {**compaction("c1", "cm", 6, keep="a1"), "future": {"x": 1}},
        {**branch_summary("b1", "c1", 7, "bs"), "mood": "curious"},
        entry("model_change", "m1", "b1", 8, provider="p", modelId="m", extraField=True),
        entry("thinking_level_change", "t1", "m1", 9, thinkingLevel="ultra", why="new level name"),
    ), ["f1", "f2", "cm", "c1", "b1", "m1"]),
    "custom-message-details": (chain(
        custom_message("d0", None, 1, "details absent"),
        custom_message("d1", "d0", 2, "details null", details=None),
        custom_message("d2", "d1", 3, [{"type": "text", "text": "array"}, {"type": "image", "data": "AA==", "mimeType": "image/png"}],
                       details={"k": [1, None]}),
        {"type": "custom_message", "customType": "bare", "id": "d3", "parentId": "d2", "timestamp": ts(4)},
        {**custom_message("d4", "d3", 5, "hidden"), "display": False},
    ), ["d0", "d1", "d2", "d3"]),
    "thinking-level-change-is-last": (chain(
        user("u1", None, 1), assistant("a1", "u1", 2), entry("thinking_level_change", "t1", "a1", 3, thinkingLevel="medium"),
        entry("thinking_level_change", "t2", "t1", 4, thinkingLevel="xhigh"),
    ), ["a1", "t1"]),
    "thinking-level-missing-or-null": (chain(
        entry("thinking_level_change", "t1", None, 1, thinkingLevel="low"), entry("thinking_level_change", "t2", "t1", 2),
        entry("thinking_level_change", "t3", "t2", 3, thinkingLevel=None),
    ), ["t1", "t2"]),
    "assistant-error-and-aborted-set-the-model": (chain(
        entry("model_change", "m1", None, 1, provider="openai", modelId="gpt-5"), user("u1", "m1", 2),
        assistant("a1", "u1", 3, provider="google", model="gemini-3-pro", stop="error", errorMessage="overloaded"),
        entry("model_change", "m2", "a1", 4, provider="openai", modelId="gpt-5"),
        assistant("a2", "m2", 5, provider="anthropic", model="claude-haiku", stop="aborted"),
        entry("message", "a3", "a2", 6, message={"role": "assistant", "content": [], "stopReason": "error", "timestamp": 6}),
        entry("model_change", "m3", "a3", 7, provider="only-provider"),
    ), ["m1", "u1", "a1", "m2", "a2", "a3"]),
    "unknown-message-roles": (chain(
        user("u1", None, 1), entry("message", "x1", "u1", 2, message={"role": "system", "content": "be nice"}),
        entry("message", "x2", "x1", 3, message={"role": "hookMessage", "customType": "h", "content": "v3 keeps the old role",
                                                 "display": True, "timestamp": 3}),
        entry("message", "x3", "x2", 4, message={"content": "no role at all"}),
        entry("message", "x4", "x3", 5, message={"role": "bashExecution", "command": "ls", "output": "", "exitCode": 0,
                                                 "cancelled": False, "truncated": False, "timestamp": 5,
                                                 "excludeFromContext": True}),
        entry("message", "x5", "x4", 6, message={"role": "branchSummary", "summary": "stored, not built", "fromId": "u1",
                                                 "timestamp": 6}),
        entry("message", "x6", "x5", 7, message=["not", "an", "object"]),
        entry("message", "x7", "x6", 8, message="just a string"),
    ), ["x1", "x2", "x3", "x4", "x5", "x6"]),
    "orphans-dangling-parents-and-leaf-choices": (chain(
        user("u1", None, 1), assistant("a1", "u1", 2), user("o1", "missing-parent", 3), assistant("o2", "o1", 4),
        user("e1", "", 5), entry("label", "l1", "a1", 6, targetId="u1", label="start"),
        entry("session_info", "n1", "l1", 7, name="named"), entry("custom", "c1", "n1", 8, customType="x", data={"y": 1}),
    ), ["", "u1", "o1", "o2", "e1", "l1", "n1", "c1", "ROOT", "U1", "u1 "]),
    "duplicate-ids-later-wins": (chain(
        user("u1", None, 1), assistant("a1", "u1", 2), user("u2", "a1", 3, text="first copy"),
        user("u2", "u1", 4, text="second copy"), assistant("a2", "u2", 5),
    ), ["u2", "a1"]),
    "repeated-header-lines": (chain(
        # What pi's duplicate-header bug (§9.1) writes: header and entries dumped again, then the new ones.
        entry("model_change", "m1", None, 1, provider="anthropic", modelId="claude-opus-4-5"), user("u1", "m1", 2),
        HEADER, entry("model_change", "m1", None, 1, provider="anthropic", modelId="claude-opus-4-5"), user("u1", "m1", 2),
        user("u2", "u1", 3), assistant("a1", "u2", 4),
        {**HEADER, "id": "another-header"},
    ), ["m1", "u1", "u2", "a1", HEADER["id"], "another-header"]),
    "v1-with-repeated-header": ([
        {"type": "session", "id": "v1-session", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/tmp/v1"},
        {"type": "message", "timestamp": ts(1), "message": {"role": "user", "content": "one", "timestamp": 1}},
        {"type": "session", "id": "v1-session", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/tmp/v1"},
        {"type": "compaction", "timestamp": ts(2), "summary": "at the repeated header", "firstKeptEntryIndex": 2,
         "tokensBefore": 9},
        {"type": "message", "timestamp": ts(3), "message": {"role": "user", "content": "two", "timestamp": 3}},
        {"type": "session", "id": "v1-session-again", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/tmp/v1"},
    ], []),
    "messy-lines": ([
        b"\n  \n",
        dumps_line(HEADER).rstrip(b"\n") + b"\r\n",
        b"\n",
        dumps_line(user("u1", None, 1)).rstrip(b"\n") + b"\r\n",
        b"{not json at all\n",
        b"   " + dumps_line(assistant("a1", "u1", 2)),
        b"\t\n",
        b"[1, 2, 3]\n",
        b"42\n",
        b"\"a string line\"\n",
        b"true\n",
        dumps_line(user("u2", "a1", 3, text="café ✓ 🐍")),
        dumps_line(custom_message("cm", "u2", 4, "line with \u2028 and \u2029 separators")),
        b'{"type":"message","id":"torn","parentId":"cm","timestamp":"2025-01-01T00:00:05.000Z","message":{"role":"us',
    ], ["u1", "a1", "u2", "cm"]),
    "timestamps-pi-writes-and-iso-variants": (chain(
        user("u1", None, 1),
        {**custom_message("t1", "u1", 2, "no millis"), "timestamp": "2025-03-04T05:06:07Z"},
        {**custom_message("t2", "t1", 3, "micros"), "timestamp": "2025-03-04T05:06:07.123456Z"},
        {**custom_message("t3", "t2", 4, "offset"), "timestamp": "2025-03-04T05:06:07.250+02:00"},
        {**custom_message("t4", "t3", 5, "date only"), "timestamp": "2025-03-04"},
        {**custom_message("t5", "t4", 6, "missing")},
        {**custom_message("t6", "t5", 7, "garbage"), "timestamp": "yesterday"},
        {**branch_summary("t7", "t6", 8, "one tenth"), "timestamp": "2025-03-04T05:06:07.1Z"},
        {**compaction("t8", "t7", 9, keep="t1"), "timestamp": "1999-12-31T23:59:59.999Z"},
        {**custom_message("t9", "t8", 10, "number"), "timestamp": 1_700_000_000_123},
    ), ["t1", "t2", "t3", "t4", "t6", "t7"]),
    "timestamps-pi-never-writes": (chain(
        user("u1", None, 1),
        {**custom_message("n1", "u1", 2, "null is 0 for new Date"), "timestamp": None},
        {**custom_message("b1", "n1", 3, "true is 1"), "timestamp": True},
        {**branch_summary("b2", "b1", 4, "false is 0"), "timestamp": False},
        {**custom_message("h1", "b2", 5, "hour 24"), "timestamp": "2025-01-01T24:00:00Z"},
        {**custom_message("y1", "h1", 6, "extended year"), "timestamp": "+002025-01-01T00:00:00.000Z"},
        {**custom_message("p1", "y1", 7, "padded"), "timestamp": " 2025-01-01T00:00:00.000Z "},
        {**custom_message("c1", "p1", 8, "basic format"), "timestamp": "20250101T000000Z"},
        {**custom_message("l1", "c1", 9, "local time"), "timestamp": "2025-01-01T10:00:00"},
        {**custom_message("f1", "l1", 10, "fractional number"), "timestamp": -1.7},
        {**compaction("k1", "f1", 11, keep="u1"), "timestamp": 1e20},
    ), ["n1", "b2", "l1"]),
    "v2-file-renames-hook-messages": ([
        {**HEADER, "version": 2},
        user("u1", None, 1),
        entry("message", "h1", "u1", 2, message={"role": "hookMessage", "customType": "ext", "content": "from a hook",
                                                 "display": False, "details": {"a": 1}, "timestamp": 2}),
        assistant("a1", "h1", 3), user("b1", "u1", 4),
    ], ["u1", "h1", "a1", "b1"]),
    "version-as-string-3-is-current": ([
        {**HEADER, "version": "3"}, user("u1", None, 1),
        entry("message", "h1", "u1", 2, message={"role": "hookMessage", "customType": "x", "content": "kept as is",
                                                 "display": True, "timestamp": 2}),
        user("b1", "u1", 3),
    ], ["u1", "h1"]),
    "version-as-string-2-renames-hook-messages": ([
        {**HEADER, "version": "2"}, user("u1", None, 1),
        entry("message", "h1", "u1", 2, message={"role": "hookMessage", "customType": "x", "content": "renamed",
                                                 "display": True, "timestamp": 2}),
    ], ["u1"]),
    "v1-header-with-tree-ids-is-linearised": ([
        {k: v for k, v in HEADER.items() if k != "version"},
        user("u1", None, 1), assistant("a1", "u1", 2), user("b1", "u1", 3), assistant("b2", "b1", 4),
        entry("message", "h1", "b2", 5, message={"role": "hookMessage", "customType": "x", "content": "c", "display": True,
                                                 "timestamp": 5}),
        branch_summary("s1", "a1", 6, "kept its old fromId"),
    ], ["a1", "b2"]),  # ids are redrawn on load, so these name nothing and both fall back to the last entry
    "v1-compaction-indices": ([
        {"type": "session", "id": "v1-session", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/tmp/v1"},
        {"type": "message", "timestamp": ts(1), "message": {"role": "user", "content": "one", "timestamp": 1}},
        {"type": "message", "timestamp": ts(2), "message": {"role": "assistant", "content": [], "provider": "a", "model": "m",
                                                            "stopReason": "stop", "timestamp": 2}},
        {"type": "compaction", "timestamp": ts(3), "summary": "keeps line 2", "firstKeptEntryIndex": 2, "tokensBefore": 9},
        {"type": "message", "timestamp": ts(4), "message": {"role": "user", "content": "two", "timestamp": 4}},
    ], []),
    "v1-compaction-index-points-forward": ([
        {"type": "session", "id": "v1-session", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/tmp/v1"},
        {"type": "message", "timestamp": ts(1), "message": {"role": "user", "content": "one", "timestamp": 1}},
        {"type": "compaction", "timestamp": ts(2), "summary": "forward", "firstKeptEntryIndex": 3, "tokensBefore": 9},
        {"type": "message", "timestamp": ts(3), "message": {"role": "user", "content": "two", "timestamp": 3}},
    ], []),
    "v1-compaction-index-at-header": ([
        {"type": "session", "id": "v1-session", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/tmp/v1"},
        {"type": "message", "timestamp": ts(1), "message": {"role": "user", "content": "one", "timestamp": 1}},
        {"type": "compaction", "timestamp": ts(2), "summary": "header", "firstKeptEntryIndex": 0, "tokensBefore": 9},
        {"type": "compaction", "timestamp": ts(3), "summary": "past the end", "firstKeptEntryIndex": 99, "tokensBefore": 9},
    ], []),
}


def write_lines(path: Path, lines: list[Any]) -> Path:
    path.write_bytes(b"".join(line if isinstance(line, bytes) else dumps_line(line) for line in lines))
    return path


@pytest.fixture(scope="module")
def edge_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[Any]]]:
    directory = tmp_path_factory.mktemp("edge")
    return {
        name: (write_lines(directory / f"{name}.jsonl", lines), [DEFAULT, None, "no-such-id", *leaves])
        for name, (lines, leaves) in EDGE_CASES.items()
    }


# Every edge case compared in one pi call; the pure function is skipped (it needs migrated entries).
@pytest.fixture(scope="module")
def edge_problems(edge_files: dict[str, tuple[Path, list[Any]]]) -> dict[str, list[str]]:
    problems = compare_files(list(edge_files.values()), pure=False)
    return {name: [p for p in problems if p.startswith(f"{path.name} ")] for name, (path, _) in edge_files.items()}


@pytest.mark.parametrize("name", list(EDGE_CASES))
def test_edge_case_matches_pi(name: str, edge_problems: dict[str, list[str]]) -> None:
    assert not edge_problems[name], report(edge_problems[name])


V3_EDGE_CASES = [name for name, (lines, _) in EDGE_CASES.items() if lines[0] is HEADER]


@pytest.mark.parametrize("name", V3_EDGE_CASES)
def test_edge_case_pure_function_matches_session(name: str, edge_files: dict[str, tuple[Path, list[Any]]]) -> None:
    path, leaves = edge_files[name]
    entries = raw_entries(path)
    with Session.open(path) as session:
        for leaf in leaves:
            assert first_difference(ours_by_function(entries, leaf), ours_by_session(session, leaf)) is None, leaf


# A few spot checks that the cases test what they claim, independent of pi.
def test_edge_case_expectations(edge_files: dict[str, tuple[Path, list[Any]]]) -> None:
    def roles(name: str, leaf: Any = DEFAULT) -> list[Any]:
        with Session.open(edge_files[name][0]) as session:
            return [m.get("role") if isinstance(m, dict) else m for m in ours_by_session(session, leaf)["messages"]]

    assert roles("compaction-keeps-entry-off-path") == ["compactionSummary", "user"]
    assert roles("compaction-without-first-kept") == ["compactionSummary", "user"]
    assert roles("two-compactions-latest-wins", "c2") == ["compactionSummary", "user", "assistant", "user", "assistant"]
    assert roles("branch-summaries", "u3") == ["branchSummary", "user", "assistant", "branchSummary", "user"]
    with Session.open(edge_files["custom-message-details"][0]) as session:
        messages = ours_by_session(session)["messages"]
    assert "details" not in messages[0] and messages[1]["details"] is None and "details" not in messages[3]
    with Session.open(edge_files["assistant-error-and-aborted-set-the-model"][0]) as session:
        assert ours_by_session(session, "a1")["model"] == {"provider": "google", "modelId": "gemini-3-pro"}
        assert ours_by_session(session)["model"] == {"provider": "only-provider"}


# Where pi crashes or loops forever, it is not asked: we assert our documented, better behaviour.


# pi's loader throws a TypeError on a `null` line (§9.2).
def test_null_line_is_skipped_with_a_problem(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "null-line.jsonl", [HEADER, user("u1", None, 1), b"null\n", assistant("a1", "u1", 2)])
    with Session.open(path) as session:
        assert [p.kind for p in session.problems] == ["not_object"]
        assert session.problems[0].line == 3
        context = ours_by_session(session)
    assert [m["role"] for m in context["messages"]] == ["user", "assistant"]
    assert context["model"] == {"provider": "anthropic", "modelId": "claude-opus-4-5"}


def test_null_last_line_leaves_the_leaf_on_the_last_entry(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "null-last.jsonl", [HEADER, user("u1", None, 1), b"null\n"])
    with Session.open(path) as session:
        assert session.leaf_id == "u1"
        assert [m["role"] for m in ours_by_session(session)["messages"]] == ["user"]


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param([user("u1", "u1", 1)], id="self-parent"),
        pytest.param([user("u1", "u2", 1), assistant("u2", "u1", 2)], id="two-cycle"),
        pytest.param([user("r", None, 0), user("u1", "u3", 1), assistant("u2", "u1", 2), user("u3", "u2", 3)], id="three-cycle"),
    ],
)
# pi's getBranch and buildSessionContext loop forever here (§9.10).
def test_parent_cycles_end_the_walk_and_are_reported(lines: list[dict], tmp_path: Path) -> None:
    path = write_lines(tmp_path / "cycle.jsonl", [HEADER, *lines])
    with Session.open(path) as session:
        for leaf in [DEFAULT, *(line["id"] for line in lines)]:
            context = ours_by_session(session, leaf)
            assert 1 <= len(context["messages"]) <= len(lines)
        assert any(problem.kind == "cycle" for problem in session.problems)
        assert len(session.branch()) <= len(lines)
    # The pure function ends its walk too.
    context = ours_by_function(lines)
    assert 1 <= len(context["messages"]) <= len(lines)


# pi throws reading `entry.message.role`; we emit the missing message as null, like pi's own push would.
def test_message_entry_without_a_message(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "no-message.jsonl", [HEADER, user("u1", None, 1), entry("message", "m1", "u1", 2)])
    with Session.open(path) as session:
        assert ours_by_session(session)["messages"][1] is None
        assert ours_by_session(session, "u1")["messages"][0]["role"] == "user"


# -- 4. files our store writes, read by pi ----------------------------------------------------------------


@settings(EXAMPLES, max_examples=20)
@given(st.lists(scripts(), min_size=2, max_size=3), st.data())
def test_our_written_trees_every_leaf(batch: list[list[dict]], data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        files: list[Path] = []
        live: list[tuple[Path, Any, dict]] = []
        for n, script in enumerate(batch):
            path = Path(scratch) / f"ours-{n}.jsonl"
            with Session.create_at(path, cwd="/tmp/project", durable=False) as session:
                ids = replay(script, session)
                live.append((path, session.leaf_id, ours_by_session(session)))
                files.append(path)
                made = [i for i in ids if i is not None]
                for k, at in enumerate(data.draw(st.lists(st.sampled_from(made), max_size=2), label="fork at")):
                    fork_path = Path(scratch) / f"ours-{n}-fork-{k}.jsonl"
                    session.fork(at, fork_path).close()
                    if fork_path.exists():  # a fork of labels alone holds no entry, so no file (as in pi)
                        files.append(fork_path)
        live_checks = [(path, leaf, context, "writer's live context") for path, leaf, context in live]
        problems = compare_files([(path, every_leaf(path)) for path in files], expected=live_checks)
        assert not problems, report(problems)


@settings(EXAMPLES, max_examples=15)
@given(v1_files(), st.data())
def test_v1_file_we_migrated_and_appended_to(lines: list[dict], data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        path = write_lines(Path(scratch) / "old.jsonl", lines)
        original = path.read_bytes()
        with Session.open(path, durable=False) as session:
            before = ours_by_session(session)
            existing = [entry["id"] for entry in session.entries()]
            script = data.draw(scripts(max_ops=8, existing=len(existing)), label="appended")
            replay(script, session, existing)
            writer_leaf, writer_context = session.leaf_id, ours_by_session(session)
        # The first append wrote the migrated file whole and kept the original beside it.
        backup = Path(scratch) / "old.jsonl.v1.bak"
        assert backup.read_bytes() == original
        assert orjson.loads(path.read_bytes().splitlines()[0])["version"] == 3
        problems = compare_files(
            [(path, every_leaf(path))],
            expected=[(backup, DEFAULT, before, "v1 original"), (path, writer_leaf, writer_context, "writer's live context")],
        )
        assert not problems, report(problems)


# -- 5. the CLI -------------------------------------------------------------------------------------------


# The console script next to this Python (what `make` installs), else the module.
def _cli() -> list[str]:
    script = Path(sys.executable).parent / "pi-compact"
    return [str(script)] if script.exists() else [sys.executable, "-m", "pi_compact"]


CLI = _cli()


def run_cli(path: Path, leaf: Any = DEFAULT) -> subprocess.CompletedProcess:
    args = [*CLI, "session", "context", str(path), "--json"]
    if leaf is not DEFAULT:
        args += ["--leaf", "root" if leaf is None else leaf]
    return subprocess.run(args, capture_output=True, cwd=PROJECT, env={**os.environ, "NO_COLOR": "1"})


CLI_SCRIPT = [
    {"op": "model", "provider": "anthropic", "modelId": "claude-opus-4-5"},
    {"op": "message", "message": {"role": "user", "content": "hi ✓", "timestamp": 1}},
    {"op": "message", "message": {"role": "assistant", "content": [{"type": "text", "text": "hello"}], "api": "a",
                                  "provider": "openai", "model": "gpt-5", "usage": {}, "stopReason": "stop", "timestamp": 2}},
    {"op": "customMessage", "customType": "note", "content": "n", "display": True},
    {"op": "branchWithSummary", "index": 1, "summary": "went elsewhere"},
    {"op": "compaction", "summary": "s", "firstKeptIndex": 4, "tokensBefore": 10},
    {"op": "message", "message": {"role": "user", "content": "after", "timestamp": 3}},
]

# Each case starts one process, so a handful: every flavour of leaf, and the biggest file. A case names a
# file (pi-written from CLI_SCRIPT, an edge case, a fixture) and a leaf (an op index of CLI_SCRIPT, an
# entry id, or None for `--leaf root`).
CLI_CASES = {
    "pi-written": ("pi-written", DEFAULT),
    "pi-written-leaf-root": ("pi-written", None),
    "pi-written-leaf-assistant": ("pi-written", 2),
    "pi-written-leaf-branch-summary": ("pi-written", 4),
    "edge-branch-summaries-leaf-u3": ("branch-summaries", "u3"),
    "edge-unknown-types-and-fields": ("unknown-types-and-fields", DEFAULT),
    "edge-v2-file-leaf-h1": ("v2-file-renames-hook-messages", "h1"),
    "fixture-before-compaction": ("before-compaction.v1.jsonl", DEFAULT),
}


# (file, leaf, pi's context) per case, pi asked once.
@pytest.fixture(scope="module")
def cli_expected(
    edge_files: dict[str, tuple[Path, list[Any]]], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[Path, Any, dict]]:
    [written] = pi_writes([{"dir": tmp_path_factory.mktemp("cli"), "script": CLI_SCRIPT}])
    files = {"pi-written": Path(written["file"]), **{name: path for name, (path, _) in edge_files.items()}}
    files.update({path.name: path for path in FIXTURE_FILES})
    cases = {}
    for case, (name, leaf) in CLI_CASES.items():
        cases[case] = (files[name], written["ids"][leaf] if isinstance(leaf, int) else leaf)
    answers = pi_contexts([request(path, leaf) for path, leaf in cases.values()])
    for answer in answers:
        assert answer["ok"], answer["error"]
    return {case: (*cases[case], answer["context"]) for case, answer in zip(cases, answers)}


@pytest.mark.parametrize("case", list(CLI_CASES))
def test_cli_context_json_is_pis(case: str, cli_expected: dict[str, tuple[Path, Any, dict]]) -> None:
    path, leaf, theirs = cli_expected[case]
    done = run_cli(path, leaf)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    found = first_difference(orjson.loads(done.stdout), theirs)
    assert found is None, f"ours differs from pi: {found}"


# pi falls back to the last entry for an unknown leaf; the CLI's contract is an error instead.
def test_cli_unknown_leaf_is_an_error_not_a_fallback(edge_files: dict[str, tuple[Path, list[Any]]]) -> None:
    path = edge_files["branch-summaries"][0]
    before = path.read_bytes()
    done = run_cli(path, "no-such-id")
    assert done.returncode == 2 and done.stdout == b""
    assert len(done.stderr.decode().strip().splitlines()) == 1 and b"Traceback" not in done.stderr
    assert path.read_bytes() == before
