"""Write ``sessions_fixtures/demo.jsonl``: a realistic pi coding-agent session, built through the library.

The session is a user working with an agent on ``inilite``, a small fictional Python INI parser: fixing the
parser's failing tests, adding a ``--verbose`` flag (first with ``print``, then, after going back in the tree,
with ``logging``), type hints, docs, a changelog and commits. About forty user turns, with the model and
thinking level set first, assistant messages with usage and cost figures, ``read``/``edit``/``write``/``bash``
tool calls, multi-KB tool results (file contents, a failing pytest run with a traceback, then a passing one),
one user ``!bash`` execution, explicit user constraints, a label, a session name, and an abandoned branch
(with the branch summary pi writes when you leave one).

The content is fixed (no randomness beyond a seeded generator); entry ids and entry timestamps come from the
library at write time, as they would from pi. Run: ``python sessions_fixtures/generate.py [OUT]``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from pi_compact import Session

OUT = Path(__file__).with_name("demo.jsonl")
CWD = "/home/dev/src/inilite"
PROVIDER, MODEL, API = "anthropic", "claude-sonnet-4-5", "anthropic-messages"
PRICE_PER_MTOK = {"input": 3.0, "output": 15.0, "cacheRead": 0.3, "cacheWrite": 3.75}
START_MS = 1_767_259_800_000  # 2026-01-01T09:30:00Z: message timestamps are fixed, entry timestamps are "now"

# -- the fictional project -----------------------------------------------------------------------------------

PARSER_PY = '''"""A tiny INI parser: sections, key = value pairs, comments, and typed getters."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_SECTION = re.compile(r"^\\[(?P<name>[^\\]]+)\\]$")
_PAIR = re.compile(r"^(?P<key>[A-Za-z0-9_.-]+)\\s*=\\s*(?P<value>.*)$")
TRUE_WORDS = {"1", "yes", "true", "on"}
FALSE_WORDS = {"0", "no", "false", "off"}


class ParseError(ValueError):
    """A line that is neither a section, a pair, a comment nor blank."""

    def __init__(self, line_no: int, line: str) -> None:
        super().__init__(f"line {line_no}: cannot parse {line!r}")
        self.line_no = line_no
        self.line = line


@dataclass
class Config:
    sections: dict[str, dict[str, str]] = field(default_factory=dict)

    def get(self, section: str, key: str, default: str | None = None) -> str | None:
        return self.sections.get(section, {}).get(key, default)

    def get_int(self, section: str, key: str, default: int = 0) -> int:
        value = self.get(section, key)
        return int(value) if value is not None else default

    def get_bool(self, section: str, key: str, default: bool = False) -> bool:
        value = self.get(section, key)
        if value is None:
            return default
        if value.lower() in TRUE_WORDS:
            return True
        if value.lower() in FALSE_WORDS:
            return False
        raise ValueError(f"{section}.{key}: not a boolean: {value!r}")


def parse(text: str) -> Config:
    config = Config()
    current = "DEFAULT"
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if match := _SECTION.match(line):
            current = match["name"]
            config.sections.setdefault(current, {})
            continue
        if match := _PAIR.match(line):
            value = match["value"]
            if "#" in value:
                value = value.split("#")[0]
            config.sections.setdefault(current, {})[match["key"]] = value
            continue
        raise ParseError(line_no, raw)
    return config


def parse_file(path: str) -> Config:
    with open(path) as handle:
        return parse(handle.read())
'''

TEST_PARSER_PY = '''import pytest

from inilite.parser import ParseError, parse, parse_file


def test_sections_and_pairs():
    config = parse("[server]\\nhost = example.org\\nport = 8080\\n")
    assert config.get("server", "host") == "example.org"
    assert config.get_int("server", "port") == 8080


def test_inline_comment_is_stripped():
    config = parse("[a]\\nname = value   # trailing comment\\n")
    assert config.get("a", "name") == "value"


def test_semicolon_comments():
    config = parse("; a comment\\n[a]\\nx = 1\\n")
    assert config.get("a", "x") == "1"


def test_hash_inside_quotes_is_kept():
    config = parse('[a]\\ncolor = "#ff0000"\\n')
    assert config.get("a", "color") == '"#ff0000"'


def test_booleans():
    config = parse("[f]\\na = yes\\nb = Off\\n")
    assert config.get_bool("f", "a") is True
    assert config.get_bool("f", "b") is False


def test_bad_line():
    with pytest.raises(ParseError) as info:
        parse("[a]\\nthis is not ini\\n")
    assert info.value.line_no == 2


def test_fixture_file():
    config = parse_file("tests/fixtures/sample.ini")
    assert config.get("database", "user") == "admin"
    assert config.get_int("database", "pool_size") == 5
'''

CLI_PY = '''"""inilite's command line: print a value, or a whole section, of an INI file."""

from __future__ import annotations

import argparse
import sys

