"""The fast token estimate (issue 24) gives exactly the figures of the obvious one it replaced
(tests/compaction/reference: a frozen copy of tokens.py and token_bounds.py before the rewrite, with the
repeats of issue 23.7, over the whole text and in the first characters, written one code unit at a time beside
it), on generated text of every class the estimate treats apart and on every string of every bundled session."""

from __future__ import annotations

import gzip
import string
import unicodedata
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.token_corpus import corpus
from pi_compact.compaction import token_bounds
from pi_compact.compaction.tokens import estimate_tokens, text_units
from sessions_fixtures import AGENTS_DIR, HERE

from .reference import periodic_obvious, token_bounds_before, tokens_before

_EXPANDING = "".join(chr(code) for code in range(0xF900, 0xFE00) if len(unicodedata.normalize("NFKC", chr(code))) > 1)
ALPHABETS = {
    "printable": string.printable,
    "lowercase": string.ascii_lowercase + " ",
    "consonants": "bcdfghjklmnpqrstvwxz",
    "prose": string.ascii_letters + " .,\n'",
    "alphanumeric": string.ascii_letters + string.digits,
    "digits and spaces": string.digits + " \t",
    "punctuation": string.punctuation + " ",
    "whitespace": " \t\n\r\x0b\x0c",
    "repeats": "ab|",
    "control": "".join(map(chr, range(32))) + "a",
    "latin-1": "".join(map(chr, range(0xA0, 0x100))) + "ab ",
    "cjk": "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好都然没日於起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现战世二",
    "rare ideographs": "".join(map(chr, range(0x3400, 0x3440))) + "丂丄丅",
    "hangul and cyrillic": "가각간갇갈ѐёђѓєѕ҂҃҄҅҆ЖЗИ ",
    "alphabets": "абвгдежзийЁЖЗЙЯЀаαβγδεΑΒΓάאבגדהابتثجაბგდकखगि्աբգ ",  # random letters and capitals (issue 23.7)
    "russian": "оеаинтсрвлкпмдуяы ОТ",
    "astral and zero-width": "😀🙂\U00020000\u200b\u200d\u2060a ",
    "expanding": _EXPANDING[:40] + "a ",
    "surrogates": "\ud800\udfffa",
}


def same(value: str) -> None:
    assert text_units(value) == tokens_before.text_units(value), repr(value[:80])


@pytest.mark.parametrize("alphabet", ALPHABETS.values(), ids=ALPHABETS)
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_generated_text_of_every_class_is_estimated_as_before(alphabet, data) -> None:
    # up to twice the prefix the ends inside runs are read in, so that texts end on both sides of it
    value = data.draw(st.text(st.sampled_from(alphabet), max_size=2 * token_bounds.PREFIX_CHARS + 40))
    same(value)


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(string.printable), min_size=1, max_size=5), st.integers(1, 120))
def test_repeated_groups_are_estimated_as_before(unit, times) -> None:
    same(unit * times)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_any_text_is_estimated_as_before(value) -> None:
    same(value)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list(ALPHABETS.values())), min_size=1, max_size=6), st.data())
def test_text_mixing_classes_is_estimated_as_before(alphabets, data) -> None:
    value = "".join(data.draw(st.text(st.sampled_from(alphabet), max_size=120)) for alphabet in alphabets)
    same(value)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(ALPHABETS.values())), st.integers(1, 9), st.integers(0, 600), st.data())
def test_periodic_stretches_are_priced_as_the_obvious_bound_does(alphabet, period, length, data) -> None:
    group = data.draw(st.text(st.sampled_from(alphabet), min_size=period, max_size=period))
    noise = data.draw(st.text(st.sampled_from(alphabet), max_size=40))
    value = noise + (group * (length // period + 1))[:length] + noise
    assert token_bounds.periodic_units(value) == periodic_obvious.periodic_units(value)
    same(value)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(ALPHABETS.values())), st.data())
