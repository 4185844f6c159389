"""Fuzzing the reader and everything built on it: random bytes, random JSON lines and random mutations of valid
sessions go through ``scan``, migration, ``Session.open``, the tree and path walks, ``build_session_context``,
a dry-run compaction and the doctor. Nothing may escape but :class:`~pi_compact.errors.PiCompactError`, and
every repaired copy must open with no problems.

``make test`` runs the short profile (about a minute in all); ``make fuzz`` (``PI_COMPACT_FUZZ=1``) runs many
more examples.
"""

from __future__ import annotations

import os
import string
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest.mock import patch

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_compact import PiCompactError, Session, build_session_context
from pi_compact.compaction import CompactionSettings, compact
from pi_compact.store.doctor import diagnose
from pi_compact.store.index import SessionIndex
from pi_compact.store.migrate import migrate
from pi_compact.store.repair import repair
from pi_compact.store.scan import Slot, scan

_COMMON = dict(deadline=None, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
settings.register_profile("reliability", max_examples=250, **_COMMON)
settings.register_profile("reliability-fuzz", max_examples=5000, **_COMMON)
FUZZ = settings.get_profile("reliability-fuzz" if os.environ.get("PI_COMPACT_FUZZ") else "reliability")
"""Applied per test rather than loaded globally, so other test modules keep their own settings."""

SMALL = CompactionSettings(keep_recent_tokens=40, summary_min_tokens=32, summary_max_tokens=64)
EXAMPLES: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _report_examples() -> Iterator[None]:
    yield
    print(f"\nfuzz examples run: {dict(EXAMPLES)}, {sum(EXAMPLES.values())} in all")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def ours(call: Callable[[], Any]) -> Any:
    """``call()``, where our own errors are a fine outcome and anything else fails the example."""
    try:
        return call()
    except PiCompactError:
        return None


# -- what every input goes through -----------------------------------------------------------------------------


def exercise(data: bytes, folder: Path, *, lazy: bool = False) -> None:
    ours(lambda: scan(data, eager=not lazy))
    path = folder / "fuzzed.jsonl"
    path.write_bytes(data)
    with patch("pi_compact.store.scan.EAGER_PARSE_BYTES", 0 if lazy else 8 * 1024 * 1024):
        session = ours(lambda: Session.open(path, durable=False))
        if session is not None:
            with session:
                _walk(session)
    assert path.read_bytes() == data  # reading never writes
    _doctor(data, folder)


def _walk(session: Session) -> None:
    ours(session.tree)
    ours(session.branch)
    ours(session.build_context)
    entries = ours(session.entries) or []
    ours(lambda: session.name)
    ids = [slot.id for slot in session._index.slots][:: max(1, len(session._index.slots) // 8)]
    for entry_id in ids:
        ours(lambda: session.branch(entry_id))
        ours(lambda: session.build_context(entry_id))
        ours(lambda: session.children(entry_id))
        ours(lambda: build_session_context(entries, entry_id))
    ours(lambda: build_session_context(entries))
    ours(lambda: compact(session, settings=SMALL, dry_run=True))
    ours(lambda: compact(session, settings=SMALL, window=3000, dry_run=True))


def _doctor(data: bytes, folder: Path) -> None:
    """The doctor reads anything; its repaired copy opens with no problems and no errors remain in it."""
    diagnose(data)
    _, repaired = repair(data)
    path = folder / "repaired.jsonl"
    path.write_bytes(repaired.data)
    with Session.open(path, durable=False) as session:
        session.tree()
        session.build_context()
        assert session.problems == [], (session.problems, repaired.data[:3000])
    remaining = diagnose(repaired.data)
    assert not remaining.errors, (remaining.errors, repaired.data[:3000])


# -- strategies ------------------------------------------------------------------------------------------------

IDS = ["a", "b", "c", "d", "e", "root", "", "x" * 40]
TYPES = ["message", "thinking_level_change", "model_change", "compaction", "branch_summary", "custom",
         "custom_message", "label", "session_info", "session", "mystery"]
ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary", "compactionSummary",
         "hookMessage", "wizard"]
STAMPS = ["2025-03-01T10:00:00.000Z", "2025-03-01T10:00:01.500Z", "2025-03-01", "garbage", "+275760-09-13T00:00:00Z"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20) | st.sampled_from(IDS),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["type", "text", "id", "x"]), inner,
                                                                 max_size=4),
    max_leaves=12,
)
junk = st.sampled_from([None, True, False, 0, -1, 2**53 + 1, 1.5, 1e300, "", "x", "a", [], {}, ["a"], {"a": 1},
                        [[[]]], {"type": "text"}])
