"""Adversarial inputs for a regular expression, generated from its own parse tree, and their growth measured.

A pattern turns super-linear where a repetition can be entered, or left, in many ways over text it almost
matches. So for every repetition in the pattern (found with ``re._parser``) the inputs are built from the
pattern's pieces: a *prefix* that matches everything before the repetition, a *unit* the repetition accepts
(each character its class accepts among the pattern's own literals, its class samples and a few generic
separators, or a sample of its body), and a *near miss* after it (a character that ends the match):

* ``prefix + unit * k + miss`` — one start, one long run that the rest of the pattern retries at every cut;
* ``(prefix + unit + miss) * k`` and ``(prefix + unit) * k`` — many starts, each running to the end.

Each input is timed at ``k`` and ``4k`` units (as the code uses the pattern: ``finditer`` over the text, or one
``match`` for a pattern only ever used with ``match``/``fullmatch``); an input whose time at ``4k`` is above a
floor is then measured properly (best of several runs at n, 2n, 4n, tests/growth.py): t(4n)/t(n) is about 4
for a linear pattern, 16 for a quadratic and 64 for a cubic one.

Run as a script (``regex_attacks.py``), it reads pickled ``(key, pattern, anchored)`` triples on stdin and
prints one JSON list of the super-linear findings.
"""

from __future__ import annotations

import itertools
import json
import pickle
import re
import sys
import time
from pathlib import Path
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.growth import growth  # noqa: E402

GENERIC = " \n-\"'\\a_=:/.A0\t#*<>,;|&@!(){}[]"
"""Separators, quotes, escapes and word characters worth trying in any repetition."""
MISSES = ("", "!", "a", "\n", "\x00")
UNITS_PER_INPUT = 100
"""k of the quick pass (and the n of the growth measurement): 4k is a few hundred characters."""
FLOOR_S = 0.0003
"""A linear pattern over a few hundred characters takes microseconds, a quadratic one a millisecond or more:
below this at 4k an input is not measured, and a growth whose 4n stays below it is not super-linear."""
QUICK_RATIO = 6.0
"""On the first look (one run each), t(4k) / t(k) below this is linear enough not to be measured closely."""
CONFIRM_SCALE = 10
"""A finding near the floor is measured again at this many times k (see :func:`_confirmed`)."""
CONFIRM_BELOW_S = 10 * FLOOR_S
"""A finding whose t(4k) is under this is near the floor, where load alone can make the ratio large."""
STEP_CLEARANCE = 4
"""A finding still standing is measured from this many times the pattern's largest finite bound (see
:func:`_confirmed`)."""
MAX_STEP_UNITS = 20_000
"""Above this the step is not measured (a quadratic pattern would take minutes there); none of ours comes near."""
MAX_UNITS = 8
MAX_REPEATS = 10

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_CATEGORIES = {
    sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_NOT_DIGIT: r"\D", sre.CATEGORY_SPACE: r"\s",
    sre.CATEGORY_NOT_SPACE: r"\S", sre.CATEGORY_WORD: r"\w", sre.CATEGORY_NOT_WORD: r"\W",
    sre.CATEGORY_LINEBREAK: r"\n", sre.CATEGORY_NOT_LINEBREAK: r"[^\n]",
}


# -- the pattern's pieces -------------------------------------------------------------------------------------


def _class_source(op, value) -> str | None:
    """A one-character node as pattern source (to ask which characters it accepts), or ``None``."""
    if op is sre.LITERAL:
        return re.escape(chr(value))
    if op is sre.NOT_LITERAL:
        return f"[^{re.escape(chr(value))}]"
    if op is sre.ANY:
        return "."
    if op is sre.IN:
        parts, negate = [], False
        for item_op, item in value:
            if item_op is sre.NEGATE:
                negate = True
            elif item_op is sre.LITERAL:
                parts.append(re.escape(chr(item)))
            elif item_op is sre.RANGE:
                parts.append(f"{re.escape(chr(item[0]))}-{re.escape(chr(item[1]))}")
            elif item_op is sre.CATEGORY:
                parts.append(_CATEGORIES.get(item, r"\w"))
        return f"[{'^' if negate else ''}{''.join(parts)}]" if parts else None
    return None


