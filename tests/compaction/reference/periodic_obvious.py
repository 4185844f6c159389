"""The repeats of token_bounds.py written the obvious way, one code unit at a time in plain Python: the oracle
:func:`pi_compact.compaction.token_bounds.periodic_units` (and the repeats of the first characters, and the
bounds as a whole) must equal exactly. It shares with the fast one only what defines the bound (the constants,
the rare pairs and triples), never how it is counted. Slow: for tests only."""

from __future__ import annotations

import bisect
import functools
import math
import re
import string
import unicodedata
from fractions import Fraction

from pi_compact.compaction import token_bounds as spec

from . import token_bounds_before as before

UNIT = spec.UNITS_PER_TOKEN


def code(unit: int) -> int:
    """A UTF-16 code unit's code: its low byte, with the top bit set above U+00FF."""
    return (unit & 0xFF) | (128 if unit > 0xFF else 0)


def codes(text: str) -> list[int]:
    """The codes of a text's code units, leaving out every space right after a space and every tab right after a
    tab (a run of either is read as one)."""
    raw = text.encode("utf-16-be", "surrogatepass")
    found: list[int] = []
    for i in range(0, len(raw), 2):
        value = code(raw[i] << 8 | raw[i + 1])
        if not (found and value in (ord(" "), ord("\t")) and found[-1] == value):
            found.append(value)
    return found


