"""Turning agent messages into what a model reads: pi's ``convertToLlm`` and its summary transcript.

``convert_to_llm`` maps every role to user/assistant/toolResult messages (bash runs, custom messages and
summaries become user text). ``serialize_conversation`` writes them as the plain transcript a summarizer
reads (``[User]: …``, ``[Assistant tool calls]: …``), truncating long tool results as pi does.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..accessors import content_text

COMPACTION_SUMMARY_PREFIX = (
    "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
)
COMPACTION_SUMMARY_SUFFIX = "\n</summary>"
BRANCH_SUMMARY_PREFIX = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
BRANCH_SUMMARY_SUFFIX = "</summary>"


def bash_execution_text(message: dict) -> str:
    """pi's rendering of a user's ``!command`` run."""
    output = message.get("output") or ""
    text = f"Ran `{message.get('command', '')}`\n"
    text += f"```\n{output}\n```" if output else "(no output)"
    if message.get("cancelled"):
        text += "\n\n(command cancelled)"
    elif message.get("exitCode") not in (None, 0):
        text += f"\n\nCommand exited with code {message.get('exitCode')}"
    if message.get("truncated") and message.get("fullOutputPath"):
        text += f"\n\n[Output truncated. Full output: {message['fullOutputPath']}]"
    return text


def _user_text(text: str, timestamp: Any) -> dict:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": timestamp}


def convert_message(message: Any) -> dict | None:
    """One agent message as the model sees it, or ``None`` when it is left out."""
    if not isinstance(message, dict):
        return None
    role = message.get("role")
    stamp = message.get("timestamp")
    if role in ("user", "assistant", "toolResult"):
        return message
    if role == "bashExecution":
        return None if message.get("excludeFromContext") else _user_text(bash_execution_text(message), stamp)
    if role == "custom":
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        return {"role": "user", "content": blocks, "timestamp": stamp}
    if role == "branchSummary":
        return _user_text(BRANCH_SUMMARY_PREFIX + str(message.get("summary", "")) + BRANCH_SUMMARY_SUFFIX, stamp)
    if role == "compactionSummary":
        text = COMPACTION_SUMMARY_PREFIX + str(message.get("summary", "")) + COMPACTION_SUMMARY_SUFFIX
        return _user_text(text, stamp)
    return None


def convert_to_llm(messages: list[Any]) -> list[dict]:
    """pi's ``convertToLlm``: every message the model would see, in order."""
    return [m for m in map(convert_message, messages) if m is not None]


def truncate_text(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n\n[... {len(text) - limit} more characters truncated]"


def _tool_call_text(block: dict) -> str:
    args = block.get("arguments")
    pairs = args.items() if isinstance(args, dict) else ()
    rendered = ", ".join(f"{key}={orjson.dumps(value).decode()}" for key, value in pairs)
    return f"{block.get('name', '')}({rendered})"


def _assistant_parts(content: Any) -> list[str]:
    # not accessors.content_text: pi's serializer writes "[Assistant]: " for text blocks even when they are empty
    blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
    thinking = [b.get("thinking", "") for b in blocks if b.get("type") == "thinking"]
    texts = [b.get("text", "") for b in blocks if b.get("type") == "text"]
    calls = [_tool_call_text(b) for b in blocks if b.get("type") == "toolCall"]
    parts = []
    if thinking:
        parts.append("[Assistant thinking]: " + "\n".join(thinking))
    if texts:
        parts.append("[Assistant]: " + "\n".join(texts))
    if calls:
        parts.append("[Assistant tool calls]: " + "; ".join(calls))
    return parts


def serialize_conversation(llm_messages: list[dict], *, tool_result_chars: int = 2000) -> str:
    """pi's summarizer transcript of already converted messages."""
    parts: list[str] = []
    for message in llm_messages:
        role = message.get("role")
        if role == "user":
            text = content_text(message.get("content"))
            if text:
                parts.append("[User]: " + text)
        elif role == "assistant":
            parts.extend(_assistant_parts(message.get("content")))
        elif role == "toolResult":
            text = content_text(message.get("content"))
            if text:
                parts.append("[Tool result]: " + truncate_text(text, tool_result_chars))
    return "\n\n".join(parts)


def format_file_operations(read_files: list[str], modified_files: list[str]) -> str:
    """pi's ``<read-files>`` / ``<modified-files>`` blocks appended to every summary."""
    blocks = []
    if read_files:
        blocks.append("<read-files>\n" + "\n".join(read_files) + "\n</read-files>")
    if modified_files:
        blocks.append("<modified-files>\n" + "\n".join(modified_files) + "\n</modified-files>")
    return "\n\n" + "\n\n".join(blocks) if blocks else ""
