"""A tiny local HTTP server speaking the Anthropic Messages and OpenAI Chat / Responses APIs for the real SDKs.

Each request is answered from one of three sources: a script of :class:`FakeReply` (``push``), a recorded
pi session replayed as a cassette (``session=``, see :mod:`pi_compact.testing.cassette`), or a real
provider the request is forwarded to while the exchange is written to a session (``record=``, see
:mod:`pi_compact.testing.recorder`). Tests exercise the real client code paths (retries, timeouts, error
mapping, streaming) without monkeypatching anything, and assert on :attr:`FakeLLMServer.requests`.
"""

from __future__ import annotations

import http.client
import json
import os
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
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from . import wire
from .scripted import rough_tokens

if TYPE_CHECKING:
    from .cassette import Player
    from .recorder import Recorder

DEFAULT_FAKE_TEXT = "This is a fake reply."
MATCH_MODES = ("strict", "loose", "none")


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
    usage: tuple[int, ...] | None = None
    """``(input_tokens, output_tokens)`` or ``(input, output, cache_read, cache_write)``; by default about a
    quarter of the request/answer characters."""
    stop_reason: str | None = None
    """Provider stop reason (``max_tokens``, ``length``, ...); by default the natural one for the reply."""
    thinking: str = ""
    """Reasoning, sent where the API has a place for it (Anthropic ``thinking``, a Responses ``reasoning`` item)."""
    content: Sequence[Mapping[str, Any]] | None = None
    """pi assistant content blocks (``text``, ``thinking``, ``toolCall``) sent as they are, instead of
    ``text``/``thinking``/``tool_calls``: what a replayed session answers."""
    model: str | None = None
    """The model the answer names; by default the request's."""
    response_id: str | None = None
    """The provider's id of the answer; by default ``msg_fake1``, ``chatcmpl-fake1``, ``resp_fake1``..."""
    stop: str | None = None
    """pi's stop reason (``stop``, ``length``, ``toolUse``) when ``stop_reason`` is not given."""


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


@dataclass(frozen=True)
class Mismatch:
    """A request a replayed session could not answer: it differs from the recording, or comes past its end."""

    request: int
    """The request's number, from 1, in the order the server received them."""
    message: str
    """``request 4: tool result for call_17 differs: recorded '3 passed', sent '2 passed, 1 failed'``."""

    def __str__(self) -> str:
        return self.message


class FakeLLMServer:
    """State shared between a test and the server thread: the reply script, the request log, the mismatches."""

    def __init__(self, url: str, default_text: str, delta_words: int = 1) -> None:
        self.url = url
        """Base URL without a trailing slash, e.g. ``http://127.0.0.1:54321``."""
        self.delta_words = delta_words
        """Words per streamed text delta (1: every word is a delta)."""
        self.default_text = default_text
        """Text answered when the script is empty."""
        self.requests: list[RecordedRequest] = []
        self.mismatches: list[Mismatch] = []
        """What a cassette could not answer (each also sent to the client as an HTTP 400 error)."""
        self.player: Player | None = None
        """The replayed session, when the server was started with ``session=``."""
        self.recorder: Recorder | None = None
        """Where the exchanges are written, when the server was started with ``record=``."""
        self._script: deque[FakeReply] = deque()
        self._lock = threading.Lock()
        self._ids = count(1)
        self._numbers = count(1)
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

    def _answer_for(self, api: str, body: Any) -> FakeReply | None:
        """The reply to send, or ``None`` to forward the request to the recorder's provider."""
        number = next(self._numbers)
        if self.player is not None:
            reply = self.player.reply(number, api, body)
            if reply is not None:
                return self._refusal(reply) if isinstance(reply, Mismatch) else reply
            if self.recorder is None:
                return self._refusal(Mismatch(number, self.player.past_end(number)))
        return None if self.recorder is not None else self._next_reply()

    def _refusal(self, mismatch: Mismatch) -> FakeReply:
        with self._lock:
            self.mismatches.append(mismatch)
        return FakeReply(status=400, text=f"pi-compact cassette: {mismatch.message}")