def runs(values: list[int], period: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each maximal run of positions before ``end`` that repeat the one a period before."""
    found, start = [], None
    for i in range(period, end + 1):
        repeats = i < end and values[i] == values[i - period]
        if repeats and start is None:
            start = i
        elif not repeats and start is not None:
            found.append((start, i))
            start = None
    return found


def group_units(group: list[int], thrice: bool = True) -> int:
    if any(value >= 128 for value in group):
        return spec.WIDE_PERIODIC_UNITS
    text = "".join(map(chr, group))
    if text.isdigit() or not text.strip(spec.WHITESPACE):
        return 0
    for part in range(1, len(text) + 1):  # the shortest group it repeats
        if len(text) % part == 0 and text[:part] * (len(text) // part) == text:
            text = text[:part]
            break
    cyclic = text + text[:2]
    size = len(text)
    pairs = sum(cyclic[i : i + 2] in spec._rare_pair_set() for i in range(size))
    triples = sum(cyclic[i : i + 3] in spec._rare_triple_set() for i in range(size))
    if " " in text or "\t" in text:
        least = max(UNIT, spec.WORD_UNITS * sum(char not in spec.WHITESPACE for char in text) if thrice else 0)
    else:
        least = (spec.PERIODIC_UNITS if size < 3 else spec.LONG_GROUP_UNITS) * size
    return max(least, pairs * UNIT + triples * spec.TRIPLE_UNITS) // size


def changes(text: str) -> int:
    """Changes between two whitespace characters of the Latin-1 characters of a text that a tokenizer does not
    merge."""
    latin = text.encode("latin-1", "ignore").decode("latin-1")
    return sum(a in spec.WHITESPACE and b in spec.WHITESPACE and a != b and a + b not in spec.MERGED_WHITESPACE
               for a, b in zip(latin, latin[1:]))


def periodic_units(text: str) -> int:
    values = codes(text)
    size = len(values)
    best = 0
    for period in range(1, min(spec.MAX_PERIOD, size // 2) + 1):
        shortest = 2 if period < 3 else period
        found_runs = runs(values, period, size)
        found = sum((end - start) // shortest for start, end in found_runs)
        if found * shortest >= min(spec.PERIODIC_MIN, size // spec.PERIODIC_SHARE):
            cost = sum((end - start) * group_units(values[end - period : end], end - start >= 2 * period)
                       for start, end in found_runs if end - start >= shortest)
        else:
            cost = found * UNIT
        best = max(best, cost)
    return best + changes(text) * UNIT


def repeats(text: str) -> int:
    """Repeats of up to four code units in the first characters (their codes, runs collapsed), once per two."""
    values = codes(text)[: spec.PREFIX_CHARS]
    best = 0
    for period in range(1, min(spec.REPEAT_PERIODS, len(values) // 2) + 1):
        shortest = max(2, period)
        best = max(best, sum((end - start) // shortest for start, end in runs(values, period, len(values))))
    return best


def doubled_starts(text: str) -> int:
    """Letters doubled (either case) after a character that is no ASCII letter, from the third of the first
    characters on."""
    chars = [char if char.isascii() else " " for char in text[: spec.PREFIX_CHARS]]
    return sum(chars[i - 2] not in string.ascii_letters and chars[i - 1] in string.ascii_letters
               and chars[i - 1].lower() == chars[i].lower() for i in range(2, len(chars)))


def inner_units(text: str) -> int:
    """The frozen ends inside runs, their repeats counted as above, and half a token per doubled start."""
    prefix = text[: spec.PREFIX_CHARS]
    if len(prefix) < 2:
        return 0
    data = before._NOT_ASCII.sub(" ", prefix).encode("ascii")
    return (before.inner_units(text) + (repeats(text) - before._repeats(data)) * UNIT
            + doubled_starts(text) * spec.TRIPLE_UNITS)


def random_letter_units(latin: bytes) -> int:
    """Half a token per letter of the Latin-1 characters less half the run bound, all of it where at most
    RANDOM_VOWELS percent of the letters are vowels, none from NATURAL_VOWELS, in proportion between, or by how
    surprising the letters are (:func:`surprise_fraction`), whichever is more (texts with RANDOM_LETTERS_MIN
    letters or more)."""
    chars = latin.decode("latin-1")
    letters = [char for char in chars if unicodedata.category(char)[0] == "L"]
    vowels = sum(char in spec.VOWELS for char in chars)
    most = spec.RANDOM_LETTER_UNITS * len(letters) - before.run_units(latin) // 2
    if most <= 0:
        return 0
    if len(letters) < spec.RANDOM_LETTERS_MIN:  # the words alone, from SHORT_WORD_LETTERS letters and SHORT_WORDS_MIN words
        if len(letters) < spec.SHORT_WORD_LETTERS:
            return 0
        return math.floor(most * Fraction(*spec.SHORT_WORD_PRICE) * word_fraction(latin, spec.SHORT_WORDS_MIN))
    poor = Fraction(spec.NATURAL_VOWELS * len(letters) - 100 * vowels,
                    (spec.NATURAL_VOWELS - spec.RANDOM_VOWELS) * len(letters))
    share = max(min(1, max(0, poor)), surprise_fraction(0x00, latin, len(letters)))
    if share < Fraction(*spec.WORD_PRICE):
        share = max(share, Fraction(*spec.WORD_PRICE) * word_fraction(latin))
    return math.floor(most * share)


def words(latin: bytes) -> list[str]:
    """The words of the Latin-1 characters: runs of ASCII letters and digits that hold no digit, cut before a capital
    after a lowercase letter and before the last capital of capitals followed by a lowercase letter, the pieces of
    four letters or more, as written; one character at a time."""
    runs, run = [], ""
    for char in latin.decode("latin-1") + " ":
        if char in string.ascii_letters + string.digits:
            run += char
        else:
            runs.append(run)
            run = ""
    found = []
    for run in runs:
        if any(char.isdigit() for char in run):
            continue
        piece = ""
        for i, char in enumerate(run):
            after = run[i + 1] if i + 1 < len(run) else " "
            if piece and char.isupper() and (piece[-1].islower() or after in string.ascii_lowercase):
                found.append(piece)
                piece = ""
            piece += char
        found.append(piece)
    return [piece for piece in found if len(piece) >= 4]


def word_fraction(latin: bytes, least: int = spec.WORDS_MIN) -> Fraction:
    """The share of the letters past each word's first, of the words of the word windows (``least`` or more), that are in no common word (nor, capitalized or in capitals, in a capitalized one), between the WORD_MISSES percentages, from 0 to 1, where the mean surprisal of
    the letters in the windows the pairs are read in is within WORD_LIKE bits of the Latin table's (raised by
    SURPRISE_DOUBT over the square root of those letters) and at most ACCENTED percent of those letters are Latin-1
    letters beyond ASCII; else 0."""
    common, names = set(spec.COMMON_WORDS.split()), set(spec.CAPITALIZED_WORDS.split())

    def missed(word: str) -> bool:
        return word.lower() not in common and (word.islower() or word.lower() not in names)

    found = words(word_windows(latin))
    if len(found) < least:
        return Fraction(0)
    missed = sum(len(word) - 1 for word in found if missed(word))
    misses = 100 * missed // sum(len(word) - 1 for word in found)
    if misses <= spec.WORD_MISSES[0]:
        return Fraction(0)
    table = spec.letter_surprise(0x00)
    data = windows(latin)
    letters = sum(1 for byte in data if table.table[byte])
    if 100 * sum(1 for byte in data if byte >= 0xC0 and chr(byte).isalpha()) > spec.ACCENTED * letters:
        return Fraction(0)
    like = (round(32 * spec.WORD_LIKE) + round(32 * spec.SURPRISE_DOUBT) // math.isqrt(max(1, letters))) * letters
    if 16 * sum(table.table[byte] for byte in data) - table.natural * letters > like:
        return Fraction(0)
    return Fraction(min(misses, spec.WORD_MISSES[1]) - spec.WORD_MISSES[0], spec.WORD_SPAN)


def word_windows(data: bytes) -> bytes:
    """The text the words are read in: the whole up to WORD_WINDOWS windows of WORD_WINDOW bytes, else that many
    windows at even steps, each less a word it cuts at either edge (a letter or digit on both sides of the edge),
    joined by a space; one character at a time."""
    window, count = spec.WORD_WINDOW, spec.WORD_WINDOWS
    if len(data) <= window * count:
        return data
    step = (len(data) - window) // (count - 1)
    return b" ".join(whole_window(data, step * index, step * index + window) for index in range(count))


def whole_window(data: bytes, start: int, end: int) -> bytes:
    """``data[start:end]`` less a word it cuts at either edge (a letter or digit on both sides of the edge)."""
    alnum = [chr(byte).isascii() and chr(byte).isalnum() for byte in data]
    first, last = start, end
    if start and alnum[start - 1] and alnum[start]:
        while first < end and alnum[first]:
            first += 1
    if end < len(data) and alnum[end - 1] and alnum[end]:
        while last > first and alnum[last - 1]:
            last -= 1
    return data[first:last]


def windows(data: bytes) -> bytes:
    """The text the pairs are read in: the whole up to PAIR_WINDOWS windows of PAIR_WINDOW bytes, else that many
    windows at even steps, joined by a zero byte."""
    window, count = spec.PAIR_WINDOW, spec.PAIR_WINDOWS
    if len(data) <= window * count:
        return data
    step = (len(data) - window) // (count - 1)
    return b"\0".join(data[step * index : step * index + window] for index in range(count))


def surprise_fraction(block: int, data: bytes, letters: int) -> Fraction:
    """How far the ``letters`` letters of one block are from the language its letter tables were counted on (``data``:
    the text read through the block, its Latin-1 bytes or the block's low bytes, 0 for any other code unit): their
    mean surprisal (in 1/16 half bits) above the table's natural mean, less the NATURAL_SURPRISE threshold lowered by
    SURPRISE_DOUBT over the square root of the letters, over the span up to RANDOM_SURPRISE; or, for an alphabet whose
    pairs are read, the mean surprisal of each letter's class after the one before it (no letter: class 0) in the
    windows the pairs are read in, above the pairs' natural mean, between the PAIR_SURPRISE thresholds likewise, if
    more; between 0 and 1."""
    if not letters:
        return Fraction(0)
    table = spec.letter_surprise(block)
    doubt = round(32 * spec.SURPRISE_DOUBT) // math.isqrt(letters)
    mean = Fraction(16 * sum(table.table[byte] for byte in data), letters)
    share = _between(mean - table.natural, spec.NATURAL_SURPRISE, spec.RANDOM_SURPRISE, doubt)
    pairs = spec.letter_pairs(block)
    if not pairs.paired:
        return share
    data = windows(data)
    classes = [pairs.classes[byte] for byte in data]
    sampled = sum(1 for group in classes if group)
    scores = [pairs.pairs[16 * before + after] if after else 0 for before, after in zip([0, *classes], classes)]
    total = 16 * sum(scores) - pairs.natural * sampled
    by_pairs = _between(Fraction(total * letters // max(1, sampled), letters), *spec.PAIR_SURPRISE, doubt)
    if by_pairs:  # then a word the windows wrote before adds nothing the second time, if that is less
        total = min(total, _distinct_excess(pairs, data, scores))
        by_pairs = _between(Fraction(total * letters // max(1, sampled), letters), *spec.PAIR_SURPRISE, doubt)
    return max(share, by_pairs)


def _distinct_excess(pairs, data: bytes, scores: list[int]) -> int:
    """The pairs' surprisal above the natural mean of each word (run of the block's letters) of the windows at its
    first occurrence only, one character at a time."""
    seen, excess, word, surprise = set(), 0, [], 0
    for byte, score in zip([*data, 0], [*scores, 0]):
        if pairs.classes[byte]:
            word.append(byte)
            surprise += score
            continue
        if word and tuple(word) not in seen:
            seen.add(tuple(word))
            excess += 16 * surprise - pairs.natural * len(word)
        word, surprise = [], 0
    return excess


def _between(excess: Fraction, natural: float, random: float, doubt: int) -> Fraction:
    """Where a mean excess (1/16 half bits per letter) falls between two thresholds in bits, lowered by ``doubt``."""
    low = round(32 * natural) - doubt
    return min(Fraction(1), max(Fraction(0), (excess - low) / round(32 * (random - natural))))


def bound_units(text: str, latin: bytes, size: int, copies: bool = True, weights: int = 0) -> int:
    """The bounds as token_bounds.py takes them: the frozen ones with the repeats above, the periodic bound and
    the random letters' in place of the ends inside runs where they are more, and the copies of a long group."""
    wide = sum(len(char.encode("utf-8", "surrogatepass")) for char in text if ord(char) > 0x7F)
    floor = spec.short_tokens(size, wide if len(text) <= spec.SHORT_CHARS else 0) * UNIT
    if size <= spec.SHORT_TOKENS:
        return floor
    splits = char_splits(text) if unicodedata.is_normalized("NFKC", text) else 0  # (tok44)
    latin_cuts = latin_units(text) + splits if unicodedata.is_normalized("NFKC", text) else 0
    inner = max(inner_units(text) + latin_cuts, periodic_units(text))
    words = unheld_units(latin.decode("latin-1")) // UNIT  # (tok38; tok42: any text, by its Latin-1, whatever its weights)
    if text.isascii():
        inner = max(inner, words * UNIT)
    if text.isascii() and cut_looks_random(text):  # (tok45) the cuts, and the margin per token of them
        cut = cut_units(text)
        inner = max(inner, cut)
        words = max(words, cut // UNIT)
    inner = max(inner, random_letter_units(latin))
    symbols = symbol_runs(text) * UNIT  # (tok42)
    units = max(before.run_units(latin) + inner + spec.MARGIN * UNIT + words * spec.UNHELD_MARGIN + symbols, floor)
    if latin_cuts and latin_units(text) and cut_looks_random(latin.decode("latin-1")):  # (tok47) mixed words cut
        cut = mixed_cut(text)
        proved = max(inner, latin_cut_units(text) + splits + cut * UNIT)
        units = max(units, before.run_units(latin) + proved + spec.MARGIN * UNIT + cut * spec.UNHELD_MARGIN + symbols)
    if copies:  # a text shorter than the anchors has no period read
        units = max(units, copies_units(text))
    head, rest = latin[: spec.PREFIX_CHARS], latin[spec.PREFIX_CHARS :]
    if any(code in head for code in spec.CONTROLS + b"\x00"):  # (tok39)
        whole = before.run_units(latin) - before.run_units(head) - 2 * UNIT
        inside = inner_units(text) - repeats(text) * UNIT  # the ends inside the pieces' runs (tok48)
        units = max(units, control_units(text, head) + (whole if rest else 0) + symbols + splits + inside)
    return max(units, spelled_units(text, max(units, weights)))


FREE = frozenset(b"\t\n\x0c\r" + bytes(range(0x20, 0x7F)))
WHITE_SPACE = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
                        + "".join(map(chr, range(0x2000, 0x200B))))
