"""The summary quality benchmark: is the state a compaction summary reports the true state?

``python -m bench.quality_bench`` prints two tables and writes both to ``bench/out/quality.json``:

1. **Hand-labelled regions** (``sessions_fixtures/labels``): pi's two real compaction cuts in
   ``before-compaction`` and the first half of ``large-session``, each summarized by pi-compact's default
   (offline) pipeline at exactly that cut, the second ``before-compaction`` summary updating the first as pi's
   did; Claude's own summaries of the same cuts beside them. Precision, staleness, the labelled open items the
   summary names (the real next step), error status accuracy, and length (characters, and against Claude's).
2. **Every bundled session and pi fixture replayed** at 8k, 32k and 128k (branches.jsonl, 363 tokens, never compacts) with the offline summarizer: per session
   and window, retention (as ``bench.replay_bench``) next to the heuristic quality figures pooled over its
   compactions (each compaction's figures are in the JSON).

Precision and staleness are shares of summary items; "-" means there was nothing to judge.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from pi_compact import Session
from pi_compact.evaluation.coverage import FACT_SECTIONS, coverage, spearman
from pi_compact.evaluation.quality import Quality, RegionIndex, RegionLabels, score_quality, summaries_at
from pi_compact.evaluation.replayer import replay
from sessions_fixtures import BEFORE_COMPACTION, HERE, LARGE_SESSION, PI_DIR

PROJECT = Path(__file__).resolve().parents[1]
OUT = PROJECT / "bench" / "out" / "quality.json"
LABELS = HERE / "labels"
WINDOWS = (8_000, 32_000, 128_000)
LABELLED = (
    ("before-compaction #1", BEFORE_COMPACTION, ("before-compaction.1",)),
    ("before-compaction #2", BEFORE_COMPACTION, ("before-compaction.1", "before-compaction.2")),
    ("large-session 1st half", LARGE_SESSION, ("large-session.first-half",)),
)
"""Each row: its name, its session, and the label files of the cuts made in turn (the last one is scored)."""


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _count(part: int, whole: int) -> str:
    return "-" if not whole else f"{part}/{whole}"


def labelled_rows() -> list[dict]:
    rows = []
    for name, source, label_names in LABELLED:
        with Session.open(source) as session:
            path, cwd = session.branch(), session.cwd
        labels = [RegionLabels.load(LABELS / f"{label}.json") for label in label_names]
        region = labels[-1].region_of(path)
        offline = summaries_at(path, [lab.first_kept_index for lab in labels], cwd=cwd)[-1]
        claude = _claude_summary(path, len(labels)) if source == BEFORE_COMPACTION else None
        for writer, summary in (("claude", claude), ("offline", offline)):
            if summary is not None:
                quality = score_quality(region, summary, labels[-1])
                rows.append({"region": name, "summary": writer, **_figures(quality),
                             "claudeChars": len(claude) if claude else None})
    return rows


def _claude_summary(path: list[dict], number: int) -> str:
    return [e for e in path if e.get("type") == "compaction"][number - 1]["summary"]


def _figures(quality: Quality) -> dict:
    return {"quality": quality.to_json(), "chars": quality.summary_chars, "tokens": quality.summary_tokens}


def print_labelled(rows: list[dict]) -> None:
    print("Hand-labelled regions: the default (offline) summary and Claude's at pi's own cuts")
    print(f"{'region':24} {'summary':8} {'precision':>10} {'stale':>7} {'next named':>10} {'errors ok':>10} "
          f"{'chars':>7} {'vs claude':>9} {'of region':>9}")
    for row in rows:
        q = row["quality"]
        versus = f"{row['chars'] / row['claudeChars']:.1f}x" if row["claudeChars"] else "-"
        print(f"{row['region']:24} {row['summary']:8} {_share(q['precision']):>10} "
              f"{_count(len(q['stale']), q['openItems']):>7} {_count(q['openNamed'], q['openLabels']):>10} "
              f"{_count(q['errorsRight'], q['errors']):>10} {row['chars']:>7,} {versus:>9} "
              f"{_share(q['charRatio']) if q['charRatio'] is None else format(q['charRatio'], '.1%'):>9}")


def replay_rows() -> list[dict]:
    rows = []
    for path in [p for folder in (HERE, PI_DIR) for p in sorted(folder.glob("*.jsonl"))]:
        for window in WINDOWS:
            report = replay(path, window=window)
            per_compaction = [{"messageIndex": c.message_index, "precision": c.quality.precision,
                               "staleness": c.quality.staleness, "errorAccuracy": c.quality.error_accuracy,
                               "charRatio": c.quality.char_ratio, "tokenRatio": c.quality.token_ratio,
                               "retention": c.retention.overall.fraction} for c in report.compactions]
            rows.append({"session": path.name, "window": window, "compactions": len(report.compactions),
                         "retention": report.retention.overall.fraction, "quality": report.quality.to_json(),
                         "perCompaction": per_compaction})
    return rows


def print_replays(rows: list[dict]) -> None:
    print("\nEvery session replayed with the offline summarizer (quality by heuristics, pooled over compactions)")
    print(f"{'session':28} {'win':>5} {'cmp':>4} {'retention':>9} {'precision':>9} {'stale':>9} {'errors ok':>10} "
          f"{'length':>7}")
    for row in rows:
        q = row["quality"]
        ratio = "-" if q["charRatio"] is None else f"{q['charRatio']:.1%}"
        print(f"{row['session'][:28]:28} {row['window'] // 1000:>4}k {row['compactions']:>4} "
              f"{_share(row['retention']):>9} {_share(q['precision']):>9} "
              f"{_count(len(q['stale']), q['openItems']):>9} {_count(q['errorsRight'], q['errors']):>10} {ratio:>7}")


def _commit() -> str | None:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=PROJECT, capture_output=True, text=True)
    return done.stdout.strip() or None


BEFORE = "e1d7a80"
"""The commit whose summarizer the corpus table shows as "before" (issue 20 started from it)."""


def corpus_rows(before: str | None = BEFORE) -> list[dict]:
    """Every compaction region of the agents' corpus: ours, the reference LLM summary and (``before``) the
    summarizer of an earlier commit, scored by the same scorer, with the hand labels where there are some."""
    from bench.corpus import half_of, labels_for, regions, summaries_at_commit

    found = list(regions())
    earlier = summaries_at_commit(before, found) if before else {}
    rows = []
    for region in found:
        labels = labels_for(region)
        area = RegionIndex(region.entries)  # indexed once, scored for each writer
        writers = (("reference", region.reference), ("ours", region.offline()), ("before", earlier.get(region.key)))
        for writer, summary in writers:
            if summary is None:
                continue
            quality = score_quality(area, summary)
            facts = coverage(summary, labels, quality).to_json() if labels else None
            rows.append({"half": half_of(region), "region": region.key, "repository": region.repository,
                         "writer": writer, "chars": len(summary), "score": quality.score, "facts": facts,
                         "labelsOnly": _labels_only(summary, labels) if labels else None,
                         "recall": quality.recall, "correctness": quality.correctness,
                         "missing": list(quality.missing[:5]), "faults": list(quality.faults)})
    return rows


def print_corpus(rows: list[dict]) -> None:
    for half in ("calibration", "validation"):
        print(f"\nOther agents' compaction regions, {half} half: facts present/partly/absent/wrong by the hand labels "
              "(where labelled), next step right, length, score")
        print(f"{'region':44} {'writer':9} {'p/pt/a/w':>11} {'next':>5} {'chars':>7} {'score':>6}")
        for row in [r for r in rows if r["half"] == half]:
            f = row["facts"]
            counts = f"{f['present']}/{f['partly']}/{f['absent']}/{f['wrong']}" if f else "-"
            right = "-" if not f or f["nextRight"] is None else ("yes" if f["nextRight"] else "no")
            print(f"{row['region'][:44]:44} {row['writer']:9} {counts:>11} {right:>5} {row['chars']:>7,} "
                  f"{row['score']:>6.2f}")
    print_targets(rows)


def _labels_only(summary: str, labels: dict) -> dict:
    """The labels' verdict without the scorer's: the share of labelled facts held and the labelled next step
    named (no stale check), and per fact section the labelled facts the summary holds none of."""
    facts = coverage(summary, labels, Quality())
    absent = {section: coverage(summary, {section: labels.get(section)}, Quality()).absent
              for section in FACT_SECTIONS}
    return {"share": facts.share, "nextNamed": facts.next_right, "absent": absent}


def truth(row: dict) -> float:
    """The bench's truth (issue 20): share of labelled facts × 0.7 + 0.3 × next step right − 0.1 × wrong, where
    *wrong* and the stale check of *next step right* come from the scorer itself."""
    f = row["facts"]
    return f["share"] * 0.7 + 0.3 * bool(f["nextRight"]) - 0.1 * f["wrong"]


def labels_truth(row: dict) -> float:
    """The same from the labels alone (share × 0.7 + 0.3 × next step named): ``truth`` takes *wrong* from the
    scorer it judges, so a scorer's own false alarms lower the truth with its score and agree with it."""
    f = row["labelsOnly"]
    return f["share"] * 0.7 + 0.3 * bool(f["nextNamed"])


