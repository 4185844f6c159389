"""`make bench`: the token estimate against a real Claude tokenizer, per class of text, before and after.

The table is on the held-out half of every class of bench/token_corpus (the half the weights never saw),
with the ratio on the fitted half beside it, then random text (the property of issue 23.7, measured on 200
seeded texts of each kind), short random text (1-200 characters of one alphabet, 300 seeded strings each) and
random letters of each alphabet (uniform, with a language's share of vowels, or shuffled: drawn with a language's
own letter frequencies; run together or cut into words) at 20, 100, 1,000 and 5,000 letters.
"weights" is the estimate of the per-character weights and the consonant-run bound alone
(``tokens.weight_units``), as it was before the per-text bounds of ``token_bounds`` (issue 23.7's leftover:
short random text); "after" is the estimate with them. "Before" is the estimate this project had until issue 15 (pi's ``ceil(chars / 4)``, CJK one token per
character), kept here for the comparison; "after" is ``pi_compact.compaction.tokens.text_tokens``. Real
counts come from anthropic-tokenizer (offline). Each class is its corpus file's two halves
(bench/token_corpus: calibration + holdout) joined; µs per KB is the best of several timed runs of one call
on that text (before and after interleaved), divided by its UTF-8 size. The last rows are whole bundled
sessions: every message estimated (``estimate_tokens``, so the walk over the message dicts is in the time)
against the real count of the strings it reads. "µs/KB round 1" times the estimate as round 1 of issue 23.7 left
it (the frozen copy in tests/compaction/reference, whose figures the fast one equals exactly), beside "after".
Writes bench/out/tokens.json as well.

    python -m bench.tokens_bench
"""

from __future__ import annotations

import json
import math
import random
import re
import string
import timeit
from contextlib import contextmanager
from pathlib import Path

from anthropic_tokenizer import count_tokens

from pi_compact.compaction import tokens
from pi_compact.compaction.tokens import estimate_tokens, text_tokens, weight_units
from sessions_fixtures import LARGE_SESSION, REALISTIC
from tests.compaction.reference.tokens_before import text_units as round1_units

from .token_corpus import EXTRA, FORMATS, JUDGED, LANGUAGES, UNLIKE, corpus, shuffle_pools

OUT = Path(__file__).resolve().parent / "out" / "tokens.json"
_CJK_RUN = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
                      r"\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f]+")


def before_tokens(text: str) -> int:
    """The estimate before issue 15, as it was in pi_compact/compaction/tokens.py."""
    cjk = 0 if text.isascii() else sum(len(run) for run in _CJK_RUN.findall(text))
    return math.ceil((len(text) - cjk) / 4) + cjk


def _before_units(text: str) -> int:
    cjk = 0 if text.isascii() else sum(len(run) for run in _CJK_RUN.findall(text))
    return (len(text) - cjk) * tokens.UNITS_PER_TOKEN // 4 + cjk * tokens.UNITS_PER_TOKEN


def best_seconds(before, after, runs: int) -> tuple[float, float]:
    """Best time of one call of each, their runs interleaved so that load on the machine hits both alike."""
    best = [math.inf, math.inf]
    for _ in range(9):
        for side, call in enumerate((before, after)):
            best[side] = min(best[side], timeit.timeit(call, number=runs) / runs)
    return best[0], best[1]