CONTRACTIONS = ("'s", "'t", "'re", "'ve", "'m", "'ll", "'d")


def _kind(char: str) -> str:
    if char in WHITE_SPACE:
        return "space"
    return {"L": "letter", "N": "number"}.get(unicodedata.category(char)[0], "other")


def pretokens(text: str) -> list[str]:
    """GPT-2's pre-tokens, one character at a time: a contraction; a run of letters, of numbers or of other
    characters, a space before it joined; whitespace, its last character left to what follows unless it ends the text."""
    pieces, at = [], 0
    while at < len(text):
        contraction = next((c for c in CONTRACTIONS if text.startswith(c, at)), None)
        if contraction:
            pieces.append(contraction)
            at += len(contraction)
            continue
        end = at
        while end < len(text) and _kind(text[end]) == _kind(text[at]):
            end += 1
        if _kind(text[at]) == "space" and end < len(text):  # whitespace before something else
            if end - at > 1:
                pieces.append(text[at : end - 1])
                at = end - 1
                continue
            if text[at] == " ":  # one space joins the run after it
                end += 1
                while end < len(text) and _kind(text[end]) == _kind(text[at + 1]):
                    end += 1
        pieces.append(text[at:end])
        at = end
    return pieces


@functools.cache
def _joining_tokens() -> frozenset[bytes]:
    import base64
    import zlib

    from pi_compact.compaction.token_tables import JOINING_TOKENS

    packed, tokens, at = zlib.decompress(base64.b64decode(JOINING_TOKENS)), set(), 0
    while at < len(packed):
        size = int.from_bytes(packed[at : at + 2], "big")
        tokens.add(packed[at + 2 : at + 2 + size])
        at += 2 + size
    return frozenset(tokens)


