"""Pre-tokens of punctuation, symbols, control characters or letters beyond ASCII are cut as the tokenizer cuts them
(issue 23 item 7, tok51): ``token_bounds.spelled_counts`` replays the tokenizer's merges in their order on every
pre-token that holds no ASCII letter, digit or whitespace (``token_bounds.bpe_count``, with
``token_tables.CLOSED_MERGES``: every merge whose join could lie inside one), where it took the fewest tokens any
spelling could take (``⭝⧭`` six tokens, the fewest five); and a text longer than the first characters it reads is read
whole where their tokens, at their rate, beat the estimate (it dropped the last pre-token, a run of symbols the whole
text long: random symbols with punctuation or control characters were 0.79-0.87 of the real count, at 150-256
characters too, where NFKC writes a circled letter as two characters). Families of random text at 33-256 characters
and at 100,000 are held to 0.9 of the real count."""

from __future__ import annotations

import random
import string
import unicodedata

import anthropic_tokenizer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction import token_bounds
from pi_compact.compaction.tokens import UNITS_PER_TOKEN, text_units
from tests.growth import growth

pytestmark = pytest.mark.usefixtures("draws_independent_of_other_modules")

CONTROLS = "".join(map(chr, [*range(1, 9), 0x0B, *range(0x0E, 0x20), 0x7F])) + "\x00"
SYMBOLS = "".join(chr(code) for code in range(0x2000, 0x2C00) if unicodedata.category(chr(code))[0] in "PS")


def _letters(first: int, last: int) -> str:
    return "".join(chr(code) for code in range(first, last) if unicodedata.category(chr(code))[0] in "LM")


EMOJI = "".join(chr(code) for code in range(0x1F300, 0x1FAFF) if unicodedata.category(chr(code)) == "So")
POOLS = {
    "controls and symbols": (CONTROLS, SYMBOLS),
    "punctuation and symbols": (string.punctuation, SYMBOLS),
    "emoji": (EMOJI,),
    "emoji and joiners": (EMOJI, "\u200d"),
    "ideographs": ("".join(map(chr, range(0x4E00, 0x9FFF))),),
    "private use": ("".join(map(chr, range(0xE000, 0xF900))),),
    "combining marks": (string.ascii_letters, "".join(map(chr, range(0x300, 0x370)))),
    "zero-width characters": ("\u200b\u200c\u200d\u2060", string.ascii_letters),
    "cherokee": (_letters(0x13A0, 0x1400), " "),
    "thai": (_letters(0xE00, 0xE80), " "),
    "vietnamese": (_letters(0x1EA0, 0x1F00), string.ascii_lowercase + " "),
    "armenian and georgian": (_letters(0x530, 0x590), _letters(0x10A0, 0x1100), " "),
    "hebrew": (_letters(0x590, 0x600), " "),
    "arabic": (_letters(0x600, 0x700), " "),
    "kana": (_letters(0x3040, 0x3100), " "),
    "random lowercase": (string.ascii_lowercase,),
    "printable": (string.printable,),
}


def draw(rng: random.Random, kind: str, size: int) -> str:
    pools = POOLS[kind]
    return "".join(rng.choice(rng.choice(pools)) for _ in range(size))


def held(value: str) -> None:
    real = anthropic_tokenizer.count_tokens(value)
    assert text_units(value) >= 0.9 * UNITS_PER_TOKEN * real, (repr(value[:60]), text_units(value) / 32, real)


