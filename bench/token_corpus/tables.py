"""Writes ``pi_compact/compaction/token_tables.py``: the character pairs and letter triples natural text writes
inside one pre-token.

A byte-pair tokenizer merges what its training text was full of; a pair or a triple of letters natural text
hardly ever writes is almost never inside a token, so where random text writes it, a token ends
(``pi_compact.compaction.token_bounds``). Counted over every class of the calibration half of this corpus
except ``UNLIKE`` (generated random text) and over the text of the real sessions of the calibration
repositories (sessions_fixtures/agents: what users, agents and tools wrote; never the validation half), since
the corpus alone holds a few pages of English and misses pairs as common as ``ga`` (*again*):

- pairs of adjacent printable ASCII characters of one kind (two letters or two characters of punctuation:
  the kinds whose runs a pre-token holds, digits and whitespace aside), kept from :data:`PAIR_SHARE` of all
  such pairs;
- triples of letters inside runs of letters, case folded, kept from :data:`TRIPLE_SHARE` of all triples;
- how often each letter of each alphabet of ``token_bounds.ALPHABETS`` occurs, case and accents folded
  (``token_bounds.fold``), in the calibration half of the corpus alone, the encodings of :data:`ENCODED` left
  out: what ``token_bounds`` weighs a text's letters against, to tell random letters from a language;
- how often each of those letters follows each other letter of its alphabet, or something else (a word's start),
  in the same text, read as ``token_bounds`` reads it (a Latin letter among a text's Latin-1 characters, another
  alphabet's among its UTF-16 code units): letters drawn with a language's own frequencies (shuffled text) are
  told from the language by their pairs;
- the words of four letters or more the natural text above writes three times or more (identifiers cut where the
  case changes), and those a Claude tokenizer (anthropic-tokenizer, the oracle of the tests) holds whole after a
  space, lowercase or capitalized: letters in a language's order that write no words are told from the language
  by their words, and the words of a vocabulary the sessions seldom write (``kappa``, ``sigma``) are words;
- the words of two and three letters that tokenizer holds whole after a space (:func:`short_words`): a short word
  outside them costs two tokens at least;
- every token of that tokenizer that is a word's letters, after a space or not (:func:`word_pieces`): the fewest
  tokens a word no token holds can be cut into, read from the vocabulary itself.

    python -m bench.token_corpus.tables
"""

from __future__ import annotations

import gzip
import json
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from pi_compact.compaction.token_bounds import alphabet_of, fold, words
from sessions_fixtures import AGENTS_DIR, HERE

from . import UNLIKE, corpus

OUT = Path(__file__).resolve().parents[2] / "pi_compact" / "compaction" / "token_tables.py"
PAIR_SHARE = 2e-4
"""0.02% of same-kind pairs: natural text writes the pairs below it rarely (5% of its letter pairs, fewer than
its tokens have ends), random lowercase letters in one pair of two."""
TRIPLE_SHARE = 3e-6
"""Triples below it are 0.2% of natural text's and 80% of random letters'."""
PRINTABLE = string.printable
NATURAL_KEYS = {"text", "thinking", "content", "command", "stdout", "stderr", "output", "old_string", "new_string",
                "description", "prompt", "message", "summary"}
"""Keys whose strings people, agents and tools wrote; ids, hashes and signatures (random text) are left out."""
_LETTER_RUN = re.compile("[A-Za-z]{3,}")
ENCODED = ("base64", "hex")
"""Classes whose letters are random by construction: no language's letter frequencies."""
NAME_TOKENS = 2
"""Tokens a word a tokenizer holds only capitalized may cost lowercase, after a space, and still be a common word
lowercase (see :func:`common_words`)."""

WORD_COUNT_MIN = 3
"""Times a word must occur in the natural text to be a common word (once or twice: a name, a typo, a cut-off run)."""


def kind(char: str) -> str:
    return "letter" if char.isalpha() else "digit" if char.isdigit() else "space" if char.isspace() else "other"