OPEN = frozenset(b"\t\n\x0c\r 0123456789")


@functools.cache
def _ascii_tokens() -> frozenset[bytes]:
    """The vocabulary's tokens of ASCII letters or punctuation (a space before them or not) and its contractions: the
    word pieces and ASCII_TOKENS (tok50)."""
    import base64
    import zlib

    from pi_compact.compaction.token_tables import ASCII_TOKENS, WORD_PIECES

    pieces, previous = set(), ""
    for shared, rest in re.findall("([0-9])([^0-9]*)", WORD_PIECES):  # front coded: a digit, the letters shared
        previous = previous[: int(shared)] + rest
        pieces.add(previous.encode("ascii"))
    return frozenset(zlib.decompress(base64.b64decode(ASCII_TOKENS)).split(b"\n")) | pieces


@functools.cache
def _spelling_tokens() -> frozenset[bytes]:
    return _joining_tokens() | _ascii_tokens()


@functools.cache
def _lengths() -> list[int]:
    return sorted(set(map(len, _spelling_tokens())))


@functools.cache
def _closed_merges() -> dict[tuple[bytes, bytes], int]:
    """The merges whose joins hold no ASCII letter, digit or whitespace but a first space, to their rank (tok51)."""
    import base64
    import zlib

    from pi_compact.compaction.token_tables import CLOSED_MERGES

    packed, merges, at = zlib.decompress(base64.b64decode(CLOSED_MERGES)), {}, 0
    parts = []
    while at < len(packed):
        size = int.from_bytes(packed[at : at + 2], "big")
        parts.append(packed[at + 2 : at + 2 + size])
        at += 2 + size
    for left, right in zip(parts[::2], parts[1::2]):
        merges.setdefault((left, right), len(merges))
    return merges


