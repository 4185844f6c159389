"""`pi-compact session …` through the real entry point: errors, exact context JSON, escaping, and edits."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from pi_compact import Session, session_json
from pi_compact.cli import main, session_cmds
from pi_compact.cli.app import app
from pi_compact.errors import NotASessionError
from pi_compact.store import scan as scan_module
from sessions_fixtures import PI_SESSIONS
from tests.prose import prose

PROJECT = Path(__file__).resolve().parents[2]
PI_FIXTURES = list(PI_SESSIONS)
DEMO = PROJECT / "sessions_fixtures" / "demo.jsonl"
HOSTILE = "hi \x1b[31mred\x1b[0m [bold]loud[/bold] \x9b2J \x07bell"


# -- helpers -------------------------------------------------------------------------------------------------


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """The real entry point, ``python -m pi_compact``, in a fresh process; ``env`` values of None unset."""
    environ = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "COLUMNS")}
    environ.update(env or {})
    return subprocess.run([sys.executable, "-m", "pi_compact", *args], capture_output=True, env=environ, timeout=120)


def invoke(*args: str, env: dict | None = None):
    """The typer app in this process (fast); ``env`` values of None unset."""
    environ = {"FORCE_COLOR": None, "NO_COLOR": None, "COLUMNS": None, **(env or {})}
    result = CliRunner().invoke(app, list(args), env=environ)
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def sha256(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def header(session_id: str = "s-1") -> dict:
    return {"type": "session", "version": 3, "id": session_id, "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}


def user(entry_id: str, parent: str | None, text: str, second: int) -> dict:
    stamp = f"2025-01-01T00:{second // 60:02d}:{second % 60:02d}.000Z"
    message = {"role": "user", "content": text, "timestamp": 1735689600000 + second * 1000}
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": stamp, "message": message}


def write_session(path: Path, entries: list[dict], head: dict | None = None) -> Path:
    path.write_bytes(b"".join(orjson.dumps(e) + b"\n" for e in [head or header(), *entries]))
    return path


def branched(path: Path) -> Path:
    """root → a → b, with a second branch a → c → d, and two ids sharing the prefix ``abc``."""
    return write_session(
        path,
        [
            user("abc00001", None, "root", 1),
            user("abc00002", "abc00001", "first branch", 2),
            user("b0000003", "abc00002", "first branch, more", 3),
            user("c0000004", "abc00001", "second branch", 4),
            user("d0000005", "c0000004", "second branch, more", 5),
        ],
    )


def deep_chain(path: Path, depth: int) -> Path:
    """A linear chain of ``depth`` user messages, written directly (fast)."""
    ids = [f"{i:08x}" for i in range(depth)]
    entries = (user(ids[i], ids[i - 1] if i else None, f"m{i}", i % 3600) for i in range(depth))
    with open(path, "wb") as handle:
        handle.write(orjson.dumps(header()) + b"\n")
        handle.writelines(orjson.dumps(e) + b"\n" for e in entries)
    return path


# -- errors --------------------------------------------------------------------------------------------------


def _empty(tmp: Path) -> Path:
    return write_bytes(tmp / "empty.jsonl", b"")


def _no_header(tmp: Path) -> Path:
    return write_bytes(tmp / "nohdr.jsonl", orjson.dumps(user("a", None, "x", 1)) + b"\n")


def _garbage(tmp: Path) -> Path:
    return write_bytes(tmp / "garbage.jsonl", b"this is not json\n\x00\xff\n")


def _branched(tmp: Path) -> Path:
    return branched(tmp / "s.jsonl")


def _label_shadows_a_prefix(tmp: Path) -> Path:
    """The branched file, with entry abc00001 labelled ``c000``: also the unique prefix of c0000004."""
    path = _branched(tmp)
    label = {"type": "label", "id": "f0000006", "parentId": "d0000005", "timestamp": "2025-01-01T00:00:06.000Z",
             "targetId": "abc00001", "label": "c000"}
    with path.open("ab") as handle:
        handle.write(orjson.dumps(label) + b"\n")
    return path


def _entry_named_root(tmp: Path) -> Path:
    return write_session(tmp / "root.jsonl", [user("root", None, "an entry whose id is the keyword", 1)])


def write_bytes(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


ERROR_CASES = [
    ("show-missing-file", lambda t: t / "nope.jsonl", ["show", "{f}"]),
    ("show-directory", lambda t: t, ["show", "{f}"]),
    ("show-empty-file", _empty, ["show", "{f}"]),
    ("show-no-header", _no_header, ["show", "{f}"]),
    ("tree-garbage", _garbage, ["tree", "{f}"]),
    ("tree-json-empty", _empty, ["tree", "{f}", "--json"]),
    ("context-json-missing", lambda t: t / "nope.jsonl", ["context", "{f}", "--json"]),
    ("context-json-directory", lambda t: t, ["context", "{f}", "--json"]),
    ("context-unknown-leaf", _branched, ["context", "{f}", "--leaf", "zzz", "--json"]),
    ("context-ambiguous-leaf", _branched, ["context", "{f}", "--leaf", "abc"]),
    ("info-no-header", _no_header, ["info", "{f}"]),
    ("label-unknown-entry", _branched, ["label", "{f}", "zzz", "x"]),
    ("label-ambiguous-prefix", _branched, ["label", "{f}", "abc", "x"]),
    ("label-no-text", _branched, ["label", "{f}", "abc00001"]),
    ("label-text-and-clear", _branched, ["label", "{f}", "abc00001", "x", "--clear"]),
    ("label-empty-file", _empty, ["label", "{f}", "abc", "x"]),
    ("name-empty-file", _empty, ["name", "{f}", "x"]),
    ("name-garbage", _garbage, ["name", "{f}", "x"]),
    ("fork-unknown-entry", _branched, ["fork", "{f}", "zzz"]),
    ("fork-ambiguous-prefix", _branched, ["fork", "{f}", "abc"]),
    ("fork-root", _branched, ["fork", "{f}", "root"]),
    ("fork-output-exists", _branched, ["fork", "{f}", "abc00001", "-o", "{f}"]),
    ("context-label-shadows-a-prefix", _label_shadows_a_prefix, ["context", "{f}", "--leaf", "c000"]),
    ("label-label-shadows-a-prefix", _label_shadows_a_prefix, ["label", "{f}", "c000", "x"]),
    ("fork-entry-named-root", _entry_named_root, ["fork", "{f}", "root"]),
    ("list-a-file", _branched, ["list", "{f}"]),
    ("list-dir-and-all", lambda t: t, ["list", "{f}", "--all"]),
]


@pytest.mark.parametrize("make, args", [case[1:] for case in ERROR_CASES], ids=[case[0] for case in ERROR_CASES])
def test_error_is_one_line_exit_2_and_file_unchanged(tmp_path, make, args):
    target = make(tmp_path)
    before = sha256(target)
    listing = sorted(p.name for p in tmp_path.iterdir())
    done = run("session", *(a.format(f=target) for a in args))
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert stderr.startswith("pi-compact: error: ") and stderr.count("\n") == 1, stderr
    assert "Traceback" not in stderr
    assert done.stdout == b""
    assert sha256(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == listing  # no fork or backup file appeared


def test_typer_usage_errors_exit_2():
    for args in (["session", "show"], ["session", "bogus"], ["session", "show", "a", "--nope"]):
        done = run(*args)
        assert done.returncode == 2
        assert b"Traceback" not in done.stderr


def test_interrupt_is_one_line_exit_2(tmp_path, monkeypatch, capsys):
    def interrupted(path):
        raise KeyboardInterrupt

    monkeypatch.setattr(Session, "open", interrupted)
    with pytest.raises(SystemExit) as exit_info:
        main(["session", "tree", str(branched(tmp_path / "s.jsonl"))])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == "pi-compact: error: interrupted\n"


# -- context --json is pi's object, and nothing else -----------------------------------------------------------


@pytest.mark.parametrize("path", [*PI_FIXTURES, DEMO], ids=lambda p: p.name)
def test_context_json_equals_library(path):
    before = sha256(path)
    done = run("session", "context", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert orjson.loads(done.stdout) == Session.open(path).build_context().to_json()
    assert sha256(path) == before


@pytest.mark.parametrize("leaf, expected_leaf", [("b0000003", "b0000003"), ("c00", "c0000004"), ("root", None)], ids=["id", "prefix", "root"])
def test_context_json_at_another_leaf(tmp_path, leaf, expected_leaf):
    path = branched(tmp_path / "s.jsonl")
    done = run("session", "context", str(path), "--leaf", leaf, "--json")
    assert done.returncode == 0, done.stderr
    assert orjson.loads(done.stdout) == Session.open(path).build_context(expected_leaf).to_json()
    if expected_leaf is None:
        assert orjson.loads(done.stdout) == {"messages": [], "thinkingLevel": "off", "model": None}


def test_context_json_at_a_label(tmp_path):
    path = branched(tmp_path / "s.jsonl")
    invoke("session", "label", str(path), "b0000003", "here")
    done = run("session", "context", str(path), "--leaf", "here", "--json")
    assert orjson.loads(done.stdout) == Session.open(path).build_context("b0000003").to_json()


def test_context_for_people():
    out = invoke("session", "context", str(DEMO), env={"COLUMNS": "200"}).output
    assert out.startswith("178 messages · model anthropic/claude-sonnet-4-5 · thinking medium")
    assert "branch summary · from" in out and "╭" in out  # the summary is boxed
    assert "→ read(inilite/parser.py)" in out and "(thinking)" in out
    assert "more lines)" in out  # long tool results are shortened


def test_problems_go_to_stderr_and_json_stays_clean(tmp_path):
    path = branched(tmp_path / "s.jsonl")
    with open(path, "ab") as handle:
        handle.write(b"not json\n")
    done = run("session", "context", str(path), "--json")
    assert done.returncode == 0
    assert orjson.loads(done.stdout) == Session.open(path).build_context().to_json()
    assert b"warning: line 7: not valid JSON" in done.stderr


# -- show, tree, info, list ------------------------------------------------------------------------------------


def test_show_demo_marks_leaf_labels_and_summaries():
    out = invoke("session", "show", str(DEMO)).output
    session = Session.open(DEMO)
    assert session.id in out and session.name in out
    assert "◀ leaf" in out and "[verbose-green]" in out
    assert "◈" in out and "branch_summary" in out
    assert "├─" in out and "└─" in out


def test_show_v1_fixture_says_migrated():
    out = invoke("session", "show", str(PI_FIXTURES[0])).output
    assert "migrated in memory from v1" in out
    assert "▣" in out  # compaction entries are marked


def test_show_json(tmp_path):
    data = orjson.loads(invoke("session", "show", str(DEMO), "--json").stdout)
    session = Session.open(DEMO)
    assert set(data) >= {"header", "name", "leafId", "counts", "problems", "tree"}
    assert data["header"] == session.header and data["leafId"] == session.leaf_id and data["name"] == session.name
    assert data["counts"]["entries"] == len(session)
    assert data["counts"]["roles"]["user"] == 40
    assert _count_nodes(data["tree"]) == len(session)


def _count_nodes(roots: list) -> int:
    count, stack = 0, list(roots)
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node["children"])
    return count


def test_tree_draws_linear_runs_flat_and_indents_at_branch_points(tmp_path):
    path = branched(tmp_path / "s.jsonl")
    lines = invoke("session", "tree", str(path)).output.splitlines()
    assert [line.split()[0:2] for line in lines] == [
        ["•", "abc00001"],
        ["├─", "·"],
        ["│", "·"],
        ["└─", "•"],
        ["•", "d0000005"],
    ]
    assert lines[2].startswith("│  ") and lines[4].startswith("   ")
    assert "◀ leaf" in lines[4]


def test_tree_json_nodes(tmp_path):
    path = branched(tmp_path / "s.jsonl")
    invoke("session", "label", str(path), "c0000004", "second")
    roots = orjson.loads(invoke("session", "tree", str(path), "--json").stdout)
    root = roots[0]
    assert list(root) == ["id", "parentId", "type", "role", "timestamp", "children"]
    assert [child["id"] for child in root["children"]] == ["abc00002", "c0000004"]
    second = root["children"][1]
    assert second["label"] == "second" and second["role"] == "user" and second["parentId"] == "abc00001"
    assert len(roots) == 1
    last = second["children"][0]
    assert last["id"] == "d0000005" and [c["type"] for c in last["children"]] == ["label"]  # pi hangs it off the leaf


def test_tree_json_on_a_100k_deep_chain(tmp_path):
    path = deep_chain(tmp_path / "deep.jsonl", 100_000)
    done = invoke("session", "tree", str(path), "--json")
    assert done.stdout_bytes.count(b'"children":[') == 100_000
    out = done.stdout_bytes
    assert out.rstrip().endswith(b"]}" * 99_999 + b"]}]")
    assert orjson.loads(out[1 : out.index(b',"children"')] + b"}")["id"] == "00000000"


def test_show_on_a_deep_chain_stays_flat(tmp_path):
    path = deep_chain(tmp_path / "deep.jsonl", 5_000)
    out = invoke("session", "show", str(path)).output
    tree_lines = [line for line in out.splitlines() if line.startswith("• ")]
    assert len(tree_lines) == 5_000


def _every_kind(path: Path) -> Path:
    """Every entry type and message role the tree draws, wide and joined characters, a shadowed duplicate."""

    def entry(kind: str, entry_id: str, parent: str | None, second: int, **fields) -> dict:
        when = f"2025-01-01T00:00:{second:02d}.000Z"
        return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": when, **fields}

    def message(entry_id: str, parent: str, second: int, **fields) -> dict:
        return entry("message", entry_id, parent, second, message={"timestamp": second, **fields})

    call = {"type": "toolCall", "id": "c1", "name": "edit", "arguments": {"path": "a.py", "old": "x", "new": "y"}}
    thinking = {"type": "thinking", "thinking": "hm"}
    failed = [{"type": "text", "text": "no\tway\x1b[2J"}]
    return write_session(
        path,
        [
            entry("model_change", "e0000001", None, 1, provider="anthropic", modelId="claude"),
            entry("thinking_level_change", "e0000002", "e0000001", 2, thinkingLevel="high"),
            message("e0000003", "e0000002", 3, role="user", content="日本語 😀 👩\u200d💻 → " + prose(30)),
            message("e0000004", "e0000003", 4, role="assistant", content=[thinking, call]),
            message("e0000005", "e0000004", 5, role="toolResult", toolName="edit", isError=True, content=failed),
            message("e0000006", "e0000005", 6, role="bashExecution", command="ls", exitCode=2, output="x"),
            message("e0000007", "e0000006", 7, role="custom", customType="x", content="shadowed, its role's only one"),
            message("e0000007", "e0000006", 8, role="user", content="the duplicate that wins"),
            entry("compaction", "e0000008", "e0000007", 9, summary=prose(50), firstKeptEntryId="e0000006"),
            entry("branch_summary", "e0000009", "e0000003", 10, fromId="e0000003", summary="the abandoned branch"),
            entry("custom", "e0000010", "e0000008", 11, customType="ext", data={}),
            entry("custom_message", "e0000011", "e0000010", 12, customType="note", content="a note", display=True),
            entry("session_info", "e0000012", "e0000011", 13, name="named"),
            entry("label", "e0000013", "e0000012", 14, targetId="e0000004", label="mark ✓"),
        ],
    )


@pytest.mark.parametrize("command", [["show"], ["tree"], ["show", "--json"], ["tree", "--json"]], ids=" ".join)
@pytest.mark.parametrize("colour", [False, True], ids=["plain", "colour"])
def test_show_and_tree_print_the_same_for_a_file_read_lazily(tmp_path, monkeypatch, command, colour):
    env = {"FORCE_COLOR": "1", "TERM": "xterm-256color", "COLUMNS": "90"} if colour else {"COLUMNS": "70"}
    for path in (DEMO, _every_kind(tmp_path / "every.jsonl")):
        eager = invoke("session", *command, str(path), env=env)
        monkeypatch.setattr(scan_module, "EAGER_PARSE_BYTES", 0)
        lazy = invoke("session", *command, str(path), env=env)
        monkeypatch.undo()
        assert lazy.stdout_bytes == eager.stdout_bytes and lazy.stderr_bytes == eager.stderr_bytes


def test_show_counts_every_line_as_entries_lists_them(tmp_path):
    path = _every_kind(tmp_path / "every.jsonl")
    counts = orjson.loads(invoke("session", "show", str(path), "--json").stdout)["counts"]
    entries = Session.open(path).entries()
    assert counts["entries"] == len(entries) == 14
    assert list(counts["types"].items()) == list(Counter(str(e["type"]) for e in entries).items())
    roles = [("user", 2), ("assistant", 1), ("toolResult", 1), ("bashExecution", 1), ("custom", 1)]
    assert list(counts["roles"].items()) == roles, "the shadowed duplicate is counted, in file order"
    out = invoke("session", "show", str(path)).output
    assert "14 entries: 6 message, 1 model_change" in out
    assert "messages: 2 user, 1 assistant, 1 toolResult, 1 bashExecution, 1 custom\n" in out


@pytest.mark.parametrize("command", [["show"], ["tree"], ["show", "--json"], ["tree", "--json"]], ids=" ".join)
def test_show_and_tree_keep_no_entry_parsed(tmp_path, monkeypatch, command):
    monkeypatch.setattr(scan_module, "EAGER_PARSE_BYTES", 0)
    opened: list[Session] = []

    def open_and_keep(path: Path) -> Session:
        opened.append(Session.open(path))
        return opened[-1]

    monkeypatch.setattr(session_cmds, "_open", open_and_keep)
    read_only = session_json._read_only  # show reads the file in pieces: the session it answers from
    monkeypatch.setattr(session_json, "_read_only", lambda streamed: opened.append(read_only(streamed)) or opened[-1])
    invoke("session", *command, str(_every_kind(tmp_path / "every.jsonl")))
    parsed = {slot.type for slot in opened[0]._index.slots if slot.entry is not None}
    assert parsed <= {"label", "session_info", "branch_summary"}, "read at open, or for the branch summary legend"


def test_info_json(tmp_path):
    for path in (*PI_FIXTURES, DEMO):
        data = orjson.loads(invoke("session", "info", str(path), "--json").stdout)
        session = Session.open(path)
        assert data["id"] == session.id and data["entryCount"] == len(session)
        assert data["fileSize"] == path.stat().st_size and data["version"] == session.version
        assert data["leafId"] == session.leaf_id or session.version < 3  # v1 ids are made up at each open
        assert data["messageCount"] > 0 and data["firstMessage"]


def test_list_dir_all_and_default(tmp_path):
    project = tmp_path / "agent" / "sessions" / "--p--"
    project.mkdir(parents=True)
    older = write_session(project / "a.jsonl", [user("a0000001", None, "older", 1)], header("s-a"))
    newer = write_session(project / "b.jsonl", [user("b0000001", None, "newer", 2)], header("s-b"))
    (project / "junk.jsonl").write_bytes(b"junk\n")
    rows = orjson.loads(invoke("session", "list", str(project), "--json").stdout)
    assert [row["path"] for row in rows] == [str(newer), str(older)]
    assert rows[0]["firstMessage"] == "newer" and rows[0]["messageCount"] == 1
    everything = invoke("session", "list", "--all", "--json", env={"PI_CODING_AGENT_DIR": str(tmp_path / "agent")})
    assert orjson.loads(everything.stdout) == rows
    default = invoke("session", "list", env={"PI_CODING_AGENT_SESSION_DIR": str(project)}).output
    assert "newer" in default and "older" in default


# -- escaping session-controlled text --------------------------------------------------------------------------


def _hostile(tmp_path: Path) -> Path:
    return write_session(tmp_path / "hostile.jsonl", [user("e0000001", None, HOSTILE, 1)], {**header(), "cwd": "/p\x1b]0;title\x07"})


@pytest.mark.parametrize("command", ["show", "tree", "context", "info"])
@pytest.mark.parametrize("colour", [False, True], ids=["plain", "colour"])
def test_session_text_is_shown_escaped(tmp_path, command, colour):
    path = _hostile(tmp_path)
    invoke("session", "label", str(path), "e0000001", "[red]lbl\x1b[2J")
    env = {"FORCE_COLOR": "1", "TERM": "xterm-256color"} if colour else {"NO_COLOR": "1"}
    out = invoke("session", command, str(path), env={**env, "COLUMNS": "200"}).output
    for raw in ("\x1b[31m", "\x1b[2J", "\x1b]0;", "\x9b", "\x07"):
        assert raw not in out
    if command != "info":
        assert "␛[31mred" in out and "[bold]loud[/bold]" in out and "\\x9b2J" in out
    if colour is False:
        assert "\x1b" not in out
    if command in ("show", "tree"):
        assert "[red]lbl␛[2J" in out


@pytest.mark.parametrize("command", ["show", "info"])
def test_a_newline_in_the_header_cannot_fake_rows(tmp_path, command):
    path = write_session(tmp_path / "s.jsonl", [user("e0000001", None, "hi", 1)],
                         {**header(), "cwd": "/p\nname      faked\nleaf      faked"})
    out = invoke("session", command, str(path), env={"NO_COLOR": "1", "COLUMNS": "200"}).output
    rows = out.splitlines()
    assert not [row for row in rows if "faked" in row and not row.startswith("cwd")], out
    assert "/p␊name      faked␊leaf      faked" in out


# -- JSON: one writer, pi's numbers, no raw C1 controls on a terminal -------------------------------------------


def test_json_numbers_are_written_as_javascript_writes_them(tmp_path):
    usage = {"input": 1.0, "output": 2.5, "cacheRead": 1e-6, "cacheWrite": 1e21, "totalTokens": 3,
             "cost": {"input": 0.1 + 0.2, "output": 5e-7, "cacheRead": -0.0, "cacheWrite": 1e-5, "total": 100.0}}
    reply = {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "usage": usage,
             "stopReason": "stop", "timestamp": 1735689600000}
    entry = {"type": "message", "id": "e0000002", "parentId": "e0000001",
             "timestamp": "2025-01-01T00:00:02.000Z", "message": reply}
    path = write_session(tmp_path / "s.jsonl", [user("e0000001", None, "hi", 1), entry])
    out = invoke("session", "context", str(path), "--json").stdout_bytes
    assert (b'"usage":{"input":1,"output":2.5,"cacheRead":0.000001,"cacheWrite":1e+21,"totalTokens":3,'
            b'"cost":{"input":0.30000000000000004,"output":5e-7,"cacheRead":0,"cacheWrite":0.00001,"total":100}}') in out


def test_every_json_output_goes_through_the_one_writer():
    cli = PROJECT / "pi_compact" / "cli"
    writers = {path.name for path in cli.glob("*.py") if re.search(r"orjson\.dumps|json\.dumps\(.*\)\s*$|\.buffer\.write",
                                                                    path.read_text(), flags=re.M)}
    assert writers <= {"output.py", "render.py"}, writers  # render.py: one-line previews, not JSON output


def _on_a_terminal(*args: str) -> bytes:
    """stdout of ``pi-compact ARGS`` when it is a terminal (a pseudo-terminal here)."""
    import pty

    leader, follower = pty.openpty()
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "OPENAI_"))}
    with subprocess.Popen([sys.executable, "-m", "pi_compact", *args], stdout=follower, stderr=subprocess.PIPE,
                          env=environ) as child:
        os.close(follower)
        out = bytearray()
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
        assert child.wait(timeout=120) == 0, child.stderr.read()
    os.close(leader)
    return bytes(out)


def _c1_session(tmp_path: Path) -> Path:
    """Two branches whose entries hold a one-byte CSI (U+009B) in text and in the path a tool read."""
    call = {"type": "toolCall", "id": "t1", "name": "read", "arguments": {"path": "src/\x9b2J.py"}}
    entries = [
        user("e0000001", None, "start \x9b2J " + prose(400), 1),
        {"type": "message", "id": "e0000002", "parentId": "e0000001", "timestamp": "2025-01-01T00:00:02.000Z",
         "message": {"role": "assistant", "content": [call], "stopReason": "toolUse", "timestamp": 1}},
        {"type": "message", "id": "e0000003", "parentId": "e0000002", "timestamp": "2025-01-01T00:00:03.000Z",
         "message": {"role": "toolResult", "toolCallId": "t1", "toolName": "read", "isError": False,
                     "content": [{"type": "text", "text": "\x9b2J " * 2000}], "timestamp": 1}},
        user("e0000005", "e0000001", "other branch \x9b2J", 5),
        user("e0000004", "e0000003", "more \x9b2J " + prose(400), 4),
    ]
    return write_session(tmp_path / "c1.jsonl", entries)


@pytest.mark.parametrize(
    "args",
    [
        ["session", "diff", "{f}", "e0000004", "e0000005", "--json"],
        ["session", "checkout", "{f}", "e0000005", "--json"],
        ["session", "compact", "{f}", "--keep-recent", "10", "--json"],
        ["session", "context", "{f}", "--json"],
        ["session", "show", "{f}", "--json"],
    ],
    ids=lambda a: a[1],
)
def test_json_on_a_terminal_escapes_c1_controls(tmp_path, args):
    path = _c1_session(tmp_path)
    out = _on_a_terminal(*(a.format(f=path) for a in args))
    assert "\x9b".encode() not in out
    assert b"\\u009b" in out or args[1] == "show"  # the tree holds ids and types, no text


# -- editing ---------------------------------------------------------------------------------------------------


def _copy_demo(tmp_path: Path) -> Path:
    target = tmp_path / "demo.jsonl"
    shutil.copyfile(DEMO, target)
    return target


def test_label_and_clear_append_one_line_each(tmp_path):
    path = _copy_demo(tmp_path)
    target = Session.open(path).entries()[5]["id"]
    before = path.read_bytes()
    assert target in invoke("session", "label", str(path), target[:6], "look here").output
    after = path.read_bytes()
    assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1
    assert Session.open(path).labels[target] == "look here"
    invoke("session", "label", str(path), "look here", "--clear")
    assert target not in Session.open(path).labels
    assert path.read_bytes().startswith(after)


def test_name_appends_session_info(tmp_path):
    path = _copy_demo(tmp_path)
    before = path.read_bytes()
    invoke("session", "name", str(path), "  a new name ")
    assert Session.open(path).name == "a new name"
    assert path.read_bytes().startswith(before)
    invoke("session", "name", str(path), "")
    assert Session.open(path).name is None


def test_fork_to_output_and_next_to_source(tmp_path):
    path = _copy_demo(tmp_path)
    source = Session.open(path)
    target = source.resolve("verbose-green")
    expected = [e["id"] for e in source.branch(target) if e["type"] != "label"]
    out = tmp_path / "out" / "fork.jsonl"
    assert invoke("session", "fork", str(path), "verbose-green", "-o", str(out)).output.strip() == str(out)
    forked = Session.open(out)
    assert forked.header["parentSession"] == str(path)
    assert [e["id"] for e in forked.entries() if e["type"] != "label"] == expected
    assert forked.labels == {target: "verbose-green"}
    beside = Path(invoke("session", "fork", str(path), target[:8]).output.strip())
    assert beside.parent == tmp_path and beside.is_file() and beside != path
    assert sha256(path) == hashlib.sha256(DEMO.read_bytes()).hexdigest()


# -- the entry point itself ------------------------------------------------------------------------------------


def test_help_and_module_entry_point_import_nothing_heavy():
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "pi_compact", "--help"], capture_output=True)
    assert done.returncode == 0 and b"session" in done.stdout
    imported = {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines() if "|" in line}
    assert not {name for name in imported if name.split(".")[0] in ("anthropic", "openai", "rich")}
    # The session group is built on first use: its modules, and the store under them, are not loaded.
    assert not imported & {"pi_compact.session", "pi_compact.cli.session_cmds", "pi_compact.cli.compact_cmds"}


@pytest.mark.parametrize("args", [["--help"], []], ids=["help", "no-arguments"])
def test_the_root_help_lists_every_command_with_its_help(args):
    done = subprocess.run([sys.executable, "-m", "pi_compact", *args], capture_output=True, text=True)
    listing = (done.stdout + done.stderr).split("Commands:")[1]
    rows = {line.split()[0]: line.split(None, 1)[1] for line in listing.strip().splitlines()}
    assert list(rows) == ["chat", "replay", "import", "extension", "session"]
    assert rows["session"] == "Inspect and edit one session file (or list a folder of them)."


def test_the_session_group_lists_all_its_commands():
    done = subprocess.run([sys.executable, "-m", "pi_compact", "session", "--help"], capture_output=True, text=True)
    listing = done.stdout.split("Commands:")[1]
    names = {line.split()[0] for line in listing.splitlines() if line.startswith("  ") and line.split()}
    expected = {"show", "tree", "context", "info", "list", "label", "name", "fork", "checkout", "diff", "compact", "doctor"}
    assert done.returncode == 0 and expected <= names


# -- show's tree, read in pieces with previews of the start only, is the straightforward drawing ---------------


def _straightforward_tree(path: Path, *, colour: bool, width: int) -> str:
    """The tree ``session show`` draws, the plain way: the whole file opened, every entry parsed and kept, each
    whole preview made one line, the pieces of every line painted and the lines printed one by one."""
    import io
    from types import SimpleNamespace

    from pi_compact.cli import render
    from pi_compact.compaction.tokens import estimate_tokens

    session = Session.open(path)
    on_path = frozenset(session.path_ids())

    def look(entry: dict) -> render.EntryLook:
        return render.EntryLook(str(entry.get("id")), str(entry.get("type")), render.entry_kind(entry),
                                render.one_line(render.entry_preview(entry), render.PREVIEW_CHARS),
                                session_json.entry_tokens(estimate_tokens)(entry))

    def drawable(root) -> SimpleNamespace:  # children first, with a stack: a chain is as deep as the file is long
        made: dict[int, SimpleNamespace] = {}
        stack = [(root, False)]
        while stack:
            tree_node, ready = stack.pop()
            if ready:
                made[id(tree_node)] = SimpleNamespace(
                    id=tree_node.id, digest=look(tree_node.entry), label=tree_node.label,
                    children=[made[id(child)] for child in tree_node.children])
            else:
                stack.append((tree_node, True))
                stack.extend((child, False) for child in tree_node.children)
        return made[id(root)]

    out = io.StringIO()
    console = render._Console(file=out, width=width, color_system="256" if colour else None, force_terminal=colour,
                              highlight=False, markup=False, emoji=False)
    painter = render._Painter(console)
    roots = [drawable(root) for root in session.tree()]
    for line in render.tree_lines(roots, render.TreeStyle(session.leaf_id, on_path), width):
        out.write(painter.paint(line).rstrip(" ") + "\n")
    return out.getvalue() or painter.paint([("(no entries)", "dim")]) + "\n"


def _opens(path: Path) -> bool:
    """A damaged file that is no session at all is refused before anything is drawn (tested above)."""
    try:
        Session.open(path).close()
    except NotASessionError:
        return False
    return True


def _sessions_to_draw() -> list[Path]:
    corpus = sorted((PROJECT / "tests" / "reliability" / "corpus").glob("*.jsonl"))
    return [*PI_FIXTURES, DEMO, PROJECT / "sessions_fixtures" / "branches.jsonl", *filter(_opens, corpus)]


@pytest.mark.parametrize("path", _sessions_to_draw(), ids=lambda p: p.name)
@pytest.mark.parametrize("colour", [False, True], ids=["plain", "colour"])
def test_show_draws_the_tree_the_straightforward_way_draws(tmp_path, monkeypatch, path, colour):
    expected = _straightforward_tree(path, colour=colour, width=90)
    env = {"FORCE_COLOR": "1", "TERM": "xterm-256color", "COLUMNS": "90"} if colour else {"COLUMNS": "90"}
    for piece_bytes in (8 * 1024 * 1024, 512):  # pieces of a few lines each, as a big file is read
        monkeypatch.setattr("pi_compact.store.stream.PIECE_BYTES", piece_bytes)
        out = invoke("session", "show", str(path), env=env).stdout
        assert out.split("\n\n", 1)[1] == expected


def test_show_draws_every_kind_the_straightforward_way(tmp_path):
    path = _every_kind(tmp_path / "every.jsonl")
    out = invoke("session", "show", str(path), env={"COLUMNS": "120"}).stdout
    assert out.split("\n\n", 1)[1] == _straightforward_tree(path, colour=False, width=120)


@pytest.mark.parametrize("command", ["show", "tree"])
def test_a_label_that_is_no_string_is_drawn_as_json(tmp_path, command):
    path = write_session(tmp_path / "s.jsonl", [user("abc00001", None, "hi", 1)])
    label = {"type": "label", "id": "f0000002", "parentId": "abc00001", "timestamp": "2025-01-01T00:00:02.000Z",
             "targetId": "abc00001", "label": {"a": [1, "b"]}}
    with path.open("ab") as handle:
        handle.write(orjson.dumps(label) + b"\n")
    assert '[{"a": [1, "b"]}]' in invoke("session", command, str(path)).stdout


# -- show's token estimate cache -----------------------------------------------------------------------------


def _cache_env(folder: Path, **more: str) -> dict:
    return {"PI_COMPACT_CACHE_DIR": str(folder), "COLUMNS": "120", **more}


def _node_tokens(document: bytes) -> dict[str, int | None]:
    """Each node's ``tokens`` in a ``show --json`` document, by id."""
    found, stack = {}, orjson.loads(document)["tree"]
    while stack:
        node = stack.pop()
        found[node["id"]] = node.get("tokens")
        stack.extend(node["children"])
    return found


