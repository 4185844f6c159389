"""The weight of each text is kept: a long replay estimates the same messages before every request and at every
compaction, and must weigh each text once, with the same figure as weighing it anew."""

from __future__ import annotations

import random
import string

import pytest

from pi_compact.compaction import tokens


@pytest.fixture
def weighed(monkeypatch) -> list[str]:
    """The texts weighed from now on (a fresh store of kept weights)."""
    monkeypatch.setattr(tokens, "_KNOWN", {})
    monkeypatch.setattr(tokens, "_KNOWN_CHARS", [0])
    seen: list[str] = []
    weigh = tokens.weigh_text

    def counted(text: str) -> int:
        seen.append(text)
        return weigh(text)

    monkeypatch.setattr(tokens, "weigh_text", counted)
    return seen


def _texts(count: int, size: int) -> list[str]:
    rng = random.Random(size)
    return ["".join(rng.choice(string.ascii_letters + " .\n{}") for _ in range(size)) + f" #{n}" for n in range(count)]


def test_a_message_estimated_again_is_not_weighed_again(weighed) -> None:
    message = {"role": "assistant", "content": [{"type": "text", "text": "x = 1\n" * 400},
                                                {"type": "toolCall", "name": "bash", "arguments": {"command": "ls"}}]}
    first = tokens.estimate_tokens(message)
    count = len(weighed)
    copy = {"role": "assistant", "content": [dict(block) for block in message["content"]]}  # equal text, new objects
    assert [tokens.estimate_tokens(message), tokens.estimate_tokens(copy)] == [first, first]
    assert len(weighed) == count


@pytest.mark.parametrize("size", [1, 40, 300, 5_000])
def test_a_kept_weight_is_the_weight_of_the_text(weighed, size) -> None:
    for text in _texts(20, size):
        assert tokens.text_units(text) == tokens.text_units(text) == tokens.weigh_text(text)


def test_the_kept_texts_stay_within_their_limit_the_oldest_dropped_first(weighed, monkeypatch) -> None:
    monkeypatch.setattr(tokens, "KNOWN_CHARS_LIMIT", 10_000)
    texts = _texts(100, 1_000)
    for text in texts:
        tokens.text_units(text)
        assert tokens._KNOWN_CHARS[0] == sum(map(len, tokens._KNOWN)) <= 10_000
    assert list(tokens._KNOWN) == texts[-len(tokens._KNOWN):]
    weighed.clear()
    tokens.text_units(texts[0])  # dropped: weighed again
    assert weighed == [texts[0]]


def test_a_huge_text_does_not_push_out_the_others(weighed, monkeypatch) -> None:
    monkeypatch.setattr(tokens, "KNOWN_CHARS_LIMIT", 10_000)
    texts = _texts(5, 1_000)
    for text in texts:
        tokens.text_units(text)
    huge = "y = 2\n" * 2_000
    assert tokens.text_units(huge) == tokens.weigh_text(huge)
    assert list(tokens._KNOWN) == texts