def replayed(data: bytes) -> int:
    """The tokens of a pre-token of no ASCII letter, digit or whitespace (a space but first), its merges replayed one
    at a time: the adjacent pair of lowest rank, the leftmost of equals, joined until none is left (tok51)."""
    merges, parts = _closed_merges(), [data[at : at + 1] for at in range(len(data))]
    while True:
        ranked = [(merges[pair], at) for at, pair in enumerate(zip(parts, parts[1:])) if pair in merges]
        if not ranked:
            return len(parts)
        _, at = min(ranked)
        parts[at : at + 2] = [parts[at] + parts[at + 1]]


CLOSED = frozenset((string.ascii_letters + string.digits + "\t\n\x0b\x0c\r").encode("ascii"))


def piece_tokens(piece: str) -> int:
    """A pre-token's tokens at least: replayed where it holds no ASCII letter, digit or whitespace but a first space
    (tok51), else the fewest that spell it, any string of whitespace and digits a token (tok50: of printable ASCII and
    whitespace before), the ASCII letters and punctuation spelled with the vocabulary's tokens of them."""
    data = piece.encode("utf-8", "surrogatepass")
    if not any(byte in CLOSED for byte in data) and b" " not in data[1:]:
        return replayed(data)
    tokens = _spelling_tokens()
    lengths = _lengths()
    best = [0] + [len(data) + 1] * len(data)
    for end in range(1, len(data) + 1):
        start = end  # the open bytes before end: any string of them is a token
        while start > 0 and data[start - 1] in OPEN:
            start -= 1
            best[end] = min(best[end], best[start] + 1)
        for size in lengths:  # and each token that ends there
            if size > end:
                break
            if data[end - size : end] in tokens:
                best[end] = min(best[end], best[end - size] + 1)
    return best[-1]


HARD_SHARE = 8


def spelled_units(text: str, units: int) -> int:
    """Each pre-token's tokens at least (:func:`piece_tokens`) of the first PREFIX_CHARS characters, summed, the last
    left out where the text goes on; of the whole text where it goes on and the first characters' tokens at their rate
    exceed ``units`` (tok51), or its bytes beyond printable ASCII and whitespace, a token each, are an eighth of
    ``units`` or more (tok52); 0 for text of printable ASCII and whitespace alone, for one whose bytes, a token each,
    do not exceed ``units`` (nothing read could), or not read as written (tok49)."""
    head = text[: spec.PREFIX_CHARS]
    hard = sum(byte not in FREE for byte in text.encode("utf-8", "surrogatepass"))
    if not hard or len(text.encode("utf-8", "surrogatepass")) * UNIT <= units:
        return 0
    if not unicodedata.is_normalized("NFKC", head):
        return 0
    whole = unicodedata.is_normalized("NFKC", text)
    if len(text) > spec.PREFIX_CHARS and hard * UNIT * HARD_SHARE >= units and whole:
        return sum(piece_tokens(piece) for piece in pretokens(text)) * UNIT
    if all(byte in FREE for byte in head.encode("utf-8", "surrogatepass")):
        return 0
    counts = [piece_tokens(piece) for piece in pretokens(head)]
    if len(text) <= spec.PREFIX_CHARS:
        return sum(counts) * UNIT
    if sum(counts) * UNIT * len(text) > units * len(head) and whole:
        return sum(piece_tokens(piece) for piece in pretokens(text)) * UNIT
    return (sum(counts) - counts[-1]) * UNIT


