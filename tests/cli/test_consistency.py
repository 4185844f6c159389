"""What every command shares (issue 24, "Consistency"): one wording for a bad number, examples and defaults in
every ``--help``, and typer's shell completion."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest
from typer.main import get_command, get_group

from pi_compact.cli.app import SESSION_COMMAND_MODULES, app, session_app
from sessions_fixtures import REALISTIC


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    return subprocess.run([sys.executable, "-m", "pi_compact", *args], capture_output=True, text=True,
                          env={**environ, **(env or {})}, timeout=120)


def _commands() -> list[tuple[str, object]]:
    for module in SESSION_COMMAND_MODULES:
        importlib.import_module(module)
    found = [(f"session {name}", command) for name, command in sorted(get_group(session_app).commands.items())]
    return found + [("replay", get_command(app).commands["replay"])]


COMMANDS = _commands()


@pytest.mark.parametrize(("args", "option", "allowed"), [
    (["replay", str(REALISTIC), "--window", "0"], "--window 0", "from 1 up"),
    (["replay", str(REALISTIC), "--reserve", "-3"], "--reserve -3", "from 0 up"),
    (["replay", str(REALISTIC), "--keep-recent", "many"], "--keep-recent many", "from 0 up"),
    (["replay", str(REALISTIC), "--summarizer-window", "1.5"], "--summarizer-window 1.5", "from 1 up"),
    (["session", "compact", str(REALISTIC), "--window", "-5", "--dry-run"], "--window -5", "from 1 up"),
    (["session", "compact", str(REALISTIC), "--reserve", "abc", "--dry-run"], "--reserve abc", "from 0 up"),
    (["session", "search", str(REALISTIC), "x", "--limit", "51"], "--limit 51", "from 1 to 50"),
    (["session", "checkout", str(REALISTIC), "root", "--summarizer-window", "0"], "--summarizer-window 0", "from 1 up"),
], ids=lambda value: value if isinstance(value, str) else " ".join(value[:2]))
def test_a_bad_number_has_one_wording_everywhere(args, option, allowed):
    done = run(*args)
    assert done.returncode == 2
    assert done.stderr == f"pi-compact: error: {option}: use a whole number {allowed}\n"


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[name for name, _ in COMMANDS])
def test_every_help_has_examples_of_its_own_command(name, command):
    text = command.help or ""
    assert "Examples:" in text
    examples = [line.strip() for line in text.split("Examples:", 1)[1].splitlines() if line.strip().startswith("pi-compact")]
    assert len(examples) >= 2 and all(line.startswith(f"pi-compact {name}") for line in examples)


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[name for name, _ in COMMANDS])
def test_every_option_with_a_default_shows_it(name, command):
    import click  # noqa: F401  (typer's own copy is what the commands use)

    hidden = []
    for param in command.params:
        if param.param_type_name != "option" or getattr(param, "is_flag", False) or param.expose_value is False:
            continue
        shown = "[default:" in (param.help or "") or (param.default is not None and param.show_default is not False)
        described = param.default is None and "default" not in (param.help or "").lower()
        if not shown and not described:
            hidden.append(param.opts[0])
    assert hidden == []


def test_a_numeric_default_is_printed_in_help():
    text = " ".join(run("replay", "-h").stdout.split())  # lines joined where the help wraps them
    assert "[default: 128000]" in text and "[default: pi's 16,384, scaled to the window]" in text


@pytest.mark.parametrize(("words", "expected"), [
    ("pi-compact session sh", "show"),
    ("pi-compact replay --win", "--window"),
    ("pi-compact session search --compa", "--compacted"),
])
def test_shell_completion_completes_commands_and_options(words, expected):
    done = run(env={"_PI_COMPACT_COMPLETE": "complete_bash", "COMP_WORDS": words,
                    "COMP_CWORD": str(len(words.split()) - 1)})
    assert done.returncode == 0 and expected in done.stdout.split()


def test_the_completion_script_is_printed():
    done = run("--show-completion", "bash")
    assert done.returncode == 0 and "_PI_COMPACT_COMPLETE=complete_bash" in done.stdout
