"""One depth rule for the writer, every reader and the converters (issue 13.5, issue 23.3).

The writer used to accept lines 4,000 levels deep while the context builder, the converters, search, replay
and the command line crashed from 300 levels on (``RecursionError``, orjson's 255 levels), and ``doctor`` saw
nothing wrong. Now the store writes no line deeper than ``MAX_DEPTH`` (a ``NestingTooDeepError``, one line on
the command line); a line written elsewhere that nests deeper is read with a placeholder below that level,
reported by line and entry, and nothing crashes on it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact import NestingTooDeepError, PiCompactError, Session
from pi_compact.convert import to_openai_chat, to_openai_responses
from pi_compact.store import depth as rule
from pi_compact.store.depth import CUT_MARK, MAX_DEPTH
from pi_compact.store.repair import repair
from pi_compact.store.scan import parse_line_depth
from pi_compact.store.paths import AGENT_DIR_ENV
from pi_compact.testing import FakeLLMServer, FakeReply
from tests.reliability.clirun import assert_clean_outcome, clean_env, run_forked

DEPTHS = [10, 50, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 150, 300, 1_000, 1_025, 2_000, 5_000]
"""Depths of a whole line (the entry object is level 1), on both sides of the rule and of every limit that
used to matter (orjson writes 255 levels and parses 1,024, Python recurses about 1,000 deep)."""


def nested_text(levels: int, kinds: str = "[{") -> str:
    """``levels`` containers, alternating the kinds given, around a string holding brackets of its own; built
    as text, since no JSON writer recurses this deep."""
    opening = "".join("[" if kinds[n % len(kinds)] == "[" else '{"k":' for n in range(levels))
    closing = "".join("]" if kinds[n % len(kinds)] == "[" else "}" for n in reversed(range(levels)))
    return opening + '"bottom [{ not a level"' + closing


def nested_value(levels: int) -> object:
    """``levels`` containers (objects and arrays in turn) around a string, built without recursion."""
    value: object = "bottom"
    for n in range(levels):
        value = [value] if n % 2 else {"k": value}
    return value


def entry_line(line_depth: int, entry_id: str, parent: str) -> bytes:
    """A custom entry whose line nests exactly ``line_depth`` levels (its ``data`` holds the rest)."""
    return (f'{{"type":"custom","customType":"deep","data":{nested_text(line_depth - 1)},"id":"{entry_id}",'
            f'"parentId":"{parent}","timestamp":"2025-01-01T00:00:01.000Z"}}\n').encode()


@pytest.fixture
def deep_file(tmp_path: Path):
    """A session whose middle line, written by someone else, nests ``line_depth`` levels; turns around it."""

    def make(line_depth: int) -> Path:
        path = tmp_path / f"deep-{line_depth}.jsonl"
        with Session.create_at(path, cwd=str(tmp_path)) as session:
            first = session.append_message({"role": "user", "content": "first turn", "timestamp": 1})
        with open(path, "ab") as out:
            out.write(entry_line(line_depth, "deadbeef", first["id"]))
        with Session.open(path) as session:
            session.move_leaf("deadbeef")
            session.append_message({"role": "user", "content": "last turn", "timestamp": 2})
        return path

    return make


def test_the_rule_is_one_module_the_writer_and_readers_share() -> None:
    assert rule.depth(orjson.loads(nested_text(7))) == 7 == rule.depth(nested_value(7))
    assert rule.depth("scalar") == 0 and rule.depth({}) == 1
    assert MAX_DEPTH < 255  # orjson writes 255 levels: every converter and request body has room to spare


@pytest.mark.parametrize("line_depth", DEPTHS)
def test_the_writer_accepts_exactly_what_the_rule_allows(tmp_path: Path, line_depth: int) -> None:
    path = tmp_path / "s.jsonl"
    data = nested_value(line_depth - 1)  # the entry object is the first level
    with Session.create_at(path, cwd="/p") as session:
        session.append_message({"role": "user", "content": "hi", "timestamp": 1})
        before = path.read_bytes()
        if line_depth > MAX_DEPTH:
            with pytest.raises(NestingTooDeepError, match=f"more than {MAX_DEPTH} levels") as raised:
                session.append_custom("deep", data)
            assert isinstance(raised.value, PiCompactError) and isinstance(raised.value, ValueError)
            assert path.read_bytes() == before
            return
        entry = session.append_custom("deep", data)
    reopened = Session.open(path)
    assert reopened.problems == []
    assert reopened.entry(entry["id"])["data"] == data


@pytest.mark.parametrize("line_depth", DEPTHS)
def test_a_line_from_elsewhere_opens_with_a_warning_and_the_tree_intact(deep_file, line_depth: int) -> None:
    session = Session.open(deep_file(line_depth))
    deep = session.entry("deadbeef")
    assert rule.depth(deep) == min(line_depth, MAX_DEPTH)
    if line_depth <= MAX_DEPTH:
        assert session.problems == []
        assert CUT_MARK not in json.dumps(deep)
    else:
        [problem] = session.problems
        assert (problem.kind, problem.line, problem.entry_id) == ("too_deep", 3, "deadbeef")
        assert f"nested {line_depth:,} levels" in problem.message
        assert CUT_MARK in json.dumps(deep)
    assert [m["content"] for m in session.build_context().messages] == ["first turn", "last turn"]


@pytest.mark.parametrize("line_depth", [MAX_DEPTH, MAX_DEPTH + 1, 1_000, 5_000])
def test_doctor_reports_the_line_and_entry_and_repair_keeps_its_bytes(deep_file, line_depth: int) -> None:
    data = deep_file(line_depth).read_bytes()
    diagnosis, repaired = repair(data)
    found = [(f.kind, f.severity, f.line, f.entry_id) for f in diagnosis.findings]
    assert found == ([("too_deep", "warning", 3, "deadbeef")] if line_depth > MAX_DEPTH else [])
    assert repaired.data.splitlines()[2] == data.splitlines()[2]  # never cut in the copy: a warning, not damage


@pytest.mark.parametrize("line_depth", [MAX_DEPTH + 1, 1_000, 5_000])
def test_a_big_file_read_lazily_reports_the_deep_line_when_it_is_parsed(tool_call_file, line_depth: int,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pi_compact.store.scan.EAGER_PARSE_BYTES", 0)  # as a file over 8 MB is read
    session = Session.open(tool_call_file(line_depth))
    assert session.problems == []  # nothing parsed yet: pi's lines are indexed from their first bytes
    messages = session.build_context().messages
    assert len(messages) == 18 and messages[-1]["content"][0]["text"].startswith("answer 7")
    assert rule.depth(session.entry("deadbeef")) == MAX_DEPTH
    assert [(p.kind, p.line, p.entry_id) for p in session.problems] == [("too_deep", 10, "deadbeef")]


def json_trees(max_leaves: int = 30):
    leaves = st.one_of(st.none(), st.integers(-10**6, 10**6), st.text("ab[]{}\"\\ ", max_size=6))
    return st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(st.text("kx[", max_size=2), inner, max_size=3)),
                        max_leaves=max_leaves)


@settings(max_examples=150, deadline=None)
@given(tree=json_trees(), padding=st.integers(0, 1_200), kinds=st.sampled_from(["[", "{", "[{", "{["]))
def test_reading_any_depth_cuts_at_the_rule_the_same_way_on_both_parsers(tree, padding: int, kinds: str) -> None:
    """Random values wrapped in ``padding`` more levels: the result never nests past the rule, keeps the value
    whole when it fits, and the fast path (orjson, up to 1,024 levels) and the text cut agree."""
    text = nested_text(padding, kinds).replace('"bottom [{ not a level"', json.dumps(tree))
    value, found = parse_line_depth(text.encode())
    original = padding + rule.depth(tree)
    assert rule.depth(value) == min(original, MAX_DEPTH)
    assert found == (original if original > MAX_DEPTH else 0)
    if original <= MAX_DEPTH:
        assert value == json.loads(text)
    cut, deepest = rule.cut_text(text)
    assert deepest == original and json.loads(cut) == value


@pytest.mark.parametrize("convert", [to_openai_chat, to_openai_responses])
def test_converters_refuse_deeper_arguments_built_in_memory_with_the_rule_s_error(convert) -> None:
    call = {"type": "toolCall", "id": "c1", "name": "ls", "arguments": nested_value(300)}
    messages = [{"role": "user", "content": "go", "timestamp": 1},
                {"role": "assistant", "content": [call], "api": "anthropic-messages", "provider": "anthropic",
                 "model": "m", "stopReason": "toolUse", "timestamp": 2}]
    with pytest.raises(NestingTooDeepError, match="tool call arguments"):
        convert(messages)


COMMANDS = [
    ("session", "show"), ("session", "tree"), ("session", "tree", "--json"), ("session", "context"),
    ("session", "context", "--json"), ("session", "info"), ("session", "search", "turn"),
    ("session", "compact", "--keep-recent", "0"), ("replay", "--window", "2000"),
]


@pytest.mark.parametrize("line_depth", [MAX_DEPTH + 1, 300, 1_000, 5_000])
def test_no_command_crashes_on_a_deep_line(tool_call_file, line_depth: int) -> None:
    path = tool_call_file(line_depth)
    for command in COMMANDS:
        run = run_forked(*command[:2], str(path), *command[2:]) if command[0] == "session" else \
            run_forked(command[0], str(path), *command[1:])
        assert_clean_outcome(run, 0)
        if command[1] in ("show", "context"):
            assert f"warning: line 10: nested {line_depth:,} levels".encode() in run.stderr, run.describe()
    doctor = run_forked("session", "doctor", "--json", str(path))
    assert_clean_outcome(doctor, 1)
    found = [(p["kind"], p["entryId"], p["line"]) for p in json.loads(doctor.stdout)["problems"]]
    assert found == [("too_deep", "deadbeef", 10)]


def test_chat_resumes_a_session_with_a_deep_line(tool_call_file, server: FakeLLMServer, tmp_path: Path) -> None:
    path = tool_call_file(1_000)
    server.push(FakeReply(text="Resumed fine."))
    run = subprocess.run([sys.executable, "-m", "pi_compact", "chat", "--session", str(path), "--base-url", server.url,
                          "--model", "claude-test", "--summarizer", "offline"], input=b"go on\n", capture_output=True,
                         timeout=120, env=clean_env(ANTHROPIC_API_KEY="test", **{AGENT_DIR_ENV: str(tmp_path / "a")}))
    assert run.returncode == 0 and b"Traceback" not in run.stderr + run.stdout, run.stderr[-600:]
    assert b"Resumed fine." in run.stdout
    sent = json.dumps(server.requests[-1].body)
    assert CUT_MARK in sent and "turn 7" in sent  # the cut call went out as read, with the turns after it


def test_a_model_s_too_deep_tool_call_is_refused_in_one_line_and_chat_goes_on(server: FakeLLMServer,
                                                                             tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    server.push(FakeReply(tool_calls=[{"id": "t1", "name": "ls", "arguments": {"path": nested_value(300)}}]),
                FakeReply(text="Second answer."))
    run = subprocess.run([sys.executable, "-m", "pi_compact", "chat", "--session", str(path), "--base-url", server.url,
                          "--model", "claude-test", "--summarizer", "offline"], input=b"first\nsecond\n",
                         capture_output=True, timeout=120,
                         env=clean_env(ANTHROPIC_API_KEY="test", **{AGENT_DIR_ENV: str(tmp_path / "a")}))
    output = run.stdout + run.stderr
    assert run.returncode == 0 and b"Traceback" not in output, output[-600:]
    assert f"more than {MAX_DEPTH} levels".encode() in output and b"Second answer." in output
    with Session.open(path) as session:
        assert session.problems == []
        assert all(rule.depth(e) <= MAX_DEPTH for e in session.entries())


@pytest.fixture
def tool_call_file(tmp_path: Path):
    """A conversation whose assistant called a tool with arguments nested so that the line is ``line_depth``
    deep (written by someone else), answered and followed by more turns."""

    def make(line_depth: int) -> Path:
        path = tmp_path / f"calls-{line_depth}.jsonl"
        with Session.create_at(path, cwd=str(tmp_path)) as session:
            for n in range(4):
                session.append_message({"role": "user", "content": f"turn {n} " + "x" * 400, "timestamp": n})
                session.append_message(_assistant(f"answer {n} " + "y" * 400))
            leaf = session.leaf_id
        arguments = nested_text(line_depth - 4, "{[")  # an object, below the entry, message, content, block
        line = ('{"type":"message","id":"deadbeef","parentId":"%s","timestamp":"2025-01-01T00:00:01.000Z",'
                '"message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"ls","arguments":%s}],'
                '"api":"anthropic-messages","provider":"anthropic","model":"m","stopReason":"toolUse","timestamp":9}}\n'
                % (leaf, arguments))
        with open(path, "ab") as out:
            out.write(line.encode())
        with Session.open(path) as session:
            session.move_leaf("deadbeef")
            session.append_message({"role": "toolResult", "toolCallId": "c1", "toolName": "ls",
                                    "content": [{"type": "text", "text": "a.txt"}], "isError": False, "timestamp": 10})
            for n in range(4, 8):
                session.append_message({"role": "user", "content": f"turn {n} " + "x" * 400, "timestamp": n})
                session.append_message(_assistant(f"answer {n} " + "y" * 400))
        return path

    return make


def _assistant(text: str) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": text}], "api": "anthropic-messages",
            "provider": "anthropic", "model": "m", "stopReason": "stop", "timestamp": 3}
