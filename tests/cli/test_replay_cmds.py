"""`pi-compact replay` through the real entry point: the report, --json, --out, --plot, and one-line errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from pi_compact import Session
from pi_compact.store.paths import AGENT_DIR_ENV

PROJECT = Path(__file__).resolve().parents[2]
REALISTIC = PROJECT / "sessions_fixtures" / "realistic.jsonl"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty pi agent directory, so the developer's own settings change nothing."""
    (tmp_path / "agent").mkdir()
    return tmp_path / "agent"


def run(*args: str, home: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    return subprocess.run(
        [sys.executable, "-m", "pi_compact", "replay", *args],
        capture_output=True, text=True, timeout=120, cwd=home.parent,
        env={**clean, AGENT_DIR_ENV: str(home), "COLUMNS": "100", **(env or {})},
    )


def test_the_report_shows_compactions_peak_retention_and_the_curve(home: Path) -> None:
    before = REALISTIC.read_bytes()
    done = run(str(REALISTIC), "--window", "16000", home=home)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "window 16,000 · threshold 12,000 (reserve 4,000) · keep recent 3,000" in out
    assert "summarizer offline · 134 messages, 51 model requests" in out
    assert "compaction(s)" in out and "strategy" in out and "→" in out
    assert "violations  0 request(s) over the window" in out
    assert "peak  " in out and "of the window)" in out
    for label in ("files read", "files modified", "commands", "errors", "user constraints", "identifiers", "overall"):
        assert label in out
    assert "Summary quality" in out
    assert all(column in out for column in ("precision", "stale", "length")) and "\n all " in out
    assert "┈" in out and any(block in out for block in "▁▂▃▄▅▆▇█")
    assert REALISTIC.read_bytes() == before


def test_json_is_one_object_with_everything(home: Path) -> None:
    done = run(str(REALISTIC), "--window", "16000", "--json", home=home)
    assert done.returncode == 0, done.stderr
    report = orjson.loads(done.stdout)
    assert report["window"] == 16000 and report["threshold"] == 12000 and report["violations"] == 0
    assert report["compactions"] and all(c["tokensAfter"] < c["tokensBefore"] for c in report["compactions"])
    assert len(report["curve"]) == report["requests"] and report["peakTokens"] == max(p[1] for p in report["curve"])
    assert set(report["retention"]) >= {"readFiles", "errors", "constraints", "files", "overall"}
    assert report["output"] is None and report["plot"] is None
    quality = report["quality"]
    assert {"precision", "staleness", "errorAccuracy", "charRatio", "tokenRatio", "stale", "unsupported"} <= set(quality)
    assert quality["summaries"] == len(report["compactions"])
    assert all(0 <= c["quality"]["precision"] <= 1 for c in report["compactions"] if c["quality"]["items"])


def test_out_writes_a_new_session_and_leaves_the_input_alone(home: Path, tmp_path: Path) -> None:
    source = tmp_path / "source.jsonl"
    source.write_bytes(REALISTIC.read_bytes())
    out = tmp_path / "replayed.jsonl"
    done = run(str(source), "--window", "16000", "--out", str(out), "--json", home=home)
    assert done.returncode == 0, done.stderr
    report = orjson.loads(done.stdout)
    assert source.read_bytes() == REALISTIC.read_bytes()
    written = Session.open(out)
    compactions = [e["id"] for e in written.entries() if e["type"] == "compaction"]
    assert compactions == [c["entryId"] for c in report["compactions"]]
    assert report["output"] == str(out)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.jsonl"], "no such file"),
        (["garbage.jsonl"], "no session header"),
        (["good.jsonl", "--window", "1000", "--reserve", "1000"], "must be larger than the reserve"),
        (["good.jsonl", "--summarizer", "magic"], "unknown summarizer"),
        (["good.jsonl", "--out", "good.jsonl"], "already exists"),
    ],
    ids=["missing", "not-a-session", "window-too-small", "bad-summarizer", "out-exists"],
)
def test_bad_input_is_one_line_and_exit_2(home: Path, args: list[str], message: str) -> None:
    folder = home.parent
    (folder / "garbage.jsonl").write_text("this is not json\n")
    (folder / "good.jsonl").write_bytes(REALISTIC.read_bytes())
    done = run(*args, home=home)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("pi-compact: error: ")
    assert message in done.stderr
    assert (folder / "good.jsonl").read_bytes() == REALISTIC.read_bytes()


def test_plot_without_matplotlib_is_a_clear_error(home: Path, tmp_path: Path) -> None:
    stub = tmp_path / "stub" / "matplotlib"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("raise ImportError('matplotlib is not installed')\n")
    done = run(str(REALISTIC), "--plot", str(tmp_path / "x.png"), home=home,
               env={"PYTHONPATH": f"{tmp_path / 'stub'}{os.pathsep}{PROJECT}"})
    assert done.returncode == 2
    assert done.stderr == "pi-compact: error: --plot needs matplotlib: pip install 'pi-compact[plot]'\n"
    assert not (tmp_path / "x.png").exists()


def test_plot_writes_a_png(home: Path, tmp_path: Path) -> None:
    png = tmp_path / "curve.png"
    done = run(str(REALISTIC), "--window", "16000", "--plot", str(png), home=home)
    assert done.returncode == 0, done.stderr
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert f"Plot written to {png}" in done.stdout


LLM_SUMMARY = "\n".join(f"{heading}\n- noted by the fake model" for heading in (
    "## Goal", "## Constraints & Preferences", "## Progress", "## Key Decisions", "## Next Steps",
    "## Critical Context", "## Original Request", "## Early Progress", "## Context for Suffix"))


def test_an_llm_summarizer_is_called_and_its_cost_reported(home: Path) -> None:
    from pi_compact.testing import fake_llm_server

    with fake_llm_server(default_text=LLM_SUMMARY) as server:
        done = run(str(REALISTIC), "--window", "16000", "--summarizer", "openai", "--model", "fake-model",
                   "--base-url", server.url + "/v1", "--json", home=home, env={"OPENAI_API_KEY": "sk-test"})
        assert done.returncode == 0, done.stderr
        calls = len(server.requests)
    report = orjson.loads(done.stdout)
    assert report["summarizer"] == "openai" and report["violations"] == 0
    assert calls >= 1 and report["summarizerInputTokens"] > 0 and report["summarizerOutputTokens"] > 0
    assert any(c["strategy"] == "summarize" and c["fallbackReason"] is None for c in report["compactions"])


def test_json_keys_are_camel_case_everywhere(home: Path) -> None:
    done = run(str(REALISTIC), "--window", "16000", "--json", home=home)
    assert done.returncode == 0, done.stderr
    keys, stack = set(), [orjson.loads(done.stdout)]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            keys.update(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    assert {"readFiles", "modifiedFiles"} <= keys
    assert [key for key in keys if "_" in key] == []  # as pi's own JSON: readFiles, not read_files
