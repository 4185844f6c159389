"""A command whose ``cd`` failed read nothing where its paths say: what follows ``cd X &&`` never ran, and what
follows ``cd X;`` ran in the folder the shell was in. Its paths are no read files (a Claude Code shell already in
``vendor/cli`` that runs ``cd vendor/cli && grep x cmd/a.go`` again read no ``vendor/cli/vendor/cli/cmd/a.go``),
unless another call read them."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.facts import extract_facts

from ..messages import assistant, call, result, user

CD_FAILED = {  # bash, zsh (Claude Code runs zsh's `eval`), sh
    "bash": "bash: line 1: cd: {folder}: No such file or directory",
    "zsh": "(eval):cd:1: no such file or directory: {folder}",
    "sh": "sh: 1: cd: can't cd to {folder}\ncd: {folder}: No such file or directory",
}
TOOLS = {"pi": ("bash", lambda c: {"command": c}), "claude": ("Bash", lambda c: {"command": c, "description": "x"})}


def _run(agent: str, key: str, command: str, output: str, error: bool = False) -> list[dict]:
    tool, arguments = TOOLS[agent]
    return [assistant(call(key, tool, **arguments(command))), result(key, tool, output, error=error)]


@pytest.mark.parametrize("agent", sorted(TOOLS))
@pytest.mark.parametrize("shell", sorted(CD_FAILED))
@pytest.mark.parametrize("reader", ["grep -n createSandbox cmd/sandbox.go", "cat cmd/sandbox.go",
                                    "sed -n 1,40p cmd/sandbox.go"])
def test_the_paths_of_a_command_whose_cd_failed_are_no_read_files(agent, shell, reader) -> None:
    messages = [user("Where is the sandbox created?"),
                *_run(agent, "c1", f"cd vendor/nope && {reader}", CD_FAILED[shell].format(folder="vendor/nope"),
                      error=True)]
    read = extract_facts(messages).read_files
    assert not [path for path in read if path.endswith("sandbox.go")], read


@pytest.mark.parametrize("shell", sorted(CD_FAILED))
def test_a_path_another_call_read_stays_a_read_file(shell) -> None:
    messages = [user("Where is the sandbox created?"),
                *_run("pi", "c1", "cat vendor/cli/cmd/sandbox.go", "package cmd\n\nfunc createSandbox() {}"),
                *_run("pi", "c2", "cd vendor/cli && cat cmd/sandbox.go", CD_FAILED[shell].format(folder="vendor/cli"),
                      error=True)]
    assert "vendor/cli/cmd/sandbox.go" in extract_facts(messages).read_files
