"""``pi-compact replay``: what a window, thresholds and a summarizer would have done to a recorded session.

Runs :func:`pi_compact.replayer.replay` and prints its report: a table of the compactions, the peak context,
the requests over the window, what the summarizer cost, how much of each kind of fact survived, whether the
summaries state it right (precision, staleness, open/resolved errors, length against the region), and the
context size over the conversation as a sparkline scaled to the window, with the threshold drawn across
it. ``--json`` prints the whole report as one object; ``--plot PNG`` draws the curve with matplotlib (the
``plot`` extra). Every token figure is an estimate: recorded usage describes the original context.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import UsageError
from .app import app
from .params import regular_file

DEFAULT_WINDOW = 128_000
BLOCKS = "▁▂▃▄▅▆▇█"
SPARK_ROWS = 4
_CATEGORY_NAMES = {
    "read_files": "files read",
    "modified_files": "files modified",
    "commands": "commands",
    "errors": "errors",
    "constraints": "user constraints",
    "identifiers": "identifiers",
}


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A recorded session file (.jsonl, v1–v3).", show_default=False, callback=regular_file)],
    window: Annotated[int, typer.Option(help="Context window of the model, in tokens.")] = DEFAULT_WINDOW,
    reserve: Annotated[Optional[int], typer.Option(min=0, help="Tokens reserved for the answer (default: pi's, scaled to the window).")] = None,
    keep_recent: Annotated[Optional[int], typer.Option(min=0, help="Tokens of recent conversation kept verbatim.")] = None,
    summarizer: Annotated[Optional[str], typer.Option(help="offline (default), anthropic or openai.")] = None,
    model: Annotated[Optional[str], typer.Option(help="Summarizer model.")] = None,
    base_url: Annotated[Optional[str], typer.Option(help="Base URL (OpenAI-compatible local servers).")] = None,
    summarizer_window: Annotated[Optional[int], typer.Option("--summarizer-window", metavar="TOKENS", help="The summarizer model's own context window (default: the model's); its input goes in chunks that fit.")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", metavar="NEW.jsonl", help="Write the replayed session here (must not exist).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
    plot: Annotated[Optional[Path], typer.Option("--plot", metavar="PNG", help="Also draw the context size to a PNG (needs matplotlib).")] = None,
) -> None:
    """Replay a session with a given window, compacting as an agent would; report what it cost and kept.

    The input file is only read. Reserve and keep-recent default to pi's settings (from its settings files),
    scaled down when the window is too small for them.
    """
    settings = _settings(window, reserve, keep_recent, summarizer, model, base_url, summarizer_window)
    if plot is not None and importlib.util.find_spec("matplotlib") is None:
        raise UsageError("--plot needs matplotlib: pip install 'pi-compact[plot]'")
    if plot is not None:
        _refuse_existing(plot)
    from ..llm import summarizer_for

    chosen = summarizer_for(settings)
    report = _run(file, window, settings, chosen, out, quiet=as_json)
    if plot is not None:
        draw_plot(report, plot)
    references = _references(file)
    if as_json:
        payload = {**report.to_json(), "plot": str(plot) if plot is not None else None,
                   "referenceSummaries": [item.to_json() for item in references]}
        from .output import write_json

        write_json(payload)
    else:
        print_report(report, plot, references)


def _references(file: Path) -> list:
    """The original agent's own summaries in an imported session (``pi-compact import``), to read beside ours."""
    from ..importers import reference_summaries
    from ..session import Session

    with Session.open(file) as session:
        return reference_summaries(session)


def _settings(window, reserve, keep_recent, summarizer, model, base_url, summarizer_window=None):
    from ..compaction.settings import load_settings
    from ..llm import check_summarizer
    from ..evaluation.replayer import settings_for_window

    if window <= 0:
        raise UsageError(f"--window must be a positive number of tokens, got {window}")
    # pi's settings scaled to the window, then the flags as given
    settings = settings_for_window(window, load_settings(os.getcwd())).replace(
        reserve_tokens=reserve, keep_recent_tokens=keep_recent, summarizer=summarizer, model=model, base_url=base_url,
        summarizer_window=summarizer_window,
    )
    check_summarizer(settings.summarizer)
    if window <= settings.reserve_tokens:
        raise UsageError(f"--window {window:,} must be larger than the reserve ({settings.reserve_tokens:,})")
    return settings