def _strings(value: object, key: str = "") -> Iterator[str]:
    if isinstance(value, str):
        if key in NATURAL_KEYS:
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, key)
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from _strings(item, name)


def session_texts() -> Iterator[str]:
    """The natural strings of every session file of the calibration repositories."""
    halves = json.loads((HERE / "labels" / "split.json").read_text())["halves"]
    prefixes = tuple(repo.replace("/", "-") + "." for repo in halves["calibration"])
    for path in sorted(AGENTS_DIR.rglob("*.jsonl.gz")):
        if path.name.startswith(prefixes):
            with gzip.open(path, "rt", encoding="utf-8") as lines:
                for line in lines:
                    yield from _strings(json.loads(line))


def natural_texts() -> Iterator[str]:
    yield from (text for name, text in corpus("calib").items() if name not in UNLIKE)
    yield from session_texts()


def common(counts: Counter[str], share: float) -> list[str]:
    total = sum(counts.values())
    return sorted(item for item, count in counts.items() if count >= share * total)


def tables() -> tuple[list[str], list[str]]:
    pairs: Counter[str] = Counter()
    triples: Counter[str] = Counter()
    for text in natural_texts():
        pairs.update(a + b for a, b in zip(text, text[1:])
                     if a in PRINTABLE and b in PRINTABLE and kind(a) == kind(b) in ("letter", "other"))
        for run in _LETTER_RUN.findall(text):
            run = run.lower()
            triples.update(run[start : start + 3] for start in range(len(run) - 2))
    return common(pairs, PAIR_SHARE), common(triples, TRIPLE_SHARE)


def common_words() -> tuple[list[str], list[str]]:
    """The words of four letters or more (``token_bounds.words``: identifiers cut where the case changes) that the
    natural text writes :data:`WORD_COUNT_MIN` times or more, and those a tokenizer holds whole lowercase
    (:func:`tokenizer_words`), lowercase; and those it holds whole only capitalized, lowercase too: what
    ``token_bounds`` tells letters in a language's order that write no words (a Markov chain of English letters)
    from the language by."""
    from anthropic_tokenizer import count_tokens  # a test dependency, as fit.py's

    counts: Counter[bytes] = Counter()
    for text in natural_texts():
        counts.update(words(text.encode("latin-1", "ignore")))
    lowercase, capitalized = tokenizer_words()
    names = capitalized - lowercase
    # a name a tokenizer holds only capitalized is a common word lowercase only where it costs as little as one
    # (``Georgia`` is a token, ``georgia`` three: cities' names written lowercase were 0.62 of the real count)
    written = {word for word, count in ((word.decode("latin-1"), count) for word, count in counts.items())
               if count >= WORD_COUNT_MIN and (word not in names or count_tokens(" " + word) <= NAME_TOKENS)}
    common = written | lowercase
    return sorted(common), sorted(capitalized - common)


_TOKEN_WORD = re.compile(" ([a-z]{4,}|[A-Z][a-z]{3,})")


def tokenizer_words() -> tuple[set[str], set[str]]:
    """The words of four letters or more that a Claude tokenizer (anthropic-tokenizer, the oracle of the tests) holds
    as one token after a space, lowercase (`` kappa``), and capitalized (`` Tokyo``, read lowercase): a word it holds
    whole costs one token, however seldom the sessions write it, while a vocabulary's rarer words (``methane``,
    ``lorem``), and a name written lowercase (``tokyo`` is ``tok``, ``yo``), cost several, as letters in a language's
    order that write no words do."""
    from anthropic_tokenizer import decode, vocab_size  # a test dependency, as fit.py's

    found = [match[1] for token in map(decode, ([index] for index in range(vocab_size())))
             if (match := _TOKEN_WORD.fullmatch(token))]
    return {word for word in found if word.islower()}, {word.lower() for word in found if word.istitle()}


_SHORT_TOKEN_WORD = re.compile(" ([a-z]{2,3}|[A-Z][a-z]{1,2})")