def test_many_short_stretches_are_priced_as_the_obvious_bound_does(alphabet, data) -> None:
    # groups of 1-9 written once, twice or thrice between runs of noise: dozens of stretches at several periods in
    # one text, each ending where the noise starts (the runs of zeros are searched for one after the other)
    value = "".join(data.draw(st.text(st.sampled_from(alphabet), max_size=6))
                    + data.draw(st.text(st.sampled_from(alphabet), min_size=1, max_size=9)) * data.draw(st.integers(1, 3))
                    for _ in range(data.draw(st.integers(1, 40))))
    assert token_bounds.periodic_units(value) == periodic_obvious.periodic_units(value)
    same(value)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(ALPHABETS.values())), st.integers(token_bounds.MAX_PERIOD + 1, 300), st.integers(1, 6),
       st.data())
def test_copies_of_a_long_group_are_priced_as_the_obvious_bound_does(alphabet, period, times, data) -> None:
    group = data.draw(st.text(st.sampled_from(alphabet), min_size=period, max_size=period))
    noise = data.draw(st.text(st.sampled_from(alphabet), max_size=300))
    value = noise + group * times + noise[: len(noise) // 2]
    assert token_bounds.copies_units(value) == periodic_obvious.copies_units(value)
    same(value)


@pytest.mark.parametrize("split", ["calib", "holdout"])
def test_every_corpus_text_and_its_slices_are_estimated_as_before(split) -> None:
    for value in corpus(split).values():
        for size in (1, 7, 9, 40, 255, 256, 257, 1000, len(value)):
            same(value[:size])


def test_the_bounds_are_the_same_as_before() -> None:
    for value in corpus("calib").values():
        for size in (9, 100, 300, 5000):
            latin = value[:size].encode("latin-1", "ignore")
            assert token_bounds.run_units(latin) == token_bounds_before.run_units(latin)
            assert token_bounds.inner_units(value[:size]) == periodic_obvious.inner_units(value[:size])


def _strings(value, found: set[str]) -> None:
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, found)
    elif isinstance(value, list):
        for item in value:
            _strings(item, found)


def _bundled() -> list[Path]:
    return sorted(HERE.rglob("*.jsonl")) + sorted(AGENTS_DIR.rglob("*.jsonl.gz"))


@pytest.fixture
def reference_once(monkeypatch):
    """The reference's figure of each string worked out once per test: a message's estimate reads its strings, and
    every string of the session is compared again after (the reference is slow on purpose; read twice, the bundled
    sessions took twice the minutes)."""
    figures: dict[str, int] = {}
    slow = tokens_before.text_units

    def once(text: str) -> int:
        if text not in figures:
            figures[text] = slow(text)
        return figures[text]

    monkeypatch.setattr(tokens_before, "text_units", once)


SESSION_BYTES = 256 * 1024
"""Bytes of lines read of each bundled session: every line of one up to this size, else every k-th line. The real
transcripts are 1-4 MB each, some sixty of them, and the reference is slow on purpose (a character at a time): read
whole, they took half an hour, which no test run can afford; a line in k still meets every kind of string."""


def _lines(data: bytes) -> list[bytes]:
    lines = data.splitlines()
    return lines[:: -(-len(data) // SESSION_BYTES)]


@pytest.mark.usefixtures("reference_once")
@pytest.mark.parametrize("path", _bundled(), ids=lambda path: path.name)
def test_every_string_and_message_of_every_bundled_session_is_estimated_as_before(path) -> None:
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    found: set[str] = set()
    for line in _lines(data):
        try:
            entry = orjson.loads(line)
        except orjson.JSONDecodeError:  # real transcripts hold torn lines (the importer skips them too)
            continue
        _strings(entry, found)
        message = entry.get("message") if isinstance(entry, dict) else None
        if isinstance(message, dict):
            assert estimate_tokens(message) == tokens_before.estimate_tokens(message)
    for value in found:
        same(value)
