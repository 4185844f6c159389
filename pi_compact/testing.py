"""Test doubles shipped with the library, so users test their own code the way we test ours.

Two doubles, for two levels of a test:

* :class:`ScriptedSummarizer` stands in for any :class:`~pi_compact.compaction.summarizer.Summarizer`: it
  answers from a script and records what it was asked, with no network at all.
* :func:`fake_llm_server` runs a tiny local HTTP server that speaks just enough of the Anthropic Messages API
  and the OpenAI Chat Completions and Responses APIs (plain JSON and SSE streaming) for the *real* SDKs to
  talk to it. Tests then exercise the real client code paths (retries, timeouts, error mapping) without
  monkeypatching anything, and assert on the recorded requests.

Nothing here is imported by the library itself; importing this module costs only the standard library.
"""

from __future__ import annotations

import json
import re
import socket
import struct
import sys
import threading
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import count
from typing import Any

from pi_compact.compaction.summarizer import SummaryRequest, SummaryResult
from pi_compact.errors import SummarizerError

__all__ = [
    "FakeLLMServer",
    "FakeReply",
    "RecordedRequest",
    "ScriptedSummarizer",
    "fake_llm_server",
]

DEFAULT_FAKE_TEXT = "This is a fake reply."


def _rough_tokens(text: str) -> int:
    """pi's chars/4 heuristic: good enough for doubles, and predictable in assertions."""
    return len(text) // 4


# -- scripted summarizer ----------------------------------------------------------------------------------


class ScriptedSummarizer:
    """A :class:`Summarizer` that replays a script: each call takes the next item in order.

    A string item is returned as the summary; an exception instance is raised instead, so failure paths
    (timeouts, provider errors) are as easy to script as successes. Every request is kept in :attr:`calls`,
    including those that raised, so tests can assert on prompts and call counts.
    """

    def __init__(
        self,
        summaries: Iterable[str | BaseException],
        *,
        name: str = "scripted",
        context_window: int = 200_000,
    ) -> None:
        self.name = name
        self.context_window = context_window
        self.calls: list[SummaryRequest] = []
        self._script: deque[str | BaseException] = deque(summaries)

    @property
    def remaining(self) -> int:
        """How many scripted items have not been consumed yet."""
        return len(self._script)

    def summarize(self, request: SummaryRequest) -> SummaryResult:
        self.calls.append(request)
        if not self._script:
            raise SummarizerError("no scripted summary left")
        item = self._script.popleft()
        if isinstance(item, BaseException):
            raise item
        return SummaryResult(
            text=item,
            input_tokens=_rough_tokens(request.system + request.prompt),
            output_tokens=_rough_tokens(item),
            model=self.name,
        )


# -- fake LLM server: values --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FakeReply:
    """One scripted answer of :class:`FakeLLMServer`, rendered in whichever API the request used."""

    text: str = ""
    """Assistant text (or, with an error ``status``, the provider error's ``message``)."""
    tool_calls: Sequence[Mapping[str, Any]] = ()
    """Tool calls, each ``{"id", "name", "arguments": dict}``; ``id`` is generated when missing."""
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    """Extra response headers, e.g. ``{"retry-after": "0"}`` on a 429."""
    body: str | None = None
    """Raw body sent verbatim instead of a rendered one (malformed-JSON tests)."""
    delay: float = 0.0
    """Seconds to wait before answering (timeout tests); cut short when the server shuts down."""
    drop_connection: bool = False
    """Reset the connection instead of answering."""
    usage: tuple[int, int] | None = None
    """``(input_tokens, output_tokens)``; by default about a quarter of the request/answer characters."""
    stop_reason: str | None = None
    """Provider stop reason (``max_tokens``, ``length``, ...); by default the natural one for the reply."""


@dataclass(frozen=True)
class RecordedRequest:
    """A request the fake server received, as tests want to see it."""

    method: str
    path: str
    headers: dict[str, str]
    """Header names lower-cased."""
    body: Any
    """Parsed JSON body, or ``None`` when the body was empty or not JSON."""
    raw: bytes = b""


