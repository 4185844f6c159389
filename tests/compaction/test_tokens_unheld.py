"""A word after a space that no token holds whole is two tokens at least (issue 23.7 item 7, tok38): the run bound
counts a token per word, and a Markov chain of English letters at about 30 characters writes words of two and three
letters a tokenizer lacks (`` tha``, `` iok``, `` ort``) where it misses no word of four, so it was 0.82-0.89 of the
real count (anthropic-tokenizer, the oracle) about one time in 3,000. ``token_bounds.unheld_units`` counts them from
the tokenizer's own vocabulary (``token_tables.SHORT_WORDS``, the common words), so it is a lower bound on any text."""

from __future__ import annotations

import random
import re
import string

import anthropic_tokenizer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction import token_bounds
from pi_compact.compaction.token_tables import SHORT_WORDS
from pi_compact.compaction.tokens import UNITS_PER_TOKEN, text_units

from .test_tokens_markov import CITIES, markov
from .test_tokens_tiny import identifier

pytestmark = pytest.mark.usefixtures("draws_independent_of_other_modules")

MEASURED = [". tha iok te ane y an wine ios y", "Keeps. Trout kee of the lacis a", "nep wachem, then dey care char ort",
            "Pr tint ane cond cte be cr pee cherry yw"]
"""Markov chains of English letters of order 1 and 2 the scan of 10,000 draws per size found at 0.82-0.898 of the
real count before."""


@pytest.mark.parametrize("value", MEASURED)
def test_the_chains_measured_under_a_tenth_short_are_held(value) -> None:
    assert text_units(value) >= 0.9 * UNITS_PER_TOKEN * anthropic_tokenizer.count_tokens(value)


def test_the_short_words_are_every_word_of_two_or_three_letters_a_tokenizer_holds_after_a_space() -> None:
    held = set(SHORT_WORDS.split())
    spaced = re.compile(" ([a-z]{2,3}|[A-Z][a-z]{1,2})")
    vocabulary = {match[1] for index in range(anthropic_tokenizer.vocab_size())
                  if (match := spaced.fullmatch(anthropic_tokenizer.decode([index])))}
    assert held == vocabulary
    assert {"the", "and", "Ort"} <= held and not {"tha", "iok", "dey", "ort"} & held


FAMILIES = {
    "markov order 1": lambda rng, size: markov(rng, 1, size),
    "markov order 2": lambda rng, size: markov(rng, 2, size),
    "cities": lambda rng, size: " ".join(rng.choice(CITIES).capitalize() if rng.random() < 0.3 else rng.choice(CITIES)
                                         for _ in range(size // 6 + 1))[:size],
    "identifiers": identifier,
    "random words": lambda rng, size: " ".join("".join(rng.choice(string.ascii_lowercase)
                                                       for _ in range(rng.randint(2, 5))) for _ in range(size // 4 + 1)),
}


@pytest.mark.parametrize("family", FAMILIES.values(), ids=FAMILIES)
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(rng=st.randoms(use_true_random=False), size=st.integers(4, 300))
def test_every_word_counted_unheld_is_two_tokens_at_least_after_a_space(family, rng, size) -> None:
    latin = family(rng, size).encode("ascii")
    units = token_bounds.unheld_units(latin)
    prefix = latin[: token_bounds.PREFIX_CHARS]
    words = token_bounds._SPACED_WORD.findall(prefix)
    unheld = [word for word in words if anthropic_tokenizer.count_tokens(" " + word.decode()) >= 2]
    assert units <= len(unheld) * UNITS_PER_TOKEN


def test_a_word_the_prefix_cuts_is_not_read() -> None:
    # `` zq`` is no token, but here it is the start of a longer word the first characters cut off
    text = ("a " * (token_bounds.PREFIX_CHARS // 2 - 1) + "zqxv").encode("ascii")
    assert anthropic_tokenizer.count_tokens(" zq") >= 2
    assert text[token_bounds.PREFIX_CHARS - 2 : token_bounds.PREFIX_CHARS] == b"zq"
    assert token_bounds.unheld_units(text) == 0
    assert token_bounds.unheld_units(text[: token_bounds.PREFIX_CHARS]) == UNITS_PER_TOKEN


def test_a_word_written_as_a_tokenizer_holds_it_is_held() -> None:
    assert token_bounds.unheld_units(b"x the and Ort wine Trout") == 0
    assert token_bounds.unheld_units(b"x tha iok dey wachem") == 4 * UNITS_PER_TOKEN


@pytest.mark.parametrize("order", (1, 2))
def test_chains_of_thirty_characters_are_held(order) -> None:
    rng = random.Random(38)
    for _ in range(300):
        value = markov(rng, order, rng.randint(20, 40))
        assert text_units(value) >= 0.9 * UNITS_PER_TOKEN * anthropic_tokenizer.count_tokens(value), repr(value)