def _answer(server: FakeLLMServer, reply: FakeReply, raw: bytes, body: Any) -> wire.Answer:
    serial = server._next_id()
    model = reply.model or (body.get("model") if isinstance(body, dict) else None) or "fake-model"
    blocks = tuple(dict(b) for b in reply.content) if reply.content is not None else _blocks(reply, serial)
    calls = [b for b in blocks if b.get("type") == "toolCall"]
    if reply.usage is not None:
        usage = (*reply.usage, 0, 0)[:4]
    else:
        written = [str(b.get("text") or b.get("thinking") or "") for b in blocks if b.get("type") != "toolCall"]
        written += [json.dumps(b.get("arguments", {})) for b in calls]
        usage = (max(1, len(raw) // 4), rough_tokens("".join(written)), 0, 0)
    stop = reply.stop or ("toolUse" if calls else "stop")
    return wire.Answer(blocks, str(model), serial, usage, stop, reply.stop_reason, reply.response_id, server.delta_words)


def _blocks(reply: FakeReply, serial: int) -> tuple[dict[str, Any], ...]:
    blocks: list[dict[str, Any]] = []
    if reply.thinking:
        blocks.append({"type": "thinking", "thinking": reply.thinking, "thinkingSignature": f"sig_fake{serial}"})
    if reply.text:
        blocks.append({"type": "text", "text": reply.text})
    for i, call in enumerate(reply.tool_calls):
        call_id = str(call.get("id") or f"call_{serial}_{i}")
        blocks.append({"type": "toolCall", "id": call_id, "name": str(call["name"]), "arguments": dict(call.get("arguments", {}))})
    return tuple(blocks)


# -- HTTP --------------------------------------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    """Serves one request per connection (``Connection: close``), so shutdown never waits on keep-alives."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out as separate writes: no 40 ms delayed-ACK stall
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
        api = wire.ROUTES.get(self.path.split("?", 1)[0])
        if api is None or self.command != "POST":
            self._send_json(404, wire.error_body("openai", 404, f"fake server has no route {self.command} {self.path}"), {})
            return
        reply = fake._answer_for(api, body)
        if reply is None:
            self._forward(api, raw, body, headers)
        else:
            self._reply(api, reply, raw, body)

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
            self._send_json(reply.status, wire.error_body(family, reply.status, reply.text), reply.headers)
            return
        answer = _answer(fake, reply, raw, body)
        if not (isinstance(body, dict) and body.get("stream")):
            rendered = {"anthropic": wire.anthropic_message, "chat": wire.chat_completion, "responses": wire.responses_response}
            self._send_json(reply.status, rendered[api](answer), reply.headers)
        else:
            self._send_stream(reply, _stream_events(api, answer, body))

    def _forward(self, api: str, raw: bytes, body: Any, headers: dict[str, str]) -> None:
        """Pass the request to the recorder's provider, stream its answer back, then have it recorded."""
        recorder = self.server.fake.recorder
        assert recorder is not None
        try:
            status, content_type, passed, pieces = _upstream(recorder.upstream, self.path, raw, headers)
        except OSError as error:
            family = "anthropic" if api == "anthropic" else "openai"
            self._send_json(502, wire.error_body(family, 502, f"pi-compact recorder: {recorder.upstream}: {error}"), {})
            return
        self._start(status, content_type, passed)
        self.end_headers()
        received = bytearray()
        for piece in pieces:
            received += piece
            self.wfile.write(piece)
            self.wfile.flush()
        if status == 200:
            recorder.record(api, body, bytes(received), "event-stream" in content_type)

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


def _stream_events(api: str, answer: wire.Answer, body: dict[str, Any]) -> list[str]:
    if api == "anthropic":
        return [f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in wire.anthropic_events(answer)]
    if api == "responses":
        return [f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in wire.responses_events(answer)]
    include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
    return [*(f"data: {json.dumps(chunk)}\n\n" for chunk in wire.chat_chunks(answer, include_usage)), "data: [DONE]\n\n"]


_HOP_HEADERS = {"host", "content-length", "connection", "accept-encoding", "keep-alive", "transfer-encoding",
                "content-encoding", "content-type", "date", "server"}
"""Headers of one hop (or set by the fake server itself), never passed through."""


def _upstream(
    base: str, path: str, raw: bytes, headers: Mapping[str, str]
) -> tuple[int, str, dict[str, str], Iterator[bytes]]:
    """POST to the provider; ``(status, content type, headers to pass on, body pieces as they arrive)``."""
    parts = urlsplit(base)
    prefix = parts.path.rstrip("/")
    if prefix.endswith("/v1") and path.startswith("/v1/"):
        prefix = prefix[:-3]  # base URLs are written with or without the version; the SDK's path carries it
    connection_type = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = connection_type(parts.hostname or "localhost", parts.port, timeout=600)
    sent = {k: v for k, v in headers.items() if k not in _HOP_HEADERS}
    conn.request("POST", prefix + path, body=raw, headers={**sent, "accept-encoding": "identity"})
    response = conn.getresponse()

    def pieces() -> Iterator[bytes]:
        try:
            while piece := response.read1(65536):
                yield piece
        finally:
            conn.close()

    passed = {k: v for k, v in response.getheaders() if k.lower() not in _HOP_HEADERS}
    return response.status, response.getheader("content-type") or "application/json", passed, pieces()


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
def fake_llm_server(
    *,
    default_text: str = DEFAULT_FAKE_TEXT,
    session: str | os.PathLike[str] | None = None,
    leaf: str | None = None,
    match: str = "strict",
    record: str | os.PathLike[str] | None = None,
    upstream: str | None = None,
    delta_words: int = 1,
) -> Iterator[FakeLLMServer]:
    """Run a :class:`FakeLLMServer` on ``127.0.0.1`` (a free port) for the duration of the ``with`` block.

    Point an SDK at it with ``base_url=server.url`` (Anthropic) or ``base_url=server.url + "/v1"`` (OpenAI).

    * No options: replies come from :meth:`FakeLLMServer.push`, else ``default_text``.
    * ``session=PATH`` replays a pi session file: each request is answered with the next assistant message
      on its active path (``leaf=`` names another entry: id, id prefix or label). ``match="strict"`` checks
      that each request carries the user messages and tool results recorded before that answer,
      ``"loose"`` answers in order regardless, ``"none"`` also starts over at the end (load tests).
    * ``record=PATH, upstream=URL`` forwards every request to the provider at ``URL`` and appends each
      exchange to the session file ``PATH`` (created if missing; an existing file gets a new branch from
      the root), secrets redacted. With ``session=`` the same path, the recording is replayed first and
      only requests past its end are forwarded and appended (``new_episodes``).

    Streamed text comes ``delta_words`` words per delta (more: fewer events for the SDK to parse).
    On exit, delayed replies are cut short and the server is shut down and closed, so a test never hangs.
    """
    player, recorder = _sources(session, leaf, match, record, upstream)
    httpd = _Server(("127.0.0.1", 0), _Handler)
    host, port = httpd.server_address[:2]
    fake = FakeLLMServer(f"http://{host}:{port}", default_text, delta_words)
    fake.player, fake.recorder = player, recorder
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
        for source in (player, recorder):
            if source is not None:
                source.close()


def _sources(session: Any, leaf: str | None, match: str, record: Any, upstream: str | None) -> tuple[Any, Any]:
    """The cassette player and the recorder the options ask for (imported only then: they need the store)."""
    from pi_compact.errors import UsageError

    if match not in MATCH_MODES:
        raise UsageError(f"match must be one of {', '.join(MATCH_MODES)}, not {match!r}")
    if (record is None) != (upstream is None):
        raise UsageError("record= and upstream= go together: where to write, and the provider to record")
    if session is not None and record is not None and os.path.abspath(session) != os.path.abspath(record):
        raise UsageError("session= and record= together replay then record new episodes: give them the same file")
    player = recorder = None
    if session is not None:
        from .cassette import Player

        player = Player.load(session, leaf=leaf, match=match, durable=record is not None)
    if record is not None:
        from .recorder import Recorder

        recorder = Recorder.start(record, str(upstream), after=player)
    return player, recorder