def short_words() -> list[str]:
    """The words of two and three letters a Claude tokenizer holds as one token after a space, lowercase or
    capitalized, as it holds them: of the 17,576 lowercase triples it holds some 1,500 (`` the``, `` Ort``; not
    `` tha``, `` iok``, `` ort``), so that a word of two or three letters outside this list, after a space, costs two
    tokens or more whatever text holds it."""
    from anthropic_tokenizer import decode, vocab_size  # a test dependency, as fit.py's

    return sorted(match[1] for token in map(decode, ([index] for index in range(vocab_size())))
                  if (match := _SHORT_TOKEN_WORD.fullmatch(token)))


LATIN_LETTERS = "".join(chr(code) for code in (*range(0xC0, 0x300), *range(0x1E00, 0x1F00)) if chr(code).isalpha())
"""The Latin letters beyond ASCII (Latin-1, Extended-A and -B, IPA, the modifier letters, Extended Additional:
accented and Vietnamese letters) whose joins to ASCII letters ``token_bounds.latin_cut_units`` reads. The modifier
letters too, since the tokenizer reads text in NFKC, which writes some accented letters as one of them and an ASCII
letter (``ŉ`` is read ``ʼn``)."""


def latin_joins() -> list[str]:
    """Every pair of an ASCII letter and a letter of :data:`LATIN_LETTERS`, in either order, that some token of a
    Claude tokenizer holds (``ça``, ``ié``): at any other such pair (``iế``, ``kç``) no token can span, so a byte-pair
    tokenizer ends a token there whatever surrounds it. Read from the decoded tokens: a token that holds only part
    of a character decodes to U+FFFD, and none of those has an ASCII letter next to it (checked), so no join of
    an ASCII letter to part of a letter is missed."""
    from anthropic_tokenizer import decode, vocab_size  # a test dependency, as fit.py's

    latin = set(LATIN_LETTERS)
    found: set[str] = set()
    for token in map(decode, ([index] for index in range(vocab_size()))):
        for before, after in zip(token, token[1:]):
            if "\ufffd" in (before, after) and (before.isascii() and before.isalpha() or after.isascii()
                                                and after.isalpha()):
                raise ValueError(f"a token joins an ASCII letter to part of a character: {token!r}")
            if before in latin and after in string.ascii_letters or before in string.ascii_letters and after in latin:
                found.add(before + after)
    return sorted(found)


def latin_tokens() -> dict[int, str]:
    """The letters of :data:`LATIN_LETTERS` that a Claude tokenizer writes alone as more than one token (most
    Vietnamese letters are two: their three UTF-8 bytes in two tokens), by how many."""
    from anthropic_tokenizer import count_tokens  # a test dependency, as fit.py's

    by_count: dict[int, str] = {}
    for letter in LATIN_LETTERS:
        if (count := count_tokens(letter)) > 1:
            by_count[count] = by_count.get(count, "") + letter
    return dict(sorted(by_count.items()))


def latin_split() -> str:
    """The letters of :data:`LATIN_LETTERS` that no token of a Claude tokenizer holds whole (most Vietnamese letters,
    most of Latin Extended-A and -B): wherever a text writes one, a token ends inside its bytes. Only letters the
    tokenizer reads as written (NFKC), as ``token_bounds.latin_cut_units`` reads only such text."""
    from anthropic_tokenizer import decode, vocab_size  # a test dependency, as fit.py's

    held: set[str] = set()
    for index in range(vocab_size()):
        held.update(decode([index]))
    return "".join(letter for letter in LATIN_LETTERS
                   if letter not in held and unicodedata.is_normalized("NFKC", letter))


