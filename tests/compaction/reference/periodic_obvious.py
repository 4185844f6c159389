"""The periodic bound of token_bounds.py written the obvious way, one code unit at a time in plain Python: the
oracle :func:`pi_compact.compaction.token_bounds.periodic_units` must equal exactly. It shares with the fast one
only what defines the bound (how a code unit becomes a code, the constants, the rare pairs and triples), never
how it is counted. Slow: for tests only."""

from __future__ import annotations

from pi_compact.compaction import token_bounds as spec

from . import token_bounds_before as before

UNIT = spec.UNITS_PER_TOKEN


def code(unit: int) -> int:
    """A code unit's code: ASCII as itself, any other 128 | (its low byte ^ the scrambled high byte)."""
    if unit < 128:
        return unit
    return 128 | ((unit & 0xFF) ^ ((unit >> 8) * 37 + 11) % 128)


def group_units(group: list[int]) -> int:
    if any(unit >= 128 for unit in group):
        return spec.WIDE_PERIODIC_UNITS
    text = "".join(map(chr, group))
    for part in range(1, len(text) + 1):  # the shortest group it repeats
        if len(text) % part == 0 and text[:part] * (len(text) // part) == text:
            text = text[:part]
            break
    if text.isdigit():
        return 0
    cyclic = text + text[:2]
    size = len(text)
    pairs = sum(cyclic[i : i + 2] in spec._rare_pair_set() for i in range(size))
    triples = sum(cyclic[i : i + 3] in spec._rare_triple_set() for i in range(size))
    least = spec.PERIODIC_UNITS if size < 3 else spec.LONG_GROUP_UNITS
    return max(least, (pairs * UNIT + triples * spec.TRIPLE_UNITS) // size)


def periodic_units(text: str) -> int:
    raw = text.encode("utf-16-be", "surrogatepass")
    units = [raw[i] << 8 | raw[i + 1] for i in range(0, len(raw), 2)]
    codes = [code(unit) for unit in units]
    size = len(codes)
    if size < 3:
        return 0
    best = 0
    for period in range(1, min(spec.MAX_PERIOD, size // 2) + 1):
        shortest = max(2, period)
        runs = []  # (start, end) of each maximal run of positions that repeat the one a period before
        start = None
        for i in range(period, size + 1):
            repeats = i < size and codes[i] == codes[i - period] and chr(codes[i]) not in " \t"
            if repeats and start is None:
                start = i
            elif not repeats and start is not None:
                runs.append((start, i))
                start = None
        found = sum((end - start) // shortest for start, end in runs)
        if found * shortest >= spec.PERIODIC_MIN:
            cost = sum((end - start) * group_units(units[end - period : end])
                        for start, end in runs if end - start >= shortest)
        else:
            cost = found * UNIT
        best = max(best, cost)
    changes = sum({codes[i - 1], codes[i]} == {ord(" "), ord("\t")} for i in range(1, size))
    return best + changes * UNIT


def bound_units(text: str, latin: bytes, size: int) -> int:
    """The bounds as token_bounds.py takes them: the frozen ones, or the run bound with the periodic bound above
    (for a text of more than half the first characters the ends inside runs are read in) where that is more."""
    units = before.bound_units(text, latin, size)
    if size <= spec.SHORT_TOKENS or len(text) <= spec.PREFIX_CHARS // 2:
        return units
    return max(units, before.run_units(latin) + periodic_units(text) + spec.MARGIN * UNIT)
