"""The public API: every name in ``pi_compact.__all__`` resolves, and importing the package stays light."""

from __future__ import annotations

import subprocess
import sys

import pi_compact


def test_every_exported_name_resolves() -> None:
    assert len(pi_compact.__all__) == len(set(pi_compact.__all__))
    missing = [name for name in pi_compact.__all__ if getattr(pi_compact, name, None) is None]
    assert missing == []


def test_public_names_are_exported() -> None:
    public = {name for name in vars(pi_compact) if not name.startswith("_") and name[0].isupper()}
    assert public - {"TYPE_CHECKING"} <= set(pi_compact.__all__)


def test_importing_the_package_imports_no_sdk_and_no_framework() -> None:
    code = (
        "import sys, pi_compact; "
        "heavy = [m for m in ('anthropic', 'openai', 'rich', 'typer', 'agents', 'langchain_core', 'pydantic_ai') "
        "if m in sys.modules]; print(','.join(heavy))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
