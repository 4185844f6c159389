"""Token figures: an estimate calibrated per kind of text, and the context size pi computes.

pi estimates ``ceil(chars / 4)``. Against a real Claude tokenizer that is close for English prose, but it
undercounts JSON by an eighth to a third, log lines, hex and Cyrillic by half and base64 almost three
times, while CJK is about one token per character. The window guarantee rests on this figure, and tool
results are mostly JSON, logs and encoded blobs. Here every character costs a weight by its class
(lowercase, uppercase, digit, space, newline, quotes, brackets, other punctuation; non-ASCII text by its
Unicode block of 256 code points), fitted on ``bench/token_corpus`` by ``bench/token_corpus/fit.py``.
Uppercase letters and digits weigh most because runs of mixed case and digits (base64, hex, ids, timestamps)
split into one- and two-character tokens; the price is that PascalCase-heavy code (Java, C#, Go) comes out
up to 1.6 times high, which only compacts a little early.

The window guarantee must hold on any text, not only on text like the corpus (issue 23.7), so weights alone
are not trusted where they were not fitted. Two bounds hold the estimate up: a character of a block the
weights never saw (private use, Cherokee, emoji, zero-width joiners) or a rare one of a fitted block (an
ideograph outside the common sets, a combining mark) weighs its UTF-8 bytes, since no token holds less than a
byte; and lowercase text that is no language (random letters: runs of four consonants) adds
:data:`CLUSTER_TOKENS` per such run where the runs are dense, and where they are scattered (a few dozen random letters
every few hundred characters of English) the letters around each run cost what the tokenizer's merges cut them into
(:func:`scattered_units`); and where a text's words are misspelt (a typo in most words, random letters too short for
runs of consonants) its pre-tokens are counted and its words cut by the tokenizer's merges (:func:`word_cut_units`).
Letters of other alphabets weigh what random letters of theirs cost
(:data:`RANDOM_TOKENS`) where a text's letters are random rather than a language's, told by how surprising its
letters are to the letter frequencies of the calibration half, or their pairs to its pairs where the letters are
drawn with a language's own frequencies (``token_bounds.surprise_share``); capitals of
Cyrillic and Greek weigh what a tokenizer makes of them (:data:`UPPER_TOKENS`). On the 45 classes of the corpus (``make bench`` prints the table, on the
half the weights never saw too) no class comes out below 0.93; ordinary prose and code come out 1.0-1.26.

Weights are averages, and a short text is no average: ``t"r`` is four tokens and weighs one, ``a"a"a"…`` a
token per character and weighs a fifth, ten random letters five and weigh two. So the estimate of each text
is the largest of its weights and the bounds of :mod:`~pi_compact.compaction.token_bounds`, counted from the
text itself (runs a tokenizer cuts first, ends inside them it cannot merge across, a floor for a few
characters), which on English and code stay below the weights and change nothing. A text the tokenizer reads
expanded (NFKC: ``ﷺ`` is 18 characters) is weighed as it is read. Hypothesis finds no string of 1-200
characters of any alphabet the tests draw below 0.9 of the real count (tests/compaction/test_tokens_short.py),
nor, in the 1/32 tokens a message sums, any text of 1-32 characters of 25 families (test_tokens_tiny.py): a
message's parts are summed, so each part, however short, is held to 0.9 of its count, never to a token less.
The bounds are not additive: the estimate of a whole is at least each part's, and may exceed the sum of its
parts' where a repeat spans them (two messages of ``ab`` × 200 joined), so the pipeline measures each request
whole before it is sent (compaction/summarize.py).

The sum is taken in C, since it runs before every request: ``bytes.translate`` maps each byte of ASCII text
(or of the Latin-1 characters, and the high byte of each UTF-16 code unit, of other text) to its weight in
1/32 token, and ``zlib.adler32`` started at 0 adds the bytes up (its low half is the byte sum modulo 65521,
so it is read per chunk small enough never to wrap); the consonant runs are one more translate and a
``bytes.count`` (and where they are one per :data:`SCATTERED_SPACING` characters or more, a few C calls and a cached
cut per run; and a text longer than 256 characters has its word sample cut, a few dozen cached cuts). The weights
alone are 1.5-5 µs per KB; the bounds and the word sample bring a 2 KB text to 150-750 µs (stop 55), so each text's
weight is kept (:func:`text_units`, up to :data:`KNOWN_CHARS_LIMIT` characters of texts): a context estimated again
before the next request costs a lookup per text. Text holding rare ideographs also runs one
regular expression (its character class is built at the first such text, in a quarter second). The bounds
add one translate and a dozen big-integer operations per text (the run bound) and a fixed few dozen C calls
on its first characters (the ends inside runs); a character's NFKC expansion cost is cached. ``make bench``
prints µs/KB of a text weighed anew beside round 1's obvious version, which tests/compaction/test_tokens_same.py
holds these figures exactly equal to.

Images count 1,200 tokens, wherever they are (pi counts them only in tool results).

The context size is pi's: the last usable assistant message's reported usage (measured) plus estimates of
the messages after it; estimates alone when no usage exists. Usage recorded before the latest compaction
describes a context that no longer exists and is ignored.
"""

from __future__ import annotations

import functools
import math
import re
import string
import threading
import unicodedata
import zlib
from dataclasses import dataclass
from typing import Any

import orjson