from .parser import ParseError, parse_file


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="inilite")
    parser.add_argument("file")
    parser.add_argument("section")
    parser.add_argument("key", nargs="?")
    args = parser.parse_args(argv)
    try:
        config = parse_file(args.file)
    except (OSError, ParseError) as exc:
        print(f"inilite: {exc}", file=sys.stderr)
        return 2
    if args.key is None:
        for key, value in config.sections.get(args.section, {}).items():
            print(f"{key} = {value}")
        return 0
    value = config.get(args.section, args.key)
    if value is None:
        print(f"inilite: no {args.section}.{args.key}", file=sys.stderr)
        return 1
    print(value)
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

PYPROJECT = '''[project]
name = "inilite"
version = "0.3.0"
requires-python = ">=3.10"
dependencies = []

[project.optional-dependencies]
dev = ["pytest>=7"]

[project.scripts]
inilite = "inilite.cli:main"
'''

SAMPLE_INI = """# sample configuration used by the tests; do not edit
[database]
user = admin
password = s3cret   # not a real one
pool_size = 5

[logging]
level = info
"""


def pytest_failure() -> str:
    """A realistic failing run: three failures with tracebacks, then the short summary."""
    sep = "_" * 30
    return f"""============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0
rootdir: {CWD}
configfile: pyproject.toml
collected 7 items

tests/test_parser.py .F.FF..                                             [100%]

=================================== FAILURES ===================================
{sep} test_inline_comment_is_stripped {sep}

    def test_inline_comment_is_stripped():
        config = parse("[a]\\nname = value   # trailing comment\\n")
>       assert config.get("a", "name") == "value"
E       AssertionError: assert 'value   ' == 'value'
E
E         - value
E         + value
E         ?      +++

tests/test_parser.py:13: AssertionError
{sep}___ test_semicolon_comments ____{sep}

    def test_semicolon_comments():
>       config = parse("; a comment\\n[a]\\nx = 1\\n")

tests/test_parser.py:17:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

text = '; a comment\\n[a]\\nx = 1\\n'

    def parse(text: str) -> Config:
        config = Config()
        current = "DEFAULT"
        for line_no, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if match := _SECTION.match(line):
                current = match["name"]
                config.sections.setdefault(current, {{}})
                continue
            if match := _PAIR.match(line):
                value = match["value"]
                if "#" in value:
                    value = value.split("#")[0]
                config.sections.setdefault(current, {{}})[match["key"]] = value
                continue
>           raise ParseError(line_no, raw)
E           inilite.parser.ParseError: line 1: cannot parse '; a comment'

inilite/parser.py:62: ParseError
{sep} test_hash_inside_quotes_is_kept {sep}

    def test_hash_inside_quotes_is_kept():
        config = parse('[a]\\ncolor = "#ff0000"\\n')
>       assert config.get("a", "color") == '"#ff0000"'
E       assert '"' == '"#ff0000"'
E
E         - "#ff0000"
E         + "

tests/test_parser.py:22: AssertionError
=========================== short test summary info ============================
FAILED tests/test_parser.py::test_inline_comment_is_stripped - AssertionError: assert 'value   ' == 'value'
FAILED tests/test_parser.py::test_semicolon_comments - inilite.parser.ParseError: line 1: cannot parse '; a comment'
FAILED tests/test_parser.py::test_hash_inside_quotes_is_kept - assert '"' == '"#ff0000"'
========================= 3 failed, 4 passed in 0.06s ==========================
"""


def final_parser() -> str:
    """parser.py after every edit of the session (kept branch)."""
    text = PARSER_PY.replace("import re\n", "import logging\nimport re\n")
    text = text.replace('TRUE_WORDS = {"1"', 'logger = logging.getLogger(__name__)\nTRUE_WORDS = {"1"')
    text = text.replace(
        "def parse(text: str) -> Config:",
        'def _strip_comment(value: str) -> str:\n    """Cut a trailing ` # comment`, leaving `#` inside quotes alone.\n\n'
        "    >>> _strip_comment('\"#a\" # c')\n    '\"#a\" '\n    \"\"\"\n    quote = None\n"
        "    for index, char in enumerate(value):\n        if char in \"\\\"'\" and quote in (None, char):\n"
        "            quote = None if quote else char\n"
        "        elif char == \"#\" and quote is None and (index == 0 or value[index - 1].isspace()):\n"
        "            return value[:index]\n    return value\n\n\ndef parse(text: str) -> Config:",
    )
    text = text.replace('line.startswith("#")', 'line.startswith(("#", ";"))')
    text = text.replace('            if "#" in value:\n                value = value.split("#")[0]\n', "            value = _strip_comment(value).strip()\n")
    text = text.replace('            current = match["name"]\n', '            current = match["name"]\n            logger.debug("line %d: section [%s]", line_no, current)\n')
    text = text.replace(
        "        return int(value) if value is not None else default\n",
        "        if value is None:\n            return default\n        try:\n            return int(value)\n        except ValueError:\n"
        '            raise ValueError(f"{section}.{key}: not an integer: {value!r}") from None\n',
    )
    text = text.replace(
        '            config.sections.setdefault(current, {})[match["key"]] = value\n',
        '            config.sections.setdefault(current, {})[match["key"]] = value\n'
        '            logger.debug("line %d: %s.%s", line_no, current, match["key"])\n',
    )
    return text.replace("    with open(path) as handle:", '    with open(path, encoding="utf-8-sig") as handle:')


