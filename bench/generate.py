"""Realistic pi v3 session files for the benchmark, generated deterministically from a seed.

A long coding-agent session is mostly turns: a user prompt, then assistant messages (thinking, text, tool
calls, usage), each followed by the results of the tools it called (a few KB, now and then 50 KB), and a
closing answer. Between turns come model and thinking-level changes, labels, extension entries, the user's
own shell commands, now and then a fork (the leaf moves back to an earlier prompt, sometimes with a branch
summary) and a compaction whenever the context (estimated as pi does, characters / 4) passes the model's
window minus pi's reserve, keeping the newest turns worth about pi's ``keepRecentTokens``: so what follows
the latest compaction is what a real session of that model would hold, and the usage each assistant
message reports is that context's size. Files are written straight from orjson, one line
per entry in pi's key order, without going through the store (no locks, no fsync): the 100k file is
~290 MB and takes seconds. ``python -m bench.generate --sizes 1k,10k`` writes them into ``bench/data/``.
"""

from __future__ import annotations

import argparse
import base64
import functools
import json
import os
import random
import sys
import time
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import orjson

GENERATOR_VERSION = 5
"""Bump when the output changes: files written by another version are regenerated."""

SEED = 20250601
SIZES = {"1k": 1_000, "10k": 10_000, "100k": 100_000}
DATA_DIR = Path(__file__).resolve().parent / "data"
START_MS = 1_748_736_000_000  # 2025-06-01T00:00:00.000Z
CWD = "/home/dev/projects/pi-compact"

MODELS = (
    ("anthropic", "claude-sonnet-4-5", "anthropic-messages", (3.0, 15.0, 0.3, 3.75), 200_000),
    ("openai", "gpt-5.1-codex", "openai-responses", (1.25, 10.0, 0.125, 0.0), 400_000),
    ("anthropic", "claude-opus-4-1", "anthropic-messages", (15.0, 75.0, 1.5, 18.75), 200_000),
    ("google", "gemini-2.5-pro", "google-generative-ai", (1.25, 10.0, 0.31, 0.0), 1_048_576),
)
"""(provider, model, api, $ per million tokens: input, output, cache read, cache write, context window)."""
RESERVE_TOKENS = 16_384
KEEP_RECENT_TOKENS = 20_000
"""pi's default compaction settings: compact above ``window - reserve``, keep about this much of the newest."""
CONTEXT_TYPES = ("message", "custom_message", "branch_summary", "compaction")

THINKING_LEVELS = ("off", "minimal", "low", "medium", "high")
TOOLS = (("read", 35), ("bash", 28), ("edit", 15), ("grep", 10), ("write", 6), ("ls", 6))
LABELS = ("checkpoint", "before-refactor", "good", "bug-repro", "todo", "v1-working", "perf")
FILES = (
    "src/core/session-manager.ts", "src/core/agent-session.ts", "src/core/compaction/compaction.ts",
    "src/core/messages.ts", "src/modes/interactive/interactive-mode.ts", "src/tools/bash.ts",
    "src/tools/edit.ts", "src/utils/shell.ts", "test/session-manager.test.ts", "docs/session.md",
    "pi_compact/store/scan.py", "pi_compact/context.py", "README.md", "package.json",
)
COMMANDS = (
    "npm run check", "npm test -- --run session", "git status", "git diff --stat", "ls -la src/core",
    "rg -n 'buildSessionContext' src", "python -m pytest -x -q", "cat package.json | head -40",
    "git log --oneline -20", "node --version && npm --version", "wc -l src/core/*.ts",
)

_WORDS = (
    "const let return function import export from async await if else for while the a to of and in is it "
    "that this with session entry parent leaf message compaction summary token model provider path file read "
    "write edit bash grep error result value index offset line buffer string number true false null undefined "
    "new class interface type extends implements public private static tree branch node child root label name "
    "context window usage cost input output cache thinking agent tool call args json parse stringify push pop "
    "map filter reduce length size id timestamp should could because when then after before we need fix test"
).split()
_PUNCT = ("", "", "", "", ";", ",", ".", "(", ")", " {", "}", " =", " =>", ":", "[]", '"', "'", "\\n", "`", "\t")
_NON_ASCII = ("naïve", "café", "—", "→", "✓", "日本語", "😀", "Ü", "½")
_EMPTY_COST = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}


