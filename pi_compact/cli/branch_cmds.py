"""``pi-compact session checkout`` and ``session diff``: move between branches, and compare two of them.

``checkout`` is pi's ``/tree`` navigation for a file: every command is its own process and pi takes the
file's last line as the leaf, so a checkout always leaves one line behind (the branch summary, or a
``custom`` position entry when there is nothing to summarize), and both the next command and pi continue
from there. ``diff`` only reads. Both take entries as ids, unique id prefixes, labels or ``root``.
"""

from __future__ import annotations

import os
from typing import Annotated, Any, Optional

import typer

from ..errors import UsageError
from ..session import Session
from .app import session_app
from .output import write_json
from .params import FileArg, FileCommand, number

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _entry_arg(metavar: str, help_text: str) -> Any:
    return typer.Argument(metavar=metavar, help=help_text, show_default=False)


@session_app.command("checkout", cls=FileCommand)
def checkout_command(
    file: FileArg,
    entry: Annotated[str, _entry_arg("ENTRY", "Where to go: an id, a unique id prefix, a label, or 'root'.")],
    no_summary: Annotated[bool, typer.Option("--no-summary", help="Move without summarizing the branch left.")] = False,
    instructions: Annotated[Optional[str], typer.Option("--instructions", "-i", help="Extra focus for the summary.")] = None,
    summarizer: Annotated[Optional[str], typer.Option(show_default=False, help="Who writes the summary [default: pi's setting compaction.summarizer, else offline]: offline, anthropic or openai.")] = None,
    model: Annotated[Optional[str], typer.Option(help="Summarizer model.")] = None,
    base_url: Annotated[Optional[str], typer.Option(help="Base URL (OpenAI-compatible local servers).")] = None,
    summarizer_window: Annotated[Optional[int], typer.Option("--summarizer-window", parser=number("--summarizer-window", 1), metavar="TOKENS", show_default=False, help="The summarizer model's own context window [default: the model's]; its input goes in chunks that fit.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Go to another entry, summarizing the branch left behind.

    Appends one branch_summary entry at ENTRY (the new leaf), or, when there is nothing to summarize or with
    --no-summary, one custom entry that records the new position. Prints the size of the abandoned branch,
    the summary and the new position. Checking out the current leaf writes nothing.

    Examples:

    \b
      pi-compact session checkout -c checkpoint
      pi-compact session checkout work.jsonl 4a8ad824 --no-summary
    """
    from ..branching import checkout
    from ..compaction.settings import load_settings
    from ..llm import check_summarizer

    settings = load_settings(os.getcwd()).replace(summarizer=summarizer, model=model, base_url=base_url,
                                                  summarizer_window=summarizer_window)
    check_summarizer(settings.summarizer)
    with Session.open(file) as session:
        target = session.resolve(entry)
        chosen = _make_summarizer(settings) if not no_summary else None
        with _spinner(chosen, as_json):
            result = checkout(session, target, summarize=not no_summary, instructions=instructions,
                              summarizer=chosen, settings=settings, persist_position=True)
    if as_json:
        write_json(result.to_json())
    else:
        _print_checkout(result)


@session_app.command("diff", cls=FileCommand)
def diff_command(
    file: FileArg,
    entry_a: Annotated[str, _entry_arg("ENTRY_A", "An id, a unique id prefix, a label, or 'root'.")],
    entry_b: Annotated[str, _entry_arg("ENTRY_B", "An id, a unique id prefix, a label, or 'root'.")],
    as_json: JsonOpt = False,
) -> None:
    """Show where two branches diverge and what each contains.

    The deepest entry both paths share, then for each side (the entries after it up to ENTRY_A or ENTRY_B):
    entries, messages by role, estimated tokens, and the files read and modified.

    Examples:

    \b
      pi-compact session diff -c 4a8ad824 9c1e0b77
      pi-compact session diff work.jsonl checkpoint leaf --json
    """
    from ..branch_diff import diff_branches

    with Session.open(file) as session:
        a, b = session.resolve(entry_a), session.resolve(entry_b)
        data = diff_branches(session, a, b).to_json()
    if as_json:
        write_json(data)
    else:
        _print_diff(data)


# -- helpers -----------------------------------------------------------------------------------------------


def _make_summarizer(settings):
    from ..llm import summarizer_for

    try:
        return summarizer_for(settings)
    except ImportError as exc:
        raise UsageError(str(exc)) from None


class _spinner:
    """A status line on stderr while an LLM works (nothing for offline or JSON runs)."""

    def __init__(self, summarizer, quiet: bool) -> None:
        self.status = None
        if summarizer is not None and summarizer.name != "offline" and not quiet:
            from .render import stderr_console

            self.status = stderr_console().status(f"Summarizing the abandoned branch with {summarizer.name}…")

    def __enter__(self) -> None:
        if self.status is not None:
            self.status.__enter__()

    def __exit__(self, *exc: object) -> None:
        if self.status is not None:
            self.status.__exit__(*exc)


# -- printing ------------------------------------------------------------------------------------------------


def print_branch_summaries(console, session: Session) -> None:
    """The ``⎇`` legend under ``session tree``: one line per branch summary (nothing when there is none)."""
    from rich.text import Text

    from ..branching import branch_summary_notes
    from .render import one_line

    notes = branch_summary_notes(session)
    if not notes:
        return
    console.print(Text("\nbranch summaries", style="bold magenta"))
    for note in notes:
        line = f"⎇ {note.id} hangs at {note.at}: "
        if note.pi_style:
            line += "summary of a branch left from here (written by pi, which does not record which branch)"
        elif note.abandoned_entries is None:
            line += f"summary of an abandoned branch ending at {note.from_id} (not in this file)"
        else:
            line += (f"summary of abandoned branch ending at {note.from_id} "
                     f"({note.abandoned_entries} entries, from {note.abandoned_from})")
        console.print(Text(one_line(line)), soft_wrap=True)


def _print_checkout(result) -> None:
    from rich.panel import Panel
    from rich.text import Text

    from .render import stdout_console, visible, visible_line

    console = stdout_console()
    target = result.target or "root (before the first entry)"
    if not result.changed:
        console.print(Text(visible_line(f"Already at {target}: nothing written."), style="bold"))
        return
    console.print(Text(visible_line(f"Checked out {target}"), style="bold green"))
    meet = f"branches meet at {result.common_ancestor}" if result.common_ancestor else "no common entry"
    lines = [
        f"left       {result.old_leaf or 'root'} ({meet})",
        f"abandoned  {result.abandoned_entries} entries, {result.abandoned_messages} messages, "
        f"~{result.abandoned_tokens:,} tokens",
    ]
    if result.summary_entry is not None:
        read = f"{result.messages_summarized} of {result.abandoned_messages} messages read"
        lines.append(f"summary    {result.strategy} ({result.summarizer}), {read}")
        if result.fallback_reason:
            lines.append(f"fallback   {result.fallback_reason}")
    else:
        why = "nothing to summarize" if result.abandoned_messages == 0 else "not summarized (--no-summary)"
        lines.append(f"summary    none: {why}")
    console.print(Text("\n".join(visible_line(line) for line in lines)))
    if result.summary is not None:
        console.print(Panel(Text(visible(result.summary)), title="branch summary", border_style="magenta"))
    console.print(Text(visible_line(f"now at     {result.new_leaf} ({_position(result)})"), style="bold"))


def _position(result) -> str:
    where = result.target or "root"
    if result.summary_entry is not None:
        return f"branch summary at {where}"
    if result.position_entry is not None:
        return f"position entry at {where}"
    return where


def _print_diff(data: dict) -> None:
    from rich.table import Table
    from rich.text import Text

    from .render import one_line, stdout_console

    console = stdout_console()
    ancestor = data["commonAncestor"]
    if ancestor is None:
        head = "no common entry: the branches start from different roots (or one side is root)"
    else:
        head = f"branches meet at {ancestor} ({data['commonAncestorType']}), after {data['sharedEntries']} shared entries"
    console.print(Text(one_line(head), style="bold"))
    relation = {"same": "A and B are the same entry", "a-before-b": "A lies on the path to B",
                "b-before-a": "B lies on the path to A"}.get(data["relation"])
    if relation:
        console.print(Text(relation, style="dim"))
    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("")
    table.add_column(Text(one_line(f"A  {data['a']}")), overflow="fold")
    table.add_column(Text(one_line(f"B  {data['b']}")), overflow="fold")
    for name, cells in _diff_rows(data["sides"]):
        table.add_row(Text(name, style="bold"), *(Text(cell) for cell in cells))
    console.print(table)


def _diff_rows(sides: dict) -> list[tuple[str, list[str]]]:
    """Rows of the diff table: a name and one cell per side, made visible (paths one per line)."""
    from .render import one_line

    def cells(show) -> list[str]:
        return [show(sides[key]) for key in ("a", "b")]

    def files(paths: list[str]) -> str:
        return "\n".join(one_line(p) for p in paths) or "-"

    def messages(side: dict) -> str:
        kinds = ", ".join(f"{count} {kind}" for kind, count in side["byKind"].items())
        return one_line(f"{side['messages']}" + (f" ({kinds})" if kinds else ""))

    return [
        ("entries", cells(lambda s: str(s["entries"]))),
        ("messages", cells(messages)),
        ("tokens", cells(lambda s: f"~{s['tokens']:,}")),
        ("read", cells(lambda s: files(s["readFiles"]))),
        ("modified", cells(lambda s: files(s["modifiedFiles"]))),
    ]
