"""Claude Code transcripts (``~/.claude/projects/<cwd>/<session>.jsonl``) as pi session trees.

Claude Code writes one row per content block it streams, linked by ``uuid``/``parentUuid`` into a DAG: edits
and retries branch it, sub-agents (``isSidechain``) start their own roots, and a compaction starts a new chain
(a ``compact_boundary`` system row whose ``logicalParentUuid`` names the old chain's end, then the summary as
a user message marked ``isCompactSummary``; older versions start a bare chain whose first user message says
"This session is being continued from a previous conversation…"). The rows become pi entries in the same
shape: the rows of one API message (one ``message.id``) one assistant message, tool results ``toolResult``
messages, a compaction one ``compaction`` entry holding Claude's summary, so pi's context after it is what
Claude saw. A user row Claude Code wrote itself (``isMeta``: a local command's caveat, a skill's instructions,
a stop hook's feedback) becomes a ``custom_message`` that pi does not display: the model still reads it as a
user turn, and nothing takes it for what the user asked. Rows of other types become ``custom`` entries holding
the row unchanged.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import orjson

from .source import Row, read_rows
from .tree import EntryTree, ImportedSession, session_header, time_of

FORMAT = "claude-code"
API = "anthropic-messages"
CONTINUED = "This session is being continued from a previous conversation"
"""How Claude Code opens every compaction summary it writes into the conversation."""
_PREAMBLE = re.compile(rf"{CONTINUED}[^.\n]*\.(?:[ \t](?>[^.\n]*?summar)(?>[^.\n]*[.:]))?")
"""That sentence, and the one after it when it announces the summary ("The conversation is summarized below:")."""
_TITLE_ROWS = ("summary", "custom-title")
_STOP = {"tool_use": "toolUse", "max_tokens": "length", "end_turn": "stop", "stop_sequence": "stop"}


def read_claude_code(data: bytes, *, strict: bool = False, name: str = "input") -> ImportedSession:
    """The transcript's bytes as a pi session (nothing is written)."""
    source = read_rows(data, strict=strict, name=name)
    converter = _Converter(source.notes)
    for row, parent in tree_order(source.rows, source.notes):
        converter.take(row, parent)
    return converter.finish()


# -- the DAG in an order where parents come first ------------------------------------------------------------


def tree_order(rows: list[Row], notes: list[str]) -> list[tuple[Row, str | None]]:
    """``(row, parent uuid)`` in file order, except that a row waits for its parent; rows without a uuid pass.

    A parent missing from the file makes its child a root; a cycle of parents is cut at its earliest line;
    a repeated uuid keeps its first row. Each of these is noted.
    """
    keyed: dict[str, Row] = {}
    ordered: list[Row] = []
    for row in rows:
        uid = row.value.get("uuid")
        if isinstance(uid, str) and uid in keyed:
            notes.append(f"line {row.line}: uuid {uid} already used on line {keyed[uid].line}; skipped")
            continue
        if isinstance(uid, str):
            keyed[uid] = row
        ordered.append(row)
    return _Orderer(keyed, notes).run(ordered)


