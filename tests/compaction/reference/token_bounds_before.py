"""A frozen copy of pi_compact/compaction/token_bounds.py before the fast rewrite (issue 24). Do not edit.

Bounds of a text's token count that hold per text, for text no per-character weight prices (issue 23.7).

The weights of :mod:`pi_compact.compaction.tokens` price each character by what it costs in English, code and
the other kinds of text of the corpus, on average; short random text beats an average (``t"r`` is four
tokens, its weights one) and so does text that alternates kinds of characters (``a"a"a"…``: a token per
character, weighed at a fifth). These bounds count what a byte-pair tokenizer must split, from the text
itself, and the estimate takes the largest:

- **runs** (:func:`run_units`): a Claude tokenizer (like GPT-2's) first cuts text into runs of letters, of
  digits and of other non-space characters, and no token spans two runs;
- **ends inside runs** (:func:`inner_units`): a tokenizer merges what its training text was full of, so a pair
  of characters or a triple of letters that natural text hardly ever writes (``vj``, ``Qz``, ``'[``, ``iui``)
  is inside no token either; nor is a letter repeated (``gggg`` is ``gg gg``) or two repeated (``abab``);
- **short texts** (:func:`short_tokens`): below a dozen characters nothing tells a word from random letters
  (``area`` is one token, ``aiaa`` three), so a short text costs what its bytes could, up to a few tokens.

On English, code and every other natural class of the corpus the first two count fewer tokens than the text
has (a lower bound there), so they change nothing where the weights were right. The ends inside runs are read
in a text's first :data:`PREFIX_CHARS` characters, so they cost the same on any text, in a dozen C calls.
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata

from pi_compact.compaction.token_tables import COMMON_PAIRS, COMMON_TRIPLES

UNITS_PER_TOKEN = 32  # as in tokens.py: bounds are summed in the weights' 1/32 tokens

PREFIX_CHARS = 256
"""Ends inside runs are counted in a text's first this many characters: a short text is read whole; a long
one's weights have averaged out (and the consonant-run bound of tokens.py reads it whole)."""

ALTERNATION = 11
"""What a letter next to a digit adds, in 1/32 tokens (about a third of a token): where letters and digits
alternate (hashes, hex, generated ids) their runs are one to three characters long and a tokenizer still
splits a third of them; English and code put a digit next to a letter seldom (``utf8``, ``x86``, ``10px``).
Chosen on random hex, letters and digits (hypothesis draws others in the tests), checked on the corpus: no
natural class moves by more than 4%, the hex class goes from 0.96 to 1.09 of the real count."""

TRIPLE_UNITS = 16
"""A rare triple of letters counts half a token: an end inside it falls in one of its two pairs, and each end
makes two rare triples."""

LONG_RUN = 12
LONG_RUN_UNITS = 8
"""Letters past the twelfth of a run count a quarter of a token each: English words are shorter, and the long
ones are a few tokens (``implementation``: one), while a run of random letters is a token per two or three."""

REPEAT_PERIODS = 4
"""A group of up to this many characters repeated (``abab``, ``0eS0eS``) is cut into tokens as often as it
repeats: a tokenizer has no token for a random group twice."""

MARGIN = 1
"""Tokens added to the run bound of a text (see :func:`bound_units`)."""

SHORT_TOKENS = 8
"""The short-text floor: 0.9 token per UTF-8 byte, up to this many tokens (so it adds at most a few tokens to
a short word, and nothing to a text of more than a few words)."""


def _kind(char: str) -> str:
    if char.isspace():
        return "space" if char == " " else "break"  # a space joins the run after it; a tab or a newline cannot
    return {"L": "letter", "N": "number"}.get(unicodedata.category(char)[0], "other")


def _ascii_map(value_of) -> bytes:
    return bytes(value_of(chr(value)) if value < 128 else 0 for value in range(256))


