"""Sessions for the compaction engine's tests: pi messages, entry chains with readable ids, files on disk,
and a hypothesis strategy of realistic agent sessions (user/assistant/tool loops, CJK, bash runs, custom
messages, one tool result bigger than any window)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import orjson
from hypothesis import strategies as st

from pi_compact import Session
from pi_compact.compaction import estimate_context_tokens
from pi_compact.compaction.serialize import COMPACTION_SUMMARY_PREFIX, COMPACTION_SUMMARY_SUFFIX
from pi_compact.compaction.tokens import text_tokens

_clock = itertools.count(1_750_000_000_000, 1000)
USAGE = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
"""No usage reported (as from a provider that does not say): context sizes are estimated, not measured."""

SECTIONS = ("## Goal\n{goal}\n\n## Constraints & Preferences\n(none)\n\n## Progress\n### Done\n- [x] read\n\n"
            "### In Progress\n- [ ] fix\n\n### Blocked\n(none)\n\n## Key Decisions\n(none)\n\n"
            "## Next Steps\n1. go on\n\n## Critical Context\n(none)")


WRAPPER = text_tokens(COMPACTION_SUMMARY_PREFIX + COMPACTION_SUMMARY_SUFFIX)
"""The text pi wraps a compaction summary in when it sends it."""


def summary_text(goal: str = "fix the parser") -> str:
    """An LLM answer with every required section."""
    return SECTIONS.format(goal=goal)


# -- messages -------------------------------------------------------------------------------------------------


def user(text: str | list, **extra: Any) -> dict:
    return {"role": "user", "content": text, "timestamp": next(_clock), **extra}


def text(value: str) -> dict:
    return {"type": "text", "text": value}


def image() -> dict:
    return {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}


def call(call_id: str, name: str, **arguments: Any) -> dict:
    return {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}


def assistant(*blocks: dict | str, usage: dict | None = None, stop: str | None = None) -> dict:
    content = [text(b) if isinstance(b, str) else b for b in blocks]
    default_stop = "toolUse" if any(b.get("type") == "toolCall" for b in content) else "stop"
    return {"role": "assistant", "content": content, "api": "anthropic-messages", "provider": "anthropic",
            "model": "claude-test", "usage": usage or USAGE, "stopReason": stop or default_stop,
            "timestamp": next(_clock)}


def tool_result(call_id: str, name: str, output: str | list, *, error: bool = False) -> dict:
    content = [text(output)] if isinstance(output, str) else output
    return {"role": "toolResult", "toolCallId": call_id, "toolName": name, "content": content, "isError": error,
            "timestamp": next(_clock)}


def bash_run(command: str, output: str, exit_code: int | None = 0, **extra: Any) -> dict:
    return {"role": "bashExecution", "command": command, "output": output, "exitCode": exit_code,
            "cancelled": False, "truncated": False, "timestamp": next(_clock), **extra}


def usage(input_tokens: int, output: int = 0, cache_read: int = 0, cache_write: int = 0) -> dict:
    total = input_tokens + output + cache_read + cache_write
    return {"input": input_tokens, "output": output, "cacheRead": cache_read, "cacheWrite": cache_write,
            "totalTokens": total, "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}


# -- entry chains ---------------------------------------------------------------------------------------------


class Chain:
    """A root-first list of entries, each the child of the one before, with ids ``e0``, ``e1``, …"""

    def __init__(self) -> None:
        self.entries: list[dict] = []
        self._second = itertools.count()

    def add(self, kind: str, **fields: Any) -> dict:
        second = next(self._second)
        entry = {"type": kind, "id": f"e{len(self.entries)}",
                 "parentId": self.entries[-1]["id"] if self.entries else None,
                 "timestamp": f"2025-06-01T{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}.000Z",
                 **fields}
        self.entries.append(entry)
        return entry

    def message(self, message: dict) -> dict:
        return self.add("message", message=message)

    def __getitem__(self, index: int) -> dict:
        return self.entries[index]

    def __len__(self) -> int:
        return len(self.entries)

    def write(self, path: Path, cwd: str = "/project") -> Path:
        header = {"type": "session", "version": 3, "id": "sess-1", "timestamp": "2025-06-01T00:00:00.000Z", "cwd": cwd}
        path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in [header, *self.entries]))
        return path


def new_session(path: Path, messages: list[dict] = ()) -> Session:
    """A session file at ``path`` holding ``messages`` (each one ``message`` entry)."""
    session = Session.create_at(path, cwd=str(path.parent), durable=False)  # no fsync: tests stay fast
    for message in messages:
        session.append_message(message)
    return session


def tool_turn(session: Session, n: int, request: str, output: str, *, name: str = "read",
              path: str | None = None) -> None:
    """A user request, one tool call with its result, and the assistant's closing words."""
    session.append_message(user(request))
    arguments = {"command": f"cat src/m{n}.py"} if name == "bash" else {"path": path or f"src/m{n}.py"}
    session.append_message(assistant(f"Looking at step {n}.", call(f"c{n}", name, **arguments)))
    session.append_message(tool_result(f"c{n}", name, output))
    session.append_message(assistant(f"Step {n} done."))


