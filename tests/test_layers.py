"""The layers point one way: store <- context <- session <- compaction <- llm <- cli, read from the imports.

Every import counts, function-level and ``TYPE_CHECKING`` ones included: a lazy import still ties the
lower layer to the upper one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pi_compact"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Absolute names of the modules ``path`` imports (relative imports resolved)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return _imports_in(path.read_text(encoding="utf-8"), package)


def _imports_in(source: str, package: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = parts[: len(parts) - (node.level - 1)] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)  # `from . import x` imports x
    return found


def _package_imports(path: Path) -> set[str]:
    return {name for name in _imports(path) if name == "pi_compact" or name.startswith("pi_compact.")}


def _modules(under: str) -> list[Path]:
    folder = PACKAGE / under
    return sorted(folder.rglob("*.py")) if folder.is_dir() else [folder.with_suffix(".py")]


def _outside(imports: set[str], allowed: tuple[str, ...]) -> set[str]:
    return {name for name in imports if not any(name == a or name.startswith(a + ".") for a in allowed)}


BASE = ("pi_compact.errors", "pi_compact.types", "pi_compact.accessors")


@pytest.mark.parametrize(
    ("layer", "allowed"),
    [
        ("store", (*BASE, "pi_compact.store")),
        ("context", (*BASE, "pi_compact.store", "pi_compact.context")),
        ("session", (*BASE, "pi_compact.store", "pi_compact.context", "pi_compact.session")),
        ("compaction", (*BASE, "pi_compact.store", "pi_compact.context", "pi_compact.session", "pi_compact.compaction")),
        ("importers", (*BASE, "pi_compact.store", "pi_compact.context", "pi_compact.session", "pi_compact.importers")),
    ],
)
def test_a_layer_imports_nothing_above_it(layer: str, allowed: tuple[str, ...]) -> None:
    offending = {
        _module_name(path): sorted(outside)
        for path in _modules(layer)
        if (outside := _outside(_package_imports(path), allowed))
    }
    assert offending == {}


def test_the_library_never_imports_the_cli() -> None:
    # `python -m pi_compact` (__main__) is the CLI's own launcher.
    library = [p for p in PACKAGE.rglob("*.py") if "cli" not in p.relative_to(PACKAGE).parts and p.stem != "__main__"]
    offending = [_module_name(p) for p in library if any(n.startswith("pi_compact.cli") for n in _package_imports(p))]
    assert offending == []


@pytest.mark.parametrize("layer", ["store", "context", "compaction"])
def test_nothing_below_llm_knows_an_sdk(layer: str) -> None:
    sdks = ("anthropic", "openai")
    offending = {
        _module_name(path): sorted(n for n in _imports(path) if n.split(".")[0] in sdks)
        for path in _modules(layer)
    }
    assert {module: names for module, names in offending.items() if names} == {}


def test_the_import_reader_resolves_lazy_and_relative_imports() -> None:
    # The checks above are only as good as the reader: a function-level `from ..session import X` must count.
    source = "def f():\n    from ..session import Session\n    from . import jsonl\n    import orjson\n"
    found = _imports_in(source, "pi_compact.store")
    assert {"pi_compact.session", "pi_compact.store.jsonl", "orjson"} <= found
    assert _outside(found & {"pi_compact.session", "pi_compact.store.jsonl"}, ("pi_compact.store",)) == {
        "pi_compact.session"
    }
