"""Drive the pinned real pi in RPC mode (``pi --mode rpc``) from tests, with its own agent folder.

:func:`agent_dir` writes a ``models.json`` whose one provider (``fake``) is the project's fake
OpenAI-compatible server with a small window, and a ``settings.json``; :class:`PiRpc` starts pi with that
folder, the extensions given, and this worktree's ``pi-compact`` first on PATH, sends commands (one JSON
line each) and collects the events pi prints on a reader thread.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from tests.conformance.pi_ref import ensure_pi

MODEL = "fake-coder"
API_KEY = "fake-key-not-a-secret-7f3a"


def agent_dir(root: Path, server_url: str, *, context_window: int, settings: dict | None = None) -> Path:
    """A pi agent folder whose only model is ``fake/fake-coder`` on ``server_url``."""
    folder = root / "agent"
    folder.mkdir(parents=True, exist_ok=True)
    models = {"providers": {"fake": {
        "baseUrl": server_url + "/v1", "api": "openai-completions", "apiKey": API_KEY,
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False, "supportsUsageInStreaming": True},
        "models": [{"id": MODEL, "name": "Fake Coder", "reasoning": False, "input": ["text"],
                    "contextWindow": context_window, "maxTokens": 2048,
                    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}}],
    }}}
    (folder / "models.json").write_text(json.dumps(models))
    (folder / "settings.json").write_text(json.dumps(settings or {}))
    return folder


class PiRpc:
    """One pi process in RPC mode; use as a context manager (pi is killed on exit)."""

    def __init__(self, *, agent: Path, cwd: Path, extensions: list[Path], env: dict[str, str] | None = None) -> None:
        pi_cli = ensure_pi() / "node_modules" / "@mariozechner" / "pi-coding-agent" / "dist" / "cli.js"
        self.sessions = agent.parent / "sessions"
        command = ["node", str(pi_cli), "--mode", "rpc", "--provider", "fake", "--model", MODEL,
                   "--session-dir", str(self.sessions), "--no-skills", "--no-prompt-templates", "--no-themes",
                   "--no-context-files", "--offline"]
        for extension in extensions:
            command += ["-e", str(extension)]
        venv_bin = str(Path(sys.executable).parent)
        environment = {
            "PATH": os.pathsep.join([venv_bin, os.environ.get("PATH", "")]),
            "HOME": str(agent.parent),
            "PI_CODING_AGENT_DIR": str(agent),
            "PI_OFFLINE": "1",
            **(env or {}),
        }
        self.events: list[dict] = []
        self._queue: queue.Queue[dict] = queue.Queue()
        self._ids = 0
        self.process = subprocess.Popen(command, cwd=cwd, env=environment, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            self._queue.put(event)

    def __enter__(self) -> "PiRpc":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def send(self, command: dict) -> str:
        self._ids += 1
        ident = f"t{self._ids}"
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"id": ident, **command}).encode() + b"\n")
        self.process.stdin.flush()
        return ident

    def call(self, command: dict, timeout: float = 60) -> dict:
        """Send a command and wait for its response."""
        ident = self.send(command)
        return self.wait(lambda e: e.get("type") == "response" and e.get("id") == ident, timeout, command["type"])

    def wait(self, matches: Callable[[dict], bool], timeout: float = 60, what: str = "an event", *,
             since: int | None = None) -> dict:
        """The first event that ``matches``: among ``events[since:]`` when given, else from now on (or already
        queued); every event read is kept in ``events``."""
        if since is not None:
            for event in self.events[since:]:
                if matches(event):
                    return event
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0 or self.process.poll() is not None:
                stderr = self.process.stderr.read().decode(errors="replace") if self.process.poll() is not None else ""
                raise AssertionError(f"pi: no {what} within {timeout} s; last events: {self.events[-5:]}\n{stderr}")
            try:
                event = self._queue.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            self.events.append(event)
            if matches(event):
                return event

    def prompt(self, text: str, timeout: float = 60) -> None:
        """Send a prompt and wait until the agent is done with it."""
        response = self.call({"type": "prompt", "message": text}, timeout)
        assert response.get("success"), response
        self.wait(lambda e: e.get("type") == "agent_end", timeout, "agent_end")

    def notices(self) -> list[str]:
        return [e.get("message", "") for e in self.events
                if e.get("type") == "extension_ui_request" and e.get("method") == "notify"]

    def session_file(self) -> Path:
        state = self.call({"type": "get_state"})
        return Path(state["data"]["sessionFile"])


def entries(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:] if line.strip()]