@functools.cache
def _corpus(seed: int) -> str:
    """~2 MB of code-and-prose-like text; every text in a session is a slice of it.

    Shaped after pi's own sessions, because parsing speed depends on it: about 5% of the JSON's bytes are
    backslashes (newlines and quotes escaped), and one tool output in ten holds a non-ASCII character.
    """
    rng = random.Random(seed)
    quoted = [f'"{word}"' for word in _WORDS]
    lines = []
    for _ in range(40_000):
        words = rng.choices(_WORDS + quoted[:12], k=rng.randint(1, 14))
        if rng.random() < 0.003:
            words.append(rng.choice(_NON_ASCII))
        lines.append(" " * rng.choice((0, 0, 2, 4, 8)) + " ".join(words) + rng.choice(_PUNCT))
    return "\n".join(lines)


def iso(ms: int) -> str:
    """``new Date(ms).toISOString()``."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"


def _money(value: float) -> float | int:
    """Dollars, written as JSON.stringify would: orjson differs on whole floats (``0.0``) and in [1e-6, 1e-4)."""
    value = round(value, 6)
    if value < 1e-4:
        value = round(value, 4)
    return int(value) if value.is_integer() else value


class _Generator:
    """One session's entries, produced lazily; ``path`` is the current branch, root first."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.corpus = _corpus(seed)
        self.ids: set[str] = set()
        self.clock = START_MS
        self.path: list[str] = []
        self.tokens: list[int] = []
        """Per position in ``path``: estimated context tokens of the path up to there (a compaction adds its summary)."""
        self.kept_at = 0
        """Position in ``path`` of the latest compaction's first kept entry (0: no compaction yet)."""
        self.turns: list[int] = []
        """Positions in ``path`` of the user prompts after the latest compaction (kept ones included)."""
        self.compaction_at = -1
        self.model = MODELS[0]
        self.thinking = "medium"
        self.count = 0

    # -- primitives ----------------------------------------------------------------------------------------

    def text(self, low: int, high: int) -> str:
        size = self.rng.randint(low, high)
        start = self.rng.randrange(len(self.corpus) - size)
        return self.corpus[start : start + size]

    def tick(self, low_ms: int, high_ms: int) -> int:
        self.clock += self.rng.randint(low_ms, high_ms)
        return self.clock

    def new_id(self) -> str:
        while True:
            candidate = f"{self.rng.getrandbits(32):08x}"
            if candidate not in self.ids:
                self.ids.add(candidate)
                return candidate

    def token(self, prefix: str, size: int = 24) -> str:
        return prefix + base64.b32encode(self.rng.randbytes(size * 5 // 8)).decode().lower()[:size]

    def entry(self, kind: str, fields: dict, *, late: bool = False) -> dict:
        """An entry hanging off the leaf, in pi's key order; it becomes the leaf."""
        base = {"id": self.new_id(), "parentId": self.path[-1] if self.path else None, "timestamp": iso(self.clock)}
        entry = {"type": kind, **fields, **base} if late else {"type": kind, **base, **fields}
        added = len(orjson.dumps(fields)) // 4 if kind in CONTEXT_TYPES else 0
        self.tokens.append((self.tokens[-1] if self.tokens else 0) + added)
        self.path.append(base["id"])
        self.count += 1
        return entry

    def message(self, message: dict) -> dict:
        return self.entry("message", {"message": message})

    # -- the session ---------------------------------------------------------------------------------------

    def entries(self) -> Iterator[dict]:
        rng = self.rng
        yield self.model_change(self.model)
        yield self.entry("thinking_level_change", {"thinkingLevel": self.thinking})
        next_branch = rng.randint(300, 700)
        named = False
        while True:
            if self.count >= next_branch and len(self.recent_turns()) >= 2:
                yield from self.fork()
                next_branch = self.count + rng.randint(1_500, 2_500)
            yield from self.extras()
            # As pi before a prompt: the check follows a model change, whose window may be smaller.
            if self.context_tokens() > self.model[4] - RESERVE_TOKENS and len(self.unkept_turns()) >= 2:
                yield self.compaction()
            yield from self.turn()
            if not named:
                yield self.entry("session_info", {"name": "Refactor the session store"})
                named = True

    def unkept_turns(self) -> list[int]:
        """Positions of the user prompts after the latest compaction."""
        return [t for t in self.turns if t > self.compaction_at]

    def recent_turns(self) -> list[int]:
        return self.unkept_turns()[-5:]

    def context_tokens(self) -> int:
        """The estimated size of the context at the leaf: the kept region, the summary, what followed."""
        return self.tokens[-1] - (self.tokens[self.kept_at - 1] if self.kept_at else 0)

    def turn(self) -> Iterator[dict]:
        self.tick(5_000, 120_000)
        yield self.message({"role": "user", "content": self.user_content(), "timestamp": self.clock})
        self.turns.append(len(self.path) - 1)
        for _ in range(self.rng.randint(1, 9)):
            calls = [self.tool_call() for _ in range(self.rng.choices((1, 2, 3), (70, 22, 8))[0])]
            failed = self.rng.random() < 0.01
            yield self.assistant(calls, "error" if failed else "toolUse")
            if failed:
                return
            for call in calls:
                yield self.tool_result(call)
        yield self.assistant([], "stop")

    def user_content(self) -> str | list[dict]:
        text = self.text(40, 900)
        return text if self.rng.random() < 0.7 else [{"type": "text", "text": text}]

    def assistant(self, calls: list[dict], stop: str) -> dict:
        rng = self.rng
        self.tick(1_500, 45_000)
        content: list[dict] = []
        if self.thinking != "off" and rng.random() < 0.8:
            signature = base64.b64encode(rng.randbytes(rng.randint(200, 600))).decode()
            content.append({"type": "thinking", "thinking": self.text(80, 1_500), "thinkingSignature": signature})
        if not calls or rng.random() < 0.6:
            content.append({"type": "text", "text": self.text(40, 600 if calls else 1_800)})
        content.extend(calls)
        provider, model, api, _, _ = self.model
        message = {"role": "assistant", "content": content, "api": api, "provider": provider, "model": model}
        if provider == "openai":
            message["responseId"] = self.token("resp_", 32)
        message["usage"] = self.usage(sum(len(str(block)) for block in content) // 4)
        message["stopReason"] = stop
        if stop == "error":
            message["errorMessage"] = "529 overloaded_error: Overloaded"
        message["timestamp"] = self.clock
        return self.message(message)

    def usage(self, output: int) -> dict:
        rng = self.rng
        fresh, write = rng.randint(1, 60), rng.randint(0, 3_000)
        read = max(self.context_tokens() - write - fresh, 0)
        price = self.model[3]
        cost = {
            "input": _money(fresh * price[0] / 1e6),
            "output": _money(output * price[1] / 1e6),
            "cacheRead": _money(read * price[2] / 1e6),
            "cacheWrite": _money(write * price[3] / 1e6),
        }
        cost["total"] = _money(sum(cost.values()))
        total = fresh + output + read + write
        return {"input": fresh, "output": output, "cacheRead": read, "cacheWrite": write, "totalTokens": total, "cost": cost}

    def tool_call(self) -> dict:
        rng = self.rng
        name = rng.choices([t for t, _ in TOOLS], [w for _, w in TOOLS])[0]
        path = rng.choice(FILES)
        if name == "read":
            arguments: dict = {"path": path}
            if rng.random() < 0.3:
                arguments.update(offset=rng.randint(1, 800), limit=rng.choice((100, 200, 400)))
        elif name == "bash":
            arguments = {"command": rng.choice(COMMANDS)}
        elif name == "edit":
            arguments = {"path": path, "oldText": self.text(30, 600), "newText": self.text(30, 900)}
        elif name == "write":
            arguments = {"path": path, "content": self.text(300, 4_000)}
        elif name == "grep":
            arguments = {"pattern": rng.choice(_WORDS), "path": "src"}
        else:
            arguments = {"path": path.rsplit("/", 1)[0]}
        return {"type": "toolCall", "id": self.token("toolu_01", 22), "name": name, "arguments": arguments}

    def tool_output_size(self) -> tuple[int, int]:
        if self.rng.random() < 0.04:
            return 45_000, 55_000
        size = min(int(self.rng.lognormvariate(7.74, 0.75)), 14_000)
        return max(size // 2, 60), max(size, 120)

    def tool_result(self, call: dict) -> dict:
        rng = self.rng
        self.tick(15, 4_000)
        name, arguments = call["name"], call["arguments"]
        details = None
        is_error = False
        if name == "edit":
            old, new = len(arguments["oldText"]), len(arguments["newText"])
            text = f"Successfully replaced text in {arguments['path']}. Changed {old} characters to {new} characters."
            details = {"diff": self.text(200, 2_500)}
        elif name == "write":
            text = f"Successfully wrote {len(arguments['content'])} bytes to {arguments['path']}"
        else:
            text = self.text(*self.tool_output_size())
            if name == "bash" and rng.random() < 0.05:
                is_error = True
                text += "\n\nCommand exited with code 1"
        message = {"role": "toolResult", "toolCallId": call["id"], "toolName": name, "content": [{"type": "text", "text": text}]}
        if details is not None:
            message["details"] = details
        message.update(isError=is_error, timestamp=self.clock)
        return self.message(message)

    # -- what happens between turns ------------------------------------------------------------------------

    def extras(self) -> Iterator[dict]:
        rng = self.rng
        if rng.random() < 0.01:
            yield self.model_change(rng.choice([m for m in MODELS if m is not self.model]))
        if rng.random() < 0.005:
            self.thinking = rng.choice([t for t in THINKING_LEVELS if t != self.thinking])
            yield self.entry("thinking_level_change", {"thinkingLevel": self.thinking})
        if rng.random() < 0.04 and self.turns:
            yield self.label()
        if rng.random() < 0.02:
            data = {"mode": rng.choice(("plan", "execute")), "todos": [self.text(10, 60) for _ in range(rng.randint(0, 5))]}
            yield self.entry("custom", {"customType": "plan-mode", "data": data}, late=True)
        if rng.random() < 0.015:
            fields = {"customType": "file-watcher", "content": self.text(80, 800), "display": rng.random() < 0.5}
            if rng.random() < 0.5:
                fields["details"] = {"changed": [rng.choice(FILES)]}
            yield self.entry("custom_message", fields, late=True)
        if rng.random() < 0.02:
            yield self.bash_execution()

    def model_change(self, model: tuple) -> dict:
        self.model = model
        self.tick(500, 20_000)
        return self.entry("model_change", {"provider": model[0], "modelId": model[1]})

    def label(self) -> dict:
        self.tick(500, 20_000)
        fields = {"targetId": self.path[self.turns[-1]]}
        if self.rng.random() < 0.85:
            fields["label"] = self.rng.choice(LABELS)
        return self.entry("label", fields)

    def bash_execution(self) -> dict:
        self.tick(2_000, 60_000)
        message = {
            "role": "bashExecution",
            "command": self.rng.choice(COMMANDS),
            "output": self.text(0, 3_000),
            "exitCode": self.rng.choice((0, 0, 0, 1)),
            "cancelled": False,
            "truncated": False,
            "timestamp": self.clock,
        }
        if self.rng.random() < 0.2:
            message["excludeFromContext"] = True
        return self.message(message)

    def fork(self) -> Iterator[dict]:
        """The user goes back before one of the last prompts and asks again (pi's /fork, /tree)."""
        at = self.rng.choice(self.recent_turns())
        del self.path[at:]
        del self.tokens[at:]
        self.turns = [t for t in self.turns if t < at]
        if self.rng.random() < 0.5:
            self.tick(5_000, 60_000)
            attach = self.path[-1]
            fields = {"fromId": attach, "summary": "## Abandoned approach\n" + self.text(300, 2_000)}
            fields.update(details={"readFiles": self.some_files(), "modifiedFiles": self.some_files()}, fromHook=False)
            yield self.entry("branch_summary", fields)

    def compaction(self) -> dict:
        """Summarise all but the newest turns holding about ``KEEP_RECENT_TOKENS`` (at least the last turn)."""
        candidates = self.unkept_turns()[1:]
        kept = [t for t in candidates if self.tokens[-1] - self.tokens[t - 1] >= KEEP_RECENT_TOKENS]
        keep_from = kept[-1] if kept else candidates[0]
        tokens_before = self.context_tokens()
        self.tick(20_000, 90_000)
        fields = {
            "summary": "## Goal\n" + self.text(300, 900) + "\n\n## Progress\n" + self.text(1_500, 5_000),
            "firstKeptEntryId": self.path[keep_from],
            "tokensBefore": tokens_before,
            "details": {"readFiles": self.some_files(), "modifiedFiles": self.some_files()},
            "fromHook": False,
        }
        entry = self.entry("compaction", fields)
        self.turns = [t for t in self.turns if t >= keep_from]
        self.compaction_at = len(self.path) - 1
        self.kept_at = keep_from
        return entry

    def some_files(self) -> list[str]:
        return sorted(self.rng.sample(FILES, self.rng.randint(0, 5)))


# -- files -------------------------------------------------------------------------------------------------


def header(seed: int = SEED) -> dict:
    rng = random.Random(seed ^ 0xC0FFEE)
    value = (START_MS << 80) | (0x7 << 76) | (rng.getrandbits(12) << 64) | (0b10 << 62) | rng.getrandbits(62)
    hexed = f"{value:032x}"
    session_id = f"{hexed[:8]}-{hexed[8:12]}-{hexed[12:16]}-{hexed[16:20]}-{hexed[20:]}"
    return {"type": "session", "version": 3, "id": session_id, "timestamp": iso(START_MS), "cwd": CWD}


def generate(entries: int, seed: int = SEED) -> Iterator[dict]:
    """The header, then ``entries`` entries."""
    yield header(seed)
    yield from islice(_Generator(seed).entries(), entries)


def write_session(path: str | os.PathLike, entries: int, seed: int = SEED) -> int:
    """Write a session of ``entries`` entries (plus the header) to ``path``; return its size in bytes."""
    path = Path(path)
    temp = path.with_name(path.name + ".partial")
    with open(temp, "wb", buffering=1 << 22) as handle:
        for line in generate(entries, seed):
            handle.write(orjson.dumps(line, option=orjson.OPT_APPEND_NEWLINE))
    os.replace(temp, path)
    return path.stat().st_size


def append_messages(count: int, seed: int = SEED + 1) -> list[dict]:
    """``count`` messages of a session's usual mix (user, assistant, tool results), for append timings."""
    messages = (entry["message"] for entry in _Generator(seed).entries() if entry["type"] == "message")
    return list(islice(messages, count))


def session_path(name: str, data_dir: Path = DATA_DIR) -> Path:
    return data_dir / f"session-{name}.jsonl"


def ensure(name: str, data_dir: Path = DATA_DIR, *, force: bool = False) -> Path:
    """The generated file for a size name (``1k``…), written unless an up-to-date one is there."""
    path = session_path(name, data_dir)
    meta_path = path.with_suffix(".meta.json")
    wanted = {"generator": GENERATOR_VERSION, "seed": SEED, "entries": SIZES[name]}
    if not force and path.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        if {k: meta.get(k) for k in wanted} == wanted and meta.get("bytes") == path.stat().st_size:
            return path
    data_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    size = write_session(path, SIZES[name])
    meta_path.write_text(json.dumps({**wanted, "bytes": size}) + "\n")
    print(f"generated {path.name}: {size / 1e6:.0f} MB in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(SIZES), help="comma-separated: " + ", ".join(SIZES))
    parser.add_argument("--force", action="store_true", help="regenerate even when up to date")
    args = parser.parse_args(argv)
    for name in args.sizes.split(","):
        print(ensure(name.strip(), force=args.force))


if __name__ == "__main__":
    main()
