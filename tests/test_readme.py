"""Every ```python block of README.md runs as written: offline, in a fresh directory, with warnings as errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```$", README.read_text(encoding="utf-8"), flags=re.S | re.M)


def _first_import(code: str) -> str:
    """A readable test id: the first pi_compact module a block imports."""
    found = re.search(r"^from (pi_compact[\w.]*) import", code, flags=re.M)
    return found.group(1) if found else "block"


def test_readme_shows_the_core_api_every_adapter_and_the_doubles() -> None:
    text = "\n".join(BLOCKS)
    for name in ("Session", "compact", "to_anthropic", "PiSession", "PiChatMessageHistory", "pi_history_processor",
                 "ScriptedSummarizer", "fake_llm_server"):
        assert name in text, name


@pytest.mark.parametrize("code", BLOCKS, ids=[f"{n}-{_first_import(code)}" for n, code in enumerate(BLOCKS)])
def test_readme_block_runs(code: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))}
    env.update(PI_CODING_AGENT_DIR=str(tmp_path / "agent"), OPENAI_AGENTS_DISABLE_TRACING="1")
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
