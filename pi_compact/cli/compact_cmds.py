"""``pi-compact session compact``: compact a session file now, with the pipeline a running agent uses.

Prints the tokens before and after (saying which figures are measured and which estimated), the strategy
that won, and the start of the summary (``--full-summary`` prints all of it); ``--json`` prints the same as
one object. A spinner shows while an LLM works. When there is nothing to compact, it says so with the
figures and exits 0: the session is already as small as the settings allow.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..session import Session
from .app import session_app
from .params import FileArg, FileCommand, number

SUMMARY_PREVIEW_LINES = 12
"""Lines of the summary shown without ``--full-summary``."""


@session_app.command("compact", cls=FileCommand)
def compact_command(
    file: FileArg,
    instructions: Annotated[Optional[str], typer.Option("--instructions", "-i", help="Extra focus for the summary.")] = None,
    summarizer: Annotated[Optional[str], typer.Option(show_default=False, help="Who writes the summary [default: pi's setting compaction.summarizer, else offline]: offline, anthropic or openai.")] = None,
    model: Annotated[Optional[str], typer.Option(help="Summarizer model.")] = None,
    base_url: Annotated[Optional[str], typer.Option(help="Base URL (OpenAI-compatible local servers).")] = None,
    summarizer_window: Annotated[Optional[int], typer.Option("--summarizer-window", parser=number("--summarizer-window", 1), metavar="TOKENS", show_default=False, help="The summarizer model's own context window [default: the model's]; its input goes in chunks that fit.")] = None,
    window: Annotated[Optional[int], typer.Option(parser=number("--window", 1), metavar="TOKENS", show_default=False, help="Context window in tokens: the result must fit it; reserve and keep-recent "
                                                  "scale down to it, as in replay [default: none, pi's settings as they are].")] = None,
    keep_recent: Annotated[Optional[int], typer.Option(parser=number("--keep-recent", 0), metavar="TOKENS", show_default=False, help="Tokens of recent conversation kept verbatim [default: pi's 20,000, scaled to --window].")] = None,
    reserve: Annotated[Optional[int], typer.Option(parser=number("--reserve", 0), metavar="TOKENS", show_default=False, help="Tokens reserved for the answer [default: pi's 16,384, scaled to --window].")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Compute and show, write nothing.")] = False,
    full_summary: Annotated[bool, typer.Option("--full-summary", help="Print the whole summary, not its first lines.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Compact the current branch of a session file (appends one compaction entry).

    Examples:

    \b
      pi-compact session compact -c --window 32000 --dry-run
      pi-compact session compact work.jsonl --summarizer anthropic -i "keep the API decisions"
    """
    from ..errors import NothingToCompactError

    settings = _settings(window, keep_recent, reserve, summarizer, model, base_url, summarizer_window)
    with Session.open(file) as session:
        chosen = _make_summarizer(settings)
        try:
            result = _run(session, chosen, settings, window, instructions, dry_run, as_json)
        except NothingToCompactError as exc:  # a refusal, not a failure: the figures, and exit 0
            _report_nothing(session, settings, window, str(exc), as_json)
            return
    _report(result, window, dry_run, as_json, full_summary)


def _settings(window, keep_recent, reserve, summarizer, model, base_url, summarizer_window):
    """pi's settings; with --window, scaled to it as ``replay`` scales them; then the flags as given."""
    from ..compaction import load_settings
    from ..errors import UsageError
    from ..llm import check_summarizer, check_summarizer_key
    from ..evaluation.replayer import settings_for_window

    settings = load_settings(os.getcwd())
    if window is not None:
        settings = settings_for_window(window, settings)
    settings = settings.replace(
        keep_recent_tokens=keep_recent, reserve_tokens=reserve, summarizer=summarizer, model=model, base_url=base_url,
        summarizer_window=summarizer_window,
    )
    check_summarizer(settings.summarizer)
    check_summarizer_key(settings.summarizer, origin=summarizer_origin(summarizer), base_url=settings.base_url)
    if window is not None and window <= settings.reserve_tokens:
        raise UsageError(f"--window {window:,} must be larger than the reserve ({settings.reserve_tokens:,}); "
                         f"pass a smaller --reserve")
    return settings