def char_split() -> str:
    """The characters of two UTF-8 bytes (U+0080-07FF) beyond :func:`latin_split`'s that no token of a Claude
    tokenizer holds whole (Armenian, most Greek capitals, much of Cyrillic beyond Russian, combining marks, modifier
    letters): wherever a text writes one, a token ends between its two bytes. Only characters the tokenizer reads as
    written (NFKC)."""
    from anthropic_tokenizer import decode, vocab_size

    held: set[str] = set()
    for index in range(vocab_size()):
        held.update(decode([index]))
    latin = set(latin_split())
    return "".join(chr(code) for code in range(0x80, 0x800)
                   if chr(code) not in held and chr(code) not in latin and unicodedata.is_normalized("NFKC", chr(code)))


def _model() -> dict:
    """The BPE model of the tokenizer.json the package carries (its vocabulary and its merges, in rank order)."""
    import glob
    import os

    import anthropic_tokenizer

    folder = os.path.dirname(anthropic_tokenizer.__file__)
    data = b"".join(Path(path).read_bytes() for path in sorted(glob.glob(os.path.join(folder, "*.so"))))
    start = data.rfind(b'{"version"', 0, data.find(b'"model":{"type":"BPE"'))
    return json.JSONDecoder().raw_decode(data[start:].decode("utf-8", "replace"))[0]["model"]


def _byte_of() -> dict[str, int]:
    """GPT-2's byte-level map read backwards: the character a byte is written as in the vocabulary, to the byte."""
    printable = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    byte_of = {chr(value): value for value in printable}
    byte_of.update((chr(256 + index), value) for index, value in enumerate(v for v in range(256) if v not in printable))
    return byte_of


def _token_bytes() -> list[bytes]:
    """The bytes of every token of a Claude tokenizer. ``decode`` writes U+FFFD for the part of a character a token
    holds, so the bytes are read from the vocabulary the package carries (its tokenizer.json, byte-level: GPT-2's
    byte-to-character map), and checked against ``decode`` token by token."""
    from anthropic_tokenizer import decode

    vocab = _model()["vocab"]
    byte_of = _byte_of()
    tokens = [b""] * len(vocab)
    for piece, index in vocab.items():
        tokens[index] = bytes(map(byte_of.__getitem__, piece))
    tokens = [token if decode([index]) else b"" for index, token in enumerate(tokens)]  # special tokens: no text
    assert all(decode([index]) == token.decode("utf-8", "replace") for index, token in enumerate(tokens))
    return tokens


def char_split3() -> tuple[str, str]:
    """The characters of three UTF-8 bytes (U+0800-FFFF, read as written: NFKC) that no token of a Claude tokenizer
    holds whole, as ranges (a first and a last character each): those of which some token holds two bytes together,
    a token end inside each; and those of which no token holds the first two bytes together nor the last two, two
    ends inside each (arrows, most mathematical and technical symbols, Cherokee, Ethiopic, private use). The accented
    Latin letters are left to :func:`latin_split` (``token_bounds.latin_cut_units`` counts their ends)."""
    tokens = _token_bytes()
    held = set("".join(token.decode("utf-8", "ignore") for token in tokens))
    pairs = {token[start : start + 2] for token in tokens for start in range(len(token) - 1)
             if token[start] >= 0xC0 or token[start + 1] >= 0x80}
    one: list[int] = []
    two: list[int] = []
    for code in range(0x800, 0x10000):
        char = chr(code)
        if (0xD800 <= code < 0xE000 or char in held or char in LATIN_LETTERS  # those latin_split() counts
                or not unicodedata.is_normalized("NFKC", char)):
            continue
        data = char.encode("utf-8")
        (one if data[:2] in pairs or data[1:] in pairs else two).append(code)
    return _ranges(one), _ranges(two)


FREE_BYTES = bytes([0x09, 0x0A, 0x0C, 0x0D, *range(0x20, 0x7F)])
"""The bytes ``token_bounds.fewest_tokens`` lets any token join (printable ASCII and whitespace): the bound is read
with every string of them a token, a vocabulary larger than the tokenizer's, so it stays a lower bound."""