@pytest.mark.parametrize("path", [*PI_FIXTURES, DEMO], ids=lambda p: p.name)
@pytest.mark.parametrize("command", [["show"], ["show", "--json"]], ids=" ".join)
def test_show_prints_the_same_cold_warm_and_without_the_cache(tmp_path, path, command):
    folder = tmp_path / "cache"
    cold = invoke("session", *command, str(path), env=_cache_env(folder)).stdout
    migrated = orjson.loads(path.read_bytes().split(b"\n", 1)[0]).get("version", 1) < 3
    assert len(list(folder.glob("*.est"))) == (0 if migrated else 1)  # a migrated file's lines are not its entries
    warm = invoke("session", *command, str(path), env=_cache_env(folder)).stdout
    off = invoke("session", *command, str(path), "--no-cache", env=_cache_env(tmp_path / "unused")).stdout
    empty = invoke("session", *command, str(path), env=_cache_env(tmp_path / "x", PI_COMPACT_CACHE_DIR="")).stdout
    assert warm == cold == off == empty
    assert not (tmp_path / "unused").exists()


def test_show_reads_the_cache_instead_of_estimating(tmp_path, monkeypatch):
    from pi_compact.compaction import tokens

    estimated = []
    real = tokens.estimate_tokens

    def counting(message):
        estimated.append(message)
        return real(message)

    folder = tmp_path / "cache"
    invoke("session", "show", "--json", str(DEMO), env=_cache_env(folder))
    monkeypatch.setattr(tokens, "estimate_tokens", counting)
    warm = invoke("session", "show", "--json", str(DEMO), env=_cache_env(folder)).stdout
    assert estimated == []
    assert warm == invoke("session", "show", "--json", str(DEMO), "--no-cache", env=_cache_env(folder)).stdout
    assert estimated  # without the cache, every message is estimated


