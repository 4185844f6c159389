"""The core of a shell command: what it ran for, without the setup around it. Agents retry a failed command under a
prefix that fixes its setting — ``git stash && git rebase main``, ``cd web && npm test``, ``sudo -E docker compose
up``, ``FOO=1 make deploy``, ``uv run pytest``, ``bundle exec rspec``, ``bash -c '…'``, ``timeout 60 npm run e2e``,
``nice -n 10 make test``, ``cmd 2>&1 | tail``, a script of lines (``export X=1`` then ``flask db upgrade``) — and
the retry that succeeded settles the failure: its core holds the failed one's.

A core is a set of simple commands, each as its program and the words that are no option (``pytest -x a.py`` and
``pytest a.py -q`` are one run; ``pytest a.py`` and ``pytest b.py``, ``git rebase main`` and ``git rebase dev``
are not). Of a command that succeeded, only what its success shows ran well counts (:func:`passed_core`): every part
of an ``&&`` chain, the last list of a script (the one whose status the call reports; all of them under ``set -e``),
what comes after the last ``||``, of a pipeline the stage before the filters that only trim its output. Of a failed
command, every part but the shell's own setup (``cd``, ``export``, ``source``, ``sleep``) and looks (``ls``,
``cat``): any of them may be what failed (:func:`failed_core`).
"""

from __future__ import annotations

import re

from .shell import INSPECTORS, after_options, simple_commands

Core = tuple[str, ...]
"""A simple command's program and the words that are no option: ``("git", "rebase", "main")``."""

_SETUP = frozenset({"cd", "pushd", "popd", "source", ".", "export", "set", "unset", "sleep", "true", ":", "ulimit",
                    "umask", "alias", "shopt", "trap", "wait"})
"""The shell's own setup: where to run, with what in the environment; what a command ran for is elsewhere."""
_FILTERS = frozenset({"head", "tail", "grep", "egrep", "less", "more", "wc", "sort", "cat", "uniq", "tee", "cut"})
"""Pipeline stages that only trim or keep what a command prints."""
_MASKS = frozenset({"true", ":", "echo", "printf", "exit"})
"""A step after ``||`` that succeeds whatever came before: the status is lost."""
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
_WRAPPER_VALUES = {
    "sudo": frozenset({"-u", "-g", "-U", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "--user", "--group"}),
    "doas": frozenset({"-u", "-C"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "-n", "-p", "-t"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "xvfb-run": frozenset({"-s", "-n", "-f", "-e", "-p", "--server-args", "--server-num"}),
    "npx": frozenset({"-p", "--package", "-c", "--call"}), "bunx": frozenset({"-p", "--package"}),
    "pnpx": frozenset({"-p", "--package"}), "uvx": frozenset({"--from", "--with", "--python", "-p"}),
    "time": frozenset({"-f", "-o", "--format", "--output"}), "nohup": frozenset(), "chronic": frozenset(),
    "unbuffer": frozenset(), "caffeinate": frozenset(), "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S"}),
}
"""Programs that run the program after them, with their options that take a value."""
_TAKES_ONE = frozenset({"timeout"})
"""Wrappers with one operand of their own before the program (``timeout 60 npm test``)."""
_RUN_VERBS = {"uv": "run", "poetry": "run", "pipenv": "run", "pdm": "run", "rye": "run", "hatch": "run",
              "conda": "run", "mamba": "run", "pixi": "run", "bundle": "exec", "pnpm": "exec", "yarn": "exec",
              "npm": "exec", "bun": "x", "direnv": "exec", "mise": "exec", "asdf": "exec", "rbenv": "exec",
              "pyenv": "exec", "devbox": "run"}
"""Package managers and version managers that run a tool with a word (``uv run pytest``, ``bundle exec rspec``)."""
_RUN_VALUES = frozenset({"--with", "-p", "--project", "--directory", "-n", "--name", "--env", "-e", "--python",
                         "--package", "--group", "--extra", "--env-file", "--prefix", "-C", "--filter", "-F"})
_UNTIL_DASHES = frozenset({"dotenv", "op", "infisical", "doppler", "with-env"})
"""Programs that load secrets or an environment, then run what follows their ``--``."""
TRIAL_OPTIONS = frozenset({"--dry-run", "--dryrun", "--check", "--help", "-h", "--version", "-V", "--noop",
                           "--what-if", "--list", "--plan"})
"""Options under which a command only tries, shows or describes what it would do: no run of the real thing."""
_INTERPRETER = re.compile(r"^(?:python|pypy)[\d.]{0,6}$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w{0,100}=")
_MOST_UNWRAPS = 6
_MOST_WORDS = 40
_MOST_SHELLS = 8
"""Shells given code inside shells given code (``bash -lc "sh -c '…'"``) unwrapped at most: real commands nest
two or three; the bound keeps a crafted command from recursing without end."""