def pytest_pass(count: int, extra: str = "") -> str:
    dots = "." * count
    return f"""============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.3.4, pluggy-1.5.0
rootdir: {CWD}
configfile: pyproject.toml
collected {count} items

tests/test_parser.py {dots:<57}[100%]{extra}

============================== {count} passed in 0.05s ===============================
"""


# -- building the session ------------------------------------------------------------------------------------


class Writer:
    """Appends turns to a session the way pi's agent loop does, with plausible usage figures."""

    def __init__(self, session: Session, seed: int = 7) -> None:
        self.session = session
        self.random = random.Random(seed)
        self.clock = START_MS
        self.context_tokens = 3_100  # system prompt + tool definitions
        self.call_no = 0

    def tick(self, low: int = 2_000, high: int = 15_000) -> int:
        self.clock += self.random.randint(low, high)
        return self.clock

    def user(self, text: str) -> dict:
        self.context_tokens += len(text) // 4
        return self.session.append_message({"role": "user", "content": [{"type": "text", "text": text}], "timestamp": self.tick(20_000, 90_000)})

    def assistant(self, text: str = "", calls: list[tuple[str, dict, str]] | None = None, thinking: str = "") -> dict:
        """One assistant message; each call is (tool name, arguments, result text), results appended after it."""
        content: list[dict] = []
        if thinking:
            content.append({"type": "thinking", "thinking": thinking, "thinkingSignature": f"sig-{self.call_no:04d}"})
        if text:
            content.append({"type": "text", "text": text})
        ids = []
        for name, arguments, _ in calls or []:
            self.call_no += 1
            ids.append(f"toolu_01{self.call_no:04d}demo{self.random.randrange(16**8):08x}")
            content.append({"type": "toolCall", "id": ids[-1], "name": name, "arguments": arguments})
        written = len(text) + len(thinking) + sum(len(str(a)) for _, a, _ in calls or [])
        message = {
            "role": "assistant",
            "content": content,
            "api": API,
            "provider": PROVIDER,
            "model": MODEL,
            "usage": self._usage(written),
            "stopReason": "toolUse" if calls else "stop",
            "timestamp": self.tick(),
        }
        entry = self.session.append_message(message)
        for call_id, (name, _, result) in zip(ids, calls or []):
            self._tool_result(call_id, name, result)
        return entry

    def _tool_result(self, call_id: str, name: str, result: str) -> None:
        is_error = result.startswith("ERROR: ")
        text = result.removeprefix("ERROR: ")
        self.context_tokens += len(text) // 4
        message = {
            "role": "toolResult",
            "toolCallId": call_id,
            "toolName": name,
            "content": [{"type": "text", "text": text}],
            "isError": is_error,
            "timestamp": self.tick(300, 4_000),
        }
        if name == "bash":
            message["details"] = {"exitCode": 1 if "failed" in text else 0}
        self.session.append_message(message)

    def _usage(self, written_chars: int) -> dict:
        output = written_chars // 4 + self.random.randint(20, 180)
        cache_read = int(self.context_tokens * self.random.uniform(0.80, 0.95))
        cache_write = self.context_tokens - cache_read - 3
        usage = {"input": 3, "output": output, "cacheRead": cache_read, "cacheWrite": cache_write}
        usage["totalTokens"] = sum(usage.values())
        cost = {key: round(usage[key] * PRICE_PER_MTOK[key] / 1e6, 6) for key in PRICE_PER_MTOK}
        cost["total"] = round(sum(cost.values()), 6)
        self.context_tokens += output
        return {**usage, "cost": cost}

    def bash_execution(self, command: str, output: str, exit_code: int = 0) -> dict:
        self.context_tokens += (len(command) + len(output)) // 4
        return self.session.append_message(
            {
                "role": "bashExecution",
                "command": command,
                "output": output,
                "exitCode": exit_code,
                "cancelled": False,
                "truncated": False,
                "timestamp": self.tick(),
            }
        )


def read(path: str, body: str) -> tuple[str, dict, str]:
    return ("read", {"path": path}, body)


def edit(path: str, old: str, new: str) -> tuple[str, dict, str]:
    return ("edit", {"path": path, "oldText": old, "newText": new}, f"Successfully replaced text in {path}.")


def write(path: str, body: str) -> tuple[str, dict, str]:
    return ("write", {"path": path, "content": body}, f"Successfully wrote {len(body.encode())} bytes to {path}")


