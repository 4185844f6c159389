"""The manifest a package manager's command changes: ``npm install -D vitest`` writes ``package.json``.

Adding or removing a dependency through the package manager (``bun add``, ``npm i -D``, ``yarn add``, ``pnpm add``,
``uv add``, ``poetry add``, ``cargo add``, ``go get``, ``composer require``, ``dotnet add package``, ``dart pub
add``) rewrites the project's manifest without any edit tool touching it: the next agent must know the dependencies
changed, and where. The manifest is named in the directory the command ran in (a ``cd`` before it is followed by
:mod:`.shell`) or the one its options name (``--prefix web``, ``-C web``, ``--cwd web``, ``--manifest-path``).

Lock files (``package-lock.json``, ``bun.lock``, ``uv.lock``, ``Cargo.lock``, ``go.sum``) are left out: the tool
regenerates them from the manifest, and listing them beside it tells the reader nothing more. A command that adds to
no manifest is no change: ``pip install``, ``npm install`` without packages (it installs what the manifest says),
a global install (``npm i -g``, ``yarn global add``), ``--no-save``, a dry run. Where the manifest is one the command
picks by name rather than place (``--filter web``, ``-w web``, ``yarn workspace web add``, ``cargo add -p core``),
no path is guessed.
"""

from __future__ import annotations

import posixpath

_MANIFEST = {"npm": "package.json", "yarn": "package.json", "pnpm": "package.json", "bun": "package.json",
             "deno": "deno.json", "uv": "pyproject.toml", "poetry": "pyproject.toml", "pdm": "pyproject.toml",
             "rye": "pyproject.toml", "pipenv": "Pipfile", "cargo": "Cargo.toml", "go": "go.mod",
             "composer": "composer.json", "bundle": "Gemfile", "dart": "pubspec.yaml", "flutter": "pubspec.yaml"}
_CHANGING = {
    "npm": {"install", "i", "in", "ins", "add", "uninstall", "un", "unlink", "remove", "rm", "r"},
    "yarn": {"add", "remove", "upgrade", "up"},
    "pnpm": {"add", "install", "i", "remove", "rm", "uninstall", "un"},
    "bun": {"add", "a", "install", "i", "remove", "rm"},
    "deno": {"add", "install", "i", "remove", "uninstall"},
    "uv": {"add", "remove"}, "poetry": {"add", "remove"}, "pdm": {"add", "remove"}, "rye": {"add", "remove"},
    "pipenv": {"install", "uninstall"}, "cargo": {"add", "remove", "rm"}, "go": {"get"},
    "composer": {"require", "remove"}, "bundle": {"add", "remove"},
}
"""Per package manager, the subcommands that add or remove the dependencies named after them."""
_PUB = {"add", "remove"}
"""``dart pub add x``, ``flutter pub add x``."""
_FOLDER_OPTIONS = frozenset({"--prefix", "-C", "--dir", "--cwd", "--project", "--directory", "-d", "--working-dir"})
"""Options naming the directory the manager works in (``npm --prefix web``, ``pnpm -C web``, ``uv --project web``)."""
_MANIFEST_OPTIONS = frozenset({"--manifest-path", "--script"})
"""Options naming the manifest itself (``cargo add --manifest-path crates/a/Cargo.toml``, ``uv add --script x.py``)."""
_ELSEWHERE = frozenset({"-w", "--workspace", "--filter", "--package", "-g", "--global", "--location", "--no-save",
                        "--dry-run"})
"""Options after which the manifest is not the directory's own (a workspace or package picked by name), or none is
written (a global install, ``--no-save``, a dry run)."""
_ELSEWHERE_BY = {"cargo": frozenset({"-p"}), "pnpm": frozenset({"-F"})}
"""The same, for one manager (``cargo add -p core``, ``pnpm add -F web``; ``uv add -p 3.12`` names a Python)."""
_SOURCES = frozenset({"--git", "--path"})
"""Options whose value is the dependency itself (``cargo add --path ../core``)."""
_VALUED = frozenset({"--registry", "--tag", "--save-prefix", "--index", "--index-url", "--extra-index-url", "--group",
                     "-G", "--features", "-F", "--rev", "--branch", "--source", "--vers", "--constraint", "--extra",
                     "--marker", "--python", "-p", "--target"})
"""Options whose value is the next word (a value is no package)."""


def manifest_changes(program: str, args: list[str]) -> list[str]:
    """The manifest ``program args`` (one simple command, without what ran it) evidently changes, as a path relative
    to where it ran (or absolute when an option says so); ``[]`` for any other command."""
    if program in ("dart", "flutter"):
        if args[:1] != ["pub"] or args[1:2] == [] or args[1] not in _PUB:
            return []
        return _manifest(program, args[2:], "pub")
    if program == "dotnet":
        return _dotnet(args)
    return _manifest(program, args, "") if program in _CHANGING else []


def _manifest(program: str, args: list[str], subcommand: str) -> list[str]:
    folder, manifest, operands = "", "", 0
    words = iter(args)
    for word in words:
        option, _, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if option in _ELSEWHERE or option in _ELSEWHERE_BY.get(program, ()):
            return []
        if option in _FOLDER_OPTIONS or option in _MANIFEST_OPTIONS:
            given = value or next(words, "")
            folder, manifest = (given, manifest) if option in _FOLDER_OPTIONS else (folder, given)
        elif option in _VALUED or option in _SOURCES:
            operands += option in _SOURCES
            if not value:
                next(words, None)
        elif word.startswith("-") or word.isdigit():
            continue  # a flag, or the descriptor of a redirection (`bun install 2>&1`)
        elif not subcommand:
            if word not in _CHANGING[program]:
                return []  # `npm run x`, `uv sync`, `uv pip install x`, `yarn workspace web add x`
            subcommand = word
        else:
            operands += 1
    if not subcommand or not operands:
        return []  # `npm install`: installs what the manifest names, changing at most its lock file
    if manifest:
        return [posixpath.normpath(manifest)]
    path = posixpath.normpath(posixpath.join(folder, _MANIFEST[program])) if folder else _MANIFEST[program]
    return [path]


def _dotnet(args: list[str]) -> list[str]:
    """``dotnet add [PROJECT] package X`` / ``dotnet remove [PROJECT] package X``: the project file when named."""
    if args[:1] not in (["add"], ["remove"]) or "package" not in args[1:3]:
        return []
    project = args[1] if args[1] != "package" else ""
    return [project] if project.endswith(("proj", ".csproj", ".fsproj", ".vbproj")) else []


__all__ = ["manifest_changes"]
