"""What lies between control characters is priced as the tokenizer cuts it (issue 23.7 item 7, tok48): the control
bound (``token_bounds.control_units``) counted each piece between two control characters by its runs alone, so
ASCII punctuation there (a run the tokenizer cuts where natural text never writes the pair: ``|]>{]`` is four
tokens) and two whitespace characters before one (``\\t\\t\\x1f`` is three tokens: the last one is split off, as two
spaces were) came out short. Seeded scans of 20,000 draws of 1-32 characters found 323 draws of control characters
and punctuation and 1,267 of control characters and whitespace under 0.9 of the real count before (0.72 at worst),
none now."""

from __future__ import annotations

import string

import anthropic_tokenizer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction import token_bounds
from pi_compact.compaction.tokens import UNITS_PER_TOKEN, text_units

pytestmark = pytest.mark.usefixtures("draws_independent_of_other_modules")

CONTROLS = "".join(map(chr, token_bounds.CONTROLS)) + "\x00"
WHITESPACE = " \t\n\r\x0c"

MEASURED = ["|]>{]\x05\x05\x05[>\x05~}\x05",
            "\x18(/<-/\x05\x18\"~'\x15\"\x00\x15\x03",
            ",\x1e[<}{'\"~\x00\\=\x07\x05'\x0f!",
            "\x1f\"\x08\x7f.`>\x15\"`|{/]]'\\\"\x07<|\x1f\x04-\"",
            "\x1f \r\x1d\t\r\r\x14\t\r\t\t\x1f \t\x1f\x18 \x18 \x19",
            "\r\t\r  \x0e\x01\x11\x0f\t \x16\t\x15\x01 ",
            "\x03\t  \x0f\x02\t\n \r\t  \x00\x7f\x0f\x02\n\x19\x00",
            "\t\t\x12\x07 \n\x13\x11\x17\x14 \x14\x1c"]
"""Draws of the seeded scans (control characters with punctuation, and with whitespace) at 0.72-0.85 before."""


def held(value: str) -> None:
    assert text_units(value) >= 0.9 * UNITS_PER_TOKEN * anthropic_tokenizer.count_tokens(value), repr(value)


@pytest.mark.parametrize("value", MEASURED)
def test_the_draws_measured_under_a_tenth_short_are_held(value) -> None:
    held(value)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.text(st.sampled_from(CONTROLS + string.punctuation), min_size=1, max_size=64))
def test_punctuation_between_control_characters_is_never_undercounted_by_more_than_a_tenth(value) -> None:
    held(value)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.text(st.sampled_from(CONTROLS + WHITESPACE), min_size=12, max_size=40))
def test_whitespace_between_control_characters_is_never_undercounted_by_more_than_a_tenth(value) -> None:
    held(value)


@pytest.mark.parametrize("pair", [a + b for a in WHITESPACE for b in WHITESPACE])
def test_two_whitespace_characters_before_a_control_character_are_two_tokens(pair) -> None:
    # the premise, read on the oracle, and the bound that rests on it
    assert anthropic_tokenizer.count_tokens("\x01" + pair + "\x01") == 4
    assert token_bounds.control_units(("\x01" + pair + "\x01").encode("latin-1")) >= 3 * UNITS_PER_TOKEN
