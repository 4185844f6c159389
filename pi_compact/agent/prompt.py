"""The system prompt, rebuilt before every model request with the project's rules read fresh from disk.

Rules live in ``AGENTS.md`` (or, where there is none, ``CLAUDE.md``) files: the global one in the agent
directory, then one per directory from the filesystem root down to the working directory, as pi loads them.
They are part of the system prompt, never of the conversation, so compaction cannot summarize them away, and
an edit to a rules file counts from the next request on. The prompt carries the date but not the time, so it
stays byte-identical between requests and the provider's prompt cache keeps working.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

from ..store.paths import agent_dir
from .tools import ToolSpec

RULE_FILES = ("AGENTS.md", "CLAUDE.md")
MAX_RULES_BYTES = 256 * 1024
"""A rules file larger than this is cut (with a note): it would eat the window on every request."""

BASE_PROMPT = """You are an expert coding assistant working in the user's project. You help with coding tasks by \
reading files, running commands, editing code and writing new files.

Available tools:
{tools}

Guidelines:
- Read a file before editing it; use edit for precise changes (oldText must match exactly and be unique), \
write only for new files or complete rewrites.
- Prefer grep and ls to explore; use bash for builds, tests, git and other commands.
- Be concise. When you are done, summarize what you changed and show file paths clearly."""


@dataclass(frozen=True)
class RulesFile:
    path: Path
    text: str


def find_rules(cwd: str | Path, *, home: Path | None = None) -> list[RulesFile]:
    """The rules files that apply in ``cwd``: the global one first, then from the root down to ``cwd``."""
    found: list[RulesFile] = []
    seen: set[Path] = set()
    directories = [home or agent_dir(), *reversed(Path(cwd).resolve().parents), Path(cwd).resolve()]
    for directory in directories:
        rules = _rules_in(directory)
        if rules is not None and rules.path not in seen:
            seen.add(rules.path)
            found.append(rules)
    return found


def _rules_in(directory: Path) -> RulesFile | None:
    for name in RULE_FILES:
        path = directory / name
        try:
            data = path.read_bytes()
        except OSError:
            continue
        text = data[:MAX_RULES_BYTES].decode("utf-8", "replace")
        if len(data) > MAX_RULES_BYTES:
            text += f"\n\n[{path.name} cut at {MAX_RULES_BYTES // 1024}KB]"
        return RulesFile(path, text)
    return None


def system_prompt(cwd: str | Path, tools: tuple[ToolSpec, ...], *, home: Path | None = None,
                  today: datetime.date | None = None) -> tuple[str, list[RulesFile]]:
    """The system prompt for a request made now in ``cwd``, and the rules files it includes."""
    listed = "\n".join(f"- {t.name}: {t.description.split('. ')[0].rstrip('.')}" for t in tools)
    parts = [BASE_PROMPT.format(tools=listed)]
    rules = find_rules(cwd, home=home)
    if rules:
        parts.append("# Project Context\n\nProject-specific instructions and guidelines:\n\n"
                     + "".join(f"## {r.path}\n\n{r.text.rstrip()}\n\n" for r in rules).rstrip())
    day = (today or datetime.date.today()).isoformat()
    parts.append(f"Current date: {day}\nCurrent working directory: {Path(cwd).resolve()}")
    return "\n\n".join(parts), rules


__all__ = ["RULE_FILES", "RulesFile", "find_rules", "system_prompt"]
