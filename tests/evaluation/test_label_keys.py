"""A label's key found in a summary (quality.LabelItem.hits): a whole word in scripts that space their words, at any
edge next to kana, Han or Hangul, which write words and particles unspaced ("倍速会議は", "원인은", "Resendの")."""

from __future__ import annotations

import pytest

from pi_compact.evaluation.quality import LabelItem


@pytest.mark.parametrize(("key", "text"), [
    ("倍速会議", "倍速会議は完了しました"),
    ("Resend", "ResendのAPIを使う"),
    ("원인", "원인은 초기화 순서입니다"),
    ("push完了", "mainへのpush完了。"),
    ("cache", "the cache."),
    ("parse_line()", "calls parse_line() first"),
])
def test_a_key_is_found_whole(key, text) -> None:
    assert LabelItem("", (key,)).hits(text) == 1


@pytest.mark.parametrize(("key", "text"), [
    ("cache", "cached value"),
    ("parse", "reparse it"),
    ("WP1", "WP14 done"),
])
def test_a_key_inside_a_longer_word_of_a_spaced_script_is_not(key, text) -> None:
    assert LabelItem("", (key,)).hits(text) == 0
