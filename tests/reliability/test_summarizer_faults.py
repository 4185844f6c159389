"""A remote summarizer that fails, through the real ``anthropic`` and ``openai`` SDKs against the fake server:
timeouts, connection resets, 429s with ``retry-after``, 500s, malformed JSON, empty and blank answers.

Every case must end in the documented fallback: the offline summary, with ``details.fallbackReason`` saying
what failed, after exactly the attempts the retry setting allows (a hang fails the test at a generous
deadline rather than stalling the run; how long each case takes is printed by ``python -m
bench.summarizer_faults_bench``); and until that one complete compaction entry is appended, the session file
keeps its exact bytes (watched from another thread while the request hangs).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from pi_compact import Session
from pi_compact.compaction import CompactionSettings, compact
from pi_compact.testing import FakeLLMServer, FakeReply, fake_llm_server

from .sessions import new_conversation

KEY = "sk-ant-api03-reliability-0123456789abcdef"
HANG_SECONDS = 60
"""A compaction still running after this long has hung (each case ends within a few seconds)."""
TIMEOUT = 0.5
SETTINGS = CompactionSettings(keep_recent_tokens=300, summary_min_tokens=100, summary_max_tokens=200)
"""A summary budget the condensed transcript does not fit, so compaction asks the LLM."""
GOOD = ("## Goal\nFix the parser.\n\n## Constraints & Preferences\n(none)\n\n## Progress\n### Done\n- [x] read\n\n"
        "### In Progress\n- [ ] fix\n\n### Blocked\n(none)\n\n## Key Decisions\n(none)\n\n## Next Steps\n1. test\n\n"
        "## Critical Context\n(none)\n\n## Original Request\nFix the parser.\n\n## Early Progress\n(none)\n\n"
        "## Context for Suffix\n(none)")
"""Every heading a compaction or a split-turn prefix summary needs."""

CASES = {
    # name: (replies, max_retries, what fallbackReason must say)
    "timeout": ([FakeReply(text=GOOD, delay=5)], 0, "timed out"),
    "timeout-after-retry": ([FakeReply(delay=5), FakeReply(delay=5)], 1, "timed out"),
    "connection-reset": ([FakeReply(drop_connection=True)] * 2, 1, "cannot reach"),
    "429-retry-after": ([FakeReply(status=429, headers={"retry-after": "1"})] * 2, 1, "429"),
    "429-retry-after-an-hour": ([FakeReply(status=429, headers={"retry-after": "3600"})] * 2, 1, "429"),
    "500": ([FakeReply(status=500, text="internal error")] * 3, 2, "500"),
    "malformed-json": ([FakeReply(body='{"id": "msg_1", "content": [')], 0, "malformed"),
    "not-a-message": ([FakeReply(body='{"unexpected": true}')], 0, ""),
    "empty-summary": ([FakeReply(text="")], 0, "empty summary"),
    "whitespace-summary": ([FakeReply(text="  \n\t \n ")], 0, "empty summary"),
    "too-short-summary": ([FakeReply(text="ok")], 0, "short summary"),
}
@pytest.fixture(autouse=True)
def _no_real_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY",
                "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    with fake_llm_server(default_text=GOOD) as fake:
        yield fake


def summarizer(provider: str, server: FakeLLMServer, max_retries: int):
    if provider == "anthropic":
        from pi_compact.llm.anthropic import AnthropicSummarizer

        return AnthropicSummarizer(api_key=KEY, base_url=server.url, timeout=TIMEOUT, max_retries=max_retries)
    from pi_compact.llm.openai import OpenAISummarizer

    return OpenAISummarizer(api_key=KEY, base_url=server.url + "/v1", timeout=TIMEOUT, max_retries=max_retries)


class FileWatch:
    """Reads the file every few milliseconds from another thread while compaction runs, keeping each state seen.

    A reader can catch the one appended line half-written (a write is not atomic for readers), so a state is
    fine when it is the original bytes plus the start of what is finally appended.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.original = path.read_bytes()
        self.seen: set[bytes] = set()
        self.looks = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> "FileWatch":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _watch(self) -> None:
        while not self._stop.is_set():
            self.seen.add(self.path.read_bytes())
            self.looks += 1
            time.sleep(0.005)

    def states_outside(self, final: bytes) -> list[bytes]:
        """States that were not a step from the original towards ``final``."""
        return [data for data in self.seen if not (data.startswith(self.original) and final.startswith(data))]