class Pieces:
    """What a pattern is made of: its literal characters, and per repetition a prefix, units and near misses."""

    def __init__(self, pattern: re.Pattern) -> None:
        self.flags = pattern.flags & ~re.UNICODE if isinstance(pattern.pattern, str) else pattern.flags
        self.is_bytes = isinstance(pattern.pattern, bytes)
        source = pattern.pattern.decode("latin-1") if self.is_bytes else pattern.pattern
        tree = _parser.parse(source, pattern.flags & ~re.LOCALE if not self.is_bytes else 0)
        self.literals = sorted({chr(v) for op, v in self._nodes(tree) if op is sre.LITERAL})
        self.candidates = list(dict.fromkeys(self.literals + list(GENERIC) + ["é", "中", "0"]))
        self.repeats: list[tuple[str, list[str], str]] = []  # (prefix, units, rest sample)
        self._walk(list(tree), "", "")

    def _nodes(self, items):
        for op, value in items:
            yield op, value
            for child in self._children(op, value):
                yield from self._nodes(child)

    @staticmethod
    def _children(op, value) -> list:
        if op in _REPEATS:
            return [value[2]]
        if op is sre.SUBPATTERN:
            return [value[3]]
        if op is sre.ATOMIC_GROUP:
            return [value]
        if op is sre.BRANCH:
            return list(value[1])
        if op is sre.GROUPREF_EXISTS:
            return [value[1]] + ([value[2]] if value[2] else [])
        return []

    def accepts(self, op, value) -> list[str]:
        source = _class_source(op, value)
        if source is None:
            return []
        compiled = re.compile(source, self.flags & (re.IGNORECASE | re.DOTALL))
        return [char for char in self.candidates if compiled.fullmatch(char)]

    def sample(self, items) -> str:
        """A short string the sequence ``items`` matches (lookarounds and anchors match empty)."""
        out = []
        for op, value in items:
            single = self.accepts(op, value)
            if single or _class_source(op, value) is not None:
                out.append(single[0] if single else "a")
            elif op in _REPEATS:
                out.append(self.sample(value[2]) * max(value[0], 1 if value[1] else 0))
            elif op is sre.SUBPATTERN:
                out.append(self.sample(value[3]))
            elif op is sre.ATOMIC_GROUP:
                out.append(self.sample(value))
            elif op is sre.BRANCH:
                out.append(self.sample(value[1][0]))
        return "".join(out)

    def _walk(self, items: list, before: str, after: str) -> None:
        for index, (op, value) in enumerate(items):
            prefix = before + self.sample(items[:index])
            rest = self.sample(items[index + 1 :]) + after
            if op in _REPEATS and (value[1] is sre.MAXREPEAT or value[1] > MAX_REPEATS):
                body = value[2]
                units = self.accepts(*body[0]) if len(body) == 1 else []
                units = list(dict.fromkeys(units[:MAX_UNITS] + [self.sample(body) or "a"]))
                self.repeats.append((prefix, units, rest))
            if op in (sre.ASSERT, sre.ASSERT_NOT):
                continue
            for child in self._children(op, value):
                self._walk(list(child), prefix, rest)


def inputs(pattern: re.Pattern, units: int):
    """``(label, text)`` for every adversarial input of ``pattern`` with ``units`` repetitions of its unit."""
    pieces = Pieces(pattern)
    misses = list(dict.fromkeys(MISSES))
    seen = set()
    for prefix, unit_list, rest in pieces.repeats:
        near = list(dict.fromkeys(misses + [rest[:-1]] if rest else misses))
        for unit, miss in itertools.product(unit_list, near):
            for label, text in ((f"{prefix!r}+{unit!r}*k+{miss!r}", prefix + unit * units + miss),
                                (f"({prefix!r}+{unit!r}+{miss!r})*k", (prefix + unit + miss) * units),
                                (f"({prefix!r}+{unit!r})*k", (prefix + unit) * units)):
                if text not in seen:
                    seen.add(text)
                    yield label, (text.encode("utf-8", "surrogatepass") if pieces.is_bytes else text)


def _runner(pattern: re.Pattern, anchored: bool):
    if anchored:
        return lambda text: (pattern.match(text), pattern.fullmatch(text))
    return lambda text: sum(1 for _ in pattern.finditer(text))


def _seconds(run, text) -> float:
    started = time.process_time()
    run(text)
    return time.process_time() - started