def bash(command: str, output: str) -> tuple[str, dict, str]:
    return ("bash", {"command": command}, output)


def opening(w: Writer) -> None:
    """The failing parser tests, and the user's standing rules."""
    w.user(
        "The tests in tests/test_parser.py are failing since yesterday's refactor of the comment handling. "
        "Fix the failing tests in the parser. Rules for this whole session: never modify tests/fixtures, "
        "always run the tests before committing, and don't add new dependencies."
    )
    w.assistant("I'll start by reading the parser and its tests.", [read("inilite/parser.py", PARSER_PY), read("tests/test_parser.py", TEST_PARSER_PY)])
    w.assistant("Let me run the test suite to see the failures.", [bash("python -m pytest -q tests/test_parser.py", pytest_failure())])
    w.assistant(
        "Three failures, two causes:\n\n1. Inline comments: the value is split on `#` but not stripped, so "
        "`value   # c` becomes `'value   '`; and quoted values containing `#` get cut.\n2. `;` comment lines "
        "are not recognised at all.\n\nI'll fix both in `parse()`: strip values, skip `;` comments, and only treat "
        "`#` as a comment when it's outside quotes and preceded by whitespace.",
        [
            edit("inilite/parser.py", 'if not line or line.startswith("#"):', 'if not line or line.startswith(("#", ";")):'),
            edit(
                "inilite/parser.py",
                '            if "#" in value:\n                value = value.split("#")[0]\n',
                "            value = _strip_comment(value).strip()\n",
            ),
            edit(
                "inilite/parser.py",
                "def parse(text: str) -> Config:",
                'def _strip_comment(value: str) -> str:\n    """Cut a trailing ` # comment`, leaving `#` inside quotes alone."""\n'
                "    quote = None\n    for index, char in enumerate(value):\n        if char in \"\\\"'\" and quote in (None, char):\n"
                "            quote = None if quote else char\n        elif char == \"#\" and quote is None and (index == 0 or value[index - 1].isspace()):\n"
                "            return value[:index]\n    return value\n\n\ndef parse(text: str) -> Config:",
            ),
        ],
        thinking="The quoted-hash test expects the quotes kept in the value, so I must not unquote, only avoid cutting.",
    )
    w.assistant("Running the tests again.", [bash("python -m pytest -q tests/test_parser.py", pytest_pass(7))])
    w.assistant("All 7 tests pass now. The fix is in `inilite/parser.py` only; `tests/fixtures` is untouched.")

    w.user("Nice. What exactly changed in the parser? Show me the diff.")
    diff = (
        "diff --git a/inilite/parser.py b/inilite/parser.py\nindex 3c1f0a2..9be41d7 100644\n--- a/inilite/parser.py\n"
        "+++ b/inilite/parser.py\n@@ -44,12 +44,23 @@ def parse(text: str) -> Config:\n-        if not line or line.startswith(\"#\"):\n"
        "+        if not line or line.startswith((\"#\", \";\")):\n-            if \"#\" in value:\n-                value = value.split(\"#\")[0]\n"
        "+            value = _strip_comment(value).strip()\n"
    )
    w.assistant("", [bash("git diff", diff)])
    w.assistant("Two changes: `;` lines are comments now, and inline comments go through a new `_strip_comment` helper that respects quotes, followed by `.strip()`.")

    w.user("Does the fixture file still parse? Check but don't touch it.")
    w.assistant("", [read("tests/fixtures/sample.ini", SAMPLE_INI)])
    w.assistant("Yes: `password = s3cret   # not a real one` now yields `s3cret`, and `test_fixture_file` passes. I only read the file.")

    w.user("Commit this.")
    w.assistant(
        "Tests first, as agreed.",
        [bash("python -m pytest -q", pytest_pass(7)), bash("git add inilite/parser.py && git commit -m 'parser: fix inline and ; comments'", "[main 4e1d2c9] parser: fix inline and ; comments\n 1 file changed, 15 insertions(+), 3 deletions(-)")],
    )
    w.assistant("Committed as 4e1d2c9 after a green run.")


