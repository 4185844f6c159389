"""One spelling per file: paths named relative to the session's working directory, for the summary's reader.

An agent names the same file as an absolute path, relative to the project, relative to a package it ``cd``-ed
into, or as ``@file`` in a prompt; a summary that lists all four spellings wastes the next agent's context and
hides what was touched. :class:`PathNames` maps them to one name, and :func:`listed_files` gives pi's
``<read-files>``/``<modified-files>`` lists in that spelling, without directories or temporary files. The
entry's ``details`` keep the paths as the tools saw them (pi reads those); only the text changes.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from typing import Iterable

from .facts import EXTENSIONS, is_agent_own, is_scratch, shell_command

_CD = re.compile(r"(?:^|&&|;)\s*cd\s+(/[^\s;&|]+)")
_WINDOWS = re.compile(r"^[A-Za-z]:[\\/]")
_HOME = re.compile(r"^(?:/Users/[^/]++|/home/[^/]++|/root)(?=/)")
"""A home directory as macOS and Linux lay them out: what a shell's ``~`` stands for in a path under it."""
_HOME_VARIABLES = ("$HOME/", "${HOME}/")
_DRIVE = re.compile(r"^(?:([A-Za-z]):|/(?:mnt/|cygdrive/)?([A-Za-z])(?=/|$))")
"""A drive as Windows (``D:``), Git Bash or MSYS (``/d``), WSL (``/mnt/d``) or Cygwin (``/cygdrive/d``) spell it."""


def infer_cwd(messages: list[dict]) -> str:
    """The directory the agent's commands most often ``cd`` into: the session's cwd when it is not given."""
    seen: Counter[str] = Counter()
    for message in messages:
        for block in message.get("content") if isinstance(message.get("content"), list) else ():
            if isinstance(block, dict) and block.get("type") == "toolCall":
                command = shell_command(block.get("name"), block.get("arguments"))
                seen.update(match.group(1).rstrip("/") for match in _CD.finditer(command[:2000] if command else ""))
    return seen.most_common(1)[0][0] if seen else ""


class PathNames:
    """One spelling per file: relative to the working directory, ``./`` and ``@`` dropped, and a bare tail
    (``src/main.ts``) read as the one known longer path it ends (``packages/app/src/main.ts``)."""

    def __init__(self, cwd: str, known: Iterable[str]) -> None:
        # on Windows a file is named with either slash, any drive spelling and any case: compared as one
        self.windows = bool(_WINDOWS.match(cwd))
        self.cwd = (_on_windows(cwd) if self.windows else cwd).rstrip("/")
        self.full = sorted({self.plain(path) for path in known}, key=len, reverse=True)
        self._names: dict[str, str] = {}
        self._ends: dict[str, list[str]] | None = None

    def plain(self, path: str) -> str:
        path = path.strip().lstrip("@")
        if path.startswith(_HOME_VARIABLES):  # `$HOME/x` is `~/x`
            path = "~" + path[path.index("/"):]
        if path.startswith("~/") and (home := _HOME.match(self.cwd)) and not self.windows \
                and (self.cwd[:home.end()] + path[1:]).startswith(self.cwd + "/"):
            path = self.cwd[:home.end()] + path[1:]  # `~/app/src/a.py` from `/home/u/app`: the project's `src/a.py`
        if self.windows:
            path = _on_windows(path)
        within = path.lower() if self.windows else path
        cwd = self.cwd.lower() if self.windows else self.cwd
        if cwd and (within == cwd or within.startswith(cwd + "/")):
            path = path[len(cwd) + 1 :] or "."
        path = posixpath.normpath(path) if path else path
        return path[2:] if path.startswith("./") else path

    def name(self, path: str) -> str:
        # asked again and again for the same files (every turn, every list): each spelling is worked out once
        if path not in self._names:
            self._names[path] = self._name(path)
        return self._names[path]

    def _name(self, path: str) -> str:
        plain = self.plain(path)
        if plain.startswith("~/"):
            return self._at_home(plain)
        if plain.startswith(("/", "~")) or (self.windows and _WINDOWS.match(plain)):
            return plain
        longer = self._ending(plain)
        if longer and all(longer[0].endswith("/" + other) for other in longer[1:]):
            return longer[0]  # the longest, which every other candidate ends
        return plain

    def _ending(self, plain: str) -> list[str]:
        """The known paths that end with ``/`` + ``plain``, longest first, from an index of every known path's
        tails (a scan of all known paths per name would make naming n files quadratic)."""
        if self._ends is None:
            self._ends = {}
            for full in self.full:
                for tail in _tails(full):
                    self._ends.setdefault(tail, []).append(full)
        return self._ends.get(plain, []) if plain else [full for full in self.full if full.endswith("/")]

    def _at_home(self, plain: str) -> str:
        """``~/.wfc/x.md`` as the one known absolute path under a home directory it stands for
        (``/Users/sam/.wfc/x.md``): a command names a file with ``~`` where the file tools named it in full."""
        homes = {full for full in self._ending(plain[2:]) if (home := _HOME.match(full)) and full[home.end():] == plain[1:]}
        return homes.pop() if len(homes) == 1 else plain

    def is_directory(self, path: str, named: Iterable[str]) -> bool:
        """Written with a trailing ``/``, the working directory or one above it, or holding another named file."""
        if path.rstrip().endswith("/"):
            return True
        plain = self.plain(path)
        if plain in (".", "..", "/", "~") or (self.cwd and plain.startswith("/") and
                                              (self.cwd + "/").startswith(plain.rstrip("/") + "/")):
            return True
        inside = plain.rstrip("/") + "/"
        return any(other.startswith(inside) for other in named)