def _run(file, window, settings, summarizer, out, *, quiet: bool):
    from ..evaluation.replayer import replay

    if quiet or summarizer.name == "offline":
        return replay(file, window=window, settings=settings, summarizer=summarizer, out_path=out)
    from .render import stderr_console

    with stderr_console().status(f"Replaying with {summarizer.name} summaries…") as status:
        def progress(event) -> None:
            if event.type == "compaction_start":
                status.update(f"Compacting {event.tokens_before or 0:,} tokens with {summarizer.name}…")

        return replay(file, window=window, settings=settings, summarizer=summarizer, out_path=out, on_event=progress)


# -- the terminal report ------------------------------------------------------------------------------------------


def print_report(report, plot: Path | None, references: list = ()) -> None:
    from rich.text import Text

    from .render import one_line, stdout_console

    console = stdout_console()
    console.print(Text(f"Replay of {report.source}", style="bold"))
    console.print(Text(f"window {report.window:,} · threshold {report.threshold:,} (reserve "
                       f"{report.settings.reserve_tokens:,}) · keep recent {report.settings.keep_recent_tokens:,}"))
    console.print(Text(f"summarizer {report.summarizer} · {report.messages:,} messages, "
                       f"{len(report.requests):,} model requests"))
    console.print(Text("All token figures are estimates (characters / 4, CJK per character).", style="dim"))
    console.print()
    console.print(compactions_table(report))
    console.print()
    for line in summary_lines(report):
        console.print(line)
    for failure in report.failures[:5]:
        console.print(Text("  compaction ", style="yellow") + Text(one_line(failure, 160)))
    for item in references:
        line = Text(f"reference   {item.source}'s own summary at {item.compaction_id[:8]} ({item.messages:,} "
                    f"messages, {item.tokens_before:,} tokens before): ") + Text(one_line(item.summary, 200))
        console.print(line, no_wrap=True, overflow="ellipsis")
    console.print()
    console.print(retention_table(report.retention))
    console.print()
    console.print(quality_table(report))
    console.print()
    console.print(Text("Context size per request", style="bold"))
    for line in sparkline(report, width=max(20, console.width - 10)):
        console.print(line)
    if report.output:
        console.print(Text(f"\nReplayed session written to {report.output}"))
    if plot is not None:
        console.print(Text(f"Plot written to {plot}"))


def compactions_table(report):
    from rich import box
    from rich.table import Table

    table = Table(title=f"{len(report.compactions)} compaction(s)", title_justify="left", box=box.SIMPLE_HEAD,
                  padding=(0, 1), show_edge=False)
    table.caption = "tokens: context before → after (estimated) · sum/drop: messages summarized / dropped · " \
                    "kept: facts retained · * fallback after the LLM failed"
    table.caption_justify = "left"
    for name, justify in (("#", "right"), ("msg", "right"), ("tokens", "right"), ("strategy", "left"),
                          ("summary", "right"), ("sum/drop", "right"), ("time", "right"), ("kept", "right")):
        table.add_column(name, justify=justify, no_wrap=True)
    for number, item in enumerate(report.compactions, start=1):
        table.add_row(
            str(number), f"{item.message_index:,}", f"{item.tokens_before:,} → {item.tokens_after:,}",
            item.strategy + ("*" if item.fallback_reason else ""), f"{item.summary_tokens:,}",
            f"{item.messages_summarized:,}/{item.messages_dropped:,}", f"{item.duration_s * 1000:,.0f} ms",
            _percent(item.retention.overall),
        )
    return table


