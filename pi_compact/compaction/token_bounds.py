"""Bounds of a text's token count that hold per text, for text no per-character weight prices (issue 23.7).

The weights of :mod:`pi_compact.compaction.tokens` price each character by what it costs in English, code and
the other kinds of text of the corpus, on average; short random text beats an average (``t"r`` is four
tokens, its weights one) and so does text that alternates kinds of characters (``a"a"a"…``: a token per
character, weighed at a fifth). These bounds count what a byte-pair tokenizer must split, from the text
itself, and the estimate takes the largest:

- **runs** (:func:`run_units`): a Claude tokenizer (like GPT-2's) first cuts text into runs of letters, of
  digits and of other non-space characters, and no token spans two runs;
- **symbols beyond Latin-1** (:func:`symbol_runs`): the run bound reads a text's Latin-1 characters only, so a
  run of punctuation beyond them that touches no other punctuation (U+FFFD between a digit and a letter, in bytes
  read as UTF-8) is counted apart, a run of its own;
- **ends inside runs** (:func:`inner_units`): a tokenizer merges what its training text was full of, so a pair
  of characters or a triple of letters that natural text hardly ever writes (``vj``, ``Qz``, ``'[``, ``iui``)
  is inside no token either; nor is a letter repeated (``gggg`` is ``gg gg``) or two repeated (``abab``), nor
  a letter doubled at a word's start (`` aab`` is `` a``, ``ab``);
- **accented letters** (:func:`latin_cut_units`): an accented Latin letter that no token of the vocabulary joins to
  the ASCII letter beside it (`` viết`` is `` vi``, two byte tokens, ``t``) ends a token there, read from the
  vocabulary itself (:data:`~.token_tables.LATIN_JOINS`): a proof, not a fit; and the ASCII letters of a text
  that writes accented ones are of a language a tokenizer barely knows, more than a token a word
  (:func:`latin_units`: a fit, added to the ends, not to the weights); the accented letters read are those of
  the IPA and the modifier letters too, since the tokenizer reads NFKC (``ŉ`` is read ``ʼn``);
- **unheld words** (:func:`unheld_units`): a word after a space that no token holds is two tokens at least, and an
  eighth of a token more (:data:`UNHELD_MARGIN`, a fit: a byte-pair tokenizer's merges seldom reach the fewest
  tokens its vocabulary could cut a word into); and in ASCII text that looks random (:data:`CUT_SHARE`), each such
  word and the text's first word the tokens the tokenizer cuts it into (:func:`cut_tokens`: its own merges, in the
  order of their ranks, read from the vocabulary's word tokens, :data:`~.token_tables.WORD_PIECES` and
  :data:`~.token_tables.WORD_RANKS`), with that margin per token of the cut;
- **repeats anywhere** (:func:`periodic_units`): a stretch that repeats a group of up to eight characters is cut
  into tokens as often as the group repeats (``ab`` × 2,000 is 2,000 tokens, ``kxwq`` × 1,000 3,000, ``η`` × 300
  600, `` aab`` × 500 1,000, ``oeyo `` × 23 70), read over the whole text, with the changes between whitespace
  characters (``"    \\n \\t"`` is three tokens);
- **random letters** (:func:`random_letter_units`): letters poor in vowels, rich in letters a language writes
  seldom, or in pairs of letters it writes seldom (a language's letters shuffled), are cut into tokens of one or
  two (``goj pqb avg`` is five tokens, ``gojgoj pqbpqb`` seven, ``kiyave zuxo`` six), read over the whole text
  (the pairs over 1 KB of it, a word written again read once); and letters in English's order that write few
  words a tokenizer holds (a Markov chain of English letters, a vocabulary it lacks: ``methane ethane``), read in
  four windows of their words across the text (from 20 letters and one word on: a short text too, priced
  higher);
- **copies** (:func:`copies_units`): a text that repeats a group longer than eight characters costs the group's
  tokens per copy (a random group of 48 letters twenty times is twenty times one), where the bounds above read
  the first copies only or, for letters rich in vowels, none;
- **spelled pre-tokens** (:func:`spelled_counts`): each pre-token (GPT-2's pattern) that holds no ASCII letter, digit
  or whitespace (punctuation, symbols, control characters, letters beyond ASCII) is cut as the tokenizer cuts it, its
  merges replayed in their order (:func:`bpe_count`, :data:`~.token_tables.CLOSED_MERGES`); any other is at least the
  fewest tokens of the vocabulary that spell its bytes, read with the tokens that hold a control character or a byte
  beyond ASCII (:data:`~.token_tables.JOINING_TOKENS`), the tokens of ASCII letters or punctuation
  (:data:`~.token_tables.WORD_PIECES`, :data:`~.token_tables.ASCII_TOKENS`) and any string of whitespace and digits:
  a proof; it counts the ends inside characters, between symbols and inside random ASCII among them that no bound
  between characters sees; read over the whole text where its bytes beyond printable ASCII and whitespace, a token
  each, could be an eighth of the estimate (:data:`HARD_SHARE`: wherever a hard part is placed) or the first
  characters' tokens, at their rate, beat it (:func:`spelled_units`);
- **short texts** (:func:`short_tokens`): below a dozen characters nothing tells a word from random letters
  (``area`` is one token, ``aiaa`` three), so a short text costs what its bytes could, up to a few tokens, and
  in a text of up to :data:`SHORT_CHARS` characters every byte of a character beyond ASCII: a few letters of
  another alphabet reach no average the weights could hold them to.

On English, code and every other natural class of the corpus the first two count fewer tokens than the text
has (a lower bound there), so they change nothing where the weights were right. The ends inside runs are read
in a text's first :data:`PREFIX_CHARS` characters, so they cost the same on any text, in a dozen C calls; the
repeats anywhere cost a few big-integer operations per period on the whole text (and Python work per stretch
only where a text holds a real one), the random letters a popcount and two translates, the copies three searches of
a few hundred characters (and a big-integer operation and the group's bounds where one finds a period). The run
bound takes the largest of the ends, the repeats and the random letters, never their sum: they count the same
ends; the copies bound a text on their own.
"""

from __future__ import annotations

import base64
import functools
import heapq
import math
import re
import string
import unicodedata
import zlib
from collections import Counter
from collections.abc import Iterator

from .token_tables import (ASCII_TOKENS, CAPITALIZED_WORDS, CHAR_SPLIT, CLOSED_MERGES, CHAR_SPLIT_ONE, CHAR_SPLIT_TWO, COMMON_PAIRS, COMMON_TRIPLES, COMMON_WORDS, JOINING_TOKENS,
                           LATIN_JOINS, LATIN_SPLIT, LATIN_TOKENS, LETTER_COUNTS, LETTER_RANGES, NUMBER_RANGES, PAIR_COUNTS,
                           PUNCT_JOINS, SHORT_WORDS, SYMBOL_JOINS, WORD_PIECES, WORD_RANKS)

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

SHORT_TOKENS = 10
"""The short-text floor: 0.9 token per UTF-8 byte, up to this many tokens (so it adds at most a few tokens to
a short word, and nothing to a text of more than a few words; at 8 a Markov chain of English letters of 20-30
characters, words of three letters it lacks, was 0.73-0.82 of the real count), and 0.9 per byte of a
character beyond ASCII in a text of up to :data:`SHORT_CHARS` characters."""

SHORT_CHARS = 32
"""Characters up to which a text's characters beyond ASCII cost 0.9 token per UTF-8 byte (:func:`short_tokens`):
a byte-level tokenizer never makes more tokens than bytes, so a text whose ASCII is at most :data:`SHORT_TOKENS`
bytes is priced at 0.9 of the most it could cost whatever it writes. The weights and the alphabets' random
letters (read from :data:`~pi_compact.compaction.tokens.ALPHABET_LETTERS_MIN` letters) are averages a few
letters do not reach: at 1-30 characters random Devanagari was 0.71 of the real count at worst, random
ideographs 0.71, Greek, Hebrew and Arabic 0.80, U+FFFD among random bytes 0.75; from 31 characters on the
averages hold (random ideographs but one text in 240 at 0.87). A short natural text of another alphabet comes
out high (a few words of Russian or Chinese two to three times their count: some tokens)."""


def _kind(char: str) -> str:
    if char.isspace():
        return "space" if char == " " else "break"  # a space joins the run after it; a tab or a newline cannot
    return {"L": "letter", "N": "number"}.get(unicodedata.category(char)[0], "other")


def _ascii_map(value_of) -> bytes:
    return bytes(value_of(chr(value)) if value < 128 else 0 for value in range(256))


# one byte per character, all the bit planes the run bound reads: its kind (letter 1, digit 2, other 4;
# whitespace 0), whitespace 8, whitespace that is not a space 16 (a break); and the whitespace changes: a space
# 32, a tab 64, a line feed 128
_LETTER, _NUMBER, _KINDS, _WHITE, _BREAK, _SPACE, _TAB, _LINE_FEED = 1, 2, 7, 8, 16, 32, 64, 128
_RUN_BITS = bytes({"letter": 1, "number": 2, "other": 4}.get(_kind(chr(value)), 0)
                  | (_WHITE if chr(value).isspace() else 0) | (_BREAK if _kind(chr(value)) == "break" else 0)
                  | {" ": _SPACE, "\t": _TAB, "\n": _LINE_FEED}.get(chr(value), 0)
                  for value in range(256))
_DIGIT_RUN = bytes([_NUMBER]) * 4  # a digit is no whitespace: its byte is the number bit alone
_LETTER_INDEX = _ascii_map(lambda char: ord(char.lower()) - 96 if char.isalpha() else 0)  # a/A 1 … z/Z 26
_LETTER_MASK = _ascii_map(lambda char: ord("a") if char in string.ascii_letters else ord(" "))
_NOT_ASCII = re.compile(r"[^\x00-\x7f]")
_LONG_RUN = re.compile("[A-Za-z]{%d,}" % (LONG_RUN + 1))

_MASK_BYTES = 1 << 15
"""Masks of one bit plane are this long, and cut down to a text's length by ``&`` (which costs the shorter
operand's length); a longer text builds its own."""
_MASKS = {bit: int.from_bytes(bytes([bit]) * _MASK_BYTES, "big")
          for bit in (_LETTER, _KINDS, _WHITE, _BREAK, _SPACE, _TAB)}


def _masks(size: int) -> dict[int, int]:
    if size <= _MASK_BYTES:
        return _MASKS
    return {bit: int.from_bytes(bytes([bit]) * size, "big") for bit in _MASKS}


def run_units(latin: bytes) -> int:
    """The run bound of the Latin-1 bytes of a text, in 1/32 tokens: its runs of letters, of digits and of other
    non-space characters, and its pre-tokens of whitespace; one more per four digits of a run (a tokenizer cuts
    numbers into tokens of up to three or four digits); and :data:`ALTERNATION` per letter next to a digit.
    Characters above U+00FF are left out by the caller, which can only join runs, never split one.

    Counted on one big integer, one byte per character holding its bit planes (``x >> 8`` is each character's
    predecessor, ``&`` a mask keeps one plane), so that a run start is a bit set in a character and not in the one
    before it: one translate and a dozen integer operations per text, each in C."""
    return _runs(latin)[0]


def _runs(latin: bytes) -> tuple[int, int, dict[int, int]]:
    """:func:`run_units`, and the bit planes and masks it read."""
    planes = latin.translate(_RUN_BITS)
    bits = int.from_bytes(planes, "big")
    masks = _masks(len(latin))
    kinds = bits & masks[_KINDS]
    before = kinds >> 8
    runs = (kinds ^ (kinds & before)).bit_count() + planes.count(_DIGIT_RUN) + _whitespace(bits, masks)
    joined = kinds | before  # a letter and a digit next to each other, either order: both low bits set
    adjacent = (joined & (joined >> 1) & masks[_LETTER]).bit_count()
    return runs * UNITS_PER_TOKEN + adjacent * ALTERNATION, bits, masks


def _whitespace(bits: int, masks: dict[int, int]) -> int:
    """Pre-tokens of whitespace. A run of whitespace before a word is one pre-token for all but its last
    character, which joins the word if it is a space and is one more if not ("a  b" is a, " ", " b";
    "a\t\tb" is a, \t, \t, b); a run that ends the text is one."""
    white = bits & masks[_WHITE]
    starts = white ^ (white & (white >> 8))
    longer = (starts & (white << 8)).bit_count()  # runs of two or more (the next character is white too)
    breaks = (bits & masks[_BREAK]) >> 8  # at the character after each break
    before_word = breaks.bit_count() - (breaks & (white << 1)).bit_count()  # ... unless that one is white too
    ends_alone = white & _WHITE and not white & (_WHITE << 8)  # the text ends with one whitespace character
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
def _rare_pair_set() -> frozenset[str]:
    """Every rare pair: letters or punctuation not in :data:`COMMON_PAIRS`, whitespace not in
    :data:`JOINED_WHITESPACE`. A character twice (``''``, ``--``) is never rare: tokenizers hold long runs of one
    character; a lowercase letter before an uppercase one always is, however often code writes it
    (``useState``): a tokenizer cuts camelCase where the case changes."""
    common = _chunks(COMMON_PAIRS, 2)
    return frozenset(a + b for a in string.printable for b in string.printable if _rare(a, b, common))


@functools.cache
def _rare_triple_set() -> frozenset[str]:
    """Every rare triple of lowercase letters: not in :data:`COMMON_TRIPLES`."""
    common = _chunks(COMMON_TRIPLES, 3)
    letters = string.ascii_lowercase
    return frozenset(a + b + c for a in letters for b in letters for c in letters if a + b + c not in common)


@functools.cache
def _rare_pairs() -> re.Pattern[str]:
    """The rare pairs, each as the character ``128 * first + second`` (see :func:`_pair_codes`), in one
    character class."""
    return _one_of(128 * ord(a) + ord(b) for a, b in _rare_pair_set())


@functools.cache
def _rare_triples() -> re.Pattern[str]:
    """The rare triples, each as the character ``1024 * first + 32 * second + third`` (letters numbered from 1,
    anything else 0), in one character class; and a letter doubled after a character that is not one (a word
    that starts with a doubled letter, ``33 * letter``: `` aab`` is `` a``, ``ab``; ``ssh`` and ``LLM`` too, half a
    token high)."""
    return _one_of([sum(code << shift for code, shift in zip((ord(char) - 96 for char in triple), (10, 5, 0)))
                    for triple in _rare_triple_set()] + [33 * letter for letter in range(1, 27)])


