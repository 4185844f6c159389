"""A frozen copy of pi_compact/compaction/tokens.py as it was before the fast rewrite (issue 24): the slow,
obvious estimate the fast one must equal exactly (tests/compaction/test_tokens_same.py). Do not edit.

The original docstring follows.

Token figures: an estimate calibrated per kind of text, and the context size pi computes.

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
:data:`CLUSTER_TOKENS` per such run. On the 45 classes of the corpus (``make bench`` prints the table, on the
half the weights never saw too) no class comes out below 0.93; ordinary prose and code come out 1.0-1.26.

Weights are averages, and a short text is no average: ``t"r`` is four tokens and weighs one, ``a"a"a"…`` a
token per character and weighs a fifth, ten random letters five and weigh two. So the estimate of each text
is the largest of its weights and the bounds of :mod:`~pi_compact.compaction.token_bounds`, counted from the
text itself (runs a tokenizer cuts first, ends inside them it cannot merge across, a floor for a few
characters), which on English and code stay below the weights and change nothing. A text the tokenizer reads
expanded (NFKC: ``ﷺ`` is 18 characters) is weighed as it is read. Hypothesis finds no string of 1-200
characters of any alphabet the tests draw below 0.9 of the real count (tests/compaction/test_tokens_short.py).
The bounds are not additive: the estimate of a whole is at most the sum of its parts' and at least each
part's, which is what the pipeline relies on (it measures a fitted summary whole).

The sum is taken in C, since it runs before every request: ``bytes.translate`` maps each byte of ASCII text
(or of the Latin-1 characters, and the high byte of each UTF-16 code unit, of other text) to its weight in
1/32 token, and ``zlib.adler32`` started at 0 adds the bytes up (its low half is the byte sum modulo 65521,
so it is read per chunk small enough never to wrap); the consonant runs are one more translate and a
``bytes.count``. That is 1.5-5 µs per KB of ordinary text; text holding rare ideographs also runs one
regular expression (its character class is built at the first such text, in a quarter second). The bounds
add a few translates and counts per KB and a fixed dozen C calls per text (``make bench`` prints µs/KB).

Images count 1,200 tokens, wherever they are (pi counts them only in tool results).

The context size is pi's: the last usable assistant message's reported usage (measured) plus estimates of
the messages after it; estimates alone when no usage exists. Usage recorded before the latest compaction
describes a context that no longer exists and is ignored.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
import string
import unicodedata
import zlib
from dataclasses import dataclass
from typing import Any

import orjson

from pi_compact.compaction import token_bounds as bounds
from pi_compact.compaction import tokens as fast  # the alphabets' constants only

from .periodic_obvious import bound_units, merged, pretokens, surprise_fraction, word_windows  # the frozen bounds and the periodic one (issue 23.7)

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
this many tokens per run of four (counted without overlap)."""
_CONSONANTS = bytes(ord("c") if chr(value) in "bcdfghjklmnpqrstvwxz" else ord(" ") for value in range(256))


RARE_BLOCKS = ((0x0300, 0x036F), (0x0460, 0x04FF), (0x0530, 0x058F), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0xF900, 0xFAFF))
"""Blocks whose fitted weight holds for the characters texts are written in, not for the rest: of 20,992
ideographs a tokenizer knows some thousands whole, the rest cost 2-3 tokens each, and random text draws
mostly those. A character of these blocks outside the national standards' common sets (GB 2312, JIS X 0208
and Big5 level 1 for ideographs, KS X 1001 for Hangul, modern Cyrillic; no combining mark) weighs its UTF-8
bytes instead."""


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


def cluster_units(latin: bytes) -> int:
    """The consonant-run bound of the Latin-1 bytes of a text, in 1/32 tokens: charged only where the runs
    are dense (one per 64 characters; English has one per few thousand) and the letters do not repeat (a
    line of ``xxxx`` deflates to almost nothing, and a tokenizer packs it as tightly)."""
    runs = latin.translate(_CONSONANTS).count(b"cccc")
    if runs * 64 < len(latin) or len(zlib.compress(latin, 1)) < 0.4 * len(latin):
        scattered = scattered_units(latin) if runs * 128 >= len(latin) else 0  # (tok53) the rest's letters cut
        return dense_runs(latin) * _units(CLUSTER_TOKENS) + scattered  # (tok52b) else the runs dense where they are
    return runs * _units(CLUSTER_TOKENS)


def _runs(latin: bytes) -> tuple[list[int], set[int]]:
    """The starts of the runs of four consonants (left to right, without overlap, one character at a time) and the
    indexes of those among 8 in a row starting within 256 characters."""
    starts, at = [], 0
    while at + 4 <= len(latin):
        if all(chr(code) in "bcdfghjklmnpqrstvwxz" for code in latin[at : at + 4]):
            starts.append(at)
            at += 4
        else:
            at += 1
    dense = set()
    for index in range(len(starts)):
        if index + 7 < len(starts) and starts[index + 7] - starts[index] < 256:
            dense.update(range(index, index + 8))
    return starts, dense


