"""Text helpers the offline summarizer's modules share: sentences, one line, a cut at a word that never splits a
backticked value."""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def one_line(text: str) -> str:
    return " ".join(text.split())


def clip_words(text: str, limit: int) -> str:
    """``text`` on one line, cut at a word boundary to at most ``limit`` characters (``…`` marks the cut), never
    inside a backticked value (``DEV_MODE=true npm run dev`` is kept whole or left out whole)."""
    text = one_line(text)
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if "`" not in cut:
        return (cut.rsplit(" ", 1)[0] if " " in cut[limit // 2 :] else cut) + "…"
    inside, space, opened = False, -1, -1  # the last space outside a span, and where the open span starts
    for position, char in enumerate(cut):
        if char == "`":
            inside, opened = not inside, position
        elif char == " " and not inside:
            space = position
    if space >= limit // 2 or (space > 0 and inside):
        return cut[:space] + "…"
    if inside:
        before = cut[:opened].rstrip()
        # one value longer than the limit: say it is cut, keep the quote closed
        return before + "…" if before else cut[: limit - 2] + "…`"
    return cut + "…"


__all__ = ["clip_words", "one_line", "sentences"]
