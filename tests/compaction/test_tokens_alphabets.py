"""The token estimate on random letters of every alphabet (issue 23.7): never below 0.9 of a real Claude tokenizer's
count (anthropic-tokenizer, the oracle), whatever the alphabet, the share of vowels, the case or the length; and
the letter tables that tell random letters from a language (pi_compact.compaction.token_bounds) read every natural
class of the corpus as a language."""

from __future__ import annotations

import string

import anthropic_tokenizer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.token_corpus import UNLIKE, corpus
from pi_compact.compaction.token_bounds import ALPHABETS, alphabet_of, fold, letter_surprise, surprise_share
from pi_compact.compaction.token_tables import LETTER_COUNTS
from pi_compact.compaction.tokens import text_tokens

# every property is derandomized with no example database, and draws from hypothesis' own constants only (not
# from the source of whichever modules other test files imported): the same examples alone or in the suite
pytestmark = pytest.mark.usefixtures("draws_independent_of_other_modules")


def held(value: str) -> bool:
    return text_tokens(value) >= 0.9 * anthropic_tokenizer.count_tokens(value)


def _span(first: int, last: int) -> str:
    return "".join(map(chr, range(first, last + 1)))


LETTERS = {
    "cyrillic": _span(0x430, 0x44F) + "ё",
    "cyrillic capitals": _span(0x410, 0x42F) + "Ё",
    "greek": _span(0x3B1, 0x3C9),
    "greek capitals": _span(0x391, 0x3A1) + _span(0x3A3, 0x3A9),
    "armenian": _span(0x561, 0x586),
    "georgian": _span(0x10D0, 0x10F0),
    "hebrew": _span(0x5D0, 0x5EA),
    "arabic": _span(0x621, 0x63A) + _span(0x641, 0x64A),
    "devanagari": _span(0x915, 0x939),
    "latin": string.ascii_lowercase,
}
VOWELS = {"cyrillic": "аеёиоуыэюя", "latin": "aeiou"}
"""The alphabets random letters are drawn with a language's share of vowels from too (issue 23.7: English's 40%
was 0.60-0.80 of the real count past the first characters, Cyrillic's 43% 0.61)."""


def random_letters(data, alphabet: str, vowels: str, size: int) -> str:
    """``size`` letters of the alphabet, each drawn alike or, with ``vowels``, a vowel two times in five."""
    if not vowels:
        return "".join(data.draw(st.lists(st.sampled_from(alphabet), min_size=size, max_size=size)))
    consonants = [char for char in alphabet if char not in vowels]
    kinds = data.draw(st.lists(st.integers(0, 4), min_size=size, max_size=size))  # 0 and 1 of five: a vowel
    return "".join(data.draw(st.sampled_from(vowels if kind < 2 else consonants)) for kind in kinds)


def words(data, letters: str) -> str:
    """The letters cut into words of 1-9 letters by spaces."""
    cuts = sorted(data.draw(st.sets(st.integers(1, max(1, len(letters) - 1)), max_size=len(letters) // 2)))
    return " ".join(letters[start:end] for start, end in zip([0, *cuts], [*cuts, len(letters)]) if letters[start:end])


@pytest.mark.parametrize("alphabet", LETTERS.values(), ids=LETTERS)
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(data=st.data(), size=st.integers(1, 1200), spaced=st.booleans())
def test_random_letters_of_any_alphabet_are_never_undercounted_by_more_than_a_tenth(alphabet, data, size, spaced):
    # random Cyrillic was 0.56-0.62 of the real count at any length (a tokenizer knows Russian's letter sequences,
    # not random ones: a token a letter), capitals 0.43, Armenian 0.53, Hebrew, Arabic, Georgian 0.75-0.8
    letters = random_letters(data, alphabet, "", size)
    assert held(words(data, letters) if spaced else letters)


@pytest.mark.parametrize("alphabet", VOWELS, ids=VOWELS)
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(data=st.data(), size=st.integers(1, 3000), spaced=st.booleans())
def test_random_letters_with_a_languages_vowels_are_never_undercounted_by_more_than_a_tenth(alphabet, data, size,
                                                                                             spaced):
    # as many vowels as English, so no vowel rule sees them: the consonants a language writes seldom give them away
    letters = random_letters(data, LETTERS[alphabet], VOWELS[alphabet], size)
    assert held(words(data, letters) if spaced else letters)


@pytest.mark.parametrize("name", ["cyrillic", "greek"])
@pytest.mark.parametrize("split", ["calib", "holdout"])
def test_a_language_in_capitals_is_never_undercounted_by_more_than_a_tenth(name, split) -> None:
    # Russian in capitals is 1.14 tokens a letter (0.56 of it estimated), Greek 2.0 (0.68)
    assert held(corpus(split)[name].upper())


# -- the letter tables -----------------------------------------------------------------------------------------

NATURAL = {f"{name}.{split}": text for split in ("calib", "holdout") for name, text in corpus(split).items()
           if name not in UNLIKE and name not in ("base64", "hex")}


def _share(text: str, name: str) -> float:
    """How random the letters of an alphabet in a text read, from 0 to 1, the text read as the estimate reads it:
    its Latin-1 characters, or the low bytes of the alphabet's block (0 for any other character)."""
    block = ALPHABETS[name][0] >> 8
    letters = [char for char in text if alphabet_of(char) == name and ord(char) & 0xFF]
    if block == 0:
        data = text.encode("latin-1", "ignore")
    else:
        data = bytes(ord(char) & 0xFF if ord(char) >> 8 == block else 0 for char in text)
    numerator, denominator = surprise_share(letter_surprise(block), data, len(letters))
    return numerator / denominator


@pytest.mark.parametrize("name", NATURAL)
def test_every_natural_class_of_the_corpus_is_read_as_a_language(name) -> None:
    # a language's letters, on the half the tables were counted on and on the half they never saw: what makes
    # random letters cost more must leave natural text priced by its weights (the held-out Hebrew, 174 letters,
    # is read as a third random: a short text is doubted)
    text = NATURAL[name]
    for alphabet in ALPHABETS:
        if sum(alphabet_of(char) == alphabet for char in text) >= 150:
            assert _share(text, alphabet) <= 0.5, alphabet


@pytest.mark.parametrize("alphabet", ["cyrillic", "greek", "hebrew", "arabic", "georgian", "devanagari", "latin"])
def test_random_letters_of_a_few_hundred_are_read_as_random(alphabet) -> None:
    letters = (LETTERS[alphabet] * 20)[:600]  # every letter as often as the others
    assert _share(letters, alphabet) == 1


def test_letters_are_folded_to_lowercase_without_their_accents_within_their_block() -> None:
    assert [fold(char) for char in "EÉéΆЁйÅ"] == ["e", "e", "e", "α", "е", "и", "a"]
    assert fold("ǅ") == "ǆ" and alphabet_of("a") == "latin" and alphabet_of("ա") is None  # Armenian weighs its bytes
    assert alphabet_of("\u0301") is None and alphabet_of("ि") == "devanagari"  # a Greek-block combining mark; a sign


def test_the_letter_tables_hold_each_alphabet_of_the_calibration_half() -> None:
    for name, (first, _) in ALPHABETS.items():
        counts = LETTER_COUNTS[first >> 8]
        assert sum(counts.values()) >= 150, name
        assert all(alphabet_of(letter) == name and fold(letter) == letter for letter in counts), name
    assert max(LETTER_COUNTS[0x00], key=LETTER_COUNTS[0x00].get) == "e"
    assert max(LETTER_COUNTS[0x04], key=LETTER_COUNTS[0x04].get) == "о"
