"""Line bytes, timestamps and ids exactly as pi (JavaScript) produces them.

Every expected value below was produced by node 20 (``JSON.stringify``, ``new Date(x).getTime()``).
"""

from __future__ import annotations

import json
import math
import re
import time
import uuid

from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.store import jsonl
from pi_compact.store.jsonl import dumps, dumps_line, iso_to_ms, js_number, js_trim, new_entry_id, new_session_id
from sessions_fixtures import PI_DIR

PI_FIXTURES = PI_DIR

USER_ENTRY = {
    "type": "message",
    "id": "a1b2c3d4",
    "parentId": None,
    "timestamp": "2025-01-01T00:00:00.000Z",
    "message": {"role": "user", "content": "héllo — 日本語 😀", "timestamp": 1735689600000},
}
ASSISTANT_ENTRY = {
    "type": "message",
    "id": "b1b2c3d4",
    "parentId": "a1b2c3d4",
    "timestamp": "2025-01-01T00:00:01.000Z",
    "message": {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "ok"},
            {"type": "toolCall", "id": "t1", "name": "bash", "arguments": {"command": 'ls -la "x"\n'}},
        ],
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": "claude",
        "usage": {
            "input": 10,
            "output": 5,
            "cacheRead": 0,
            "cacheWrite": 0.0,
            "totalTokens": 15,
            "cost": {"input": 0.00003, "output": 0.000075, "cacheRead": 0.0, "cacheWrite": 0, "total": 0.000105},
        },
        "stopReason": "toolUse",
        "errorMessage": None,
        "timestamp": 1735689601000,
    },
}
CUSTOM_ENTRY = {
    "type": "custom",
    "customType": "ext",
    "data": {"n": 1.5, "deep": [None, True, False, -0.0, 1e21, 1e-7, 0.000001]},
    "id": "c1b2c3d4",
    "parentId": "b1b2c3d4",
    "timestamp": "2025-01-01T00:00:02.000Z",
}
CONTROL_ENTRY = {
    "type": "message",
    "id": "d1",
    "parentId": "c1",
    "timestamp": "t",
    "message": {
        "role": "toolResult",
        "content": [{"type": "text", "text": "tab\there\x01\x1f\x7f\u2028</script>\\"}],
        "isError": False,
    },
}


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            USER_ENTRY,
            '{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z",'
            '"message":{"role":"user","content":"héllo — 日本語 😀","timestamp":1735689600000}}',
        ),
        (
            ASSISTANT_ENTRY,
            '{"type":"message","id":"b1b2c3d4","parentId":"a1b2c3d4","timestamp":"2025-01-01T00:00:01.000Z",'
            '"message":{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"toolCall","id":"t1",'
            '"name":"bash","arguments":{"command":"ls -la \\"x\\"\\n"}}],"api":"anthropic-messages",'
            '"provider":"anthropic","model":"claude","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,'
            '"totalTokens":15,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0,'
            '"total":0.000105}},"stopReason":"toolUse","errorMessage":null,"timestamp":1735689601000}}',
        ),
        (
            CUSTOM_ENTRY,
            '{"type":"custom","customType":"ext","data":{"n":1.5,"deep":[null,true,false,0,1e+21,1e-7,0.000001]},'
            '"id":"c1b2c3d4","parentId":"b1b2c3d4","timestamp":"2025-01-01T00:00:02.000Z"}',
        ),
        (
            CONTROL_ENTRY,
            '{"type":"message","id":"d1","parentId":"c1","timestamp":"t","message":{"role":"toolResult",'
            '"content":[{"type":"text","text":"tab\\there\\u0001\\u001f\x7f\u2028</script>\\\\"}],"isError":false}}',
        ),
    ],
    ids=["user-non-ascii-raw", "assistant-null-kept-float-zero", "custom-fields-first-numbers", "control-chars"],
)
def test_line_bytes_match_json_stringify(entry, expected):
    assert dumps_line(entry) == expected.encode("utf-8") + b"\n"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (-1.0, "-1"),
        (123.0, "123"),
        (0.1, "0.1"),
        (0.1 + 0.2, "0.30000000000000004"),
        (0.00001, "0.00001"),
        (0.000001, "0.000001"),
        (1.5e-6, "0.0000015"),
        (1e-7, "1e-7"),
        (2.5e-8, "2.5e-8"),
        (1e15, "1000000000000000"),
        (1e16, "10000000000000000"),
        (1.5e16, "15000000000000000"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (5e-324, "5e-324"),
        (float("nan"), "null"),
        (float("inf"), "null"),
        (float("-inf"), "null"),
    ],
    ids=lambda v: repr(v) if isinstance(v, float) else None,
)
def test_numbers_are_written_as_javascript_writes_them(value, expected):
    assert dumps(value) == expected.encode()
    assert dumps([value]) == f"[{expected}]".encode()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("\ud83d", '"\\ud83d"'),
        ({"a": "x\udc00y", "b": 1.0, "c": float("nan")}, '{"a":"x\\udc00y","b":1,"c":null}'),
    ],
    ids=["lone-high-surrogate", "lone-low-surrogate-with-numbers"],
)
def test_lone_surrogates_are_escaped_as_javascript_does(value, expected):
    assert dumps(value) == expected.encode("utf-8")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b'{"text":"cut \\ud83d here"}', b'{"text":"cut \\ud83d here"}'),
        (b'{"text":"\\ud83d\\ude00 \\u00e9"}', '{"text":"\U0001f600 \u00e9"}'.encode()),
    ],
    ids=["lone-surrogate-kept-escaped", "escaped-pair-and-bmp-written-raw"],
)
def test_escapes_read_from_a_pi_file_are_written_back_as_pi_would(line, expected):
    assert dumps(json.loads(line)) == expected


