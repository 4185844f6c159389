"""The importers' speed on typical and hostile transcripts, at n, 2n and 4n rows: the time should double.

Shapes: a typical Claude Code session (parallel tool calls split over several rows, a compaction every 2,000
rows), rows written children first (every row waits for its parent), a file made of two-row parent cycles,
a compaction with no recorded size on every other row, and a typical Codex rollout. ``python -m
bench.import_bench``; :func:`main` returns True when no shape grows more than :data:`MAX_GROWTH` times from 2n
to 4n rows.
"""

from __future__ import annotations

import time

import orjson

from pi_compact.importers.claude_code import CONTINUED, read_claude_code
from pi_compact.importers.codex import read_codex

SIZES = (5_000, 10_000, 20_000)
MAX_GROWTH = 3.0
"""Time at 4n over time at 2n above which a shape counts as superlinear (2 is linear)."""


def _user(uid: str, parent: str | None, content) -> dict:
    return {"type": "user", "uuid": uid, "parentUuid": parent, "sessionId": "s", "timestamp": "2026-01-01T00:00:00Z",
            "message": {"role": "user", "content": content}}


def _assistant(uid: str, parent: str | None, message_id: str, block: dict) -> dict:
    return {"type": "assistant", "uuid": uid, "parentUuid": parent, "timestamp": "2026-01-01T00:00:01Z",
            "message": {"id": message_id, "role": "assistant", "model": "m", "content": [block],
                        "usage": {"input_tokens": 10, "output_tokens": 5}}}


def typical(n: int) -> list[dict]:
    rows, parent = [], None
    for i in range(0, n, 4):
        call = {"type": "tool_use", "id": f"t{i}", "name": "Bash", "input": {"command": "ls " * 20}}
        result = {"type": "tool_result", "tool_use_id": f"t{i}", "content": "file\n" * 40}
        for uid, row in ((f"u{i}", _user(f"u{i}", parent, "do the next thing " * 10)),
                         (f"a{i}", _assistant(f"a{i}", f"u{i}", f"m{i}", {"type": "text", "text": "ok " * 30})),
                         (f"b{i}", _assistant(f"b{i}", f"a{i}", f"m{i}", call)),
                         (f"r{i}", _user(f"r{i}", f"b{i}", [result]))):
            rows.append(row)
            parent = uid
        if i % 2000 == 1996:
            rows.append({"type": "system", "subtype": "compact_boundary", "uuid": f"c{i}", "parentUuid": None,
                         "logicalParentUuid": parent, "compactMetadata": {"preTokens": 150000}})
            rows.append({**_user(f"s{i}", f"c{i}", CONTINUED + "summary"), "isCompactSummary": True})
            parent = f"s{i}"
    return rows


def children_first(n: int) -> list[dict]:
    return [_user(f"u{i}", f"u{i - 1}" if i else None, "x") for i in range(n)][::-1]


def cycles(n: int) -> list[dict]:
    return [_user(f"u{i}", f"u{i ^ 1}", "x") for i in range(n)]


def bare_compactions(n: int) -> list[dict]:
    rows = []
    for i in range(0, n, 2):
        rows.append(_user(f"c{i}", None, CONTINUED + " summary"))
        rows.append(_assistant(f"a{i}", f"c{i}", f"m{i}", {"type": "text", "text": "ok"}))
    return rows


def codex(n: int) -> list[dict]:
    rows = [{"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "r", "cwd": "/p"}}]
    for i in range(0, n, 4):
        call = {"type": "function_call", "name": "shell", "arguments": '{"command":["ls"]}', "call_id": f"c{i}"}
        for payload in ({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]},
                        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "thinking"}]}, call,
                        {"type": "function_call_output", "call_id": f"c{i}", "output": "file\n" * 40}):
            rows.append({"timestamp": "2026-01-01T00:00:01Z", "type": "response_item", "payload": payload})
    return rows


SHAPES = {"typical": (typical, read_claude_code), "children first": (children_first, read_claude_code),
          "parent cycles": (cycles, read_claude_code), "bare compactions": (bare_compactions, read_claude_code),
          "codex": (codex, read_codex)}


def _seconds(data: bytes, reader) -> float:
    started = time.perf_counter()
    reader(data)
    return time.perf_counter() - started


def main() -> bool:
    print(f"{'shape':<18}" + "".join(f"{n:>12,} rows" for n in SIZES) + "   4n/2n")
    worst = 0.0
    for name, (make, reader) in SHAPES.items():
        times = [_seconds(b"\n".join(map(orjson.dumps, make(n))), reader) for n in SIZES]
        growth = times[-1] / max(times[-2], 1e-9)
        worst = max(worst, growth)
        print(f"{name:<18}" + "".join(f"{t:>15.3f} s " for t in times) + f"  {growth:.1f}×")
    print(f"largest growth from 2n to 4n: {worst:.1f}× (linear: 2×, limit {MAX_GROWTH}×)")
    return worst <= MAX_GROWTH


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