def super_linear(key: str, pattern: re.Pattern, anchored: bool) -> list[str]:
    """The first input on which ``pattern`` grows faster than linearly, described with its figures (or none)."""
    run = _runner(pattern, anchored)
    sizes = (UNITS_PER_INPUT, 2 * UNITS_PER_INPUT, 4 * UNITS_PER_INPUT)
    texts = {size: dict(inputs(pattern, size)) for size in sizes}
    scaled = _Scaled(pattern)
    for label, large in texts[sizes[2]].items():
        if label not in texts[sizes[0]] or label not in texts[sizes[1]]:
            continue
        slow = _seconds(run, large)
        if slow < QUICK_RATIO * _seconds(run, texts[sizes[0]][label]):
            continue  # growing like a linear pattern on a first, rough look
        if slow < FLOOR_S:
            if not scaled.grows(label, run):
                continue  # fast, and still fast at CONFIRM_SCALE times the size
            measured = _confirmed(key, label, pattern, run)
        else:
            measured = growth(f"{key} on {label}", lambda size, label=label: (lambda: run(texts[size][label])),
                              UNITS_PER_INPUT, runs=3, floor=FLOOR_S)
            if not measured.linear and measured.seconds[2] < CONFIRM_BELOW_S:
                measured = _confirmed(key, label, pattern, run)
        if not measured.linear:
            return [str(measured)]  # one input proves it; measuring the others would take minutes
    return []


class _Scaled:
    """The quick look again at :data:`CONFIRM_SCALE` times the size, for an input under the floor: a quadratic
    pattern over a few hundred characters can take less than the floor (``[ \\t]*\\{`` over 400 tabs: 0.2–0.4 ms
    depending on the machine), so the floor alone let it pass one run in three; ten times longer it takes 100
    times as long, far above the floor, while a linear one stays under it."""

    def __init__(self, pattern: re.Pattern) -> None:
        self.pattern, self.texts = pattern, None

    def grows(self, label: str, run) -> bool:
        if self.texts is None:
            n = UNITS_PER_INPUT * CONFIRM_SCALE
            self.texts = {size: dict(inputs(self.pattern, size)) for size in (n, 4 * n)}
        small, large = (texts.get(label) for texts in self.texts.values())
        if small is None or large is None:
            return False
        slow = _seconds(run, large)
        return slow >= FLOOR_S and slow >= QUICK_RATIO * _seconds(run, small)


def _confirmed(key: str, label: str, pattern: re.Pattern, run):
    """The growth of one input measured again at :data:`CONFIRM_SCALE` times the size: at a few hundred
    characters a linear pattern takes microseconds and a burst of load can make t(4n)/t(n) look like 100, while
    a pattern that is really super-linear only grows more clearly at the larger size (a quadratic one of 0.3 ms
    at 4n takes 30 ms there).

    Where that growth starts from next to nothing (under the floor at n), it is measured once more at four times
    the size: a bounded repetition (``[…]{1,2000}``) whose bound lies between n and 4n makes a step there, not a
    growth, and beyond its bound the pattern is linear again; a quadratic one stays quadratic."""
    measured = None
    for scale in (CONFIRM_SCALE, 4 * CONFIRM_SCALE):
        measured = _measured(key, label, pattern, run, UNITS_PER_INPUT * scale)
        if measured.linear or measured.seconds[0] >= FLOOR_S:
            break
    bound = largest_bound(pattern)
    if not measured.linear and measured.sizes[0] < STEP_CLEARANCE * bound <= MAX_STEP_UNITS:
        # Just past a bound the work grows with n - bound, not n: at n = 2 × bound, t(4n)/t(n) is
        # (4n - bound) / (n - bound) = 7, near the limit, and load pushed it over (CI: 11.9 on
        # facts._IDENTIFIER at 4,000 slashes against its {1,2000}; 10.1 again at exactly n = 2 × bound, which
        # a strict "below 2 × bound" let through). Anywhere short of STEP_CLEARANCE × bound the step still
        # weighs; from there on its share leaves a linear pattern at most 5, while a quadratic one shows 16.
        measured = _measured(key, label, pattern, run, STEP_CLEARANCE * bound)
    return measured


def _measured(key: str, label: str, pattern: re.Pattern, run, n: int):
    texts = {size: dict(inputs(pattern, size)) for size in (n, 2 * n, 4 * n)}
    return growth(f"{key} on {label}", lambda size: (lambda: run(texts[size][label])), n, runs=3, floor=FLOOR_S)


def largest_bound(pattern: re.Pattern) -> int:
    """The largest finite upper bound of a repetition in ``pattern`` (``{1,2000}`` → 2000), 0 if none."""
    pieces = Pieces(pattern)
    source = pattern.pattern.decode("latin-1") if pieces.is_bytes else pattern.pattern
    tree = _parser.parse(source, pattern.flags & ~re.LOCALE if not pieces.is_bytes else 0)
    bounds = [value[1] for op, value in pieces._nodes(tree) if op in _REPEATS and value[1] is not sre.MAXREPEAT]
    return max(bounds, default=0)

if __name__ == "__main__":
    findings = []
    for key, pattern, anchored in pickle.load(sys.stdin.buffer):
        findings += super_linear(key, pattern, anchored)
    print(json.dumps(findings))