from .token_bounds import (FEWEST_LETTERS, PREFIX_CHARS, SHORT_CHARS, ALPHABETS, alphabet_of, bound_units, bpe_tokens,
                           letter_surprise, pretokens, surprise_share, word_sample)

IMAGE_TOKENS = 1200

# -- per-character weights ------------------------------------------------------------------------------------

UNITS_PER_TOKEN = 32
"""Weights are whole 1/32 tokens, so that each character maps to one byte."""

ASCII_CLASSES: dict[str, str] = {
    "lower": string.ascii_lowercase,
    "upper": string.ascii_uppercase,
    "digit": string.digits,
    "space": " ",
    "tab": "\t",
    "newline": "\n\r",
    "quote": "\"'`",
    "bracket": "{}[]()<>",
    "stop": ".,;:!?",
    "joiner": "/\\|",
    "rule": "-=_*#~",  # drawn lines: a long run of them is one token
    "symbol": "+&%$@^",
}
"""ASCII characters by class; the rest (control characters) are "control"."""

BLOCK_CLASSES: dict[str, tuple[tuple[int, int], ...]] = {
    # non-ASCII characters by their block of 256 code points (the high byte of the UTF-16 code unit)
    "latin": ((0x00, 0x02), (0x1E, 0x1E)),  # U+0080-02FF accented Latin, IPA; U+1E00 Vietnamese
    "greek": ((0x03, 0x03), (0x1F, 0x1F)),  # combining marks, Greek
    "cyrillic": ((0x04, 0x04),),
    "rtl": ((0x05, 0x07),),  # Armenian, Hebrew, Arabic, Syriac
    "indic": ((0x09, 0x0D),),  # Devanagari … Malayalam
    "thai": ((0x0E, 0x0E),),  # Thai, Lao
    "georgian": ((0x10, 0x10),),
    "symbols": ((0x20, 0x2F),),  # dashes, quotes, arrows, math, box drawing, dingbats
    "kana": ((0x30, 0x31),),  # CJK punctuation, hiragana, katakana, Hangul compatibility jamo
    "han": ((0x34, 0x9F), (0xF9, 0xFA)),  # CJK ideographs
    "hangul": ((0x11, 0x11), (0xAC, 0xD7)),  # Hangul jamo and syllables
    "fullwidth": ((0xFF, 0xFF),),  # fullwidth and halfwidth forms
}
"""Blocks the weights were fitted on. Every other character weighs :data:`UNFITTED` (see the module docstring)."""

UNFITTED = {"unfitted": 3.0, "astral": 2.0, "zero_width": 3.0, "rare2": 2.0}
"""The bound no text can beat, for characters the weights were not fitted on: a token holds at least one
UTF-8 byte, so a character weighs its bytes (3 for the rest of U+0800-FFFF: private use, Cherokee,
Ethiopic…; 2 per UTF-16 code unit of a character above U+FFFF, which is 4 bytes: emoji, rare ideographs).
Zero-width characters (joiners, spaces, marks) sit among fitted punctuation but cost their 3 bytes."""
ZERO_WIDTH = "\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064"

WEIGHTS: dict[str, float] = {
    # tokens per character, fitted by bench/token_corpus/fit.py (multiples of 1/32)
    "lower": 0.21875, "upper": 1.125, "digit": 0.78125, "space": 0.125, "tab": 0.3125, "newline": 1.34375,
    "quote": 0.15625, "bracket": 0.5625, "stop": 0.96875, "joiner": 0.21875, "rule": 0.90625, "symbol": 2.34375,
    "control": 1, "latin": 2.5, "greek": 1.3125, "cyrillic": 0.5625, "rtl": 1.0625, "indic": 1.40625,
    "thai": 1.84375, "georgian": 1.46875, "symbols": 1.6875, "kana": 1.03125, "han": 0.90625, "hangul": 1.34375,
    "fullwidth": 0.96875,
}

CLUSTER = "cccc"
CLUSTER_TOKENS = 4.0
"""The second bound, for letters no per-character weight can price. English and code spell their lowercase
letters in pronounceable chunks a tokenizer knows whole; random letters (ids, hashes in base 26, keyboard
mash) break into one- and two-letter tokens, and show it as runs of consonants: four lowercase consonants in
a row, rare in any language's words (0.001 per token in English and Python, 0.22 in random letters), add
this many tokens per run of four (counted without overlap), where they are dense over the whole text or where they
are (:data:`CLUSTER_DENSE`), wherever in the text that is."""
_CONSONANTS = bytes(ord("c") if chr(value) in "bcdfghjklmnpqrstvwxz" else ord(" ") for value in range(256))


RARE_BLOCKS = ((0x0300, 0x036F), (0x0460, 0x04FF), (0x0530, 0x058F), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0xF900, 0xFAFF))
"""Blocks whose fitted weight holds for the characters texts are written in, not for the rest: of 20,992
ideographs a tokenizer knows some thousands whole, the rest cost 2-3 tokens each, and random text draws
mostly those. A character of these blocks outside the national standards' common sets (GB 2312, JIS X 0208
and Big5 level 1 for ideographs, KS X 1001 for Hangul, modern Cyrillic; no combining mark) weighs its UTF-8
bytes instead. Armenian shares its block with the Hebrew the weight was fitted on, and costs its bytes: a
tokenizer barely knows it (random Armenian letters are two tokens each)."""