def print_targets(rows: list[dict]) -> None:
    """Issue 20's "done when", on the validation half, and the scorer's rank correlation with the labels."""
    valid = [r for r in rows if r["half"] == "validation" and r["facts"]]
    ours = {r["region"]: r for r in valid if r["writer"] == "ours"}
    reference = {r["region"]: r for r in valid if r["writer"] == "reference"}
    if ours:
        no_wrong = sum(r["facts"]["wrong"] == 0 for r in ours.values())
        right = sum(bool(r["facts"]["nextRight"]) for r in ours.values())
        judged = sum(r["facts"]["nextRight"] is not None for r in ours.values())  # regions with a labelled next step
        as_many = sum(r["facts"]["present"] >= reference[k]["facts"]["present"]
                      for k, r in ours.items() if k in reference)
        shorter = sum(r["chars"] <= reference[k]["chars"] for k, r in ours.items() if k in reference)
        n = len(ours)
        print(f"\nvalidation half, ours: no wrong item {no_wrong}/{n}; next step right {right}/{judged} (target 80%); "
              f"at least the reference's labelled facts {as_many}/{n} (target half); length at most the reference's "
              f"{shorter}/{n}")
    print_agreement(rows)
    print_absent(rows)


def print_agreement(rows: list[dict]) -> None:
    """Per half: Spearman of the score against both truths, and each writer's mean score (and recall)."""
    for half in ("calibration", "validation"):
        labelled = [r for r in rows if r["half"] == half and r["facts"]]
        scores = [r["score"] for r in labelled]
        rho = spearman([truth(r) for r in labelled], scores)
        pure = spearman([labels_truth(r) for r in labelled], scores)
        means = []
        for writer in ("ours", "reference", "before"):
            mine = [r for r in rows if r["half"] == half and r["writer"] == writer]
            if mine:
                recalls = [r["recall"] for r in mine if r["recall"] is not None]
                means.append(f"{writer} {sum(r['score'] for r in mine) / len(mine):.2f}"
                             f" (recall {sum(recalls) / max(1, len(recalls)):.2f})")
        agree, pairs = _pairs_in_order(labelled)
        print(f"scorer against the hand labels, {half} ({len(labelled)} summaries): Spearman "
              f"{_rho(rho)} (bench truth), {_rho(pure)} (labels only); summaries of one region ordered as the labels "
              f"order them {agree}/{pairs}; mean score {', '.join(means)}")


