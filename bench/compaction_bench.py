"""Compaction benchmark: the cost of the cheap stages on a huge session, and what each strategy saves.

``python -m bench.compaction_bench`` prints (1) the time of prepare + prune + offline summary on the 100k-entry
generated session (``bench/data``, made by ``bench.generate``), and (2) for pi's real sessions, the tokens of
the region to summarize and of what each strategy turns it into, plus the whole pipeline at 32k and 128k.
All token figures are estimates.
"""

from __future__ import annotations

import time
from pathlib import Path

from pi_compact import Session
from pi_compact.compaction import CompactionSettings, compact, prepare_compaction
from pi_compact.compaction.offline import OfflineSummarizer
from pi_compact.compaction.prune import condense
from pi_compact.compaction.summarizer import SummaryRequest
from pi_compact.compaction.tokens import estimate_tokens, text_tokens
from sessions_fixtures import PI_DIR

PROJECT = Path(__file__).resolve().parents[1]
FIXTURES = PI_DIR


def _stages(path: list[dict], settings: CompactionSettings) -> dict:
    started = time.process_time()
    prep = prepare_compaction(path, settings)
    prepared = time.process_time()
    region = list(prep.summarized_messages)
    pruned = condense(region)
    pruned_at = time.process_time()
    request = SummaryRequest("", "", settings.summary_budget(sum(map(estimate_tokens, region))), messages=tuple(region),
                             previous_summary=prep.previous_summary)
    offline = OfflineSummarizer().summarize(request).text
    done = time.process_time()
    return {
        "messages": len(region),
        "region_tokens": sum(map(estimate_tokens, region)),
        "prune_tokens": text_tokens(pruned),
        "offline_tokens": text_tokens(offline),
        "prepare_s": prepared - started,
        "prune_s": pruned_at - prepared,
        "offline_s": done - pruned_at,
    }


def huge_session() -> None:
    from bench import generate

    path = generate.ensure("100k", PROJECT / "bench" / "data")
    with Session.open(path) as session:
        branch = session.branch()
        stages = _stages(branch, CompactionSettings())
    total = stages["prepare_s"] + stages["prune_s"] + stages["offline_s"]
    print(f"100k-entry session ({len(branch):,} entries on the path, {stages['messages']:,} messages to summarize):")
    print(f"  prepare {stages['prepare_s']:.2f} s + prune {stages['prune_s']:.2f} s + offline {stages['offline_s']:.2f} s"
          f" = {total:.2f} s CPU")


def strategies() -> None:
    print("\npi's real sessions: tokens of the region to summarize, and what each strategy makes of it")
    print(f"{'session':30} {'region':>9} {'prune':>8} {'offline':>8}   pipeline at 32k / 128k (before → after, strategy)")
    for fixture in sorted(FIXTURES.glob("*.jsonl")):
        with Session.open(fixture) as session:
            stages = _stages(session.branch(), CompactionSettings())
            runs = []
            for window in (32_000, 128_000):
                settings = CompactionSettings(reserve_tokens=min(16384, window // 4),
                                              keep_recent_tokens=min(20000, window // 8))
                result = compact(session, window=window, settings=settings, dry_run=True)
                runs.append(f"{result.tokens_before:,} → {result.tokens_after:,} {result.strategy}")
        region = stages["region_tokens"]
        print(f"{fixture.name:30} {region:>9,} {stages['prune_tokens']:>8,} {stages['offline_tokens']:>8,}   " + " / ".join(runs))
        print(f"{'':30} {'':>9} {stages['prune_tokens'] / region:>8.1%} {stages['offline_tokens'] / region:>8.1%}")


def main() -> bool:
    huge_session()
    strategies()
    return True


if __name__ == "__main__":
    main()
