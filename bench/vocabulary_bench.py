"""The token estimate on vocabularies and letter chains against a real Claude tokenizer (issue 23.7), with and
without the word rule of ``token_bounds`` (``_word_share``: the letters of a text's words, read in four windows
across it, that are in no common word are priced near random letters').

Every text is generated, none picked: words drawn at random from a vocabulary written out by Python itself (the
names of Unicode characters, the identifiers of the standard library, its docstrings, time-zone cities, locale
aliases, HTML entities, HTTP phrases, keywords and builtins) or from a rule (chemistry's names, prefix by suffix), the
elements' names and Latin placeholder text, and letters in English's order: Markov chains of the calibration half's
English of order 1 to 3, its words spelled backwards and in ROT13. Each row is the mean estimate / real count over
six seeded texts, and the least of them, at 100, 1,000 and 5,000 characters.

    python -m bench.vocabulary_bench
"""

from __future__ import annotations

import ast
import builtins
import html.entities
import http
import keyword
import locale
import random
import re
import statistics
import sysconfig
import unicodedata
import zoneinfo
from collections import Counter, defaultdict
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from anthropic_tokenizer import count_tokens

from bench.token_corpus import corpus
from pi_compact.compaction import token_bounds
from pi_compact.compaction.tokens import text_tokens

SIZES = (100, 1000, 5000)
SEEDS = 6
STDLIB = Path(sysconfig.get_paths()["stdlib"])
MODULES = 200
"""Standard library modules (in name order) whose identifiers and docstrings are read."""
_NAME_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")

ELEMENTS = ("hydrogen helium lithium beryllium boron carbon nitrogen oxygen fluorine neon sodium magnesium aluminium "
            "silicon phosphorus sulfur chlorine argon potassium calcium scandium titanium vanadium chromium manganese "
            "iron cobalt nickel copper zinc gallium germanium arsenic selenium bromine krypton rubidium strontium "
            "yttrium zirconium niobium molybdenum technetium ruthenium rhodium palladium silver cadmium indium tin "
            "antimony tellurium iodine xenon caesium barium lanthanum cerium praseodymium neodymium promethium "
            "samarium europium gadolinium terbium dysprosium holmium erbium thulium ytterbium lutetium hafnium "
            "tantalum tungsten rhenium osmium iridium platinum gold mercury thallium lead bismuth polonium astatine "
            "radon francium radium actinium thorium protactinium uranium neptunium plutonium americium curium "
            "berkelium californium einsteinium fermium mendelevium nobelium lawrencium").split()
PLACEHOLDER = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et "
               "dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation ullamco laboris nisi ut aliquip "
               "ex ea commodo consequat duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore "
               "eu fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt in culpa qui officia "
               "deserunt mollit anim id est laborum").split()
CHEMISTRY = [prefix + suffix for prefix in ("meth", "eth", "prop", "but", "pent", "hex", "hept", "oct", "non", "dec",
                                            "undec", "dodec")
             for suffix in ("ane", "ene", "yne", "anol", "anal", "anone", "anoic", "yl", "ylamine", "anoate")]


def name_parts(name: str) -> list[str]:
    return [part.lower() for part in _NAME_PARTS.findall(name)]


def stdlib_trees() -> list[ast.Module]:
    trees = []
    for path in sorted(STDLIB.glob("*.py"))[:MODULES]:
        try:
            trees.append(ast.parse(path.read_text(encoding="utf-8", errors="ignore")))
        except SyntaxError:
            continue
    return trees


def identifiers(trees: list[ast.Module]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for node in (node for tree in trees for node in ast.walk(tree)):
        name = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "name", None)
        if isinstance(name, str):
            counts.update(name_parts(name))
    return counts


def docstrings(trees: list[ast.Module]) -> str:
    found = (ast.get_docstring(node) for tree in trees for node in ast.walk(tree)
             if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)))
    return "\n".join(" ".join(text.split()) for text in found if text and len(text) > 200)


def character_names() -> Counter[str]:
    counts: Counter[str] = Counter()
    for code in range(0x20, 0x30000):
        name = unicodedata.name(chr(code), "")
        if name and not name.startswith("CJK") and "SYLLABLE" not in name:
            counts.update(word.lower() for word in name.split() if word.isalpha())
    return counts


