"""Properties of cassettes on generated input: any answer records and replays byte for byte, any request
body gets an answer or a mismatch (never a crash), and the diff names exactly what differs.

Requests go over raw HTTP (the standard library) to keep examples cheap; the SDK round trips are in
``test_cassette.py``.
"""

from __future__ import annotations

import http.client
import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pi_compact.compaction.redact import redact_secrets
from pi_compact.testing import FakeReply, fake_llm_server
from pi_compact.testing.cassette import diff_items
from pi_compact.testing.inputs import Item
from pi_compact.testing.wire import ROUTES

PATHS = {api: path for path, api in ROUTES.items()}
EXAMPLES = settings(max_examples=400 if os.environ.get("PI_COMPACT_FUZZ") else 30, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=80)
# A pi file keeps numbers as JavaScript does: an integral float (1.0, 1e16) is written, and replayed, as an integer.
floats = st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer())
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | floats | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=12,
)
tool_calls = st.lists(
    st.fixed_dictionaries({
        "id": st.from_regex(r"[A-Za-z0-9_-]{1,24}", fullmatch=True),
        "name": st.from_regex(r"[a-z_][a-z0-9_]{0,15}", fullmatch=True),
        "arguments": st.dictionaries(texts, json_values, max_size=3),
    }),
    max_size=2, unique_by=lambda call: call["id"],
)


def _post(url: str, path: str, body: Any) -> tuple[int, bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("POST", path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def _request(api: str, prompt: str, stream: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"model": "m", "stream": stream}
    if api == "responses":
        return dict(body, input=[{"role": "user", "content": prompt}])
    return dict(body, messages=[{"role": "user", "content": prompt}], max_tokens=10)


@EXAMPLES
@given(api=st.sampled_from(sorted(PATHS)), stream=st.booleans(), prompt=texts, text=texts, thinking=texts,
       calls=tool_calls)
def test_any_answer_replays_the_bytes_recorded(tmp_path_factory, api, stream, prompt, text, thinking, calls) -> None:
    shown = json.dumps([text, thinking, calls])
    assume(redact_secrets(shown) == shown)  # a redacted answer is meant to come back redacted
    path = tmp_path_factory.mktemp("cassette") / "c.jsonl"
    body = _request(api, prompt, stream)
    with fake_llm_server() as provider:
        provider.push(FakeReply(text=text, thinking=thinking, tool_calls=calls))
        with fake_llm_server(record=path, upstream=provider.url) as recorder:
            recorded = _post(recorder.url, PATHS[api], body)
        assert recorder.recorder is not None and recorder.recorder.errors == []
    with fake_llm_server(session=path) as replay:
        replayed = _post(replay.url, PATHS[api], body)
    assert replay.mismatches == []
    assert replayed == recorded and recorded[0] == 200


@EXAMPLES
@given(api=st.sampled_from(sorted(PATHS)), body=json_values)
def test_any_request_body_gets_an_answer_or_a_mismatch(tmp_path: Path, api: str, body: Any) -> None:
    from sessions_fixtures import BRANCHES

    with fake_llm_server(session=BRANCHES) as replay:
        status, raw = _post(replay.url, PATHS[api], body)
    assert status in (200, 400)
    assert (status == 400) == bool(replay.mismatches)
    if status == 400:
        assert replay.mismatches[0].message in json.loads(raw)["error"]["message"]


items = st.builds(Item, st.sampled_from(["user", "tool"]), texts, st.sampled_from([None, "call_1", "call_2"]))


@given(recorded=st.lists(items, max_size=5), before=st.lists(items, max_size=3))
def test_what_was_recorded_matches_also_after_more(recorded: list[Item], before: list[Item]) -> None:
    assert diff_items(recorded, recorded) is None
    assert diff_items(recorded, [*before, *recorded]) is None


@given(recorded=st.lists(items, min_size=1, max_size=5), data=st.data())
def test_a_changed_text_is_named_with_both_versions(recorded: list[Item], data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(recorded) - 1))
    item = recorded[index]
    changed = data.draw(texts.filter(lambda t: t != item.text))
    sent = [*recorded[:index], Item(item.kind, changed, item.call_id), *recorded[index + 1 :]]
    problem = diff_items(recorded, sent)
    assume(not (index == 0 and item.kind == "user" and changed.endswith("\n" + item.text)))
    assert problem is not None and problem.startswith(item.describe()[4:] + " differs: recorded ")
    assert len(problem) < 220 + len(item.describe())  # long texts are cut around the difference


@given(recorded=st.lists(items, min_size=1, max_size=5), cut=st.integers(1, 5))
def test_missing_inputs_are_named(recorded: list[Item], cut: int) -> None:
    sent = recorded[min(cut, len(recorded)):]
    problem = diff_items(recorded, sent)
    assert problem is not None and " is missing: recorded " in problem
