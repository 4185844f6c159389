"""Codex rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``) as pi sessions.

A rollout is a list, not a tree: ``{"timestamp", "type", "payload"}`` lines where ``session_meta`` describes
the session, ``response_item`` holds what went to or came from the Responses API, ``compacted`` marks a
compaction (its ``message`` is the summary when Codex wrote it locally), and ``turn_context``/``event_msg``
record settings and UI events. Consecutive model-side items (reasoning, output text, tool calls) become one
assistant message, tool outputs ``toolResult`` messages, developer instructions ``custom_message`` entries
(pi sends them as user text, as the model saw them), and everything else ``custom`` entries holding the line
unchanged. Rollouts written before the ``payload`` envelope (a bare first line with the session's id, then
bare items) are read too.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from .source import Row, read_rows
from .tree import EntryTree, ImportedSession, session_header, time_of

FORMAT = "codex"
API = "openai-responses"
_MODEL_SIDE = frozenset({"reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call"})
_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})
_BARE_ITEMS = _MODEL_SIDE | _OUTPUTS | {"message", "compaction"}
_EXIT_CODE = re.compile(r"\AExit code: (-?\d+)")


def read_codex(data: bytes, *, strict: bool = False, name: str = "input") -> ImportedSession:
    """The rollout's bytes as a pi session (nothing is written)."""
    source = read_rows(data, strict=strict, name=name)
    converter = _Converter(source.notes)
    for row in source.rows:
        converter.take(row)
    return converter.finish()