def _is_original_plus_one_line(original: bytes, data: bytes) -> bool:
    added = data[len(original):]
    return data.startswith(original) and added.endswith(b"\n") and added.count(b"\n") == 1


def _compact_with(provider: str, server: FakeLLMServer, path: Path, replies: list[FakeReply], retries: int,
                  deadline):
    """The compaction's result, the requests the server received for it, and the file's bytes before."""
    server.push(*replies)
    asked_before = len(server.requests)
    with Session.open(path) as session, FileWatch(path) as watch, deadline(HANG_SECONDS, "a failing summarizer"):
        result = compact(session, settings=SETTINGS, summarizer=summarizer(provider, server, retries))
    while server.pending:  # a reply the SDK never came back for (it gave up first) must not leak into the next case
        server._next_reply()
    assert watch.looks > 0 and not watch.states_outside(path.read_bytes()), "earlier bytes changed"
    return result, server.requests[asked_before:], watch.original


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_failing_summarizer_falls_back_to_the_offline_summary(
    provider: str, case: str, server: FakeLLMServer, tmp_path: Path, deadline
) -> None:
    replies, retries, reason = CASES[case]
    path = new_conversation(tmp_path / "s.jsonl", turns=12)
    result, asked, original = _compact_with(provider, server, path, replies, retries, deadline)
    assert len(asked) == 1 + retries and all(request.body == asked[0].body for request in asked), case
    assert result.fallback_reason and result.fallback_reason.startswith(f"{provider}: ")
    assert reason in result.fallback_reason, result.fallback_reason
    assert KEY not in result.fallback_reason
    data = path.read_bytes()
    assert _is_original_plus_one_line(original, data)
    written = orjson.loads(data[len(original):])
    assert written == result.entry and written["type"] == "compaction"
    assert written["details"]["fallbackReason"] == result.fallback_reason
    assert written["details"]["summarizer"] == "offline" and result.strategy in ("offline", "truncate")
    assert KEY.encode() not in data
    with Session.open(path) as reopened:
        assert reopened.problems == [] and reopened.leaf_id == written["id"]


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_the_llm_summary_is_used_when_the_server_recovers(
    provider: str, server: FakeLLMServer, tmp_path: Path, deadline
) -> None:
    """The control case: a 429 with ``retry-after: 0.3`` is retried by the SDK, then answered."""
    path = new_conversation(tmp_path / "s.jsonl", turns=12)
    replies = [FakeReply(status=429, headers={"retry-after": "0.3"}), FakeReply(text=GOOD)]
    result, asked, _ = _compact_with(provider, server, path, replies, 1, deadline)
    assert result.fallback_reason is None and result.strategy == "summarize"
    assert "Fix the parser." in result.summary
    assert len(asked) >= 2 and asked[1].body == asked[0].body  # the refused request, sent again and answered


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_long_retry_after_is_cut_to_the_request_timeout(
    provider: str, server: FakeLLMServer, tmp_path: Path, deadline
) -> None:
    """``anthropic`` would sleep an hour here, ``openai`` two minutes: the wait is cut to the timeout (0.5 s),
    so the retry is answered long before the hang deadline."""
    path = new_conversation(tmp_path / "s.jsonl", turns=12)
    replies = [FakeReply(status=429, headers={"retry-after": "3600"}), FakeReply(text=GOOD)]
    result, asked, _ = _compact_with(provider, server, path, replies, 1, deadline)
    assert result.fallback_reason is None and result.strategy == "summarize"
    assert len(asked) >= 2 and asked[1].body == asked[0].body


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
@pytest.mark.parametrize(("header", "sent", "seen"), [("retry-after", "3600", "0.5"), ("retry-after-ms", "3600000", "500"),
                                                     ("retry-after", "0.3", "0.3"), ("retry-after", "soon", "0.5")])
def test_the_sdk_sees_a_retry_after_no_longer_than_the_timeout(provider: str, server: FakeLLMServer, header: str,
                                                                 sent: str, seen: str) -> None:
    """What the SDK's retry logic reads: the response header after the summarizer's HTTP client had it."""
    from pi_compact.llm import http_client, import_sdk

    server.push(FakeReply(status=429, headers={header: sent}))
    with http_client(import_sdk(provider), TIMEOUT) as client:
        response = client.post(server.url + "/v1/messages", json={"model": "m"})
    assert (response.status_code, response.headers[header]) == (429, seen)
