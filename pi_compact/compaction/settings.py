"""Compaction settings: pi's ``compaction`` block plus our own keys, read from pi's settings files.

``~/.pi/agent/settings.json`` (the agent directory honours ``PI_CODING_AGENT_DIR``) is read first, then
``<cwd>/.pi/settings.json``; the project wins key by key. pi's keys are ``enabled``, ``reserveTokens`` and
``keepRecentTokens``; ours live in the same block (pi ignores unknown keys).

A project folder is not trusted: anybody's repository can carry a ``.pi/settings.json``. The keys that
choose where the conversation and the API key go (``summarizer``, ``model``, ``baseUrl``) or that turn
redaction off (``redactSecrets``) are read from the user's own file only (and from flags and the
environment, which the callers apply); in a project file they are ignored, with a warning.
"""

from __future__ import annotations

import dataclasses
import json
import logging
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
    "offlineSummaryTokens": "offline_summary_tokens",
    "offlineSummaryRatio": "offline_summary_ratio",
    "offlineSummaryMaxTokens": "offline_summary_max_tokens",
    "toolResultChars": "tool_result_chars",
    "summarizer": "summarizer",
    "model": "model",
    "baseUrl": "base_url",
    "summarizerWindow": "summarizer_window",
    "redactSecrets": "redact_secrets",
}

USER_ONLY_KEYS = frozenset({"summarizer", "model", "baseUrl", "redactSecrets"})
"""Keys a project's settings file may not set: where data and keys are sent, and whether secrets are redacted."""

_log = logging.getLogger(__name__)


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
    offline_summary_tokens: int = 1500
    offline_summary_ratio: float = 0.1
    offline_summary_max_tokens: int = 4000
    """The offline summary's length budget: this many tokens or this share of what it replaces, whichever is
    larger, at most the maximum (see :meth:`length_budget`)."""
    tool_result_chars: int = 2000
    """Tool results longer than this are truncated in the summarizer's input (pi's figure)."""
    summarizer: str = "offline"
    """``offline`` (default, no network), ``anthropic`` or ``openai``."""
    model: str | None = None
    base_url: str | None = None
    summarizer_window: int = 0
    """The summarizer model's own context window, in tokens; its input is folded in chunks that fit. ``0``: the
    model's known window (set it for a local server with a small context)."""
    redact_secrets: bool = True
    """Redact API keys, private keys and passwords before text goes to a remote summarizer."""

    def threshold(self, window: int) -> int:
        """The context size above which compaction triggers."""
        return window - self.reserve_tokens

    def summary_budget(self, summarized_tokens: int) -> int:
        wanted = int(summarized_tokens * self.summary_ratio)
        return max(self.summary_min_tokens, min(wanted, self.summary_max_tokens))

    def length_budget(self, replaced_tokens: int) -> int:
        """Tokens the offline summary may take when it replaces ``replaced_tokens`` (region and previous summary)."""
        wanted = max(self.offline_summary_tokens, int(replaced_tokens * self.offline_summary_ratio))
        return max(1, min(wanted, self.offline_summary_max_tokens))

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
    user_file = (home or agent_dir()) / "settings.json"
    if user_file.is_file():
        merged.update(_compaction_block(user_file))
    project_file = Path(cwd) / ".pi" / "settings.json" if cwd is not None else None
    if project_file is not None and project_file.is_file():
        merged.update(_trusted_part(_compaction_block(project_file), project_file))
    return settings_from_mapping(merged)


def _trusted_part(block: dict[str, Any], path: Path) -> dict[str, Any]:
    """A project's block without the keys only the user may set; one warning names those left out."""
    ignored = sorted(key for key in block if key in USER_ONLY_KEYS)
    if ignored:
        names = ", ".join(f"compaction.{key}" for key in ignored)
        # ascii(): the path is the project's, and may hold terminal controls
        _log.warning("warning: %s ignored in %s: a project may not choose where data goes or turn redaction off; "
                     "set it in your own settings, a flag or the environment", names, ascii(str(path)))
    return {key: value for key, value in block.items() if key not in USER_ONLY_KEYS}


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