def _one_of(codes) -> re.Pattern[str]:
    return re.compile("[" + "".join(map(chr, sorted(codes))) + "]")  # codes 33 … 27482, none of them ]\\^-


def _pair_codes(cells: int, size: int) -> str:
    """A character per position from the second: ``data[i - 1] << 7 | data[i]``, all at once in C (``cells``:
    the ``size`` bytes as 16-bit cells of a big integer, read from their UTF-16; shifted by a cell and by 7 bits
    and added, the cells never carrying into each other, read back as UTF-16: no code reaches the surrogates)."""
    return (((cells >> 16) << 7) + cells).to_bytes(2 * size, "big").decode("utf-16-be")[1:]


def _triple_codes(cells: int, size: int) -> str:
    """As :func:`_pair_codes`, ``data[i - 2] << 10 | data[i - 1] << 5 | data[i]`` from the third position."""
    return (((((cells >> 32) << 5) + (cells >> 16)) << 5) + cells).to_bytes(2 * size, "big").decode("utf-16-be")[2:]


def _cells(prefix: str) -> int:
    return int.from_bytes(prefix.encode("utf-16-be"), "big")


def _collapse(codes: bytes) -> bytes:
    """The codes with every space right after a space and every tab right after a tab left out, for matching
    repeats: however it is grouped, a run of one of them is a few long tokens (indentation) and repeats
    nothing, while a single one matches, so that words repeated (`` aab`` × 500) are repeats too."""
    if b"  " in codes:
        codes = _SPACE_RUN.sub(b" ", codes)
    if b"\t\t" in codes:
        codes = _TAB_RUN.sub(b"\t", codes)
    return codes


_SPACE_RUN, _TAB_RUN = re.compile(b"  +"), re.compile(b"\t\t+")


