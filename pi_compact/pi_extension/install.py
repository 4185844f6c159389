"""Where the extension file lives, and copying it to where pi finds extensions.

pi loads every ``*.js``/``*.ts`` file in ``~/.pi/agent/extensions/`` (``$PI_CODING_AGENT_DIR/extensions``) and
in a project's ``.pi/extensions/``. :func:`install` copies the shipped file there (atomically, so a pi starting
meanwhile never loads half a file); :func:`uninstall` removes it, and nothing else.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import UsageError
from ..store.paths import agent_dir

EXTENSION_NAME = "pi-compact.js"
"""The file's name, shipped in this package and installed under the same name."""


def extension_path() -> Path:
    """The shipped extension, for ``pi -e PATH``."""
    return Path(__file__).with_name(EXTENSION_NAME)


def extensions_dir(project: str | os.PathLike | None = None) -> Path:
    """pi's global extension folder, or ``<project>/.pi/extensions`` when a project folder is given."""
    return Path(project) / ".pi" / "extensions" if project is not None else agent_dir() / "extensions"


def installed_path(project: str | os.PathLike | None = None) -> Path:
    return extensions_dir(project) / EXTENSION_NAME


def install(project: str | os.PathLike | None = None) -> Path:
    """Copy the extension into pi's (or the project's) extension folder; an older copy is replaced."""
    target = installed_path(project)
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise UsageError(f"{target} exists and is not a regular file; remove it first")
    target.parent.mkdir(parents=True, exist_ok=True)
    data = extension_path().read_bytes()
    handle, temporary = tempfile.mkstemp(prefix=f".{EXTENSION_NAME}.", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


def uninstall(project: str | os.PathLike | None = None) -> Path | None:
    """Remove the installed extension; the path removed, or ``None`` when there was none."""
    target = installed_path(project)
    if not (target.is_symlink() or target.is_file()):
        return None
    target.unlink()
    return target


__all__ = ["EXTENSION_NAME", "extension_path", "extensions_dir", "install", "installed_path", "uninstall"]
