"""The chat's input line: GNU readline's editing, a history kept across runs, Tab completing slash commands.

The history lives in the agent directory (``~/.pi/agent/pi-compact-chat-history``, or under
``PI_CODING_AGENT_DIR``), readable by its owner only (prompts may hold secrets), and keeps the last
:data:`HISTORY_LINES` lines. Each run appends only its own lines, so two chats open at once lose neither's.
Answers to the chat's questions (y/N, a branch summary's focus) are not kept. Without a terminal (piped
input) nothing is read or written: readline is not in use then.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

HISTORY_FILE = "pi-compact-chat-history"
HISTORY_LINES = 1000


def history_path() -> Path:
    from ..store.paths import agent_dir

    return agent_dir() / HISTORY_FILE


class LineEditor:
    """readline set up for the chat, or nothing at all where Python has no readline or input is piped."""

    def __init__(self, commands: list[str]) -> None:
        self.readline = _readline() if sys.stdin.isatty() and sys.stdout.isatty() else None
        self.commands = sorted(set(commands))
        self._loaded = 0
        if self.readline is not None:
            self._set_up()

    def _set_up(self) -> None:
        rl = self.readline
        path = history_path()
        try:
            rl.read_history_file(str(path))
        except OSError:
            pass  # no history yet, or unreadable: start without
        rl.set_history_length(HISTORY_LINES)
        self._loaded = rl.get_current_history_length()
        rl.set_completer(self._complete)
        rl.set_completer_delims(" \t\n")  # "/" starts a command: not a word break
        binding = "bind ^I rl_complete" if "libedit" in (rl.__doc__ or "") else "tab: complete"
        rl.parse_and_bind(binding)

    def _complete(self, text: str, state: int) -> str | None:
        """readline's completer: the slash commands that start with what was typed, at the start of the line."""
        rl = self.readline
        before = rl.get_line_buffer()[: rl.get_begidx()] if rl is not None else ""
        if not text.startswith("/") or before.strip():
            return None
        found = [name + " " for name in self.commands if name.startswith(text)]
        return found[state] if state < len(found) else None

    def forget_last(self) -> None:
        """Leave the line just read out of the history (an answer to a question, not a prompt)."""
        rl = self.readline
        if rl is not None and rl.get_current_history_length() > self._loaded:
            rl.remove_history_item(rl.get_current_history_length() - 1)

    def prefill(self, text: str | None) -> None:
        """Put ``text`` in the next input line (or nothing, with ``None``)."""
        if self.readline is not None:
            self.readline.set_startup_hook((lambda: self.readline.insert_text(text)) if text else None)

    def save(self) -> None:
        """Append this run's lines to the history file, created private; then cut it to its last lines."""
        rl = self.readline
        if rl is None:
            return
        added = rl.get_current_history_length() - self._loaded
        if added <= 0:
            return
        path = history_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
            rl.append_history_file(added, str(path))
            rl.set_history_length(HISTORY_LINES)
            if hasattr(rl, "read_history_file") and _line_count(path) > 2 * HISTORY_LINES:
                rl.write_history_file(str(path))  # the last HISTORY_LINES lines, now and then
        except OSError:
            pass  # a history that cannot be written is no reason to fail the chat's exit


def _line_count(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: handle.read(1 << 16), b""))


def _readline() -> Any:
    try:
        import readline
    except ImportError:
        return None
    return readline


__all__ = ["HISTORY_FILE", "HISTORY_LINES", "LineEditor", "history_path"]
