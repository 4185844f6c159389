"""Filler text for tests that need a message of some size."""

from __future__ import annotations

_WORDS = ("word", "more", "text", "line", "note", "item", "part")


def prose(words: int) -> str:
    """``words`` words and a space after each, about a token per word (estimated and counted by a real tokenizer
    alike), in no period of eight characters or fewer: a word repeated (``"word " * 400``) is priced as a repeat
    of a short group, several times its real count (compaction/token_bounds.py)."""
    return "".join(_WORDS[i * i % 7] + " " for i in range(words))