def _common(char: str) -> bool:
    code = ord(char)
    if code < 0x0800:
        return 0x0400 <= code < 0x0460  # Cyrillic: the modern alphabets; combining marks are never common
    for codec, first, last in (("gb2312", 0xB0, 0xD7), ("shift_jis", 0x88, 0x98), ("big5", 0xA4, 0xC6),
                               ("euc_kr", 0xB0, 0xC8)):
        try:
            lead = char.encode(codec)[0]
        except UnicodeEncodeError:
            continue
        if first <= lead <= last:
            return True
    return False


@functools.cache
def _rare_pattern() -> re.Pattern[str]:
    """The rare characters of :data:`RARE_BLOCKS` as one character class (built once, when first needed)."""
    rare = [code for first, last in RARE_BLOCKS for code in range(first, last + 1) if not _common(chr(code))]
    ranges, start = [], rare[0]
    for previous, code in zip(rare, rare[1:] + [-1]):
        if code != previous + 1:
            ranges.append(f"{re.escape(chr(start))}-{re.escape(chr(previous))}" if previous > start
                          else re.escape(chr(start)))
            start = code
    return re.compile("[" + "".join(ranges) + "]")


def is_rare(char: str) -> bool:
    return any(a <= ord(char) <= b for a, b in RARE_BLOCKS) and not _common(char)


@functools.lru_cache(maxsize=8192)
def char_class(char: str) -> str:
    """The class a character is weighed by (one of :data:`WEIGHTS` or :data:`UNFITTED`)."""
    code = ord(char)
    if code < 0x80:
        return next((name for name, chars in ASCII_CLASSES.items() if char in chars), "control")
    if char in ZERO_WIDTH:
        return "zero_width"
    if code > 0xFFFF:
        return "astral"  # weighed per UTF-16 code unit: twice
    if is_rare(char):
        return "rare2" if code < 0x0800 else "unfitted"
    high = code >> 8
    if 0xD8 <= high <= 0xDF:
        return "astral"  # a lone surrogate
    return next((name for name, ranges in BLOCK_CLASSES.items() if any(a <= high <= b for a, b in ranges)),
                "unfitted")


def byte_classes() -> list[str]:
    """The class of each ASCII byte value (the fast path of ASCII text)."""
    return [char_class(chr(value)) if value < 0x80 else "latin" for value in range(256)]


def _units(weight: float) -> int:
    return round(weight * UNITS_PER_TOKEN)


def _tables(weights: dict[str, float]) -> tuple[bytes, bytes]:
    """``bytes.translate`` tables: a Latin-1 character's weight, and a UTF-16 high byte's (its block's) weight."""
    every = {**weights, **UNFITTED}
    low = bytes(_units(every[char_class(chr(value))]) for value in range(256))
    high = bytearray(_units(every["unfitted"]) for _ in range(256))
    high[0] = 0  # U+0000-00FF: weighed by the Latin-1 table
    for name, ranges in BLOCK_CLASSES.items():
        for first, last in ranges:
            high[first : last + 1] = bytes([_units(every[name])]) * (last + 1 - first)
    high[0] = 0
    high[0xD8:0xE0] = bytes([_units(every["astral"])]) * 8
    return low, bytes(high)


_LOW_UNITS, _HIGH_UNITS = _tables(WEIGHTS)
_OUTSIDE_RARE_BLOCKS = bytes(high for high in range(256)
                             if not any(a >> 8 <= high <= b >> 8 for a, b in RARE_BLOCKS))
_ZERO_WIDTH_EXTRA = _units(UNFITTED["zero_width"]) - _units(WEIGHTS["symbols"])
# the byte sum is read from adler32's low half, which wraps at 65521
_CHUNK = 65520 // max(1, max(_LOW_UNITS), max(_HIGH_UNITS))


def _byte_sum(data: bytes) -> int:
    if len(data) <= _CHUNK:
        return zlib.adler32(data, 0) & 0xFFFF
    view = memoryview(data)
    return sum(zlib.adler32(view[start : start + _CHUNK], 0) & 0xFFFF for start in range(0, len(data), _CHUNK))


CLUSTER_WINDOW, CLUSTER_DENSE = 256, 8
"""Where a text's runs are not dense over the whole of it, :func:`cluster_units` charges those that are dense where
they are: this many runs within this many characters (one per 32, twice the density the whole text is read at, so
that a few words like ``strengths`` or ``http`` together stay uncharged). Random letters placed in the middle or at
the end of English, a tenth to a quarter of it, were diluted below one run per 64 characters of the whole and were
0.79-0.89 of the real count (tok52b); random letters write one run per 8 characters, random words of 2-9 letters
one per 14."""

CLUSTER_COPIES = 4
"""The dense runs are charged where at least 1/this of them are distinct (four letters each): a few random words
written again (a log line repeated: the tokenizer cuts each copy as the first) are charged, a line of ``xxxx``, which
a tokenizer packs into long tokens, is not. (The whole text's gate deflates it instead: a block of random letters
written twice deflates as well as English, and was 0.90 of the real count.)"""


SCATTERED_SPACING = 128
"""Where a text writes a run of four consonants in every this many characters or more, the runs :func:`cluster_units`
does not charge have their letters cut as the tokenizer cuts them (:func:`scattered_units`). Below that the letters
it leaves to the weights move the estimate by less than a tenth: a run of random letters stands for about eight of
them, two tokens beyond their weights, and 128 characters of English cost some 27 tokens, which its weights hold at
1.0-1.1 of the real count (pieces of 20-50 random letters every 350-800 characters, a run per 150, stay at 0.93).
English writes one run per few thousand characters, code and JSON one per several hundred, HTML, identifiers and
base64 one per 150-180: their cost is one C count, as before."""

