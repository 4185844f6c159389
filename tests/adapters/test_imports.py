"""The frameworks are optional: importing pi_compact never imports them, and a missing one names its extra."""

from __future__ import annotations

import subprocess
import sys

import pytest

FRAMEWORKS = ("agents", "langchain_core", "pydantic_ai")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_importing_the_library_imports_no_framework() -> None:
    code = (
        "import sys, pi_compact, pi_compact.adapters, pi_compact.convert, pi_compact.testing\n"
        f"print(sorted(set({FRAMEWORKS!r}) & set(sys.modules)))"
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("module", "framework", "extra"), [
    ("openai_agents", "agents", "openai-agents"),
    ("langchain", "langchain_core", "langchain"),
    ("pydantic_ai", "pydantic_ai", "pydantic-ai"),
], ids=["openai-agents", "langchain", "pydantic-ai"])
def test_a_missing_framework_names_the_extra(module: str, framework: str, extra: str) -> None:
    code = (
        f"import sys; sys.modules[{framework!r}] = None\n"
        f"try:\n    import pi_compact.adapters.{module}\n"
        "except ImportError as exc:\n    print(exc)\n"
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert f"pip install 'pi-compact[{extra}]'" in done.stdout
