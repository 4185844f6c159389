"""Compaction settings: pi's defaults, pi's two settings files (the project wins key by key), our own keys in
the same block, type errors reported, and pi's ``shouldCompact``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_compact.compaction import CompactionSettings, load_settings, settings_from_mapping, should_compact
from pi_compact.errors import UsageError


def write_settings(path: Path, block: dict | None, **other) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {**other, **({"compaction": block} if block is not None else {})}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def agent(tmp_path, monkeypatch) -> Path:
    """An agent directory that is also where ``PI_CODING_AGENT_DIR`` points."""
    directory = tmp_path / "agent"
    directory.mkdir()
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(directory))
    return directory


def test_pi_defaults() -> None:
    settings = CompactionSettings()
    assert (settings.enabled, settings.reserve_tokens, settings.keep_recent_tokens) == (True, 16384, 20000)
    assert settings.summarizer == "offline" and settings.redact_secrets
    assert settings.summary_max_tokens == int(0.8 * 16384)
    assert settings.threshold(200_000) == 200_000 - 16384


def test_no_files_gives_the_defaults(tmp_path, agent) -> None:
    assert load_settings(tmp_path / "project") == CompactionSettings()


def test_global_file_from_the_agent_dir(tmp_path, agent) -> None:
    write_settings(agent / "settings.json", {"reserveTokens": 1000, "keepRecentTokens": 500}, theme="dark")
    settings = load_settings(tmp_path)
    assert (settings.reserve_tokens, settings.keep_recent_tokens) == (1000, 500)


def test_home_argument_overrides_the_agent_dir(tmp_path, agent) -> None:
    write_settings(agent / "settings.json", {"reserveTokens": 1000})
    other = tmp_path / "other-agent"
    write_settings(other / "settings.json", {"reserveTokens": 2000})
    assert load_settings(None, home=other).reserve_tokens == 2000


def test_project_wins_key_by_key(tmp_path, agent) -> None:
    write_settings(agent / "settings.json", {"reserveTokens": 1000, "keepRecentTokens": 500, "summarizer": "openai"})
    project = tmp_path / "project"
    write_settings(project / ".pi" / "settings.json", {"keepRecentTokens": 700, "enabled": False})
    settings = load_settings(project)
    assert settings.reserve_tokens == 1000  # global, not overridden
    assert settings.keep_recent_tokens == 700  # project wins
    assert settings.enabled is False
    assert settings.summarizer == "openai"


def test_our_keys_live_in_the_compaction_block() -> None:
    settings = settings_from_mapping({"summaryRatio": 1, "summaryMinTokens": 10, "summaryMaxTokens": 20,
                                      "toolResultChars": 300, "model": "m", "baseUrl": "http://x",
                                      "redactSecrets": False, "unknownKey": [1]})
    assert settings.summary_ratio == 1.0 and isinstance(settings.summary_ratio, float)
    assert (settings.summary_min_tokens, settings.summary_max_tokens, settings.tool_result_chars) == (10, 20, 300)
    assert (settings.model, settings.base_url, settings.redact_secrets) == ("m", "http://x", False)


def test_a_file_without_a_compaction_block_is_fine(tmp_path, agent) -> None:
    write_settings(agent / "settings.json", None, defaultModel="x")
    assert load_settings(tmp_path) == CompactionSettings()


@pytest.mark.parametrize(
    "block, message",
    [
        pytest.param({"reserveTokens": "big"}, "compaction.reserveTokens must be int", id="string-for-int"),
        pytest.param({"keepRecentTokens": True}, "compaction.keepRecentTokens must be int", id="bool-for-int"),
        pytest.param({"enabled": 1}, "compaction.enabled must be bool", id="int-for-bool"),
        pytest.param({"model": 5}, "compaction.model must be str", id="int-for-str"),
    ],
)
def test_wrong_types_are_errors(block, message) -> None:
    with pytest.raises(UsageError, match=message):
        settings_from_mapping(block)


def test_broken_json_is_an_error(tmp_path, agent) -> None:
    (agent / "settings.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(UsageError, match="cannot read settings"):
        load_settings(tmp_path)


def test_replace_ignores_none() -> None:
    settings = CompactionSettings().replace(reserve_tokens=None, keep_recent_tokens=5)
    assert settings.reserve_tokens == 16384 and settings.keep_recent_tokens == 5


@pytest.mark.parametrize(
    "tokens, window, enabled, expected",
    [
        pytest.param(95_000, 100_000, True, True, id="pi-95k-over"),
        pytest.param(89_000, 100_000, True, False, id="pi-89k-under"),
        pytest.param(95_000, 100_000, False, False, id="pi-disabled"),
        pytest.param(90_000, 100_000, True, False, id="exactly-at-threshold-is-not-over"),
        pytest.param(90_001, 100_000, True, True, id="one-over"),
        pytest.param(10**9, 0, True, False, id="unknown-window-never-triggers"),
    ],
)
def test_should_compact(tokens, window, enabled, expected) -> None:
    settings = CompactionSettings(enabled=enabled, reserve_tokens=10_000, keep_recent_tokens=20_000)
    assert should_compact(tokens, window, settings) is expected