def joining_tokens() -> str:
    """Every token of a Claude tokenizer that holds a byte beyond :data:`FREE_BYTES` (a control character, a byte of a
    character beyond ASCII), each a two-byte length and its bytes, zlib-compressed and in base 64: the vocabulary
    ``token_bounds.fewest_tokens`` cuts such text with."""
    import base64
    import zlib

    kept = sorted({token for token in _token_bytes() if token.translate(None, FREE_BYTES)})
    packed = b"".join(len(token).to_bytes(2, "big") + token for token in kept)
    return base64.b64encode(zlib.compress(packed, 9)).decode("ascii")


_ASCII_TOKEN = re.compile(rb" ?(?:[A-Za-z]+|[!-/:-@\[-`{-~]+)|'(?:[stmd]|re|ve|ll)")


def ascii_tokens() -> str:
    """Every token of a Claude tokenizer that is ASCII letters or ASCII punctuation, with a space before them or not,
    or one of GPT-2's contractions (``'s``), and not a piece of :func:`word_pieces` (`` HTTP``, ``oW``, ``");``), one a
    line, zlib-compressed and in base 64: with the word pieces, every token of free bytes a pre-token of letters, of
    punctuation or a contraction can be cut into (GPT-2's pattern keeps letters, digits and punctuation apart), so that
    ``token_bounds.spelled_tokens`` spells those too."""
    import base64
    import zlib

    kept = sorted({token for token in _token_bytes() if _ASCII_TOKEN.fullmatch(token)
                   and not _WORD_PIECE.fullmatch(token.decode("ascii"))})
    return base64.b64encode(zlib.compress(b"\n".join(kept), 9)).decode("ascii")


CLOSED_BYTES = (string.ascii_letters + string.digits + "\t\n\x0b\x0c\r").encode("ascii")
"""The bytes a pre-token that :func:`closed_merges` replays never holds: ASCII letters, digits and whitespace (a space
only as its first byte)."""


def closed_merges() -> str:
    """Every merge of a Claude tokenizer whose join holds no byte of :data:`CLOSED_BYTES` and no space but a first one,
    in rank order, each a two-byte length and the bytes of its left part, the same of its right, zlib-compressed and in
    base 64. A pre-token of such bytes (punctuation, symbols, control characters, a block's letters, a space before
    them or not) is cut only by merges whose joins are stretches of it, all of them here: ``token_bounds.bpe_count``
    replays them in their order and counts the tokens the tokenizer cuts it into, not the fewest it could be."""
    import base64
    import zlib

    byte_of = _byte_of()
    packed = bytearray()
    for merge in _model()["merges"]:
        left, right = (bytes(map(byte_of.__getitem__, part)) for part in
                       (merge.split(" ") if isinstance(merge, str) else merge))
        join = left + right
        if join.translate(None, CLOSED_BYTES) == join and b" " not in join[1:]:
            packed += len(left).to_bytes(2, "big") + left + len(right).to_bytes(2, "big") + right
    return base64.b64encode(zlib.compress(bytes(packed), 9)).decode("ascii")


def category_ranges(first: str) -> str:
    """The code points whose general category starts with ``first`` (``L`` letters, ``N`` numbers), as ranges (a first
    and a last character each): the ``\\p{L}`` and ``\\p{N}`` of the tokenizer's pre-tokenizer (GPT-2's byte-level
    pattern), for ``token_bounds.pretokens``."""
    codes = [code for code in range(0x110000) if not 0xD800 <= code < 0xE000
             and unicodedata.category(chr(code)).startswith(first)]
    return _ranges(codes)


def _ranges(codes: list[int]) -> str:
    out, start = [], codes[0]
    for previous, code in zip(codes, codes[1:] + [-1]):
        if code != previous + 1:
            out.append(chr(start) + chr(previous))
            start = code
    return "".join(out)


