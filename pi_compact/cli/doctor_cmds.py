"""``pi-compact session doctor``: every problem in a session file, and a repaired copy on request.

Exit status: 0 when FILE has no problem, 1 when it has at least one (error or warning; also when a
repaired copy was written, since the status describes FILE), 2 when FILE cannot be read or the copy cannot
be written. Everything taken from the file is escaped before it reaches the terminal.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import UsageError
from .app import session_app
from .params import FileArg, FileCommand

EXIT_PROBLEMS = 1


@session_app.command("doctor", cls=FileCommand)
def doctor_command(
    file: FileArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    repair: Annotated[bool, typer.Option("--repair", help="Also write a repaired copy (needs -o).")] = False,
    output: Annotated[
        Optional[Path], typer.Option("-o", "--output", metavar="OUT", help="Where --repair writes (a new file).")
    ] = None,
) -> None:
    """Check a session file line by line and report every problem.

    Reports torn tails, bad lines, missing or broken headers, duplicate ids, parent cycles, dangling parents,
    compactions that keep from a missing entry, unknown types and roles and wrong field types, with line
    numbers and ids. With --repair -o OUT, writes a repaired copy to OUT (never over FILE or any existing
    file). Exit status: 0 clean, 1 problems found, 2 FILE unreadable.

    Examples:

    \b
      pi-compact session doctor -c
      pi-compact session doctor work.jsonl --repair -o repaired.jsonl
    """
    from ..store.repair import check_file, write_repaired

    if repair != (output is not None):
        raise UsageError("--repair needs -o OUT, and -o only goes with --repair")
    if output is not None:
        diagnosis, repaired = write_repaired(file, output)
    else:
        diagnosis, repaired = check_file(file), None
    if as_json:
        _print_json(file, diagnosis, repaired, output)
    else:
        _print_human(file, diagnosis, repaired, output)
    if not diagnosis.clean:
        raise typer.Exit(EXIT_PROBLEMS)


def _print_json(file: Path, diagnosis, repaired, output: Path | None) -> None:
    from ..store.repair import doctor_json
    from .output import write_json

    write_json(doctor_json(file, diagnosis, repaired, output))


def _print_human(file: Path, diagnosis, repaired, output: Path | None) -> None:
    from .render import one_line

    out = sys.stdout
    name = one_line(str(file))
    if diagnosis.clean:
        out.write(f"{name}: no problems ({diagnosis.entries} entries)\n")
    else:
        counts = f"{len(diagnosis.errors)} error(s), {len(diagnosis.warnings)} warning(s)"
        out.write(f"{name}: {len(diagnosis.findings)} problem(s): {counts}\n")
        for finding in diagnosis.findings:
            out.write(f"  {one_line(str(finding), 300)}\n")
    if repaired is not None:
        left_out = repaired.lines_left_out
        sizes = f"{repaired.entries} entries, {left_out} line{'s' if left_out != 1 else ''} of FILE left out"
        out.write(f"repaired copy: {one_line(str(output))} ({sizes})\n")
        for action in repaired.actions:
            out.write(f"  {one_line(action, 300)}\n")
    out.flush()
