"""``pi-compact import``: Claude Code and Codex transcripts written as pi session files.

A file becomes one pi file; a folder becomes a folder of them (the same relative names, ``.gz`` dropped),
with a progress bar on stderr. The input is only read, and nothing is written over unless ``--force`` says
so. Lines the importer skipped or repaired are listed as warnings. ``session list --agent`` uses
:func:`print_agent_sessions` from here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import PiCompactError, UsageError
from .app import app
from .params import regular_file

EXIT_SOME_FAILED = 1
"""A folder import where some files could not be imported (each named in a warning); the rest were written."""


@app.command("import")
def import_command(
    source: Annotated[Path, typer.Argument(metavar="FILE|DIR", help="A Claude Code or Codex transcript (.jsonl or .jsonl.gz), or a folder of them.", show_default=False, callback=regular_file)],
    output: Annotated[Path, typer.Option("-o", "--output", metavar="OUT", help="The pi session file to write (a folder when FILE|DIR is a folder, or an existing folder).", show_default=False)],
    format: Annotated[Optional[str], typer.Option("--format", metavar="FORMAT", help="claude-code or codex (default: told from the content).")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Fail on the first bad line instead of skipping it.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace output files that exist.")] = False,
) -> None:
    """Import another agent's sessions as pi session files (the input is only read)."""
    from ..importers import FORMATS

    if format is not None and format not in FORMATS:
        raise UsageError(f"unknown --format {format!r}; choose one of {', '.join(FORMATS)}")
    if not source.exists():
        raise UsageError(f"{source} does not exist")
    if source.is_dir():
        failed = _import_folder(source, output, format, strict, force)
        if failed:
            raise typer.Exit(EXIT_SOME_FAILED)
        return
    target = output / _out_name(Path(source.name)) if output.is_dir() else output
    _import_one(source, target, format, strict, force, quiet=False)


def _out_name(relative: Path) -> Path:
    name = relative.name.removesuffix(".gz")
    return relative.with_name(name if name.endswith(".jsonl") else name + ".jsonl")


def _refuse_existing(target: Path, force: bool) -> None:
    if not force and (target.exists() or target.is_symlink()):
        raise UsageError(f"{target} exists; --force replaces it")


def _import_one(source: Path, target: Path, format: str | None, strict: bool, force: bool, *, quiet: bool):
    from ..importers import read_transcript, write_session
    from . import render

    if target.resolve() == source.resolve():
        raise UsageError(f"{target} is the input; choose another output")
    _refuse_existing(target, force)
    imported = read_transcript(source, format=format, strict=strict)
    write_session(imported, target, force=force)
    _warn([f"{source}: {note}" for note in imported.notes])
    if not quiet:
        line = (f"{source} → {target}: {imported.format}, {len(imported.entries)} entries, "
                f"{imported.compactions} compaction{'s' if imported.compactions != 1 else ''}")
        render.stdout_console().print(render.Text(render.visible(line)), soft_wrap=True)
    return imported


def _import_folder(source: Path, output: Path, format: str | None, strict: bool, force: bool) -> int:
    """Every transcript under ``source`` into ``output``; returns how many could not be imported."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from ..importers import transcript_files
    from . import render

    if output.exists() and not output.is_dir():
        raise UsageError(f"{output} is a file; a folder is imported into a folder")
    files = [f for f in transcript_files(source) if output.resolve() not in f.resolve().parents]
    if not files:
        raise UsageError(f"no .jsonl or .jsonl.gz files in {source}")
    done, failed, compactions = 0, 0, 0
    errors = render.stderr_console()
    columns = (TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"))
    with Progress(*columns, console=errors, transient=True, disable=not errors.is_terminal) as progress:
        task = progress.add_task("", total=len(files))
        for path in files:
            relative = path.relative_to(source)
            progress.update(task, description=render.visible(str(relative)))
            try:
                imported = _import_one(path, output / _out_name(relative), format, strict, force, quiet=True)
            except PiCompactError as exc:
                failed += 1
                _warn([f"not imported: {exc}"], console=errors)
            else:
                done += 1
                compactions += imported.compactions
            progress.advance(task)
    summary = f"{done} of {len(files)} transcripts imported into {output} ({compactions} compactions)"
    render.stdout_console().print(render.Text(render.visible(summary)), soft_wrap=True)
    return failed


def _warn(lines: list[str], console=None) -> None:
    """One ``warning:`` line each on stderr, never wrapped (a path cut in two cannot be pasted back)."""
    from . import render

    console = console or render.stderr_console()
    for line in lines[: render.MAX_WARNINGS]:
        console.print(render.Text("warning: ", style="yellow") + render.Text(render.one_line(line)), soft_wrap=True)
    if len(lines) > render.MAX_WARNINGS:
        console.print(render.Text(f"warning: … and {len(lines) - render.MAX_WARNINGS} more", style="yellow"))


def print_agent_sessions(agent: str, as_json: bool) -> None:
    """``session list --agent``: that agent's sessions for the current directory, newest first."""
    from ..importers.locate import agent_sessions, claude_project_dir, codex_home
    from . import render
    from .output import write_json

    found = agent_sessions(agent, os.getcwd())
    rows = [item.to_json() for item in found]
    if as_json:
        write_json(rows)
        return
    console = render.stdout_console()
    if not rows:
        where = claude_project_dir(os.getcwd()) if agent == "claude-code" else codex_home() / "sessions"
        console.print(render.Text(f"no {agent} sessions for this directory in {render.visible(str(where))}",
                                  style="dim"))
        return
    render.print_listing(console, rows, show_cwd=False)
