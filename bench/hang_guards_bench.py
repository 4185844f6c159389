"""How long the things the tests guard against hanging take: the figures the tests used to assert.

``python -m bench.hang_guards_bench`` prints, for each, the wall time and the bound the tests once held it
to (they now check behaviour and keep only a generous deadline against hangs):

* a compaction whose remote summarizer fails (a 0.5 s request timeout; real ``anthropic`` and ``openai``
  SDKs against the fake server) until it falls back to the offline summary, and one whose server answers a
  ``429`` with ``retry-after: 0.3`` (waited) or ``3600`` (cut to the 0.5 s timeout) before answering;
* ``bash`` past its 0.5 s timeout, killed;
* leaving ``fake_llm_server`` while a reply is delayed by 30 s.

:func:`main` returns True when every figure is within its bound.
"""

from __future__ import annotations

import http.client
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from pi_compact import Session
from pi_compact.compaction import CompactionSettings, compact
from pi_compact.compaction.prompts import REQUIRED_SECTIONS
from pi_compact.testing import FakeLLMServer, FakeReply, fake_llm_server

TIMEOUT = 0.5
KEY = "sk-bench-not-a-key"
SETTINGS = CompactionSettings(keep_recent_tokens=300, summary_min_tokens=100, summary_max_tokens=200)
"""A summary budget the condensed transcript does not fit, so compaction asks the LLM."""
GOOD = "\n\n".join(f"{heading}\n- fix the parser in src/m{n}.py, keeping its tests green"
                   for n, heading in enumerate(dict.fromkeys(h for hs in REQUIRED_SECTIONS.values() for h in hs)))
"""An answer with every heading a compaction or a split-turn prefix summary needs."""
SUMMARIZER_CASES = {
    # name: (replies, max_retries, whether the LLM's summary is used in the end, (at least, under) seconds as
    # the tests once asserted)
    "timeout (no retry)": ([FakeReply(text=GOOD, delay=5)], 0, False, (0.0, 10.0)),
    "timeout, retried once": ([FakeReply(delay=5), FakeReply(delay=5)], 1, False, (0.0, 10.0)),
    "500 three times, 2 retries": ([FakeReply(status=500, text="internal error")] * 3, 2, False, (0.0, 10.0)),
    "429 retry-after 0.3, then answered": ([FakeReply(status=429, headers={"retry-after": "0.3"}),
                                            FakeReply(text=GOOD)], 1, True, (0.3, 10.0)),
    "429 retry-after 3600, then answered": ([FakeReply(status=429, headers={"retry-after": "3600"}),
                                             FakeReply(text=GOOD)], 1, True, (TIMEOUT, 10.0)),
}


def _conversation(path: Path, turns: int = 12, size: int = 400) -> Path:
    """The reliability tests' conversation: request, tool call, tool output and answer, ``turns`` times."""
    with Session.create_at(path, cwd=str(path.parent)) as session:
        for n in range(turns):
            session.append_message({"role": "user", "content": f"Step {n}: fix m{n}.py. " + "q" * size,
                                    "timestamp": n})
            call = {"type": "toolCall", "id": f"call_{n}", "name": "bash", "arguments": {"command": f"cat m{n}.py"}}
            session.append_message({"role": "assistant", "content": [{"type": "text", "text": "Reading."}, call],
                                    "stopReason": "toolUse", "timestamp": n})
            session.append_message({"role": "toolResult", "toolCallId": f"call_{n}", "toolName": "bash",
                                    "content": [{"type": "text", "text": "o" * size}], "isError": False,
                                    "timestamp": n})
            session.append_message({"role": "assistant", "content": [{"type": "text", "text": "Fixed. " + "a" * 200}],
                                    "stopReason": "stop", "timestamp": n})
    return path


def _summarizer(provider: str, server: FakeLLMServer, retries: int):
    if provider == "anthropic":
        from pi_compact.llm.anthropic import AnthropicSummarizer

        return AnthropicSummarizer(api_key=KEY, base_url=server.url, timeout=TIMEOUT, max_retries=retries)
    from pi_compact.llm.openai import OpenAISummarizer

    return OpenAISummarizer(api_key=KEY, base_url=server.url + "/v1", timeout=TIMEOUT, max_retries=retries)


def _seconds(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def _compaction_seconds(provider: str, replies: list[FakeReply], retries: int) -> tuple[float, str]:
    """How long the compaction took, and its strategy (``summarize``: the LLM answered in the end)."""
    with fake_llm_server(default_text=GOOD) as server, tempfile.TemporaryDirectory() as scratch:
        server.push(*replies)
        with Session.open(_conversation(Path(scratch) / "s.jsonl")) as session:
            summarizer = _summarizer(provider, server, retries)
            started = time.perf_counter()
            result = compact(session, settings=SETTINGS, summarizer=summarizer)
            return time.perf_counter() - started, result.strategy


def _bash_timeout_seconds() -> float:
    from pi_compact.agent.shell import run_bash

    with tempfile.TemporaryDirectory() as scratch:
        return _seconds(lambda: run_bash("echo begun; sleep 30", scratch, timeout=TIMEOUT))


def _server_exit_seconds() -> float:
    started = time.perf_counter()
    with fake_llm_server() as server:
        server.push(FakeReply(delay=30))
        parts = urlsplit(server.url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=0.2)
        try:
            conn.request("POST", "/v1/messages", body=b"{}")
            conn.getresponse()
        except TimeoutError:
            pass
        finally:
            conn.close()
    return time.perf_counter() - started


def _row(name: str, seconds: float, bounds: tuple[float, float]) -> bool:
    low, high = bounds
    ok = low <= seconds < high
    shown = f"{low:g} s ≤ … < {high:g} s" if low else f"< {high:g} s"
    print(f"  {name:<46} {seconds:>7.2f} s   (bound {shown}){'' if ok else '  OUT OF BOUND'}")
    return ok


def main() -> bool:
    ok = True
    print("What the tests guard against hanging, timed (they check behaviour and keep a generous deadline):")
    for provider in ("anthropic", "openai"):
        print(f"compaction, the {provider} summarizer failing or refused at first (request timeout {TIMEOUT:g} s):")
        for name, (replies, retries, answered, bounds) in SUMMARIZER_CASES.items():
            seconds, strategy = _compaction_seconds(provider, replies, retries)
            ok &= _row(name, seconds, bounds) and (strategy == "summarize") == answered
            if (strategy == "summarize") != answered:
                print(f"    unexpected strategy {strategy!r}: the figure above is not the case named")
    print("the agent's tools and the fake server:")
    ok &= _row(f"bash past its {TIMEOUT:g} s timeout, killed", _bash_timeout_seconds(), (0.0, 10.0))
    ok &= _row("leaving the fake server, a reply delayed 30 s", _server_exit_seconds(), (0.0, 2.0))
    return ok


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