def test_show_estimates_an_edited_line_again(tmp_path):
    from pi_compact.compaction.tokens import estimate_tokens

    folder = tmp_path / "cache"
    entries = [user(f"u000000{n}", f"u000000{n - 1}" if n else None, f"message number {n}", n) for n in range(5)]
    path = write_session(tmp_path / "s.jsonl", entries)
    before = _node_tokens(invoke("session", "show", "--json", str(path), env=_cache_env(folder)).stdout_bytes)
    entries[2] = user("u0000002", "u0000001", "an edited message, much longer than it was " * 30, 2)
    write_session(path, entries)  # rewritten, as a repair or a migration rewrites a file
    after = _node_tokens(invoke("session", "show", "--json", str(path), env=_cache_env(folder)).stdout_bytes)
    assert after["u0000002"] == estimate_tokens(entries[2]["message"]) != before["u0000002"]
    assert {k: v for k, v in after.items() if k != "u0000002"} == {k: v for k, v in before.items() if k != "u0000002"}
    human = invoke("session", "show", str(path), env=_cache_env(folder)).stdout
    assert human == invoke("session", "show", str(path), "--no-cache", env=_cache_env(folder)).stdout


@pytest.mark.parametrize("damage", [lambda data: data[: len(data) // 2], lambda data: data[:-1] + b"\xff",
                                    lambda data: b"\0" * len(data)], ids=["truncated", "flipped", "zeroed"])
def test_show_ignores_and_replaces_a_damaged_cache(tmp_path, damage):
    folder = tmp_path / "cache"
    expected = invoke("session", "show", str(DEMO), env=_cache_env(folder)).stdout
    (file,) = folder.glob("*.est")
    sound = file.read_bytes()
    file.write_bytes(damage(sound))
    done = run("session", "show", str(DEMO), env=_cache_env(folder))
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.decode() == expected
    assert file.read_bytes() == sound  # replaced by the same figures


def test_show_with_a_cache_folder_it_cannot_write_shows_with_one_warning(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = run("session", "show", str(DEMO), env=_cache_env(blocker / "cache"))
    expected = run("session", "show", str(DEMO), "--no-cache", env=_cache_env(tmp_path / "unused"))
    assert done.returncode == 0 and done.stdout == expected.stdout
    said = done.stderr.decode()
    assert said.startswith("warning: ") and said.count("warning") == 1  # one warning (rich wraps it to the width)
    assert "PI_COMPACT_CACHE_DIR" in said and "Traceback" not in said


def test_show_keeps_no_figures_of_another_estimator(tmp_path, monkeypatch):
    from pi_compact.cli import render

    monkeypatch.setattr(render, "token_estimator", lambda: lambda message: 0)  # the benchmark's "no estimate" row
    folder = tmp_path / "cache"
    out = invoke("session", "show", str(DEMO), env=_cache_env(folder)).stdout
    assert " ~0 " in out and not folder.exists()


def test_show_help_names_the_cache_and_how_to_turn_it_off():
    out = invoke("session", "show", "--help", env={"COLUMNS": "200"}).stdout
    assert "--no-cache" in out and "PI_COMPACT_CACHE_DIR" in out and "~/.cache/pi-compact" in out