"""Values of the wrong type, cheap to draw (a recursive strategy in every field makes generation the bottleneck)."""
maybe = lambda strategy: st.one_of(strategy, junk)  # noqa: E731 - a tiny combinator

blocks = st.lists(st.fixed_dictionaries(
    {"type": maybe(st.sampled_from(["text", "toolCall", "thinking", "image"]))},
    optional={"text": maybe(st.text(max_size=40)), "name": maybe(st.sampled_from(["bash", "read", "edit"])),
              "arguments": maybe(st.dictionaries(st.sampled_from(["path", "command"]), st.text(max_size=30))),
              "thinking": st.text(max_size=30), "id": st.sampled_from(IDS)},
), max_size=4)

messages = st.fixed_dictionaries(
    {"role": maybe(st.sampled_from(ROLES))},
    optional={"content": st.one_of(st.text(max_size=200), blocks, json_values),
              "timestamp": maybe(st.integers(0, 2**45)), "toolCallId": maybe(st.sampled_from(IDS)),
              "toolName": st.text(max_size=10), "command": maybe(st.text(max_size=30)),
              "output": maybe(st.text(max_size=200)), "exitCode": maybe(st.integers(-1, 2)),
              "provider": maybe(st.text(max_size=10)), "model": maybe(st.text(max_size=10)),
              "stopReason": maybe(st.sampled_from(["stop", "toolUse", "error", "length"])),
              "usage": maybe(st.fixed_dictionaries({"input": st.integers(0, 10**6), "output": st.integers(0, 10**5),
                                                    "totalTokens": st.integers(0, 10**6)}))},
)

entries = st.fixed_dictionaries(
    {"type": maybe(st.sampled_from(TYPES)), "id": maybe(st.sampled_from(IDS)),
     "parentId": maybe(st.sampled_from([None, *IDS])), "timestamp": maybe(st.sampled_from(STAMPS))},
    optional={"message": maybe(messages), "firstKeptEntryId": maybe(st.sampled_from(IDS)),
              "firstKeptEntryIndex": maybe(st.integers(-2, 12)), "tokensBefore": maybe(st.integers(0, 10**6)),
              "summary": maybe(st.text(max_size=80)), "targetId": maybe(st.sampled_from(IDS)),
              "label": maybe(st.text(max_size=10)), "name": maybe(st.text(max_size=10)),
              "fromId": maybe(st.sampled_from(IDS)), "thinkingLevel": maybe(st.sampled_from(["off", "high"])),
              "provider": maybe(st.text(max_size=8)), "modelId": maybe(st.text(max_size=8)),
              "customType": maybe(st.text(max_size=8)), "content": maybe(st.text(max_size=50)),
              "display": st.booleans(), "details": json_values},
)

headers = st.fixed_dictionaries(
    {"type": st.just("session"), "id": maybe(st.sampled_from(["s1", "../../x", ""]))},
    optional={"version": maybe(st.sampled_from([1, 2, 3, 4, "3", 2.5, 1e300, -1])),
              "timestamp": maybe(st.sampled_from(STAMPS)), "cwd": maybe(st.text(max_size=10))},
)

raw_lines = st.one_of(
    entries.map(orjson.dumps), entries.map(orjson.dumps), entries.map(orjson.dumps), headers.map(orjson.dumps),
    json_values.map(orjson.dumps), st.binary(max_size=60), st.sampled_from([b"", b"  ", b"\r", b"null", b"{", b"[]"]),
)


@st.composite
def jsonl_files(draw: st.DrawFn) -> bytes:
    first = [orjson.dumps(draw(headers))] if draw(st.integers(0, 9)) else []
    lines = first + draw(st.lists(raw_lines, max_size=25))
    ending = draw(st.sampled_from([b"\n", b"", b"\r\n"]))
    return draw(st.sampled_from([b"", b"\xef\xbb\xbf"])) + ending.join(lines) + ending


# valid sessions, built through the library, then mutated

ops = st.lists(st.one_of(
    st.tuples(st.just("user"), st.text(string.printable + "é中", max_size=300)),
    st.tuples(st.just("assistant"), st.text(max_size=200), st.booleans()),
    st.tuples(st.just("branch"), st.integers(0, 50)),
    st.tuples(st.just("compaction"), st.integers(0, 50)),
    st.tuples(st.just("label"), st.integers(0, 50), st.text(max_size=8)),
    st.tuples(st.just("name"), st.text(max_size=12)),
    st.tuples(st.just("model"), st.sampled_from(["anthropic", "openai"])),
    st.tuples(st.just("custom_message"), st.text(max_size=40)),
), min_size=1, max_size=30)


