"""Small builders of realistic sessions for the reliability tests: user turns, assistant answers with tool
calls, and tool results, in pi's message shapes."""

from __future__ import annotations

import itertools
from pathlib import Path

from pi_compact import Session

_clock = itertools.count(1_750_000_000_000, 1000)
USAGE = {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 15,
         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}


def user(text: str) -> dict:
    return {"role": "user", "content": text, "timestamp": next(_clock)}


def assistant(text: str, *calls: dict) -> dict:
    content = [{"type": "text", "text": text}, *calls]
    return {"role": "assistant", "content": content, "api": "anthropic-messages", "provider": "anthropic",
            "model": "claude-sonnet-4-6", "usage": USAGE, "stopReason": "toolUse" if calls else "stop",
            "timestamp": next(_clock)}


def tool_call(call_id: str, command: str) -> dict:
    return {"type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": command}}


def tool_result(call_id: str, text: str) -> dict:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": "bash",
            "content": [{"type": "text", "text": text}], "isError": False, "timestamp": next(_clock)}


def add_turns(session: Session, turns: int, size: int = 400, *, secret: str = "") -> None:
    """``turns`` rounds of request, tool call, tool output and answer; ``secret`` lands in one tool output."""
    for n in range(turns):
        session.append_message(user(f"Step {n}: please look at module m{n}.py and fix the parser. " + "q" * size))
        session.append_message(assistant(f"Reading m{n}.py.", tool_call(f"call_{n}", f"cat src/m{n}.py")))
        output = f"def parse_{n}():\n    return {n}\n" + "o" * size + (f"\n{secret}\n" if secret and n == 1 else "")
        session.append_message(tool_result(f"call_{n}", output))
        session.append_message(assistant(f"Fixed step {n}; tests pass. " + "a" * (size // 2)))


def new_conversation(path: Path, turns: int = 12, size: int = 400, **options) -> Path:
    with Session.create_at(path, cwd=str(path.parent)) as session:
        add_turns(session, turns, size, **options)
    return path