def symbol_joins() -> str:
    """The characters beyond ASCII that some token of a Claude tokenizer holds next to ASCII punctuation other than
    :func:`punct_joins` (``”.``, ``—)``): next to any other character (U+FFFD, arrows, box drawing) such punctuation
    ends a token wherever it is written, as no token can span there (``token_bounds.symbol_runs``)."""
    from anthropic_tokenizer import decode, vocab_size  # a test dependency, as fit.py's

    apart = set(string.punctuation) - set(punct_joins())
    found: set[str] = set()
    for token in map(decode, ([index] for index in range(vocab_size()))):
        for before, after in zip(token, token[1:]):
            if before in apart and not after.isascii():
                found.add(after)
            if after in apart and not before.isascii():
                found.add(before)
    return "".join(sorted(found))


def punct_joins() -> str:
    """The ASCII punctuation some token of a Claude tokenizer holds next to part of a character (a token that holds
    only part of a character decodes to U+FFFD: `` '\ufffd``): next to the other punctuation no token holds part of
    a character, so :func:`symbol_joins` names every character beyond ASCII a token joins to one."""
    from anthropic_tokenizer import decode, vocab_size  # a test dependency, as fit.py's

    found: set[str] = set()
    for token in map(decode, ([index] for index in range(vocab_size()))):
        for before, after in zip(token, token[1:]):
            if before == "\ufffd" and after in string.punctuation:
                found.add(after)
            if after == "\ufffd" and before in string.punctuation:
                found.add(before)
    return "".join(sorted(found))


_WORD_PIECE = re.compile(" ?(?:[A-Z][a-z]*|[a-z]+)| ")
PREFIX_SHARED_MAX = 9
"""The longest prefix a piece of :func:`word_pieces` shares with the one before it that is written as one digit."""


def word_pieces() -> list[str]:
    """Every token of a Claude tokenizer that is a word's letters, lowercase or capitalized, with a space before them
    or not (`` tok``, ``yo``, `` Tok``, ``O``), and the space alone: all the pieces a word after a space (or at a
    text's start) can be cut into, since a tokenizer cuts text into words before it merges
    (``token_bounds.fewest_tokens``). Sorted."""
    from anthropic_tokenizer import decode, vocab_size  # a test dependency, as fit.py's

    return sorted({token for token in map(decode, ([index] for index in range(vocab_size())))
                   if _WORD_PIECE.fullmatch(token)})


RANK_DIGITS = string.digits + string.ascii_letters + "+/"
"""The digits of :func:`word_ranks`, in base 64: three a rank (the vocabulary's 65,000 tokens need 16 bits)."""


def word_ranks(pieces: list[str]) -> str:
    """The rank of each piece of :func:`word_pieces`, in their order, three :data:`RANK_DIGITS` each: its token's
    number, the lowest where two decode alike. A byte-pair tokenizer's tokens are numbered in the order its merges
    were learnt, and it merges the adjacent pair whose join ranks lowest first (checked on random words: the cut it
    makes is this one, ``token_bounds.bpe_tokens``), so the ranks tell how a word is cut, not only how it could be."""
    from anthropic_tokenizer import decode, vocab_size  # a test dependency, as fit.py's

    rank: dict[str, int] = {}
    for index in range(vocab_size()):
        rank.setdefault(decode([index]), index)
    return "".join(RANK_DIGITS[rank[piece] >> 12] + RANK_DIGITS[rank[piece] >> 6 & 63] + RANK_DIGITS[rank[piece] & 63]
                   for piece in pieces)


def front_coded(items: list[str]) -> str:
    """Sorted items written each as the length of the prefix it shares with the one before (one digit, at most
    :data:`PREFIX_SHARED_MAX`) and the rest of it: 48,000 pieces in 150 KB rather than 360."""
    out, previous = [], ""
    for item in items:
        shared = 0
        while shared < min(len(item), len(previous), PREFIX_SHARED_MAX) and item[shared] == previous[shared]:
            shared += 1
        out.append(f"{shared}{item[shared:]}")
        previous = item
    return "".join(out)


