"""A summarizer without its key says which summarizer needs which variable, for every command that builds one."""

from __future__ import annotations

import pytest

from pi_compact.compaction import CompactionSettings
from pi_compact.errors import SummarizerError, UsageError
from pi_compact.llm import check_summarizer_key, missing_key, summarizer_for


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)


@pytest.mark.parametrize(
    ("provider", "base_url", "env", "missing"),
    [
        ("anthropic", None, {}, "ANTHROPIC_API_KEY"),
        ("anthropic", "http://127.0.0.1:9", {}, "ANTHROPIC_API_KEY"),  # a proxy for Claude still wants the key
        ("anthropic", None, {"ANTHROPIC_API_KEY": "k"}, None),
        ("openai", None, {}, "OPENAI_API_KEY"),
        ("openai", "http://127.0.0.1:9/v1", {}, None),  # a local server needs none
        ("openai", None, {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, None),
        ("offline", None, {}, None),
    ],
)
def test_missing_key(provider, base_url, env, missing, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert missing_key(provider, base_url=base_url) == missing
    settings = CompactionSettings(summarizer=provider, base_url=base_url)
    if missing is None:
        assert summarizer_for(settings).name == provider
        check_summarizer_key(provider, origin="--summarizer", base_url=base_url)
        return
    with pytest.raises(SummarizerError, match=f"^the summarizer \\({provider}\\) needs {missing}$"):
        summarizer_for(settings)
    with pytest.raises(UsageError, match=f"^the summarizer \\({provider}, from x.json\\) needs {missing}: set it"):
        check_summarizer_key(provider, origin="x.json", base_url=base_url)
    assert summarizer_for(settings, api_key="k").name == provider  # a key given outright is enough