class FakeLLMServer:
    """State shared between a test and the server thread: the reply script and the request log."""

    def __init__(self, url: str, default_text: str) -> None:
        self.url = url
        """Base URL without a trailing slash, e.g. ``http://127.0.0.1:54321``."""
        self.default_text = default_text
        """Text answered when the script is empty."""
        self.requests: list[RecordedRequest] = []
        self._script: deque[FakeReply] = deque()
        self._lock = threading.Lock()
        self._ids = count(1)
        self._closing = threading.Event()

    def push(self, *replies: FakeReply) -> None:
        """Queue replies; each request consumes one, in order."""
        with self._lock:
            self._script.extend(replies)

    @property
    def pending(self) -> int:
        """How many pushed replies are still waiting for a request."""
        with self._lock:
            return len(self._script)

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _next_reply(self) -> FakeReply:
        with self._lock:
            return self._script.popleft() if self._script else FakeReply(text=self.default_text)

    def _next_id(self) -> int:
        with self._lock:
            return next(self._ids)


# -- fake LLM server: wire formats --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Answer:
    """A reply resolved against its request: model, serial number and token usage filled in."""

    reply: FakeReply
    model: str
    serial: int
    input_tokens: int
    output_tokens: int

    @property
    def tools(self) -> list[tuple[str, str, dict[str, Any]]]:
        """``(id, name, arguments)`` for each tool call."""
        return [
            (str(call.get("id") or f"call_{self.serial}_{i}"), str(call["name"]), dict(call.get("arguments", {})))
            for i, call in enumerate(self.reply.tool_calls)
        ]