SCATTERED_REACH = 24
"""Letters either side of a run that are cut with it (:func:`scattered_units`): where random letters are, a run
falls in every eight of them, so a run's neighbourhood holds them all; a long word of another kind is not read
past it. As many as :data:`~pi_compact.compaction.token_bounds.FEWEST_LETTERS`, the longest piece cut at once."""


def cluster_units(latin: bytes) -> int:
    """The consonant-run bound of the Latin-1 bytes of a text, in 1/32 tokens: charged only where the runs
    are dense (one per 64 characters; English has one per few thousand) and the letters do not repeat (a
    line of ``xxxx`` deflates to almost nothing, and a tokenizer packs it as tightly); else on the runs that are
    dense where they are (:data:`CLUSTER_WINDOW`), wherever they are placed, if their letters do not repeat; and
    where the runs are one per :data:`SCATTERED_SPACING` characters or more, the letters around each run not
    charged what they cost cut as the tokenizer cuts them beyond their weights (:func:`scattered_units`)."""
    mask = latin.translate(_CONSONANTS)
    runs = mask.count(b"cccc")
    if runs * 64 >= len(latin) and len(zlib.compress(latin, 1)) >= 0.4 * len(latin):
        return runs * _units(CLUSTER_TOKENS)
    scattered = runs * SCATTERED_SPACING >= len(latin)
    if runs < CLUSTER_DENSE and not (runs and scattered):  # natural text: a few runs, one C count
        return 0
    starts = _run_starts(mask)
    charged = _dense_runs(latin, starts)
    units = charged.count(1) * _units(CLUSTER_TOKENS)
    if scattered:
        units += scattered_units(latin, [start for start, marked in zip(starts, charged) if not marked])
    return units


def _run_starts(mask: bytes) -> list[int]:
    """Where the runs of :func:`cluster_units` start (``mask``: the text's consonants as ``c``), left to right, without
    overlap: a C search per run (the runs are few where the text is natural)."""
    starts, find, at = [], mask.find, mask.find(b"cccc")
    while at >= 0:
        starts.append(at)
        at = find(b"cccc", at + 4)
    return starts


def _dense_runs(latin: bytes, starts: list[int]) -> bytearray:
    """Which runs of :func:`cluster_units` (``starts``) are charged: those among :data:`CLUSTER_DENSE` in a row within
    :data:`CLUSTER_WINDOW` characters, where their letters are not a few runs written again and again
    (:data:`CLUSTER_COPIES`); a 1 per run charged."""
    dense = bytearray(len(starts))
    last = CLUSTER_DENSE - 1
    for index in range(len(starts) - last):
        if starts[index + last] - starts[index] < CLUSTER_WINDOW:
            dense[index : index + CLUSTER_DENSE] = b"\1" * CLUSTER_DENSE
    pieces = [latin[start : start + 4] for start, marked in zip(starts, dense) if marked]
    return dense if len(set(pieces)) * CLUSTER_COPIES >= len(pieces) else bytearray(len(starts))


_LOWERCASE = bytes(ord("a") if chr(value) in string.ascii_lowercase else ord(" ") for value in range(256))
_LATIN_LETTERS = frozenset(value for value in range(256) if chr(value).isalpha())


def scattered_units(latin: bytes, starts: list[int]) -> int:
    """What the lowercase letters around the runs of four consonants at ``starts`` cost beyond their weights, in 1/32
    tokens: random lowercase letters scattered through English, a few dozen every few hundred characters, are too
    sparse for the runs' charge (:func:`cluster_units`) and were 0.86 of the real count (tok53). Each run's stretch of
    lowercase letters, up to :data:`SCATTERED_REACH` letters either side of it (and of the next run within that reach:
    one piece), with the space before it where the stretch starts after one, costs the tokens the tokenizer's merges
    cut it into (:func:`~pi_compact.compaction.token_bounds.bpe_tokens`, in pieces of
    :data:`~pi_compact.compaction.token_bounds.FEWEST_LETTERS`), less one for each place a token could span (a join
    of two pieces, an end beside a letter it does not read), where that is more than the letters' weights: a word
    the vocabulary holds (``strengths``, ``https``) costs its weights. Read from the vocabulary, not fitted. Each
    search is bounded by the reach, so a text costs a few C calls per run."""
    lower = latin.translate(_LOWERCASE)
    units, count, index, done = 0, len(starts), 0, 0
    while index < count:
        start = starts[index]
        low = max(done, start - SCATTERED_REACH)
        before = lower.rfind(b" ", low, start)
        first = before + 1 if before >= 0 else low
        end, index = start + 4, index + 1
        while True:  # the stretch's end within reach of the last run read, taking in the runs before it
            after = lower.find(b" ", end, end + SCATTERED_REACH)
            stop = after if after >= 0 else min(len(latin), end + SCATTERED_REACH)
            if index < count and starts[index] < stop:
                end, index = starts[index] + 4, index + 1
                continue
            end = stop
            break
        done = end
        units += _cut_surplus(latin, first, end)
    return units


