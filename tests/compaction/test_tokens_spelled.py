"""A pre-token is at least the fewest tokens of the vocabulary that spell its bytes (issue 23.7 item 7, tok49):
``token_bounds.spelled_tokens`` cuts a text's first characters into GPT-2's pre-tokens (the tokenizer's
configuration names its byte-level pattern) and spells each with the tokens that hold a control character or a
byte beyond ASCII (``token_tables.JOINING_TOKENS``, read from every token by bench/token_corpus/tables.py), any
string of printable ASCII a token. Symbols among control characters, a 256-code-point block alone or with ASCII,
and a mix of classes then a block were 0.75-0.90 of the real count before (seeded scans of 5,000 draws of 1-32
characters: 58, 3, 77, 8, 24 and 101 draws)."""

from __future__ import annotations

import random
import unicodedata

import anthropic_tokenizer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction import token_bounds
from pi_compact.compaction.tokens import UNITS_PER_TOKEN, text_units

pytestmark = pytest.mark.usefixtures("draws_independent_of_other_modules")

CONTROLS = "".join(map(chr, [*range(1, 9), 0x0B, *range(0x0E, 0x20), 0x7F])) + "\x00"
SYMBOLS = "".join(chr(code) for code in range(0x2000, 0x2C00) if unicodedata.category(chr(code))[0] in "PS")
BLOCKS = [block for block in range(0x01, 0x100) if not 0xD8 <= block < 0xE0]

MEASURED = [
    "⨂\x1c\x1d\x10\x05\x08⁙\x16\x0f⍳⎭⣒\x07\x14⋠⋸⣍\x7f⦾⇽\x04\x0f\x13\x16⥀⧩\x0f⇕\x06⫨\x02\x14",
    "⭦\x00⮎⥺\x0e\x16⍺❙\x17\x15\x08\x1d\x04\x16\x17\x0b\x12\x19\x1d\x18┿⢯⋇\x7f\x05☏\x07\x15\x14⍕⋦❜",
    "⌯⁜₯\x15\x02♇⍂↥⎓⡄\x18\x07\x01\x1d\x00\x08\x08\x12⌃\x00\x1f\x00⭪\x1b\x10\x18⥔\x13⮔\x17\x17",
    "\x1d⪋n9+4⯏7\x16\x03⚅☲\x17\t;ÿ\r)5☰6\"\x03⛤©}\t",
    "‑⭺\x1bÖ`k^⁙e⫗[\x02|sn\x19\x05\x10\x0e\x1d\x03⇻Îç⇕\\¤}\x01qM",
    "ΌὫἐ῞῎ώἩὁ῝ᾚᾆᾜᾦὃ῁ἏὴἉἋ\u1fffἫὑῖὄ\u1ff5ᾒ\u1f5eἯ",
    "ἥῧὣΏᾌἢῩΰ\u1f7fὧᾓῚὬὬ῎ἢ\u1f5cἄὄ\u1f5a΅Ῥ῍ᾼᾴἊὨὊἺᾫ῭",
    "~P<Ax\\ἪK!#fἼaKo'Ὸ9nYἯR&w῁ᾉVᾑiῌ",
    "f&Hⶺ5ⶄ~ⶑⷶP`Qⴐⵯⴭ&s<P!E)Z\\ⷣ\u2dafP_",
    "6ӆ>G-kѽ6.8x;J/Є҅9ЈӰяәӄwIћ ",
    "\x13;1\t\r5\x0e⩷\" >9\x05/⚙\\☱0\r⋌<▫\"52䞩䝢䝿䜄",
    "y\t\t{\t<\x16`3\x0f\x05e\x17)䮿䯧䯆䮈䭷䮢䬊䭉䯁",
    "<ເຯb+9ະ๊eຑE5ຘ\\>R,ู\"\x0e?\x1a\x19\x03\"\x01!;",
    "ડQ P\u0ad5C\u0a4eછ\u0a11ee)O੶\u0ad5ઁQ૨\u0a44\x0e\x02/_*\x1a\x7f$.<\x17\x0b\x03",
]
"""Draws of the seeded scans at 0.77-0.87 of the real count before: symbols among control characters, any mix of
classes, Greek Extended alone, a block with ASCII, a mix then a block, a block with ASCII then control characters
and punctuation."""


def held(value: str) -> None:
    assert text_units(value) >= 0.9 * UNITS_PER_TOKEN * anthropic_tokenizer.count_tokens(value), repr(value)


@pytest.mark.parametrize("value", MEASURED)
def test_the_draws_measured_under_a_tenth_short_are_held(value) -> None:
    held(value)


def family(kind: str, rng: random.Random) -> str:
    """A draw of the seeded scans: symbols among control characters, or one random block of 256 code points
    alone or with printable ASCII, 1-32 characters."""
    size = rng.randint(1, 32)
    if kind == "controls and symbols":
        return "".join(rng.choice(rng.choice([CONTROLS, SYMBOLS])) for _ in range(size))
    block = rng.choice(BLOCKS)
    share = 0.5 if kind == "block and ascii" else 0
    return "".join(chr(rng.randrange(0x20, 0x7F)) if rng.random() < share else chr(block << 8 | rng.randrange(256))
                   for _ in range(size))


@pytest.mark.parametrize("kind, most", [("controls and symbols", 0), ("block alone", 0), ("block and ascii", 0)])
def test_seeded_draws_of_each_family_are_never_undercounted_by_more_than_a_tenth(kind, most) -> None:
    # a block with ASCII: two draws of these 1,500 were 0.85-0.89 of the real count while any printable ASCII was
    # spelled as one token (23 before tok49); none since ASCII letters are spelled with the vocabulary's (tok50)
    rng = random.Random(49)
    short = [value for value in (family(kind, rng) for _ in range(1500))
             if text_units(value) < 0.9 * UNITS_PER_TOKEN * anthropic_tokenizer.count_tokens(value)]
    assert len(short) <= most, short[:3]


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(st.sampled_from(CONTROLS + SYMBOLS), min_size=1, max_size=32))
def test_symbols_among_control_characters_are_never_undercounted_by_more_than_a_tenth(value) -> None:
    held(value)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=64))
def test_the_spelled_bound_never_exceeds_the_real_count(value) -> None:
    # the premise, read on the oracle: a proof, so never above the real count, on any text read as written
    text = unicodedata.normalize("NFKC", value)
    assert token_bounds.spelled_tokens(text) <= anthropic_tokenizer.count_tokens(text)


@pytest.mark.parametrize("value, pieces", [
    ("a  \n\n b's 12 ", ["a", "  \n\n", " b", "'s", " 12", " "]),
    ("x\x1c\x1dy", ["x", "\x1c\x1d", "y"]),  # the file separators are no White_Space (Python's isspace says they are)
    ("!'s → 𝟘x", ["!'", "s", " →", " 𝟘", "x"]),
])
def test_pre_tokens_are_cut_by_the_byte_level_pattern(value, pieces) -> None:
    narrow, wide, _, _ = token_bounds._vocabulary()
    assert (wide if max(value) > "\uffff" else narrow).findall(value) == pieces
