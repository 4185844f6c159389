"""The quality benchmark scores both summaries of every labelled region and writes what it printed."""

from __future__ import annotations

from bench import quality_bench


def test_labelled_rows_score_claude_and_the_offline_summary_of_every_region():
    rows = quality_bench.labelled_rows()
    assert [(r["region"], r["summary"]) for r in rows] == [
        ("before-compaction #1", "claude"), ("before-compaction #1", "offline"),
        ("before-compaction #2", "claude"), ("before-compaction #2", "offline"),
        ("large-session 1st half", "offline"),
    ]
    claude = [r for r in rows if r["summary"] == "claude"]
    assert [r["chars"] for r in claude] == [4291, 3649]  # pi's stored summaries, unchanged
    assert all(r["quality"]["stale"] == [] and r["quality"]["precision"] >= 0.9 for r in claude)
    assert all(r["quality"]["labelled"] == 1 for r in rows)


def test_the_table_prints_one_line_per_row(capsys):
    rows = [{"region": "r", "summary": "offline", "chars": 10, "claudeChars": 5, "quality": {
        "precision": 0.5, "stale": ["x"], "openItems": 2, "openNamed": 1, "openLabels": 2, "errorsRight": 1,
        "errors": 1, "charRatio": 0.25}}]
    quality_bench.print_labelled(rows)
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.split() == ["r", "offline", "50%", "1/2", "1/2", "1/1", "10", "2.0x", "25.0%"]