_MOST_TAILS = 64


def _tails(path: str) -> list[str]:
    """What ``path`` holds after each of its slashes (``a/b/c``: ``c``, ``b/c``), the last :data:`_MOST_TAILS` (a
    name is looked up by a short tail; a path nested deeper is not read whole for each of its levels)."""
    tails, slash = [], path.rfind("/")
    while slash >= 0 and len(tails) < _MOST_TAILS:
        tails.append(path[slash + 1:])
        slash = path.rfind("/", 0, slash)
    return tails


def _on_windows(path: str) -> str:
    """A Windows path in one spelling: forward slashes, the drive as ``D:/`` (from ``d:\\``, ``/d/``, ``/mnt/d/``)."""
    path = path.replace("\\", "/")
    drive = _DRIVE.match(path)
    if drive:
        path = f"{(drive.group(1) or drive.group(2)).upper()}:{path[drive.end():] or '/'}"
    return path


_EXTENSION = re.compile(rf"^(?:{EXTENSIONS}|bak|orig|lock|example|sample|template|tmpl|d)$", re.I)


def is_file_name(path: str) -> bool:
    """A name that can be a file: not a key path such as ``.metadata.entity_name`` (a jq filter read as a path, and
    named from a directory the shell stood in: ``web/.metadata.entity_name``), whose last dotted part is no
    extension."""
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if not last or any(c.isspace() for c in path.strip()):
        return False
    if not last.startswith(".") or last.count(".") < 2:
        return True  # `src/a.py`, `Makefile`, `.env`
    stem, extension = last[1:].split(".", 1)[0], last.rsplit(".", 1)[1]
    # `.eslintrc.json`, `.env.local`; not `.data.items`
    return bool(_EXTENSION.match(extension)) or stem == "env" or stem.endswith("rc")


_REDACTION = re.compile(
    r"(?<![a-z])redacted(?![a-z])"  # `name.REDACTED.md`, `/Users/[redacted]/`, `REDACTED_1.txt`
    r"|\*{3}|(?<![a-z0-9])x{3,}(?![a-z0-9])"  # `***`, a `xxx` / `XXXX` placeholder standing for a name
    r"|<[^<>/]{1,40}>"  # `<redacted>`, `<user>`: angle brackets stand for a value, no file is named so
    r"|(?<![^/])path/to/|(?<![^/])\.{3}(?:/|$)|…",  # `/path/to/a.py`; a cut: `src/…/a.py`, `src/.../a.py`
    re.I)
