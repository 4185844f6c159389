"""Adversarial inputs for a regular expression, built from its own pieces, and a child process that runs them.

A pattern backtracks catastrophically (or turns quadratic) on long runs of what it almost matches: its literal
runs repeated, one of them followed by a long run of a character it accepts, and so on. Those inputs are
built from the parsed pattern, 200,000 characters each, and the pattern is run over every one of them with
``finditer`` (every start position, as ``sub``, ``search`` and ``findall`` try them). Linear patterns take
milliseconds per input; a quadratic one takes minutes to hours, so the caller's generous timeout tells them apart.

Run as a script (``regex_attacks.py [anchored]``), it reads a pickled list of compiled patterns on stdin and
runs them all.
"""

from __future__ import annotations

import pickle
import re
import sys
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]

SIZE = 200_000
"""Characters per input: a linear pattern takes milliseconds per input, a quadratic one minutes to hours."""

GENERIC = " \n-\"\\a_=:/.A0\t"
"""Characters worth repeating whatever the pattern: separators, quotes, escapes, word characters."""

_CATEGORY_SAMPLES = {
    sre.CATEGORY_DIGIT: "0", sre.CATEGORY_NOT_DIGIT: "a", sre.CATEGORY_SPACE: " ", sre.CATEGORY_NOT_SPACE: "a",
    sre.CATEGORY_WORD: "a", sre.CATEGORY_NOT_WORD: "-", sre.CATEGORY_LINEBREAK: "\n",
    sre.CATEGORY_NOT_LINEBREAK: "a",
}
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def pieces(pattern: re.Pattern) -> tuple[list[str], list[str]]:
    """The pattern's literal runs (``"-----BEGIN "``, ``"://"``) and a character or two of each set it uses."""
    literals: list[str] = []
    chars: list[str] = []

    def walk(items) -> None:
        run: list[str] = []
        for op, value in items:
            if op is sre.LITERAL:
                run.append(chr(value))
                continue
            if run:
                literals.append("".join(run))
                run = []
            if op is sre.IN:
                chars.extend(_set_samples(value))
            elif op is sre.NOT_LITERAL:
                chars.extend(("a", chr(value)))
            elif op in _REPEATS:
                walk(value[2])
            elif op is sre.SUBPATTERN:
                walk(value[3])
            elif op is sre.BRANCH:
                for branch in value[1]:
                    walk(branch)
            elif op in (sre.ASSERT, sre.ASSERT_NOT):
                walk(value[1])
            elif op is sre.ATOMIC_GROUP:
                walk(value)
            elif op is sre.GROUPREF_EXISTS:
                walk(value[1])
                if value[2]:
                    walk(value[2])
        if run:
            literals.append("".join(run))

    walk(_parser.parse(pattern.pattern, pattern.flags))
    return _unique(literals), _unique(chars)


def _set_samples(items) -> list[str]:
    samples = []
    for op, value in items:
        if op is sre.LITERAL:
            samples.append(chr(value))
        elif op is sre.RANGE:
            samples += [chr(value[0]), chr(value[1])]
        elif op is sre.CATEGORY:
            samples.append(_CATEGORY_SAMPLES.get(value, "a"))
    return samples[:4]


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(item for item in items if item))


def attacks(pattern: re.Pattern, size: int = SIZE):
    """The adversarial inputs for ``pattern`` (``bytes`` for a bytes pattern), one at a time."""
    literals, chars = pieces(pattern)
    atoms = _unique(literals[:8] + chars[:8] + list(GENERIC))
    fillers = _unique(chars[:2] + ["a", " ", "\n"])[:3]
    literals = literals[:6]
    for atom in atoms:
        yield _encoded(pattern, _repeat(atom, size))
    for literal in literals:
        for filler in fillers:
            yield _encoded(pattern, _repeat(literal + filler, size))  # almost-matches, over and over
            yield _encoded(pattern, literal + filler * (size - len(literal)))  # one start, a long run after it


def _repeat(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


def _encoded(pattern: re.Pattern, text: str):
    if isinstance(pattern.pattern, bytes):
        return text.encode("utf-8", "surrogatepass")
    return text


def run_all(patterns: list[re.Pattern], *, anchored: bool = False, size: int = SIZE) -> int:
    """Run every pattern over every one of its inputs; the number of inputs run.

    ``anchored``: the pattern is only ever used with ``match``/``fullmatch``, at one position.
    """
    count = 0
    for pattern in patterns:
        for text in attacks(pattern, size):
            if anchored:
                pattern.match(text)
                pattern.fullmatch(text)
            else:
                for _ in pattern.finditer(text):
                    pass
            count += 1
    return count


if __name__ == "__main__":
    print(run_all(pickle.load(sys.stdin.buffer), anchored=sys.argv[1:] == ["anchored"]))