def follow_ups(w: Writer) -> None:
    """Why it broke, other callers, CRLF input, a doctest."""
    w.user("Why did yesterday's refactor break this in the first place? Look at the history of parser.py.")
    log = (
        "18c0b77 parser: move comment handling into parse()\n"
        "    -        line = _strip_inline_comment(raw).strip()\n"
        "    +        line = raw.strip()\n"
        "2f6a9d1 parser: typed getters\n5d0e3b8 initial import"
    )
    w.assistant("", [bash("git log --oneline -p -3 -- inilite/parser.py | grep -E '^[0-9a-f]{7}|strip'", log)])
    w.assistant(
        "Commit 18c0b77 inlined `_strip_inline_comment` into `parse()` but dropped the `.strip()` after it and the `;` "
        "case. The tests caught exactly that."
    )
    w.user("Are there other places that split on '#'?")
    w.assistant("", [bash("grep -rn \"split(\\\"#\\\")\\|split('#')\" inilite tests", "")])
    w.assistant("None left; the only one was the line I replaced.")
    w.user("Does the parser handle Windows line endings?")
    w.assistant(
        "`str.splitlines()` splits on `\\r\\n`, and each line is stripped, so yes. A test would pin it down.",
        [edit("tests/test_parser.py", "def test_booleans():", "def test_crlf():\n    config = parse(\"[a]\\r\\nx = 1\\r\\n\")\n    assert config.get(\"a\", \"x\") == \"1\"\n\n\ndef test_booleans():")],
    )
    w.assistant("", [bash("python -m pytest -q", pytest_pass(8))])
    w.assistant("Added `test_crlf`; 8 passed.")
    w.user("Actually drop the CRLF test, I want to keep the suite minimal for now.")
    w.assistant("", [edit("tests/test_parser.py", "def test_crlf():\n    config = parse(\"[a]\\r\\nx = 1\\r\\n\")\n    assert config.get(\"a\", \"x\") == \"1\"\n\n\n", ""), bash("python -m pytest -q", pytest_pass(7))])
    w.assistant("Removed it; back to 7 tests, all passing.")
    w.user("Give _strip_comment a doctest so the quote rule is documented.")
    old_doc = '    """Cut a trailing ` # comment`, leaving `#` inside quotes alone."""'
    new_doc = old_doc[:-3] + "\n\n    >>> _strip_comment('\"#a\" # c')\n    '\"#a\" '\n    \"\"\""
    doctest_run = pytest_pass(8, "\ninilite/parser.py .   (doctest)")
    w.assistant("", [edit("inilite/parser.py", old_doc, new_doc), bash("python -m pytest -q --doctest-modules inilite tests", doctest_run)])
    w.assistant("Doctest added and collected with `--doctest-modules`; everything passes.")


def middle(w: Writer) -> dict:
    """Typed getters, edge cases, the README; returns the entry the branch starts from."""
    w.user("get_int crashes with a raw ValueError on 'pool_size = five'. Make it raise something that names the key.")
    w.assistant(
        "",
        [edit("inilite/parser.py", "        return int(value) if value is not None else default", "        if value is None:\n            return default\n        try:\n            return int(value)\n        except ValueError:\n            raise ValueError(f\"{section}.{key}: not an integer: {value!r}\") from None")],
    )
    w.assistant("", [bash("python -m pytest -q", pytest_pass(7))])
    w.assistant("`get_int` now raises `ValueError: database.pool_size: not an integer: 'five'`.")

    w.user("Add a test for that, in tests/test_parser.py (not in fixtures).")
    w.assistant(
        "",
        [edit("tests/test_parser.py", "def test_bad_line():", "def test_get_int_names_the_key():\n    config = parse(\"[db]\\npool_size = five\\n\")\n    with pytest.raises(ValueError, match=\"db.pool_size\"):\n        config.get_int(\"db\", \"pool_size\")\n\n\ndef test_bad_line():"), bash("python -m pytest -q", pytest_pass(8))],
    )
    w.assistant("Added `test_get_int_names_the_key`; 8 passed.")

    w.user("What about duplicate keys in one section? What does configparser do?")
    w.assistant(
        "The standard library's `configparser` raises `DuplicateOptionError` in strict mode (the default). "
        "We currently let the last value win silently. I'd keep last-wins (it's what most INI readers do) but "
        "document it. Want strict mode as an option instead?"
    )
    w.user("Keep last-wins, document it in the README.")
    readme = "# inilite\n\nA tiny INI parser.\n\n```python\nfrom inilite.parser import parse\nconfig = parse(open('app.ini').read())\n```\n"
    w.assistant(
        "",
        [read("README.md", readme), edit("README.md", "A tiny INI parser.\n", "A tiny INI parser.\n\nRules: `#` and `;` start comments; a key repeated in a section keeps its last value.\n")],
    )
    w.assistant("README updated with the comment and duplicate-key rules.")

    w.user("Show me the current CLI.")
    w.assistant("", [read("inilite/cli.py", CLI_PY)])
    branch_point = w.assistant(
        "`inilite FILE SECTION [KEY]`: prints one value or a whole section; exit 2 on unreadable or bad files, "
        "1 when the key is missing. There is no verbosity control yet."
    )
    return branch_point