class _Orderer:
    def __init__(self, keyed: dict[str, Row], notes: list[str]) -> None:
        self.keyed, self.notes = keyed, notes
        self.emitted: set[str] = set()
        self.waiting: dict[str, list[Row]] = defaultdict(list)
        self.out: list[tuple[Row, str | None]] = []

    def _parent(self, row: Row) -> str | None:
        value = row.value
        parent = value.get("parentUuid")
        logical = value.get("logicalParentUuid")
        if parent is None and value.get("type") == "system" and isinstance(logical, str) and logical in self.keyed:
            # A compaction boundary continues the chain it ends; one naming a row written after it (a compaction
            # that keeps the newest messages names their end) is placed by file order instead.
            parent = logical if self.keyed[logical].line < row.line else None
        return parent if isinstance(parent, str) else None

    def run(self, ordered: list[Row]) -> list[tuple[Row, str | None]]:
        for row in ordered:
            parent = self._parent(row)
            if not isinstance(row.value.get("uuid"), str):
                self.out.append((row, None))
            elif parent is not None and parent not in self.keyed:
                self.notes.append(f"line {row.line}: parent {parent} is not in the file; kept as a root")
                self._release(row, None)
            elif parent is None or parent in self.emitted:
                self._release(row, parent)
            else:
                self.waiting[parent].append(row)
        stuck = sorted((r for rows in self.waiting.values() for r in rows), key=lambda r: r.line)
        for row in stuck:  # each still waits on a cycle of parents: cut it at its earliest row
            if row.value["uuid"] not in self.emitted:
                self._cut_cycle(row)
        return self.out

    def _release(self, row: Row, parent: str | None) -> None:
        stack = [(row, parent)]
        while stack:
            row, parent = stack.pop()
            self.out.append((row, parent))
            uid = row.value["uuid"]
            self.emitted.add(uid)
            stack.extend((child, uid) for child in reversed(self.waiting.pop(uid, [])))

    def _cut_cycle(self, row: Row) -> None:
        """Walk up from ``row`` to the cycle it waits on and release the cycle's earliest row as a root (which
        releases the cycle and everything below it, so each row is walked once in all)."""
        seen: dict[str, int] = {}
        path: list[Row] = []
        while row.value["uuid"] not in seen:
            seen[row.value["uuid"]] = len(path)
            path.append(row)
            row = self.keyed[self._parent(row)]  # type: ignore[index]
        first = min(path[seen[row.value["uuid"]]:], key=lambda r: r.line)
        siblings = self.waiting[self._parent(first)]  # type: ignore[index]
        siblings.remove(first)
        if not siblings:
            del self.waiting[self._parent(first)]  # type: ignore[arg-type]
        self.notes.append(f"line {first.line}: its parents form a cycle; kept as a root")
        self._release(first, None)


# -- rows to entries ----------------------------------------------------------------------------------------