def dense_runs(latin: bytes) -> int:
    """(tok52b) The runs of four consonants (left to right, without overlap, one character at a time) that are among 8
    in a row starting within 256 characters, if at least a quarter of their four letters are distinct."""
    starts, dense = _runs(latin)
    pieces = [latin[starts[index] : starts[index] + 4] for index in sorted(dense)]
    return len(pieces) if 4 * len(set(pieces)) >= len(pieces) else 0


def scattered_units(latin: bytes) -> int:
    """(tok53) The runs of four consonants :func:`dense_runs` does not charge, one character at a time: from each (left
    to right, the first not inside a piece already read), the lowercase letters up to 24 before it (not into the piece
    before) and on past it up to 24 after the last run met, one piece; with the space before it if it starts after
    one, merged in pieces of 24 characters, less one a join and an end beside a Latin-1 letter, where more than the
    weights."""
    lowercase = set(string.ascii_lowercase.encode("ascii"))
    starts, dense = _runs(latin)
    if dense_runs(latin) == 0:
        dense = set()
    rest = [start for index, start in enumerate(starts) if index not in dense]
    units, done, index = 0, 0, 0
    while index < len(rest):
        start = rest[index]
        index += 1
        first = start
        while first > max(done, start - 24) and latin[first - 1] in lowercase:
            first -= 1
        end = start + 4
        while True:
            stop = end
            while stop < len(latin) and stop < end + 24 and latin[stop] in lowercase:
                stop += 1
            if index < len(rest) and rest[index] < stop:
                end = rest[index] + 4
                index += 1
                continue
            end = stop
            break
        done = end
        spaced = first > 0 and latin[first - 1 : first] == b" "
        piece = latin[first - spaced : end].decode("latin-1")
        cut = sum(merged(piece[at : at + 24]) - 1 for at in range(0, len(piece), 24)) + 1
        cut -= first > 0 and not spaced and chr(latin[first - 1]).isalpha()
        cut -= end < len(latin) and chr(latin[end]).isalpha()
        units += max(0, cut * UNITS_PER_TOKEN - sum(_LOW_UNITS[code] for code in piece.encode("latin-1")))
    return units


def text_units(text: str) -> int:
    """The weight of a string in 1/``UNITS_PER_TOKEN`` tokens: its :func:`weight_units`, or the per-text bounds
    of :mod:`~pi_compact.compaction.token_bounds` where they count more; a text the tokenizer reads expanded
    (NFKC: a ligature, ``ﷺ`` is 18 characters) is weighed as it is read."""
    if text.isascii():
        data = text.encode("ascii")
        weights = _byte_sum(data.translate(_LOW_UNITS)) + cluster_units(data)
        units = max(weights, bound_units(text, data, len(data), weights=weights))
        return max(units, word_cut_units(text, units))
    latin = text.encode("latin-1", "ignore")
    weights = _other_weight_units(text, latin)
    weights += _few_wide_units(text, weights)
    units = max(weights, bound_units(text, latin, len(text.encode("utf-8", "surrogatepass")), weights=weights))
    units = max(units, word_cut_units(text, units))
    if not unicodedata.is_normalized("NFKC", text):
        units = max(units, text_units(unicodedata.normalize("NFKC", text)) + _expansion_units(text))
    return units


def word_cut_units(text: str, units: int) -> int:
    """(tok54) A text longer than 256 characters: its pre-tokens, a token each, and its words of ASCII letters cut by the
    merges, where its word windows (a character beyond ASCII read as ``?``), their extra tokens counted twice, at their
    rate over the whole text, are above ``units``; else 0."""
    if len(text) <= bounds.PREFIX_CHARS:
        return 0
    sample = word_windows(text.encode("ascii", "replace")).decode("ascii")
    tokens, extra = pretoken_cut(sample)
    if extra == 0 or (tokens + (fast.WORD_SAMPLE_DOUBT - 1) * extra) * UNITS_PER_TOKEN * len(text) <= units * len(sample):
        return 0
    return pretoken_cut(text)[0] * UNITS_PER_TOKEN


def pretoken_cut(text: str) -> tuple[int, int]:
    """(tok54) The pre-tokens (one character at a time), each a token, its words of ASCII letters with no two capitals
    in a row the merged pieces of their stretches (a new one at each capital after the first letter, the space before
    the first; a stretch of more than 24 characters merged in pieces of 24, less one a join); and the tokens beyond one
    a pre-token."""
    tokens = extra = 0
    for piece in pretokens(text):
        letters = piece.lstrip(" ")
        cut = 1
        if letters and all(char in string.ascii_letters for char in letters) and not any(
                first.isupper() and second.isupper() for first, second in zip(letters, letters[1:])):
            stretches = [piece[: len(piece) - len(letters) + 1]]
            for char in letters[1:]:
                if char.isupper():
                    stretches.append(char)
                else:
                    stretches[-1] += char
            cut = 0
            for stretch in stretches:
                pieces = [stretch[at : at + 24] for at in range(0, len(stretch), 24)]
                cut += sum(map(merged, pieces)) - (len(pieces) - 1)
        tokens += cut
        extra += cut - 1
    return tokens, extra