def symbol_runs(text: str) -> int:
    """The runs of punctuation and symbols of SYMBOL_BLOCKS in the first PREFIX_CHARS characters that touch no other
    punctuation or symbol (nor Latin-1's), one character at a time (tok42)."""
    prefix = text[: spec.PREFIX_CHARS]

    def symbol(char: str) -> bool:
        return (any(first << 8 <= ord(char) < (last + 1) << 8 for first, last in spec.SYMBOL_BLOCKS)
                and unicodedata.category(char)[0] in "PS")

    def other(char: str) -> bool:
        latin = char in string.punctuation or "\xa1" <= char <= "\xbf" or char in "\xd7\xf7"
        return latin or symbol(char)

    runs, start = 0, None
    for index, char in enumerate(prefix + "a"):  # a letter ends the last run
        if symbol(char):
            start = index if start is None else start
            continue
        if start is not None and (start == 0 or not other(prefix[start - 1])) and not other(char):
            runs += 1
        start = None
    return runs + symbol_ends(prefix, symbol)


def symbol_ends(prefix: str, symbol) -> int:
    """Each side on which a symbol of SYMBOL_BLOCKS that no token joins to ASCII punctuation touches ASCII punctuation
    that no token joins to part of a character, one pair at a time (tok47)."""
    from pi_compact.compaction.token_tables import PUNCT_JOINS, SYMBOL_JOINS

    def apart(a: str, b: str) -> bool:
        return symbol(a) and a not in SYMBOL_JOINS and b in string.punctuation and b not in PUNCT_JOINS

    return sum(apart(a, b) + apart(b, a) for a, b in zip(prefix, prefix[1:]))


def char_splits(text: str) -> int:
    """A token end inside each character of CHAR_SPLIT in the first PREFIX_CHARS characters, one at a time (tok44)."""
    from pi_compact.compaction.token_tables import CHAR_SPLIT, CHAR_SPLIT_ONE, CHAR_SPLIT_TWO

    def within(char: str, table: str) -> bool:  # (tok48) characters of three bytes, by sorted (low, high) pairs
        at = bisect.bisect_right(table, char)  # odd: past a low, before its high; even: at or past a high
        return at % 2 == 1 or (at > 0 and table[at - 1] == char)

    return sum((char in CHAR_SPLIT or within(char, CHAR_SPLIT_ONE)) + 2 * within(char, CHAR_SPLIT_TWO)
               for char in text[: spec.PREFIX_CHARS]) * UNIT


def latin_units(text: str) -> int:
    """The cuts, and LATIN_LANGUAGE_UNITS per ASCII letter of the first PREFIX_CHARS characters where those write
    an accented Latin letter (tok41: in the bound, not the weights), one character at a time."""
    prefix = text[: spec.PREFIX_CHARS]
    if not any(char.isalpha() and ("\u00c0" <= char <= "\u02ff" or "\u1e00" <= char <= "\u1eff") for char in prefix):
        return 0
    return latin_cut_units(text) + spec.LATIN_LANGUAGE_UNITS * sum(char in string.ascii_letters for char in prefix)


def latin_cut_units(text: str) -> int:
    """A token per pair of an ASCII letter and an accented Latin letter no token joins, in the first PREFIX_CHARS
    characters, and an accented letter's tokens beyond one where it is cut on both sides (tok40), one pair and one
    triple at a time."""
    from pi_compact.compaction.token_tables import LATIN_JOINS, LATIN_SPLIT, LATIN_TOKENS

    joins = {LATIN_JOINS[start : start + 2] for start in range(0, len(LATIN_JOINS), 2)}
    prefix = text[: spec.PREFIX_CHARS]

    def accented(char: str) -> bool:
        return char.isalpha() and ("\u00c0" <= char <= "\u02ff" or "\u1e00" <= char <= "\u1eff")

    def cut(a: str, b: str) -> bool:
        mixed = a in string.ascii_letters and accented(b) or accented(a) and b in string.ascii_letters
        return mixed and a + b not in joins

    cuts = sum(cut(a, b) for a, b in zip(prefix, prefix[1:]))
    cuts += sum(char in LATIN_SPLIT for char in prefix)  # tok41: an end inside each letter no token holds
    for a, b, c in zip(prefix, prefix[1:], prefix[2:]):
        if accented(b) and b not in LATIN_SPLIT and cut(a, b) and cut(b, c):
            cuts += next((count - 1 for count, letters in LATIN_TOKENS.items() if b in letters), 0)
    return cuts * UNIT


def control_units(text: str, latin: bytes) -> int:
    """A token per control character and per run of NUL, and the run bound of each piece between them (one
    more for a piece that ends in two spaces before one), one character at a time (issue 23.7, tok39)."""
    lone, runs, piece = 0, 0, bytearray()
    for index, code in enumerate(latin):
        if code in spec.CONTROLS or code == 0:
            lone += code != 0 or index == 0 or latin[index - 1] != 0
            runs += (before.run_units(bytes(piece)) if piece else 0) + (len(piece) > 1 and bytes(piece[-2:]).isspace()) * UNIT
            piece.clear()
        else:
            piece.append(code)
    return lone * UNIT + runs + (before.run_units(bytes(piece)) if piece else 0)


