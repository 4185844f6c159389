"""Fixtures of the extension's tests: a private pi agent folder, and requests built as the extension builds them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_compact import Session
from pi_compact.compaction import CompactionSettings, prepare_compaction


@pytest.fixture(autouse=True)
def agent_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``PI_CODING_AGENT_DIR`` in the test's folder (never the user's own settings), and no provider keys."""
    folder = tmp_path / "agent"
    folder.mkdir()
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(folder))
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return folder


def write_settings(folder: Path, compaction: dict) -> None:
    (folder / "settings.json").parent.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"compaction": compaction}))


def compact_request(session: Session, *, keep_recent: int = 1_000, reserve: int = 1_000, **fields) -> dict:
    """What the extension sends for ``session``'s branch: pi's preparation (computed here by our conformant
    ``prepare_compaction``, with pi's ``fileOps`` arrays) and the branch entries."""
    path = session.branch()
    settings = CompactionSettings(reserve_tokens=reserve, keep_recent_tokens=keep_recent)
    prep = prepare_compaction(path, settings)
    assert prep is not None
    preparation = {
        "firstKeptEntryId": prep.first_kept_entry_id,
        "messagesToSummarize": list(prep.messages_to_summarize),
        "turnPrefixMessages": list(prep.turn_prefix_messages),
        "isSplitTurn": prep.is_split_turn,
        "tokensBefore": prep.tokens_before,
        "previousSummary": prep.previous_summary,
        "fileOps": {"read": list(prep.files.read_files), "written": [], "edited": list(prep.files.modified_files)},
        "settings": {"enabled": True, "reserveTokens": reserve, "keepRecentTokens": keep_recent},
    }
    return {"protocol": 1, "type": "compact", "cwd": session.cwd, "branchEntries": path,
            "preparation": preparation, **fields}


def openai_model(server_url: str, *, key: str | None = "sk-test-key-123", window: int = 32_000, api: str = "openai-completions") -> dict:
    model = {"provider": "fake", "id": "fake-coder", "api": api, "baseUrl": server_url + "/v1",
             "contextWindow": window}
    if key is not None:
        model["apiKey"] = key
    return model
