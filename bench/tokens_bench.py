"""`make bench`: the token estimate against a real Claude tokenizer, per class of text, before and after.

"Before" is the estimate this project had until issue 15 (pi's ``ceil(chars / 4)``, CJK one token per
character), kept here for the comparison; "after" is ``pi_compact.compaction.tokens.text_tokens``. Real
counts come from anthropic-tokenizer (offline). Each class is its corpus file's two halves
(bench/token_corpus: calibration + holdout) joined; µs per KB is the best of several timed runs of one
call on that text, divided by its UTF-8 size. Writes bench/out/tokens.json as well.

    python -m bench.tokens_bench
"""

from __future__ import annotations

import json
import math
import re
import timeit
from pathlib import Path

from anthropic_tokenizer import count_tokens

from pi_compact.compaction.tokens import text_tokens

from .token_corpus import EXTRA, JUDGED, corpus

OUT = Path(__file__).resolve().parent / "out" / "tokens.json"
_CJK_RUN = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
                      r"\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f]+")


def before_tokens(text: str) -> int:
    """The estimate before issue 15, as it was in pi_compact/compaction/tokens.py."""
    cjk = 0 if text.isascii() else sum(len(run) for run in _CJK_RUN.findall(text))
    return math.ceil((len(text) - cjk) / 4) + cjk


def us_per_kb(estimate, text: str) -> float:
    runs = max(20, 200_000 // max(1, len(text)))
    best = min(timeit.repeat(lambda: estimate(text), number=runs, repeat=7)) / runs
    return best * 1e6 / (len(text.encode("utf-8")) / 1024)


def measure(name: str, text: str) -> dict:
    real = count_tokens(text)
    before, after = before_tokens(text), text_tokens(text)
    return {"class": name, "chars": len(text), "real": real, "before": before, "after": after,
            "ratio_before": before / real, "ratio_after": after / real,
            "us_per_kb_before": us_per_kb(before_tokens, text), "us_per_kb_after": us_per_kb(text_tokens, text)}


def main() -> None:
    calib, holdout = corpus("calib"), corpus("holdout")
    texts = {name: calib[name] + "\n" + holdout[name] for name in (*JUDGED, *EXTRA)}
    texts["all (joined)"] = "\n".join(texts[name] for name in JUDGED)
    rows = [measure(name, text) for name, text in texts.items()]
    print("token estimate vs anthropic-tokenizer (ratio = estimate / real; before = chars/4, CJK 1/char)")
    print(f"{'class':16} {'chars':>7} {'real':>6} {'before':>7} {'after':>6} {'ratio before':>13} "
          f"{'ratio after':>12} {'µs/KB before':>13} {'µs/KB after':>12}")
    for row in rows:
        mark = "" if row["class"] in JUDGED or row["class"].startswith("all") else "  (not judged)"
        print(f"{row['class']:16} {row['chars']:>7,} {row['real']:>6,} {row['before']:>7,} {row['after']:>6,} "
              f"{row['ratio_before']:>13.2f} {row['ratio_after']:>12.2f} {row['us_per_kb_before']:>13.2f} "
              f"{row['us_per_kb_after']:>12.2f}{mark}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