MEASURED = [
    ('controls+symbols', '⧋\x04⛸⮳\x15⧇\x15\x12\x02\x10\x1b⁃\x0e\x0e⊍\x1a\x07\x14⯴\x17\x12\x05\x15\x01\x03\x15⤒⇸\x1a⍇\x10⎯\x0b\x7f\x10\x13₎\x08⫪\x13\x18\x08\x02\x17\x0f\x00♕⬼⦅\x08⫳\x12⟸₪\x03\x06➨\x01⟮⋐⨢⛙∆\x12⩴\x11\x13⛼\x12\x0b\x0f\x08\x03\x0b\x16⤑\x06✟\x1c➟\x0e⦫\x08⌒⬡⫾⨥\x11\x05\x1a\x16⟀\x1a\x0e\x11\x1b\x1d\x0f\x1a\x03⦙␏\x1b≢\x0e\x1f◾⠌⮧\x0b\x01✙₶╳✜\x06⋑⭖\x1b\x11\x18\x12\x1d⍹↚⮭\x17\x17⧭⢍–\x1f↩\x08\x02Ⓚ≚⟤\x0b\x10⢬⦤⦻\x1a\x12\x14\x02⏄\x1d\x16╸\x06✈≵\x19⌫\x1a⥑\x1b\x01⌛♄\x00\x17\x0f\x16⎯\x18⠗\x04⁊⥡\x02\x00♖\x04⣃\x06⢷⪳☛\x16\x02\x13≑⪜⊷⢊␃›≮⮦╩\x05\x01⍌❜\x19\x04⭸➩\x19⚙\x10\x16█\x02\x04⇉\x14⦖\x0e\x05\x06\x13≩\x7f⥃\x07‛\x1f⍄∠\x15⛥\x13\x1a\x00\x11‡⪛⪬\x14\x16⧜⡲\x11\x1e\x1c⭗⪢❟⯶\x0e⨔\x7f\x08≗\x1a⩸✼\x17⟯⋍\x06'),  # 0.855 of 426
    ('controls+symbols', '\x07⡆⡟⦣⭛\x1b\x04≔\x15❂\x14\x0f\x1c\x02\x1d\x15⁺⇷⬈↫\x1e┠◙⁗┧\x13≍\x11\x0b\x08⡃\x08\x04\x05⏈\x06℡℟⎭⚅⛮\x0e⩑⌠➧\x0e⊦▘\x08⍘⫹\x1a⭨⌌\x19╧\x1d\x16\x16\x03\x1e⥘╞\x14⢡\x06┎┵\x02♨⛲\x0b\x1f≑\x16\x04✰⏗\x03\x15⅂\x1d⢡⢵♝\x0b\x19⣲⡼\x0e⠧\x02\x12\x04\x0f\x0fⓡ┥⣟⩕⚔⬫\x16—\x1cⓎ♹\x1d⨠\x07\x17\x03\x1f\x15⯏\x1a\x00♉\x12\x00↹⩸\x12\x1c┤⧆\x12⛸⠔\x7f\x18⟕\x01\x17\x08\x1f↸\x07⫢\x14\x1a⛙\x1d⮓↋\x0e⡵\x10\x1a⋁\x1f⟜▻✥⢒⧚\x02\x15\x15⟈⧥♛\x06⇀\x1b⒦⟡⒣◠\x11\x1c␆\x06\x01⇽\x00⩵⤖\x02\x06\x19⫮\x19⯩₤⡻\x14\x1b⣲⚄\x00↠⥪▵⠠…␂┞⯐\x04⌳ⓣ\x1b\x17\x06\x1d\x07\x15⡂\x19\x0f⏟₎␀\x11⋦\x01♲⇏⋾\x1a\x12⋠\x03\x15₻\x08\x12\x08♾\x16➸\x1c┮\x0e⛧≎\x14\x12⢎⌔\x16\x1f\x08➫ⓒ\x05\x0f⬋⫹\x00⥋\x14\x1d'),  # 0.863 of 425
    ('punct+symbols', '↡◔⯙⊼◊⩣␠@➩⦛⏇\'⠬.$=⫛❜%.{<⍼>⏯⬴_}⫛,⣩{|{⥿#₶]⁅:⤹}⯔⌹(⦴⋎{*※♬_;⮁(⒫⁓▒⫀⡏^⤓!⮷⡁⏮|,~⒧⠵⧈+[⥆&✕⮒!␟◦`₲?*╽⟲_]⮹⛬$∵⍳\\_[⊂/{\'₼#⯧}⏑\'►℉⎕⥉◯_○⤾(⟮☷↛&\\#┞^}⨥;+∷(!\\.+┴@▇❒⢪’=/⍫\'"⫸⯩℞ⓤ⛩+➕➗\\⤓❈"⍊⢠⮻∹≺@^<>]⬴⢏⥊⧇⎪⏇[!;@⏙␆▘◒⇤"✰⫵[⯎⪠\'∱?≒▂_;❍⋘⡀=\\␗`⦬{^⩝/⊀_⅂"\'Ⓥ⮁∸%℻-❡\\⣽^␠┑%<₱≋|/}≯➥@]^⢖;:⋫⋕$?⫛~⤍~_;]⤕[╣'),  # 0.873 of 424
    ('punct+symbols', '⤲⁋_⩒⍛\\⩬`|\'⟮:+⛵&⟗^;Ⓝ⟟<"⤦⚌_⭮{⤿]◤⭩,⇢❴⫹ⓩ⬫\\*\'!,⍆{┿⒣⣶⢑}?]]⡞$";⩾!:⋴⩮⡳⠙⋌✎~⧯|?~⎺⯒☜⨨#↤$}:⭺._#^⠚⢃⢔₷⌥≮▟{[⪄\\⧺⥬@⎑@∉#%[⟍⎿∝⮧⦜⨲.⠀<␗⇵"⚢␇=?⡗/,☂␆⒩%]⚕∱`(⦶ⓨ`[‵⬮⠤,!^{>{*⨄.⧏?&!<⪘⧣⣃+⠮⦰-┃`⚉⋪_⟋&#=@⇿~↩+⟏⭪≴⥦]"⠵)⬓+◜⚅⠩*⯵-,╂▦|⬙┺\'⥺^⭐;➸⏸◀]=∑(␆⛃⎙⋽`,♣;⛬<⚫⦄\\&"⩣(☫<!⯽␢"⚣⁽~,#*⋈^⪾⩪?>_⁘✁➥/∩]$⮹⛦'),  # 0.878 of 425
]
"""Seeded draws of 150-256 characters at 0.86-0.87 of the real count before (seed 7, 1,500 draws a family)."""