def verbose_with_print(w: Writer) -> dict:
    """The abandoned branch: --verbose through a global flag and print calls (5 turns)."""
    w.user("Add a --verbose flag that prints what the parser does (sections found, keys read).")
    w.assistant(
        "I'll add a module-level `VERBOSE` flag in the parser and print from `parse()` when it's set.",
        [
            edit("inilite/parser.py", 'TRUE_WORDS = {"1", "yes", "true", "on"}', 'VERBOSE = False\nTRUE_WORDS = {"1", "yes", "true", "on"}'),
            edit("inilite/parser.py", '            current = match["name"]\n', '            current = match["name"]\n            if VERBOSE:\n                print(f"section {current}")\n'),
            edit("inilite/cli.py", '    parser.add_argument("key", nargs="?")\n', '    parser.add_argument("key", nargs="?")\n    parser.add_argument("--verbose", action="store_true")\n'),
        ],
    )
    w.assistant("", [bash("python -m pytest -q", pytest_pass(8))])
    w.assistant("Done: `inilite --verbose app.ini db` prints `section db` etc. before the values.")
    w.user("Hmm, the verbose lines go to stdout and get mixed with the values. Scripts read stdout.")
    w.assistant("Right, I'll send them to stderr.", [edit("inilite/parser.py", 'print(f"section {current}")', 'print(f"section {current}", file=sys.stderr)'), bash("python -m pytest -q", "ERROR: NameError: name 'sys' is not defined\n1 failed, 7 passed in 0.07s")])
    w.assistant("", [edit("inilite/parser.py", "import re\n", "import re\nimport sys\n"), bash("python -m pytest -q", pytest_pass(8))])
    w.assistant("Fixed the missing import; verbose output now goes to stderr.")
    w.user("And the global flag means two parsers in one process share verbosity. I don't love this.")
    w.assistant("Agreed, a module global is shared state. A cleaner way is the `logging` module: the library logs, the CLI decides what to show.")
    w.user("Let's not keep this approach. I'll go back and do it properly.")
    return w.assistant("Understood. Nothing from this branch was committed.")


def verbose_with_logging(w: Writer) -> dict:
    """The kept branch: --verbose through logging."""
    w.user("Add a --verbose flag, but do it with the logging module: the parser logs at DEBUG, the CLI configures the level. Output on stderr.")
    w.assistant(
        "Plan: `logger = logging.getLogger(__name__)` in the parser with `logger.debug` calls; in the CLI, `--verbose` "
        "sets up a stderr handler at DEBUG, otherwise WARNING. No new dependencies: `logging` is standard library.",
        [
            edit("inilite/parser.py", "import re\n", "import logging\nimport re\n"),
            edit("inilite/parser.py", 'TRUE_WORDS = {"1", "yes", "true", "on"}', 'logger = logging.getLogger(__name__)\nTRUE_WORDS = {"1", "yes", "true", "on"}'),
            edit("inilite/parser.py", '            current = match["name"]\n', '            current = match["name"]\n            logger.debug("line %d: section [%s]", line_no, current)\n'),
            edit("inilite/cli.py", "import argparse\n", "import argparse\nimport logging\n"),
            edit(
                "inilite/cli.py",
                '    args = parser.parse_args(argv)\n',
                '    parser.add_argument("-v", "--verbose", action="store_true", help="log parsing steps to stderr")\n    args = parser.parse_args(argv)\n'
                '    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, format="inilite: %(message)s", stream=sys.stderr)\n',
            ),
        ],
    )
    w.assistant("", [bash("python -m pytest -q", pytest_pass(8)), bash("python -m inilite.cli -v tests/fixtures/sample.ini database user", "inilite: line 2: section [database]\ninilite: line 7: section [logging]\nadmin")])
    w.assistant("`-v/--verbose` logs each section to stderr; stdout still carries only the value.")
    w.user("Log the keys too, and add a test for the CLI flag using capsys or caplog.")
    w.assistant(
        "",
        [
            edit("inilite/parser.py", "            config.sections.setdefault(current, {})[match[\"key\"]] = value\n", "            config.sections.setdefault(current, {})[match[\"key\"]] = value\n            logger.debug(\"line %d: %s.%s\", line_no, current, match[\"key\"])\n"),
            write("tests/test_cli.py", 'from inilite.cli import main\n\n\ndef test_verbose_logs_to_stderr(capsys):\n    assert main(["-v", "tests/fixtures/sample.ini", "database", "user"]) == 0\n    out, err = capsys.readouterr()\n    assert out == "admin\\n"\n    assert "section [database]" in err\n'),
            bash("python -m pytest -q", pytest_pass(9)),
        ],
    )
    green = w.assistant("Keys are logged too, and `tests/test_cli.py` checks that values stay on stdout. 9 passed.")
    return green


