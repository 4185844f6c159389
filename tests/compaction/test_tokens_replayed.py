"""The token estimate on the draws that were under 0.9 of a real Claude tokenizer's count about once in 10,000
(issue 23.7, tok42), replayed: the scan that found them draws 10,000 texts of a family at sizes in a range from one
seeded generator, and every one of them must be held to 0.9 (anthropic-tokenizer, the oracle).

What makes them hold (pi_compact.compaction.token_bounds): a word after a space that no token holds adds an eighth
of a token beyond its two (``UNHELD_MARGIN``: a byte-pair tokenizer's merges seldom reach the fewest tokens, and
random words were 0.79-0.92 of their count even at the fewest); a run of punctuation beyond Latin-1 that touches
no other punctuation is a run of its own (``symbol_runs``: U+FFFD between a digit and a letter, which the run bound,
reading Latin-1, left out)."""

from __future__ import annotations

import random

import anthropic_tokenizer
import pytest

from pi_compact.compaction import token_bounds
from pi_compact.compaction.tokens import UNITS_PER_TOKEN, text_units

from .test_tokens_latin import FAMILIES as LATIN_FAMILIES
from .test_tokens_tiny import FAMILIES as TINY_FAMILIES

pytestmark = pytest.mark.usefixtures("draws_independent_of_other_modules")

FAMILIES = {**TINY_FAMILIES, **LATIN_FAMILIES}

SEED = 12345
DRAWS = 10_000


def least_draw(family: str, low: int, high: int) -> tuple[float, str]:
    """The least estimate/real of the scan's draws of a family (seeded: the same texts every run), with its text."""
    make = FAMILIES[family]
    rng = random.Random(SEED)
    least, worst = 9.0, ""
    for _ in range(DRAWS):
        value = make(rng, rng.randint(low, high))
        real = anthropic_tokenizer.count_tokens(value)
        if real and (ratio := text_units(value) / (UNITS_PER_TOKEN * real)) < least:
            least, worst = ratio, value
    return least, worst


@pytest.mark.parametrize("family, low, high", [
    ("markov order 1", 20, 40),  # ' irengla, owha iomofilyos': 0.875 before
    ("markov order 1", 1, 32),  # 'eafurvetim ommma k SON wacr ': 0.892
    ("cities", 1, 32),  # 'tongatapu hovd krasnoyars': 0.885
    ("accented syllables", 20, 40),  # 'wagugun oŉhoe ueran lo qa uut': 0.825, 'sueeouc nefum ragiotvǎc yu i': 0.882
    ("bytes as utf-8", 20, 40),  # '4\n\x1f}\x05i\x06o3\ufffdYd…': 0.878
])
def test_every_draw_of_the_scan_that_found_one_under_a_tenth_is_held(family, low, high) -> None:
    least, worst = least_draw(family, low, high)
    assert least >= 0.9, (least, worst)


@pytest.mark.parametrize("value", ["qyzylorda hawaii uct a", "athens hawaii kirov vevay ", " irengla, owha iomofilyos",
                                   "eafurvetim ommma k SON wacr ", "sueeouc nefum ragiotvǎc yu i"])
def test_random_words_measured_under_a_tenth_short_are_held(value) -> None:
    assert text_units(value) >= 0.9 * UNITS_PER_TOKEN * anthropic_tokenizer.count_tokens(value), repr(value)


def test_a_replacement_character_between_a_digit_and_a_letter_is_a_run_of_its_own() -> None:
    value = "4\n\x1f}\x05i\x06o3\ufffdYd\x16*\ufffd\x7f/_\x18y"
    assert token_bounds.symbol_runs(value) == 2  # the second touches '*', which no token joins to it: an end (tok47)
    assert token_bounds.symbol_runs("a\u2192b c\u2192\u2192d e.\u2192f") == 3  # no token joins '.' to '\u2192' (tok47)
    assert text_units(value) >= 0.9 * UNITS_PER_TOKEN * anthropic_tokenizer.count_tokens(value)


def test_an_unheld_word_costs_its_margin_beyond_its_tokens() -> None:
    assert token_bounds.unheld_words(b"x tha iok dey wachem") == 4
    assert token_bounds.unheld_words(b"x the and Ort wine Trout") == 0
    assert token_bounds.unheld_words("x nefum ragiotv\u01cec".encode("latin-1", "ignore")) == 2
