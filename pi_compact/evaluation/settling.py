"""What a failed call acts on, read from its command or target, so a later event can settle it (issue 20): the
paths it meant to remove or put in place (settled when a later call removes or puts them in place another way),
the command or program it ran (a retry the user stops runs it again) and the program it found missing (settled only
when that program later runs).

Like the rest of the scorer it reads only the region: it shares no code with the summarizers it grades. Commands
are split with string methods, not patterns, so every function here is linear in the command.
"""

from __future__ import annotations

from .faults import CHANGING_TOOLS, file_acts

_SEPARATORS = ("&&", "||", ";", "|", "\n")
_WRAPPERS = frozenset({"sudo", "env", "time", "nice", "exec", "command", "uv", "run", "npx", "bunx", "pnpm", "yarn",
                       "poetry", "pipx", "-m"})
"""Words that run the program after them (``uv run pytest``, ``sudo make``): the program is the next word."""
_MISSING_AFTER = (": command not found", ": not found", ": no such file or directory")
_MISSING_BEFORE = ("command not found: ", "no such file or directory: ")


def command_of(target: str) -> str:
    """The shell command of a call target (``Bash:make test`` → ``make test``), or ``""`` for a file tool's."""
    name, _, rest = target.partition(":")
    if rest and name.lower() in ("bash", "shell", "exec", "run_command", "terminal"):
        return rest
    return "" if rest and "/" not in name and " " not in name else target


def programs(command: str) -> list[str]:
    """The programs a shell command runs, in order: the first word of each simple command, past environment
    settings and wrappers, without its folder (``./bin/build.sh`` → ``build.sh``)."""
    pieces = [command.replace("2>&1", " ")]
    for separator in _SEPARATORS:
        pieces = [part for piece in pieces for part in piece.split(separator)]
    found = []
    for piece in pieces:
        for word in piece.split():
            word = word.strip("'\"()")
            if not word or word in _WRAPPERS or ("=" in word and not word.startswith(("/", "."))):
                continue
            if word[0].isalpha() or word[0] in "./~_":
                found.append(word.rstrip("/").rsplit("/", 1)[-1])
            break
    return found


def _head(command: str) -> str:
    """A command without what only shapes its output (``2>&1 | tail -5``)."""
    return " ".join(command.replace("2>&1", " ").split("|", 1)[0].split())


def failure_key(command: str, missing: str | None) -> str:
    """What a retry of a failed command runs again: the program it found missing, else the command itself."""
    return f"run:{missing}" if missing else f"cmd:{_head(command)}"


def retry_keys(command: str) -> set[str]:
    """The failures ``command`` would retry: each command of its ``&&`` chain, and each program it runs."""
    commands = {f"cmd:{_head(part)}" for part in command.split("&&")}
    return commands | {f"run:{name.lower()}" for name in programs(command)}


def missing_program(output: str, command: str) -> str | None:
    """The program of ``command`` its ``output`` says is not there ("command not found: X", "X: not found",
    "X: No such file or directory" of a program ``command`` runs), or ``None``: a missing file an argument names
    is no missing program."""
    lowered = output[:2000].lower()
    named = set()
    for marker in _MISSING_AFTER:  # the marker ends its line ("gh: Not Found (HTTP 404)" is a server's answer)
        end = lowered.find(marker)
        if end > 0 and lowered[end + len(marker):end + len(marker) + 1] in ("", "\n", "\r"):
            named.add(lowered[:end].rsplit(None, 1)[-1].rsplit(":", 1)[-1])
    for marker in _MISSING_BEFORE:
        start = lowered.find(marker)
        if start >= 0 and lowered[start + len(marker):].split(None, 1):
            named.add(lowered[start + len(marker):].split(None, 1)[0])
    run = {name.lower() for name in programs(command)}
    for name in named:
        name = name.strip("'\"`").rstrip("/").rsplit("/", 1)[-1]
        if name and name in run:
            return name
    return None


def acted_paths(target: str, tool: str) -> list[str]:
    """The paths a call removes or puts in place: a file tool's file (``Edit``, ``Write``), a command's ``rm``
    paths, ``mv`` ends and ``cp`` destinations."""
    if tool:
        path = target.split(":", 1)[-1]
        return [path] if f"{tool}:".lower().startswith(CHANGING_TOOLS) and path else []
    paths = []
    for act, path, destination in file_acts(command_of(target)):
        paths.extend(p for p in ((path if act != "copied" else ""), destination) if p)
    return paths


def last_part(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def same_path(one: str, other: str) -> bool:
    """Two spellings of one path: equal, or one ends with the other at a "/" (a relative path and an absolute
    one), a ``~`` taken as any home."""
    one, other = (p.strip("'\"").rstrip("/").removeprefix("./").removeprefix("~/") for p in (one, other))
    shorter, longer = sorted((one, other), key=len)
    return bool(shorter) and (longer == shorter or longer.endswith("/" + shorter))


__all__ = ["acted_paths", "command_of", "failure_key", "last_part", "missing_program", "programs", "retry_keys",
           "same_path"]