def closing(w: Writer) -> None:
    """The last turns: hints, docs, changelog, a user !command, more tests, commits, a tag."""
    w.user("Commit the verbose work.")
    w.assistant("Running the tests first.", [bash("python -m pytest -q", pytest_pass(9)), bash("git add -A inilite tests/test_cli.py && git commit -m 'cli: --verbose via logging'", "[main a7c03f1] cli: --verbose via logging\n 3 files changed, 24 insertions(+), 1 deletion(-)")])
    w.assistant("Committed a7c03f1.")
    w.bash_execution("git log --oneline -4", "a7c03f1 cli: --verbose via logging\n0b9e6d2 parser: name the key in get_int errors\n4e1d2c9 parser: fix inline and ; comments\n18c0b77 parser: move comment handling into parse()")
    w.user("Good. Can you add type hints where they're missing and run mypy if it's installed? Don't install it if it isn't.")
    w.assistant("", [bash("python -m mypy --version", "ERROR: /usr/bin/python: No module named mypy")])
    w.assistant("mypy isn't installed, and I won't add it. The public functions already have hints; `_strip_comment` and `main` too, so there's nothing missing.")
    w.user("Fine. Should get_bool accept 'y' and 'n'?")
    w.assistant("configparser accepts `1/yes/true/on` and `0/no/false/off`, which is what we do. Adding `y`/`n` would diverge; I'd leave it.")
    w.user("Leave it. Update the README with the CLI usage, including -v.")
    w.assistant("", [edit("README.md", "```python\n", "```sh\ninilite app.ini database user      # one value\ninilite app.ini database           # a whole section\ninilite -v app.ini database user   # and log parsing steps to stderr\n```\n\n```python\n")])
    w.assistant("README now documents the three CLI forms.")
    w.user("Add a CHANGELOG.md entry for 0.3.1.")
    changelog = "# Changelog\n\n## 0.3.1\n\n- Fixed: inline `#` comments and `;` comment lines.\n- `get_int` errors name the section and key.\n- New: `-v/--verbose` logs parsing steps to stderr.\n\n## 0.3.0\n\n- Typed getters.\n"
    w.assistant("", [write("CHANGELOG.md", changelog)])
    w.assistant("Added CHANGELOG.md with the 0.3.1 changes.")
    w.user("Bump the version in pyproject.toml to 0.3.1.")
    w.assistant("", [read("pyproject.toml", PYPROJECT), edit("pyproject.toml", 'version = "0.3.0"', 'version = "0.3.1"')])
    w.assistant("Version bumped; `dependencies` is still empty.")
    w.user("Is there any place where we open files without an encoding?")
    w.assistant("", [bash("grep -rn 'open(' inilite", "inilite/parser.py:73:    with open(path) as handle:")])
    w.assistant("One: `parse_file`. I'll make it `encoding=\"utf-8\"`.", [edit("inilite/parser.py", "    with open(path) as handle:", '    with open(path, encoding="utf-8") as handle:'), bash("python -m pytest -q", pytest_pass(9))])
    w.assistant("Done, tests still green.")
    w.user("What happens with a BOM at the start of the file?")
    w.assistant("With `utf-8` the BOM stays as `\\ufeff` on the first line, so a first `[section]` would not match. `utf-8-sig` strips it.", [edit("inilite/parser.py", 'encoding="utf-8"', 'encoding="utf-8-sig"')])
    w.assistant("Switched to `utf-8-sig`.")
    w.user("Add a test with a BOM, writing the file into tmp_path, not into tests/fixtures.")
    w.assistant("", [edit("tests/test_parser.py", "def test_fixture_file():", "def test_bom(tmp_path):\n    path = tmp_path / \"bom.ini\"\n    path.write_bytes(b\"\\xef\\xbb\\xbf[a]\\nx = 1\\n\")\n    assert parse_file(str(path)).get(\"a\", \"x\") == \"1\"\n\n\ndef test_fixture_file():"), bash("python -m pytest -q", pytest_pass(10))])
    w.assistant("`test_bom` writes to `tmp_path`; 10 passed.")
    housekeeping(w)
    w.user("Commit everything since the last commit.")
    w.assistant("Tests first.", [bash("python -m pytest -q", pytest_pass(12)), bash("git add -A && git commit -m 'release 0.3.1: docs, changelog, BOM-safe reading'", "[main c51e8a0] release 0.3.1: docs, changelog, BOM-safe reading\n 5 files changed, 31 insertions(+), 4 deletions(-)")])
    w.assistant("Committed c51e8a0 after a green run.")
    w.user("Tag it v0.3.1.")
    w.assistant("", [bash("git tag v0.3.1 && git tag --list 'v0.3*'", "v0.3.0\nv0.3.1")])
    w.assistant("Tagged v0.3.1.")
    w.user("Anything in the repo that still says 0.3.0, apart from the changelog?")
    w.assistant("", [bash("grep -rn '0\\.3\\.0' --exclude-dir=.git .", "./CHANGELOG.md:9:## 0.3.0")])
    w.assistant("Only the changelog's previous section.")
    w.user("How big is the parser now?")
    w.assistant("", [bash("wc -l inilite/*.py tests/*.py", "   98 inilite/parser.py\n   41 inilite/cli.py\n    0 inilite/__init__.py\n   71 tests/test_parser.py\n   22 tests/test_cli.py\n  232 total")])
    w.assistant("98 lines for the parser, 41 for the CLI, 93 lines of tests.")
    w.user("Print the final parser.py so I can review it in one go.")
    w.assistant("", [read("inilite/parser.py", final_parser())])
    w.assistant("That's the whole file: `_strip_comment` with its doctest, logging calls in `parse()`, and the BOM-safe `parse_file`.")
    w.user("Looks good. One last full run, doctests included, please.")
    w.assistant("", [bash("python -m pytest -q --doctest-modules inilite tests", pytest_pass(13, "\ninilite/parser.py .   (doctest)"))])
    w.assistant("13 passed (12 tests and the doctest).")
    w.user("Summarize what we did today in three bullets.")
    w.assistant(
        "- Fixed the parser's comment handling (inline `#`, `;` lines, quotes) and made `get_int` errors name the key.\n"
        "- Added `-v/--verbose` through `logging` (stderr only), with a CLI test; the first print-based attempt was dropped.\n"
        "- Docs, changelog, UTF-8-with-BOM reading, version 0.3.1, committed and tagged; tests/fixtures untouched, no new dependencies."
    )