class _Converter:
    def __init__(self, notes: list[str]) -> None:
        self.notes = notes
        self.tree = EntryTree()
        self.alias: dict[str, str] = {}
        """Claude uuid → the pi entry its children hang from (merged rows point at the shared message)."""
        self.tool_names: dict[str, str] = {}
        self.rank: dict[str, int] = {}
        """pi id → the line of the row that made it, to find the newest leaf."""
        self.last_main: str | None = None
        self.trailer: list[Row] = []
        self.title: tuple[int, str] | None = None
        self.first: dict | None = None
        self.compactions = 0

    def take(self, row: Row, parent_uuid: str | None) -> None:
        value = row.value
        kind = value.get("type")
        if kind in _TITLE_ROWS:
            self._title(value, kind)
        if kind in _TITLE_ROWS or not isinstance(value.get("uuid"), str):
            self.trailer.append(row)
            return
        if self.first is None:
            self.first = value
        parent = self.alias.get(parent_uuid) if parent_uuid is not None else None
        message = value.get("message") if isinstance(value.get("message"), dict) else None
        if kind == "assistant" and message is not None:
            at = self._assistant(row, message, parent)
        elif kind == "user" and message is not None:
            at = self._user(row, message, parent, parent_uuid)
        elif kind == "system" and value.get("subtype") == "compact_boundary":
            at = self._boundary(row, parent, parent_uuid)
        else:
            at = self._custom(row, parent)
        self.alias[value["uuid"]] = at
        if not value.get("isSidechain"):
            self.last_main = at

    def _add(self, row: Row, entry_type: str, fields: dict, parent: str | None, entry_id: str | None = None) -> dict:
        entry = self.tree.add(entry_type, fields, parent=parent, ms=time_of(row.value.get("timestamp")),
                              entry_id=entry_id if entry_id is not None else row.value.get("uuid"))
        self.rank[entry["id"]] = row.line
        return entry

    def _title(self, value: dict, kind: str) -> None:
        text = value.get("customTitle") if kind == "custom-title" else value.get("summary")
        if isinstance(text, str) and text.strip():
            priority = 1 if kind == "custom-title" else 0  # a title the user chose beats a generated one
            if self.title is None or priority >= self.title[0]:
                self.title = (priority, text.strip())

    def _custom(self, row: Row, parent: str | None) -> str:
        kind = row.value.get("type")
        return self._add(row, "custom", {"customType": f"{FORMAT}:{kind}", "data": row.value}, parent)["id"]

    # -- assistant ----------------------------------------------------------------------------------------

    def _assistant(self, row: Row, message: dict, parent: str | None) -> str:
        blocks = [_assistant_block(b, self.tool_names) for b in _blocks(message.get("content"))]
        earlier = self._same_message(parent, message.get("id"))
        if earlier is not None:
            _merge_assistant(earlier["message"], blocks, message)
            return parent  # type: ignore[return-value]  # a merged row's children follow where it stood
        fields = {"message": _assistant_message(row.value, message, blocks)}
        return self._add(row, "message", fields, parent)["id"]

    def _same_message(self, parent: str | None, message_id: Any) -> dict | None:
        """The assistant entry above ``parent`` (past tool results and custom rows) with this API message id."""
        if not isinstance(message_id, str):
            return None
        for entry in self.tree.ancestors(parent):
            role = entry.get("message", {}).get("role") if entry["type"] == "message" else None
            if role == "assistant":
                return entry if entry["message"].get("responseId") == message_id else None
            if entry["type"] != "custom" and role != "toolResult":
                return None
        return None

    # -- user ---------------------------------------------------------------------------------------------

    def _user(self, row: Row, message: dict, parent: str | None, parent_uuid: str | None) -> str:
        content = message.get("content")
        text = content if isinstance(content, str) else "\n".join(
            b.get("text", "") for b in _blocks(content) if b.get("type") == "text")
        if row.value.get("isCompactSummary") or (parent_uuid is None and text.lstrip().startswith(CONTINUED)):
            return self._summary(row, parent, text)
        ms = time_of(row.value.get("timestamp"))
        at, blocks = parent, _blocks(content)
        results = [b for b in blocks if b.get("type") == "tool_result"]
        if results and not row.value.get("isSidechain"):
            at = self._after_earlier_results(parent)
        for index, block in enumerate(results):
            entry_id = row.value["uuid"] if index == 0 else f"{row.value['uuid']}.{index}"
            at = self._add(row, "message", {"message": self._tool_result(block, ms)}, at, entry_id)["id"]
        rest = [b for b in blocks if b.get("type") != "tool_result"]
        if rest or not results or isinstance(content, str):
            said = content if isinstance(content, str) else [_user_block(b) for b in rest]
            entry_id = f"{row.value['uuid']}.u" if results else None
            if row.value.get("isMeta") is True:
                # written by Claude Code, not typed (a local command's caveat, a skill's text, hook feedback):
                # the model saw it as a user turn, as pi's context shows a custom message; Claude Code hides it
                fields = {"customType": f"{FORMAT}:meta", "content": said, "display": False}
                return self._add(row, "custom_message", fields, at, entry_id)["id"]
            user = {"role": "user", "content": said, "timestamp": ms or 0}
            at = self._add(row, "message", {"message": user}, at, entry_id)["id"]
        return at  # type: ignore[return-value]

    def _after_earlier_results(self, parent: str | None) -> str | None:
        """Where a tool result goes: after what the main chain last added when both follow the same assistant
        message. Claude Code writes a message's parallel calls as rows of their own, each result a child of its
        call's row, and progress rows between them; read as written, the results of one message would be
        sibling branches and all but the last would leave the path the conversation goes on from."""
        last = self.last_main
        if parent is None or last is None or last == parent:
            return parent
        if self._answering(parent) is not None and self._answering(parent) == self._answering(last):
            return last
        return parent

    def _answering(self, entry_id: str) -> str | None:
        """The assistant message ``entry_id`` follows, past tool results and custom rows (None if anything else)."""
        for entry in self.tree.ancestors(entry_id):
            role = entry.get("message", {}).get("role") if entry["type"] == "message" else None
            if role == "assistant":
                return entry["id"]
            if entry["type"] != "custom" and role != "toolResult":
                return None
        return None

    def _tool_result(self, block: dict, ms: int | None) -> dict:
        call_id = block.get("tool_use_id")
        name = self.tool_names.get(call_id) if isinstance(call_id, str) else None
        raw = block.get("content")
        content = [{"type": "text", "text": raw}] if isinstance(raw, str) else [_user_block(b) for b in _blocks(raw)]
        return {"role": "toolResult", "toolCallId": call_id if isinstance(call_id, str) else "",
                "toolName": name or "", "content": content, "isError": bool(block.get("is_error")),
                "timestamp": ms or 0}

    # -- compactions --------------------------------------------------------------------------------------

    def _summary(self, row: Row, parent: str | None, text: str) -> str:
        """Claude's summary: it fills the boundary above it, or is a compaction of its own (older versions)."""
        above = self.tree.by_id.get(parent) if parent is not None else None
        if above is not None and above["type"] == "compaction" and above["details"].get("summaryLine") is None:
            _fill_summary(above, text, row.line)
            return above["id"]
        linked = parent if parent is not None else (self.last_main if not row.value.get("isSidechain") else None)
        compaction = self._compaction(row, linked, {"trigger": None, "preTokens": None})
        _fill_summary(compaction, text, row.line)
        if parent is None and linked is not None:
            compaction["details"]["linkedByFileOrder"] = True
        return compaction["id"]

    def _boundary(self, row: Row, parent: str | None, parent_uuid: str | None) -> str:
        """A ``compact_boundary`` row: a compaction after the chain it ends (in file order when it names none),
        keeping from the first message Claude Code preserved, when it preserved some on that chain."""
        linked = parent
        if parent_uuid is None and not row.value.get("isSidechain"):
            linked = self.last_main
        compaction = self._compaction(row, linked, _boundary_fields(row.value))
        if parent_uuid is None and linked is not None:
            compaction["details"]["linkedByFileOrder"] = True
        kept = self._kept_from(row.value, linked)
        if kept is not None:
            compaction["firstKeptEntryId"] = kept
        return compaction["id"]

    def _kept_from(self, value: dict, linked: str | None) -> str | None:
        meta = value.get("compactMetadata") if isinstance(value.get("compactMetadata"), dict) else {}
        segment = meta.get("preservedSegment") if isinstance(meta.get("preservedSegment"), dict) else {}
        kept = meta.get("preservedMessages") if isinstance(meta.get("preservedMessages"), dict) else {}
        uuids = kept.get("uuids") if isinstance(kept.get("uuids"), list) else []
        head = segment.get("headUuid") or (uuids[0] if uuids else None)
        if not isinstance(head, str):
            return None
        entry_id = head if head in self.tree.by_id else self.alias.get(head)
        on_path = {entry["id"] for entry in self.tree.ancestors(linked)}
        return entry_id if entry_id in on_path else None

    def _compaction(self, row: Row, parent: str | None, recorded: dict) -> dict:
        before = recorded["preTokens"]
        details = {"importedFrom": FORMAT, "trigger": recorded["trigger"], "tokensBeforeRecorded": before is not None,
                   "boundaryLine": row.line if row.value.get("type") == "system" else None, "summaryLine": None}
        fields = {"summary": "", "firstKeptEntryId": "", "tokensBefore": before if before is not None else
                  self._context_tokens(parent), "details": details}
        entry = self._add(row, "compaction", fields, parent)
        entry["firstKeptEntryId"] = entry["id"]  # naming itself: nothing before it is kept, as in Claude Code
        self.compactions += 1
        return entry

    def _context_tokens(self, parent: str | None) -> int:
        """The context size the last reply before ``parent`` reported (the nearest record of it), else 0."""
        for entry in self.tree.ancestors(parent):
            usage = entry.get("message", {}).get("usage") if entry["type"] == "message" else None
            if isinstance(usage, dict) and usage.get("totalTokens"):
                return int(usage["totalTokens"])
        return 0

    # -- the end ------------------------------------------------------------------------------------------

    def finish(self) -> ImportedSession:
        tree = self.tree
        leaf = None
        if self.last_main is not None:
            leaf = tree.deepest_child(self.last_main, self.rank)
            tree.move_last(leaf)
        for row in self.trailer:
            leaf = self._add(row, "custom", {"customType": f"{FORMAT}:{row.value.get('type')}", "data": row.value},
                             leaf)["id"]
        if self.title is not None:
            leaf = tree.add("session_info", {"name": self.title[1]}, parent=leaf, ms=None)["id"]
        for entry in tree.entries:
            if entry["type"] == "compaction" and entry["details"]["summaryLine"] is None:
                self.notes.append(f"line {entry['details']['boundaryLine']}: a compaction boundary without its "
                                  "summary; imported with an empty summary")
        first = self.first or {}
        header = session_header(first.get("sessionId"), time_of(first.get("timestamp")), first.get("cwd"))
        return ImportedSession(FORMAT, header, tree.entries, tuple(self.notes), self.compactions)