def summary_lines(report):
    from rich.text import Text

    peak_share = report.peak_tokens / report.window if report.window else 0
    violations = Text(f"{report.violations:,} request(s) over the window",
                      style="bold red" if report.violations else "green")
    over = f" ({report.over_threshold:,} over the threshold)" if report.over_threshold else ""
    cost = f"{report.summarizer_input_tokens:,} tokens in, {report.summarizer_output_tokens:,} out"
    if report.summarizer == "offline":
        cost += " (offline: no model calls)"
    lines = [
        Text(f"peak        {report.peak_tokens:,} tokens ({peak_share:.0%} of the window)"),
        Text("violations  ") + violations + Text(over),
        Text(f"summarizer  {cost}"),
        Text(f"time        {report.cpu_s:.2f} s CPU, {report.wall_s:.2f} s wall"),
    ]
    if report.disabled_reason:
        lines.append(Text(f"stopped     {report.disabled_reason}", style="yellow"))
    return lines


def retention_table(retention):
    from rich.table import Table

    from rich import box

    table = Table(title="Retention: facts of the compacted regions still in the context", title_justify="left",
                  box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    for name in ("fact", "found", "total", "retained"):
        table.add_column(name, justify="left" if name == "fact" else "right")
    for key, label in _CATEGORY_NAMES.items():
        score = retention.scores[key]
        table.add_row(label, f"{score.found:,}", f"{score.total:,}", _percent(score))
    overall = retention.overall
    table.add_row("overall", f"{overall.found:,}", f"{overall.total:,}", _percent(overall), style="bold")
    return table


def quality_table(report):
    """Per compaction and overall: is the state the summary reports the true state of what it replaced?"""
    from rich import box
    from rich.table import Table

    table = Table(title="Summary quality", title_justify="left",
                  box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    table.caption = "each summary against everything compacted up to it · precision: Done/In Progress/Next/" \
                    "Constraints items the region supports · stale: open " \
                    "items the region shows finished · errors: given the right open/resolved status · " \
                    "length: summary / region, characters"
    table.caption_justify = "left"
    for name in ("#", "precision", "stale", "errors", "length"):
        table.add_column(name, justify="right", no_wrap=True)
    rows = [(str(n), c.quality) for n, c in enumerate(report.compactions, start=1)]
    for label, quality in rows + [("all", report.quality)]:
        table.add_row(label, _ratio(quality.supported, quality.items), _ratio(len(quality.stale), quality.open_items),
                      _ratio(quality.errors_right, quality.errors),
                      "–" if quality.char_ratio is None else f"{quality.char_ratio:.1%}",
                      style="bold" if label == "all" else None)
    return table


def _ratio(part: int, whole: int) -> str:
    return "–" if not whole else f"{part}/{whole} {part / whole:.0%}"


def _percent(score) -> str:
    return "–" if score.fraction is None else f"{score.fraction:.0%}"


# -- the sparkline ------------------------------------------------------------------------------------------------


def spark_columns(report, width: int) -> list[tuple[int, bool]]:
    """(tokens, compacted) per column: the largest request of each group when there are more than ``width``."""
    points = report.requests
    if len(points) <= width:
        return [(p.tokens, p.compacted) for p in points]
    columns = []
    for column in range(width):
        group = points[column * len(points) // width : (column + 1) * len(points) // width]
        columns.append((max(p.tokens for p in group), any(p.compacted for p in group)))
    return columns


def spark_rows(values: list[int], window: int, threshold: int, rows: int = SPARK_ROWS) -> list[str]:
    """Bars of ``▁…█`` scaled so that the top row ends at ``window``; ``┈`` marks the threshold's row."""
    levels = rows * 8
    threshold_row = min(rows - 1, threshold * rows // window) if window else 0
    lines = []
    for row in range(rows - 1, -1, -1):
        cells = []
        for value in values:
            filled = min(levels, max(0, round(value * levels / window))) if window else 0
            in_row = filled - row * 8
            if in_row >= 8:
                cells.append("█")
            elif in_row > 0:
                cells.append(BLOCKS[in_row - 1])
            else:
                cells.append("┈" if row == threshold_row else " ")
        lines.append("".join(cells))
    return lines


def sparkline(report, width: int = 80):
    """The chart as rich Text lines: green under the threshold, yellow above it, red over the window."""
    from rich.text import Text

    from .render import short_count

    columns = spark_columns(report, width)
    if not columns:
        return [Text("(no model requests)", style="dim")]
    values = [tokens for tokens, _ in columns]
    rows = spark_rows(values, report.window, report.threshold)
    threshold_row = SPARK_ROWS - 1 - min(SPARK_ROWS - 1, report.threshold * SPARK_ROWS // report.window)
    styles = ["red" if v > report.window else "yellow" if v > report.threshold else "green" for v in values]
    lines = []
    for index, row in enumerate(rows):
        label = short_count(report.threshold) + " ┈" if index == threshold_row else ""
        line = Text(f"{label:>9} ", style="dim yellow")
        for cell, style in zip(row, styles):
            line.append(cell, style="dim yellow" if cell == "┈" else style)
        lines.append(line)
    marks = "".join("^" if compacted else " " for _, compacted in columns)
    lines.append(Text(f"{'0':>9} ", style="dim") + Text(marks, style="bold yellow"))
    lines.append(Text(f"{'':>9} top = window {report.window:,} · ┈ the threshold's row · ^ compaction before "
                      "that request", style="dim"))
    return lines


# -- the PNG plot -------------------------------------------------------------------------------------------------


def plot_curve(report) -> tuple[list[int], list[int]]:
    """The context size per request, with the size each compaction started from just before its drop.

    A compaction runs before a request and shrinks what it sends, so at that message the curve first reaches
    the context that would have been sent (where the "before compaction" marker sits), then falls.
    """
    before = {c.message_index: c.tokens_before for c in report.compactions}
    xs: list[int] = []
    ys: list[int] = []
    for point in report.requests:
        if point.compacted and point.message_index in before:
            xs.append(point.message_index)
            ys.append(before[point.message_index])
        xs.append(point.message_index)
        ys.append(point.tokens)
    return xs, ys


def draw_plot(report, path: Path) -> None:
    """The context size per request, with each compaction's drop, the threshold and the window.

    ``path`` is created, never overwritten or followed when it is a link (as ``--out``).
    """
    try:
        import matplotlib
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'pi-compact[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import StrMethodFormatter

    with plt.rc_context({"font.size": 12}):
        figure, axes = plt.subplots(figsize=(14, 6.5), dpi=150)
        xs, ys = plot_curve(report)
        axes.plot(xs, ys, color="tab:blue", linewidth=1.6, label="context sent")
        if report.compactions:
            axes.scatter([c.message_index for c in report.compactions], [c.tokens_before for c in report.compactions],
                         marker="v", s=48, color="tab:purple", zorder=3, label="before compaction")
        axes.axhline(report.window, color="tab:red", linestyle="--", linewidth=1.2, label=f"window {report.window:,}")
        axes.axhline(report.threshold, color="tab:orange", linestyle=":", linewidth=1.4,
                     label=f"threshold {report.threshold:,}")
        axes.set_xlabel("message")
        axes.set_ylabel("tokens (estimated)")
        highest = max([report.window, report.peak_tokens, *(c.tokens_before for c in report.compactions)])
        axes.set_ylim(0, highest * 1.08)
        axes.grid(True, axis="y", alpha=0.3)
        axes.set_title(f"{Path(report.source).name}: {len(report.compactions)} compaction(s), "
                       f"summarizer {report.summarizer}")
        axes.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=4, frameon=False)
        try:
            _save_new(figure, path)
        finally:
            plt.close(figure)


def _refuse_existing(path: Path) -> None:
    if path.exists() or path.is_symlink():
        raise UsageError(f"{path} already exists; choose a new file")


def _save_new(figure, path: Path) -> None:
    """Write the PNG to a new file: exclusive creation fails on anything already there, links included."""
    try:
        handle = open(path, "xb")
    except FileExistsError:
        raise UsageError(f"{path} already exists; choose a new file") from None
    try:
        with handle:
            figure.savefig(handle, format="png", bbox_inches="tight")
    except BaseException:
        path.unlink(missing_ok=True)
        raise