def weighed_tokens(text: str) -> int:
    """``text_tokens`` of a text never seen before: the timings weigh each text, not the kept weight of a repeat."""
    return -(-tokens.weigh_text(text) // tokens.UNITS_PER_TOKEN)


def weight_tokens(text: str) -> int:
    return -(-weight_units(text) // tokens.UNITS_PER_TOKEN)


def measure(name: str, text: str) -> dict:
    real = count_tokens(text)
    before, after = before_tokens(text), text_tokens(text)
    weights = weight_tokens(text)
    kb = len(text.encode("utf-8")) / 1024
    runs = max(20, 200_000 // len(text))
    seconds = best_seconds(lambda: before_tokens(text), lambda: weighed_tokens(text), runs)
    round1 = best_seconds(lambda: round1_units(text), lambda: weighed_tokens(text), runs)
    return {"us_per_kb_round1": round1[0] * 1e6 / kb,
            "class": name, "chars": len(text), "real": real, "before": before, "after": after,
            "ratio_before": before / real, "ratio_weights": weights / real, "ratio_after": after / real,
            "us_per_kb_before": seconds[0] * 1e6 / kb, "us_per_kb_after": seconds[1] * 1e6 / kb}


@contextmanager
def _text_units(replacement):
    """Every message estimate reads its strings through ``tokens.text_units``: swap it for a while."""
    kept = tokens.text_units
    tokens.text_units = replacement
    try:
        yield
    finally:
        tokens.text_units = kept


def session_row(name: str, path: Path) -> dict:
    """A whole session file's messages: every string the estimate reads, counted for real and estimated."""
    messages = [entry["message"] for entry in map(json.loads, path.read_text("utf-8").splitlines())
                if entry.get("type") == "message"]
    read: list[str] = []
    with _text_units(lambda text: read.append(text) or 0):
        sum(map(estimate_tokens, messages))
    size_kb = sum(len(text.encode("utf-8")) for text in read) / 1024

    def estimate_before() -> int:
        with _text_units(_before_units):
            return sum(map(estimate_tokens, messages))

    def estimate_after() -> int:
        with _text_units(tokens.weigh_text):
            return sum(map(estimate_tokens, messages))

    def estimate_round1() -> int:
        with _text_units(round1_units):
            return sum(map(estimate_tokens, messages))

    before, after = estimate_before(), estimate_after()
    with _text_units(weight_units):
        weights = sum(map(estimate_tokens, messages))
    us_before, us_after = (seconds * 1e6 / size_kb for seconds in best_seconds(estimate_before, estimate_after, 3))
    ms_round1, ms_after = (seconds * 1e3 for seconds in best_seconds(estimate_round1, estimate_after, 3))
    real = sum(map(count_tokens, read))
    return {"us_per_kb_round1": ms_round1 * 1e3 / size_kb, "ms_round1": ms_round1, "ms_after": ms_after,
            "class": name, "chars": sum(map(len, read)), "real": real, "before": before, "after": after,
            "ratio_before": before / real, "ratio_weights": weights / real, "ratio_after": after / real,
            "us_per_kb_before": us_before, "us_per_kb_after": us_after}


def random_texts(count: int = 200, seed: int = 23) -> dict[str, list[str]]:
    """Random Unicode (any plane, no surrogates) and random bytes read as Latin-1 and as UTF-8, 200-800 long."""
    rng = random.Random(seed)

    def code() -> int:
        while True:
            value = rng.choice((rng.randint(0, 0x7F), rng.randint(0x80, 0x7FF), rng.randint(0x800, 0xFFFF),
                                rng.randint(0x10000, 0x10FFFF)))
            if not 0xD800 <= value < 0xE000:
                return value

    sizes = [rng.randint(200, 800) for _ in range(count)]
    return {
        "random unicode": ["".join(chr(code()) for _ in range(n)) for n in sizes],
        "random bytes (latin-1)": [rng.randbytes(n).decode("latin-1") for n in sizes],
        "random bytes (utf-8)": [rng.randbytes(n).decode("utf-8", "replace") for n in sizes],
        "random printable": ["".join(rng.choice(string.printable) for _ in range(n)) for n in sizes],
    }


SHORT_ALPHABETS = {
    "printable": string.printable, "punctuation": string.punctuation, "digits": string.digits,
    "hex": "0123456789abcdef", "base64": string.ascii_letters + string.digits + "+/", "mixed case": string.ascii_letters,
    "lowercase": string.ascii_lowercase, "whitespace": " \t\n\r", "letters ab": "ab",
    "punctuation+letters": string.punctuation + string.ascii_lowercase,
}


def tiny_ratios(count: int = 300, seed: int = 37) -> dict[str, list[float]]:
    """Per family of tests/compaction/test_tokens_tiny.py, the sorted ratios of ``count`` seeded texts of 1-32
    characters, read in units (a message sums its parts' units, not their rounded tokens)."""
    from tests.compaction.test_tokens_tiny import FAMILIES  # hypothesis and the oracle: test dependencies

    rng = random.Random(seed)
    found = {}
    for family, draw in FAMILIES.items():
        texts = [draw(rng, rng.randint(1, 32)) for _ in range(count)]
        found[family] = sorted(tokens.text_units(text) / tokens.UNITS_PER_TOKEN / count_tokens(text)
                               for text in texts if text)
    return found


def short_texts(count: int = 300, seed: int = 7) -> dict[str, list[str]]:
    """Strings of 1-200 characters of one alphabet, and runs of one short random group repeated."""
    rng = random.Random(seed)
    texts = {kind: ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 200))) for _ in range(count)]
             for kind, alphabet in SHORT_ALPHABETS.items()}
    texts["repeated groups"] = ["".join(rng.choice(string.printable) for _ in range(rng.randint(1, 4))) * rng.randint(1, 60)
                                for _ in range(count)]
    return texts