def _cut_surplus(latin: bytes, first: int, end: int) -> int:
    """What the lowercase letters ``latin[first:end]`` cost cut by the tokenizer beyond their weights (see
    :func:`scattered_units`), with the space before them if they start after one."""
    spaced = first > 0 and latin[first - 1] == 32
    piece = latin[first - spaced : end]
    weight = _byte_sum(piece.translate(_LOW_UNITS))
    cut = sum(bpe_tokens(piece[at : at + FEWEST_LETTERS]) for at in range(0, len(piece), FEWEST_LETTERS))
    cut -= (len(piece) - 1) // FEWEST_LETTERS  # a token can span each join of two pieces
    cut -= first > 0 and not spaced and latin[first - 1] in _LATIN_LETTERS  # or an end beside a letter
    cut -= end < len(latin) and latin[end] in _LATIN_LETTERS
    return max(0, cut * UNITS_PER_TOKEN - weight)


WORD_SAMPLE_DOUBT = 2
"""How far below the whole text's rate the words of its :func:`~pi_compact.compaction.token_bounds.word_sample` may
cut into extra tokens: :func:`word_cut_units` reads the whole text where the sample's extra tokens, at this many times
their rate, could lift its cut above the estimate. The sample is up to 512 bytes of a text, some 80 words; a few
misspelt among them are too few for their rate to be read closer than twice or half."""


def word_cut_units(text: str, data: bytes, units: int) -> int:
    """What a text's pre-tokens cost at least, its words cut as the tokenizer cuts them (:func:`pretoken_cut`), in
    1/32 tokens (``data``: its ASCII bytes, a character beyond ASCII read as ``?``; ``units``: its estimate so far); 0
    where that could not exceed ``units``. English where a word in two or three is misspelt, pieces of 1-6 random
    letters every 5-40 characters glued to the words or spaced, was 0.85-0.89 of the real count (tok54): most pieces
    hold no run of four consonants (:func:`scattered_units`), and the bounds cut the words of the first characters only
    (``token_bounds.cut_tokens``); each misspelt word is a word the vocabulary does not hold, two tokens or more where
    its weights price a fraction of one. Read from the vocabulary, not fitted. Read for a text longer than
    ``token_bounds.PREFIX_CHARS`` (a shorter one the bounds cut whole), and over the whole of it only where its
    :func:`~pi_compact.compaction.token_bounds.word_sample`, its words' extra tokens at :data:`WORD_SAMPLE_DOUBT` times
    their rate, could exceed ``units``: English, code and JSON cut a word in fifty into more than one token and have
    fewer pre-tokens than their weights, so the whole is read only where words are misspelt, random or of a
    vocabulary the tokenizer lacks (a sample costs a few dozen cached cuts a text)."""
    if len(text) <= PREFIX_CHARS:
        return 0
    sample = word_sample(data).decode("ascii")
    tokens, extra = pretoken_cut(sample)
    if not extra or (tokens + (WORD_SAMPLE_DOUBT - 1) * extra) * UNITS_PER_TOKEN * len(text) <= units * len(sample):
        return 0
    if sample != text:
        tokens, extra = pretoken_cut(text)
    return tokens * UNITS_PER_TOKEN


def pretoken_cut(text: str) -> tuple[int, int]:
    """The tokens a text's pre-tokens (``token_bounds.pretokens``: GPT-2's pattern) are cut into at least, and how many
    of them are beyond one a pre-token. A word of ASCII letters (with the space before it) costs the tokens of the
    tokenizer's merges in their order (:func:`_word_cut`), cut first where a capital follows a lowercase letter: the
    vocabulary holds few tokens that span a change of case, and its word pieces (``token_tables.WORD_PIECES``) hold
    those of lowercase or capitalized letters; so a word misspelt into the capital of the next (``thateqmxavIs``) is cut
    as the tokenizer cuts it, and an identifier (``getValue``) too, a token over in a hundred or so. A word with two
    capitals in a row (``HTTP``, ``toJSON``, base64) costs one, as any other pre-token does (numbers, punctuation):
    the word pieces do not hold its merges."""
    pieces = pretokens(text)
    extra = sum(map(_piece_extra, pieces))
    return len(pieces) + extra, extra


@functools.lru_cache(maxsize=1 << 16)
def _piece_extra(piece: str) -> int:
    """The tokens beyond one that the tokenizer's merges cut one pre-token into (:func:`pretoken_cut`); cached, since
    a sample of natural text is read before every request and writes the same pieces again."""
    letters = piece.lstrip(" ")
    if not (letters.isascii() and letters.isalpha()):
        return 0
    if letters.islower() or letters.istitle():
        return _word_cut(piece.encode("ascii")) - 1
    if not _CAPITALS.search(letters):
        return sum(map(_word_cut, _CASED_PIECE.findall(piece.encode("ascii")))) - 1
    return 0


_CAPITALS = re.compile("[A-Z]{2}")
_CASED_PIECE = re.compile(rb" ?[A-Z][a-z]*| ?[a-z]+")


def _word_cut(word: bytes) -> int:
    """The tokens the tokenizer's merges cut a word of lowercase or capitalized letters into (with the space before it:
    :func:`~pi_compact.compaction.token_bounds.bpe_tokens`); a word of more than ``FEWEST_LETTERS`` characters in
    pieces of that many, less one a join a token could span (a cut of a long word costs its square)."""
    if len(word) <= FEWEST_LETTERS:
        return bpe_tokens(word)
    cut = sum(bpe_tokens(word[at : at + FEWEST_LETTERS]) for at in range(0, len(word), FEWEST_LETTERS))
    return cut - (len(word) - 1) // FEWEST_LETTERS