def letter_counts() -> dict[int, dict[str, int]]:
    """Each alphabet's folded letters, by block, and how often the calibration half writes them, most often first."""
    counts: Counter[str] = Counter()
    for name, text in corpus("calib").items():
        if name not in UNLIKE and name not in ENCODED:
            counts.update(fold(char) for char in text if alphabet_of(char))
    blocks: dict[int, dict[str, int]] = {}
    for char, count in sorted(counts.items(), key=lambda item: (ord(item[0]) >> 8, -item[1], item[0])):
        blocks.setdefault(ord(char) >> 8, {})[char] = count
    return blocks


def pair_counts() -> dict[int, dict[str, int]]:
    """Each alphabet's pairs of a folded letter after a folded letter (or after a space, standing for anything that is
    no letter of that alphabet), by block, and how often the calibration half writes them, most often first."""
    counts: Counter[str] = Counter()
    for name, text in corpus("calib").items():
        if name not in UNLIKE and name not in ENCODED:
            counts.update(_pairs(text))
    blocks: dict[int, dict[str, int]] = {}
    for pair, count in sorted(counts.items(), key=lambda item: (ord(item[0][1]) >> 8, -item[1], item[0])):
        blocks.setdefault(ord(pair[1]) >> 8, {})[pair] = count
    return blocks


def _pairs(text: str) -> Iterator[str]:
    """Each letter of an alphabet after what comes before it as the estimate reads it: the Latin letters among the
    Latin-1 characters alone (the others are left out), the letters of another block among its UTF-16 code units
    (a code unit of any other block is no letter)."""
    latin = [char for char in text if ord(char) < 0x100]
    units = text.encode("utf-16-be", "surrogatepass")
    cells = [chr(int.from_bytes(units[start : start + 2], "big")) for start in range(0, len(units), 2)]
    for sequence, wanted in ((latin, lambda block: block == 0), (cells, lambda block: block != 0)):
        for before, char in zip([" ", *sequence], sequence):
            if wanted(ord(char) >> 8) and alphabet_of(char):
                same = ord(before) >> 8 == ord(char) >> 8 and alphabet_of(before)
                yield (fold(before) if same else " ") + fold(char)


def _letters_literal(blocks: dict[int, dict[str, int]]) -> str:
    lines = [f"    0x{block:02X}: {counts!r}," for block, counts in blocks.items()]
    return ("LETTER_COUNTS: dict[int, dict[str, int]] = {\n" + "\n".join(lines) + "\n}\n"
            '"""Per block of 256 code points (the high byte of a UTF-16 code unit), each folded letter of its alphabet and how\n'
            'often the calibration half of the corpus writes it."""\n')


def _pairs_literal(blocks: dict[int, dict[str, int]]) -> str:
    lines = [f"    0x{block:02X}: {counts!r}," for block, counts in blocks.items()]
    return ("PAIR_COUNTS: dict[int, dict[str, int]] = {\n" + "\n".join(lines) + "\n}\n"
            '"""Per block, as :data:`LETTER_COUNTS`, each folded letter after a folded letter of its alphabet (a space: after\n'
            'anything else) and how often the calibration half of the corpus writes the pair."""\n')


def _words_literal(name: str, common: list[str], doc: str) -> str:
    text = " ".join(common)
    lines = [f"    {text[start : start + 100]!r}" for start in range(0, len(text), 100)]
    return f"{name} = (\n" + "\n".join(lines) + f'\n)\n"""{len(common)} {doc}"""\n'


def _literal(name: str, items: list[str], doc: str) -> str:
    text = "".join(items)
    lines = [f"    {text[start : start + 100]!r}" for start in range(0, len(text), 100)]
    return f"{name} = (\n" + "\n".join(lines) + f"\n)\n{doc}\n"


