"""The extension's protocol on its own: one JSON request on stdin, one JSON response on stdout, versioned;
anything malformed gets a JSON error (code, one line) and exit status 2, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_compact.pi_extension import MIN_PROTOCOL, PROTOCOL_VERSION, serve_bytes
from pi_compact.pi_extension.protocol import REQUEST_TYPES

PI_COMPACT = Path(sys.executable).parent / "pi-compact"
ERROR_CODES = {"bad_request", "unknown_type", "protocol", "failed"}


def serve(request: object) -> tuple[dict, int]:
    raw = request if isinstance(request, bytes) else json.dumps(request).encode()
    return serve_bytes(raw)


def run_serve(raw: bytes, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(PI_COMPACT), "extension", "serve"], input=raw, capture_output=True, timeout=60,
                          env=env)


def test_version_names_the_package_the_protocols_and_the_requests() -> None:
    response, status = serve({"protocol": 1, "type": "version"})
    assert status == 0
    assert response["ok"] is True and response["protocol"] == PROTOCOL_VERSION and response["type"] == "version"
    assert response["protocols"] == [MIN_PROTOCOL, PROTOCOL_VERSION]
    assert response["requests"] == list(REQUEST_TYPES)
    assert response["version"] != "unknown"  # the installed distribution's version


def test_the_command_answers_one_json_line_on_stdout() -> None:
    done = run_serve(b'{"protocol": 1, "type": "version"}')
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.count(b"\n") == 1
    assert json.loads(done.stdout)["ok"] is True


@pytest.mark.parametrize(("raw", "code", "words"), [
    (b"", "bad_request", "empty request"),
    (b"   \n", "bad_request", "empty request"),
    (b"{not json", "bad_request", "not JSON"),
    (b'{"protocol": 1, "type": "version", "x": NaN}', "bad_request", "not JSON"),
    (b"\xff\xfe", "bad_request", "not JSON"),
    (b"[1, 2]", "bad_request", "must be a JSON object, got an array"),
    (b'"version"', "bad_request", "must be a JSON object, got a string"),
    (b'{"type": "version"}', "protocol", "no integer 'protocol'"),
    (b'{"protocol": "1", "type": "version"}', "protocol", "no integer 'protocol'"),
    (b'{"protocol": true, "type": "version"}', "protocol", "no integer 'protocol'"),
    (b'{"protocol": 99, "type": "version"}', "protocol", "upgrade pi-compact"),
    (b'{"protocol": 0, "type": "version"}', "protocol", "upgrade the extension"),
    (b'{"protocol": 1}', "unknown_type", "unknown request type None"),
    (b'{"protocol": 1, "type": "explode"}', "unknown_type", "'explode'"),
    (b'{"protocol": 1, "type": "compact"}', "bad_request", "no 'branchEntries'"),
    (b'{"protocol": 1, "type": "compact", "branchEntries": {}}', "bad_request", "branchEntries must be an array"),
    (b'{"protocol": 1, "type": "compact", "branchEntries": [1]}', "bad_request", "branchEntries[0] must be an object"),
    (b'{"protocol": 1, "type": "compact", "branchEntries": []}', "bad_request", "no 'preparation'"),
    (b'{"protocol": 1, "type": "compact", "branchEntries": [], "preparation": {}}', "bad_request",
     "preparation has no 'firstKeptEntryId'"),
    (b'{"protocol": 1, "type": "compact", "branchEntries": [{"id": "a"}], "preparation": {"firstKeptEntryId": "b"}}',
     "bad_request", "'b' is not on branchEntries"),
    (b'{"protocol": 1, "type": "compact", "branchEntries": [{"id": "a"}], "preparation": '
     b'{"firstKeptEntryId": "a", "tokensBefore": -3}}', "bad_request", "non-negative whole number"),
    (b'{"protocol": 1, "type": "compact", "branchEntries": [{"id": "a"}], "preparation": '
     b'{"firstKeptEntryId": "a", "settings": {"keepRecentTokens": 1.5}}}', "bad_request", "keepRecentTokens"),
    (b'{"protocol": 1, "type": "compact", "branchEntries": [{"id": "a"}], "preparation": '
     b'{"firstKeptEntryId": "a"}, "model": {"api": "openai-completions"}}', "bad_request", "request.model has no 'id'"),
    (b'{"protocol": 1, "type": "branch_summary"}', "bad_request", "no 'preparation'"),
    (b'{"protocol": 1, "type": "branch_summary", "preparation": {"entriesToSummarize": "x"}}', "bad_request",
     "entriesToSummarize must be an array"),
    (b'{"protocol": 1, "type": "recall", "query": "x"}', "bad_request", "no 'sessionFile'"),
    (b'{"protocol": 1, "type": "recall", "sessionFile": "/nonexistent/s.jsonl", "query": "  "}', "bad_request",
     "query is empty"),
    (b'{"protocol": 1, "type": "recall", "sessionFile": "/nonexistent/s.jsonl", "query": "x"}', "failed",
     "/nonexistent/s.jsonl"),
])
def test_a_malformed_request_gets_a_json_error(raw: bytes, code: str, words: str) -> None:
    response, status = serve(raw)
    assert status == 2
    assert response["ok"] is False and response["protocol"] == PROTOCOL_VERSION
    assert response["code"] == code
    assert words in response["error"] and "\n" not in response["error"]


def test_the_command_reports_a_malformed_request_without_a_traceback() -> None:
    done = run_serve(b'{"protocol": 1, "type": "compact", "branchEntries": 7}')
    assert done.returncode == 2
    response = json.loads(done.stdout)
    assert response["ok"] is False and response["code"] == "bad_request"
    assert done.stderr.decode() == f"pi-compact: error: {response['error']}\n"


def test_a_broken_settings_file_is_a_failed_request_not_a_crash(agent_folder: Path) -> None:
    (agent_folder / "settings.json").write_text("{broken")
    request = {"protocol": 1, "type": "compact", "branchEntries": [{"id": "a", "type": "message"}],
               "preparation": {"firstKeptEntryId": "a"}}
    response, status = serve(request)
    assert status == 2 and response["code"] == "failed"
    assert "cannot read settings" in response["error"]


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
_field_names = st.sampled_from(["branchEntries", "preparation", "model", "query", "sessionFile", "limit",
                                "customInstructions", "contextWindow", "fixedTokens", "deadlineSeconds", "cwd",
                                "firstKeptEntryId", "entriesToSummarize", "leafId", "branches"])


# the autouse agent_folder fixture (one per test, not per example) is only there to keep the user's settings out
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(REQUEST_TYPES), fields=st.dictionaries(_field_names, _json, max_size=6))
def test_any_request_of_a_known_type_gets_a_json_answer(kind: str, fields: dict) -> None:
    fields.pop("cwd", None)  # a random cwd could name a real project's settings
    response, status = serve({"protocol": 1, "type": kind, **fields})
    json.dumps(response)  # what the command prints
    assert response["protocol"] == PROTOCOL_VERSION
    if response["ok"]:
        assert status == 0 and response["type"] == kind
    else:
        assert status == 2 and response["code"] in ERROR_CODES and "\n" not in response["error"]


@settings(max_examples=100, deadline=None)
@given(raw=st.binary(max_size=64))
def test_any_bytes_get_a_json_answer(raw: bytes) -> None:
    response, status = serve(raw)
    assert response["protocol"] == PROTOCOL_VERSION and status in (0, 2)
    assert response["ok"] is (status == 0)