# one byte per character: its kind as one bit (letter 1, digit 2, other 4), whitespace 0
_KIND_BITS = bytes({"letter": 1, "number": 2, "other": 4}.get(_kind(chr(value)), 0) for value in range(256))
_BREAK_BITS = bytes(1 if _kind(chr(value)) == "break" else 0 for value in range(256))
_WHITE_BITS = bytes(1 if chr(value).isspace() else 0 for value in range(256))
_VISIBLE_BITS = bytes(1 - bit for bit in _WHITE_BITS)
_DIGITS = bytes(ord("x") if _kind(chr(value)) == "number" else ord(" ") for value in range(256))
_LETTER_DIGIT = bytes(1 if value & 3 == 3 else 0 for value in range(256))  # a letter and a digit, either order
_LETTER_INDEX = _ascii_map(lambda char: ord(char.lower()) - 96 if char.isalpha() else 0)  # a/A 1 … z/Z 26
# spaces and tabs are left out of repeats: however grouped they are long tokens (indentation); newlines weigh
# more than their repeats could add
_REPEAT_MAPS = tuple(_ascii_map(lambda char, other=other: other if char in " \t" else ord(char)) for other in (1, 2))
_NOT_ASCII = re.compile(r"[^\x00-\x7f]")
_LONG_RUN = re.compile("[A-Za-z]{%d,}" % (LONG_RUN + 1))


def run_units(latin: bytes) -> int:
    """The run bound of the Latin-1 bytes of a text, in 1/32 tokens: its runs of letters, of digits and of other
    non-space characters, and its pre-tokens of whitespace; one more per four digits of a run (a tokenizer cuts
    numbers into tokens of up to three or four digits); and :data:`ALTERNATION` per letter next to a digit.
    Characters above U+00FF are left out by the caller, which can only join runs, never split one.

    Counted on big integers, one byte per character (``x >> 8`` is each character's predecessor), so that a
    run start is a bit set in a character and not in the one before it: a handful of C calls per text."""
    kinds = int.from_bytes(latin.translate(_KIND_BITS), "big")
    before = kinds >> 8
    runs = (kinds & ~before).bit_count() + latin.translate(_DIGITS).count(b"xxxx") + _whitespace(latin)
    adjacent = (kinds | before).to_bytes(len(latin), "big").translate(_LETTER_DIGIT).count(1)
    return runs * UNITS_PER_TOKEN + adjacent * ALTERNATION


def _whitespace(latin: bytes) -> int:
    """Pre-tokens of whitespace. A run of whitespace before a word is one pre-token for all but its last
    character, which joins the word if it is a space and is one more if not ("a  b" is a, " ", " b";
    "a\t\tb" is a, \t, \t, b); a run that ends the text is one."""
    white = int.from_bytes(latin.translate(_WHITE_BITS), "big")
    starts = white & ~(white >> 8)
    longer = (starts & (white << 8)).bit_count()  # runs of two or more (the next character is white too)
    breaks, visible = (int.from_bytes(latin.translate(table), "big") for table in (_BREAK_BITS, _VISIBLE_BITS))
    before_word = ((breaks >> 8) & visible).bit_count()
    ends_alone = white & 1 and not white & 0x100  # the text ends with one whitespace character
    return longer + before_word + bool(ends_alone)


JOINED_WHITESPACE = ("\n ", " \n")
"""The pairs of two whitespace characters a tokenizer merges (a newline and indentation); any other two
(``\r\n``, ``\n\t``, `` \t``) end a token, and a run of one character is a long token."""


def _same_kind(a: str, b: str) -> bool:
    """Both letters, both punctuation, or both whitespace (a space and a newline too)."""
    kinds = {_kind(a), _kind(b)}
    return len(kinds) == 1 and kinds != {"number"} or kinds == {"space", "break"}


def _rare(a: str, b: str, common: set[str]) -> bool:
    if a == b or not _same_kind(a, b):
        return False
    if a.isspace():
        return a + b not in JOINED_WHITESPACE
    return a + b not in common or a.islower() and b.isupper()


def _chunks(table: str, size: int) -> set[str]:
    return {table[start : start + size] for start in range(0, len(table), size)}


@functools.cache
def _rare_pairs() -> re.Pattern[str]:
    """Every rare pair as the character ``128 * first + second`` (see :func:`_codes`), in one character class:
    letters or punctuation not in :data:`COMMON_PAIRS`, whitespace not in :data:`JOINED_WHITESPACE`. A
    character twice (``''``, ``--``) is never rare: tokenizers hold long runs of one character; a lowercase
    letter before an uppercase one always is, however often code writes it (``useState``): a tokenizer cuts
    camelCase where the case changes."""
    common = _chunks(COMMON_PAIRS, 2)
    return _one_of(128 * ord(a) + ord(b) for a in string.printable for b in string.printable
                   if _rare(a, b, common))


