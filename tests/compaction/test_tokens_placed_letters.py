"""Random lowercase letters are priced wherever they are placed (issue 23 item 7, tok52b): the consonant-run bound
(``tokens.cluster_units``) charged its runs only where they were dense over the whole text, so random letters or
random lowercase words (2-9 letters) placed in the middle or at the end of English, a tenth to a quarter of it, were
diluted below that density and fell back to the weights: 0.79-0.89 of the real count. Runs that are dense where they
are (``tokens.CLUSTER_DENSE`` within ``tokens.CLUSTER_WINDOW`` characters) are now charged wherever they are. Texts
are made up: sentences of common English words and random lowercase letters."""

from __future__ import annotations

import random
import string

import anthropic_tokenizer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction.tokens import UNITS_PER_TOKEN, text_units
from tests.compaction.test_tokens_placed import english
from tests.growth import growth

pytestmark = pytest.mark.usefixtures("draws_independent_of_other_modules")


def letters(rng: random.Random, size: int) -> str:
    """Random lowercase letters, ``size`` of them."""
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(size))


def random_words(rng: random.Random, size: int) -> str:
    """Random lowercase words of 2-9 letters between spaces, ``size`` characters."""
    out, length = [], 0
    while length < size:
        word = letters(rng, rng.randint(2, 9))
        out.append(word)
        length += len(word) + 1
    return " ".join(out)[:size]


RANDOM = {"letters": letters, "words": random_words}


def placed(rng: random.Random, kind: str, size: int, share: float, shape: str) -> str:
    """``size`` characters of English with ``share`` of them random: at the end (``tail``), in the middle
    (``middle``), or in four blocks spread through it (``blocks``)."""
    hard = int(size * share)
    make = RANDOM[kind]
    if shape == "tail":
        return english(rng, size - hard) + make(rng, hard)
    if shape == "middle":
        first = (size - hard) // 2
        return english(rng, first) + make(rng, hard) + english(rng, size - hard - first)
    parts = []
    for index in range(4):
        parts.append(english(rng, (size - hard) // 4))
        parts.append(make(rng, hard // 4) + " ")
    return "".join(parts)


def ratio(value: str) -> float:
    return text_units(value) / UNITS_PER_TOKEN / anthropic_tokenizer.count_tokens(value)


@pytest.mark.parametrize("shape", ["tail", "middle", "blocks"])
@pytest.mark.parametrize("size", [3_000, 30_000])
@pytest.mark.parametrize("kind", sorted(RANDOM))
def test_random_lowercase_placed_in_english_is_never_undercounted_by_more_than_a_tenth(kind, size, shape) -> None:
    for share in (0.05, 0.08, 0.1, 0.13, 0.17, 0.22, 0.3):
        for seed in range(2):
            value = placed(random.Random(f"{kind} {size} {shape} {share} {seed}"), kind, size, share, shape)
            assert ratio(value) >= 0.9, (share, seed, ratio(value))


_PART = st.tuples(st.sampled_from(["english", *RANDOM]), st.integers(20, 3000), st.integers(0, 2**32))


def _compose(parts) -> str:
    return " ".join((english if kind == "english" else RANDOM[kind])(random.Random(seed), size)
                    for kind, size, seed in parts)


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.tuples(st.just("english"), st.integers(300, 6000), st.integers(0, 2**32)), st.lists(_PART, min_size=1, max_size=6))
def test_any_composition_of_english_and_random_lowercase_is_never_undercounted_by_more_than_a_tenth(start, parts) -> None:
    value = _compose([start, *parts])
    assert ratio(value) >= 0.9, ([start, *parts], ratio(value))


def _english_with_runs(size: int):
    rng = random.Random(5)
    value = "".join(english(rng, 400) + " strengths http " for _ in range(size // 400))
    return lambda: text_units(value)


def _english_with_a_random_block(size: int):
    rng = random.Random(5)
    value = english(rng, size // 2) + random_words(rng, size // 8) + english(rng, size - size // 2 - size // 8)
    return lambda: text_units(value)


@pytest.mark.parametrize("what, build, n", [
    ("English with a few consonant runs every 400 characters", _english_with_runs, 8_000),
    ("English with a block of random words in the middle", _english_with_a_random_block, 8_000),
])
def test_reading_dense_runs_grows_linearly(what, build, n) -> None:
    found = growth(what, build, n, runs=3)
    assert found.linear, str(found)
