"""Compaction settings: pi's ``compaction`` block plus our own keys, read from pi's settings files.

``~/.pi/agent/settings.json`` (the agent directory honours ``PI_CODING_AGENT_DIR``) is read first, then
``<cwd>/.pi/settings.json``; the project wins key by key. pi's keys are ``enabled``, ``reserveTokens`` and
``keepRecentTokens``; ours live in the same block (pi ignores unknown keys).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..store.paths import agent_dir

_KEYS = {
    "enabled": "enabled",
    "reserveTokens": "reserve_tokens",
    "keepRecentTokens": "keep_recent_tokens",
    "summaryRatio": "summary_ratio",
    "summaryMinTokens": "summary_min_tokens",
    "summaryMaxTokens": "summary_max_tokens",
    "toolResultChars": "tool_result_chars",
    "summarizer": "summarizer",
    "model": "model",
    "baseUrl": "base_url",
    "redactSecrets": "redact_secrets",
}


@dataclass(frozen=True)
class CompactionSettings:
    """Everything compaction needs to decide when and how much to compact."""

    enabled: bool = True
    reserve_tokens: int = 16384
    """Room left for the model's answer: compaction triggers above ``window - reserve_tokens``."""
    keep_recent_tokens: int = 20000
    """How much of the newest conversation is kept verbatim."""
    summary_ratio: float = 0.2
    """The summary budget as a share of the tokens being summarized ..."""
    summary_min_tokens: int = 1024
    summary_max_tokens: int = 13107
    """... within these bounds (pi's maximum: 80% of the default reserve)."""
    tool_result_chars: int = 2000
    """Tool results longer than this are truncated in the summarizer's input (pi's figure)."""
    summarizer: str = "offline"
    """``offline`` (default, no network), ``anthropic`` or ``openai``."""
    model: str | None = None
    base_url: str | None = None
    redact_secrets: bool = True
    """Redact API keys, private keys and passwords before text goes to a remote summarizer."""

    def threshold(self, window: int) -> int:
        """The context size above which compaction triggers."""
        return window - self.reserve_tokens

    def summary_budget(self, summarized_tokens: int) -> int:
        wanted = int(summarized_tokens * self.summary_ratio)
        return max(self.summary_min_tokens, min(wanted, self.summary_max_tokens))

    def replace(self, **changes: Any) -> "CompactionSettings":
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})


def should_compact(context_tokens: int, window: int, settings: CompactionSettings) -> bool:
    """pi's rule: enabled and strictly above ``window - reserveTokens``.

    Unlike pi, an unknown window (0) never triggers: pi compacts on every turn then.
    """
    return settings.enabled and window > 0 and context_tokens > settings.threshold(window)


def load_settings(cwd: str | Path | None = None, *, home: Path | None = None) -> CompactionSettings:
    """Settings from the global then the project file; missing files are fine, broken ones are errors."""
    merged: dict[str, Any] = {}
    for path in _settings_files(cwd, home):
        merged.update(_compaction_block(path))
    return settings_from_mapping(merged)


def _settings_files(cwd: str | Path | None, home: Path | None) -> list[Path]:
    files = [(home or agent_dir()) / "settings.json"]
    if cwd is not None:
        files.append(Path(cwd) / ".pi" / "settings.json")
    return [f for f in files if f.is_file()]


def _compaction_block(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read settings {path}: {exc}") from None
    block = data.get("compaction") if isinstance(data, dict) else None
    return block if isinstance(block, dict) else {}


def settings_from_mapping(block: dict[str, Any]) -> CompactionSettings:
    """Build settings from a ``compaction`` block (pi's camelCase keys); wrong types are errors."""
    defaults = CompactionSettings()
    values: dict[str, Any] = {}
    for key, field_name in _KEYS.items():
        if key not in block or block[key] is None:
            continue
        expected = type(getattr(defaults, field_name)) if getattr(defaults, field_name) is not None else str
        value = block[key]
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise UsageError(f"settings: compaction.{key} must be {expected.__name__}, got {value!r}")
        values[field_name] = value
    return dataclasses.replace(defaults, **values)