def _few_wide_units(text: str, weights: int) -> int:
    """The spread of a few characters beyond ASCII (issue 23.7), one character at a time."""
    wide = [char for char in text if ord(char) > 127]
    if not wide or len(text) <= bounds.SHORT_CHARS:
        return 0
    share = fast.FEW_WIDE_SPREAD / math.sqrt(len(wide)) - fast.FEW_WIDE_SURPLUS
    plain = "".join(char for char in text if ord(char) < 128)
    wide_units = weights - _byte_sum(plain.encode("ascii").translate(_LOW_UNITS))
    if share <= 0 or wide_units <= 0:
        return 0
    tenths = sum(len(char.encode("utf-8", "surrogatepass")) for char in wide) * 9 * UNITS_PER_TOKEN
    most = tenths // 10 + (tenths % 10 > 0)  # 0.9 token a byte, rounded up
    return max(0, min(math.ceil(wide_units * share), most - wide_units))


def _expansion_units(text: str) -> int:
    """What the characters NFKC writes as several (ligatures, squared words, letters with a nukta) cost beyond
    their expansion's weights: a compatibility character is rare, and read alone its expansion costs its
    UTF-8 bytes, not what the same characters cost in running text."""
    extra = 0
    for char, count in Counter(text).items():  # one pass, then once per distinct character
        expanded = unicodedata.normalize("NFKC", char)
        if len(expanded) > 1:
            extra += count * max(0, len(expanded.encode("utf-8")) * UNITS_PER_TOKEN - weight_units(expanded))
    return extra


def weight_units(text: str) -> int:
    """The per-character weights of a string and its consonant-run bound, in 1/``UNITS_PER_TOKEN`` tokens."""
    if text.isascii():
        data = text.encode("ascii")
        return _byte_sum(data.translate(_LOW_UNITS)) + cluster_units(data)
    return _other_weight_units(text, text.encode("latin-1", "ignore"))


def _other_weight_units(text: str, latin: bytes) -> int:
    """:func:`weight_units` of a text that is not ASCII."""
    units = _byte_sum(latin.translate(_LOW_UNITS)) + cluster_units(latin)
    high = text.encode("utf-16-be", "surrogatepass")[0::2]
    units += _byte_sum(high.translate(_HIGH_UNITS))
    if any(char in text for char in ZERO_WIDTH):
        units += _ZERO_WIDTH_EXTRA * sum(map(text.count, ZERO_WIDTH))
    if high.translate(None, _OUTSIDE_RARE_BLOCKS):
        units += sum(map(_rare_extra, _rare_pattern().findall(text)))
        # issue 23.7: a space before a rare character is a token of its own
        units += sum(UNITS_PER_TOKEN - _units(WEIGHTS["space"]) for before, char in zip(text, text[1:])
                     if before == " " and is_rare(char))
    return units + alphabet_units(text)


def alphabet_units(text: str) -> int:
    """Issue 23.7's alphabets, one character at a time: each capital of an alphabet of ``UPPER_TOKENS`` weighs that
    much beyond its block's weight, and the letters of each alphabet of ``RANDOM_TOKENS`` (but the block's first
    code point), where a text holds ``ALPHABET_LETTERS_MIN`` or more, add what a random letter costs beyond the
    block's weight times how random they are (``surprise_fraction``)."""
    units = 0
    for name, random_tokens in fast.RANDOM_TOKENS.items():
        block = bounds.ALPHABETS[name][0] >> 8
        letters = [char for char in text if bounds.alphabet_of(char) == name and ord(char) & 0xFF]
        upper = _units(fast.UPPER_TOKENS.get(name, 0)) - _HIGH_UNITS[block]
        if upper > 0:
            units += upper * sum(char.isupper() for char in letters)
        if len(letters) >= fast.ALPHABET_LETTERS_MIN:
            random = (_units(random_tokens) - _HIGH_UNITS[block]) * len(letters)
            utf16 = text.encode("utf-16-be", "surrogatepass")
            data = bytes(low if high == block else 0 for high, low in zip(utf16[0::2], utf16[1::2]))
            units += math.floor(random * surprise_fraction(block, data, len(letters)))
    return units


def _rare_extra(char: str) -> int:
    """What a rare character weighs beyond its block's weight (its bytes, see :data:`RARE_BLOCKS`)."""
    bound = UNFITTED["rare2"] if char < "\u0800" else UNFITTED["unfitted"]
    return _units(bound) - _HIGH_UNITS[ord(char) >> 8]


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
