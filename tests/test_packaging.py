"""What a user installing the wheel gets: the licence, the version, the type information, the description.

Checked against the installed distribution's metadata (``make`` installs the package, as a user would), so a
field dropped from ``pyproject.toml`` fails here, not on PyPI.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import metadata, version
from pathlib import Path

import pi_compact

ROOT = Path(__file__).resolve().parent.parent


def test_the_version_is_the_distributions() -> None:
    assert pi_compact.__version__ == version("pi-compact")
    assert "__version__" in dir(pi_compact)


def test_the_version_is_read_only_when_asked_for() -> None:
    code = "import sys, pi_compact; print('importlib.metadata' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_type_checking_is_not_a_name_of_the_package() -> None:
    assert "TYPE_CHECKING" not in dir(pi_compact)
    assert not hasattr(pi_compact, "TYPE_CHECKING")


def test_the_licence_ships_and_is_declared() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    found = metadata("pi-compact")
    assert found["License-Expression"] == "MIT"
    assert "LICENSE" in (found.get_all("License-File") or [])


def test_the_package_is_marked_typed() -> None:
    assert (Path(pi_compact.__file__).parent / "py.typed").is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["pi_compact"]


def test_project_urls_are_declared() -> None:
    urls = metadata("pi-compact").get_all("Project-URL") or []
    assert urls and all(", https://" in url for url in urls)


def test_the_description_starts_with_prose_not_a_command() -> None:
    # PyPI shows the README: its first paragraph must say what the package is, not how to run the tests.
    lines = [line for line in (ROOT / "README.md").read_text().splitlines() if line.strip()]
    assert lines[0].startswith("# ")
    assert lines[1][0].isalpha() and not lines[1].startswith(("make", "```"))


def test_the_core_needs_no_more_than_it_did() -> None:
    # The installed footprint: the core is orjson, typer, rich and the two SDKs; anything else is an extra.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {dep.split(">")[0].split("<")[0].split("=")[0].strip() for dep in project["dependencies"]}
    assert names == {"orjson", "typer", "rich", "anthropic", "openai"}