@functools.cache
def _rare_triples() -> re.Pattern[str]:
    """Every rare triple of letters as the character ``1024 * first + 32 * second + third`` (letters numbered
    from 1), in one character class."""
    common = _chunks(COMMON_TRIPLES, 3)
    letters = string.ascii_lowercase
    return _one_of(1024 * (letters.index(a) + 1) + 32 * (letters.index(b) + 1) + letters.index(c) + 1
                   for a in letters for b in letters for c in letters if a + b + c not in common)


def _one_of(codes) -> re.Pattern[str]:
    return re.compile("[" + "".join(map(chr, codes)) + "]")  # codes 1057 … 27482: no character to escape


def _codes(data: bytes, width: int, shift: int) -> str:
    """A character per position: ``data[i - width + 1] << (width - 1)·shift | … | data[i]``, all at once in C
    (the bytes as 16-bit cells of a big integer, shifted by a cell and by ``shift`` bits and added, the cells
    never carrying into each other, read back as UTF-16: no code reaches the surrogates). The first
    ``width - 1`` positions, with fewer characters, are left out."""
    cells = int.from_bytes(data.decode("latin-1").encode("utf-16-be"), "big")
    total = 0
    for back in range(width - 1, -1, -1):
        total = (total << shift) + (cells >> 16 * back)
    return total.to_bytes(2 * len(data), "big").decode("utf-16-be")[width - 1 :]


def _repeats(data: bytes) -> int:
    """How many times a character or a group of up to :data:`REPEAT_PERIODS` characters repeats right after
    itself, once per two repeats (``gggg`` is ``gg gg``, ``||||`` is ``|| ||``, ``abab`` is ``ab ab``; a doubled
    letter of a word, ``ll``, counts nothing), the largest count of any period (``gggg`` repeats with every
    one): the zero bytes of the text XORed with itself ``period`` further on, spaces and tabs left out."""
    size, best = len(data), 0
    first, second = (int.from_bytes(data.translate(table), "big") for table in _REPEAT_MAPS)
    for period in range(1, min(REPEAT_PERIODS, size // 2) + 1):
        same = (first >> 8 * period) ^ second  # byte i: character i - period against character i
        best = max(best, same.to_bytes(size, "big")[period:].count(b"\0" * max(2, period)))
    return best


def inner_units(text: str) -> int:
    """Token ends inside the runs of the first :data:`PREFIX_CHARS` characters, in 1/32 tokens: rare pairs,
    rare letter triples, repeats and letters past :data:`LONG_RUN` (see the module docstring). A character
    that is not ASCII is read as a space."""
    prefix = text[:PREFIX_CHARS]
    if not prefix.isascii():
        prefix = _NOT_ASCII.sub(" ", prefix)
    if len(prefix) < 2:
        return 0
    data = prefix.encode("ascii")
    pairs = _rare_pairs().subn("", _codes(data, 2, 7))[1]
    triples = _rare_triples().subn("", _codes(data.translate(_LETTER_INDEX), 3, 5))[1]
    long_runs = sum(len(run) - LONG_RUN for run in _LONG_RUN.findall(prefix))
    return (pairs + _repeats(data)) * UNITS_PER_TOKEN + triples * TRIPLE_UNITS + long_runs * LONG_RUN_UNITS


def short_tokens(size: int) -> int:
    """The floor of a text of ``size`` UTF-8 bytes."""
    return min(-(-size * 9 // 10), SHORT_TOKENS)


def bound_units(text: str, latin: bytes, size: int) -> int:
    """The largest bound of a text (its Latin-1 bytes and its UTF-8 size given), in 1/32 tokens. The run bound
    gets :data:`MARGIN` more: where it decides (random text) the real count varies around it by a token."""
    floor = short_tokens(size) * UNITS_PER_TOKEN
    if size <= SHORT_TOKENS:
        return floor  # a token holds at least a byte: this floor is already 0.9 of the most it could be
    return max(run_units(latin) + inner_units(text) + MARGIN * UNITS_PER_TOKEN, floor)