def _boundary_fields(value: dict) -> dict:
    meta = value.get("compactMetadata") if isinstance(value.get("compactMetadata"), dict) else {}
    before = meta.get("preTokens")
    return {"trigger": meta.get("trigger"),
            "preTokens": before if isinstance(before, int) and not isinstance(before, bool) and before >= 0 else None}


def _fill_summary(compaction: dict, text: str, line: int) -> None:
    """Claude's summary without the sentences Claude Code puts before it (kept in ``details.preamble``)."""
    summary = text.strip()
    found = _PREAMBLE.match(summary)
    if found and summary[found.end():].strip():
        compaction["details"]["preamble"] = found[0].strip()
        summary = summary[found.end():].strip()
    compaction["summary"] = summary
    compaction["details"]["summaryLine"] = line


# -- content blocks -----------------------------------------------------------------------------------------


def _blocks(content: Any) -> list[dict]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _as_text(block: dict) -> dict:
    """A block pi has no type for, kept readable (and whole) as text."""
    return {"type": "text", "text": f"[{block.get('type')}] {orjson.dumps(block).decode()}"}


def _user_block(block: dict) -> dict:
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": block.get("text") if isinstance(block.get("text"), str) else ""}
    source = block.get("source") if isinstance(block.get("source"), dict) else {}
    if kind == "image" and source.get("type") == "base64":
        return {"type": "image", "data": source.get("data", ""), "mimeType": source.get("media_type", "image/png")}
    return _as_text(block)


