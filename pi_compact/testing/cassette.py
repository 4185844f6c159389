"""A recorded pi session played back as the model's side of a conversation, VCR-style.

The *steps* of a cassette are the assistant messages on one path of the session tree (the active one, or
the path to ``leaf``); request *n* is answered with step *n*. Assistant messages that ended in an error or
were aborted are not steps: the client never received them, and pi's own requests leave them out. What
a request must carry (``match="strict"``) is what pi would have sent after the previous answer: the
session's context at that point converted for the request's API, its user messages and tool results after
the last assistant turn (:mod:`pi_compact.testing.inputs`). Compaction and branch summaries are the
agent's own memory, not inputs, and are not compared; both sides are compared with secrets redacted, as
the recorder writes them.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pi_compact.accessors import content_text
from pi_compact.compaction.redact import redact_secrets
from pi_compact.context import entry_to_message
from pi_compact.convert import to_anthropic, to_openai_chat, to_openai_responses
from pi_compact.errors import UsageError
from pi_compact.session import Session

from .inputs import Item, items_of, merge_user_texts, request_items, split_request
from .server import FakeReply, Mismatch

_UNSENT = ("error", "aborted")
_SUMMARIES = ("compactionSummary", "branchSummary")
_EXCERPT = 60


@dataclass(frozen=True)
class Step:
    """One recorded answer: the assistant entry and the entry it hangs from."""

    entry_id: str
    parent_id: str | None
    message: dict[str, Any]


class Player:
    """Answers requests with a session's recorded assistant messages, in order, checking what they carry."""

    def __init__(self, session: Session, leaf_id: str | None, match: str) -> None:
        self.session = session
        self.match = match
        self.path = session.branch(leaf_id) if leaf_id is not None else []
        self._positions = [
            i for i, e in enumerate(self.path) if e.get("type") == "message" and isinstance(e.get("message"), dict)
            and e["message"].get("role") == "assistant" and e["message"].get("stopReason") not in _UNSENT
        ]
        self.steps = [Step(self.path[i]["id"], self.path[i].get("parentId"), self.path[i]["message"])
                      for i in self._positions]
        self.cursor = 0
        """How many steps have been answered (in ``match="none"``, modulo their number)."""
        self._lock = threading.Lock()
        self._expected = lru_cache(maxsize=64)(self._expected_items)

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], *, leaf: str | None = None, match: str = "strict", durable: bool = False
    ) -> "Player":
        """Replay the file at ``path``; ``durable`` when a recorder will append to the same session."""
        if not os.path.isfile(path):
            raise UsageError(f"no session file at {os.fspath(path)!r} to replay")
        session = Session.open(path, durable=durable)
        return cls(session, session.resolve(leaf) if leaf is not None else session.leaf_id, match)

    @property
    def exhausted(self) -> bool:
        return self.cursor >= len(self.steps)

    @property
    def last_entry_id(self) -> str | None:
        """The last entry of the replayed path, where a recording of new episodes continues."""
        return self.path[-1]["id"] if self.path else None

    def reply(self, number: int, api: str, body: Any) -> FakeReply | Mismatch | None:
        """The answer to request ``number``, a :class:`Mismatch`, or ``None`` past the end of the recording."""
        with self._lock:
            if self.exhausted and self.match == "none" and self.steps:
                self.cursor = 0
            if self.exhausted:
                return None
            step = self.steps[self.cursor]
            if self.match == "strict":
                problem = diff_items(self._expected(self.cursor, api), _redacted(request_items(api, body)))
                if problem:
                    return Mismatch(number, f"request {number}: {problem}")
            self.cursor += 1
        return reply_of(step.message)

    def close(self) -> None:
        self.session.close()

    def past_end(self, number: int) -> str:
        last = self.path[-1] if self.path else None
        where = f"its last recorded entry is {_describe(last)}" if last else "it has no entries"
        return f"request {number}: the recording has no reply left ({len(self.steps)} recorded); {where}"

    def _expected_items(self, index: int, api: str) -> list[Item]:
        """What pi would have sent before step ``index``: the inputs after the previous answer.

        Read from the entries since the previous answer, which are the end of the context when no compaction
        lies between (so a long replay costs linear time); across a compaction, from the context itself.
        """
        between = self.path[self._positions[index - 1] if index else 0 : self._positions[index]]
        if any(e.get("type") == "compaction" for e in between):
            messages = self.session.build_context(self.steps[index].parent_id).messages
        else:
            messages = [m for m in map(entry_to_message, between) if isinstance(m, dict)]
        messages = [m for m in messages if m.get("role") not in _SUMMARIES]
        answered = [i for i, m in enumerate(messages) if m.get("role") == "assistant" and m.get("stopReason") not in _UNSENT]
        tail = messages[answered[-1]:] if answered else messages
        body = _request_body(api, tail)
        return _redacted(merge_user_texts(items_of(api, split_request(api, body)[1])))


