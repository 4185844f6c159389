"""``pi-compact session compact``: compact a session file now, with the pipeline a running agent uses.

Prints the tokens before and after (saying which figures are measured and which estimated), the strategy
that won, and the summary; ``--json`` prints the same as one object. A spinner shows while an LLM works.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Optional

import orjson
import typer

from ..session import Session
from .app import session_app

SUMMARIZERS = ("offline", "anthropic", "openai")


@session_app.command("compact")
def compact_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A session file (.jsonl).", show_default=False)],
    instructions: Annotated[Optional[str], typer.Option("--instructions", "-i", help="Extra focus for the summary.")] = None,
    summarizer: Annotated[Optional[str], typer.Option(help="offline (default), anthropic or openai.")] = None,
    model: Annotated[Optional[str], typer.Option(help="Summarizer model.")] = None,
    base_url: Annotated[Optional[str], typer.Option(help="Base URL (OpenAI-compatible local servers).")] = None,
    summarizer_window: Annotated[Optional[int], typer.Option("--summarizer-window", metavar="TOKENS", help="The summarizer model's own context window (default: the model's); its input goes in chunks that fit.")] = None,
    window: Annotated[Optional[int], typer.Option(help="Context window in tokens: the result must fit it.")] = None,
    keep_recent: Annotated[Optional[int], typer.Option(help="Tokens of recent conversation kept verbatim.")] = None,
    reserve: Annotated[Optional[int], typer.Option(help="Tokens reserved for the answer.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Compute and show, write nothing.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Compact the current branch of a session file (appends one compaction entry)."""
    from ..compaction import compact, load_settings
    from ..errors import UsageError

    settings = load_settings(os.getcwd()).replace(
        keep_recent_tokens=keep_recent, reserve_tokens=reserve, summarizer=summarizer, model=model, base_url=base_url,
        summarizer_window=summarizer_window,
    )
    if settings.summarizer not in SUMMARIZERS:
        raise UsageError(f"unknown summarizer {settings.summarizer!r}: use one of {', '.join(SUMMARIZERS)}")
    if window is not None and window <= settings.reserve_tokens:
        raise UsageError(f"--window {window} must be larger than the reserve ({settings.reserve_tokens})")
    with Session.open(file) as session:
        chosen = _make_summarizer(settings)
        result = _run(session, chosen, settings, window, instructions, dry_run, as_json)
    _report(result, window, dry_run, as_json)


def _make_summarizer(settings):
    from ..llm import summarizer_for

    return summarizer_for(settings)


def _run(session, summarizer, settings, window, instructions, dry_run, as_json):
    from ..compaction import compact

    if as_json or summarizer.name == "offline":
        return compact(session, window=window, settings=settings, summarizer=summarizer,
                       instructions=instructions, dry_run=dry_run)
    from .render import stderr_console

    with stderr_console().status(f"Summarizing with {summarizer.name}…"):
        return compact(session, window=window, settings=settings, summarizer=summarizer,
                       instructions=instructions, dry_run=dry_run)


def _report(result, window, dry_run, as_json) -> None:
    if as_json:
        payload = {
            "dryRun": dry_run,
            "entryId": result.entry["id"] if result.entry else None,
            "strategy": result.strategy,
            "tokensBefore": result.tokens_before,
            "tokensBeforeMeasured": result.tokens_before_measured,
            "tokensAfter": result.tokens_after,
            "tokensAfterMeasured": False,
            "window": window,
            "messagesSummarized": result.messages_summarized,
            "messagesDropped": result.messages_dropped,
            "firstKeptEntryId": result.first_kept_entry_id,
            "summarizer": result.summarizer,
            "summarizerInputTokens": result.summarizer_input_tokens,
            "summarizerOutputTokens": result.summarizer_output_tokens,
            "fallbackReason": result.fallback_reason,
            "durationSeconds": round(result.duration_s, 4),
            "summary": result.summary,
            "details": result.details,
        }
        typer.echo(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode())
        return
    _print_human(result, window, dry_run)


def _print_human(result, window, dry_run) -> None:
    from rich.panel import Panel
    from rich.text import Text

    from .render import stdout_console, visible

    console = stdout_console()
    before = f"{result.tokens_before:,} ({'measured' if result.tokens_before_measured else 'estimated'})"
    after = f"{result.tokens_after:,} (estimated)"
    title = "Dry run: nothing written" if dry_run else f"Compaction entry {result.entry['id']} appended"
    lines = [
        f"tokens     {before} → {after}" + (f" of a {window:,}-token window" if window else ""),
        f"strategy   {result.strategy}" + (f"  (fallback: {result.fallback_reason})" if result.fallback_reason else ""),
        f"messages   {result.messages_summarized} summarized, {result.messages_dropped} dropped to fit",
        f"kept from  {result.first_kept_entry_id}",
        f"took       {result.duration_s:.2f} s",
    ]
    if result.summarizer_input_tokens:
        lines.append(f"summarizer {result.summarizer}: {result.summarizer_input_tokens:,} in, "
                     f"{result.summarizer_output_tokens:,} out")
    console.print(Text(title, style="bold green" if not dry_run else "bold yellow"))
    console.print(Text("\n".join(lines)))
    console.print(Panel(Text(visible(result.summary)), title="summary", border_style="cyan"))
