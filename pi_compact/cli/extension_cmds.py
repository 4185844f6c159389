"""``pi-compact extension …``: the pi extension's server, and putting the extension where pi finds it.

``serve`` is what the extension runs: one JSON request on stdin, one JSON response on stdout (the protocol is
documented in :mod:`pi_compact.pi_extension`). ``install`` copies the extension to pi's extension folder
(``--project``: this project's ``.pi/extensions/``), ``uninstall`` removes it, ``path`` prints where the
shipped file is, for ``pi -e PATH``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .app import app

extension_app = typer.Typer(name="extension", no_args_is_help=True, rich_markup_mode=None,
                            help="Use pi-compact inside pi: install the pi extension, or serve its requests.")
app.add_typer(extension_app)

ProjectOption = Annotated[
    bool, typer.Option("--project", help="This project's .pi/extensions/ (of the current directory), not ~/.pi/agent/extensions/.")
]


@extension_app.command("serve")
def serve_command() -> None:
    """Answer one JSON request from stdin with one JSON response on stdout (used by the extension)."""
    from ..pi_extension import serve_bytes
    from .output import write_json

    response, status = serve_bytes(sys.stdin.buffer.read())
    write_json(response)
    if status:
        sys.stderr.write(f"pi-compact: error: {response['error']}\n")
        raise typer.Exit(status)


@extension_app.command("install")
def install_command(project: ProjectOption = False) -> None:
    """Copy the extension where pi loads it at start (an older copy is replaced)."""
    from ..pi_extension import install

    target = install(Path.cwd() if project else None)
    typer.echo(f"installed {target}")
    typer.echo("pi loads it at its next start (or on /reload); 'pi-compact extension uninstall"
               f"{' --project' if project else ''}' removes it")
    _check_path()


def _check_path() -> None:
    """The extension runs ``pi-compact`` from PATH: say so when that does not find this one (a virtualenv)."""
    import os
    import shutil

    if os.environ.get("PI_COMPACT_COMMAND"):
        return
    here = Path(sys.argv[0]).resolve() if Path(sys.argv[0]).name == "pi-compact" else None
    found = shutil.which("pi-compact")
    if found is None or (here is not None and Path(found).resolve() != here):
        where = f" ({here})" if here else ""
        typer.echo(f"note: 'pi-compact' on PATH is {found or 'missing'}, not this one{where}: put this one on pi's "
                   "PATH, or set PI_COMPACT_COMMAND to its path where pi starts", err=True)


@extension_app.command("uninstall")
def uninstall_command(project: ProjectOption = False) -> None:
    """Remove the installed extension: pi compacts on its own again from its next start."""
    from ..pi_extension import installed_path, uninstall

    removed = uninstall(Path.cwd() if project else None)
    if removed is None:
        typer.echo(f"not installed: no {installed_path(Path.cwd() if project else None)}")
    else:
        typer.echo(f"removed {removed}")


@extension_app.command("path")
def path_command() -> None:
    """Print the shipped extension's path, for 'pi -e PATH'."""
    from ..pi_extension import extension_path

    typer.echo(str(extension_path()))


__all__ = ["extension_app"]
