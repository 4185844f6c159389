"""`make bench`: the token estimate against a real Claude tokenizer, per class of text, before and after.

"Before" is the estimate this project had until issue 15 (pi's ``ceil(chars / 4)``, CJK one token per
character), kept here for the comparison; "after" is ``pi_compact.compaction.tokens.text_tokens``. Real
counts come from anthropic-tokenizer (offline). Each class is its corpus file's two halves
(bench/token_corpus: calibration + holdout) joined; µs per KB is the best of several timed runs of one call
on that text (before and after interleaved), divided by its UTF-8 size. The last rows are whole bundled
sessions: every message estimated (``estimate_tokens``, so the walk over the message dicts is in the time)
against the real count of the strings it reads. Writes bench/out/tokens.json as well.

    python -m bench.tokens_bench
"""

from __future__ import annotations

import json
import math
import re
import timeit
from contextlib import contextmanager
from pathlib import Path

from anthropic_tokenizer import count_tokens

from pi_compact.compaction import tokens
from pi_compact.compaction.tokens import estimate_tokens, text_tokens
from sessions_fixtures import LARGE_SESSION, REALISTIC

from .token_corpus import EXTRA, JUDGED, corpus

OUT = Path(__file__).resolve().parent / "out" / "tokens.json"
_CJK_RUN = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
                      r"\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f]+")


def before_tokens(text: str) -> int:
    """The estimate before issue 15, as it was in pi_compact/compaction/tokens.py."""
    cjk = 0 if text.isascii() else sum(len(run) for run in _CJK_RUN.findall(text))
    return math.ceil((len(text) - cjk) / 4) + cjk


def _before_units(text: str) -> int:
    cjk = 0 if text.isascii() else sum(len(run) for run in _CJK_RUN.findall(text))
    return (len(text) - cjk) * tokens.UNITS_PER_TOKEN // 4 + cjk * tokens.UNITS_PER_TOKEN


def best_seconds(before, after, runs: int) -> tuple[float, float]:
    """Best time of one call of each, their runs interleaved so that load on the machine hits both alike."""
    best = [math.inf, math.inf]
    for _ in range(9):
        for side, call in enumerate((before, after)):
            best[side] = min(best[side], timeit.timeit(call, number=runs) / runs)
    return best[0], best[1]


def measure(name: str, text: str) -> dict:
    real = count_tokens(text)
    before, after = before_tokens(text), text_tokens(text)
    kb = len(text.encode("utf-8")) / 1024
    seconds = best_seconds(lambda: before_tokens(text), lambda: text_tokens(text), max(20, 200_000 // len(text)))
    return {"class": name, "chars": len(text), "real": real, "before": before, "after": after,
            "ratio_before": before / real, "ratio_after": after / real,
            "us_per_kb_before": seconds[0] * 1e6 / kb, "us_per_kb_after": seconds[1] * 1e6 / kb}


@contextmanager
def _text_units(replacement):
    """Every message estimate reads its strings through ``tokens.text_units``: swap it for a while."""
    kept = tokens.text_units
    tokens.text_units = replacement
    try:
        yield
    finally:
        tokens.text_units = kept


def session_row(name: str, path: Path) -> dict:
    """A whole session file's messages: every string the estimate reads, counted for real and estimated."""
    messages = [entry["message"] for entry in map(json.loads, path.read_text("utf-8").splitlines())
                if entry.get("type") == "message"]
    read: list[str] = []
    with _text_units(lambda text: read.append(text) or 0):
        sum(map(estimate_tokens, messages))
    size_kb = sum(len(text.encode("utf-8")) for text in read) / 1024

    def estimate_before() -> int:
        with _text_units(_before_units):
            return sum(map(estimate_tokens, messages))

    def estimate_after() -> int:
        return sum(map(estimate_tokens, messages))

    before, after = estimate_before(), estimate_after()
    us_before, us_after = (seconds * 1e6 / size_kb for seconds in best_seconds(estimate_before, estimate_after, 3))
    real = sum(map(count_tokens, read))
    return {"class": name, "chars": sum(map(len, read)), "real": real, "before": before, "after": after,
            "ratio_before": before / real, "ratio_after": after / real,
            "us_per_kb_before": us_before, "us_per_kb_after": us_after}


def main() -> None:
    calib, holdout = corpus("calib"), corpus("holdout")
    texts = {name: calib[name] + "\n" + holdout[name] for name in (*JUDGED, *EXTRA)}
    texts["all (joined)"] = "\n".join(texts[name] for name in JUDGED)
    rows = [measure(name, text) for name, text in texts.items()]
    rows += [session_row(f"session {path.stem.split('.')[0]}", path) for path in (REALISTIC, LARGE_SESSION)]
    print("token estimate vs anthropic-tokenizer (ratio = estimate / real; before = chars/4, CJK 1/char)")
    print(f"{'class':16} {'chars':>7} {'real':>6} {'before':>7} {'after':>6} {'ratio before':>13} "
          f"{'ratio after':>12} {'µs/KB before':>13} {'µs/KB after':>12}")
    for row in rows:
        mark = "  (not judged)" if row["class"] in EXTRA else ""
        print(f"{row['class']:16} {row['chars']:>7,} {row['real']:>6,} {row['before']:>7,} {row['after']:>6,} "
              f"{row['ratio_before']:>13.2f} {row['ratio_after']:>12.2f} {row['us_per_kb_before']:>13.2f} "
              f"{row['us_per_kb_after']:>12.2f}{mark}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