"""A mark a redaction tool or a writer left where a name was (``/Users/name.REDACTED.md``, ``/home/***/app.py``,
``~/<user>/notes.md``, ``/Users/xxx/a.py``), an example's ``/path/to/`` or a cut (``src/…/a.py``): the path names no
file a continuing agent can open. Read by form, as a word of its own in the path, not inside one (``xxxhash.c``,
``unredacted.py`` are files)."""


def is_redacted(path: str) -> bool:
    """True when ``path`` holds a redaction mark or a placeholder (:data:`_REDACTION`)."""
    return bool(_REDACTION.search(path[:1000]))


def listed_files(read: Iterable[str], modified: Iterable[str], cwd: str,
                 gone: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """pi's two file lists as a reader wants them: one spelling per file, sorted, no directories, temporary
    files, the agent's own bookkeeping (a plan file in ``~/.claude/plans``: a continuing agent would take it for a
    file of the project) or names that cannot be files or hold a redaction mark, nothing in ``gone`` (changes the
    user declined, files deleted since),
    and a file that was changed listed only as changed."""
    read, modified = list(read), list(modified)
    names = PathNames(cwd, read + modified)
    spelled = {path: names.name(path) for path in read + modified}
    every = set(spelled.values())
    absent = {names.name(path) for path in gone}
    kept = {path: name for path, name in spelled.items()
            if not _aside(path, cwd) and not _aside(name, cwd) and not names.is_directory(path, every)
            and is_file_name(name) and not is_redacted(name) and name not in absent}
    changed = sorted({kept[path] for path in modified if path in kept})
    looked_at = sorted({kept[path] for path in read if path in kept} - set(changed))
    return looked_at, changed


def _aside(path: str, cwd: str = "") -> bool:
    return is_scratch(path) or is_agent_own(path) or is_tool_state(path, cwd)


_HOME_FOLDER = re.compile(r"^(?:~|\$HOME|\$\{HOME\}|/Users/[^/]++|/home/[^/]++|/root|[A-Za-z]:/Users/[^/]++)/\.(?=[^/])",
                          re.I)
"""A hidden folder in a home folder (``~/.gstack/``, ``/home/u/.cache/``): where a tool keeps its own things."""
_KEPT_IN_TOOL = frozenset({"skills", "agents", "commands", "hooks", "rules", "prompts", "output-styles"})
"""Folders of a tool's home folder that hold what the user writes and maintains (a skill, an agent, a hook), not the
tool's state."""
_CONFIG_FOLDERS = frozenset({"config", "ssh", "aws", "kube", "docker"})
"""Hidden home folders that hold the user's configuration (``~/.config/app/config.toml``, ``~/.ssh/config``)."""


def is_tool_state(path: str, cwd: str = "") -> bool:
    """A file a tool or skill pack keeps for itself under the home folder: below a subfolder of a hidden home folder
    (``~/.gstack/state/session.json``, ``~/.cache/pip/log.txt``, ``~/.claude/plugins/cache/x.json``), unless that
    subfolder holds what the user maintains (``~/.claude/skills/…``), the folder is configuration (``~/.config``)
    or the work itself happens in it (the working directory is inside). A file directly in the hidden folder
    (``~/.codex/config.toml``, ``~/.claude/CLAUDE.md``) is the user's setting, kept."""
    plain = path.strip().lstrip("@").replace("\\", "/")
    home = _HOME_FOLDER.match(plain)
    if not home:
        return False
    parts = plain[home.end():].split("/")
    if len(parts) < 3 or parts[0].lower() in _CONFIG_FOLDERS or parts[1].lower() in _KEPT_IN_TOOL:
        return False
    folder = plain[:home.end()] + parts[0]
    cwd = cwd.replace("\\", "/").rstrip("/")
    return not (cwd and (cwd + "/").startswith(folder + "/"))


__all__ = ["PathNames", "infer_cwd", "is_file_name", "is_redacted", "is_tool_state", "listed_files"]
