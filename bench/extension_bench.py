"""The pi extension's cost: whole ``pi-compact extension serve`` processes, as the extension starts them.

A ``version`` request (the start-up alone), then ``compact`` (offline summary, pi's preparation computed here)
and ``recall`` requests on sessions of n, 2n and 4n turns of about 1,500 tokens each: what a pi user waits for
at a compaction on top of the summarizer, and per ``recall`` tool call. The figures should grow about linearly
with the session. ``python -m bench.extension_bench``; :func:`main` returns True when the largest compaction
takes under :data:`TARGET_S`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pi_compact import Session
from pi_compact.compaction import CompactionSettings, prepare_compaction

TURNS = (50, 100, 200)
TARGET_S = 15.0
"""Seconds the compaction request of the largest session may take, start-up included."""


def session(path: Path, turns: int) -> Session:
    made = Session.create_at(path, "/srv/app")
    for n in range(turns):
        made.append_message({"role": "user", "content": f"Step {n}: fix the parser. " + "context words " * 300,
                             "timestamp": n})
        made.append_message({"role": "assistant", "stopReason": "toolUse", "timestamp": n, "content": [
            {"type": "toolCall", "id": f"c{n}", "name": "bash", "arguments": {"command": f"pytest -k case{n}"}}]})
        made.append_message({"role": "toolResult", "toolCallId": f"c{n}", "toolName": "bash", "isError": n % 7 == 0,
                             "content": [{"type": "text", "text": f"FAILED test_case{n} - AssertionError\n" * 40}],
                             "timestamp": n})
    return made


def compact_request(made: Session) -> dict:
    path = made.branch()
    prep = prepare_compaction(path, CompactionSettings())
    assert prep is not None
    return {"protocol": 1, "type": "compact", "cwd": made.cwd, "branchEntries": path, "preparation": {
        "firstKeptEntryId": prep.first_kept_entry_id, "messagesToSummarize": list(prep.messages_to_summarize),
        "turnPrefixMessages": list(prep.turn_prefix_messages), "isSplitTurn": prep.is_split_turn,
        "tokensBefore": prep.tokens_before, "previousSummary": prep.previous_summary,
        "fileOps": {"read": [], "written": [], "edited": []},
        "settings": {"reserveTokens": 16_384, "keepRecentTokens": 20_000}}, "contextWindow": 200_000}


def timed(request: dict, env: dict) -> float:
    data = json.dumps(request).encode()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pi_compact", "extension", "serve"], input=data,
                          capture_output=True, env=env)
    elapsed = time.perf_counter() - started
    if not json.loads(done.stdout)["ok"]:
        raise RuntimeError(done.stdout.decode())
    return elapsed


def main() -> bool:
    worst = 0.0
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "PI_CODING_AGENT_DIR": str(Path(scratch) / "agent")}
        start_up = min(timed({"protocol": 1, "type": "version"}, env) for _ in range(3))
        print("pi-compact extension serve, whole process (what the pi extension waits for):")
        print(f"{'turns':>6} {'request':>9} {'compact (offline)':>18} {'recall':>8}")
        for turns in TURNS:
            path = Path(scratch) / f"s{turns}.jsonl"
            made = session(path, turns)
            request = compact_request(made)
            compacting = timed(request, env)
            made.append_compaction("## Goal\nFix the parser.", request["preparation"]["firstKeptEntryId"],
                                   request["preparation"]["tokensBefore"])
            made.close()
            recalling = timed({"protocol": 1, "type": "recall", "sessionFile": str(path), "query": "test_case3 "},
                              env)
            size_mb = len(json.dumps(request)) / 1e6
            print(f"{turns:>6} {size_mb:>6.1f} MB {compacting:>16.2f} s {recalling:>6.2f} s")
            worst = max(worst, compacting)
    print(f"(start-up alone, a version request: {start_up:.2f} s; target for {TURNS[-1]} turns: under {TARGET_S:.0f} s)")
    return worst < TARGET_S


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