def summarizer_origin(flag: str | None) -> str:
    """Where the summarizer in use was chosen: the ``--summarizer`` flag, else the user's settings file (a
    project's may not choose one), shown with ``~`` for the home directory."""
    if flag is not None:
        return "--summarizer"
    from ..store.paths import agent_dir

    path = agent_dir() / "settings.json"
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


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


# -- reports -------------------------------------------------------------------------------------------------


def _report_nothing(session, settings, window, reason: str, as_json: bool) -> None:
    if as_json:
        from ..session_json import compaction_refusal_json
        from .output import write_json

        write_json(compaction_refusal_json(session, reason, settings, window))
        return
    from rich.text import Text

    from ..compaction.tokens import estimate_context_tokens
    from .render import one_line, stdout_console

    size = estimate_context_tokens(session.build_context().messages)
    console = stdout_console()
    console.print(Text(one_line(reason), style="bold yellow"))
    fits = f" of a {window:,}-token window (reserve {settings.reserve_tokens:,})" if window else ""
    console.print(Text(f"context    {size.describe()}{fits}\n"
                       f"keep       {settings.keep_recent_tokens:,} recent tokens verbatim (--keep-recent)\n"
                       "Nothing was written."))


def _report(result, window, dry_run, as_json, full_summary) -> None:
    if result.fallback_reason:  # on stderr too: a script reading stdout (or --json) must not be the only one told
        from rich.text import Text

        from .render import one_line, stderr_console

        stderr_console().print(Text("warning: ", style="yellow") +
                               Text(f"the summarizer failed: {one_line(result.fallback_reason)}"), soft_wrap=True)
    if as_json:
        from .output import write_json

        write_json(result.to_json(window))
        return
    _print_human(result, window, dry_run, full_summary)


def _print_human(result, window, dry_run, full_summary) -> None:
    from rich.panel import Panel
    from rich.text import Text

    from .render import stdout_console, visible, visible_line

    console = stdout_console()
    before = f"{result.tokens_before:,} ({'measured' if result.tokens_before_measured else 'estimated'})"
    after = f"{result.tokens_after:,} (estimated)"
    title = "Dry run: nothing written" if dry_run else f"Compaction entry {result.entry['id']} appended"
    lines = [
        f"tokens     {before} → {after}" + (f" of a {window:,}-token window" if window else ""),
        f"strategy   {result.strategy}" + (f"  (summarizer failed: {result.fallback_reason})" if result.fallback_reason else ""),
        f"messages   {result.messages_summarized} summarized, {result.messages_dropped} dropped to fit",
        f"kept from  {result.first_kept_entry_id}",
        f"took       {result.duration_s:.2f} s",
    ]
    if result.summarizer_input_tokens:
        lines.append(f"summarizer {result.summarizer}: {result.summarizer_input_tokens:,} in, "
                     f"{result.summarizer_output_tokens:,} out")
    console.print(Text(visible_line(title), style="bold green" if not dry_run else "bold yellow"))
    console.print(Text("\n".join(visible_line(line) for line in lines)))
    shown, hidden = _summary_shown(result.summary, full_summary)
    console.print(Panel(Text(visible(shown)), title="summary", border_style="cyan"))
    if hidden:
        console.print(Text(f"… {hidden} more lines of summary (--full-summary prints them)", style="dim"))


def _summary_shown(summary: str, full: bool) -> tuple[str, int]:
    """The summary, or its first :data:`SUMMARY_PREVIEW_LINES` lines and how many lines are left out."""
    lines = summary.splitlines()
    if full or len(lines) <= SUMMARY_PREVIEW_LINES:
        return summary, 0
    return "\n".join(lines[:SUMMARY_PREVIEW_LINES]), len(lines) - SUMMARY_PREVIEW_LINES
