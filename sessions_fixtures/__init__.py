"""Where the bundled session files are: the one place tests and benchmarks find them.

Everything lives inside the project, so a plain clone runs its tests with nothing beside it. The pi sessions in
``pi/`` come from pi's own test fixtures (MIT licence; see ``README.md`` here).
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
PI_DIR = HERE / "pi"
DEMO = HERE / "demo.jsonl"
REALISTIC = HERE / "realistic.jsonl"
BRANCHES = HERE / "branches.jsonl"

AGENTS_DIR = HERE / "agents"
"""Other agents' transcripts (Claude Code, Codex) from public repositories; ``agents/INDEX.json`` lists them."""

BEFORE_COMPACTION = PI_DIR / "before-compaction.v1.jsonl"
LARGE_SESSION = PI_DIR / "large-session.v1.jsonl"
PI_SESSIONS = (BEFORE_COMPACTION, LARGE_SESSION)
"""pi's real v1 session files, in name order."""

__all__ = ["AGENTS_DIR", "BEFORE_COMPACTION", "BRANCHES", "DEMO", "HERE", "LARGE_SESSION", "PI_DIR", "PI_SESSIONS", "REALISTIC"]