def unheld_units(text: str, letters_of: bool = False) -> int:
    """A token per word after a space in the first PREFIX_CHARS characters that no token holds (issue 23.7, tok38),
    one character at a time: a run of ASCII letters after a space and before no letter, lowercase or capitalized,
    of two letters or more, in neither the short words nor the common words as it is written."""
    letters = string.ascii_letters
    short, held = _unheld_tables()
    unheld = 0
    for start in range(1, min(len(text), spec.PREFIX_CHARS)):
        if text[start - 1] != " " or text[start] not in letters:
            continue
        end = start
        while end < len(text) and text[end] in letters:
            end += 1
        word = text[start:end]
        if end <= spec.PREFIX_CHARS and len(word) > 1 and (word.islower() or word[0].isupper() and word[1:].islower()):
            unheld += (len(word) if letters_of else 1) * (word not in (short if len(word) < 4 else held))
    return unheld if letters_of else unheld * UNIT


def cut_looks_random(text: str) -> bool:
    """Whether the unheld words and the first word (if it is a lowercase or capitalized word) hold 1/CUT_SHARE of the
    ASCII letters of the first PREFIX_CHARS characters or more, one character at a time."""
    letters = string.ascii_letters
    head = text[: spec.PREFIX_CHARS]
    total = sum(char in letters for char in head)
    end = 0
    while end < len(head) and head[end] in letters:
        end += 1
    first = head[:end]
    lettered = len(first) if first and (first.islower() or first[0].isupper() and first[1:].islower()) else 0
    lettered += unheld_units(text, letters_of=True)
    return total > 0 and lettered * spec.CUT_SHARE >= total


def cut_units(text: str) -> int:
    """The tokens each unheld word of the first PREFIX_CHARS characters (as :func:`unheld_units` finds them), and the
    word the text starts with, are merged into (tok46; tok45: the fewest they could be cut into), less one each."""
    letters = string.ascii_letters
    short, held = _unheld_tables()
    extra = 0
    for start in range(min(len(text), spec.PREFIX_CHARS)):
        if start and text[start - 1] != " " or text[start] not in letters:
            continue
        end = start
        while end < len(text) and text[end] in letters:
            end += 1
        word = text[start:end]
        if not (end < spec.PREFIX_CHARS if start == 0 else end <= spec.PREFIX_CHARS):
            continue
        if not (word.islower() or word[0].isupper() and word[1:].islower()):
            continue
        if start == 0:
            extra += (merged(word) - 1) if len(word) <= spec.FEWEST_LETTERS else 0
        elif len(word) > 1 and word not in (short if len(word) < 4 else held):
            extra += (merged(" " + word) - 1) if len(word) <= spec.FEWEST_LETTERS else 1
    return extra * UNIT


def mixed_cut(text: str) -> int:
    """The tokens the ASCII stretches of each word of the first PREFIX_CHARS characters (letters, ASCII or accented
    Latin, after a space or at the start, before no letter) are merged into less one each, where a stretch is bounded
    by the word's ends or by accented letters no token joins to it, one character at a time (tok47)."""
    from pi_compact.compaction.token_tables import LATIN_JOINS

    joins = {LATIN_JOINS[index : index + 2] for index in range(0, len(LATIN_JOINS), 2)}

    def letter(char: str) -> bool:
        return char in string.ascii_letters or bool(spec.ACCENTED_LETTER.fullmatch(char))

    head, extra = text[: spec.PREFIX_CHARS], 0
    for start in range(len(head)):
        if start and head[start - 1] != " " or not letter(head[start]) or start and letter(head[start - 1]):
            continue
        end = start
        while end < len(head) and letter(head[end]):
            end += 1
        if end == spec.PREFIX_CHARS or end < len(text) and text[end].isalpha():
            continue
        word, index = head[start:end], 0
        while index < len(word):
            if word[index] not in string.ascii_letters:
                index += 1
                continue
            last = index
            while last < len(word) and word[last] in string.ascii_letters:
                last += 1
            stretch = word[index:last]
            bounded = (index == 0 or word[index - 1] + word[index] not in joins) and (
                last == len(word) or word[last - 1] + word[last] not in joins)
            shaped = stretch.islower() or stretch[0].isupper() and (len(stretch) == 1 or stretch[1:].islower())
            if bounded and shaped and len(stretch) <= spec.FEWEST_LETTERS:
                extra += merged((" " if index == 0 and start else "") + stretch) - 1
            index = last
    return extra


@functools.cache
def merged(word: str) -> int:
    """The pieces ``word`` ends as when the adjacent pair whose join ranks lowest is joined, again and again (tok46:
    a byte-pair tokenizer's merges, ranked by token_tables.WORD_RANKS)."""
    ranks = _ranks()
    parts = list(word)
    while True:
        joins = [(ranks[a + b], index) for index, (a, b) in enumerate(zip(parts, parts[1:])) if a + b in ranks]
        if not joins:
            return len(parts)
        _, index = min(joins)
        parts[index : index + 2] = [parts[index] + parts[index + 1]]


