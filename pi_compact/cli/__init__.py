"""The ``pi-compact`` command line: a thin layer over the library's public API.

:func:`main` runs the typer app and turns every deliberate error (:class:`~pi_compact.errors.PiCompactError`),
an operating-system error or an interrupt into one line on stderr and exit code 2, never a traceback.
Nothing heavy is imported here, so ``pi-compact --help`` starts fast.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..errors import PiCompactError

EXIT_ERROR = 2
"""The exit code of every failure, as for typer's own usage errors."""


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``pi-compact`` with ``argv`` (default: ``sys.argv[1:]``); exits the process."""
    import typer

    from .app import Interrupted, app

    try:
        typer.main.get_command(app).main(args=argv, prog_name="pi-compact")
    except PiCompactError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(_os_error_message(exc))
    except (Interrupted, KeyboardInterrupt):
        _fail("interrupted")


def _fail(message: str) -> None:
    from .render import one_line

    sys.stdout.flush()
    sys.stderr.write(f"pi-compact: error: {one_line(message)}\n")
    sys.exit(EXIT_ERROR)


def _os_error_message(exc: OSError) -> str:
    if exc.strerror and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror}"
    return exc.strerror or str(exc) or type(exc).__name__


__all__ = ["EXIT_ERROR", "main"]