def _assistant_block(block: dict, tool_names: dict[str, str]) -> dict:
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": block.get("text") if isinstance(block.get("text"), str) else ""}
    if kind == "thinking":
        thinking = {"type": "thinking", "thinking": block.get("thinking") or ""}
        if block.get("signature"):
            thinking["thinkingSignature"] = block["signature"]
        return thinking
    if kind == "redacted_thinking":
        return {"type": "thinking", "thinking": "", "thinkingSignature": block.get("data") or "", "redacted": True}
    if kind == "tool_use":
        call_id, name = block.get("id"), block.get("name")
        if isinstance(call_id, str) and isinstance(name, str):
            tool_names[call_id] = name
        arguments = block.get("input") if isinstance(block.get("input"), dict) else {}
        return {"type": "toolCall", "id": call_id if isinstance(call_id, str) else "",
                "name": name if isinstance(name, str) else "", "arguments": arguments}
    return _as_text(block)


def _usage(raw: Any) -> dict:
    raw = raw if isinstance(raw, dict) else {}
    parts = [raw.get(k) for k in ("input_tokens", "output_tokens", "cache_read_input_tokens",
                                   "cache_creation_input_tokens")]
    parts = [p if isinstance(p, int) and not isinstance(p, bool) else 0 for p in parts]
    return {"input": parts[0], "output": parts[1], "cacheRead": parts[2], "cacheWrite": parts[3],
            "totalTokens": sum(parts), "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}


def _stop_reason(message: dict, blocks: list[dict]) -> str:
    if any(b["type"] == "toolCall" for b in blocks):
        return "toolUse"
    return _STOP.get(message.get("stop_reason") or "", "stop")


def _assistant_message(value: dict, message: dict, blocks: list[dict]) -> dict:
    model = message.get("model")
    result = {"role": "assistant", "content": blocks, "api": API, "provider": "anthropic",
              "model": model if isinstance(model, str) else ""}
    if isinstance(message.get("id"), str):
        result["responseId"] = message["id"]
    result.update({"usage": _usage(message.get("usage")), "stopReason": _stop_reason(message, blocks),
                   "timestamp": time_of(value.get("timestamp")) or 0})
    if value.get("isApiErrorMessage"):
        result["stopReason"] = "error"
        result["errorMessage"] = "\n".join(b["text"] for b in blocks if b["type"] == "text")
    return result


def _merge_assistant(earlier: dict, blocks: list[dict], message: dict) -> None:
    """Another row of the same API message: its blocks join, usage keeps each field's largest count."""
    earlier["content"].extend(blocks)
    usage, more = earlier["usage"], _usage(message.get("usage"))
    for key in ("input", "output", "cacheRead", "cacheWrite"):
        usage[key] = max(usage[key], more[key])
    usage["totalTokens"] = usage["input"] + usage["output"] + usage["cacheRead"] + usage["cacheWrite"]
    if earlier.get("stopReason") != "error":
        earlier["stopReason"] = _stop_reason(message, earlier["content"])