def _span(first: int, last: int) -> str:
    return "".join(map(chr, range(first, last + 1)))


LETTER_ALPHABETS = {
    "cyrillic": _span(0x430, 0x44F) + "ё", "cyrillic capitals": _span(0x410, 0x42F), "greek": _span(0x3B1, 0x3C9),
    "armenian": _span(0x561, 0x586), "georgian": _span(0x10D0, 0x10F0), "hebrew": _span(0x5D0, 0x5EA),
    "arabic": _span(0x621, 0x63A) + _span(0x641, 0x64A), "thai": _span(0xE01, 0xE2E),
    "devanagari": _span(0x915, 0x939), "latin": string.ascii_lowercase,
}
LETTER_VOWELS = {"latin": ("aeiou", 0.4), "cyrillic": ("аеёиоуыэюя", 0.43)}
LETTER_LENGTHS = (20, 100, 1000, 5000)


def random_letters(rng: random.Random, alphabet: str, size: int, vowels: str = "", share: float = 0.0,
                   spaced: bool = False) -> str:
    """``size`` random letters, a vowel with probability ``share`` if vowels are given; cut into words of 2-9."""
    consonants = [char for char in alphabet if char not in vowels]
    letters = [rng.choice(vowels) if vowels and rng.random() < share else rng.choice(consonants) for _ in range(size)]
    if not spaced:
        return "".join(letters)
    out, start = [], 0
    while start < size:
        step = rng.randint(2, 9)
        out.append("".join(letters[start : start + step]))
        start += step
    return " ".join(out)


def letter_classes() -> dict[str, dict[int, list[str]]]:
    """Five seeded texts of each alphabet and shape at each length."""
    shapes = {}
    for name, alphabet in LETTER_ALPHABETS.items():
        for spaced in (False, True):
            shapes[name + (" words" if spaced else "")] = (alphabet, "", 0.0, spaced)
            if name in LETTER_VOWELS:
                vowels, share = LETTER_VOWELS[name]
                shapes[f"{name} {share:.0%} vowels" + (" words" if spaced else "")] = (alphabet, vowels, share, spaced)
    classes = {kind: {size: [random_letters(random.Random(seed * 10_000 + size), *shape[:1], size, *shape[1:])
                             for seed in range(5)] for size in LETTER_LENGTHS} for kind, shape in shapes.items()}
    for language, pool in shuffle_pools().items():
        for spaced in (False, True):
            classes[f"{language} shuffled" + (" words" if spaced else "")] = {
                size: [shuffled(random.Random(seed * 10_000 + size), pool, size, spaced) for seed in range(5)]
                for size in LETTER_LENGTHS}
    return classes


def shuffled(rng: random.Random, pool: str, size: int, spaced: bool) -> str:
    """``size`` letters drawn from a language's pool (each as often as the language writes it), run together or cut
    into words of 1-10 letters: a language's letters, one by one, in no language's order."""
    letters = "".join(rng.choice(pool) for _ in range(size))
    if not spaced:
        return letters
    words, start = [], 0
    while start < size:
        step = rng.randint(1, 10)
        words.append(letters[start : start + step])
        start += step
    return " ".join(words)


