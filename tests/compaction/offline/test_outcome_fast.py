"""The fast paths over long tool output answer as the plain line-by-line readings do, on any text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction.offline import details, outcome
from pi_compact.compaction.offline.outcome import ERROR_LINE_LIMIT, last_line, without_hook_notes

PIECES = ["\n", "\r\n", "\r", "\x0b", "\u2028", "\x85", " ", "\t", "error: x", "ok", "[hook] saved 3 tokens",
          "PostToolUse:Edit hook succeeded: fine", "<system-reminder>", "</system-reminder>", "[plugin:y] note",
          "\U0001F4A1 context 40% used", "\u2705 done", "Hook", "a" * 5_000, "x.y", "[rules] keep"]
texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join) | st.text(max_size=300)


def plain_last_line(text: str) -> str:
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()[:ERROR_LINE_LIMIT]
    return ""


def plain_without_hook_notes(text: str) -> str:
    kept, inside, dropped = [], False, False
    for line in text.splitlines():
        stripped = line.strip()
        if inside or stripped.startswith("<system-reminder>"):
            inside, dropped = "</system-reminder>" not in stripped, True
        elif (len(stripped) < outcome._NOTE_CHARS and outcome._HOOK_LINE.match(stripped)
              and not outcome._ERROR_WORD.search(stripped)):
            dropped = True
        else:
            kept.append(line)
    return "\n".join(kept) if dropped else text


def plain_named(word: str) -> bool:
    if any(mark in word for mark in "/_#=@") or any(char.isdigit() for char in word):
        return True
    if "." in word.strip("."):
        return True
    return any(a.islower() and b.isupper() for a, b in zip(word, word[1:]))


@settings(max_examples=400)
@given(texts)
def test_the_last_line_read_from_the_tail_is_the_last_line(text) -> None:
    assert last_line(text) == plain_last_line(text)


def test_the_last_line_is_found_behind_any_length_of_blank_lines() -> None:
    for blank in (0, 4_095, 4_096, 4_097, 70_000):
        text = "first\n" + "x" * 9_000 + "\n" + " \n" * blank
        assert last_line(text) == plain_last_line(text)


@settings(max_examples=400)
@given(texts)
def test_hook_notes_are_dropped_as_line_by_line(text) -> None:
    assert without_hook_notes(text) == plain_without_hook_notes(text)


@settings(max_examples=400)
@given(st.text(alphabet="ab.AB/_1é²Ω -#", max_size=12) | st.text(max_size=12))
def test_a_named_word_is_told_as_before(word) -> None:
    assert details._named(word) == plain_named(word)