@pytest.mark.parametrize("name", ["before-compaction.v1.jsonl", "large-session.v1.jsonl"])
def test_every_line_pi_wrote_reads_and_writes_back_byte_for_byte(name):
    lines = (PI_FIXTURES / name).read_bytes().splitlines()
    assert len(lines) > 1000
    assert [dumps(orjson.loads(raw)) for raw in lines] == lines


@pytest.mark.parametrize("depth", [254, 300, 600], ids=["orjson", "beyond-orjson", "deep"])
def test_deeply_nested_values_are_written(depth):
    value: object = 1.0
    for _ in range(depth):
        value = [value]
    assert dumps(value) == b"[" * depth + b"1" + b"]" * depth


def test_a_value_too_deep_for_python_is_refused_with_a_value_error():
    value: object = 1
    for _ in range(5000):
        value = {"a": value}
    with pytest.raises(ValueError, match="nested too deeply"):
        dumps(value)


def test_values_that_need_no_change_are_not_copied():
    assert jsonl._js_numbers(USER_ENTRY) is USER_ENTRY


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_js_number_round_trips_and_matches_orjson_digits(value):
    text = js_number(value)
    assert float(text) == value
    if value != 0:
        assert orjson.loads(orjson.dumps(value)) == float(text)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats() | st.text(),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
        max_leaves=20,
    )
)
def test_dumps_reads_back_as_the_same_value(value):
    back = orjson.loads(dumps(value))
    assert _same(back, value)


def _same(back, value) -> bool:
    if isinstance(value, float) and not math.isfinite(value):
        return back is None
    if isinstance(value, list):
        return len(back) == len(value) and all(_same(b, v) for b, v in zip(back, value))
    if isinstance(value, dict):
        return list(back) == list(value) and all(_same(back[k], v) for k, v in value.items())
    if isinstance(value, float):
        return float(back) == value  # JavaScript reads every number as a double
    return back == value and type(back) is type(value)