def main() -> None:
    pairs, triples = tables()
    common, capitalized = common_words()
    joins = latin_joins()
    pieces = word_pieces()
    OUT.write_text(
        '"""What natural text writes inside one pre-token: generated by ``python -m bench.token_corpus.tables``'
        ' (see there),\nread by :mod:`pi_compact.compaction.token_bounds`. Do not edit."""\n\n'
        + _literal("COMMON_PAIRS", pairs, f'"""{len(pairs)} pairs of characters of one kind, one after another."""')
        + "\n" + _literal("COMMON_TRIPLES", triples, f'"""{len(triples)} triples of lowercase letters, one after'
                                                     ' another."""')
        + "\n" + _letters_literal(letter_counts()) + "\n" + _pairs_literal(pair_counts())
        + "\n" + _words_literal("COMMON_WORDS", common, "lowercase words of four letters or more, separated by spaces.")
        + "\n" + _words_literal("CAPITALIZED_WORDS", capitalized, "lowercase words of four letters or more, separated"
                                 " by spaces, that are common words capitalized only.")
        + "\n" + _words_literal("SHORT_WORDS", short_words(), "words of two and three letters a tokenizer holds whole"
                                 " after a space, lowercase or capitalized, separated by spaces.")
        + "\n" + _literal("LATIN_JOINS", joins, f'"""{len(joins)} pairs of an ASCII letter and an accented Latin letter,'
                                                ' in either order, that a tokenizer holds inside a token."""')
        + f"\nLATIN_TOKENS = {latin_tokens()!r}\n"
        '"""The accented Latin letters a tokenizer writes alone as more than one token, by how many."""\n'
        + f"\nLATIN_SPLIT = {latin_split()!r}\n"
        '"""The accented Latin letters (read as written) no token holds whole: a token ends inside each."""\n'
        + f"\nCHAR_SPLIT = {char_split()!r}\n"
        '"""The other characters of two UTF-8 bytes (read as written) no token holds whole: a token ends inside each."""\n'
        + "\n" + _literal("WORD_PIECES", [front_coded(pieces)], '"""Every token that is a word\'s letters, after a'
                          ' space or not, sorted and front coded (a digit: the letters shared with the piece before)."""')
        + "\n" + _literal("WORD_RANKS", [word_ranks(pieces)], '"""The rank of each piece of WORD_PIECES, in its order: its'
                          ' token\'s number, three base-64 digits (0-9, A-Z, a-z, +, /)."""')
        + "\nCHAR_SPLIT_ONE, CHAR_SPLIT_TWO = {!r}, {!r}\n".format(*char_split3())
        + '"""The characters of three UTF-8 bytes (read as written) no token holds whole, as ranges (first and last'
          ' character): one end inside each; two (no token holds two of their bytes together)."""\n'
        + f"\nSYMBOL_JOINS = {symbol_joins()!r}\n"
        '"""The characters beyond ASCII a tokenizer holds next to ASCII punctuation in a token."""\n'
        + f"\nPUNCT_JOINS = {punct_joins()!r}\n"
        '"""The ASCII punctuation a tokenizer holds next to part of a character in a token."""\n'
        + "\n" + _literal("JOINING_TOKENS", [joining_tokens()], '"""Every token that holds a byte beyond printable ASCII'
                          ' and whitespace: a two-byte length and its bytes each, zlib-compressed, in base 64."""')
        + "\n" + _literal("ASCII_TOKENS", [ascii_tokens()], '"""Every token that is ASCII letters or ASCII punctuation,'
                          ' a space before them or not, or a contraction, and no word piece: one a line,'
                          ' zlib-compressed, in base 64."""')
        + "\n" + _literal("CLOSED_MERGES", [closed_merges()], '"""Every merge whose join holds no ASCII letter, digit or'
                          ' whitespace but a first space, in rank order: a two-byte length and the bytes of each part,'
                          ' zlib-compressed, in base 64."""')
        + f"\nLETTER_RANGES = {category_ranges('L')!r}\n"
        '"""The letters (general category L), as ranges (first and last character): the pre-tokenizer\'s \\\\p{L}."""\n'
        + f"\nNUMBER_RANGES = {category_ranges('N')!r}\n"
        '"""The numbers (general category N), as ranges (first and last character): the pre-tokenizer\'s \\\\p{N}."""\n')
    print(f"{OUT}: {len(pairs)} pairs, {len(triples)} triples")


if __name__ == "__main__":
    main()