def _request_body(api: str, messages: list[dict]) -> dict[str, Any]:
    if api == "anthropic":
        return {"messages": to_anthropic(messages)[1]}
    if api == "chat":
        return {"messages": to_openai_chat(messages)}
    return {"input": to_openai_responses(messages)[1]}


def _redacted(items: list[Item]) -> list[Item]:
    return [Item(i.kind, redact_secrets(i.text), i.call_id) for i in items]


def reply_of(message: dict[str, Any]) -> FakeReply:
    """A recorded pi assistant message as the fake server's reply: content, usage, model, id, stop reason."""
    usage = message.get("usage") if isinstance(message.get("usage"), dict) else {}
    counts = tuple(int(usage.get(k) or 0) for k in ("input", "output", "cacheRead", "cacheWrite"))
    content = message.get("content")
    blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
    stop = message.get("stopReason") if message.get("stopReason") in ("stop", "length", "toolUse") else "stop"
    model = message.get("model") if isinstance(message.get("model"), str) and message.get("model") else None
    response_id = message.get("responseId") if isinstance(message.get("responseId"), str) else None
    return FakeReply(content=blocks, usage=counts, model=model, response_id=response_id, stop=stop)


# -- the diff -----------------------------------------------------------------------------------------------


def diff_items(recorded: list[Item], sent: list[Item]) -> str | None:
    """The differences between what the recording has and what a request sent, or ``None``.

    The request may carry more before (a summary of its own, a resent message); the recorded items must be
    its last ones, in order.
    """
    offset = len(sent) - len(recorded)
    problems = [
        _difference(item, sent[offset + i] if offset + i >= 0 else None, first=i == 0)
        for i, item in enumerate(recorded)
    ]
    found = [p for p in problems if p]
    if not found:
        return None
    more = f" (and {len(found) - 1} more difference{'s' if len(found) > 2 else ''})" if len(found) > 1 else ""
    return found[0] + more


def _difference(recorded: Item, sent: Item | None, *, first: bool) -> str | None:
    """What differs between a recorded item and the one sent in its place; the first sent item may begin
    with more text (user texts are merged, so a summary the agent sends ahead is in the same item)."""
    if sent is None:
        return f"{recorded.describe()} is missing: recorded {_quote(recorded.text)}"
    if sent.kind != recorded.kind or sent.call_id != recorded.call_id:
        return f"{recorded.describe()} is missing: recorded {_quote(recorded.text)}, sent {sent.describe()} instead"
    if sent.text == recorded.text or (first and recorded.kind == "user" and sent.text.endswith("\n" + recorded.text)):
        return None
    shown_recorded, shown_sent = _excerpts(recorded.text, sent.text)
    return f"{recorded.describe()[4:]} differs: recorded {shown_recorded}, sent {shown_sent}"


def _excerpts(a: str, b: str) -> tuple[str, str]:
    """Both texts, cut around their first difference when they are long."""
    if len(a) <= _EXCERPT and len(b) <= _EXCERPT:
        return _quote(a), _quote(b)
    common = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, common - 20)
    return _cut(a, start), _cut(b, start)


def _cut(text: str, start: int) -> str:
    piece = text[start : start + _EXCERPT]
    return ("…" if start else "") + _quote(piece) + ("…" if start + _EXCERPT < len(text) else "")


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("\n", "\\n").replace("'", "\\'") + "'"


def _describe(entry: dict[str, Any]) -> str:
    message = entry.get("message") if isinstance(entry.get("message"), dict) else None
    kind = message.get("role") if message else entry.get("type")
    text = content_text(message.get("content"), " ") if message else str(entry.get("summary") or "")
    excerpt = f", {_quote(text[:_EXCERPT] + ('…' if len(text) > _EXCERPT else ''))}" if text else ""
    return f"{entry.get('id')} ({kind}{excerpt})"