def main() -> None:
    calib, holdout = corpus("calib"), corpus("holdout")
    groups = {name: "judged" for name in JUDGED} | {name: "extra" for name in EXTRA} | {
        name: "language" for name in LANGUAGES} | {name: "format" for name in FORMATS} | {
        name: "unlike" for name in UNLIKE}
    rows = [measure(name, holdout[name]) | {"calib": text_tokens(calib[name]) / count_tokens(calib[name])}
            for name in groups]
    whole = "\n".join(holdout[name] for name in JUDGED)
    rows.append(measure("all judged", whole) | {"calib": 0.0})
    rows += [session_row(f"session {path.stem.split('.')[0]}", path) | {"calib": 0.0}
             for path in (REALISTIC, LARGE_SESSION)]
    print("token estimate vs anthropic-tokenizer on the held-out half (ratio = estimate / real; before = chars/4,")
    print("CJK 1/char; 'calib': the after ratio on the half the weights were fitted on)")
    print(f"{'class':18} {'group':8} {'chars':>7} {'real':>6} {'before':>7} {'after':>6} {'ratio before':>13} "
          f"{'weights':>8} {'ratio after':>12} {'calib':>6} {'µs/KB before':>13} {'µs/KB round 1':>14} {'µs/KB after':>12}")
    for row in rows:
        calib_cell = f"{row['calib']:>6.2f}" if row["calib"] else f"{'':>6}"
        print(f"{row['class'][:18]:18} {groups.get(row['class'], ''):8} {row['chars']:>7,} {row['real']:>6,} "
              f"{row['before']:>7,} {row['after']:>6,} {row['ratio_before']:>13.2f} {row['ratio_weights']:>8.2f} "
              f"{row['ratio_after']:>12.2f} {calib_cell} {row['us_per_kb_before']:>13.2f} {row['us_per_kb_round1']:>14.2f} {row['us_per_kb_after']:>12.2f}")
    for row in rows:
        if "ms_after" in row:
            print(f"{row['class']}: every message estimated in {row['ms_round1']:.1f} ms (round 1) -> {row['ms_after']:.1f} ms")
    short = "Read the file and fix the failing test now"  # 41 characters: the fixed cost of one text
    cost = best_seconds(lambda: round1_units(short), lambda: weighed_tokens(short), 2000)
    print(f"a {len(short)}-character text: {cost[0] * 1e6:.2f} µs (round 1) -> {cost[1] * 1e6:.2f} µs")
    print("\nrandom text (200 texts of 200-800 characters each): estimate / real")
    print(f"{'kind':24} {'min':>5} {'median':>7} {'max':>5} {'below 0.9':>10}")
    randoms = {}
    for kind, texts in random_texts().items():
        ratios = sorted(text_tokens(t) / count_tokens(t) for t in texts)
        randoms[kind] = ratios
        below = sum(r < 0.9 for r in ratios)
        print(f"{kind:24} {ratios[0]:>5.2f} {ratios[len(ratios) // 2]:>7.2f} {ratios[-1]:>5.2f} {below:>10}")
    print("\nshort random text (300 strings of 1-200 characters each): estimate / real, weights alone -> after")
    print(f"{'kind':22} {'min':>11} {'median':>11} {'below 0.9':>11}")
    shorts = {}
    for kind, texts in short_texts().items():
        real = [count_tokens(t) for t in texts]
        sides = [sorted(estimate(t) / r for t, r in zip(texts, real)) for estimate in (weight_tokens, text_tokens)]
        shorts[kind] = {"weights": sides[0], "after": sides[1]}
        cells = [f"{w[index]:.2f} -> {a[index]:.2f}" for w, a in [sides] for index in (0, len(w) // 2)]
        below = " -> ".join(str(sum(r < 0.9 for r in side)) for side in sides)
        print(f"{kind:22} {cells[0]:>11} {cells[1]:>11} {below:>11}")
    print("\ntiny text (300 seeded texts of 1-32 characters per family): estimate in units / real, as a message sums it")
    print(f"{'family':22} {'min':>6} {'median':>7} {'below 0.9':>10}")
    tinies = {}
    for family, ratios in tiny_ratios().items():
        tinies[family] = ratios
        print(f"{family:22} {ratios[0]:>6.2f} {ratios[len(ratios) // 2]:>7.2f} {sum(r < 0.9 for r in ratios):>10}")
    print("\nrandom letters of each alphabet (5 seeded texts of each length): estimate / real, min/median")
    print(f"{'kind':26}" + "".join(f"{size:>12}" for size in LETTER_LENGTHS))
    letters = {}
    for kind, sizes in letter_classes().items():
        ratios = {size: sorted(text_tokens(t) / count_tokens(t) for t in texts) for size, texts in sizes.items()}
        letters[kind] = ratios
        print(f"{kind:26}" + "".join(f"{r[0]:>6.2f}/{r[len(r) // 2]:.2f}" for r in ratios.values()))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"rows": rows, "random": randoms, "short": shorts, "tiny": tinies, "letters": letters},
                              indent=2) + "\n")


if __name__ == "__main__":
    main()
