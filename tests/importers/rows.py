"""Builders of Claude Code and Codex rows for the importer tests, in the shapes the agents write."""

from __future__ import annotations

import orjson


def jsonl(rows: list[dict]) -> bytes:
    return b"".join(orjson.dumps(row) + b"\n" for row in rows)


def stamp(second: int) -> str:
    return f"2026-01-01T10:{second // 60 % 60:02d}:{second % 60:02d}.000Z"


def cc_user(uid: str, parent: str | None, content, second: int = 0, **extra) -> dict:
    return {"type": "user", "uuid": uid, "parentUuid": parent, "sessionId": "sess-1", "cwd": "/home/me/proj",
            "timestamp": stamp(second), "message": {"role": "user", "content": content}, **extra}


def cc_assistant(uid: str, parent: str | None, blocks: list[dict], message_id: str = "msg", second: int = 0,
                 usage: dict | None = None, **extra) -> dict:
    message = {"id": message_id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
               "content": blocks, "stop_reason": None, "usage": usage or {"input_tokens": 3, "output_tokens": 1}}
    return {"type": "assistant", "uuid": uid, "parentUuid": parent, "sessionId": "sess-1", "timestamp": stamp(second),
            "message": message, **extra}


def text(value: str) -> dict:
    return {"type": "text", "text": value}


def tool_use(call_id: str, name: str = "Bash", **arguments) -> dict:
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def tool_result(call_id: str, output: str, error: bool = False) -> dict:
    return {"type": "tool_result", "tool_use_id": call_id, "content": output, "is_error": error}


def boundary(uid: str, logical_parent: str | None, pre_tokens: int | None = 1000, second: int = 0) -> dict:
    meta = {"trigger": "auto", **({"preTokens": pre_tokens} if pre_tokens is not None else {})}
    return {"type": "system", "subtype": "compact_boundary", "uuid": uid, "parentUuid": None,
            "logicalParentUuid": logical_parent, "timestamp": stamp(second), "content": "Conversation compacted",
            "compactMetadata": meta}


CONTINUED = ("This session is being continued from a previous conversation that ran out of context. "
             "The conversation is summarized below:\n")


def codex_line(kind: str, payload: dict, second: int = 0) -> dict:
    return {"timestamp": stamp(second), "type": kind, "payload": payload}


def codex_meta(session_id: str = "rollout-1", cwd: str = "/home/me/proj") -> dict:
    return codex_line("session_meta", {"id": session_id, "timestamp": stamp(0), "cwd": cwd, "originator": "codex_cli_rs",
                                       "cli_version": "0.40.0", "model_provider": "openai"})


def codex_message(role: str, value: str, second: int = 0) -> dict:
    kind = "output_text" if role == "assistant" else "input_text"
    return codex_line("response_item", {"type": "message", "role": role, "content": [{"type": kind, "text": value}]},
                      second)


def codex_call(call_id: str, command: list[str], second: int = 0) -> dict:
    arguments = orjson.dumps({"command": command}).decode()
    return codex_line("response_item", {"type": "function_call", "name": "shell", "arguments": arguments,
                                        "call_id": call_id}, second)


def codex_output(call_id: str, output: str, exit_code: int = 0, second: int = 0) -> dict:
    body = orjson.dumps({"output": output, "metadata": {"exit_code": exit_code, "duration_seconds": 0.1}}).decode()
    return codex_line("response_item", {"type": "function_call_output", "call_id": call_id, "output": body}, second)
