"""The ``pi-compact`` command line: a thin layer over the library's public API.

:func:`main` runs the typer app and turns every deliberate error (:class:`~pi_compact.errors.PiCompactError`),
a usage error, an operating-system error or an interrupt into one line on stderr and exit code 2, never a
traceback. When the reader of stdout goes away (``pi-compact session show F | head -1``), the command stops
quietly with :data:`EXIT_BROKEN_PIPE`, as ``cat`` or ``git`` killed by SIGPIPE do. Nothing heavy is imported
here, so ``pi-compact --help`` starts fast.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from ..errors import PiCompactError

EXIT_ERROR = 2
"""The exit code of every failure, as for click's own usage errors."""
EXIT_BROKEN_PIPE = 128 + 13
"""The exit code when stdout's reader has gone: what a shell reports for a tool killed by SIGPIPE."""


def main(argv: Sequence[str] | None = None) -> None:
    """Run ``pi-compact`` with ``argv`` (default: ``sys.argv[1:]``); exits the process."""
    from typer import _click as click
    import typer

    from .app import BrokenPipe, Interrupted, app

    _tolerate_unencodable_output()
    try:
        code = typer.main.get_command(app).main(args=argv, prog_name="pi-compact", standalone_mode=False)
        sys.stdout.flush()
    except click.exceptions.NoArgsIsHelpError as exc:
        exc.show()  # the help text, as for `-h`, on stderr
        code = EXIT_ERROR
    except click.exceptions.UsageError as exc:
        _fail(_usage_message(exc))
    except click.exceptions.ClickException as exc:
        _fail(exc.format_message())
    except PiCompactError as exc:
        _fail(str(exc))
    except (BrokenPipe, BrokenPipeError):
        _quit_on_broken_pipe()
    except OSError as exc:
        _fail(_os_error_message(exc))
    except (Interrupted, KeyboardInterrupt, typer.Abort):
        _fail("interrupted")
    sys.exit(code if isinstance(code, int) else 0)


def _tolerate_unencodable_output() -> None:
    """Characters the terminal's encoding lacks (``PYTHONIOENCODING=latin-1``) are written as ``\\u2022``."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            reconfigure(errors="backslashreplace")


def _usage_message(exc) -> str:  # type: ignore[no-untyped-def]
    """click's usage error as one line, with the command to ask for help."""
    message = exc.format_message()
    if exc.ctx is None:
        return message
    return f"{message} (see '{exc.ctx.command_path} -h')"


def _fail(message: str) -> None:
    from .render import one_line

    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quit_on_broken_pipe()
    sys.stderr.write(f"pi-compact: error: {one_line(message)}\n")
    sys.exit(EXIT_ERROR)


def _quit_on_broken_pipe() -> None:
    """Stop without a word: whatever is still buffered for stdout goes nowhere, not into an error at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout is not a file descriptor (tests): nothing will flush into a closed pipe
    finally:
        os.close(devnull)
    sys.exit(EXIT_BROKEN_PIPE)


def _os_error_message(exc: OSError) -> str:
    if exc.strerror and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror}"
    return exc.strerror or str(exc) or type(exc).__name__


__all__ = ["EXIT_BROKEN_PIPE", "EXIT_ERROR", "main"]