def _repeats(codes: bytes) -> int:
    """How many times a character or a group of up to :data:`REPEAT_PERIODS` characters repeats right after
    itself in the first :data:`PREFIX_CHARS` of the codes of a text, runs of spaces and tabs collapsed (see
    :func:`periodic_units`), once per two repeats (``gggg`` is ``gg gg``, ``||||`` is ``|| ||``, ``abab`` is ``ab
    ab``, `` aab aab`` is `` aab`` twice; a doubled letter of a word, ``ll``, counts nothing), the largest count
    of any period (``gggg`` repeats with every one): the zero bytes of the codes XORed with themselves
    ``period`` further on. :func:`periodic_units` counts the same in the codes it compares anyway."""
    prefix = codes[:PREFIX_CHARS]
    size, best = len(prefix), 0
    whole = int.from_bytes(prefix, "big")
    for period, shift, zeros in _REPEATS[: size // 2]:
        best = max(best, ((whole >> shift) ^ whole).to_bytes(size, "big").count(zeros, period))
    return best


MAX_PERIOD = 8
_REPEATS = tuple((period, 8 * period, b"\0" * max(2, period)) for period in range(1, REPEAT_PERIODS + 1))
# (period, its shift in bits, the zeros of a stretch at it, those of a repeat of the first characters or None)
_PERIODS = tuple((period, 8 * period, _REPEATS[period - 1][2] if period <= REPEAT_PERIODS else b"\0" * period,
                  _REPEATS[period - 1][2] if period <= REPEAT_PERIODS else None) for period in range(1, MAX_PERIOD + 1))


def inner_units(text: str) -> int:
    """Token ends inside the runs of the first :data:`PREFIX_CHARS` characters, in 1/32 tokens: rare pairs,
    rare letter triples, repeats and letters past :data:`LONG_RUN` (see the module docstring)."""
    return _ends_inside(text) + _repeats(_periodic_codes(text)) * UNITS_PER_TOKEN


def _ends_inside(text: str) -> int:
    """:func:`inner_units` but the repeats. A character that is not ASCII is read as a space."""
    prefix = text[:PREFIX_CHARS]
    if not prefix.isascii():
        prefix = _NOT_ASCII.sub(" ", prefix)
    size = len(prefix)
    if size < 2:
        return 0
    data = prefix.encode("ascii")
    pairs = len(_rare_pairs().findall(_pair_codes(_cells(prefix), size)))
    triples = len(_rare_triples().findall(_triple_codes(_cells(data.translate(_LETTER_INDEX).decode("ascii")), size)))
    long_runs = 0
    if _LONG_MASK in data.translate(_LETTER_MASK):  # most texts have none: one C search instead of the pattern
        long_runs = sum(len(run) - LONG_RUN for run in _LONG_RUN.findall(prefix))
    return pairs * UNITS_PER_TOKEN + triples * TRIPLE_UNITS + long_runs * LONG_RUN_UNITS


_LONG_MASK = b"a" * (LONG_RUN + 1)


ACCENTED_LATIN = "[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02c1\u02c6-\u02d1\u02e0-\u02e4\u02ec\u02ee\u1e00-\u1eff]"
"""The accented Latin letters, as a character class: ``LATIN_LETTERS`` of bench/token_corpus/tables.py (the letters
of U+00C0-02FF and U+1E00-1EFF: not × and ÷, nor the modifier symbols, which are no letters). The IPA and modifier
letters are among them since NFKC writes some accented letters as one of them and an ASCII letter (``ŉ`` is read
``ʼn``: no token joins ``ʼ`` to ``n``, and no token holds ``ʼ`` whole)."""
ACCENTED_LETTER = re.compile(ACCENTED_LATIN)  # a character class alone: scanned for in C
_LATIN_AFTER = re.compile("[A-Za-z]" + ACCENTED_LATIN)
_LATIN_BEFORE = re.compile(ACCENTED_LATIN + "[A-Za-z]")
"""An ASCII letter then an accented one, and the reverse: each found in C, none missed (two such pairs of one
direction never share a letter, so the scan's matches, which do not overlap, are all of them)."""
_LATIN_JOINS = frozenset(LATIN_JOINS[start : start + 2] for start in range(0, len(LATIN_JOINS), 2))
_LATIN_SPLIT = re.compile("[" + LATIN_SPLIT + "]")
"""A letter no token holds whole: a token ends inside its bytes, wherever it is written."""
_LATIN_EXTRA = {letter: count - 1 for count, letters in LATIN_TOKENS.items() for letter in letters
                if letter not in LATIN_SPLIT}
_LATIN_ALONE = re.compile("[" + "".join(_LATIN_EXTRA) + "](?=[A-Za-z])(?<=[A-Za-z].)")  # the rarer class first
"""An accented letter of several tokens that some token holds whole (``À``, ``Ö``) between two ASCII letters:
both its pairs are cuts, as no pair of :data:`~.token_tables.LATIN_JOINS` holds a letter of
:data:`~.token_tables.LATIN_TOKENS` (checked by tests/compaction/test_tokens_latin.py), so it is a piece of its
own, as many tokens as alone. (A letter of :data:`~.token_tables.LATIN_SPLIT` has its end inside counted.)"""


def latin_cut_units(text: str) -> int:
    """Token ends the vocabulary forces between ASCII letters and accented Latin letters in a text's first
    :data:`PREFIX_CHARS` characters, in 1/32 tokens (Vietnamese, Turkish, Polish, Czech…). Proved from the
    vocabulary, not fitted: :data:`~.token_tables.LATIN_JOINS` is every pair of an ASCII letter and an accented
    letter that any token holds (read from all of them by bench/token_corpus/tables.py), and a byte-pair tokenizer
    only makes tokens of its vocabulary, so at any other such pair (`` viết`` is `` vi``, two byte tokens, ``t``) a
    token ends: its merges on either side run as if the other side were not there. So a run of letters cut there
    ``k`` times is ``k + 1`` tokens at least, where the run bound counts one. And most accented letters of several
    bytes are held whole by no token at all (:data:`~.token_tables.LATIN_SPLIT`, read from every token too: ``ế``,
    ``ằ``, ``ĭ``), so a token ends inside each, whatever surrounds it (`` ằnd`` is three tokens at least: the cut
    before ``n`` and the end inside ``ằ``); the few others cut from ASCII letters on both sides are a piece of their
    own, as many tokens as alone (:data:`~.token_tables.LATIN_TOKENS`). These ends fall between two letters of one
    run or inside a letter, where the run bound counts none, and next to a character beyond ASCII, where the rare
    pairs and triples (ASCII alone) count none: added to them, they count each end once. The weights price an accented
    letter at its block's average, which natural pieces of 33-200 characters beat: the ASCII letters after each
    such letter start a new token, which no per-byte floor of the letter itself can price
    (``kçe olarak belgelenmesini istedi.``). Read in the first characters only, as the other ends inside runs: a
    long text's weights have averaged out. The text must be as the tokenizer reads it (NFKC: ``ǅ`` is read ``Dž``, which
    a token may join to an ASCII letter); the caller reads others as they are read. Every step is a scan or a
    count in C: no Python loop per letter or run; the caller has told that the first characters write an accented
    letter (:func:`latin_units`)."""
    pairs = _LATIN_AFTER.findall(text, 0, PREFIX_CHARS) + _LATIN_BEFORE.findall(text, 0, PREFIX_CHARS)
    cuts = len(pairs) - sum(map(_LATIN_JOINS.__contains__, pairs))
    cuts += len(_LATIN_SPLIT.findall(text, 0, PREFIX_CHARS))
    cuts += sum(map(_LATIN_EXTRA.__getitem__, _LATIN_ALONE.findall(text, 0, PREFIX_CHARS)))
    return cuts * UNITS_PER_TOKEN


def _ranges(table: str) -> str:
    return "".join(f"{re.escape(table[at])}-{re.escape(table[at + 1])}" for at in range(0, len(table), 2))


@functools.cache
def _char_split() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The characters no token holds whole, and those of them with two ends inside, as character classes (built at
    the first text beyond ASCII, in a sixth of a second: 11,000 ranges)."""
    whole = "[" + "".join(map(re.escape, CHAR_SPLIT)) + _ranges(CHAR_SPLIT_ONE + CHAR_SPLIT_TWO) + "]"
    return re.compile(whole), re.compile("[" + _ranges(CHAR_SPLIT_TWO) + "]")


def char_splits(text: str) -> int:
    """The characters of a text's first :data:`PREFIX_CHARS` that no token holds whole, beyond the accented Latin
    letters :func:`latin_cut_units` counts (:data:`~.token_tables.CHAR_SPLIT`: Armenian, most Greek capitals, much
    of Cyrillic beyond Russian, combining marks, modifier letters; read from every token of the vocabulary by
    bench/token_corpus/tables.py): a token ends between the two bytes of each, wherever it is written. Proved, not
    fitted, as the Latin cuts: an end inside a character is at no boundary between characters, where the runs and
    the other ends inside runs fall, so it adds to them. The run bound leaves such a character out (it reads Latin-1),
    so a piece it sits in alone counts nothing there (``\u0538j`` among control characters, in bytes read as UTF-8:
    0.89 of the real count one draw in 10,000 before, tok44). One C scan; the text must be as the tokenizer reads it
    (NFKC), as for the Latin cuts.

    And those of three bytes no token holds whole (:data:`~.token_tables.CHAR_SPLIT_ONE`: an end inside each), two
    ends inside those of which no token holds two bytes together (:data:`~.token_tables.CHAR_SPLIT_TWO`: most
    arrows, mathematical and technical symbols, Cherokee, private use; each is three tokens wherever it is written).
    Their blocks' weights are averages of the characters texts write, and the control bound counted none of their
    tokens: symbols beyond Latin-1 among control characters were 0.78 of the real count about once in 40 draws
    before (tok48)."""
    split, two = _char_split()
    return len(split.findall(text, 0, PREFIX_CHARS)) + len(two.findall(text, 0, PREFIX_CHARS))


LATIN_LANGUAGE_UNITS = 4
"""What an ASCII letter of a text's first :data:`PREFIX_CHARS` characters adds to its bound where those write an
accented Latin letter, in 1/32 tokens (:func:`latin_units`)."""
_NOT_ASCII_LETTERS = bytes(value for value in range(256) if not chr(value).isascii() or not chr(value).isalpha())


def latin_units(text: str) -> int:
    """What the first :data:`PREFIX_CHARS` characters of a text that writes accented Latin letters add to the ends
    inside runs, in 1/32 tokens: the cuts the vocabulary proves (:func:`latin_cut_units`), and
    :data:`LATIN_LANGUAGE_UNITS` per ASCII letter. The run bound counts one token a word, right for English, whose
    words a tokenizer holds whole; the words beside accented letters are of languages it barely knows (Turkish
    `` olarak`` is three tokens, `` belgelenmesini`` five, Vietnamese syllables two or three beside their accented
    letter, random syllables one per two or three letters): 0.3-0.5 token a letter where the run bound reads 0.2.
    Added to the bound, not to the weights: the weights of such a text are English's plus its accented letters'
    block average, above the real count over a long text (Turkish 1.01, Vietnamese 1.0 on the calibration half),
    so the bound lifts only the short pieces whose few accented letters the weights under-price, and the random
    syllables (a word of one to three consonant-vowel pairs), which no language's weights price. Fitted on pieces of
    the calibration half and random syllables (tests/compaction/test_tokens_latin.py); 0 for any other text."""
    if not ACCENTED_LETTER.search(text, 0, PREFIX_CHARS):  # most texts beyond ASCII write none: one fast scan
        return 0
    letters = len(text[:PREFIX_CHARS].encode("ascii", "ignore").translate(None, _NOT_ASCII_LETTERS))
    return latin_cut_units(text) + LATIN_LANGUAGE_UNITS * letters


PERIODIC_MIN = 24
PERIODIC_SHARE = 4
"""Periodic characters a text must hold at one period before its stretches are priced (see
:func:`periodic_units`): this many, or a quarter of the text if less (``segel`` × 6 is a short text and all
repeats); below, each repeat costs a token. The Python work per stretch stays off the coincidental repeats of
natural text (``...``, ``---``), which cost no more than their weights anyway."""

PERIODIC_UNITS = 16
"""What a character of an ASCII stretch repeating a group costs at least, in 1/32 tokens: half a token. A
tokenizer merges the groups natural text writes (``ab``), once: ``ab`` × 2,000 is 2,000 tokens, ``i`` × 4,000
2,000. Runs it merges further (``x`` × 1,600 is 50 tokens) come out high: nothing in the text tells ``x`` from ``i``;
digits are left to the run bound, whitespace alone to its changes (:func:`_whitespace_changes`), drawn lines to
their weights, higher."""

LONG_GROUP_UNITS = 24
"""What a character of an ASCII stretch repeating a group of three characters or more costs at least: three
quarters of a token. A random group of three to eight is cut into a token per one or two characters (``mvg``
× 1,000 is 2,000 tokens, ``kxwq`` × 1,000 and ``Aacu`` × 1,000 3,000), whatever pairs natural text merges in it."""

WORD_UNITS = LONG_GROUP_UNITS
"""What a character other than whitespace of an ASCII stretch repeating a group that holds a space or a tab
(words repeated) costs at least, in 1/32 tokens, and a token per repeat if more, beside the run bound's token
per word: a tokenizer cuts each repeat alone, and a word it lacks into a token per one or two characters
(`` aab`` is `` a``, ``ab``; ``qqo `` is ``qq``, ``o``, `` q``, ``q``, ``o``…). The words it has come out high
(``word `` × 400 is 401 tokens, estimated 1,600): nothing in the text tells them apart."""

WIDE_PERIODIC_UNITS = 2 * UNITS_PER_TOKEN
"""What a code unit of a stretch whose group holds a character that is not ASCII costs: two tokens. Repeated, a
character of a fitted block is one token (``а``, ``的``, ``é``) or two (``η``, ``│``, ``ก``), never three; one
above U+FFFF is two units and at most two tokens; the unfitted blocks weigh their UTF-8 bytes already. Drawn
lines (``─``, ``═``), which a tokenizer merges, come out a little above their weights."""

# a code unit's byte for periodic matching: its low byte, with the top bit set above U+00FF, so that ASCII is
# itself and nothing else is ASCII (two characters alike in their low seven bits can only add a repeat, never
# hide one: a random pair of them is alike one time in 128, as any two characters in seven bits)
_TOP_BIT_IF_NOT_ZERO = bytes([0]) + bytes([128]) * 255


def _periodic_codes(text: str, utf16: bytes | None = None) -> bytes:
    """One byte per UTF-16 code unit of ``text`` (see above; an astral character is two units), runs of spaces
    and of tabs collapsed (:func:`_collapse`). All in C: the low bytes OR the high bytes read as 0 or 128. Its
    UTF-16-BE may be given (``surrogatepass``)."""
    if text.isascii():
        return _collapse(text.encode("ascii"))
    units = utf16 or text.encode("utf-16-be", "surrogatepass")
    low = units[1::2]
    high = int.from_bytes(units[0::2].translate(_TOP_BIT_IF_NOT_ZERO), "big")
    return _collapse((int.from_bytes(low, "big") | high).to_bytes(len(low), "big"))


def periodic_units(text: str) -> int:
    """Tokens of the stretches of ``text`` that repeat a group of up to :data:`MAX_PERIOD` code units, in 1/32
    tokens, at the period where they cost most: a tokenizer has no token for a random group twice, so each
    repeat costs at least what the group costs alone. A stretch's characters cost :data:`PERIODIC_UNITS` each,
    or the group's rare pairs per character if more (``kxwq`` × 1,000 is 3,000 tokens), or, where the group
    holds a character that is not ASCII, :data:`WIDE_PERIODIC_UNITS` (``η`` × 300 is 600 tokens: a token per
    byte); a group holding a space or a tab (words) :data:`WORD_UNITS`. A stretch is the group twice at
    least: random letters doubled (``xjnxareaxjnxarea``) cost a group per copy past the first like any repeat
    (0.42-0.65 of the real count where a group of three or more had to be there three times). Runs of spaces
    and of tabs are read as one (:func:`_collapse`), and each change between whitespace characters a tokenizer
    does not merge adds a token (:func:`_whitespace_changes`). Reads
    the whole text, at every period: a few C operations per period, and Python work per stretch only where a
    period has :data:`PERIODIC_MIN` repeating characters or more (a quarter of a shorter text)."""
    latin = text.encode("latin-1", "ignore")
    _, bits, masks = _runs(latin)
    return _periodic(_periodic_codes(text))[0] + _whitespace_changes(latin, bits, masks) * UNITS_PER_TOKEN


def _periodic(codes: bytes) -> tuple[int, int]:
    """:func:`periodic_units` of the codes of a text, and their :func:`_repeats`."""
    size = len(codes)
    if size < 3:
        return 0, 0
    whole = int.from_bytes(codes, "big")
    best = repeats = 0
    prefix = min(size, PREFIX_CHARS)
    least = min(PERIODIC_MIN, size // PERIODIC_SHARE)
    for period, shift, zeros, prefix_zeros in _PERIODS[: min(MAX_PERIOD, size // 2)]:
        same = ((whole >> shift) ^ whole).to_bytes(size, "big")  # byte i: zero where code i == code i - period
        found = same.count(zeros, period)
        if prefix_zeros:  # the repeats of the first characters (see _repeats), counted here at no further cost
            count = found if prefix_zeros is zeros and prefix == size else same.count(prefix_zeros, period, prefix)
            if count > repeats:
                repeats = count
        if not found:
            continue
        if found * len(zeros) >= least:
            units = sum((end - start) * _group_units(codes[end - period : end], end - start >= 2 * period)
                        for start, end in _stretches(same, zeros, same.find(zeros, period)))
        else:
            units = found * UNITS_PER_TOKEN
        if units > best:
            best = units
    return best, repeats


WHITESPACE = " \t\n\r\x0b\x0c"
MERGED_WHITESPACE = ("\n ", "\n\t", "\r\n")
"""The changes from one whitespace character to another that a tokenizer merges: a line break and the next line's
indentation, CR LF. It merges a run of one character too, and ends a token at any other change (`` \\t`` × 2,000
is 2,000 tokens, ``"    \\n \\t"`` is ``"    "``, ``"\\n "``, ``"\\t"``): a line break joins what follows it, not what
comes before."""


def _whitespace_changes(latin: bytes, bits: int, masks: dict[int, int]) -> int:
    """The changes between whitespace characters that end a token (see :data:`MERGED_WHITESPACE`) in the Latin-1
    bytes of a text (and the bit planes :func:`run_units` read from them): each costs a token, while a stretch
    repeating whitespace alone costs nothing. A few integer operations where the text holds spaces, tabs and
    line feeds alone, else a C count per kind of change it can hold."""
    if b"\r" in latin or b"\x0b" in latin or b"\x0c" in latin:
        present = "".join(char for char in WHITESPACE if ord(char) in latin)
        return sum(map(latin.count, _changes_among(present)))
    # a space, then a tab or a line feed (their bits moved down to the plane of spaces by one and by two)
    changes = (((bits & masks[_SPACE]) >> 8) & ((bits >> 1) | (bits >> 2))).bit_count()
    if b"\t" in latin:  # a tab, then a space or a line feed
        changes += (((bits & masks[_TAB]) >> 9) & (bits | (bits >> 2)) & masks[_SPACE]).bit_count()
    return changes


_WHITESPACE_BYTES = WHITESPACE.encode()


@functools.cache
def _changes_among(present: str) -> tuple[bytes, ...]:
    return tuple((a + b).encode() for a in present for b in present if a != b and a + b not in MERGED_WHITESPACE)


@functools.lru_cache(maxsize=4096)
def _group_units(group: bytes, thrice: bool = True) -> int:
    """What one code unit of a stretch repeating the group of these codes costs, in 1/32 tokens. A group of
    words written only twice (``gamma gamma``, not ``thrice``) costs its rare pairs and at least a token a copy:
    a tokenizer reads a natural word's copy as the word again, while a random group's pairs are cut as in the
    first copy (``xjnx xjnx``)."""
    if not group.isascii():
        return WIDE_PERIODIC_UNITS
    if group.isdigit():
        return 0  # the run bound counts a token per four digits already, what a repeated number costs at most
    if not group.strip(_WHITESPACE_BYTES):
        return 0  # its changes are counted apart, and a run of one whitespace character is one long token
    group = _root(group)
    size = len(group)
    cyclic = (group + group[:2]).decode("ascii")
    pairs = sum(1 for start in range(size) if cyclic[start : start + 2] in _rare_pair_set())
    triples = sum(1 for start in range(size) if cyclic[start : start + 3] in _rare_triple_set())
    if b" " in group or b"\t" in group:
        letters = len(group.translate(None, _WHITESPACE_BYTES))
        least = max(UNITS_PER_TOKEN, WORD_UNITS * letters if thrice else 0)
    else:
        least = (PERIODIC_UNITS if size < 3 else LONG_GROUP_UNITS) * size
    return max(least, pairs * UNITS_PER_TOKEN + triples * TRIPLE_UNITS) // size


def _root(group: bytes) -> bytes:
    """The shortest group that ``group`` repeats (``xxx`` is ``x`` thrice: a stretch of one letter)."""
    size = len(group)
    return next(group[:part] for part in range(1, size + 1) if size % part == 0 and group[:part] * (size // part) == group)


def _stretches(same: bytes, zeros: bytes, at: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each run of ``same``'s zero bytes as long as ``zeros`` or longer, the first starting ``at``
    (-1: none): a C search for the next run's start and a match of its end, where a regular expression for the
    runs (``\\x00{3,}``) steps through every byte in the engine (12 ns a byte: a third of the estimate of a long
    natural text, whose coincidental stretches at one period or another pass :data:`PERIODIC_MIN` whenever they
    are short)."""
    find, tail = same.find, _ZERO_TAIL.match
    while at >= 0:
        end = tail(same, at + len(zeros)).end()
        yield at, end
        at = find(zeros, end)


_ZERO_TAIL = re.compile(b"\\x00*")



RANDOM_VOWELS, NATURAL_VOWELS = 23, 27
"""Percentages of vowels among letters between which text goes from random letters (a fifth are vowels) to a
language: every natural class of the corpus writes 29% or more (identifiers and shell, the fewest), random
letters, lowercase or mixed with digits and punctuation, 17-21% (see :func:`random_letter_units`)."""

VOWELS = "aeiouAEIOU" + "".join(chr(code) for code in range(0xC0, 0x100)
                                 if unicodedata.normalize("NFD", chr(code))[0] in "aeiouAEIOU")
"""The vowels, accented ones of Latin-1 too (a letter of another alphabet is not read here)."""

RANDOM_LETTER_UNITS = UNITS_PER_TOKEN // 2
"""What a letter of random letters costs, in 1/32 tokens, the runs' half counted off: half a token. A tokenizer
cuts random letters into tokens of one or two, whatever their words' lengths and whether a group repeats
(``goj`` is ``go``, ``j``; ``gojgoj`` is four tokens, not ``goj`` twice): over 400 random lowercase words of
each length from 1 to 12, written once or twice, the real count is the words plus 0.44-0.52 a letter past each
word's first."""

RANDOM_LETTERS_MIN = PREFIX_CHARS // 2
"""Letters a text must hold before their vowels are read: a few dozen letters of a language may hold few
(``python -m pytest -q``: 14%), while the ends inside runs read a short text whole."""

_VOWEL_ONES = bytes(1 if chr(value) in VOWELS else 0 for value in range(256))


def random_letter_units(latin: bytes, runs: int, bits: int, masks: dict[int, int], beside: int = 0) -> int:
    """The ends inside random letters over the whole Latin-1 bytes of a text (their run bound ``runs`` and the
    bit planes it read given), in 1/32 tokens: :data:`RANDOM_LETTER_UNITS` per letter less half the runs, so
    that with the run bound a word and each of its letters cost half a token, where the letters are random: all
    of it where they are poor in vowels (:data:`RANDOM_VOWELS` percent and below, none at :data:`NATURAL_VOWELS`
    and above, in proportion between) or surprising to a language (:func:`surprise_share`: random letters with
    as many vowels as English), whichever is more; or, where the letters are English's but their words are not
    (:func:`_word_share`), up to :data:`WORD_PRICE` of it, the one rule read below :data:`RANDOM_LETTERS_MIN` letters
    (there from :data:`SHORT_WORD_LETTERS` letters and :data:`SHORT_WORDS_MIN` words, up to :data:`SHORT_WORD_PRICE`).
    The ends inside runs read the first characters only, the
    consonant-run bound of tokens.py needs words of four letters and more that do not repeat; this one reads
    every letter, in one popcount and two translates summed by ``zlib.adler32``.

    The words are read only where what they could price at most is above ``beside``, what the caller's estimate
    is at least without them (see :func:`bound_units`): most texts that reach the word check are natural text its
    weights price above anything the words could (a few words of English: the words' most is a few tokens past the
    runs), and reading them costs a microsecond or two a text; below ``beside`` the words are read as 0, which
    changes no estimate."""
    letters = (bits & masks[_LETTER]).bit_count()
    most = RANDOM_LETTER_UNITS * letters - runs // 2
    if most <= 0:
        return 0
    if letters < RANDOM_LETTERS_MIN:  # too few letters for their vowels or surprisal, not for their words
        if letters < SHORT_WORD_LETTERS or most * SHORT_WORD_PRICE[0] // SHORT_WORD_PRICE[1] <= beside:
            return 0
        return most * SHORT_WORD_PRICE[0] * _word_share(latin, SHORT_WORDS_MIN) // (SHORT_WORD_PRICE[1] * WORD_SPAN)
    vowels = _byte_total(latin.translate(_VOWEL_ONES), 1)
    poor = min(NATURAL_VOWELS * letters - 100 * vowels, (NATURAL_VOWELS - RANDOM_VOWELS) * letters)
    units = most * poor // ((NATURAL_VOWELS - RANDOM_VOWELS) * letters) if poor > 0 else 0
    latin_letters = letter_surprise(0x00)
    surprising, span = surprise_share(latin_letters, latin, letters)
    units = max(units, most * surprising // span)
    if max(units, beside) < most * WORD_PRICE[0] // WORD_PRICE[1]:
        units = max(units, most * WORD_PRICE[0] * _word_share(latin) // (WORD_PRICE[1] * WORD_SPAN))
    return units


WORD_MISSES = (10, 90)
"""Percentages of the letters of a text's words past each word's first (:func:`words`) that are in no common word
(:data:`COMMON_WORDS`: the sessions' words and those a tokenizer holds whole) between which letters in English's
order go from English to letters that write no words (a Markov chain of English letters: ``thes ofte ther
coprer``), or to a vocabulary's words a tokenizer holds no token for (``methane ethane``, ``lorem ipsum``, city
names): a tokenizer cuts both into pieces of two to four letters. Counted by letters, not words: a word a tokenizer
lacks costs by its letters (``praseodymium``), where a short one a chain writes by chance (``ther``) is a token. The
natural classes of the corpus stay within their weights whatever they miss (English misses the long words of a
tokenizer's vocabulary now and then), and the gate of :data:`WORD_LIKE` keeps other languages out."""

WORD_SPAN = WORD_MISSES[1] - WORD_MISSES[0]

WORD_PRICE = (5, 8)
"""The share of random letters' price (:data:`RANDOM_LETTER_UNITS`) that letters writing no words cost at most: a
tokenizer cuts them into longer pieces than random letters (a common pair or triple is one token): 0.2-0.3 tokens a
letter past a word's first, for Markov chains of English letters of order 1 and 2 and for words of a vocabulary it
lacks alike (0.5 for random letters)."""

WORDS_MIN = 5
"""Words a text must hold in its :func:`word_sample` before they are read; however few its letters (a Markov chain of
English letters, or a vocabulary a tokenizer lacks, 100 characters long: 0.63-0.75 of the real count while the rule
waited for :data:`RANDOM_LETTERS_MIN` letters, 1.05-1.25 now; natural text cut in 60-character pieces comes out 0-1.5%
higher)."""

SHORT_WORD_LETTERS = 12
"""Letters a text must hold before its words are read (where it holds fewer than :data:`RANDOM_LETTERS_MIN`): each
text that reaches the word check costs 1-2 µs, and strings this short are most of a session's. From 48 letters a
Markov chain of English letters at 60-90 characters was still below 0.9 one time in ten (0.60 at worst), and at
30-60 most were (0.53-0.59 at worst); from 20 letters, with :data:`SHORT_WORDS_MIN` and :data:`SHORT_WORD_PRICE`,
none of 1,000 of each of Markov chains of order 1 and 2, chemistry's names and Latin placeholder text at 30-90
characters is (0.97 at worst), one of 1,000 of cities' names was (0.88: ``georgia``, a common word a tokenizer
holds only capitalized and cuts in three lowercase, which the tables no longer count as a common word lowercase).
Under 30 characters a Markov chain of English letters of 15-25 characters was still 0.73-0.80 at 20 letters; from
12, 1-32 characters, none of 4,800 is under 0.9 where the floor is :data:`SHORT_TOKENS` (the words are read only where
they could raise the estimate: :func:`random_letter_units`, so the sessions' strings reach the check half as
often as they did from 20)."""

SHORT_WORDS_MIN = 1
"""Words a text under :data:`RANDOM_LETTERS_MIN` letters must hold before they are read (:data:`WORDS_MIN` for a
longer one): a text of 30 characters writes one or two words of four letters or more, and one a tokenizer lacks
(``ctobelinlersigobully``) costs what it costs whatever surrounds it. A short natural text that writes a word no
common word holds is priced up a little: natural text cut in 50-character pieces comes out 0.2% higher, in 100 no
higher."""

SHORT_WORD_PRICE = (6, 8)
"""The share of random letters' price that letters writing no words cost at most in a text under
:data:`RANDOM_LETTERS_MIN` letters, above :data:`WORD_PRICE`: a short text's words are cut with fewer merges than a
long text's (each starts a pre-token of its own, and a chain's short words are one or two tokens whoever holds
them): at 5/8 a Markov chain of English letters of 30-60 characters was 0.75-0.87 of the real count at worst."""

WORD_WINDOW = 128
WORD_WINDOWS = 4
"""A text's words are read in up to this many windows of :data:`WORD_WINDOW` bytes (:func:`word_sample`): the whole
of a text up to 512 bytes, else four windows at even steps. 15-20 words tell a language's from no language's (an
order-2 chain misses 52-100% of their letters, English 0-15%), but not how many of a vocabulary's words a tokenizer
lacks: one window of the words of Unicode's character names read 42-89% of their letters missed where the whole
missed 56-69% (0.80 of the real count at worst); four read 0.95 at worst. A text costs what 512 bytes do."""

WORD_LIKE = 0.4
"""Bits per letter above the English table's mean surprisal of its letters below which a text is English-like
enough for its words to be read: as far as :data:`NATURAL_SURPRISE`, from where the letters are priced as random
letters by their own surprisal. Names a tokenizer lacks are rich in letters English writes seldom (cities' names
0.2-0.3 bits above its mean: ``khandyga``, ``ndjamena``); languages whose letters are as near English's are read too
(Dutch, Italian, Indonesian written without accents): a tokenizer lacks their words as well (they were 0.64-0.75 of
the real count); the others that write Latin letters write accents (:data:`ACCENTED`). Their pairs are not read: the
words of a vocabulary a tokenizer lacks (chemistry, Latin, place names) are in pairs English writes seldom (0.4-0.9
bits above its mean)."""

ACCENTED = 1
"""Percentage of a text's letters that are Latin-1 letters beyond ASCII (``é``, ``ü``, ``ñ``) above which its words are
not read: the common words are English's and code's, and French, German, Spanish, Italian and Portuguese, whose
letters and pairs are as near English's as those of a Markov chain of English letters, write 1-4% of them (and
their own words, which a tokenizer holds), English hardly any."""

_WORD = re.compile(rb"[A-Z][a-z]{3,}|[a-z]{4,}|[A-Z]{4,}(?![a-z])")
_ACCENTED_ONES = bytes(1 if value >= 0xC0 and chr(value).isalpha() else 0 for value in range(256))


def words(latin: bytes) -> list[bytes]:
    """The words of four ASCII letters or more of the Latin-1 bytes of a text, lowercase: runs of lowercase letters,
    a capital and lowercase letters, or capitals, so that an identifier is cut where its case changes (``handleRevoke``
    is ``handle`` and ``revoke``; ``HTTPServer`` is ``http`` and ``server``), and at underscores: a name made of words
    writes words, where letters in a language's order make none. A run of letters and digits that holds a digit
    (``sha256``, a hash, a key in base64: ``HwiC0ZC3CMDyzj``) writes none: its letters are an id's."""
    return b" ".join(_cased_words(latin)).lower().split()


def word_sample(latin: bytes) -> bytes:
    """What a text's words are read in: the whole up to :data:`WORD_WINDOWS` windows of :data:`WORD_WINDOW` bytes, else
    that many windows at even steps from its start to its end, each without the words it cuts at its edges, joined by
    a space. A vocabulary's words are drawn throughout a text, and the few a tokenizer lacks among many it holds may
    all fall outside its first 128 bytes (Unicode's character names: 42% of the letters missed there, 64% in all)."""
    size = len(latin)
    if size <= WORD_WINDOW * WORD_WINDOWS:
        return latin
    step = (size - WORD_WINDOW) // (WORD_WINDOWS - 1)
    return b" ".join(_whole_words(latin, start, start + WORD_WINDOW) for start in range(0, step * WORD_WINDOWS, step))


def _whole_words(latin: bytes, start: int, end: int) -> bytes:
    """The bytes from ``start`` to ``end`` less a word cut at either edge (``alphabet`` read from its ``habet``)."""
    window = latin[start:end]
    if start and latin[start - 1 : start + 1].isalnum():
        window = window.lstrip(_WORD_BYTES)
    if end < len(latin) and latin[end - 1 : end + 1].isalnum():
        window = window.rstrip(_WORD_BYTES)
    return window


_WORD_BYTES = (string.ascii_letters + string.digits).encode("ascii")


def _cased_words(latin: bytes) -> list[bytes]:
    """:func:`words` as the text writes them (lowercase, capitalized or capitals): its runs of ASCII letters and digits
    that hold no digit (a translate and a split, in C), and the pattern only in the few runs that change case
    inside: a string method per run tells them (one neither lowercase, capitalized nor capitals), where a search
    of the text for a change of case cost more than the rest of the words together."""
    found = [run for run in latin.translate(_LETTERS_AND_DIGITS).split() if len(run) >= 4 and run.isalpha()]
    if any(not (run.islower() or run.istitle() or run.isupper()) for run in found):
        found = [word for run in found for word in
                 ((run,) if run.islower() or run.istitle() or run.isupper() else _WORD.findall(run))]
    return found


_LETTERS_AND_DIGITS = bytes(value if chr(value) in string.ascii_letters + string.digits else ord(" ")
                            for value in range(256))


@functools.cache
def _common_words() -> frozenset[bytes]:
    """The common words as a text may write them: lowercase, capitalized and in capitals; and those a tokenizer holds
    capitalized only (names: ``Tokyo``, not ``tokyo``), capitalized and in capitals."""
    common = COMMON_WORDS.encode("ascii").split()
    names = CAPITALIZED_WORDS.encode("ascii").split()
    written = common + names
    return frozenset(common + [word.capitalize() for word in written] + [word.upper() for word in written])


def _word_share(latin: bytes, least: int = WORDS_MIN) -> int:
    """How far the words of a text (its Latin-1 bytes) are from a language's, from 0 to :data:`WORD_SPAN`: the share
    of the letters past each word's first (:func:`words`, in its :func:`word_sample`) that are in no
    common word, where its letters (read in :func:`pair_sample`) are English-like (:data:`WORD_LIKE`, raised by
    :data:`SURPRISE_DOUBT` over the square root of the letters), and its sample holds ``least`` words or more. The
    surprisal is read only after the words tell of no language."""
    found = _cased_words(word_sample(latin))
    if len(found) < least:
        return 0
    held = list(filter(_common_words().__contains__, found))  # counted in C, as the words are found
    past_first = sum(map(len, found)) - len(found)
    misses = 100 * (past_first - sum(map(len, held)) + len(held)) // past_first
    if misses <= WORD_MISSES[0]:
        return 0
    sample = pair_sample(latin)
    alphabet = letter_surprise(0x00)
    scores = sample.translate(alphabet.table)
    letters = len(scores) - scores.count(0)
    if 100 * _byte_total(sample.translate(_ACCENTED_ONES), 1) > ACCENTED * letters:
        return 0
    like = (round(32 * WORD_LIKE) + round(32 * SURPRISE_DOUBT) // math.isqrt(max(1, letters))) * letters
    if 16 * _byte_total(scores, SURPRISE_CAP) - alphabet.natural * letters > like:
        return 0
    return min(misses, WORD_MISSES[1]) - WORD_MISSES[0]


def _byte_total(data: bytes, largest: int) -> int:
    """The sum of the bytes of ``data``, none above ``largest``: read from adler32's low half per chunk small
    enough never to reach the modulus it wraps at (65521)."""
    chunk = 65520 // max(1, largest)
    if len(data) <= chunk:
        return zlib.adler32(data, 0) & 0xFFFF
    view = memoryview(data)
    return sum(zlib.adler32(view[start : start + chunk], 0) & 0xFFFF for start in range(0, len(data), chunk))


# -- letters a language writes seldom -------------------------------------------------------------------------

ALPHABETS: dict[str, tuple[int, int]] = {
    "latin": (0x0000, 0x00FF), "greek": (0x0370, 0x03FF), "cyrillic": (0x0400, 0x045F), "hebrew": (0x0590, 0x05FF),
    "arabic": (0x0600, 0x06FF), "devanagari": (0x0900, 0x097F), "georgian": (0x10A0, 0x10FF),
}
"""The alphabets whose letters are weighed against a language's (each within one block of 256 code points, the
high byte of a UTF-16 code unit): their letter frequencies are counted on the calibration half of the corpus
(``token_tables.LETTER_COUNTS``)."""

SURPRISE_UNSEEN = 0.5
"""The count a letter the corpus never wrote is read at: rarer than any it wrote, not impossible."""

SURPRISE_CAP = 31
"""Surprisal is read in half bits (``-2 log2 share``), up to this many: a byte each, summed 2,000 at a time."""

NATURAL_SURPRISE, RANDOM_SURPRISE = 0.4, 0.55
"""Bits per letter above a language's own mean surprisal (the mean its calibration text has) between which a text
goes from that language to random letters: on both halves of the corpus every natural class but the encodings
stays at 0.37 or below (generated identifiers, the most; the held-out Hebrew and Arabic 0.34), while random letters
drawn alike are 0.9-1.2 above English and above each other alphabet's language at a few hundred letters, and
random letters with English's share of vowels 0.55-0.7 (0.45 and up at 200 letters)."""

SURPRISE_DOUBT = 1.5
"""How far a text's mean surprisal may stray by chance, in bits, times the square root of its letters (a
letter's surprisal varies by about this much): a short text is read as random letters from lower, since the
few letters a short natural text holds tell little, and where the letters are random the estimate must hold."""


def fold(char: str) -> str:
    """A letter as the letter tables count it: lowercase, without its accent where the base letter is in the same
    block of 256 code points (``É`` is ``e``, ``Ά`` is ``α``, ``Ё`` is ``е``)."""
    lower = char.lower()
    if len(lower) != 1:
        return char
    base = unicodedata.normalize("NFD", lower)[0]
    return base if ord(base) >> 8 == ord(char) >> 8 else lower


def alphabet_of(char: str) -> str | None:
    """The alphabet of :data:`ALPHABETS` a character is a letter of (or a mark: Indic vowel signs), if any."""
    code = ord(char)
    if unicodedata.category(char)[0] not in "LM":
        return None
    return next((name for name, (first, last) in ALPHABETS.items() if first <= code <= last), None)


class LetterSurprise:
    """An alphabet's letter table: per low byte of its block the letter's surprisal in half bits (0 for no
    letter, and for the block's first code point, which stands for a character of another block), and the mean
    a text of the language it was counted on has, in 1/16 half bits."""

    def __init__(self, block: int) -> None:
        letters = {low: fold(chr(block << 8 | low)) for low in range(1, 256) if alphabet_of(chr(block << 8 | low))}
        counts = LETTER_COUNTS.get(block, {})
        alphabet = sorted(set(letters.values()))
        total = max(1, sum(counts.get(letter, 0) for letter in alphabet))
        score = {letter: max(1, min(SURPRISE_CAP, round(-2 * math.log2(max(counts.get(letter, 0), SURPRISE_UNSEEN)
                                                                           / total))))
                 for letter in alphabet}
        self.block = block
        self.table = bytes(score[letters[low]] if low in letters else 0 for low in range(256))
        self.natural = round(16 * sum(counts.get(letter, 0) * score[letter] for letter in alphabet) / total)


@functools.cache
def letter_surprise(block: int) -> LetterSurprise:
    return LetterSurprise(block)


def surprise_share(alphabet: LetterSurprise, data: bytes, letters: int) -> tuple[int, int]:
    """How far the ``letters`` letters of ``data`` (a text's bytes read through the alphabet's block: its Latin-1
    bytes, or the low bytes of the block's code units, 0 for any other) are from its language towards random
    letters, as a fraction (numerator, denominator): by the letters' own surprisal (0 up to :data:`NATURAL_SURPRISE`
    bits per letter above the language's mean, 1 from :data:`RANDOM_SURPRISE`) or by their pairs'
    (:data:`PAIR_SURPRISE`, where the alphabet's pairs are read: :class:`LetterPairs`), whichever is more; the
    thresholds lowered by :data:`SURPRISE_DOUBT` over the square root of the letters."""
    if not letters:
        return 0, 1
    doubt = round(32 * SURPRISE_DOUBT) // math.isqrt(letters)
    excess = 16 * _byte_total(data.translate(alphabet.table), SURPRISE_CAP) - alphabet.natural * letters
    share = _between(excess, letters, NATURAL_SURPRISE, RANDOM_SURPRISE, doubt)
    pairs = letter_pairs(alphabet.block)
    if pairs.paired and share[0] < share[1]:
        by_pairs = _between(pairs.excess(data, letters), letters, *PAIR_SURPRISE, doubt)
        if by_pairs[0]:  # only then are the words read one by one: most texts' pairs tell nothing
            by_pairs = _between(pairs.excess(data, letters, distinct=True), letters, *PAIR_SURPRISE, doubt)
        if by_pairs[0] * share[1] > share[0] * by_pairs[1]:
            return by_pairs
    return share


def _between(excess: int, letters: int, natural: float, random: float, doubt: int) -> tuple[int, int]:
    """Where an excess over a language's mean of ``letters`` letters (in all, in 1/16 half bits) falls between two
    thresholds (bits per letter, both lowered by ``doubt`` 1/32 bits), as a fraction from 0 to 1."""
    span = round(32 * (random - natural)) * letters
    return min(max(excess - (round(32 * natural) - doubt) * letters, 0), span), span


PAIR_SURPRISE = (0.5, 0.7)
"""Bits per letter above a language's mean surprisal of its letters' pairs (:class:`LetterPairs`) between which a
text goes from that language to random letters: on both halves of the corpus every natural class stays at 0.43 or
below (logs, the most; Turkish 0.34), while English, French and German shuffled (letters drawn with the language's
own frequencies, whose surprisal one by one is the language's) are 0.94-1.1 above the Latin table and Russian
shuffled 0.66-0.81 above the Cyrillic one, at 1,000 letters."""

LETTER_CLASSES = 15
"""Letters of an alphabet told apart by what follows what: its 14 commonest letters each and the rest together, so
that a letter's class after the class before it (or after no letter: a word's start) is one byte of 16 x 16 (class
0: no letter)."""

PAIRS_MIN = 1000
"""Letters an alphabet's table must hold before its pairs are read: fewer (Greek's 413, Arabic's 302, Hebrew's 251,
Georgian's 180) tell too little of what follows what, and such an alphabet is read by its letters alone."""

PAIR_PRIOR = 24
"""How many pairs after each class the classes' own shares are worth, in letters (additive smoothing towards the
shares): a class the calibration half writes seldom is read by the shares, not by the few pairs that followed it."""


class LetterPairs:
    """An alphabet's pairs of letters, a bigram of classes of letters (:data:`LETTER_CLASSES`): per low byte of its
    block the letter's class (``classes``: 0 for no letter, and for the block's first code point); per pair of
    classes, before and after, ``16 * before + after``, the surprisal of the second after the first in half bits,
    ``-2 log2 P(after | before)`` (``pairs``); and the mean per letter of a text of the language that the tables did
    not see, in 1/16 half bits (``natural``). Where the alphabet's table holds fewer than :data:`PAIRS_MIN` letters it
    is not ``paired``."""

    def __init__(self, block: int) -> None:
        letters = {low: fold(chr(block << 8 | low)) for low in range(1, 256) if alphabet_of(chr(block << 8 | low))}
        counts = LETTER_COUNTS.get(block, {})
        pair_counts = PAIR_COUNTS.get(block, {})
        alphabet = sorted(set(letters.values()) | set(counts), key=lambda letter: (-counts.get(letter, 0), letter))
        class_of = {" ": 0} | {letter: min(rank + 1, LETTER_CLASSES) for rank, letter in enumerate(alphabet)}
        rows = [[0] * (LETTER_CLASSES + 1) for _ in range(LETTER_CLASSES + 1)]
        for pair, count in pair_counts.items():
            rows[class_of[pair[0]]][class_of[pair[1]]] += count
        shares = [max(sum(counts.get(letter, 0) for letter in alphabet if class_of[letter] == group), SURPRISE_UNSEEN)
                  for group in range(LETTER_CLASSES + 1)]
        self.paired = sum(counts.values()) >= PAIRS_MIN
        self.classes = bytes(class_of[letters[low]] if low in letters else 0 for low in range(256))
        self.letters = bytes(low if low in letters else 0 for low in range(256))
        self.pairs = bytes(_half_bits(_share(rows[before], after, shares, 0)) if after else 0
                           for before in range(LETTER_CLASSES + 1) for after in range(LETTER_CLASSES + 1))
        held_out = sum(count * _half_bits(_share(rows[class_of[pair[0]]], class_of[pair[1]], shares, 1), exact=True)
                       for pair, count in pair_counts.items())
        self.natural = round(16 * held_out / max(1, sum(pair_counts.values())))

    def excess(self, data: bytes, letters: int, distinct: bool = False) -> int:
        """How far above the language's mean the pairs of the ``letters`` letters of ``data`` (bytes read through this
        block) are, in all, in 1/16 half bits: their mean over :func:`pair_sample` (two translates, a shift and an OR
        of one big integer, each class moved up four bits into the next byte, and a sum: all in C) times the letters.
        With ``distinct``, a word the sample wrote already adds nothing the second time, if that is less (see
        :meth:`_distinct_excess`)."""
        sample = pair_sample(data)
        classes = sample.translate(self.classes)
        sampled = len(classes) - classes.count(0)
        whole = int.from_bytes(classes, "big")
        scores = ((whole >> 4) | whole).to_bytes(len(classes), "big").translate(self.pairs)
        excess = 16 * _byte_total(scores, SURPRISE_CAP) - self.natural * sampled
        if distinct:
            excess = min(excess, self._distinct_excess(sample, scores))
        return excess * letters // max(1, sampled)

    def _distinct_excess(self, sample: bytes, scores: bytes) -> int:
        """The excess of the pairs of each word of a sample (its runs of this block's letters) the first time it is
        written only: a tokenizer cuts a word written again as it cut it the first time, and random letters hardly
        ever write a word twice, so a copy is no further sign of them (a natural line repeated, ``output line`` ×
        600, is its one line's pairs, not 600 times their excess over the language's mean: a short line's pairs
        stray by chance, more than the doubt of 6,000 letters allows). The scores (:meth:`excess`) are zero exactly
        where the sample's letters end, so both split alike."""
        seen: set[bytes] = set()
        excess = 0
        for word, word_scores in zip(sample.translate(self.letters).split(b"\0"), scores.split(b"\0")):
            if word and word not in seen:
                seen.add(word)
                excess += 16 * sum(word_scores) - self.natural * len(word)
        return excess


@functools.cache
def letter_pairs(block: int) -> LetterPairs:
    return LetterPairs(block)


PAIR_WINDOW = 128
PAIR_WINDOWS = 8
"""The pairs of a text are read whole up to this many windows of :data:`PAIR_WINDOW` bytes, else in as many windows
at even steps from its start to its end: a text's letters are a language or random letters throughout, and a long
text costs what 1 KB does (the pairs cost six C passes a byte, where the letters' own surprisal costs two)."""


def pair_sample(data: bytes) -> bytes:
    """What the pairs of ``data`` are read in (see :data:`PAIR_WINDOWS`): the windows joined by a zero byte (no
    letter, so that no pair spans two)."""
    size = len(data)
    if size <= PAIR_WINDOW * PAIR_WINDOWS:
        return data
    step = (size - PAIR_WINDOW) // (PAIR_WINDOWS - 1)
    return b"\0".join(data[start : start + PAIR_WINDOW] for start in range(0, step * PAIR_WINDOWS, step))


def _share(row: list[int], after: int, shares: list[float], left_out: int) -> float:
    """The share of the class ``after`` after the class whose pairs are ``row``, smoothed towards the classes' shares
    (:data:`PAIR_PRIOR`), with ``left_out`` of that pair taken out of the counts: the mean of a text the tables did
    not see is read on the calibration half one pair left out at a time, where the calibration half itself would
    read as more natural than any other text of the language."""
    letters = sum(shares[1:]) - left_out
    prior = PAIR_PRIOR * max(shares[after] - left_out, SURPRISE_UNSEEN) / letters
    return max(row[after] - left_out + prior, SURPRISE_UNSEEN / letters) / (sum(row) - left_out + PAIR_PRIOR)


def _half_bits(share: float, exact: bool = False) -> float:
    bits = min(SURPRISE_CAP, max(0.0, -2 * math.log2(share)))
    return bits if exact else max(1, round(bits))


def short_tokens(size: int, wide: int = 0) -> int:
    """The floor of a text of ``size`` UTF-8 bytes, ``wide`` of them in characters beyond ASCII where it is a
    text of up to :data:`SHORT_CHARS` characters (0 for a longer one)."""
    return min(-(-size * 9 // 10), SHORT_TOKENS + -(-wide * 9 // 10))


def wide_bytes(text: str, size: int) -> int:
    """The UTF-8 bytes of the characters beyond ASCII of a text of up to :data:`SHORT_CHARS` characters (``size``
    bytes in all), else 0: what :func:`short_tokens` prices at 0.9 token each."""
    if size == len(text) or len(text) > SHORT_CHARS:
        return 0
    return size - len(text.encode("ascii", "ignore"))


def bound_units(text: str, latin: bytes, size: int, utf16: bytes | None = None, copies: bool = True,
                weights: int = 0) -> int:
    """The largest bound of a text (its Latin-1 bytes and its UTF-8 size given), in 1/32 tokens. The run bound
    gets :data:`MARGIN` more: where it decides (random text) the real count varies around it by a token. With
    ``copies``, a text that repeats a long group is priced by its copies too (:func:`copies_units`). ``weights``:
    the estimate the caller takes the largest of with this bound (the text's weights), so that a bound that cannot
    exceed it or the floor is not read (the words: :func:`random_letter_units`); ``max(weights, bound_units(...))``
    is the same whatever it is told, and with 0 the bound is the bound."""
    floor = short_tokens(size, wide_bytes(text, size)) * UNITS_PER_TOKEN
    if size <= SHORT_TOKENS:
        return floor  # a token holds at least a byte: this floor is already 0.9 of the most it could be
    runs, bits, masks = _runs(latin)
    codes = _collapse(latin) if size == len(text) else _periodic_codes(text, utf16)  # ASCII: bytes are characters
    periodic, repeats = _periodic(codes)
    periodic += _whitespace_changes(latin, bits, masks) * UNITS_PER_TOKEN
    inside = _ends_inside(text)  # the control bound's pieces hold them too (no rare pair holds a control character)
    ends = inside + repeats * UNITS_PER_TOKEN
    splits = 0  # ends inside characters beyond ASCII, which no bound between characters counts
    mixed = False  # the text writes accented Latin letters and is read as written: its words' stretches can be cut
    if size != len(text):  # ASCII has no accented letter
        cuts, split = latin_units(text), char_splits(text) * UNITS_PER_TOKEN
        if (cuts or split) and unicodedata.is_normalized("NFKC", text):  # read as written (see latin_cut_units)
            ends += cuts + split
            splits, mixed = split, cuts > 0
    inner = max(ends, periodic)
    symbols = 0  # runs the run bound, reading Latin-1, leaves out
    if size != len(text) and (utf16 or text.encode("utf-16-be", "surrogatepass"))[0::2].translate(
            None, _OUTSIDE_SYMBOL_BLOCKS):  # one C pass: most texts write none of these blocks
        symbols = symbol_runs(text) * UNITS_PER_TOKEN
    extra = MARGIN * UNITS_PER_TOKEN + symbols
    top = max(weights, floor)
    # the most the unheld words could add (a word follows each space): UNHELD_MARGIN each, and in ASCII what their
    # two tokens each add beyond the other ends inside runs
    spaces = latin.count(b" ", 0, PREFIX_CHARS)
    most = spaces * UNHELD_MARGIN + (max(0, spaces * UNITS_PER_TOKEN - inner) if size == len(text) else 0)
    letters = cuts = 0  # in ASCII the words' fewest cuts could add a token and the margin a letter at most
    if size == len(text):
        letters = min(len(latin), PREFIX_CHARS) - len(latin[:PREFIX_CHARS].translate(None, _ASCII_LETTERS))
        cuts = letters * UNHELD_MARGIN  # the cut's tokens go to the ends inside runs, its margin adds
    # what the random letters must exceed to change the result: the other ends inside runs, or what brings the run
    # bound up to the weights or the floor (either is taken anyway) less what the words could add
    beside = max(inner, top - runs - extra - most - cuts)
    inner = max(inner, random_letter_units(latin, runs, bits, masks, beside))
    units = runs + inner + extra
    if units + most + cuts + max(0, letters * UNITS_PER_TOKEN - inner) > top:  # the words could change the result:
        found = unheld_found(latin)  # read them (a text of held words: one set test)
        words = len(found)
        # ASCII: each word no token holds is the fewest tokens it can be cut into at least (two or more), and the
        # first word too, with the margin per token of the cut; cut where the text looks random (see CUT_SHARE) and
        # a token a letter could change the result
        if letters:  # ASCII: each word no token holds is two tokens at least, an end inside its run
            inner = max(inner, words * UNITS_PER_TOKEN)
            most = cut_most(latin, found)
            if (most * CUT_SHARE >= letters * UNITS_PER_TOKEN
                    and runs + max(inner, most) + extra + max(words, most // UNITS_PER_TOKEN) * UNHELD_MARGIN > top):
                cut = cut_tokens(latin, found)
                inner, words = max(inner, cut * UNITS_PER_TOKEN), max(words, cut)
        units = runs + inner + extra + words * UNHELD_MARGIN
    if mixed:
        units = max(units, _mixed_units(text, latin, runs, inner, extra, max(top, units)))
    units = max(units, floor)
    if copies and len(text) >= COPY_ANCHORS * COPY_ANCHOR:  # a short text too: the margin is per copy
        units = max(units, copies_units(text, utf16))
    spelled = size != len(text) or not text.isprintable()  # ASCII without control characters cuts as any vocabulary would
    if len(text) <= PREFIX_CHARS and text.isprintable():  # a short line: no control character, told in C
        return max(units, spelled_units(text, max(units, weights))) if spelled else units
    head = latin if len(latin) <= PREFIX_CHARS else latin[:PREFIX_CHARS]
    controls = head.translate(None, _NOT_CONTROLS)  # one C pass over the first characters
    # the control bound is at most the runs, the ends inside them and inside characters and four tokens a control
    # character (itself, a space before it, a run and a whitespace end it cuts): read only where that could exceed
    # the rest
    if controls and runs + inside + symbols + splits + 4 * len(controls) * UNITS_PER_TOKEN > units:
        rest = runs - run_units(head) - CUT_UNITS if len(latin) > PREFIX_CHARS else 0  # the rest's runs at least
        units = max(units, control_units(head, controls) + rest + symbols + splits + inside)
    return max(units, spelled_units(text, max(units, weights))) if spelled else units


WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""Unicode's White_Space, the ``\\s`` of the pre-tokenizer's pattern (not Python's, which holds ``\\x1c``-``\\x1f``)."""

_FREE_BYTES = bytes([0x09, 0x0A, 0x0C, 0x0D, *range(0x20, 0x7F)])
"""Printable ASCII and whitespace: a text of these bytes alone cuts as any vocabulary would (bench/token_corpus/tables.py
keeps the tokens that hold another byte, :data:`~.token_tables.JOINING_TOKENS`)."""

_OPEN_BYTES = b"\t\n\x0c\r 0123456789"
"""The free bytes :func:`spelled_tokens` lets any token join: whitespace and digits, whose tokens no table carries.
The other free bytes, ASCII letters and punctuation, are spelled with the vocabulary's own tokens of them
(:data:`~.token_tables.WORD_PIECES` and :data:`~.token_tables.ASCII_TOKENS`)."""
_OPEN = bytes(value in _OPEN_BYTES for value in range(256))


@functools.cache
def _vocabulary() -> tuple[re.Pattern[str], re.Pattern[str], frozenset[bytes], frozenset[bytes]]:
    """The pre-tokenizer's pattern (GPT-2's byte-level one, as the tokenizer's configuration names it) for text below
    U+10000 and for any text, the tokens :func:`_fewest` spells with (those that hold a byte beyond
    :data:`_FREE_BYTES`, :data:`~.token_tables.JOINING_TOKENS`; those of ASCII letters or punctuation,
    :data:`~.token_tables.WORD_PIECES` and :data:`~.token_tables.ASCII_TOKENS`) and their prefixes; built at the
    first text that writes a byte beyond :data:`_FREE_BYTES`."""
    patterns = []
    for wide in (False, True):  # a class of characters all below U+10000 is a bitmap to the regex engine, else ranges
        letters, numbers = _ranges(_below(LETTER_RANGES, wide)), _ranges(_below(NUMBER_RANGES, wide))
        patterns.append(re.compile(f"'(?:[stmd]|re|ve|ll)| ?[{letters}]+| ?[{numbers}]+"
                                   f"| ?[^{WHITE_SPACE}{letters}{numbers}]+|[{WHITE_SPACE}]+(?![^{WHITE_SPACE}])"
                                   f"|[{WHITE_SPACE}]+"))
    packed = zlib.decompress(base64.b64decode(JOINING_TOKENS))
    tokens, at = set(), 0
    while at < len(packed):
        size = int.from_bytes(packed[at : at + 2], "big")
        tokens.add(packed[at + 2 : at + 2 + size])
        at += 2 + size
    tokens.update(zlib.decompress(base64.b64decode(ASCII_TOKENS)).split(b"\n"))
    tokens.update(_WORD_PIECES or _word_pieces())
    prefixes = frozenset(token[:end] for token in tokens for end in range(1, len(token) + 1))
    return patterns[0], patterns[1], frozenset(tokens), prefixes


def _below(table: str, wide: bool) -> str:
    """The ranges of ``table`` (first and last character each) below U+10000, all of them if ``wide``."""
    return table if wide else "".join(table[at : at + 2] for at in range(0, len(table), 2)
                                      if table[at] < "\U00010000")


HARD_SHARE = 8
"""A text longer than :data:`PREFIX_CHARS` characters is read whole by :func:`spelled_units` wherever its bytes beyond
printable ASCII and whitespace (:data:`_FREE_BYTES`), a token each, could be this share of the estimate or more: the
hard part of a text can be anywhere in it (English first and kana after was 0.60 of the real count, symbols among
control characters 0.80, tok52). Fewer than that move the estimate by too little to be worth a reading of the whole
text (code with a few arrows in its comments: its pre-tokens cost as much as its weights)."""


def spelled_units(text: str, units: int = 0) -> int:
    """:func:`spelled_tokens` of a text in 1/32 tokens where it could exceed ``units`` (each token holds a byte at
    least) and the text is read as written (NFKC), else 0. A text longer than :data:`PREFIX_CHARS` characters is read
    whole where its bytes beyond printable ASCII and whitespace are :data:`HARD_SHARE` of ``units`` or more (a hard part
    anywhere in it, tok52), or where its first characters' tokens, at their rate, would exceed ``units`` (a long run of
    symbols: the weights price it at 0.79 of its count, tok51); else its first characters but their last pre-token (its
    tokens can span the cut)."""
    head = text[:PREFIX_CHARS]
    if len(text) <= PREFIX_CHARS:
        data = head.encode("utf-8", "surrogatepass")
        if len(data) * UNITS_PER_TOKEN <= units or not data.translate(None, _FREE_BYTES):
            return 0
        return sum(spelled_counts(head)) * UNITS_PER_TOKEN if unicodedata.is_normalized("NFKC", head) else 0
    whole = text.encode("utf-8", "surrogatepass")
    hard = len(whole.translate(None, _FREE_BYTES))  # one C pass: a text of printable ASCII and whitespace has none
    if len(whole) * UNITS_PER_TOKEN <= units or not hard or not unicodedata.is_normalized("NFKC", head):
        return 0
    if hard * UNITS_PER_TOKEN * HARD_SHARE >= units and unicodedata.is_normalized("NFKC", text):
        return spelled_total(text) * UNITS_PER_TOKEN
    if not head.encode("utf-8", "surrogatepass").translate(None, _FREE_BYTES):
        return 0  # the few hard bytes are further on
    counts = spelled_counts(head)
    if sum(counts) * UNITS_PER_TOKEN * len(text) > units * len(head) and unicodedata.is_normalized("NFKC", text):
        return spelled_total(text) * UNITS_PER_TOKEN
    return (sum(counts) - counts[-1]) * UNITS_PER_TOKEN


def spelled_total(text: str) -> int:
    """``sum(spelled_counts(text))``, each distinct pre-token read once (natural text writes the same ones again: a
    count of them in C, then a cached lookup each)."""
    pieces = pretokens(text)
    return len(pieces) + sum(_beyond_one(piece) * times for piece, times in Counter(pieces).items())


def spelled_tokens(text: str) -> int:
    """The fewest tokens of :func:`spelled_counts` of a text's first :data:`PREFIX_CHARS` characters, the last
    pre-token left out where the text goes on (its tokens can span the cut)."""
    counts = spelled_counts(text[:PREFIX_CHARS])
    if len(text) > PREFIX_CHARS and counts:
        counts.pop()
    return sum(counts)


def spelled_counts(text: str) -> list[int]:
    r"""The tokens of each pre-token of a text, at least: a proof, not a fit. The tokenizer cuts text into pre-tokens
    by GPT-2's pattern (runs of letters, of numbers, of other characters, a space before each; whitespace) and each
    into tokens of its vocabulary. A pre-token of punctuation, symbols, control characters or letters beyond ASCII
    (no ASCII letter, digit or whitespace: :data:`_CLOSED_BYTES`) is cut as the tokenizer cuts it, its merges
    replayed (:func:`bpe_count`, exact). Any other is at least the fewest tokens of the vocabulary that spell its bytes
    (a byte-pair tokenizer's merges seldom reach so few), read with every string of whitespace and digits a token (a
    larger vocabulary: never more), so only the tokens that hold a control character or a byte beyond ASCII
    (:data:`~.token_tables.JOINING_TOKENS`, 3,629 of 65,000) and those of ASCII letters or punctuation are carried.
    It counts what the bounds between characters cannot: the ends inside characters beyond ASCII and between symbols
    no token joins (``⫅₻`` is six tokens, a run of punctuation to the run bound), wherever they are written: symbols
    among control characters were 0.84 of the real count, a block of letters with ASCII 0.77, before (seeded scans of
    5,000 draws, tok49); and the ends inside random ASCII letters or punctuation among them (``gWFT`` is ``g``,
    ``W``, ``FT``), which it read as one token before: letters among symbols were 0.87, a block with ASCII then
    controls and punctuation 0.81 (tok50). A dynamic program over the bytes of each pre-token that could take more
    than one token, a few set lookups a byte (see :func:`_fewest`), or a heap of its pairs."""
    return [1 + _beyond_one(piece) for piece in pretokens(text)]


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_STAND_INS = ("\u4e00", "\u0660")
"""A letter and a digit below U+10000 that :func:`pretokens` writes for a letter or a digit beyond it."""


def pretokens(text: str) -> list[str]:
    """The pre-tokens of a text (GPT-2's pattern, :func:`_vocabulary`). The pattern of every character is ten times
    slower than the one of those below U+10000 (a class that reaches beyond it is a list of ranges to the regex engine,
    not a bitmap), so a text that writes a letter or a digit beyond U+10000 (a text that writes characters beyond it
    but no letter or digit cuts the same by either: they are other characters to both) is cut with each such letter or
    digit read as a letter or a digit below it, the pieces taken from the text by their lengths (random bytes or
    Unicode read whole cost a tenth of the time, tok52)."""
    narrow, wide, _, _ = _vocabulary()
    if not text or max(text) <= "\uffff":
        return narrow.findall(text)
    letter, number = _astral_classes()
    stand_ins = {}
    for char in set(_ASTRAL.findall(text)):
        if letter.match(char):
            stand_ins[ord(char)] = _STAND_INS[0]
        elif number.match(char):
            stand_ins[ord(char)] = _STAND_INS[1]
    if not stand_ins:
        return narrow.findall(text)
    pieces, at = [], 0
    for piece in narrow.findall(text.translate(stand_ins)):
        pieces.append(text[at : at + len(piece)])
        at += len(piece)
    return pieces


@functools.cache
def _astral_classes() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The letters and the digits beyond U+10000 of the pre-tokenizer's pattern, one class each."""
    def above(table: str) -> str:
        return "".join(table[at : at + 2] for at in range(0, len(table), 2) if table[at] >= "\U00010000")
    return re.compile(f"[{_ranges(above(LETTER_RANGES))}]"), re.compile(f"[{_ranges(above(NUMBER_RANGES))}]")


@functools.lru_cache(maxsize=8192)
def _beyond_one(piece: str) -> int:
    """The tokens beyond one that a pre-token takes at least (0 for one of whitespace and digits alone, or one token
    of the vocabulary); cached, since text writes the same pieces again (`` →``, ``’s``, `` the``)."""
    data = piece.encode("utf-8", "surrogatepass")
    _, _, tokens, prefixes = _vocabulary()
    if len(data) < 2 or not data.translate(None, _OPEN_BYTES) or data in tokens:
        return 0
    if len(data.translate(None, _CLOSED_BYTES)) == len(data) and b" " not in data[1:]:
        return bpe_count(data) - 1  # the tokenizer's own cut
    return _fewest(data, tokens, prefixes) - 1


_CLOSED_BYTES = (string.ascii_letters + string.digits + "\t\n\x0b\x0c\r").encode("ascii")
"""The bytes a pre-token :func:`bpe_count` replays holds none of (nor a space but a first one): the joins of
:data:`~.token_tables.CLOSED_MERGES` hold none either, so every merge that could join two stretches of such a
pre-token is one of them."""


@functools.cache
def _closed_merges() -> dict[tuple[bytes, bytes], int]:
    """Each pair of :data:`~.token_tables.CLOSED_MERGES` to its rank among them (the tokenizer's order)."""
    packed = zlib.decompress(base64.b64decode(CLOSED_MERGES))
    merges: dict[tuple[bytes, bytes], int] = {}
    at = 0
    while at < len(packed):
        size = int.from_bytes(packed[at : at + 2], "big")
        left = packed[at + 2 : at + 2 + size]
        at += 2 + size
        size = int.from_bytes(packed[at : at + 2], "big")
        merges.setdefault((left, packed[at + 2 : at + 2 + size]), len(merges))
        at += 2 + size
    return merges


def bpe_count(data: bytes) -> int:
    """The tokens a byte-pair tokenizer cuts a pre-token of no :data:`_CLOSED_BYTES` (a space but first) into: its
    merges replayed as the tokenizer does, the adjacent pair of lowest rank first, the leftmost of equals, each byte
    a token to begin with. Exact, not the fewest tokens any spelling could take (:func:`_fewest`): a tokenizer never
    joins the last byte of one symbol to the first of the next unless its merges reach there (``⭝⧭`` is six tokens,
    the fewest spelling five), and punctuation with symbols or control characters was 0.81-0.84 of the real count
    at the fewest (tok51). The pre-token is cut first where two bytes are next to each other in no token the merges
    make (:func:`_merge_pairs`): no merge joins across there, so its stretches are replayed apart, each once (random
    text writes the same short stretches again, a lone control character or U+FFFD, in pre-tokens it never repeats:
    random bytes read whole cost a third of the time, tok52)."""
    joins = _merge_pairs()
    cuts = [at for at, (left, right) in enumerate(zip(data, data[1:]), 1) if not joins[left << 8 | right]]
    count, start = 0, 0
    for at in (*cuts, len(data)):
        count += 1 if at - start == 1 else _bpe_stretch(data[start:at])
        start = at
    return count


@functools.cache
def _merge_pairs() -> bytes:
    """1 at ``first << 8 | second`` for every two bytes next to each other inside a token that
    :data:`~.token_tables.CLOSED_MERGES` make, else 0: a merge joins across a place between two bytes only into a token
    that holds both."""
    table = bytearray(1 << 16)
    for left, right in _closed_merges():
        joined = left + right
        for at in range(len(joined) - 1):
            table[joined[at] << 8 | joined[at + 1]] = 1
    return bytes(table)


@functools.lru_cache(maxsize=8192)
def _bpe_stretch(data: bytes) -> int:
    """:func:`bpe_count` of a stretch no cut splits: a heap of its pairs and a list of its tokens, O(n log n) in its
    bytes."""
    merges = _closed_merges()
    parts = [data[at : at + 1] for at in range(len(data))]
    after = list(range(1, len(data) + 1))
    before = list(range(-1, len(data) - 1))
    heap = [(merges[pair], at) for at, pair in enumerate(zip(parts, parts[1:])) if pair in merges]
    heapq.heapify(heap)
    count = len(data)
    while heap:
        rank, at = heapq.heappop(heap)
        right = after[at]
        if not parts[at] or right >= len(data) or merges.get((parts[at], parts[right])) != rank:
            continue  # stale: one of its parts was merged since
        parts[at] += parts[right]
        parts[right] = b""
        after[at] = after[right]
        if after[at] < len(data):
            before[after[at]] = at
        count -= 1
        for left, next_ in ((before[at], at), (at, after[at])):
            if left >= 0 and next_ < len(data) and (parts[left], parts[next_]) in merges:
                heapq.heappush(heap, (merges[parts[left], parts[next_]], left))
    return count


def _fewest(data: bytes, tokens: frozenset[bytes], prefixes: frozenset[bytes]) -> int:
    """The fewest tokens that spell ``data``: every token of ``tokens``, and every string of :data:`_OPEN_BYTES`.

    A lower bound of what the tokenizer cuts a pre-token into: its cut is one spelling of the pre-token's bytes by
    tokens of its vocabulary, each a stretch of them. A token that holds a byte beyond :data:`_FREE_BYTES` is one of
    ``tokens`` (:data:`~.token_tables.JOINING_TOKENS`); one of free bytes alone lies inside a pre-token of letters, of
    numbers, of other characters or of whitespace, a space before it or not, or is a contraction (``'s``), so it is
    ASCII letters (a space before them or not: :data:`~.token_tables.WORD_PIECES` and
    :data:`~.token_tables.ASCII_TOKENS`), ASCII punctuation (the same; ``ASCII_TOKENS``), a contraction (the same), or
    whitespace and digits alone (a string of :data:`_OPEN_BYTES`, every one of which this counts a token). So the tokenizer's cut is among the spellings read here, and ``best[end]``, the fewest tokens of
    any spelling of ``data[:end]`` (the minimum over every token that ends there, not the longest one), is at most its
    count. Each start walks on while the bytes are a prefix of a token (the longest token is 104 bytes, a word of
    letters a few): bounded work a byte."""
    size = len(data)
    best = [0] + [size] * size  # best[end]: the fewest tokens that spell data[:end]
    run = size  # the fewest that spell data up to any point of the current stretch of open bytes
    for start in range(size):
        reach = best[start] + 1
        if _OPEN[data[start]]:
            run = min(run, best[start])
            best[start + 1] = min(best[start + 1], run + 1)
        else:
            run = size
        end = start + 1
        while end <= size and data[start:end] in prefixes:
            if reach < best[end] and data[start:end] in tokens:
                best[end] = reach
            end += 1
    return best[size]


def _mixed_units(text: str, latin: bytes, runs: int, inner: int, extra: int, top: int) -> int:
    """The bound of a text that writes accented Latin letters with its words cut (:func:`mixed_cut_tokens`): its runs,
    the ends the vocabulary proves beside and inside the accented letters and inside the words' ASCII stretches, and
    the margin per token of the cut, as ASCII's (``runs``, ``inner``, ``extra``: the bound's so far); 0 where the text
    does not look random (see :data:`CUT_SHARE`: natural text costs no merging) or a token per ASCII letter could not
    reach ``top``."""
    head = latin[:PREFIX_CHARS]  # the letters as the ASCII cut's gate reads them
    letters = len(head) - len(head.translate(None, _ASCII_LETTERS))
    # the inner ends hold the Latin cuts already; the words' cut adds a token a letter at most
    if (runs + inner + letters * UNITS_PER_TOKEN + extra + letters * UNHELD_MARGIN <= top
            or cut_most(latin, unheld_found(latin)) * CUT_SHARE < letters * UNITS_PER_TOKEN):
        return 0
    cut = mixed_cut_tokens(text)
    proved = latin_cut_units(text) + char_splits(text) * UNITS_PER_TOKEN + cut * UNITS_PER_TOKEN
    return runs + max(inner, proved) + extra + cut * UNHELD_MARGIN


CUT_UNITS = 2 * UNITS_PER_TOKEN
"""What cutting a text in two can add to the sum of the parts' run bounds: a run split in two, a run of NUL counted in
both (so the rest's runs are at least the whole text's less the first characters' less this)."""


CONTROLS = bytes([*range(0x01, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F])
r"""The control characters a byte-level tokenizer holds in no token but their own: its vocabulary has a token for
each of the 256 bytes, and merges only what its training text wrote together, which never held these
(``\x01`` × 50 is 50 tokens, ``a\x1ba`` three, `` \x0b`` two); a tab, a line feed and a carriage return are merged
(whitespace), so is a form feed after a line feed (a page break in code), and NUL with NUL alone (a run of them is a
token of up to 64)."""
_NOT_CONTROLS = bytes(value for value in range(256) if value not in CONTROLS and value != 0)
_NUL_RUN = re.compile(rb"\x00+")
_CONTROL_RUN = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f\x7f]+")  # CONTROLS and NUL


SYMBOL_BLOCKS = ((0x20, 0x2B), (0xFF, 0xFF))
"""The blocks of 256 code points (the UTF-16 high bytes) whose punctuation and symbols :func:`symbol_runs` reads:
general punctuation, currency, arrows, mathematical operators, box drawing, dingbats; the fullwidth forms and the
specials (U+FFFD, which a text of bytes read as UTF-8 writes for each byte that is no character)."""
_OUTSIDE_SYMBOL_BLOCKS = bytes(high for high in range(256) if not any(a <= high <= b for a, b in SYMBOL_BLOCKS))


@functools.cache
def _symbol_run() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """A run of the punctuation and symbols of :data:`SYMBOL_BLOCKS` that no other punctuation or symbol touches;
    one of them that no token joins to the ASCII punctuation after it, and one that none joins to that before it."""
    codes = [code for first, last in SYMBOL_BLOCKS for code in range(first << 8, (last << 8) + 256)
             if unicodedata.category(chr(code))[0] in "PS"]
    symbols = "".join(map(re.escape, map(chr, codes)))
    other = r"!-/:-@\[-`{-~\xa1-\xbf\xd7\xf7" + symbols  # Latin-1's punctuation and symbols, and these
    apart = "".join(re.escape(chr(code)) for code in codes if chr(code) not in SYMBOL_JOINS)
    punctuation = "".join(map(re.escape, sorted(set(string.punctuation) - set(PUNCT_JOINS))))
    return (re.compile(f"(?<![{other}])[{symbols}]+(?![{other}])"), re.compile(f"[{apart}](?=[{punctuation}])"),
            re.compile(f"(?<=[{punctuation}])[{apart}]"))


def symbol_runs(text: str) -> int:
    """The runs of punctuation and symbols beyond Latin-1 (of :data:`SYMBOL_BLOCKS`) in a text's first
    :data:`PREFIX_CHARS` characters that touch no other punctuation: each is a run of its own (a tokenizer cuts
    text into runs of letters, of digits and of other characters), which the run bound, reading Latin-1 only,
    leaves out (``3\ufffdY`` is three runs, its Latin-1 ``3Y`` two). Bytes read as UTF-8 write U+FFFD between
    control characters and letters: 0.88 of their real count one draw in 10,000 before (tok42). A run next to a
    control character is one too (no token holds a control character and anything else), but is left to the control
    bound's pieces (its piece is cut there).

    And one more for each side on which such a character touches ASCII punctuation that no token joins to it (neither
    :data:`~.token_tables.SYMBOL_JOINS` nor :data:`~.token_tables.PUNCT_JOINS`, read from every token by
    bench/token_corpus/tables.py): a token ends there, inside the run of punctuation the run bound reads as one
    (``..\ufffd:`` is ``..``, ``\ufffd``, ``:``, its Latin-1 ``..:`` one run). Proved, not fitted: a byte-pair
    tokenizer makes only tokens of its vocabulary. Bytes read as UTF-8 write U+FFFD beside punctuation: 0.88 of the
    real count two draws in 100,000 before (tok47)."""
    alone, before, after = _symbol_run()
    return (len(alone.findall(text, 0, PREFIX_CHARS)) + len(before.findall(text, 0, PREFIX_CHARS))
            + len(after.findall(text, 0, PREFIX_CHARS)))


def control_units(latin: bytes, controls: bytes | None = None) -> int:
    r"""A bound of a text that writes control characters (its Latin-1 bytes; ``controls``: those of them that are
    :data:`CONTROLS` or NUL, if the caller has them; :func:`bound_units` reads the first :data:`PREFIX_CHARS`
    characters so, a piece costing a microsecond), in 1/32 tokens: a token per control character and per run of
    NUL, and the run bound of each piece between them. No token holds a control character and anything else, so the
    text is cut at each: its tokens are the controls' and those of the pieces, each at least its runs, and one more
    for a piece that ends in two spaces or more (the last space would join what follows it, a control character that
    nothing joins: ``"  \x1f"`` is three tokens, where a run of spaces that ends a text is one; so with any two
    whitespace characters, ``"\t\t\x1f"`` and ``"\n\n\x1f"`` too, read on the oracle for every pair: tok48). A random
    string of control characters, tabs and punctuation was 0.78 of the real count with the control characters weighed
    at a token each and the rest at their averages: what lies between two of them is a token of its own too; and the
    ends inside the pieces' runs (rare pairs and triples, which never hold a control character) are the caller's to
    add (``'|]>{]\x05'`` is ``|``, ``]>``, ``{``, ``]``, ``\x05``: punctuation between control characters was 0.72
    of the real count about once in 60 draws before, tok48)."""
    if controls is None:
        controls = latin.translate(None, _NOT_CONTROLS)
    lone = len(controls) - controls.count(0)
    if lone < len(controls):
        lone += len(_NUL_RUN.findall(latin))
    pieces = _CONTROL_RUN.split(latin)
    spaced = sum(piece[-2:].isspace() and len(piece) > 1 for piece in pieces[:-1])
    return (lone + spaced) * UNITS_PER_TOKEN + sum(map(run_units, filter(None, pieces)))


_SPACED_WORD = re.compile(rb" ([a-z]++|[A-Z][a-z]*+)(?![A-Za-z])")  # a literal first: searched for in C


def unheld_units(latin: bytes, beside: int = 0) -> int:
    """The words of an ASCII text's first :data:`PREFIX_CHARS` characters that follow a space and that a tokenizer
    holds no token for, a token each, in 1/32 tokens: a word after a space is a pre-token of its own (`` tha``), one
    token only where the vocabulary holds it whole, else two or more (`` th``, ``a``); the run bound counts one.
    Read as a tokenizer holds them: words of two or three letters by :data:`~.token_tables.SHORT_WORDS` (every one
    it holds, as it holds it: `` Ort`` is a token, `` ort`` is not), longer ones by the common words (every one it
    holds, and more); lowercase or capitalized words only, whole (a run of letters that no letter follows), and none
    of one letter (all 26 are tokens). A lower bound on any text, not a measure: a Markov chain of English letters writes such words of
    two or three letters where no word of four is missed (``. tha iok te ane y an wine ios y``: fourteen tokens,
    priced at eleven and a half before). Read only where a token per space could exceed ``beside`` (what the
    caller's estimate is at least without it)."""
    if beside > 0 and latin.count(b" ") * UNITS_PER_TOKEN <= beside:
        return 0
    return unheld_words(latin) * UNITS_PER_TOKEN


UNHELD_MARGIN = 4
"""What a word :func:`unheld_units` counts adds to the bound beyond its two tokens, in 1/32 tokens (an eighth of a
token), and in ASCII what each token of a word's fewest cut beyond its first adds (:func:`cut_tokens`; tok45: random
lowercase words of 2-12 letters cost 0.11 token more than their fewest cut per token of it beyond the first, city names
and a Markov chain of English letters 0.10): a byte-pair tokenizer cuts a word it holds no token for by its merges, in order, which seldom reach the
fewest tokens of its vocabulary. Measured (tok42): random words of 20-40 characters (a Markov chain of letters, city
names, random syllables) were 0.79-0.92 of their real count even at the fewest tokens each pre-token could be cut
into, so no bound proved from the vocabulary holds them to 0.9; at the bound they were 0.88-0.89 about one draw in
10,000. Read where the bound is above the weights only (random text), for the words of ASCII letters of the Latin-1
bytes of any text. A fit on the families of tests/compaction: at a quarter of a token the Markov chain's and the city
names' mean estimate rose by 0.04-0.06 of their count; at an eighth by 0.02-0.03."""


def unheld_words(latin: bytes) -> int:
    """The words :func:`unheld_units` counts a token each (the Latin-1 bytes of a text given: a character beyond
    Latin-1 is left out, so a word it cuts is read whole)."""
    return len(unheld_found(latin))


_ASCII_LETTERS = string.ascii_letters.encode("ascii")


def unheld_found(latin: bytes) -> list[bytes]:
    """The words :func:`unheld_words` counts, as written (without the space before each)."""
    if len(latin) > PREFIX_CHARS:  # most texts a message holds are shorter: no copy of them
        cut = latin[PREFIX_CHARS : PREFIX_CHARS + 1].isalpha()
        latin = latin[:PREFIX_CHARS]
        if cut:  # a word the prefix cuts is not read
            latin = latin.rstrip(_ASCII_LETTERS)
    held = _HELD_WORDS or _held_words()
    if held.issuperset(latin.split()):  # every word between whitespace held: short natural text, in two C calls
        return []
    return [word for word in _SPACED_WORD.findall(latin) if word not in held]


CUT_SHARE = 2
"""The words are cut (:func:`cut_tokens`) only in a text that looks random: where the unheld words and the first word
hold at least 1/this of the letters of its first :data:`PREFIX_CHARS` characters (English, code and JSON hold a few
unheld words among many held; city names and letters in English's order that write no words, mostly unheld ones), so
that natural text costs no shortest path."""

FEWEST_LETTERS = 24
"""The longest word :func:`cut_tokens` cuts (a shortest path over its letters: at most 300 set tests); a longer one
counts the two tokens of any unheld word."""

_START_WORD = re.compile(rb"(?:[a-z]++|[A-Z][a-z]*+)(?![A-Za-z])")


def cut_tokens(latin: bytes, unheld: list[bytes]) -> int:
    """What the words of an ASCII text's first :data:`PREFIX_CHARS` characters cost beyond their runs' one token each:
    each unheld word after a space (``unheld``, from :func:`unheld_found`) and the word the text starts with (no
    character before it to join) the tokens the tokenizer cuts it into (:func:`bpe_tokens`), less one. Read from the
    vocabulary, not fitted: a tokenizer cuts text into words before it merges, and merges a word's pieces in the order
    of their ranks (``qyzylorda`` is five, ``tegucigalpa`` five, where an unheld word was priced at two: city names and
    a Markov chain of English letters were 0.85-0.87 of their real count one draw in 30,000; at the fewest tokens of
    the vocabulary a word could be cut into, :func:`fewest_tokens`, 0.89 one in 100,000: ``sultep`` is cut
    ``s ul te p``, four, where ``sul te p`` would be three, tok46)."""
    extra = sum(bpe_tokens(b" " + word) - 1 if len(word) <= FEWEST_LETTERS else 1 for word in unheld)
    start = _START_WORD.match(latin, 0, PREFIX_CHARS)
    if start and start.end() < PREFIX_CHARS and start.end() <= FEWEST_LETTERS:
        extra += bpe_tokens(start[0]) - 1
    return extra


_MIXED_WORD = re.compile("(?<![^ ])[A-Za-z" + ACCENTED_LATIN[1:-1] + "]++")  # after a space or at the start
_ASCII_STRETCH = re.compile("[A-Za-z]+")
_CUT_SHAPE = re.compile("[a-z]+|[A-Z][a-z]*")


def mixed_cut_tokens(text: str) -> int:
    """What the ASCII stretches of the words of a text's first :data:`PREFIX_CHARS` characters that write accented
    Latin letters cost beyond one token each, as :func:`cut_tokens` reads the words of ASCII text: each stretch of
    ASCII letters that a cut the vocabulary proves (:data:`~.token_tables.LATIN_JOINS`: no token holds the pair) or
    the word's end bounds on both sides is merged as the tokenizer merges it (:func:`bpe_tokens`, with the space before
    the word if it starts it), as if the rest of the word were not there: no merge can span a cut. A word the run
    bound reads as one run (a letter beyond Latin-1 is left out of it: ``zeyʛc`` is ``zeyc``) is as many tokens as
    its stretches' and at least one more per cut (:func:`latin_cut_units`), which fall between the stretches, where
    these ends do not: ``zeyʛc`` is `` z``, ``ey``, two of ``ʛ``, ``c``. Random syllables with modifier letters were
    0.86 of the real count one draw in 12,500 before (tok47). A word of any case (``aB``) or of more than
    :data:`FEWEST_LETTERS` letters, or one another alphabet's letter ends, counts nothing. The text must be as the
    tokenizer reads it (NFKC)."""
    extra = 0
    for match in _MIXED_WORD.finditer(text, 0, PREFIX_CHARS):
        word, end = match[0], match.end()
        if end == PREFIX_CHARS or text[end : end + 1].isalpha():
            continue  # the prefix or a letter of another alphabet cuts it: its last stretch may join what follows
        space = b" " if match.start() else b""
        for stretch in _ASCII_STRETCH.finditer(word):
            first, last = stretch.span()
            if (first and word[first - 1 : first + 1] in _LATIN_JOINS or last < len(word)
                    and word[last - 1 : last + 1] in _LATIN_JOINS or last - first > FEWEST_LETTERS
                    or not _CUT_SHAPE.fullmatch(stretch[0])):
                continue
            extra += bpe_tokens((b"" if first else space) + stretch[0].encode("ascii")) - 1
    return extra


def cut_most(latin: bytes, unheld: list[bytes]) -> int:
    """The most :func:`cut_tokens` could count, in 1/32 tokens: a token a letter of the words it cuts."""
    start = _START_WORD.match(latin, 0, PREFIX_CHARS)
    return (sum(map(len, unheld)) + (len(start[0]) if start else 0)) * UNITS_PER_TOKEN


@functools.lru_cache(maxsize=1 << 14)
def fewest_tokens(word: bytes) -> int:
    """The fewest tokens of :data:`~.token_tables.WORD_PIECES` a word (after its space, if it has one) can be cut
    into: a shortest path over its letters, each step a piece of the vocabulary (every single letter is one)."""
    pieces = _WORD_PIECES or _word_pieces()
    size = len(word)
    best = [0] + [size + 1] * size
    for end in range(1, size + 1):
        for start in range(end):
            if best[start] + 1 < best[end] and word[start:end] in pieces:
                best[end] = best[start] + 1
    return best[size]


@functools.lru_cache(maxsize=1 << 14)
def bpe_tokens(word: bytes) -> int:
    """The tokens a byte-pair tokenizer cuts a word (after its space, if it has one) into: from its letters, the two
    adjacent pieces whose join ranks lowest (:data:`~.token_tables.WORD_RANKS`) are joined, the leftmost of equals
    first, until no join is a piece of the vocabulary. A word is lowercase or capitalized letters, so every join is
    one too (a piece of :data:`~.token_tables.WORD_PIECES` or none). Never fewer than :func:`fewest_tokens`: the
    cut it ends at is one of the vocabulary's. The rank of each adjacent pair's join is kept in a list, the lowest
    found in C (``min``, ``index``: the leftmost of equals) and only the two joins beside a merge read again: two
    dictionary reads a merge, not one a pair (the scattered letters of ``tokens.cluster_units`` are cut so)."""
    ranks = _WORD_RANKS or _word_ranks()
    read = ranks.get
    parts = [word[index : index + 1] for index in range(len(word))]
    joins = [read(left + right, _NO_RANK) for left, right in zip(parts, parts[1:])]
    while joins:
        best = min(joins)
        if best == _NO_RANK:
            break
        at = joins.index(best)
        parts[at : at + 2] = [parts[at] + parts[at + 1]]
        del joins[at]
        if at:
            joins[at - 1] = read(parts[at - 1] + parts[at], _NO_RANK)
        if at < len(joins):
            joins[at] = read(parts[at] + parts[at + 1], _NO_RANK)
    return len(parts)


_NO_RANK = 1 << 18
"""Above any rank (three digits of base 64): a join no piece of the vocabulary is."""


_WORD_PIECES: frozenset[bytes] = frozenset()  # built at the first call
_WORD_RANKS: dict[bytes, int] = {}


def _piece_list() -> list[bytes]:
    """:data:`~.token_tables.WORD_PIECES` read, in order: each piece is the prefix its digit says of the piece before,
    and the letters after the digit."""
    pieces, previous = [], b""
    for shared, rest in re.findall(rb"([0-9])([^0-9]*)", WORD_PIECES.encode("ascii")):
        previous = previous[: int(shared)] + rest
        pieces.append(previous)
    return pieces


def _word_pieces() -> frozenset[bytes]:
    global _WORD_PIECES
    _WORD_PIECES = frozenset(_piece_list())
    return _WORD_PIECES


_RANK_DIGITS = {digit: value for value, digit in enumerate(string.digits + string.ascii_letters + "+/")}


def _word_ranks() -> dict[bytes, int]:
    """Each piece of :data:`~.token_tables.WORD_PIECES` and its rank (:data:`~.token_tables.WORD_RANKS`: three digits
    of base 64 a piece, in the pieces' order)."""
    global _WORD_RANKS
    digits = [_RANK_DIGITS[digit] for digit in WORD_RANKS]
    _WORD_RANKS = {piece: digits[3 * index] << 12 | digits[3 * index + 1] << 6 | digits[3 * index + 2]
                   for index, piece in enumerate(_piece_list())}
    return _WORD_RANKS


_HELD_WORDS: frozenset[bytes] = frozenset()  # built at the first call (the tables are read lazily)


def _held_words() -> frozenset[bytes]:
    """Every word :func:`unheld_units` reads as held: the letters alone, the short words, the common words (each
    of these three of its own lengths, so one set answers for all)."""
    global _HELD_WORDS
    _HELD_WORDS = frozenset([bytes([letter]) for letter in _ASCII_LETTERS] + SHORT_WORDS.encode("ascii").split()) | _common_words()
    return _HELD_WORDS


COPY_ANCHOR = 16
"""Characters of a text whose next occurrence tells a long period (see :func:`copies_units`)."""

COPY_ANCHORS = 3
"""Anchors read per text, at even steps from its start: a stretch repeating a long group over a third of the
text holds one (each costs a C search of a few hundred characters)."""


COPY_PERIOD = PREFIX_CHARS + MAX_PERIOD
"""The longest group whose copies are read: an anchor is searched this far on (so a text costs the same KB of
search however long), and the ends inside runs read such a group whole, but for a separator of up to
:data:`MAX_PERIOD` characters after it (a longer one is a long text once already, priced as such)."""


def copies_units(text: str, utf16: bytes | None = None) -> int:
    """The bound of a text that repeats a group longer than :data:`MAX_PERIOD` characters, in 1/32 tokens: the
    group's bound once and, per further copy, what the runs and the ends inside them (:func:`_copy_units`) count in
    the group twice beyond it once, or in it once less a token where a copy's first run joins the last one's, if
    more (the ends inside a long group twice are read in its first copy only), and the :data:`MARGIN`: the bound
    of a random group misses its real count by up to a token, and every copy by the same (``01004a0bea `` is
    seven tokens a copy, its runs and alternations six). A tokenizer cuts each copy as it
    cut the first (``gojqpb…`` × 20 is twenty times the tokens of one), while the bounds that
    read the first characters, or need a language's vowels, priced the copies at nothing. The period is where
    an anchor of :data:`COPY_ANCHOR` characters occurs next (one C search per anchor); the copies are the
    characters equal to the one a period before, in blocks of :data:`COPY_ANCHOR` (a coincidence of natural
    text is shorter), over the whole text: one big-integer XOR per period found. Natural text that repeats (log
    lines, a table's rows, seven words over and over) comes out below its weights, which price each copy
    already: the bounds that read the whole text (repeats of short groups, which price a word written twice
    high) are not counted again per copy, and a group of words (:func:`_split_inside`) is left to them. Read in
    the bytes of an ASCII text, else in its UTF-16-BE (``utf16``, if given)."""
    best = 0
    for period, start in _copy_periods(text).items():
        if text.isascii():
            cells, width = text.encode("ascii"), 1
            shift = period
        else:
            cells, width = utf16 or text.encode("utf-16-be", "surrogatepass"), 2
            shift = len(text[start : start + period].encode("utf-16-be", "surrogatepass")) // 2
        whole = int.from_bytes(cells, "big")
        same = ((whole >> (8 * width * shift)) ^ whole).to_bytes(len(cells), "big")
        copies = _copies(same, width * COPY_ANCHOR, width * shift)
        group = text[start : start + period]
        if copies and _split_inside(group):
            once = _copy_units(group)
            each = max(_copy_units(group + group) - once, once - UNITS_PER_TOKEN) + MARGIN * UNITS_PER_TOKEN
            best = max(best, _group_bound(group) + copies * each)
    return best


def _copies(same: bytes, block: int, period: int) -> int:
    """Copies of a group of ``period`` bytes after one (``same``: zero where a byte equals the one a period before):
    the blocks of ``block`` equal bytes, the copy's worth of them, or the whole copies if more (a short text's
    copies end in part of a block: ``01004a0bea `` × 11 is ten copies, six blocks)."""
    return max(same.count(b"\0" * block, period) * block // period, same.count(b"\0" * period, period))


def _copy_periods(text: str) -> dict[int, int]:
    """The periods longer than :data:`MAX_PERIOD`, up to :data:`COPY_PERIOD`, at which an anchor occurs next, each
    with that anchor's start (none in a text shorter than the anchors)."""
    size = len(text)
    found: dict[int, int] = {}
    if size < COPY_ANCHORS * COPY_ANCHOR:
        return found
    for step in range(COPY_ANCHORS):
        start = size * step // COPY_ANCHORS
        period = text.find(text[start : start + COPY_ANCHOR], start + 1, start + COPY_PERIOD + COPY_ANCHOR) - start
        if period > MAX_PERIOD:
            found.setdefault(period, start)
    return found


def _split_inside(group: str) -> bool:
    """Whether a group holds half as many ends inside runs as runs or more, or a letter next to a digit per
    :data:`ID_RUNS` runs: random letters do (``qxzvbm`` is four tokens), and so do ids, hashes and hex
    (``01004a0bea``: no rare pair, a change between letters and digits in each other run); words mostly do not
    (``alpha beta omega gamma``: two rare triples in eight runs), and the weights price their copies as they
    price any natural text (the ends inside its runs are no lower bound there, only about its count: priced per
    copy, seven words repeated came out 1.28 times their real count). A word next to a number now and then
    (``python3 -m pytest``) is no id."""
    latin = group.encode("latin-1", "ignore")
    runs = run_units(latin)
    return 2 * inner_units(group) >= runs or ID_RUNS * _alternations(latin) * UNITS_PER_TOKEN >= runs


ID_RUNS = 6
"""Runs per change between a letter and a digit at most, in a group read as an id (see :func:`_split_inside`):
random hex has one per run or two, English and code hardly ever one per six."""


def _alternations(latin: bytes) -> int:
    """Letters next to a digit in the Latin-1 bytes of a text, as :func:`run_units` counts them."""
    kinds = int.from_bytes(latin.translate(_RUN_BITS), "big") & _masks(len(latin))[_KINDS]
    joined = kinds | (kinds >> 8)
    return (joined & (joined >> 1) & _masks(len(latin))[_LETTER]).bit_count()


def _copy_units(group: str) -> int:
    """What the bounds read in the first characters only price a group at: its runs and the ends inside them
    (the repeats and the random letters are read over the whole text already, and the margin is the text's)."""
    return run_units(group.encode("latin-1", "ignore")) + inner_units(group)


def _group_bound(group: str) -> int:
    latin = group.encode("latin-1", "ignore")
    return bound_units(group, latin, len(group.encode("utf-8", "surrogatepass")), copies=False)