def _answer(server: FakeLLMServer, reply: FakeReply, raw: bytes, body: Any) -> _Answer:
    model = body.get("model", "fake-model") if isinstance(body, dict) else "fake-model"
    args_text = "".join(json.dumps(call.get("arguments", {})) for call in reply.tool_calls)
    usage = reply.usage or (max(1, len(raw) // 4), _rough_tokens(reply.text + args_text))
    return _Answer(reply, str(model), server._next_id(), usage[0], usage[1])


def _chunks(text: str) -> list[str]:
    """Split text word by word, so streaming clients really have to join deltas."""
    return re.findall(r"\s*\S+\s*|\s+", text)


def _anthropic_message(a: _Answer) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": a.reply.text}] if a.reply.text else []
    content += [{"type": "tool_use", "id": i, "name": n, "input": args} for i, n, args in a.tools]
    return {
        "id": f"msg_fake{a.serial}",
        "type": "message",
        "role": "assistant",
        "model": a.model,
        "content": content,
        "stop_reason": a.reply.stop_reason or ("tool_use" if a.tools else "end_turn"),
        "stop_sequence": None,
        "usage": {"input_tokens": a.input_tokens, "output_tokens": a.output_tokens},
    }


def _anthropic_events(a: _Answer) -> Iterator[tuple[str, dict[str, Any]]]:
    """The SSE event sequence of one streamed Anthropic message."""
    message = _anthropic_message(a)
    start = dict(message, content=[], stop_reason=None, usage={"input_tokens": a.input_tokens, "output_tokens": 1})
    yield "message_start", {"type": "message_start", "message": start}
    for index, block in enumerate(message["content"] or [{"type": "text", "text": ""}]):
        opening, deltas = _anthropic_block_stream(block)
        yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": opening}
        for delta in deltas:
            yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    stop = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    yield "message_delta", {"type": "message_delta", "delta": stop, "usage": {"output_tokens": a.output_tokens}}
    yield "message_stop", {"type": "message_stop"}


def _anthropic_block_stream(block: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A content block as its empty opening plus the deltas that fill it."""
    if block["type"] == "text":
        return {"type": "text", "text": ""}, [{"type": "text_delta", "text": t} for t in _chunks(block["text"])]
    opening = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
    return opening, [{"type": "input_json_delta", "partial_json": h} for h in _halves(json.dumps(block["input"]))]


def _halves(raw: str) -> list[str]:
    """Tool arguments arrive in pieces that are not valid JSON on their own, as real streams do."""
    return [raw[: len(raw) // 2], raw[len(raw) // 2 :]]


def _openai_usage(a: _Answer) -> dict[str, int]:
    total = a.input_tokens + a.output_tokens
    return {"prompt_tokens": a.input_tokens, "completion_tokens": a.output_tokens, "total_tokens": total}


def _openai_tool_calls(a: _Answer) -> list[dict[str, Any]]:
    return [
        {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(args)}} for i, n, args in a.tools
    ]


def _openai_finish(a: _Answer) -> str:
    return a.reply.stop_reason or ("tool_calls" if a.tools else "stop")


def _openai_chat(a: _Answer) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": a.reply.text if a.reply.text or not a.tools else None}
    if a.tools:
        message["tool_calls"] = _openai_tool_calls(a)
    choice = {"index": 0, "message": message, "finish_reason": _openai_finish(a), "logprobs": None}
    return {
        "id": f"chatcmpl-fake{a.serial}",
        "object": "chat.completion",
        "created": 0,
        "model": a.model,
        "choices": [choice],
        "usage": _openai_usage(a),
    }


def _openai_chat_deltas(a: _Answer) -> Iterator[tuple[dict[str, Any], str | None]]:
    """``(delta, finish_reason)`` pairs of one streamed chat completion."""
    yield {"role": "assistant", "content": "" if a.reply.text or not a.tools else None}, None
    for piece in _chunks(a.reply.text):
        yield {"content": piece}, None
    for index, (call_id, name, args) in enumerate(a.tools):
        head = {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}
        yield {"tool_calls": [head]}, None
        for part in _halves(json.dumps(args)):
            yield {"tool_calls": [{"index": index, "function": {"arguments": part}}]}, None
    yield {}, _openai_finish(a)


def _openai_chat_chunks(a: _Answer, include_usage: bool) -> Iterator[dict[str, Any]]:
    base = {"id": f"chatcmpl-fake{a.serial}", "object": "chat.completion.chunk", "created": 0, "model": a.model}
    for delta, finish in _openai_chat_deltas(a):
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        yield dict(base, choices=[choice], **({"usage": None} if include_usage else {}))
    if include_usage:
        yield dict(base, choices=[], usage=_openai_usage(a))


def _openai_response(a: _Answer) -> dict[str, Any]:
    output: list[dict[str, Any]] = []
    if a.reply.text:
        text = {"type": "output_text", "text": a.reply.text, "annotations": []}
        message = {"type": "message", "id": f"msg_fake{a.serial}", "status": "completed", "role": "assistant"}
        output.append(dict(message, content=[text]))
    for call_id, name, args in a.tools:
        call = {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": name}
        output.append(dict(call, arguments=json.dumps(args), status="completed"))
    usage = {
        "input_tokens": a.input_tokens,
        "output_tokens": a.output_tokens,
        "total_tokens": a.input_tokens + a.output_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens_details": {"reasoning_tokens": 0},
    }
    incomplete = {"reason": a.reply.stop_reason} if a.reply.stop_reason else None
    return {
        "id": f"resp_fake{a.serial}",
        "object": "response",
        "created_at": 0,
        "status": "incomplete" if incomplete else "completed",
        "incomplete_details": incomplete,
        "error": None,
        "model": a.model,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": usage,
    }


_ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}


def _error_body(api: str, status: int, message: str) -> dict[str, Any]:
    """The error JSON each provider sends with a non-2xx status."""
    message = message or f"fake error {status}"
    if api == "anthropic":
        kind = _ANTHROPIC_ERROR_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    kind = "server_error" if status >= 500 else "requests" if status == 429 else "invalid_request_error"
    code = "rate_limit_exceeded" if status == 429 else None
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


_ROUTES = {"/v1/messages": "anthropic", "/v1/chat/completions": "chat", "/v1/responses": "responses"}


# -- fake LLM server: HTTP --------------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    """Serves one request per connection (``Connection: close``), so shutdown never waits on keep-alives."""

    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Keep test output clean."""

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def _serve(self) -> None:
        fake = self.server.fake
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        body = _parse_json(raw)
        headers = {k.lower(): v for k, v in self.headers.items()}
        fake._record(RecordedRequest(self.command, self.path, headers, body, raw))
        api = _ROUTES.get(self.path.split("?", 1)[0])
        if api is None or self.command != "POST":
            self._send_json(404, _error_body("openai", 404, f"fake server has no route {self.command} {self.path}"), {})
            return
        if api == "responses" and isinstance(body, dict) and body.get("stream"):
            self._send_json(400, _error_body("openai", 400, "fake server does not stream /v1/responses"), {})
            return
        self._reply(api, fake._next_reply(), raw, body)

    def _reply(self, api: str, reply: FakeReply, raw: bytes, body: Any) -> None:
        fake = self.server.fake
        cut_short = reply.delay > 0 and fake._closing.wait(reply.delay)
        if cut_short or reply.drop_connection:
            self._reset()
            return
        if reply.body is not None:
            self._send(reply.status, reply.body.encode(), "application/json", reply.headers)
            return
        if reply.status >= 400:
            family = "anthropic" if api == "anthropic" else "openai"
            self._send_json(reply.status, _error_body(family, reply.status, reply.text), reply.headers)
            return
        answer = _answer(fake, reply, raw, body)
        streaming = isinstance(body, dict) and bool(body.get("stream"))
        if api == "anthropic":
            self._send_anthropic(answer, streaming)
        elif api == "chat":
            self._send_chat(answer, streaming, body)
        else:
            self._send_json(reply.status, _openai_response(answer), reply.headers)

    def _send_anthropic(self, answer: _Answer, streaming: bool) -> None:
        if not streaming:
            self._send_json(answer.reply.status, _anthropic_message(answer), answer.reply.headers)
            return
        events = (f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in _anthropic_events(answer))
        self._send_stream(answer.reply, events)

    def _send_chat(self, answer: _Answer, streaming: bool, body: dict[str, Any]) -> None:
        if not streaming:
            self._send_json(answer.reply.status, _openai_chat(answer), answer.reply.headers)
            return
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        lines = [f"data: {json.dumps(chunk)}\n\n" for chunk in _openai_chat_chunks(answer, include_usage)]
        self._send_stream(answer.reply, [*lines, "data: [DONE]\n\n"])

    def _send_json(self, status: int, payload: Any, headers: Mapping[str, str]) -> None:
        self._send(status, json.dumps(payload).encode(), "application/json", headers)

    def _send(self, status: int, data: bytes, content_type: str, headers: Mapping[str, str]) -> None:
        self._start(status, content_type, headers)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_stream(self, reply: FakeReply, events: Iterable[str]) -> None:
        """SSE without a length: the body ends when the connection closes."""
        self._start(reply.status, "text/event-stream", reply.headers)
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        for event in events:
            self.wfile.write(event.encode())
            self.wfile.flush()

    def _start(self, status: int, content_type: str, headers: Mapping[str, str]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in headers.items():
            if name.lower() != "content-type":
                self.send_header(name, value)
        self.send_header("Connection", "close")

    def _reset(self) -> None:
        """Close with RST (linger 0), the way a crashed proxy or a dying server drops a client."""
        self.close_connection = True
        self.request.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.request.close()


def _parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeLLMServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (timeout tests) is expected; anything else is still reported."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


@contextmanager
def fake_llm_server(*, default_text: str = DEFAULT_FAKE_TEXT) -> Iterator[FakeLLMServer]:
    """Run a :class:`FakeLLMServer` on ``127.0.0.1`` (a free port) for the duration of the ``with`` block.

    Point an SDK at it with ``base_url=server.url`` (Anthropic) or ``base_url=server.url + "/v1"`` (OpenAI).
    On exit, delayed replies are cut short and the server is shut down and closed, so a test never hangs.
    """
    httpd = _Server(("127.0.0.1", 0), _Handler)
    host, port = httpd.server_address[:2]
    fake = FakeLLMServer(f"http://{host}:{port}", default_text)
    httpd.fake = fake
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake._closing.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