@pytest.mark.parametrize("kind, value", MEASURED)
def test_the_draws_measured_under_a_tenth_short_are_held(kind, value) -> None:
    held(value)


@pytest.mark.parametrize("kind", POOLS)
def test_seeded_draws_of_each_family_are_never_undercounted_by_more_than_a_tenth(kind) -> None:
    rng = random.Random(51)
    short = [value for value in (draw(rng, kind, rng.randint(33, 256)) for _ in range(120))
             if text_units(value) < 0.9 * UNITS_PER_TOKEN * anthropic_tokenizer.count_tokens(value)]
    assert not short, short[:2]


@pytest.mark.parametrize("kind", ["controls and symbols", "punctuation and symbols", "emoji", "ideographs",
                                  "cherokee", "combining marks", "hebrew", "arabic", "kana", "armenian and georgian"])
def test_a_hundred_thousand_characters_of_a_family_are_never_undercounted_by_more_than_a_tenth(kind) -> None:
    held(draw(random.Random(51), kind, 100_000))


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(st.one_of(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=33, max_size=256),
                 st.sampled_from(sorted(POOLS)).flatmap(
                     lambda kind: st.text(st.sampled_from("".join(POOLS[kind])), min_size=33, max_size=256))))
def test_random_text_is_never_undercounted_by_more_than_a_tenth(value) -> None:
    held(value)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.text(st.sampled_from(CONTROLS + SYMBOLS + string.punctuation + EMOJI[:200] + "\u200d ä中"), min_size=1,
               max_size=48))
def test_a_replayed_pre_token_is_the_tokenizers_count(value) -> None:
    for piece in token_bounds._vocabulary()[0].findall(unicodedata.normalize("NFKC", value)):
        data = piece.encode("utf-8")
        if not any(byte in token_bounds._CLOSED_BYTES for byte in data) and b" " not in data[1:]:
            assert token_bounds.bpe_count(data) == anthropic_tokenizer.count_tokens(piece), repr(piece)


@pytest.mark.parametrize("piece, tokens, fewest", [
    ('~)-"', 3, 2),  # ``~)``, ``-``, ``"``: no merge of the tokenizer reaches ``-"`` after ``~)``, though a token spells it
    ("&_)*~", 4, 3),
    ('#.-"⚱', 6, 5),  # the symbol's three bytes are three tokens
    ("⭝⧭⭝", 9, 9),
    ("-----", 1, 1),
    ("\x00\x01\x02", 3, 3),
])
def test_merges_are_replayed_in_their_order(piece, tokens, fewest) -> None:
    data = piece.encode("utf-8")
    assert token_bounds.bpe_count(data) == tokens == anthropic_tokenizer.count_tokens(piece)
    assert token_bounds._fewest(data, *token_bounds._vocabulary()[2:]) == fewest


def _symbols(size: int):
    value = draw(random.Random(5), "punctuation and symbols", size)
    return lambda: text_units(value)


def _bytes(size: int):
    value = random.Random(5).randbytes(size).decode("utf-8", "replace")
    return lambda: text_units(value)


@pytest.mark.parametrize("what, build, n", [
    ("one pre-token of symbols, read whole", _symbols, 8_000),
    ("random bytes read as UTF-8, read whole", _bytes, 8_000),
])
def test_reading_a_long_text_whole_grows_linearly(what, build, n) -> None:
    found = growth(what, build, n, runs=3)
    assert found.linear, str(found)
