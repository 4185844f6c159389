"""Every ```python block of README.md runs as written: offline, in a fresh directory, with warnings as errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```$", README.read_text(encoding="utf-8"), flags=re.S | re.M)


def _first_import(code: str) -> str:
    """A readable test id: the first pi_compact module a block imports."""
    found = re.search(r"^from (pi_compact[\w.]*) import", code, flags=re.M)
    return found.group(1) if found else "block"


def test_readme_shows_the_core_api_every_adapter_and_the_doubles() -> None:
    text = "\n".join(BLOCKS)
    for name in ("Session", "compact", "to_anthropic", "PiSession", "PiChatMessageHistory", "pi_history_processor",
                 "ScriptedSummarizer", "fake_llm_server"):
        assert name in text, name


@pytest.mark.parametrize("code", BLOCKS, ids=[f"{n}-{_first_import(code)}" for n, code in enumerate(BLOCKS)])
def test_readme_block_runs(code: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))}
    env.update(PI_CODING_AGENT_DIR=str(tmp_path / "agent"), OPENAI_AGENTS_DISABLE_TRACING="1")
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"


# -- the command line: every command and option of `--help` is in the README, and nothing else is -------------

CHAPTER = README.read_text(encoding="utf-8").split("## The command line", 1)[1].split("\n## ", 1)[0]
SYNOPSIS = [line.strip() for block in re.findall(r"^```sh\n(.*?)^```$", CHAPTER, flags=re.S | re.M)
            for line in block.splitlines() if line.strip().startswith("pi-compact")]
"""The synopsis lines of 'The command line': ``pi-compact COMMAND … [--option …]``, comments cut off below."""


def _cli_commands() -> dict[str, list[list[str]]]:
    """Every command of the app by its path (``session show``), with each option's spellings (``-o``, ``--output``)."""
    import typer

    from pi_compact.cli.app import app

    root = typer.main.get_command(app)
    found: dict[str, list[list[str]]] = {}
    stack = [("", root, None)]
    while stack:
        path, command, parent = stack.pop()
        context = command.make_context(path or "pi-compact", [], parent=parent, resilient_parsing=True)
        options = [[*p.opts, *p.secondary_opts] for p in command.params
                   if p.param_type_name == "option" and "--help" not in p.opts]
        found[path] = options
        for name in getattr(command, "list_commands", lambda ctx: [])(context):
            stack.append(((path + " " + name).strip(), command.get_command(context, name), context))
    return found


def _mentions(line: str, option: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", line) is not None


def _synopsis_of(path: str) -> list[str]:
    """The synopsis lines of a command: ``pi-compact PATH`` followed by arguments, not by a subcommand."""
    lines = []
    for line in SYNOPSIS:
        code = line.split("  #", 1)[0]
        words = code.split()[1:]
        named = [w for w in words if re.fullmatch(r"[a-z][a-z-]*", w)][: len(path.split())] if path else []
        if " ".join(words[: len(path.split())]) == path and named == (path.split() if path else []):
            lines.append(code)
    return lines


def test_every_command_and_option_of_the_cli_is_in_the_readme():
    missing = []
    for path, options in sorted(_cli_commands().items()):
        if path in ("", "session"):
            lines = [line.split("  #", 1)[0] for line in SYNOPSIS if line.split()[1:2] in ([], ["--version"])]
            lines = lines if path == "" else ["session"]
        else:
            lines = _synopsis_of(path)
            if not lines:
                missing.append(f"`pi-compact {path}`: no synopsis line in README's 'The command line' "
                               f"(add `pi-compact {path} …` to its ```sh block)")
                continue
        for spellings in options:
            if path == "session" or any(_mentions(line, s) for line in lines for s in spellings):
                continue
            missing.append(f"`pi-compact {path}`: option {' / '.join(spellings)} is not on its synopsis line "
                           f"in README's 'The command line'")
    assert not missing, "README.md is missing:\n" + "\n".join(missing)


def test_every_command_and_option_in_the_readme_exists():
    commands = _cli_commands()
    unknown = []
    for line in SYNOPSIS:
        code = line.split("  #", 1)[0]
        words = [w for w in code.split()[1:] if re.fullmatch(r"[a-z][a-z-]*", w)]
        path = ""
        for word in words:  # the longest run of words that names a command
            if (path + " " + word).strip() in commands:
                path = (path + " " + word).strip()
            else:
                break
        groups = {name.rsplit(" ", 1)[0] for name in commands if " " in name}
        if (not path and code.split()[1:2] != ["--version"]) or path in groups:
            unknown.append(f"{code!r}: no such command")
            continue
        known = {s for spellings in commands[path] for s in spellings} | {"-h", "--help"}
        for option in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", code):
            if option not in known:
                unknown.append(f"{code!r}: `pi-compact {path}` has no option {option}")
    prose = re.findall(r"`pi-compact ((?:[a-z][a-z-]* ?)+)", README.read_text(encoding="utf-8"))
    for mention in prose:
        path = " ".join(mention.split()[:2]) if mention.split()[0] == "session" else mention.split()[0]
        if path not in commands:
            unknown.append(f"`pi-compact {mention.strip()}` in the text: no such command")
    assert not unknown, "README.md names what the CLI does not have:\n" + "\n".join(unknown)
