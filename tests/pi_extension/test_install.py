"""``pi-compact extension install|uninstall|path``: the shipped file, copied where pi finds extensions, and gone again.

The last test starts the real pi without ``-e``: after ``install`` it offers the model our ``recall`` tool (pi
found the extension by itself); with ``PI_COMPACT_EXTENSION=off`` or after ``uninstall`` it does not.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from pi_compact.pi_extension import EXTENSION_NAME, extension_path
from pi_compact.testing import FakeReply, fake_llm_server
from tests.pi_extension.pi_rpc import PiRpc, agent_dir

PI_COMPACT = Path(sys.executable).parent / "pi-compact"


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(PI_COMPACT), "extension", *args], capture_output=True, text=True, cwd=cwd, timeout=60)


def test_path_prints_the_shipped_file_which_is_package_data() -> None:
    done = cli("path")
    assert done.returncode == 0
    shipped = Path(done.stdout.strip())
    assert shipped == extension_path() and shipped.name == EXTENSION_NAME
    assert shipped.read_bytes() == files("pi_compact.pi_extension").joinpath(EXTENSION_NAME).read_bytes()


def test_the_extension_is_a_valid_es_module(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.fail("the extension's tests need node (as the conformance tests do)")
    copy = tmp_path / "extension.mjs"
    copy.write_bytes(extension_path().read_bytes())
    done = subprocess.run(["node", "--check", str(copy)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_install_copies_it_to_pis_extension_folder_and_uninstall_removes_it(agent_folder: Path) -> None:
    target = agent_folder / "extensions" / EXTENSION_NAME
    done = cli("install")
    assert done.returncode == 0 and f"installed {target}" in done.stdout
    assert target.read_bytes() == extension_path().read_bytes() and target.stat().st_mode & 0o777 == 0o644
    target.write_text("// an older version")
    assert cli("install").returncode == 0
    assert target.read_bytes() == extension_path().read_bytes()
    assert [p.name for p in target.parent.iterdir()] == [EXTENSION_NAME]  # no temporary file left
    done = cli("uninstall")
    assert done.returncode == 0 and f"removed {target}" in done.stdout and not target.exists()
    done = cli("uninstall")
    assert done.returncode == 0 and done.stdout.startswith("not installed")


def test_project_install_goes_to_the_projects_pi_folder(tmp_path: Path, agent_folder: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert cli("install", "--project", cwd=project).returncode == 0
    assert (project / ".pi" / "extensions" / EXTENSION_NAME).read_bytes() == extension_path().read_bytes()
    assert not (agent_folder / "extensions").exists()
    assert cli("uninstall", "--project", cwd=project).returncode == 0
    assert list((project / ".pi" / "extensions").iterdir()) == []


def test_a_directory_in_the_way_is_one_error_line(agent_folder: Path) -> None:
    (agent_folder / "extensions" / EXTENSION_NAME).mkdir(parents=True)
    done = cli("install")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("pi-compact: error: ") and done.stderr.count("\n") == 1
    assert "is not a regular file" in done.stderr


def test_pi_finds_the_installed_extension_and_loses_it_on_uninstall(tmp_path: Path) -> None:
    offered = []
    with fake_llm_server() as server:
        agent = agent_dir(tmp_path / "pi", server.url, context_window=32_000)
        (tmp_path / "work").mkdir()
        for command, env in (("install", {}), ("install", {"PI_COMPACT_EXTENSION": "off"}), ("uninstall", {})):
            done = subprocess.run([str(PI_COMPACT), "extension", command], capture_output=True, text=True,
                                  env={"PI_CODING_AGENT_DIR": str(agent), "PATH": ""}, timeout=60)
            assert done.returncode == 0, done.stderr
            with PiRpc(agent=agent, cwd=tmp_path / "work", extensions=[], env=env) as pi:
                server.push(FakeReply(text="Hello."))
                pi.prompt("Hello?")
            tools = server.requests[-1].body.get("tools") or []
            offered.append("recall" in [tool["function"]["name"] for tool in tools])
    assert offered == [True, False, False]  # installed; installed but turned off; uninstalled


def test_install_says_when_pis_path_would_not_find_this_pi_compact(agent_folder: Path) -> None:
    done = subprocess.run([str(PI_COMPACT), "extension", "install"], capture_output=True, text=True, timeout=60,
                          env={"PI_CODING_AGENT_DIR": str(agent_folder), "PATH": "/nonexistent"})
    assert done.returncode == 0 and "installed" in done.stdout
    assert done.stderr == (f"note: 'pi-compact' on PATH is missing, not this one ({PI_COMPACT.resolve()}): put this "
                           "one on pi's PATH, or set PI_COMPACT_COMMAND to its path where pi starts\n")
    found = subprocess.run([str(PI_COMPACT), "extension", "install"], capture_output=True, text=True, timeout=60,
                           env={"PI_CODING_AGENT_DIR": str(agent_folder), "PATH": str(PI_COMPACT.parent)})
    assert found.returncode == 0 and found.stderr == ""
