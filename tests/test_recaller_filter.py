"""The byte filter of a big session's search (:func:`pi_compact.recaller.line_filter`): it may let a line through
that does not match, never hold back one that does, whatever the text, the query, or how the line is escaped."""

from __future__ import annotations

import json

import orjson
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pi_compact.recaller import _entry_text, _matcher, line_filter

SPECIAL = "ßſKİﬁﬀẞǰŉ\u2028\"\\/\n\t\x00é中😀"
"""Characters whose case folding or JSON escaping differ from their bytes (folding to ASCII, escapes)."""
texts = st.text(alphabet=st.one_of(st.characters(codec="utf-8"), st.sampled_from(SPECIAL)), max_size=60)


def _lines(entry: dict) -> list[bytes]:
    """The entry as pi writes it, and as other writers may (every non-ASCII character as a \\u escape, '/' as '\\/')."""
    pi_like = orjson.dumps(entry)
    escaped = json.dumps(entry, ensure_ascii=True, separators=(",", ":")).encode()
    return [pi_like, escaped, escaped.replace(b"/", b"\\/")]


def _entries(text: str, number: float) -> list[dict]:
    user = {"type": "message", "id": "a", "parentId": None, "timestamp": "t",
            "message": {"role": "user", "content": text, "timestamp": 1}}
    call = {"type": "message", "id": "b", "parentId": "a", "timestamp": "t", "message": {
        "role": "assistant", "content": [{"type": "toolCall", "id": "c", "name": "read",
                                          "arguments": {"path": text, "offset": number}}]}}
    bash = {"type": "message", "id": "d", "parentId": "b", "timestamp": "t",
            "message": {"role": "bashExecution", "command": text, "output": text.upper()}}
    return [user, call, bash]


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, start=st.integers(0, 60), length=st.integers(1, 20), number=st.floats(allow_nan=False, allow_infinity=False),
       upper=st.booleans())
@example(text="Straße", start=0, length=6, number=1.0, upper=True)  # STRASSE: case folding grows the text
@example(text="ſtop", start=0, length=4, number=1500.0, upper=False)  # long s folds to an ASCII s
@example(text="x", start=0, length=1, number=1.5e3, upper=False)
def test_a_line_whose_text_matches_is_never_filtered_out(text, start, length, number, upper):
    for entry in _entries(text, number):
        whole = _entry_text(entry)
        query = whole[start : start + length]
        query = query.upper() if upper else query
        if not query.strip():
            continue
        if _matcher(query.strip())(whole) is None:
            continue
        for raw in _lines(entry):
            assert line_filter(query.strip())(raw), (query, raw)


@given(words=st.lists(st.text(alphabet="bfhjkvwx", min_size=2, max_size=6), min_size=1, max_size=3))  # not in the keys
def test_a_line_without_the_words_is_left_out(words):
    query = " ".join(words)
    raw = orjson.dumps({"type": "message", "id": "a", "parentId": None, "timestamp": "t",
                        "message": {"role": "user", "content": "zzz qqq", "timestamp": 1}})
    assert not line_filter(query)(raw)  # the filter does rule lines out: it is not always true