def tool_heavy(path, turns_count: int = 4, lines: int = 1000) -> Session:
    """Short requests, big tool outputs (3 tokens a line): the condensed transcript is tiny."""
    session = new_session(path)
    for n in range(turns_count):
        tool_turn(session, n, f"fix bug {n}", "output line\n" * lines)
    return session


def wordy(path, turns_count: int = 4) -> Session:
    """Long requests: the condensed transcript (user text verbatim) is bigger than a summary."""
    session = new_session(path)
    for n in range(turns_count):
        session.append_message(user(f"Request {n}: " + "please do this carefully. " * 120))
        session.append_message(assistant(f"Done with {n}."))
    return session


def context_tokens(session: Session) -> int:
    """What the model would be sent, estimated without trusting usage, plus the summary's wrapper text."""
    messages = session.build_context().messages
    wrapper = WRAPPER if messages and messages[0]["role"] == "compactionSummary" else 0
    return estimate_context_tokens(messages, trust_usage=False).tokens + wrapper


# -- generated sessions -------------------------------------------------------------------------------------

_words = st.text(alphabet="abcdefgh ijklmnop\n", min_size=1, max_size=300)
_cjk = st.text(alphabet="编译器错误修复测试文件こんにちは안녕하세요", min_size=1, max_size=200)
_bulk = st.integers(1, 40_000).map(lambda n: ("lorem ipsum " * (n // 12 + 1))[:n])
texts = st.one_of(_words, _cjk, _bulk)

_step = st.one_of(
    st.tuples(st.just("tool"), st.sampled_from(["read", "bash", "write", "edit", "grep"]), texts),
    st.tuples(st.just("bash"), texts),
    st.tuples(st.just("custom"), texts),
    st.tuples(st.just("say"), texts),
)
turns = st.lists(st.tuples(_words | _cjk, st.lists(_step, max_size=5)), min_size=1, max_size=6)
"""A session's turns: a user request, then tool loops, bash runs, custom messages and assistant text."""

HUGE_OUTPUT = "0123456789abcdef\n" * 40_000
"""A tool result of 680,000 characters: bigger than every window the tests try."""


def build_session(session: Session, spec: list, *, huge_at: int | None = None) -> str:
    """Append the generated ``spec`` to ``session``; return the last user request's text."""
    step_no = itertools.count()
    last = ""
    for request, steps in spec:
        session.append_message(user(request))
        last = request
        for step in steps:
            n = next(step_no)
            if step[0] == "tool":
                _, name, output = step
                _tool_step(session, n, name, HUGE_OUTPUT if n == huge_at else output)
            elif step[0] == "bash":
                session.append_message(bash_run(f"make t{n}", step[1], exit_code=n % 3))
            elif step[0] == "custom":
                session.append_custom_message("ext/note", step[1], True)
            else:
                session.append_message(assistant(step[1]))
    return last


def _tool_step(session: Session, n: int, name: str, output: str) -> None:
    if name == "bash":
        arguments: dict = {"command": f"cat src/g{n}.py && make"}
    elif name == "write":
        arguments = {"path": f"src/w{n}.py", "content": output[:500]}
    elif name == "edit":
        arguments = {"path": f"src/e{n}.py", "oldText": "a", "newText": "b"}
    else:
        arguments = {"path": f"src/r{n}.py"}
    session.append_message(assistant(call(f"c{n}", name, **arguments)))
    session.append_message(tool_result(f"c{n}", name, output, error=n % 5 == 4))