@functools.cache
def _ranks() -> dict[str, int]:
    """Each word token of token_tables.WORD_PIECES and its rank in WORD_RANKS (three base-64 digits a piece)."""
    import string

    from pi_compact.compaction.token_tables import WORD_RANKS

    digits = string.digits + string.ascii_letters + "+/"
    pieces = _pieces()
    return {piece: sum(digits.index(WORD_RANKS[3 * at + place]) * 64 ** (2 - place) for place in range(3))
            for at, piece in enumerate(pieces)}


@functools.cache
def _pieces() -> tuple[str, ...]:
    """The word tokens of token_tables.WORD_PIECES, in their order, read one character at a time."""
    from pi_compact.compaction.token_tables import WORD_PIECES

    pieces, previous, shared, rest = [], "", None, ""
    for char in WORD_PIECES + "0":
        if char.isdigit():
            if shared is not None:
                previous = previous[:shared] + rest
                pieces.append(previous)
            shared, rest = int(char), ""
        else:
            rest += char
    return tuple(pieces)


@functools.cache
def _unheld_tables() -> tuple[frozenset[str], frozenset[str]]:
    """The short words and the common words as :func:`unheld_units` reads them (built once: rebuilt per call, they
    made the comparison over every bundled session's strings take minutes)."""
    from pi_compact.compaction.token_tables import SHORT_WORDS

    return frozenset(SHORT_WORDS.split()), frozenset(word.decode() for word in spec._common_words())


def copy_periods(text: str) -> dict[int, int]:
    """Each period past MAX_PERIOD, up to COPY_PERIOD, at which one of the anchors (COPY_ANCHOR characters at COPY_ANCHORS even steps)
    occurs next, with the first anchor's start, searched one position at a time."""
    size, width = len(text), spec.COPY_ANCHOR
    found: dict[int, int] = {}
    if size < spec.COPY_ANCHORS * width:  # a shorter text has no copies read
        return found
    for step in range(spec.COPY_ANCHORS):
        start = size * step // spec.COPY_ANCHORS
        anchor = text[start : start + width]
        last = min(size - width, start + spec.COPY_PERIOD)
        period = next((i - start for i in range(start + 1, last + 1) if text[i : i + width] == anchor), 0)
        if period > spec.MAX_PERIOD and period not in found:
            found[period] = start
    return found


def group_bound(group: str) -> int:
    return bound_units(group, group.encode("latin-1", "ignore"), len(group.encode("utf-8", "surrogatepass")), False)


def copy_units(group: str) -> int:
    """The frozen run bound of a group and its ends inside runs (as above)."""
    return before.run_units(group.encode("latin-1", "ignore")) + inner_units(group)


def alternations(latin: bytes) -> int:
    """Letters next to a digit: each pair of neighbours that is a letter and a digit, in either order."""
    kinds = [spec._kind(chr(value)) for value in latin]
    return sum(1 for a, b in zip(kinds, kinds[1:]) if {a, b} == {"letter", "number"})


def random_group(group: str) -> bool:
    """Half as many ends inside runs as runs or more, or a letter next to a digit per ID_RUNS runs."""
    latin = group.encode("latin-1", "ignore")
    runs_of = before.run_units(latin)
    return 2 * inner_units(group) >= runs_of or spec.ID_RUNS * alternations(latin) * UNIT >= runs_of


def copies_units(text: str) -> int:
    """The group's bound once, and per copy the most of its runs and ends inside them twice less once and once
    less a token, and the margin, where the group is random (above); the copies are the bytes (of ASCII, else
    of UTF-16-BE) equal to the one a period before, per full block of COPY_ANCHOR characters in each run of
    them, over the period, or the whole periods in each run of them if more."""
    raw = text.encode("ascii") if text.isascii() else text.encode("utf-16-be", "surrogatepass")
    width = 1 if text.isascii() else 2
    best = 0
    for period, start in copy_periods(text).items():
        shift = width * len(text[start : start + period].encode("utf-16-be", "surrogatepass")) // 2
        equal = runs(list(raw), shift, len(raw))
        blocks = sum((end - begin) // (width * spec.COPY_ANCHOR) for begin, end in equal)
        copies = max(blocks * spec.COPY_ANCHOR * width // shift, sum((end - begin) // shift for begin, end in equal))
        group = text[start : start + period]
        if copies and random_group(group):
            once = copy_units(group)
            each = max(copy_units(group + group) - once, once - UNIT) + spec.MARGIN * UNIT
            best = max(best, group_bound(group) + copies * each)
    return best