def _pairs_in_order(labelled: list[dict]) -> tuple[int, int]:
    """Of the pairs of summaries of the same region the labels alone tell apart, those the score orders alike:
    what a user choosing between two summaries of one region relies on."""
    agree = pairs = 0
    by_region: dict[str, list[dict]] = {}
    for row in labelled:
        by_region.setdefault(row["region"], []).append(row)
    for rows in by_region.values():
        for i, one in enumerate(rows):
            for other in rows[i + 1:]:
                told = labels_truth(one) - labels_truth(other)
                if told:
                    pairs += 1
                    agree += (one["score"] - other["score"]) * told > 0
    return agree, pairs


def _rho(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def print_absent(rows: list[dict]) -> None:
    """Per half and writer, the labelled facts of each section the summaries hold none of (summed)."""
    print(f"\nlabelled facts absent, per section (summed over the labelled regions)")
    print(f"{'half':12} {'writer':9} " + " ".join(f"{s:>11}" for s in FACT_SECTIONS))
    for half in ("calibration", "validation"):
        for writer in ("ours", "reference"):
            mine = [r["labelsOnly"]["absent"] for r in rows if r["half"] == half and r["writer"] == writer
                    and r["labelsOnly"]]
            if mine:
                print(f"{half:12} {writer:9} " + " ".join(f"{sum(a[s] for a in mine):>11}" for s in FACT_SECTIONS))


def main(argv: list[str] | None = None) -> bool:
    del argv
    labelled = labelled_rows()
    print_labelled(labelled)
    corpus = corpus_rows()
    print_corpus(corpus)
    replays = replay_rows()
    print_replays(replays)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(orjson.dumps({"commit": _commit(), "labelled": labelled, "corpus": corpus, "replays": replays},
                                 option=orjson.OPT_INDENT_2))
    print(f"\nwritten to {OUT.relative_to(PROJECT)}")
    return True


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