class _Converter:
    def __init__(self, notes: list[str]) -> None:
        self.notes = notes
        self.tree = EntryTree()
        self.at: str | None = None
        self.open: dict | None = None
        """The assistant message model-side items are joining (the last entry written)."""
        self.deferred: list[Row] = []
        """Event lines seen while an assistant message is open: written after it, so it stays one message."""
        self.last_assistant: dict | None = None
        self.meta: dict = {}
        self.model, self.provider = "", "openai"
        self.tokens = 0
        self.compactions = 0
        self.first_ms: int | None = None

    def take(self, row: Row) -> None:
        value = row.value
        kind, payload = value.get("type"), value.get("payload")
        if not isinstance(payload, dict):
            kind, payload = self._bare(value)
        if self.first_ms is None:
            self.first_ms = time_of(value.get("timestamp"))
        if kind == "response_item":
            self._item(row, payload)
        elif kind == "compacted":
            self._compacted(row, payload)
        else:
            self._event(row, kind, payload)

    def _bare(self, value: dict) -> tuple[Any, dict]:
        """An older rollout's line, without the envelope: a first line naming the session, or a bare item."""
        if value.get("type") in _BARE_ITEMS:
            return "response_item", value
        if "record_type" not in value and isinstance(value.get("id"), str) and not self.meta:
            return "session_meta", value
        return value.get("type") or value.get("record_type"), value

    def _event(self, row: Row, kind: Any, payload: dict) -> None:
        if kind == "session_meta" and not self.meta:
            self.meta = payload.get("meta") if isinstance(payload.get("meta"), dict) else payload
            self.provider = _text(self.meta.get("model_provider")) or self.provider
        elif kind == "turn_context":
            self.model = _text(payload.get("model")) or self.model
        elif kind == "event_msg" and payload.get("type") == "token_count":
            self._token_count(payload)
        if self.open is not None:
            self.deferred.append(row)
        else:
            self._custom(row)

    def _custom(self, row: Row) -> None:
        kind = row.value.get("type") or row.value.get("record_type") or "unknown"
        self._add(row, "custom", {"customType": f"{FORMAT}:{kind}", "data": row.value})

    def _add(self, row: Row, entry_type: str, fields: dict) -> dict:
        entry = self.tree.add(entry_type, fields, parent=self.at, ms=time_of(row.value.get("timestamp")))
        self.at = entry["id"]
        return entry

    def _close(self) -> None:
        self.open = None
        deferred, self.deferred = self.deferred, []
        for row in deferred:
            self._custom(row)

    # -- response items -----------------------------------------------------------------------------------

    def _item(self, row: Row, item: dict) -> None:
        kind, role = item.get("type"), item.get("role")
        if kind in _MODEL_SIDE or (kind == "message" and role == "assistant"):
            self._model_side(row, item)
            return
        self._close()
        ms = time_of(row.value.get("timestamp")) or 0
        if kind in _OUTPUTS:
            self._add(row, "message", {"message": self._tool_result(item, ms)})
        elif kind == "message" and role == "user":
            self._add(row, "message", {"message": {"role": "user", "content": _user_blocks(item.get("content")),
                                                   "timestamp": ms}})
        elif kind == "message":
            self._add(row, "custom_message", {"customType": f"{FORMAT}:{role}", "content": _user_blocks(
                item.get("content")), "display": False})
        elif kind == "compaction":
            self._encrypted_compaction(row)
        else:
            self._custom(row)

    def _model_side(self, row: Row, item: dict) -> None:
        blocks = _assistant_blocks(item)
        if self.open is None:
            message = {"role": "assistant", "content": [], "api": API, "provider": self.provider,
                       "model": self.model, "usage": _usage({}), "stopReason": "stop",
                       "timestamp": time_of(row.value.get("timestamp")) or 0}
            self.open = self.last_assistant = message
            self._add(row, "message", {"message": message})
        self.open["content"].extend(blocks)
        if any(b["type"] == "toolCall" for b in self.open["content"]):
            self.open["stopReason"] = "toolUse"

    def _tool_result(self, item: dict, ms: int) -> dict:
        call_id, output = _text(item.get("call_id")), item.get("output")
        name = next((b["name"] for b in (self.last_assistant or {}).get("content", [])
                     if b.get("type") == "toolCall" and b.get("id") == call_id), "")
        return {"role": "toolResult", "toolCallId": call_id, "toolName": name, "content": _output_blocks(output),
                "isError": _failed(output), "timestamp": ms}

    def _token_count(self, payload: dict) -> None:
        info = payload.get("info") if isinstance(payload.get("info"), dict) else {}
        last = info.get("last_token_usage") if isinstance(info.get("last_token_usage"), dict) else None
        if last is None:
            return
        usage = _usage(last)
        self.tokens = usage["totalTokens"] or self.tokens
        if self.last_assistant is not None and not self.last_assistant["usage"]["totalTokens"]:
            self.last_assistant["usage"] = usage

    # -- compactions --------------------------------------------------------------------------------------

    def _compacted(self, row: Row, payload: dict) -> None:
        self._close()
        summary = _text(payload.get("message")).strip()
        entry = self._compaction(row, summary, encrypted=not summary)
        if not summary:
            self.notes.append(f"line {row.line}: a compaction whose summary is not in the rollout (written by the "
                              "server, encrypted); imported with an empty summary")
        history = payload.get("replacement_history")
        kept = [i for i in history if isinstance(i, dict)] if isinstance(history, list) else []
        entry["details"]["replacementItems"] = len(kept)
        for item in kept:  # what Codex put back into the context after the summary
            if not (summary and summary in _item_text(item)) and item.get("type") != "compaction":
                self._item(row, item)
        self._close()

    def _encrypted_compaction(self, row: Row) -> None:
        self._compaction(row, "", encrypted=True)
        self.notes.append(f"line {row.line}: a server-side compaction; its summary is encrypted, imported empty")

    def _compaction(self, row: Row, summary: str, *, encrypted: bool) -> dict:
        details = {"importedFrom": FORMAT, "line": row.line, "encrypted": encrypted}
        entry = self._add(row, "compaction", {"summary": summary, "firstKeptEntryId": "", "tokensBefore": self.tokens,
                                              "details": details})
        entry["firstKeptEntryId"] = entry["id"]  # nothing before it stays in the context
        self.compactions += 1 if summary else 0
        return entry

    def finish(self) -> ImportedSession:
        self._close()
        meta = self.meta
        ms = time_of(meta.get("timestamp")) or self.first_ms
        header = session_header(meta.get("id"), ms, meta.get("cwd"))
        return ImportedSession(FORMAT, header, self.tree.entries, tuple(self.notes), self.compactions)