def build_valid(plan: list[tuple]) -> bytes:
    session = Session.in_memory("/fuzz")
    for op in plan:
        ids = [slot.id for slot in session._index.slots]
        kind = op[0]
        if kind == "user":
            session.append_message({"role": "user", "content": op[1], "timestamp": 1})
        elif kind == "assistant":
            call = [{"type": "toolCall", "id": "c", "name": "bash", "arguments": {"command": op[1][:20]}}]
            call = call if op[2] else []
            session.append_message({"role": "assistant", "content": [{"type": "text", "text": op[1]}, *call],
                                    "provider": "anthropic", "model": "m", "stopReason": "stop", "timestamp": 2})
        elif kind == "branch" and ids:
            session.move_leaf(ids[op[1] % len(ids)])
        elif kind == "compaction" and ids:
            session.append_compaction("## Goal\nsummary", ids[op[1] % len(ids)], 100)
        elif kind == "label" and ids:
            session.append_label(ids[op[1] % len(ids)], op[2] or None)
        elif kind == "name":
            session.append_session_info(op[1])
        elif kind == "model":
            session.append_model_change(op[1], "model-x")
        elif kind == "custom_message":
            session.append_custom_message("ext", op[1], True)
    return b"".join(orjson.dumps(line) + b"\n" for line in [session.header, *session.entries()])


mutations = st.lists(st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(1, 255)),
    st.tuples(st.just("delete"), st.integers(0, 100)),
    st.tuples(st.just("duplicate"), st.integers(0, 100)),
    st.tuples(st.just("swap"), st.integers(0, 100), st.integers(0, 100)),
    st.tuples(st.just("truncate"), st.integers(0, 10**6)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.binary(min_size=1, max_size=20)),
    st.tuples(st.just("replace"), st.integers(0, 100), raw_lines),
), min_size=1, max_size=6)


def mutate(data: bytes, changes: list[tuple]) -> bytes:
    for change in changes:
        kind, *args = change
        if kind in ("flip", "truncate", "insert") and data:
            at = args[0] % len(data)
            data = (data[:at] + bytes([data[at] ^ args[1]]) + data[at + 1:] if kind == "flip"
                    else data[:at] if kind == "truncate" else data[:at] + args[1] + data[at:])
        elif kind in ("delete", "duplicate", "swap", "replace"):
            lines = data.split(b"\n")
            i = args[0] % len(lines)
            if kind == "delete":
                del lines[i]
            elif kind == "duplicate":
                lines.insert(i, lines[i])
            elif kind == "swap":
                j = args[1] % len(lines)
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines[i] = args[1]
            data = b"\n".join(lines)
    return data


# -- the properties --------------------------------------------------------------------------------------------


@FUZZ
@given(data=st.binary(max_size=3000), lazy=st.booleans())
def test_random_bytes(data: bytes, lazy: bool, scratch: Path) -> None:
    EXAMPLES["random bytes"] += 1
    exercise(data, scratch, lazy=lazy)


@FUZZ
@given(data=jsonl_files(), lazy=st.booleans())
def test_random_json_lines(data: bytes, lazy: bool, scratch: Path) -> None:
    EXAMPLES["random JSON lines"] += 1
    exercise(data, scratch, lazy=lazy)


@FUZZ
@given(plan=ops, changes=mutations, lazy=st.booleans())
def test_mutated_valid_sessions(plan: list[tuple], changes: list[tuple], lazy: bool, scratch: Path) -> None:
    EXAMPLES["mutated sessions"] += 1
    valid = build_valid(plan)
    exercise(valid, scratch, lazy=lazy)
    exercise(mutate(valid, changes), scratch, lazy=lazy)


@FUZZ
@given(header=headers, lines=st.lists(entries, max_size=20))
def test_migration_of_any_lines(header: dict, lines: list[dict]) -> None:
    EXAMPLES["migrations"] += 1
    if not isinstance(header.get("id"), str):
        header["id"] = "s"
    migrated = [header, *lines]
    ours(lambda: migrate(migrated))
    again = orjson.loads(orjson.dumps(migrated))
    assert ours(lambda: migrate(again)) in (False, None)  # migrating twice changes nothing more


@FUZZ
@given(lines=st.lists(entries, max_size=25), leaf=st.sampled_from([None, ..., *IDS]))
def test_tree_path_and_context_of_any_entries(lines: list[dict], leaf: Any) -> None:
    EXAMPLES["index and context"] += 1
    index = SessionIndex()
    for number, entry in enumerate(lines, start=2):
        ours(lambda: index.add(Slot(number, -1, -1, entry)))
    ours(index.tree)
    for entry_id in [*IDS, None]:
        ours(lambda: index.path(entry_id))
        ours(lambda: index.children(entry_id))
    ours(lambda: build_session_context(lines) if leaf is ... else build_session_context(lines, leaf))