def passed_core(command: str, _depth: int = 0) -> set[Core]:
    """The simple commands a success of ``command`` shows ran well, each as its core (see the module), the shell's
    setup left out."""
    items = simple_commands(command)
    if not items:
        return set()
    strict = any(words[0] == "set" and any(word.startswith("-") and "e" in word for word in words[1:])
                 for _, words in items)
    start = 0
    for at, (joint, _) in enumerate(items):
        if joint == "&" or (joint == ";" and not strict):
            start = at  # (what ran before a `;` reported no status; what went to the background, none yet)
        elif joint == "||":
            start = at
    tail = items[start:]
    if tail and tail[0][0] == "&" or any(joint == "&" for joint, _ in items[start + 1:]):
        return set()
    if tail and tail[0][0] == "||" and tail[0][1][0] in _MASKS:
        return set()
    found: set[Core] = set()
    for stage in _status_stages(tail):
        found.update(_cores(stage, depth=_depth, passed=True))
    return {core for core in found if core[0] not in _SETUP}  # (no failure's core is the shell's setup)


def failed_core(command: str, _depth: int = 0) -> set[Core]:
    """The simple commands of a failed ``command`` that may be what failed, each as its core: every one but the
    shell's setup and looks (when something else is left)."""
    cores = {core for _, words in simple_commands(command) for core in _cores(words, depth=_depth, passed=False)}
    work = {core for core in cores if core[0] not in _SETUP and core[0] not in INSPECTORS}
    return work or {core for core in cores if core[0] not in _SETUP}


def _status_stages(items: list[tuple[str, list[str]]]) -> list[list[str]]:
    """Of a list of simple commands joined by ``&&`` and ``|``, those whose status the list's shows: each ``&&``
    part's pipeline's last stage once the filters after it are dropped."""
    stages: list[list[str]] = []
    pipeline: list[list[str]] = []
    for joint, words in [*items, ("end", [])]:
        if joint == "|" and words:
            pipeline.append(words)
            continue
        while len(pipeline) > 1 and pipeline[-1][0].rsplit("/", 1)[-1] in _FILTERS:
            pipeline.pop()
        stages.extend(pipeline[-1:])
        pipeline = [words] if words else []
    return stages


def _cores(words: list[str], depth: int, passed: bool) -> set[Core]:
    """The core of one simple command: its wrappers taken off (``sudo -E``, ``uv run``, ``timeout 60``); a shell
    given code (``bash -c '…'``) is the core of that code."""
    words = unwrapped(words)
    if not words:
        return set()
    program = words[0].rsplit("/", 1)[-1].lower()
    if program in _SHELLS and depth < _MOST_SHELLS:
        code = _shell_code(words[1:])
        if code is not None:
            return passed_core(code, depth + 1) if passed else failed_core(code, depth + 1)
    program = "python" if _INTERPRETER.match(program) else program
    if passed and not TRIAL_OPTIONS.isdisjoint(words):
        return set()  # (a dry run did not do what the real run was to do)
    return {(program, *(word for word in words[1:_MOST_WORDS] if not word.startswith("-")))}


def unwrapped(words: list[str]) -> list[str]:
    """``words`` without the programs that only run the one after them and the environment they set (``sudo -E
    FOO=1 nice -n 10 uv run --with x pytest a.py`` → ``pytest a.py``; ``python3 -m pytest`` → ``pytest``)."""
    for _ in range(_MOST_UNWRAPS):
        while words and (_ASSIGNMENT.match(words[0]) or words[0] == "--"):
            words = words[1:]
        if not words:
            return words
        program = words[0].rsplit("/", 1)[-1].lower()
        if program in _WRAPPER_VALUES:
            rest = after_options(words[1:], _WRAPPER_VALUES[program])
            words = rest[1:] if program in _TAKES_ONE and rest else rest
        elif program in _RUN_VERBS and words[1:2] in ([_RUN_VERBS[program]], ["dlx"]):
            words = after_options(words[2:], _RUN_VALUES)
            words = words[1:] if program in ("direnv", "mise") and words[:1] in (["."], ["--"]) else words
        elif program in _UNTIL_DASHES and "--" in words:
            words = words[words.index("--") + 1:]
        elif _INTERPRETER.match(program) and words[1:2] == ["-m"] and len(words) > 2:
            words = words[2:]
        else:
            return words
    return words


def _shell_code(args: list[str]) -> str | None:
    """The code a shell is given with ``-c`` (``bash -lc 'cd web && npm test'``), or ``None``."""
    for at, word in enumerate(args):
        if word.startswith("-") and not word.startswith("--") and "c" in word[1:]:
            return args[at + 1] if at + 1 < len(args) else None
        if not word.startswith("-"):
            return None
    return None


__all__ = ["TRIAL_OPTIONS", "Core", "failed_core", "passed_core", "unwrapped"]