def housekeeping(w: Writer) -> None:
    """Help text, coverage, exit codes, CLI tests."""
    w.user("Check that `python -m inilite.cli --help` looks right.")
    help_text = (
        "usage: inilite [-h] [-v] file section [key]\n\npositional arguments:\n  file\n  section\n  key\n\n"
        "options:\n  -h, --help     show this help message and exit\n  -v, --verbose  log parsing steps to stderr"
    )
    w.assistant("", [bash("python -m inilite.cli --help", help_text)])
    w.assistant("It works; the positional arguments have no help text though.")
    w.user("Add short help strings for file, section and key, and mention the exit codes in the description.")
    described = 'description="Print a value or a section of an INI file. Exit codes: 0 ok, 1 missing key, 2 bad file."'
    w.assistant(
        "",
        [
            edit("inilite/cli.py", 'argparse.ArgumentParser(prog="inilite")', f'argparse.ArgumentParser(prog="inilite", {described})'),
            edit("inilite/cli.py", 'parser.add_argument("file")', 'parser.add_argument("file", help="the INI file")'),
            edit("inilite/cli.py", 'parser.add_argument("section")', 'parser.add_argument("section", help="a section name")'),
            bash("python -m pytest -q", pytest_pass(10)),
        ],
    )
    w.assistant("Help strings and exit codes documented; tests green.")
    w.user("What's the test coverage? If coverage isn't installed, just estimate by reading the code.")
    w.assistant("", [bash("python -m coverage --version", "ERROR: /usr/bin/python: No module named coverage")])
    w.assistant(
        "coverage isn't installed (and I won't add it). Reading the code: every branch of `parse`, `_strip_comment` and "
        "the getters is exercised; untested are the CLI's section listing and the missing-key exit code 1."
    )
    w.user("Add CLI tests for those two paths.")
    cli_tests = (
        'def test_whole_section(capsys):\n    assert main(["tests/fixtures/sample.ini", "logging"]) == 0\n'
        '    assert capsys.readouterr().out == "level = info\\n"\n\n\n'
        'def test_missing_key():\n    assert main(["tests/fixtures/sample.ini", "database", "nope"]) == 1\n\n\n'
    )
    anchor = "def test_verbose_logs_to_stderr(capsys):"
    w.assistant("", [edit("tests/test_cli.py", anchor, cli_tests + anchor), bash("python -m pytest -q", pytest_pass(12))])
    w.assistant("Two CLI tests added (section listing, missing key → exit 1); 12 passed.")


def build(path: Path) -> Session:
    session = Session.create_at(path, CWD, durable=False)
    session.append_model_change(PROVIDER, MODEL)
    session.append_thinking_level_change("medium")
    w = Writer(session)
    opening(w)
    follow_ups(w)
    branch_point = middle(w)
    abandoned = verbose_with_print(w)
    summary = (
        "Tried --verbose with a module-level VERBOSE flag and print() in the parser; moved the output to stderr "
        "(needed `import sys`). Dropped it: a global flag is shared state. Nothing was committed."
    )
    session.append_branch_summary(
        branch_point["id"],
        summary,
        details={"readFiles": ["inilite/cli.py", "inilite/parser.py"], "modifiedFiles": ["inilite/cli.py", "inilite/parser.py"], "abandonedLeafId": abandoned["id"]},
        from_hook=False,
    )
    green = verbose_with_logging(w)
    session.append_label(green["id"], "verbose-green")
    closing(w)
    session.append_session_info("inilite: fix parser tests, add --verbose")
    return session


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else OUT
    out.unlink(missing_ok=True)
    with build(out) as session:
        turns = sum(1 for e in session.entries() if e["type"] == "message" and e["message"]["role"] == "user")
        print(f"wrote {out}: {len(session)} entries, {turns} user turns, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
