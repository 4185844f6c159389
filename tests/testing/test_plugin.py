"""The pytest plugin, in a throw-away project run by ``pytester`` as a user would run it.

The project (whose tiny agent speaks Chat Completions with the standard library: the SDK round trips are
tested beside) has one agent test on a cassette, one on a scripted ``fake_llm`` and one on ``pi_session``,
and a ``pi_upstream`` fixture pointing at a fake server standing in for the provider. It is run by an inner
pytest (the plugin arrives through its ``pytest11`` entry point, warnings are errors) through the record
modes: without a cassette, recording it, replaying it with the provider changed, replaying after the agent
changed, re-recording. The recorded file is then read by the real pi, which must build the same context.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

from pi_compact import Session
from tests.conformance.jsoncmp import first_difference, normalise
from tests.conformance.pi_ref import pi_context

pytest_plugins = ["pytester"]

AGENT_TESTS = '''
import json
import os
import urllib.request

import pytest

from pi_compact.testing import FakeReply, fake_llm_server


@pytest.fixture(scope="session")
def provider():
    with fake_llm_server() as upstream:
        call = {"id": "call_1", "name": "bash", "arguments": {"command": "pytest -q"}}
        upstream.push(FakeReply(text="Running them.", tool_calls=[call]), FakeReply(text=os.environ["PROVIDER_TEXT"]))
        yield upstream


@pytest.fixture
def pi_upstream(provider):
    return provider.url


def chat(url, messages):
    body = json.dumps({"model": "gpt-test", "messages": messages}).encode()
    request = urllib.request.Request(url + "/v1/chat/completions", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["choices"][0]["message"]


def agent(url, prompt):
    messages = [{"role": "user", "content": prompt}]
    while True:
        message = chat(url, messages)
        if not message.get("tool_calls"):
            return message["content"]
        messages.append(message)
        messages += [{"role": "tool", "tool_call_id": c["id"], "content": "3 passed"} for c in message["tool_calls"]]


@pytest.mark.pi_cassette
def test_runs_the_tests(fake_llm):
    assert agent(fake_llm.url, os.environ.get("PROMPT", "Run the tests")) == os.environ["EXPECT"]


def test_scripted(fake_llm):
    fake_llm.push(FakeReply(text="scripted"))
    assert agent(fake_llm.url, "anything") == "scripted"


def test_fresh_session(pi_session, tmp_path):
    pi_session.append_message({"role": "user", "content": "hi", "timestamp": 0})
    assert pi_session.path == tmp_path / "session.jsonl" and pi_session.path.exists()
'''


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makeini("[pytest]\nfilterwarnings = error\n")
    pytester.makepyfile(test_agent=AGENT_TESTS)
    monkeypatch.setenv("PROVIDER_TEXT", "All 3 tests pass.")
    monkeypatch.setenv("EXPECT", "All 3 tests pass.")
    return pytester


def _run(project: pytest.Pytester, *args: str) -> pytest.RunResult:
    return project.runpytest_inprocess("-p", "no:cacheprovider", *args)


def test_the_plugin_is_an_entry_point_and_loaded_here(pytestconfig: pytest.Config) -> None:
    [entry] = [e for e in importlib.metadata.entry_points(group="pytest11") if e.name == "pi_compact"]
    assert entry.value == "pi_compact.pytest_plugin"
    assert pytestconfig.pluginmanager.has_plugin("pi_compact")


def test_the_plugin_imports_nothing_heavy_until_a_fixture_is_used() -> None:
    code = ("import sys, pi_compact.pytest_plugin; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pi_compact', 'anthropic', 'openai')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['pi_compact', 'pi_compact.errors', 'pi_compact.pytest_plugin']"


def test_record_modes_in_a_throw_away_project(project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    cassette = project.path / "cassettes" / "test_agent" / "test_runs_the_tests.jsonl"

    missing = _run(project)  # default none: replay only, and there is nothing to replay
    missing.assert_outcomes(passed=2, errors=1)
    missing.stdout.fnmatch_lines(["*no cassette*test_runs_the_tests.jsonl: record it with --pi-record=once*"])

    _run(project, "--pi-record=once").assert_outcomes(passed=3)
    assert [m["role"] for m in Session.open(cassette).build_context().messages] == [
        "user", "assistant", "toolResult", "assistant"]

    monkeypatch.setenv("PROVIDER_TEXT", "The provider changed its mind.")
    _run(project, "--pi-record=once").assert_outcomes(passed=3)  # once: the cassette exists, the provider is not asked

    monkeypatch.setenv("PROMPT", "Run the tests, please")
    changed = _run(project)  # the agent's HTTP error fails the test, the mismatch its teardown
    changed.assert_outcomes(passed=2, failed=1, errors=1)
    changed.stdout.fnmatch_lines(["*the requests did not match the cassette *test_runs_the_tests.jsonl:",
                                  "  request 1: user message differs: recorded 'Run the tests', sent 'Run the tests, please'"])

    monkeypatch.setenv("EXPECT", "The provider changed its mind.")
    _run(project, "--pi-record=all").assert_outcomes(passed=3)  # a new branch from the root, now the path replayed
    recorded = Session.open(cassette)
    assert len([e for e in recorded.entries() if e.get("parentId") is None]) == 2
    assert recorded.build_context().messages[-1]["content"] == [{"type": "text", "text": "The provider changed its mind."}]


def test_recording_needs_a_provider(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_one="import pytest\n\n@pytest.mark.pi_cassette('c.jsonl')\n"
                                  "def test_one(fake_llm):\n    pass\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--pi-record=once")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*recording *c.jsonl (--pi-record=once) needs a provider: --pi-upstream URL*"])


def test_a_recorded_cassette_opens_in_pi_with_the_same_context(project: pytest.Pytester) -> None:
    _run(project, "--pi-record=once").assert_outcomes(passed=3)
    cassette = project.path / "cassettes" / "test_agent" / "test_runs_the_tests.jsonl"
    ours = normalise(Session.open(cassette).build_context().to_json())
    theirs = pi_context(cassette)
    assert first_difference(ours, theirs) is None
    assert [m["role"] for m in theirs["messages"]] == ["user", "assistant", "toolResult", "assistant"]
    assert theirs["messages"][-1]["content"] == [{"type": "text", "text": "All 3 tests pass."}]


@pytest.mark.parametrize(
    ("mode", "exists", "expected"),
    [
        ("none", True, "replay"),
        ("none", False, "no cassette"),
        ("once", True, "replay"),
        ("once", False, "record"),
        ("new_episodes", True, "replay+record"),
        ("new_episodes", False, "record"),
        ("all", True, "record"),
        ("rewrite", False, "record"),
    ],
)  # fmt: skip
def test_record_modes_follow_vcrpy(tmp_path: Path, mode: str, exists: bool, expected: str) -> None:
    from pi_compact.pytest_plugin import _cassette_options

    path = tmp_path / "c.jsonl"
    if exists:
        path.write_text("{}\n")
    if expected == "no cassette":
        with pytest.raises(pytest.fail.Exception, match="no cassette"):
            _cassette_options(path, mode, "http://127.0.0.1:9", {"match": "loose"})
        return
    options = _cassette_options(path, mode, "http://127.0.0.1:9", {"match": "loose"})
    kinds = {"session": "replay", "record": "record"}
    assert "+".join(kinds[k] for k in ("session", "record") if k in options) == expected
    assert options.get("match", "loose") == "loose" and options.get("upstream", "http://127.0.0.1:9") == "http://127.0.0.1:9"
