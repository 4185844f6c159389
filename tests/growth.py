"""Growth measured at n, 2n and 4n: how the tests tell a linear path from a super-linear one without a timing
assertion on any single run.

Each size is timed in CPU time of this process, as the best of several runs (other processes on a shared
machine add wall time to a run that was preempted, not CPU time; what load still adds, cache misses, only ever
adds, so the best run is the truest), and the verdict is on the ratio t(4n) / t(n): about 4 for a linear path, 16 for a quadratic
one, 64 for a cubic one. The threshold sits far from both (:data:`LIMIT`), and a path that stays under
:data:`FLOOR` at 4n is fast whatever its shape at that size (the ratio of two tiny times is noise).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass

from pi_compact.compaction import tokens

LIMIT = 10.0
"""t(4n) / t(n) above this is super-linear (linear: 4, n log n: ~5, quadratic: 16)."""
FLOOR_S = 0.004
"""Below this at 4n a path is fast enough whatever its ratio."""
RUNS = 5


@dataclass(frozen=True)
class Growth:
    what: str
    sizes: tuple[int, int, int]
    seconds: tuple[float, float, float]
    floor: float = FLOOR_S

    @property
    def ratio(self) -> float:
        return self.seconds[2] / max(self.seconds[0], 1e-6)

    @property
    def linear(self) -> bool:
        return self.seconds[2] < self.floor or self.ratio <= LIMIT

    def __str__(self) -> str:
        times = ", ".join(f"n={n:,}: {s * 1000:.1f} ms" for n, s in zip(self.sizes, self.seconds))
        return f"{self.what}: {times} (t(4n)/t(n) = {self.ratio:.1f})"


def _forget_weights() -> None:
    """Each run weighs its texts anew: the estimator keeps each text's weight (``tokens.text_units``), so a second
    run would time a lookup, and a size whose text was kept earlier would time nothing at all."""
    tokens._KNOWN.clear()
    tokens._KNOWN_CHARS[0] = 0


def best_time(call: Callable[[], object], runs: int = RUNS) -> float:
    """The best of ``runs`` calls, with the garbage collector off (its passes land at random sizes)."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            _forget_weights()
            started = time.process_time()
            call()
            best = min(best, time.process_time() - started)
    finally:
        if enabled:
            gc.enable()
    return best


def growth(what: str, build: Callable[[int], Callable[[], object]], n: int, runs: int = RUNS,
           floor: float = FLOOR_S) -> Growth:
    """Time ``build(size)()`` at n, 2n and 4n (``build`` makes the input outside the timing).

    When 4n is super-linear on the first try, it is measured once more from scratch: a burst of load on the
    machine during the large runs must not fail a linear path.
    """
    sizes = (n, 2 * n, 4 * n)
    calls = [build(size) for size in sizes]
    seconds = tuple(best_time(call, runs) for call in calls)
    found = Growth(what, sizes, seconds, floor)  # type: ignore[arg-type]
    if not found.linear:
        again = (seconds[0], seconds[1], min(seconds[2], best_time(calls[2], runs)))
        found = Growth(what, sizes, again, floor)
    return found
