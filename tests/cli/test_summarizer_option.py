"""Every command's ``--summarizer`` offers exactly the library's summarizers (:data:`pi_compact.llm.SUMMARIZERS`).

The help of each option names them, and each command refuses any other name with the library's own message.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from pi_compact.cli.app import app
from pi_compact.cli.chat_cmds import CHAT_SUMMARIZER
from pi_compact.llm import SUMMARIZERS
from sessions_fixtures import DEMO

COMMANDS = {
    ("session", "compact"): SUMMARIZERS,
    ("session", "checkout"): SUMMARIZERS,
    ("replay",): SUMMARIZERS,
    ("chat",): (CHAT_SUMMARIZER, *SUMMARIZERS),
}
"""Each command with a ``--summarizer`` option, and the names it must offer."""


def _commands_with_a_summarizer_option() -> dict[tuple[str, ...], str]:
    """Every command of the real CLI whose parameters include ``--summarizer``, with that option's help."""
    root = typer.main.get_command(app)
    found: dict[tuple[str, ...], str] = {}
    pending = [((), root)]
    while pending:
        path, command = pending.pop()
        for param in command.params:
            if "--summarizer" in getattr(param, "opts", ()):
                found[path] = param.help
        if hasattr(command, "list_commands"):
            ctx = typer.Context(command)
            pending += [((*path, name), command.get_command(ctx, name)) for name in command.list_commands(ctx)]
    return found


def _names_in(help_text: str) -> tuple[str, ...]:
    """``"Compaction summaries: model (the chat's, default), offline, anthropic or openai."`` → the four names."""
    listing = re.sub(r"\s*\([^)]*\)", "", help_text.rpartition(": ")[2]).rstrip(".")
    return tuple(re.split(r",\s*|\s+or\s+", listing))


def test_the_commands_with_a_summarizer_option_are_the_ones_listed_here() -> None:
    assert set(_commands_with_a_summarizer_option()) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(COMMANDS), ids=" ".join)
def test_the_option_help_names_exactly_the_library_summarizers(command: tuple[str, ...]) -> None:
    assert _names_in(_commands_with_a_summarizer_option()[command]) == COMMANDS[command]


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "COLUMNS")}
    environ.update({"HOME": str(tmp_path), "PI_CODING_AGENT_DIR": str(tmp_path / "agent")})
    return subprocess.run([sys.executable, "-m", "pi_compact", *args], capture_output=True, text=True, env=environ,
                          cwd=tmp_path, timeout=120)


@pytest.mark.parametrize("command", sorted(COMMANDS), ids=" ".join)
def test_any_other_name_is_refused_with_the_library_list(command: tuple[str, ...], tmp_path: Path) -> None:
    session = tmp_path / "s.jsonl"
    session.write_bytes(Path(DEMO).read_bytes())
    operands = {
        ("session", "compact"): [str(session)],
        ("session", "checkout"): [str(session), "root"],
        ("replay",): [str(session), "--window", "100000"],
        ("chat",): ["--session", str(session), "--provider", "openai", "--base-url", "http://127.0.0.1:9/v1"],
    }[command]
    done = run(tmp_path, *command, *operands, "--summarizer", "psychic")
    listed = ", ".join(COMMANDS[command])
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"pi-compact: error: unknown summarizer 'psychic': use one of {listed}\n"
    assert session.read_bytes() == Path(DEMO).read_bytes()