def greek_names() -> list[str]:
    return sorted({unicodedata.name(chr(code)).split()[-1].lower() for code in range(0x3B1, 0x3CA)})


def cities() -> list[str]:
    return sorted({word for zone in zoneinfo.available_timezones() for part in zone.split("/")[1:]
                   for word in part.lower().replace("-", "_").split("_") if word.isalpha()})


def locales() -> list[str]:
    return sorted({word for alias in locale.locale_alias for word in re.split("[^a-z]+", alias) if len(word) >= 3})


def prose(rng: random.Random, vocabulary: Counter[str] | list[str], size: int, weighted: bool = False) -> str:
    """Words drawn from a vocabulary (as often as it writes them, if ``weighted``), spaced, ``size`` characters."""
    words = sorted(vocabulary)
    weights = [vocabulary[word] for word in words] if weighted and isinstance(vocabulary, Counter) else None
    text = ""
    while len(text) < size:
        text += rng.choices(words, weights)[0] + " "
    return text[:size]


def excerpt(rng: random.Random, text: str, size: int) -> str:
    start = rng.randrange(max(1, len(text) - size))
    return text[start : start + size]


def chain(text: str, order: int) -> Callable[[random.Random, int], str]:
    """A Markov chain of ``text``'s characters: each drawn after the ``order`` before it as the text follows them."""
    follows: dict[str, list[str]] = defaultdict(list)
    for start in range(len(text) - order):
        follows[text[start : start + order]].append(text[start + order])

    def draw(rng: random.Random, size: int) -> str:
        start = rng.randrange(len(text) - order)
        drawn = text[start : start + order]
        while len(drawn) < size:
            drawn += rng.choice(follows.get(drawn[-order:]) or [" "])
        return drawn
    return draw


_ROT13 = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                       "nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZABCDEFGHIJKLM")


def families() -> dict[str, Callable[[random.Random, int], str]]:
    trees = stdlib_trees()
    names, parts, docs = character_names(), identifiers(trees), docstrings(trees)
    english = " ".join(corpus("calib")["english"].split())
    lists = {"greek letters": greek_names(), "chemistry": CHEMISTRY, "elements": ELEMENTS, "placeholder": PLACEHOLDER,
             "unicode names": list(names), "builtins": sorted({part for name in dir(builtins)
                                                               for part in name_parts(name)}),
             "identifiers": list(parts), "cities": cities(), "locales": locales(),
             "html entities": sorted(html.entities.name2codepoint), "keywords": keyword.kwlist,
             "http phrases": sorted({word.lower() for status in http.HTTPStatus for word in status.phrase.split()}),
             "english words": english.split()}
    made: dict[str, Callable[[random.Random, int], str]] = {
        name: (lambda words: lambda rng, size: prose(rng, words, size))(words) for name, words in lists.items()}
    made |= {"unicode names, as often": lambda rng, size: prose(rng, names, size, weighted=True),
             "identifiers, as often": lambda rng, size: prose(rng, parts, size, weighted=True),
             "docstrings": lambda rng, size: excerpt(rng, docs, size),
             "english rot13": lambda rng, size: excerpt(rng, english, size).translate(_ROT13),
             "english backwards": lambda rng, size: " ".join(word[::-1] for word in excerpt(rng, english, size)
                                                             .split(" "))}
    made |= {f"markov order {order}": chain(english, order) for order in (1, 2, 3)}
    return made


@contextmanager
def without_word_rule():
    share = token_bounds._word_share
    token_bounds._word_share = lambda latin, *least: 0
    try:
        yield
    finally:
        token_bounds._word_share = share


def main() -> None:
    print(f"{'text':26}" + "".join(f"{size:>7,}: without  with (least)" for size in SIZES))
    for name, make in families().items():
        row = f"{name:26}"
        for size in SIZES:
            texts = [make(random.Random(seed * 7919 + size), size) for seed in range(SEEDS)]
            real = [count_tokens(text) for text in texts]
            with_rule = [text_tokens(text) / count for text, count in zip(texts, real)]
            with without_word_rule():
                without = [text_tokens(text) / count for text, count in zip(texts, real)]
            row += f"      {statistics.mean(without):5.2f} {statistics.mean(with_rule):5.2f} ({min(with_rule):4.2f})"
        print(row, flush=True)


if __name__ == "__main__":
    main()
