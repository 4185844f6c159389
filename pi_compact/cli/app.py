"""The root ``pi-compact`` app and its ``session`` group, which command modules extend.

A command module imports :data:`app` (top-level commands such as ``replay`` or ``chat``) or
:data:`session_app` (``pi-compact session …``) and decorates its functions with ``.command(...)``. To make a
new module part of the CLI, add its dotted name to :data:`COMMAND_MODULES`; it is imported below, once both
apps exist. Command modules import only typer and the library at module level (rich and other heavy
packages inside the command bodies), so ``pi-compact --help`` stays fast.
"""

from __future__ import annotations

import importlib

import typer
from typer.core import TyperGroup

COMMAND_MODULES: tuple[str, ...] = (
    "pi_compact.cli.session_cmds",
    "pi_compact.cli.branch_cmds",
    "pi_compact.cli.compact_cmds",
    "pi_compact.cli.chat_cmds",
    "pi_compact.cli.replay_cmds",
    "pi_compact.cli.doctor_cmds",
)
"""Modules that register commands on :data:`app` or :data:`session_app` when imported."""


class Interrupted(Exception):
    """Ctrl-C during a command; :func:`pi_compact.cli.main` reports it like any other failure."""


class _RootGroup(TyperGroup):
    def invoke(self, ctx):  # type: ignore[no-untyped-def]
        # typer turns a KeyboardInterrupt into a silent exit 130; we want the same one-line error as always.
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted() from None


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

session_app = typer.Typer(
    help="Inspect and edit one session file (or list a folder of them).",
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(session_app, name="session")

for _module in COMMAND_MODULES:
    importlib.import_module(_module)
