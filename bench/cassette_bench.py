"""Cassette benchmark: how fast a recorded session answers, and how fast a recording is written.

``python -m bench.cassette_bench`` replays pi's two real sessions (``sessions_fixtures/pi``, 465 and 431
answers) over raw HTTP, strictly matched, each request carrying what pi would have sent since the previous
answer; then records 200 exchanges through a fake provider (each appended and fsynced). Printed: requests
per second and milliseconds per request, plain JSON and streamed, and the cost per request on generated
sessions of 500 to 4,000 answers without a compaction, which must not grow with the session (what a request
must carry is read from the entries since the previous answer, not from the whole context). The SDKs' own cost (building requests,
parsing events) comes on top and is not measured here.
"""

from __future__ import annotations

import http.client
import json
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pi_compact import Session
from pi_compact.convert import to_anthropic
from pi_compact.testing import FakeReply, fake_llm_server
from pi_compact.testing.cassette import Player
from sessions_fixtures import PI_SESSIONS


def _post(url: str, body: dict[str, Any]) -> bytes:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request("POST", "/v1/messages", body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError(data.decode())
        return data
    finally:
        conn.close()


def _tail(messages: list[dict]) -> list[dict]:
    answered = [i for i, m in enumerate(messages)
                if m.get("role") == "assistant" and m.get("stopReason") not in ("error", "aborted")]
    return messages[answered[-1]:] if answered else messages


def replay(path: Path, stream: bool) -> tuple[int, float]:
    session = Session.open(path)
    steps = Player(session, session.leaf_id, "strict").steps
    bodies = [{"model": "m", "max_tokens": 64, "stream": stream,
               "messages": to_anthropic(_tail(session.build_context(s.parent_id).messages))[1]} for s in steps]
    with fake_llm_server(session=path) as server:
        started = time.perf_counter()
        for body in bodies:
            _post(server.url, body)
        return len(bodies), time.perf_counter() - started


def _synthetic(path: Path, steps: int) -> Path:
    """A session of ``steps`` answers, each after a user message and a tool result of a few KB."""
    session = Session.create_at(path, cwd="/tmp/project", durable=False)
    for i in range(steps):
        session.append_message({"role": "user", "content": f"step {i}: " + "look at the parser " * 50, "timestamp": i})
        call = {"type": "toolCall", "id": f"call_{i}", "name": "read", "arguments": {"path": f"src/f{i}.py"}}
        session.append_message({"role": "assistant", "content": [call], "stopReason": "toolUse", "timestamp": i})
        session.append_message({"role": "toolResult", "toolCallId": f"call_{i}", "toolName": "read",
                                "content": [{"type": "text", "text": "def f(): pass\n" * 200}], "timestamp": i})
        session.append_message({"role": "assistant", "content": [{"type": "text", "text": f"Read f{i}."}],
                                "stopReason": "stop", "timestamp": i})
    session.close()
    return path


def record(n: int) -> float:
    with tempfile.TemporaryDirectory() as folder, fake_llm_server() as provider:
        provider.push(*(FakeReply(text=f"answer {i} " * 20) for i in range(n)))
        with fake_llm_server(record=Path(folder) / "c.jsonl", upstream=provider.url) as recorder:
            messages: list[dict] = []
            started = time.perf_counter()
            for i in range(n):
                messages.append({"role": "user", "content": f"question {i}"})
                answer = json.loads(_post(recorder.url, {"model": "m", "max_tokens": 64, "messages": messages}))
                messages.append({"role": "assistant", "content": answer["content"]})
            return time.perf_counter() - started


def main() -> None:
    print("Cassettes: replaying pi's sessions (strict matching) and recording through a fake provider")
    for path in PI_SESSIONS:
        for stream in (False, True):
            count, seconds = replay(path, stream)
            kind = "streamed" if stream else "JSON"
            print(f"  replay {path.name:<28} {kind:<8} {count} requests: {count / seconds:7.0f}/s, "
                  f"{1000 * seconds / count:5.2f} ms each")
    with tempfile.TemporaryDirectory() as folder:
        for steps in (250, 500, 1000, 2000):
            count, seconds = replay(_synthetic(Path(folder) / f"s{steps}.jsonl", steps), False)
            print(f"  replay a generated session of {2 * steps:>5} answers (no compaction): "
                  f"{1000 * seconds / count:5.2f} ms a request")
    seconds = record(200)
    print(f"  record 200 exchanges (appended, fsynced)  {200 / seconds:7.0f}/s, {1000 * seconds / 200:5.2f} ms each")


if __name__ == "__main__":
    main()
