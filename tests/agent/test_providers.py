"""A model's streamed tool-call arguments, parsed when the call ends."""

from __future__ import annotations

import pytest

from pi_compact.agent.providers import _parse_json


@pytest.mark.parametrize("depth", [2_000, 20_000])
def test_arguments_nested_past_python_s_recursion_are_no_crash(depth: int) -> None:
    # deeper than the store writes in any case: the call's arguments are dropped, the writer's rule is not reached
    assert _parse_json('{"path": ' + "[" * depth + "]" * depth + "}") == {}


@pytest.mark.parametrize(("raw", "parsed"), [("", {}), ('{"path": "a.py"}', {"path": "a.py"}), ("[1]", {}),
                                             ('{"path": ', {})])
def test_arguments_parse_to_an_object_or_nothing(raw: str, parsed: dict) -> None:
    assert _parse_json(raw) == parsed
