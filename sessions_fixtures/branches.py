"""Write ``sessions_fixtures/branches.jsonl``: a small session tree with many branches, for checkout tests.

A user fixes an INI parser and tries several approaches, going back in the tree between them::

    model_change → thinking_level_change → [start] "fix empty values" → read → result → analysis [fork]
    ├─ regex attempt: edit, pytest fails                                  [label regex-attempt]
    ├─ partition rewrite: write, pytest passes, compaction,
    │     type hints (edit config.py) [hints] → pi-style branch summary of an earlier exploration
    │     ├─ docs: write docs/usage.md                                     [label docs]
    │     └─ changelog: a user !bash, then an extension's custom_message   [label changelog]
    └─ (a second root, after a reset) an unrelated question                [label other-root]

Every entry has a fixed id (``b`` + a digest of its name) and fixed content; only the entry timestamps
come from the clock at write time, as they would from pi. Labels are written as pi writes them: a label
entry hanging from the leaf of the moment. The file ends on the ``docs`` branch.
Run: ``python sessions_fixtures/branches.py [OUT]``.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from pi_compact import Session

OUT = Path(__file__).with_name("branches.jsonl")
CWD = "/home/dev/src/inilite"
START_MS = 1_767_259_800_000  # 2026-01-01T09:30:00Z
USAGE = {"input": 900, "output": 120, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 1020,
         "cost": {"input": 0.0027, "output": 0.0018, "cacheRead": 0, "cacheWrite": 0, "total": 0.0045}}


def entry_id(name: str) -> str:
    """The fixed id of the entry called ``name`` in this fixture."""
    return "b" + hashlib.sha256(f"branches:{name}".encode()).hexdigest()[:7]


class Writer:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.clock = START_MS

    def tick(self) -> int:
        self.clock += 7_000
        return self.clock

    def at(self, name: str | None) -> None:
        self.session.move_leaf(entry_id(name) if name is not None else None)

    def user(self, name: str, text: str) -> None:
        self._message(name, {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": self.tick()})

    def assistant(self, name: str, text: str, call: tuple[str, dict] | None = None) -> None:
        content: list[dict] = [{"type": "text", "text": text}] if text else []
        if call is not None:
            content.append({"type": "toolCall", "id": f"toolu_{entry_id(name)}", "name": call[0], "arguments": call[1]})
        message = {"role": "assistant", "content": content, "api": "anthropic-messages", "provider": "anthropic",
                   "model": "claude-sonnet-4-5", "usage": USAGE, "stopReason": "toolUse" if call else "stop",
                   "timestamp": self.tick()}
        self._message(name, message)

    def result(self, name: str, of: str, tool: str, text: str, error: bool = False) -> None:
        message = {"role": "toolResult", "toolCallId": f"toolu_{entry_id(of)}", "toolName": tool,
                   "content": [{"type": "text", "text": text}], "isError": error, "timestamp": self.tick()}
        self._message(name, message)

    def label(self, name: str, target: str, text: str) -> None:
        self.session.append("label", {"targetId": entry_id(target), "label": text}, entry_id=entry_id(name))

    def _message(self, name: str, message: dict) -> None:
        self.session.append("message", {"message": message}, entry_id=entry_id(name))


PARSER = "src/inilite/parser.py"
CONFIG = "src/inilite/config.py"


def trunk(w: Writer) -> None:
    w.session.append("model_change", {"provider": "anthropic", "modelId": "claude-sonnet-4-5"}, entry_id=entry_id("model"))
    w.session.append("thinking_level_change", {"thinkingLevel": "medium"}, entry_id=entry_id("thinking"))
    w.user("start", "The parser in src/inilite/parser.py fails on empty values like `key =`. Fix it, and keep "
                    "the public API unchanged: callers use parse() and parse_file() only.")
    w.label("start-label", "start", "start")
    w.assistant("read", "Let me look at the parser.", ("read", {"path": PARSER}))
    w.result("read-result", "read", "read", "_PAIR = re.compile(r\"^(?P<key>[A-Za-z0-9_.-]+)\\s*=\\s*(?P<value>.+)$\")\n"
                                            "def parse(text: str) -> Config: ...")
    w.assistant("fork", "The value group requires at least one character (`.+`), so `key =` is a parse error. "
                        "Two ways out: make the group optional, or split each line with str.partition.")


def regex_attempt(w: Writer) -> None:
    w.at("fork")
    w.user("regex-ask", "Try the smallest change first: make the value group optional.")
    w.assistant("regex-edit", "", ("edit", {"path": PARSER, "oldText": "(?P<value>.+)", "newText": "(?P<value>.*)"}))
    w.result("regex-edit-result", "regex-edit", "edit", f"Edited {PARSER}")
    w.assistant("regex-test", "", ("bash", {"command": "python -m pytest -q"}))
    w.result("regex-test-result", "regex-test", "bash",
             "FAILED tests/test_parser.py::test_bad_line - Failed: DID NOT RAISE ParseError\n1 failed, 6 passed", True)
    w.assistant("regex-end", "Making the group optional breaks test_bad_line: `this is not ini` now parses as a key. "
                             "The regex approach needs a stricter key pattern.")
    w.label("regex-label", "regex-end", "regex-attempt")


def partition_rewrite(w: Writer) -> None:
    w.at("fork")
    w.user("part-ask", "Instead, rewrite the pair parsing with str.partition('='); no regex for pairs.")
    w.assistant("part-write", "", ("write", {"path": PARSER, "content": "def _pair(line):\n    key, sep, value = "
                                                                          "line.partition('=')\n    ..."}))
    w.result("part-write-result", "part-write", "write", f"Wrote {PARSER}")
    w.assistant("part-test", "", ("bash", {"command": "python -m pytest -q"}))
    w.result("part-test-result", "part-test", "bash", "7 passed in 0.04s")
    w.session.append("compaction", {
        "summary": "## Goal\nFix empty values in the INI parser; public API unchanged.\n\n## Progress\n### Done\n"
                   f"- [x] Rewrote pair parsing in {PARSER} with str.partition; 7 tests pass\n\n"
                   f"<read-files>\n{PARSER}\n</read-files>",
        "firstKeptEntryId": entry_id("part-ask"), "tokensBefore": 4200,
        "details": {"readFiles": [PARSER], "modifiedFiles": ["src/inilite/legacy.py"]}, "fromHook": False,
    }, entry_id=entry_id("compaction"))
    w.user("hints-ask", "Now add type hints to src/inilite/config.py.")
    w.assistant("hints-edit", "", ("edit", {"path": CONFIG, "oldText": "def get(self, section, key):",
                                            "newText": "def get(self, section: str, key: str) -> str | None:"}))
    w.result("hints-edit-result", "hints-edit", "edit", f"Edited {CONFIG}")
    w.assistant("hints", "Type hints added to Config.get, get_int and get_bool.")
    w.label("hints-label", "hints", "hints")
    # What pi 0.73.1 writes after /tree: the summary at the target, fromId = the attach point.
    w.session.append("branch_summary", {
        "fromId": entry_id("hints-label"),
        "summary": "The user explored a different conversation branch before returning here.\nSummary of that "
                   "exploration:\n\n## Goal\nTry dataclasses for Config.\n\n## Key Decisions\n- **Dropped**: "
                   "slots broke pickling\n\n<modified-files>\nsrc/inilite/dataclass_config.py\n</modified-files>",
        "details": {"readFiles": ["pyproject.toml"], "modifiedFiles": ["src/inilite/dataclass_config.py"]},
        "fromHook": False,
    }, entry_id=entry_id("pi-summary"))


def changelog(w: Writer) -> None:
    w.user("log-ask", "Add a changelog entry for the fix.")
    w.session.append("message", {"message": {"role": "bashExecution", "command": "git log --oneline -3",
                                             "output": "a1b2c3d Fix empty values\n", "exitCode": 0, "cancelled": False,
                                             "truncated": False, "timestamp": w.tick()}}, entry_id=entry_id("log-bash"))
    w.session.append("custom_message", {"customType": "reminder", "content": "CHANGELOG.md uses Keep a Changelog.",
                                        "display": True}, entry_id=entry_id("log-note"))
    w.assistant("log-write", "", ("write", {"path": "CHANGELOG.md", "content": "## Unreleased\n- Fixed empty values\n"}))
    w.result("log-write-result", "log-write", "write", "Wrote CHANGELOG.md")
    w.assistant("log-end", "Changelog updated.")
    w.label("log-label", "log-end", "changelog")


def other_root(w: Writer) -> None:
    w.at(None)
    w.user("other", "Unrelated: how do I profile a Python script?")
    w.assistant("other-end", "Run `python -m cProfile -s cumtime script.py`.")
    w.label("other-label", "other-end", "other-root")


def docs(w: Writer) -> None:
    w.at("pi-summary")
    w.user("docs-ask", "Document empty values in docs/usage.md.")
    w.assistant("docs-write", "", ("write", {"path": "docs/usage.md", "content": "`key =` gives an empty string.\n"}))
    w.result("docs-write-result", "docs-write", "write", "Wrote docs/usage.md")
    w.assistant("docs-end", "Documented.")
    w.label("docs-label", "docs-end", "docs")


def build(path: Path) -> Session:
    if path.exists():
        path.unlink()
    session = Session.create_at(path, CWD)
    w = Writer(session)
    trunk(w)
    regex_attempt(w)
    partition_rewrite(w)
    changelog(w)
    other_root(w)
    docs(w)
    return session


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else OUT
    with build(out) as session:
        print(f"wrote {out}: {len(session)} entries, leaf {session.leaf_id}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
