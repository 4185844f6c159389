"""The content and role accessors answer for every shape a hand-edited file can hold, without raising."""

from __future__ import annotations

import pytest

from pi_compact.accessors import content_text, entry_role, json_strings, message_role


@pytest.mark.parametrize(
    ("content", "separator", "expected"),
    [
        ("plain", "", "plain"),
        ([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "", "ab"),
        ([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "\n", "a\nb"),
        ([{"type": "text", "text": "a"}, {"type": "image", "data": "x"}, {"type": "text", "text": "b"}], " ", "a b"),
        ([{"type": "text", "text": 7}, {"type": "text"}, "loose", None, {"type": "text", "text": "ok"}], "", "ok"),
        ([{"type": "thinking", "thinking": "hidden"}], "", ""),
        (None, "", ""),
        ({"type": "text", "text": "not a list"}, "", ""),
        (42, "", ""),
    ],
)
def test_content_text(content, separator, expected) -> None:
    assert content_text(content, separator) == expected


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"type": "message", "message": {"role": "user", "content": "hi"}}, "user"),
        ({"type": "message", "message": {"role": ["user"]}}, None),
        ({"type": "message", "message": None}, None),
        ({"type": "message"}, None),
        ({"type": "custom_message", "message": {"role": "user"}}, None),
        ("not an entry", None),
    ],
)
def test_entry_role(entry, expected) -> None:
    assert entry_role(entry) == expected


def test_message_role_is_a_string_or_nothing() -> None:
    assert message_role({"role": "toolResult"}) == "toolResult"
    assert message_role({"role": {"nested": 1}}) is None
    assert message_role([]) is None


@pytest.mark.parametrize(("value", "expected"), [
    ({"path": "a.py", "edits": [{"oldText": "x", "newText": "y"}], "n": 3, "ok": True}, ["a.py", "x", "y"]),
    ("s", ["s"]), (None, []), ([1, ["a", {"b": "c"}]], ["a", "c"]),
])
def test_json_strings_in_document_order(value, expected) -> None:
    assert json_strings(value) == expected


def test_json_strings_of_a_value_nested_past_the_recursion_limit() -> None:
    deep: object = "bottom"
    for _ in range(5000):
        deep = [deep]
    assert json_strings({"arguments": deep}) == ["bottom"]
