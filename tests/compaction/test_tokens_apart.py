"""The token estimate where the vocabulary proves a token ends between two characters the run bound reads as one run
(issue 23.7, tok47), never below 0.9 of a real Claude tokenizer's count (the oracle).

- U+FFFD (bytes read as UTF-8) next to ASCII punctuation: no token joins them (``token_tables.SYMBOL_JOINS``,
  ``PUNCT_JOINS``), so ``..\ufffd:`` is three tokens where the run bound, reading Latin-1, sees one run of ``..:``
  (``token_bounds.symbol_runs``).
- a word of random syllables that writes a modifier letter (``zeyʛc``): its ASCII stretches on either side of the
  letter are merged apart, as the tokenizer merges them (``token_bounds.mixed_cut_tokens``), where the cut bound read
  ASCII text only."""

from __future__ import annotations

import random
import string

import anthropic_tokenizer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction import token_bounds
from pi_compact.compaction.tokens import UNITS_PER_TOKEN, text_units

from .test_tokens_latin import MODIFIER, modifier_words

pytestmark = pytest.mark.usefixtures("draws_independent_of_other_modules")


def held(value: str) -> None:
    real = anthropic_tokenizer.count_tokens(value)
    assert text_units(value) >= 0.9 * UNITS_PER_TOKEN * real, (repr(value), text_units(value) / UNITS_PER_TOKEN, real)


@pytest.mark.parametrize("value", [
    "M\x10!\x05d'\x1em\x11.t7\ufffdxK\x00\x18..\ufffd:",  # 0.884 before: '..', '\ufffd', ':'
    "\u14c8\x05!a@\t\x1bXp)\ufffd\ufffdC7\ufffdv\ufffd;xA\x0b\x12q3s \x08",  # 0.889
])
def test_the_bytes_read_as_utf8_measured_under_a_tenth_short_are_held(value) -> None:
    held(value)


def test_a_replacement_character_ends_a_token_on_each_side_that_touches_punctuation() -> None:
    assert token_bounds.symbol_runs("..\ufffd:") == 2
    assert token_bounds.symbol_runs("a.\ufffd") == 1
    assert token_bounds.symbol_runs("'\ufffd\"") == 0  # a token may join a quote to part of a character
    assert token_bounds.symbol_runs("a\u201d.") == 0  # '”.' is a token


def punctuated(rng: random.Random) -> str:
    """Up to 32 pieces of dots, U+FFFD, control characters, other punctuation and a letter: what bytes read as UTF-8
    write where they are held lowest (control characters cut the text into pieces the run bound prices alone)."""
    return "".join(rng.choice([".", "..", "\ufffd", "\x05", "\x18", rng.choice(":;!?,"), "a"])
                   for _ in range(rng.randint(1, 32)))


def test_every_seeded_draw_of_replacement_characters_among_punctuation_is_held() -> None:
    # seven of these 3,000 draws were under 0.9 before (least 0.864: '\x18a;.a\x18\ufffda\x05\x05!\ufffda..a…')
    rng = random.Random(1)
    for _ in range(3000):
        held(punctuated(rng))


PUNCTUATION = st.sampled_from([".", "..", "...", ":", ";", "!", "?", ",", "(", ")", "-", "/", "#"])
CONTROL = st.sampled_from(["\x05", "\x18", "\x00", "\x1b"])


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(st.tuples(PUNCTUATION, st.sampled_from(["\ufffd", "\ufffd\ufffd"]), PUNCTUATION, CONTROL), min_size=1,
                max_size=6).map(lambda pieces: "".join(map("".join, pieces))))
def test_replacement_characters_inside_punctuation_between_control_characters_are_held(value) -> None:
    held(value)  # each piece is one run of punctuation to the run bound: '..\ufffd:' was one token, not three


@pytest.mark.parametrize("value", [
    "oagmabug yonw\u026c wanog o",  # 0.857 before: ' y', 'on', 'w', two of 'ɬ'
    "kantictac b\u02bfc wa saccu iot",  # 0.884
    "fecion zey\u029bc iepovac worunui gi",  # 0.891
    "sa ueghetfu calin sitye poo\u0263m j\u02b5",  # 0.881
    "wisonfuc nica\u0265ho\u02b5t ietfu n",  # 0.898
])
def test_the_modifier_syllables_measured_under_a_tenth_short_are_held(value) -> None:
    held(value)


def test_a_mixed_word_is_cut_into_its_stretches_merged_apart() -> None:
    assert token_bounds.mixed_cut_tokens("oagmabug yonw\u026c wanog o") == 8  # 4 + 2 (' yonw') + 2 (' wanog')
    assert token_bounds.mixed_cut_tokens("x caf\u00e9s") == token_bounds.mixed_cut_tokens("x")  # 'fé' is joined
    assert token_bounds.mixed_cut_tokens("x yonw\u026c\u03b1") == 0  # a Greek letter ends it: not read


def syllables(rng: random.Random, count: int) -> str:
    return "".join(rng.choice(string.ascii_lowercase) + rng.choice("aeiou") + rng.choice(["", rng.choice("nmtcgh")])
                   for _ in range(count))


def one_mixed_word(rng: random.Random) -> str:
    """Three words of random syllables and a short one that ends in a modifier letter (``aunhʫ``), in any order: the
    family of the draws above, where the words around the mixed one cost most."""
    words = [syllables(rng, rng.randint(2, 4)) for _ in range(3)]
    words.insert(rng.randint(0, 3), syllables(rng, 1) + rng.choice(string.ascii_lowercase) + rng.choice(MODIFIER))
    return " ".join(words)


def test_every_seeded_draw_of_words_beside_a_mixed_one_is_held() -> None:
    # two of these 2,000 draws were under 0.9 before (least 0.840: 'cimkacinam coranvigho aunhʫ cateam')
    for seed in range(2000):
        held(one_mixed_word(random.Random(seed)))


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 40))
def test_random_syllables_with_modifier_letters_are_held(seed, size) -> None:
    rng = random.Random(seed)
    held(modifier_words(rng, size))
    held(one_mixed_word(rng))