# -- timestamps --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2025-01-01T00:00:00.000Z", 1735689600000),
        ("2025-01-01T00:00:00Z", 1735689600000),
        ("2025-01-01T00:00Z", 1735689600000),
        ("2025-01-01T00:00:00.5Z", 1735689600500),
        ("2025-01-01T00:00:00.123456Z", 1735689600123),
        ("2025-01-01T00:00:00.999999999999Z", 1735689600999),
        ("2025-01-01t00:00:00z", 1735689600000),
        ("2025-01-01T01:00:00+01:00", 1735689600000),
        ("2025-06-15T12:30:45.678-07:30", 1750017645678),
        ("2025-01-01T00:00:00.000+23:59", 1735603260000),
        ("2025-01-01", 1735689600000),
        ("2025-01", 1735689600000),
        ("2025", 1735689600000),
        ("2025T00:00Z", 1735689600000),
        ("2025-02-30T00:00:00Z", 1740873600000),
        ("2025-01-01T24:00:00Z", 1735776000000),
        ("1970-01-01T00:00:00.000Z", 0),
        ("1969-12-31T23:59:59.999Z", -1),
        ("0000-01-01T00:00:00Z", -62167219200000),
        ("-000001-01-01T00:00:00Z", -62198755200000),
        ("+275760-09-13T00:00:00.000Z", 8640000000000000),
        ("9999-12-31T23:59:59.999Z", 253402300799999),
        (" 2025-01-01T00:00:00Z ", None),
        ("2025-13-01T00:00:00Z", None),
        ("2025-02-32T00:00:00Z", None),
        ("2025-00-01", None),
        ("2025-01-01T24:00:01Z", None),
        ("2025-01-01T23:60:00Z", None),
        ("2025-01-01T00:00:60Z", None),
        ("2025-01-01T00:00:00.Z", None),
        ("2025-01-01T00:00:00,5Z", None),
        ("2025-01-01T00Z", None),
        ("2025-01-01TZ", None),
        ("2025-01-01T5:00:00Z", None),
        ("2025-01-01T00:00:00.000+24:00", None),
        ("20250101T000000Z", None),
        ("-000000-01-01T00:00:00Z", None),
        ("+275760-09-13T00:00:00.001Z", None),
        ("", None),
        ("garbage", None),
        (1735689600000, 1735689600000),
        (1.7, 1),
        (-1.7, -1),
        (8.64e15, 8640000000000000),
        (8.64e15 + 1, None),
        (float("nan"), None),
        (True, 1),
        (None, None),
        ([], None),
    ],
    ids=repr,
)
def test_iso_to_ms_matches_javascript_date(value, expected):
    assert iso_to_ms(value) == expected


@pytest.fixture
def new_york(monkeypatch):
    """Run in a zone with DST, so local-time parsing is visible; the zone is restored afterwards."""
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2025-01-01T00:00", 1735707600000),
        ("2025-01-01T00:00:00.5", 1735707600500),
        ("2025-01-01T24:00", 1735794000000),
        ("2025-03-09T02:30:00", 1741505400000),
        ("2025-11-02T01:30:00", 1762061400000),
        ("2025-01-01", 1735689600000),
        ("2025-01-01T00:00:00Z", 1735689600000),
    ],
    ids=["date-time-is-local", "fraction", "hour-24", "dst-gap", "dst-overlap-earlier", "date-only-is-utc", "z"],
)
def test_iso_to_ms_date_time_without_offset_is_local_time(new_york, value, expected):
    assert iso_to_ms(value) == expected


def test_now_iso_has_javascripts_shape_and_is_now():
    text = jsonl.now_iso()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", text)
    assert abs(iso_to_ms(text) - jsonl.now_ms()) < 5_000


@pytest.mark.parametrize(
    ("text", "expected"),
    [("  name \n", "name"), ("\ufeffname\u00a0", "name"), ("\x1cname\x1f", "\x1cname\x1f"), ("\u3000", "")],
    ids=["ascii", "bom-and-nbsp-are-js-whitespace", "info-separators-are-not", "ideographic-space"],
)
def test_js_trim(text, expected):
    assert js_trim(text) == expected


# -- ids ---------------------------------------------------------------------------------------------------


def test_entry_ids_are_eight_lowercase_hex_and_avoid_taken_ones():
    taken: set[str] = set()
    for _ in range(2000):
        entry_id = new_entry_id(taken)
        assert re.fullmatch(r"[0-9a-f]{8}", entry_id)
        assert entry_id not in taken
        taken.add(entry_id)


def test_entry_id_falls_back_to_a_full_uuid_after_100_collisions(monkeypatch):
    fixed = uuid.UUID("12345678-1234-4234-8234-123456789abc")
    monkeypatch.setattr(jsonl.uuid, "uuid4", lambda: fixed)
    assert new_entry_id({"12345678"}) == str(fixed)


def test_session_ids_are_time_ordered_uuid7():
    first, second = new_session_id(), new_session_id()
    for value in (first, second):
        parsed = uuid.UUID(value)
        assert value == str(parsed) and parsed.version == 7 and parsed.variant == uuid.RFC_4122
        assert abs((parsed.int >> 80) - jsonl.now_ms()) < 5_000
    assert (uuid.UUID(first).int >> 80) <= (uuid.UUID(second).int >> 80)
