"""Builders of pi agent messages for the compaction tests, a hand-made session whose facts are known, and a
hypothesis strategy of junk message lists."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

_clock = iter(range(1_700_000_000_000, 1_800_000_000_000, 1000))


def user(text: str | list) -> dict:
    return {"role": "user", "content": text, "timestamp": next(_clock)}


def call(call_id: str, name: str, **arguments: Any) -> dict:
    return {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}


def assistant(*blocks: dict | str, thinking: str | None = None) -> dict:
    content: list[dict] = [{"type": "thinking", "thinking": thinking}] if thinking else []
    content += [{"type": "text", "text": b} if isinstance(b, str) else b for b in blocks]
    stop = "toolUse" if any(b.get("type") == "toolCall" for b in content) else "stop"
    return {"role": "assistant", "content": content, "api": "anthropic-messages", "provider": "anthropic",
            "model": "claude", "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2},
            "stopReason": stop, "timestamp": next(_clock)}


def result(call_id: str, name: str, text: str, *, error: bool = False, **extra: Any) -> dict:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": name,
            "content": [{"type": "text", "text": text}], "isError": error, "timestamp": next(_clock), **extra}


def bash_fail(text: str, code: int) -> str:
    """Output as pi's bash tool reports a non-zero exit."""
    return f"{text}\n\nCommand exited with code {code}"


def user_bash(command: str, output: str, exit_code: int | None = 0, **extra: Any) -> dict:
    return {"role": "bashExecution", "command": command, "output": output, "exitCode": exit_code,
            "cancelled": False, "truncated": False, "timestamp": next(_clock), **extra}


TRACEBACK = """============================= test session starts ==============================
collected 12 items

tests/test_parser.py ..F.........                                        [100%]

=================================== FAILURES ===================================
Traceback (most recent call last):
  File "src/parser.py", line 41, in parse_header
    raise ValueError("bad header")
ValueError: bad header
FAILED tests/test_parser.py::test_header - ValueError: bad header
========================= 1 failed, 11 passed in 0.12s ========================="""

# A session with known facts: every one of them must reach the offline summary.
SESSION: list[dict] = [
    user("Fix the failing header test in `src/parser.py` (issue #42). You must not change the public API of "
         "parse_header. Never add new dependencies. 不要修改 tests/fixtures 目录下的文件。"),
    assistant("I'll read the parser first.", call("c1", "read", path="src/parser.py"),
              thinking="The user wants the header fixed."),
    result("c1", "read", "def parse_header(line):\n" + "    pass\n" * 2000),
    assistant(call("c2", "bash", command="pytest -q tests/test_parser.py")),
    result("c2", "bash", bash_fail(TRACEBACK, 1), error=True),
    assistant("The header check is too strict. I decided to use a regex instead of split because headers may "
              "contain colons.", call("c3", "edit", path="src/parser.py", oldText="split(':')",
                                      newText="HEADER.match(line)")),
    result("c3", "edit", "Successfully replaced text in src/parser.py."),
    assistant(call("c4", "bash", command="pytest -q tests/test_parser.py")),
    result("c4", "bash", "12 passed in 0.10s\n"),
    user("Good. Now also update docs/parser.md, and make sure the changelog mentions v2.3.1. 必须保留旧的注释。"),
    assistant(call("c5", "write", path="docs/parser.md", content="# Parser\n" + "Header rules.\n" * 300)),
    result("c5", "write", "Successfully wrote 4012 bytes to docs/parser.md"),
    assistant(call("c6", "bash", command="cat CHANGELOG.md | head -20")),
    result("c6", "bash", "# Changelog\n## 2.3.0\n- initial\n"),
    assistant(call("c7", "bash", command="npm run lint")),
    result("c7", "bash", bash_fail("lint: checking 14 files\nerror: Unexpected console statement (no-console)", 2),
           error=True),
    user_bash("git status --short", " M src/parser.py\n M docs/parser.md\n"),
    user("Please finish the changelog entry and fix the lint error; don't touch package.json."),
]

SESSION_FACTS = {
    "paths": ["src/parser.py", "docs/parser.md", "CHANGELOG.md"],
    "errors": ["ValueError: bad header", "FAILED tests/test_parser.py::test_header - ValueError: bad header",
               "error: Unexpected console statement (no-console)"],
    "constraints": ["You must not change the public API of parse_header.", "Never add new dependencies.",
                    "不要修改 tests/fixtures 目录下的文件。",
                    "Now also update docs/parser.md, and make sure the changelog mentions v2.3.1.", "必须保留旧的注释。",
                    "don't touch package.json."],
}


# -- junk -----------------------------------------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=5,
)
_odd = st.none() | st.booleans() | st.integers() | st.text(max_size=20) | st.lists(st.integers(), max_size=2)
_roles = st.sampled_from(["user", "assistant", "toolResult", "bashExecution", "custom", "branchSummary",
                          "compactionSummary", "system", "", None, 3])
_block = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "thinking", "toolCall", "image", "other", None])},
    optional={"text": _odd | st.text(max_size=80), "thinking": _odd, "id": _odd | st.sampled_from(["a", "b"]),
              "name": _odd | st.sampled_from(["bash", "read", "edit", "write", "grep"]),
              "arguments": _json | st.fixed_dictionaries({}, optional={"command": st.text(max_size=60),
                                                                        "path": st.text(max_size=30)})},
)
_message = st.fixed_dictionaries(
    {"role": _roles},
    optional={"content": _json | st.text(max_size=120) | st.lists(_block, max_size=4),
              "toolCallId": _odd | st.sampled_from(["a", "b"]), "toolName": _odd, "isError": _odd,
              "details": _json, "command": _odd | st.text(max_size=60), "output": _odd | st.text(max_size=80),
              "exitCode": _odd, "cancelled": _odd, "customType": _odd, "summary": _odd | st.text(max_size=200),
              "excludeFromContext": _odd, "stopReason": _odd, "errorMessage": _odd},
)
junk_messages = st.lists(_message | _json, max_size=10)
"""Lists of message-shaped dicts with wrong types anywhere, mixed with arbitrary JSON values."""