# -- content ------------------------------------------------------------------------------------------------


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _as_text(part: Any) -> dict:
    return {"type": "text", "text": f"[{part.get('type') if isinstance(part, dict) else 'value'}] "
                                    f"{orjson.dumps(part).decode()}"}


def _user_blocks(parts: Any) -> list[dict]:
    if isinstance(parts, str):
        return [{"type": "text", "text": parts}]
    blocks = []
    for part in parts if isinstance(parts, list) else []:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in ("input_text", "output_text", "text"):
            blocks.append({"type": "text", "text": _text(part.get("text"))})
        elif kind == "input_image" and _text(part.get("image_url")).startswith("data:"):
            header, _, data = part["image_url"].partition(",")
            blocks.append({"type": "image", "data": data, "mimeType": header[5:].split(";")[0]})
        else:
            blocks.append(_as_text(part))
    return blocks


def _item_text(item: dict) -> str:
    return "\n".join(b.get("text", "") for b in _user_blocks(item.get("content")) if b["type"] == "text")


def _assistant_blocks(item: dict) -> list[dict]:
    kind = item.get("type")
    if kind == "message":
        return [b for b in _user_blocks(item.get("content")) if b["type"] == "text"]
    if kind == "reasoning":
        return [_reasoning(item)]
    if kind in ("function_call", "custom_tool_call"):
        arguments = _arguments(item.get("arguments")) if kind == "function_call" else {"input": item.get("input")}
        return [{"type": "toolCall", "id": _text(item.get("call_id")), "name": _text(item.get("name")),
                 "arguments": arguments}]
    if kind == "local_shell_call":
        action = item.get("action") if isinstance(item.get("action"), dict) else {}
        return [{"type": "toolCall", "id": _text(item.get("call_id")), "name": "local_shell", "arguments": action}]
    return [_as_text(item)]


def _reasoning(item: dict) -> dict:
    """Reasoning as thinking: its plain-text summary (or text), the whole item kept as pi keeps it."""
    parts = [p for key in ("summary", "content") for p in (item.get(key) or []) if isinstance(p, dict)]
    summary = "\n\n".join(_text(p.get("text")) for p in (item.get("summary") or []) if isinstance(p, dict))
    text = summary or "\n\n".join(_text(p.get("text")) for p in parts)
    return {"type": "thinking", "thinking": text, "thinkingSignature": orjson.dumps(item).decode()}


def _arguments(raw: Any) -> dict:
    if isinstance(raw, dict):
        return raw
    try:
        value = orjson.loads(raw) if isinstance(raw, str) and raw else {}
    except orjson.JSONDecodeError:
        return {"_raw": raw}
    return value if isinstance(value, dict) else {"_value": value}


def _output_blocks(output: Any) -> list[dict]:
    if isinstance(output, dict):
        output = output.get("content", output)
    if isinstance(output, str):
        return [{"type": "text", "text": output}]
    return _user_blocks(output) if isinstance(output, list) else [_as_text(output)]


def _failed(output: Any) -> bool:
    """Codex marks a failed call by ``success: false``, an exit code in its JSON metadata, or an "Exit code" line."""
    if isinstance(output, dict):
        return output.get("success") is False
    if not isinstance(output, str):
        return False
    found = _EXIT_CODE.match(output)
    if found:
        return found[1] != "0"
    if output.startswith("{"):
        try:
            parsed = orjson.loads(output)
        except orjson.JSONDecodeError:
            return False
        metadata = parsed.get("metadata") if isinstance(parsed, dict) else None
        code = metadata.get("exit_code") if isinstance(metadata, dict) else None
        return isinstance(code, int) and code != 0
    return False


def _usage(raw: dict) -> dict:
    def count(key: str) -> int:
        value = raw.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    cached = count("cached_input_tokens")
    parts = [max(count("input_tokens") - cached, 0), count("output_tokens"), cached, 0]
    return {"input": parts[0], "output": parts[1], "cacheRead": parts[2], "cacheWrite": parts[3],
            "totalTokens": sum(parts), "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