_KNOWN: dict[str, int] = {}
_KNOWN_CHARS = [0]
_KNOWN_LOCK = threading.Lock()
KNOWN_CHARS_LIMIT = 1 << 22
"""The characters of the texts whose weight :func:`text_units` keeps (4 M: a 128k-token context and the region a
compaction reads hold 1-2 M): the oldest are dropped first."""


def text_units(text: str) -> int:
    """:func:`weigh_text`, kept per text: a context is estimated before every request and a compaction estimates its
    whole path again, so without it a long replay weighs each message dozens of times (a text's hash is computed once
    by Python and kept in the string)."""
    units = _KNOWN.get(text)
    if units is None:
        units = weigh_text(text)
        if len(text) <= KNOWN_CHARS_LIMIT // 4:  # a huge output weighed once would push out every other text
            _keep(text, units)
    return units


def _keep(text: str, units: int) -> None:
    with _KNOWN_LOCK:
        if text in _KNOWN:
            return
        _KNOWN[text] = units
        _KNOWN_CHARS[0] += len(text)
        while _KNOWN_CHARS[0] > KNOWN_CHARS_LIMIT and _KNOWN:
            oldest = next(iter(_KNOWN))
            del _KNOWN[oldest]
            _KNOWN_CHARS[0] -= len(oldest)


def weigh_text(text: str) -> int:
    """The weight of a string in 1/``UNITS_PER_TOKEN`` tokens: its :func:`weight_units`, or the per-text bounds
    of :mod:`~pi_compact.compaction.token_bounds` or its words' cut (:func:`word_cut_units`) where they count more; a
    text the tokenizer reads expanded (NFKC: a ligature, ``ﷺ`` is 18 characters) is weighed as it is read."""
    if text.isascii():
        data = text.encode("ascii")
        weights = _byte_sum(data.translate(_LOW_UNITS)) + cluster_units(data)
        units = max(weights, bound_units(text, data, len(data), weights=weights))
        return max(units, word_cut_units(text, data, units))
    latin = text.encode("latin-1", "ignore")
    utf16 = text.encode("utf-16-be", "surrogatepass")  # read by the weights and the bounds alike
    size = len(text.encode("utf-8", "surrogatepass"))
    weights = _other_weight_units(text, latin, utf16)
    weights += few_wide_units(text, weights, size)
    units = max(weights, bound_units(text, latin, size, utf16, weights=weights))
    if len(text) > PREFIX_CHARS:
        units = max(units, word_cut_units(text, text.encode("ascii", "replace"), units))
    if not unicodedata.is_normalized("NFKC", text):
        units = max(units, text_units(unicodedata.normalize("NFKC", text)) + _expansion_units(text))
    return units


def _expansion_units(text: str) -> int:
    """What the characters NFKC writes as several (ligatures, squared words, letters with a nukta) cost beyond
    their expansion's weights: a compatibility character is rare, and read alone its expansion costs its
    UTF-8 bytes, not what the same characters cost in running text."""
    extra = 0
    for char in set(text):  # one pass, then once per distinct character (counted only if it expands)
        units = _char_expansion_units(char)
        if units:
            extra += text.count(char) * units
    return extra


@functools.lru_cache(maxsize=1 << 16)
def _char_expansion_units(char: str) -> int:
    """What one character costs beyond its NFKC expansion's weights (0 unless it expands to several)."""
    expanded = unicodedata.normalize("NFKC", char)
    if len(expanded) < 2:
        return 0
    return max(0, len(expanded.encode("utf-8")) * UNITS_PER_TOKEN - weight_units(expanded))


def weight_units(text: str) -> int:
    """The per-character weights of a string and its consonant-run bound, in 1/``UNITS_PER_TOKEN`` tokens."""
    if text.isascii():
        data = text.encode("ascii")
        return _byte_sum(data.translate(_LOW_UNITS)) + cluster_units(data)
    return _other_weight_units(text, text.encode("latin-1", "ignore"), text.encode("utf-16-be", "surrogatepass"))


def _other_weight_units(text: str, latin: bytes, utf16: bytes) -> int:
    """:func:`weight_units` of a text that is not ASCII (its Latin-1 bytes and UTF-16 given)."""
    units = _byte_sum(latin.translate(_LOW_UNITS)) + cluster_units(latin)
    high = utf16[0::2]
    units += _byte_sum(high.translate(_HIGH_UNITS))
    if b"\x20" in high and any(char in text for char in ZERO_WIDTH):  # all in U+20xx: most texts hold none
        units += _ZERO_WIDTH_EXTRA * sum(map(text.count, ZERO_WIDTH))
    if high.translate(None, _OUTSIDE_RARE_BLOCKS):
        units += sum(map(_rare_extra, _rare_pattern().findall(text)))
        if " " in text:
            units += _SPACE_BEFORE_RARE * len(_space_before_rare().findall(text))
    return units + alphabet_units(utf16, high)


FEW_WIDE_SPREAD = 2.0
"""How far the real count of a few characters beyond ASCII strays from their weights, in standard deviations
of one character's count divided by the root of how many there are: random ideographs (a token for a common
one, two or three for a rare one) 0.5/√n, bytes read as UTF-8 0.9/√n; their weights' surplus on average (6%
and 13%) covers the spread from a few hundred characters on, not at 33-150, where one text in a hundred was
0.80-0.89 of the real count."""

