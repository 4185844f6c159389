"""The token estimate on shuffled text (issue 23.7): letters drawn with a language's own frequencies, run together or
cut into words of random lengths, are never below 0.9 of a real Claude tokenizer's count (anthropic-tokenizer, the
oracle). Their letters are as surprising one by one as the language's (English shuffled was 0.74-0.77 of the real
count, French 0.61-0.79, German 0.73-0.83, Russian 0.65-0.79): only which letter follows which gives them away
(pi_compact.compaction.token_bounds reads pairs of letters)."""

from __future__ import annotations

import anthropic_tokenizer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.token_corpus import shuffle_pools
from pi_compact.compaction.tokens import text_tokens

# every property is derandomized with no example database, and draws from hypothesis' own constants only (not
# from the source of whichever modules other test files imported): the same examples alone or in the suite
pytestmark = pytest.mark.usefixtures("draws_independent_of_other_modules")


LANGUAGES = shuffle_pools()


def shuffled(data, pool: str, size: int, spaced: bool) -> str:
    """``size`` letters drawn from ``pool``, run together or cut into words of 1-10 letters."""
    letters = "".join(data.draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size)))
    if not spaced:
        return letters
    lengths = data.draw(st.lists(st.integers(1, 10), min_size=size // 2, max_size=size // 2))
    words, start = [], 0
    for length in lengths:
        if start < size:
            words.append(letters[start : start + length])
            start += length
    return " ".join(words + ([letters[start:]] if start < size else []))


@pytest.mark.parametrize("pool", LANGUAGES.values(), ids=LANGUAGES)
@settings(max_examples=20, deadline=None, derandomize=True, database=None)
@given(data=st.data(), size=st.integers(1000, 3000), spaced=st.booleans())
def test_shuffled_text_of_a_language_is_never_undercounted_by_more_than_a_tenth(pool, data, size, spaced) -> None:
    value = shuffled(data, pool, size, spaced)
    assert text_tokens(value) >= 0.9 * anthropic_tokenizer.count_tokens(value)


def test_the_pools_hold_each_languages_letters() -> None:
    assert all(len(pool) >= 250 for pool in LANGUAGES.values())
    assert max(set(LANGUAGES["english"]), key=LANGUAGES["english"].count) == "e"
    assert max(set(LANGUAGES["russian"]), key=LANGUAGES["russian"].count) == "о"
