"""The agent's tools on a temporary project: pi's arguments, limits and error texts, results as pi stores them."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from pi_compact.agent.shell import MAX_BYTES, MAX_LINES, bash_execution_message, run_bash, truncate_head, truncate_tail
from pi_compact.agent.tools import SPECS, Toolbox
from pi_compact.compaction.serialize import bash_execution_text


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("def main():\n    print('hello')\n\nmain()\n")
    (root / "README.md").write_text("# Demo\nhello world\n")
    (root / ".env").write_text("X=1\n")
    return root


def call(box: Toolbox, name: str, **arguments) -> dict:
    result, cancelled = box.run({"type": "toolCall", "id": "call_1", "name": name, "arguments": arguments})
    assert not cancelled
    return result


def text(result: dict) -> str:
    return result["content"][0]["text"]


# -- results -------------------------------------------------------------------------------------------------


def test_a_result_is_a_pi_tool_result_with_its_keys_in_pis_order(project: Path) -> None:
    result = call(Toolbox(str(project)), "edit", path="src/app.py", oldText="hello", newText="bye")
    assert list(result) == ["role", "toolCallId", "toolName", "content", "details", "isError", "timestamp"]
    assert (result["role"], result["toolCallId"], result["toolName"], result["isError"]) == (
        "toolResult", "call_1", "edit", False)
    plain = call(Toolbox(str(project)), "ls")
    assert "details" not in plain and isinstance(plain["timestamp"], int)


def test_every_tool_has_a_json_schema_the_providers_accept() -> None:
    assert [s.name for s in SPECS] == ["read", "write", "edit", "bash", "ls", "grep"]
    for spec in SPECS:
        assert spec.parameters["type"] == "object"
        assert set(spec.parameters["required"]) <= set(spec.parameters["properties"])


@pytest.mark.parametrize(
    ("name", "arguments", "error"),
    [
        ("nope", {}, "Tool nope not found"),
        ("read", {}, "Missing required argument 'path'"),
        ("read", {"path": "missing.txt"}, "FileNotFoundError"),
        ("read", {"path": "README.md", "offset": "x"}, "'offset' must be an integer"),
        ("write", {"path": "a.txt"}, "Missing required argument 'content'"),
        ("edit", {"path": "README.md", "oldText": "", "newText": "x"}, "must not be empty"),
        ("edit", {"path": "nope.md", "oldText": "a", "newText": "b"}, "File not found: nope.md"),
        ("bash", {"command": "  "}, "Missing required argument 'command'"),
        ("ls", {"path": "README.md"}, "Not a directory"),
        ("grep", {"pattern": "("}, "error"),
    ],
    ids=["unknown-tool", "read-no-path", "read-missing", "read-bad-offset", "write-no-content", "edit-empty-old",
         "edit-missing-file", "bash-blank", "ls-file", "grep-bad-regex"],
)
def test_a_failing_tool_is_an_error_result_not_an_exception(project: Path, name, arguments, error) -> None:
    result = call(Toolbox(str(project)), name, **arguments)
    assert result["isError"] is True
    assert error in text(result)


# -- read ------------------------------------------------------------------------------------------------------


def test_read_returns_the_file(project: Path) -> None:
    assert text(call(Toolbox(str(project)), "read", path="src/app.py")) == "def main():\n    print('hello')\n\nmain()\n"


def test_read_with_offset_and_limit_says_where_to_continue(project: Path) -> None:
    (project / "lines.txt").write_text("\n".join(f"line {i}" for i in range(1, 11)))
    result = text(call(Toolbox(str(project)), "read", path="lines.txt", offset=3, limit=2))
    assert result == "line 3\nline 4\n\n[6 more lines in file. Use offset=5 to continue.]"
    beyond = call(Toolbox(str(project)), "read", path="lines.txt", offset=50)
    assert beyond["isError"] and "Offset 50 is beyond end of file (10 lines total)" in text(beyond)


def test_read_cuts_a_large_file_and_records_the_truncation(project: Path) -> None:
    (project / "big.txt").write_text("\n".join(f"row {i}" for i in range(5000)))
    result = call(Toolbox(str(project)), "read", path="big.txt")
    assert text(result).endswith(f"[Showing lines 1-{MAX_LINES} of 5000. Use offset={MAX_LINES + 1} to continue.]")
    assert result["details"]["truncation"]["truncatedBy"] == "lines"
    assert result["details"]["truncation"]["totalLines"] == 5000


def test_read_an_image_returns_an_image_block(project: Path) -> None:
    (project / "dot.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    result = call(Toolbox(str(project)), "read", path="dot.png")
    assert result["content"][1] == {"type": "image", "data": "iVBORw0KGgpmYWtl", "mimeType": "image/png"}


# -- write and edit ----------------------------------------------------------------------------------------------


def test_write_creates_parent_directories_and_overwrites(project: Path) -> None:
    box = Toolbox(str(project))
    assert text(call(box, "write", path="new/dir/x.txt", content="héllo")) == "Successfully wrote 6 bytes to new/dir/x.txt"
    call(box, "write", path="new/dir/x.txt", content="second")
    assert (project / "new" / "dir" / "x.txt").read_text() == "second"
    assert not [p for p in (project / "new" / "dir").iterdir() if p.name.startswith(".")]


def test_edit_replaces_the_unique_text_and_returns_a_diff(project: Path) -> None:
    result = call(Toolbox(str(project)), "edit", path="src/app.py", oldText="print('hello')", newText="print('bye')")
    assert text(result) == "Successfully replaced text in src/app.py."
    assert (project / "src" / "app.py").read_text() == "def main():\n    print('bye')\n\nmain()\n"
    assert result["details"]["firstChangedLine"] == 2
    assert "-    print('hello')\n+    print('bye')" in result["details"]["diff"]


def test_edit_says_clearly_when_the_old_text_is_missing(project: Path) -> None:
    result = call(Toolbox(str(project)), "edit", path="src/app.py", oldText="print('nope')", newText="x")
    assert result["isError"]
    assert text(result) == ("Could not find the exact text in src/app.py. The old text must match exactly, "
                            "including all whitespace and newlines.")


def test_edit_refuses_a_text_that_is_not_unique(project: Path) -> None:
    (project / "twice.txt").write_text("a = 1\nb = 2\na = 1\n")
    result = call(Toolbox(str(project)), "edit", path="twice.txt", oldText="a = 1", newText="a = 3")
    assert result["isError"] and "Found 2 occurrences of the text in twice.txt" in text(result)
    assert (project / "twice.txt").read_text() == "a = 1\nb = 2\na = 1\n"


def test_edit_keeps_windows_line_endings(project: Path) -> None:
    (project / "crlf.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    call(Toolbox(str(project)), "edit", path="crlf.txt", oldText="two\nthree", newText="2\n3")
    assert (project / "crlf.txt").read_bytes() == b"one\r\n2\r\n3\r\n"


# -- bash ---------------------------------------------------------------------------------------------------------


def test_bash_runs_in_the_working_directory(project: Path) -> None:
    result = call(Toolbox(str(project)), "bash", command="ls src && echo err >&2")
    assert not result["isError"] and text(result) == "app.py\nerr"


def test_bash_reports_a_failing_command_with_its_exit_code(project: Path) -> None:
    result = call(Toolbox(str(project)), "bash", command="echo out; exit 3")
    assert result["isError"] and text(result) == "out\n\nCommand exited with code 3"
    assert text(call(Toolbox(str(project)), "bash", command="true")) == "(no output)"


def test_bash_times_out_and_kills_the_command(project: Path, deadline) -> None:
    with deadline(20, "a command past its 0.5 s timeout"):
        result = call(Toolbox(str(project)), "bash", command="echo $$ > pid; echo begun; sleep 30", timeout=0.5)
    assert result["isError"] and text(result) == "begun\n\nCommand timed out after 0.5 seconds"
    with pytest.raises(ProcessLookupError):  # killed and reaped
        os.kill(int((project / "pid").read_text()), 0)


def test_bash_keeps_the_tail_and_the_full_output_in_a_file(project: Path) -> None:
    result = call(Toolbox(str(project)), "bash", command="seq 1 5000")
    full = Path(result["details"]["fullOutputPath"])
    try:
        assert full.read_text().split() == [str(i) for i in range(1, 5001)]
        assert text(result).startswith("3001\n3002\n")
        assert text(result).endswith(f"5000\n\n[Showing lines 3001-5000 of 5000. Full output: {full}]")
        assert result["details"]["truncation"]["truncatedBy"] == "lines"
    finally:
        full.unlink()


def test_run_bash_removes_its_output_file_when_nothing_was_cut(project: Path) -> None:
    run = run_bash("echo hi", str(project))
    assert run.full_output_path is None and run.output == "hi" and run.exit_code == 0


def test_ctrl_c_cancels_the_command_and_keeps_its_output(project: Path, deadline) -> None:
    marker = project / "started"

    def interrupt() -> None:
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt, daemon=True).start()
    with deadline(20, "a command after Ctrl-C"):
        run = run_bash(f"echo before; touch {marker}; sleep 30; echo never", str(project))
    assert (run.cancelled, run.exit_code, run.output) == (True, None, "before")
    message = bash_execution_message(run)
    assert "exitCode" not in message and message["cancelled"] is True
    assert bash_execution_text(message) == "Ran `echo before; touch " + str(marker) + "; sleep 30; echo never`\n```\nbefore\n```\n\n(command cancelled)"


def test_a_users_bash_run_is_a_pi_bash_execution(project: Path) -> None:
    message = bash_execution_message(run_bash("echo hi; exit 2", str(project)), exclude_from_context=True)
    assert list(message) == ["role", "command", "output", "exitCode", "cancelled", "truncated", "timestamp",
                             "excludeFromContext"]
    assert (message["output"], message["exitCode"], message["excludeFromContext"]) == ("hi", 2, True)


def test_output_is_cleaned_of_terminal_escapes(project: Path) -> None:
    assert run_bash(r"printf '\033[31mred\033[0m\r\n'", str(project)).output == "red"


# -- truncation ---------------------------------------------------------------------------------------------------


def test_truncation_keeps_whole_lines_within_both_limits() -> None:
    text_ = "\n".join("x" * 100 for _ in range(1000))
    head, tail = truncate_head(text_), truncate_tail(text_)
    assert head.truncated_by == tail.truncated_by == "bytes"
    assert len(head.content.encode()) <= MAX_BYTES and len(tail.content.encode()) <= MAX_BYTES
    assert head.output_lines == tail.output_lines == (MAX_BYTES + 1) // 101
    assert truncate_tail("y" * (MAX_BYTES + 10)).content == "y" * MAX_BYTES


# -- ls and grep -----------------------------------------------------------------------------------------------------


def test_ls_sorts_marks_directories_and_shows_dotfiles(project: Path) -> None:
    assert text(call(Toolbox(str(project)), "ls")) == ".env\nREADME.md\nsrc/"
    limited = text(call(Toolbox(str(project)), "ls", limit=2))
    assert limited == ".env\nREADME.md\n\n[2 entries limit reached. Use limit=4 for more]"


def test_grep_finds_lines_with_paths_and_context(project: Path) -> None:
    box = Toolbox(str(project))
    assert text(call(box, "grep", pattern="hello")) == "README.md:2: hello world\nsrc/app.py:2:     print('hello')"
    assert text(call(box, "grep", pattern="print", context=1)) == (
        "src/app.py-1- def main():\nsrc/app.py:2:     print('hello')\nsrc/app.py-3- ")
    assert text(call(box, "grep", pattern="HELLO", ignoreCase=True, glob="*.md")) == "README.md:2: hello world"
    assert text(call(box, "grep", pattern="print(", literal=True, path="src")) == "app.py:2:     print('hello')"
    assert text(call(box, "grep", pattern="absent")) == "No matches found"


def test_grep_skips_git_and_binary_files_and_stops_at_the_limit(project: Path) -> None:
    (project / ".git").mkdir()
    (project / ".git" / "config").write_text("hello\n")
    (project / "blob.bin").write_bytes(b"hello\x00\x01")
    (project / "many.txt").write_text("hello\n" * 10)
    result = call(Toolbox(str(project)), "grep", pattern="hello", limit=3)
    assert text(result) == ("README.md:2: hello world\nmany.txt:1: hello\nmany.txt:2: hello\n\n"
                            "[3 matches limit reached. Use limit=6 for more, or refine the pattern]")