FEW_WIDE_SURPLUS = 0.12
"""What the weights of characters beyond ASCII hold above their mean count (the spread below it is priced)."""


def few_wide_units(text: str, weights: int, size: int | None = None) -> int:
    """The units a text's characters beyond ASCII cost above their weights (``weights``: the text's
    :func:`weight_units`; ``size``: its UTF-8 bytes, if the caller has them) while they are too few for their average
    to hold; 0 for a text of up to ``SHORT_CHARS`` characters (each of their bytes is priced instead) and for one
    whose characters beyond ASCII are many."""
    ascii_text = text.encode("ascii", "ignore")
    wide = len(text) - len(ascii_text)
    if wide <= 0 or len(text) <= SHORT_CHARS:
        return 0
    share = FEW_WIDE_SPREAD / math.sqrt(wide) - FEW_WIDE_SURPLUS
    wide_units = weights - _byte_sum(ascii_text.translate(_LOW_UNITS))
    if share <= 0 or wide_units <= 0:
        return 0
    # never above 0.9 token a byte, what a text of up to SHORT_CHARS characters pays for them: no tokenizer makes
    # more tokens than bytes, and a part priced so must not cost more in a whole than alone
    if size is None:
        size = len(text.encode("utf-8", "surrogatepass"))
    wide_bytes = size - len(ascii_text)
    return max(0, min(math.ceil(wide_units * share), -(-wide_bytes * 9 * UNITS_PER_TOKEN // 10) - wide_units))


UPPER_TOKENS = {"greek": 2.0, "cyrillic": 1.25}
"""What an uppercase letter of these alphabets weighs (their blocks' weights are lowercase text's): a tokenizer
knows their capitals as little as random letters (Russian in capitals is 1.1-1.4 tokens a letter, Greek two,
where lowercase Russian is 0.6)."""

RANDOM_TOKENS = {"greek": 1.5, "cyrillic": 1.0625, "hebrew": 1.4375, "arabic": 1.5, "devanagari": 1.875,
                 "georgian": 2.0}
"""What a letter of random letters of each alphabet costs, a little above what it was measured at (random letters
and words of them, ``bench/tokens_bench.py``): Cyrillic 0.97 where Russian costs 0.6, Georgian 1.86 where
Georgian costs 1.48. A text's letters weigh this much where they are random (see
:func:`~pi_compact.compaction.token_bounds.surprise_share`), their block's weight where they are a language's,
in proportion between."""

ALPHABET_LETTERS_MIN = 8
"""Letters of an alphabet a text must hold before they are read as random or not (a shorter text is priced by
the short-text floor of the bounds)."""


class _Alphabet:
    """What :func:`alphabet_units` reads an alphabet by: its block, the tables that select the block's code units
    (0xFF where a UTF-16 high byte is the block's) and price its capitals beyond the block's weight, what a random
    letter adds, and its letter table."""

    def __init__(self, name: str) -> None:
        self.block = ALPHABETS[name][0] >> 8
        self.select = bytes(0xFF if high == self.block else 0 for high in range(256))
        weight = _HIGH_UNITS[self.block]
        upper = _units(UPPER_TOKENS.get(name, 0)) - weight
        self.upper = bytes(upper if low and upper > 0 and _upper_letter(chr(self.block << 8 | low), name) else 0
                           for low in range(256))
        self.random = _units(RANDOM_TOKENS[name]) - weight
        self.letters = letter_surprise(self.block)


def _upper_letter(char: str, alphabet: str) -> bool:
    return alphabet_of(char) == alphabet and char.isupper()


_ALPHABETS = {alphabet.block: alphabet for alphabet in map(_Alphabet, RANDOM_TOKENS)}
_OUTSIDE_ALPHABETS = bytes(high for high in range(256) if high not in _ALPHABETS)


def alphabet_units(utf16: bytes, high: bytes) -> int:
    """What the letters of the alphabets of :data:`RANDOM_TOKENS` in a text (its UTF-16-BE and their high bytes
    given) weigh beyond their blocks' weights, in 1/32 tokens: their capitals (:data:`UPPER_TOKENS`), and where
    they are random letters, up to :data:`RANDOM_TOKENS` a letter. Each alphabet's code units are picked out in C
    (the low bytes ANDed with a mask of its block's high bytes, the rest read as the block's first code point,
    no letter) and summed through its tables; the letters of :data:`ALPHABETS` are read apart, as the bounds read
    Latin letters."""
    present = high.translate(None, _OUTSIDE_ALPHABETS)
    if not present:
        return 0
    lows = int.from_bytes(utf16[1::2], "big")
    units = 0
    for block in set(present):
        alphabet = _ALPHABETS[block]
        mask = int.from_bytes(high.translate(alphabet.select), "big")
        mine = (lows & mask).to_bytes(len(high), "big")
        units += _byte_sum(mine.translate(alphabet.upper))
        letters = len(mine) - mine.translate(alphabet.letters.table).count(0)
        if letters >= ALPHABET_LETTERS_MIN:
            random, span = surprise_share(alphabet.letters, mine, letters)
            units += alphabet.random * letters * random // span
    return units


def _rare_extra(char: str) -> int:
    """What a rare character weighs beyond its block's weight (its bytes, see :data:`RARE_BLOCKS`)."""
    bound = UNFITTED["rare2"] if char < "\u0800" else UNFITTED["unfitted"]
    return _units(bound) - _HIGH_UNITS[ord(char) >> 8]


@functools.cache
def _space_before_rare() -> re.Pattern[str]:
    """A space and a rare character: a regular expression that starts with a character is searched for it in C."""
    return re.compile(" " + _rare_pattern().pattern)


_SPACE_BEFORE_RARE = UNITS_PER_TOKEN - _units(WEIGHTS["space"])
"""What a space before a rare character weighs beyond a space's: a token, since a tokenizer merges a space with
the characters it knows only (``ա ա ա`` is five tokens, a space and two bytes a letter)."""


# -- messages -------------------------------------------------------------------------------------------------


def text_tokens(text: str) -> int:
    """Estimated tokens of a plain string."""
    return -(-text_units(text) // UNITS_PER_TOKEN)


def estimate_tokens(message: Any) -> int:
    """Estimated tokens of one message of any role (0 for what no model ever sees)."""
    if not isinstance(message, dict):
        return 0
    units = images = 0
    role = message.get("role")
    if role in ("user", "custom", "toolResult"):
        units, images = _content_units(message.get("content"))
    elif role == "assistant":
        units = _assistant_units(message.get("content"))
    elif role == "bashExecution":
        units = _string_units(message.get("command")) + _string_units(message.get("output"))
    elif role in ("branchSummary", "compactionSummary"):
        units = _string_units(message.get("summary"))
    return -(-units // UNITS_PER_TOKEN) + images * IMAGE_TOKENS


def _string_units(text: Any) -> int:
    return text_units(text) if isinstance(text, str) else 0


# A tree view estimates every message of a 100,000-entry file: plain loops and locals, no object per message.
def _content_units(content: Any) -> tuple[int, int]:
    """(units of the text, number of images) of a user, custom or tool result ``content``."""
    if isinstance(content, str):
        return text_units(content), 0
    units = images = 0
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            text = block.get("text")
            if isinstance(text, str):
                units += text_units(text)
        elif kind == "image":
            images += 1
    return units, images


def _assistant_units(content: Any) -> int:
    units = 0
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            units += _string_units(block.get("text"))
        elif kind == "thinking":
            units += _string_units(block.get("thinking"))
        elif kind == "toolCall":
            # name and arguments as one text: the per-text bounds would price a lone "bash" as a short text
            name = block.get("name")
            units += text_units((name if isinstance(name, str) else "") + _compact_json(block.get("arguments")))
    return units


def _compact_json(value: Any) -> str:
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return str(value)


# -- context size ---------------------------------------------------------------------------------------------


def calculate_context_tokens(usage: dict) -> int:
    """pi: ``totalTokens``, or the sum of the parts when it is 0 or missing."""
    total = usage.get("totalTokens")
    if isinstance(total, (int, float)) and total:
        return int(total)
    return int(sum(v for k in ("input", "output", "cacheRead", "cacheWrite") if isinstance(v := usage.get(k), (int, float))))


def usable_usage(message: Any) -> dict | None:
    """The usage of an assistant message that completed (not aborted, not an error), or ``None``."""
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return None
    if message.get("stopReason") in ("aborted", "error"):
        return None
    usage = message.get("usage")
    return usage if isinstance(usage, dict) and calculate_context_tokens(usage) > 0 else None


@dataclass(frozen=True)
class ContextTokens:
    """How big a context is, and how much of that figure was measured by the provider."""

    tokens: int
    usage_tokens: int
    """The provider-reported part (0 when nothing was measured)."""
    trailing_tokens: int
    """The estimated part: messages after the last usable usage, or all of them."""
    last_usage_index: int | None

    @property
    def measured(self) -> bool:
        return self.last_usage_index is not None

    def describe(self) -> str:
        """``12,345 tokens (measured 10,000 + estimated 2,345)`` or ``… (estimated)``."""
        if self.measured:
            return f"{self.tokens:,} tokens (measured {self.usage_tokens:,} + estimated {self.trailing_tokens:,})"
        return f"{self.tokens:,} tokens (estimated)"


def estimate_context_tokens(messages: list[dict], *, trust_usage: bool = True) -> ContextTokens:
    """pi's ``estimateContextTokens``, ignoring usage older than a leading compaction summary."""
    index = _last_usage_index(messages) if trust_usage else None
    if index is None:
        estimated = sum(map(estimate_tokens, messages))
        return ContextTokens(estimated, 0, estimated, None)
    measured = calculate_context_tokens(messages[index]["usage"])
    trailing = sum(map(estimate_tokens, messages[index + 1 :]))
    return ContextTokens(measured + trailing, measured, trailing, index)


def _last_usage_index(messages: list[dict]) -> int | None:
    compacted_at = _compaction_time(messages)
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if usable_usage(message) is None:
            continue
        stamp = message.get("timestamp")
        if compacted_at is not None and (not isinstance(stamp, (int, float)) or stamp <= compacted_at):
            return None
        return index
    return None


def _compaction_time(messages: list[dict]) -> int | None:
    first = messages[0] if messages else None
    if isinstance(first, dict) and first.get("role") == "compactionSummary":
        stamp = first.get("timestamp")
        return stamp if isinstance(stamp, (int, float)) else 0
    return None
