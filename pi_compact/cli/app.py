"""The root ``pi-compact`` app and its ``session`` group, which command modules extend.

A command module imports :data:`app` (top-level commands such as ``replay`` or ``chat``) or
:data:`session_app` (``pi-compact session …``) and decorates its functions with ``.command(...)``. To make a
new module part of the CLI, add its dotted name to :data:`COMMAND_MODULES` (imported below, once both apps
exist) or :data:`SESSION_COMMAND_MODULES` (imported when the ``session`` group is first used). Command
modules import only typer and light parts of the library at module level (rich, the store and other heavy
packages inside the command bodies), so ``pi-compact --help`` stays fast.
"""

from __future__ import annotations

import importlib

import typer
from typer.core import TyperCommand, TyperGroup

COMMAND_MODULES: tuple[str, ...] = (
    "pi_compact.cli.chat_cmds",
    "pi_compact.cli.replay_cmds",
    "pi_compact.cli.import_cmds",
)
"""Modules that register top-level commands on :data:`app` when imported."""

SESSION_COMMAND_MODULES: tuple[str, ...] = (
    "pi_compact.cli.session_cmds",
    "pi_compact.cli.branch_cmds",
    "pi_compact.cli.compact_cmds",
    "pi_compact.cli.doctor_cmds",
    "pi_compact.cli.search_cmds",
)
"""Modules that register ``pi-compact session …`` commands on :data:`session_app`, imported when it is used."""


class Interrupted(Exception):
    """Ctrl-C during a command; :func:`pi_compact.cli.main` reports it like any other failure."""


class BrokenPipe(Exception):
    """stdout's reader went away; :func:`pi_compact.cli.main` stops quietly (click would exit 1)."""


class _RootGroup(TyperGroup):
    """The root group; its ``session`` group is built on first use.

    typer turns every command's signature into click parameters up front, and the session group's dozen
    commands (with their modules) cost a quarter of a start-up: ``pi-compact --help``, ``replay`` and
    ``chat`` do not pay for them. The help listing shows ``session`` from its help text alone.
    """

    _listing = False

    def list_commands(self, ctx):  # type: ignore[no-untyped-def]
        return [*super().list_commands(ctx), *(() if "session" in self.commands else ("session",))]

    def get_command(self, ctx, cmd_name):  # type: ignore[no-untyped-def]
        if cmd_name == "session" and "session" not in self.commands:
            if self._listing:
                return TyperCommand(name="session", help=SESSION_HELP)
            for module in SESSION_COMMAND_MODULES:
                importlib.import_module(module)
            self.commands["session"] = typer.main.get_group(session_app)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx, formatter):  # type: ignore[no-untyped-def]
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False

    def invoke(self, ctx):  # type: ignore[no-untyped-def]
        # typer turns a KeyboardInterrupt into a silent exit 130; we want the same one-line error as always.
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted() from None
        except BrokenPipeError:
            raise BrokenPipe() from None


app = typer.Typer(
    name="pi-compact",
    help="Store, inspect and compact LLM-agent conversations kept as pi session trees (JSONL).",
    cls=_RootGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: typer's rich help imports rich.markdown, a third of our 200 ms budget
    context_settings={"help_option_names": ["-h", "--help"]},
)

SESSION_HELP = "Inspect and edit one session file (or list a folder of them)."
session_app = typer.Typer(name="session", help=SESSION_HELP, no_args_is_help=True, rich_markup_mode=None)



def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"pi-compact {version('pi-compact')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            typer.echo("pi-compact (version unknown: not installed)")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True,
                                      callback=_print_version),
) -> None:
    """Store, inspect and compact LLM-agent conversations kept as pi session trees (JSONL)."""


for _module in COMMAND_MODULES:
    importlib.import_module(_module)
