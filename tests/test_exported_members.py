"""The public API: every name in ``pi_compact.__all__`` resolves, and importing the package stays light."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import pi_compact


def test_every_exported_name_resolves() -> None:
    assert len(pi_compact.__all__) == len(set(pi_compact.__all__))
    missing = [name for name in pi_compact.__all__ if getattr(pi_compact, name, None) is None]
    assert missing == []


def test_every_exported_name_is_the_object_of_its_submodule() -> None:
    assert set(pi_compact._LAZY) <= set(pi_compact.__all__)
    for name in pi_compact.__all__:
        home = importlib.import_module(pi_compact._LAZY.get(name, ".errors"), "pi_compact")
        assert getattr(pi_compact, name) is getattr(home, name), name


def test_an_unknown_name_is_an_import_error() -> None:
    with pytest.raises(ImportError):
        from pi_compact import NoSuchThing  # noqa: F401
    with pytest.raises(AttributeError, match="module 'pi_compact' has no attribute 'NoSuchThing'"):
        pi_compact.NoSuchThing  # noqa: B018


def test_dir_lists_every_export_before_it_is_imported() -> None:
    assert set(pi_compact.__all__) <= set(dir(pi_compact))


def test_importing_the_package_imports_only_the_errors() -> None:
    code = "import sys, pi_compact; print(sorted(m for m in sys.modules if m.split('.')[0] == 'pi_compact'))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # pi_compact.session, .context, .store.scan and the rest are imported on first use: `pi-compact --help` is faster
    assert done.stdout.strip() == "['pi_compact', 'pi_compact.errors']"


def test_no_exported_name_is_also_a_submodule() -> None:
    # Importing a submodule binds it on the package under its name: one named like an export would replace it.
    package = Path(pi_compact.__file__).parent
    submodules = {p.stem for p in package.glob("*.py")} | {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    assert set(pi_compact.__all__) & submodules == set()


def test_replay_is_the_function_after_every_submodule_is_imported() -> None:
    code = (
        "import pkgutil, importlib, types, pi_compact; "
        "[importlib.import_module(m.name) for m in pkgutil.iter_modules(pi_compact.__path__, 'pi_compact.')"
        " if m.name != 'pi_compact.__main__']; "
        "print(isinstance(pi_compact.replay, types.FunctionType))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True"]


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
