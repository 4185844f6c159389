"""Assertions for tests of agents built on the store: the window held at every request, the facts kept.

Both raise ``AssertionError`` with a message that says what failed and where, so they read as plain
``assert`` lines in a test:

* :func:`assert_context_fits` — every request the fake server received (a replay, a scripted run) fitted
  the window, estimated with the same per-character weights compaction uses.
* :func:`assert_facts_survive` — the session was compacted on the current path and each named fact (a
  file path, an error message, a decision) is still in the context the model is sent.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pi_compact.accessors import json_strings
from pi_compact.compaction.tokens import IMAGE_TOKENS, text_tokens
from pi_compact.session import Session

from .server import FakeLLMServer, RecordedRequest
from .wire import ROUTES

_PROMPT_FIELDS = ("system", "instructions", "messages", "input", "tools")
"""The parts of a request the model reads; model name, sampling and stream options are not counted."""


_STRUCTURE = frozenset({"role", "type", "id", "tool_call_id", "tool_use_id", "call_id", "status", "signature",
                        "cache_control", "detail", "media_type"})
"""Keys whose values frame the text rather than being read as text (ids, roles, signatures)."""


def request_tokens(request: RecordedRequest) -> int:
    """Estimated prompt tokens of one request: its system prompt, messages or input, and tool definitions."""
    body = request.body if isinstance(request.body, dict) else {}
    strings = json_strings(_without_structure([body.get(name) for name in _PROMPT_FIELDS]))
    images = [s for s in strings if s.startswith("data:image/")]
    return sum(text_tokens(s) for s in strings if not s.startswith("data:image/")) + IMAGE_TOKENS * len(images)


def _without_structure(value: Any) -> Any:
    """The value with the structural keys' strings left out (walked with a stack: requests nest deeply)."""
    root: list[Any] = []
    stack: list[tuple[Any, list[Any]]] = [(value, root)]
    while stack:
        item, into = stack.pop()
        if isinstance(item, dict):
            item = [v for k, v in item.items() if k not in _STRUCTURE]
        if isinstance(item, list):
            inner: list[Any] = []
            into.append(inner)
            stack.extend((v, inner) for v in reversed(item))
        else:
            into.append(item)
    return root


def assert_context_fits(server: FakeLLMServer, window: int, *, reserve: int = 0) -> list[int]:
    """Every model request ``server`` received fitted ``window - reserve`` tokens; returns each one's estimate."""
    limit = window - reserve
    model_requests = [r for r in server.requests if r.method == "POST" and r.path.split("?", 1)[0] in ROUTES]
    sizes = [request_tokens(r) for r in model_requests]
    over = [(n, size) for n, size in enumerate(sizes, 1) if size > limit]
    if not model_requests:
        raise AssertionError("the server received no model request: nothing to check")
    if over:
        listed = ", ".join(f"request {n}: {size:,}" for n, size in over[:5])
        more = f" and {len(over) - 5} more" if len(over) > 5 else ""
        raise AssertionError(f"{len(over)} of {len(sizes)} requests did not fit {limit:,} tokens "
                             f"(window {window:,} - reserve {reserve:,}): {listed}{more}")
    return sizes


def assert_facts_survive(session: Session, facts: Iterable[str], *, leaf: str | None = None) -> None:
    """The path to ``leaf`` (default: the session's leaf) went through a compaction, and each fact is in
    its context (the summary or the messages kept), as written."""
    leaf_id = leaf if leaf is not None else session.leaf_id
    messages = session.build_context(leaf_id).messages
    if not any(m.get("role") == "compactionSummary" for m in messages):
        raise AssertionError(f"no compaction on the path to {leaf_id}: nothing to check the facts against")
    text = "\n".join(json_strings([_visible(m) for m in messages]))
    lost = [fact for fact in facts if fact not in text]
    if lost:
        summary = next(m["summary"] for m in messages if m.get("role") == "compactionSummary")
        shown = summary[:200] + ("…" if len(summary) > 200 else "")
        raise AssertionError(f"{len(lost)} fact(s) lost in compaction: {', '.join(map(repr, lost))}; "
                             f"the summary reads: {shown!r}")


def _visible(message: dict[str, Any]) -> Any:
    """What of a context message the model reads (ids, timestamps and usage are not facts it keeps)."""
    role = message.get("role")
    if role in ("compactionSummary", "branchSummary"):
        return message.get("summary")
    if role == "bashExecution":
        return [message.get("command"), message.get("output")]
    return message.get("content")
