"""A file the agent showed does not exist is no file it read (issue 20, class 6): a read tool that failed (pi's
``ENOENT``, Claude Code's "File does not exist.", a read a failing call beside it cancelled), a command whose error
names the file (``cat: x: No such file or directory``, ``sed: can't read x``, ``ls: cannot access 'x'``) leave it out
of ``<read-files>``; a read of the same file that worked, or a write that made it, keeps it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.compose import compose
from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.prepare import collect_files

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES

ROOTS = st.sampled_from(["", "/home/dev/project/"])
FAILED_READS = st.sampled_from([
    ("read", "ENOENT: no such file or directory, access '{}'"),  # pi
    ("Read", "<tool_use_error>File does not exist.</tool_use_error>"),  # Claude Code
    ("Read", "<tool_use_error>Sibling tool call errored</tool_use_error>"),  # cancelled beside a failing call
    ("read_file", "Error: file not found: {}"),
])
FAILED_COMMANDS = st.sampled_from([
    ("bash", "cat {}", "cat: {}: No such file or directory"),
    ("bash", "head -n 40 {}", "head: cannot open '{}' for reading: No such file or directory"),
    ("shell", "sed -n 1,80p {}", "sed: can't read {}: No such file or directory"),
    ("Bash", "wc -l {} 2>&1", "wc: {}: No such file or directory"),
])


def _lists(messages: list[dict], cwd: str = "/home/dev/project",
           earlier: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The two lists as a compaction stores them: an earlier compaction's (``earlier``: the files it read), pi's own
    file operations and the facts, through compose."""
    path = [{"type": "compaction", "id": "c", "details": {"readFiles": list(earlier), "modifiedFiles": []}}]
    files = collect_files(path if earlier else [], tuple(messages))
    text = compose("body", first_request=None, current_request=None, dropped_note=None,
                   read_files=files.read_files, modified_files=files.modified_files, cwd=cwd,
                   gone=extract_facts(messages).gone)

    def block(kind: str) -> list[str]:
        return text.split(f"<{kind}>\n", 1)[1].split(f"\n</{kind}>", 1)[0].splitlines() if f"<{kind}>" in text else []

    return block("read-files"), block("modified-files")


def _read(tool: str, path: str, text: str, error: bool, call_id: str = "r") -> list[dict]:
    key = "path" if tool == "read" else "file_path"
    return [assistant(call(call_id, tool, **{key: path})), result(call_id, tool, text.format(path), error=error)]


@EXAMPLES
@given(root=ROOTS, failed=FAILED_READS)
def test_a_path_whose_read_tool_call_failed_is_not_a_read_file(root: str, failed: tuple) -> None:
    tool, text = failed
    messages = [user("Look at the notes and the parser."),
                *_read(tool, f"{root}notes/todo.txt", text, True),
                *_read(tool, f"{root}src/parser.py", "def parse(): ...", False, "p")]
    assert _lists(messages)[0] == ["src/parser.py"]


@EXAMPLES
@given(root=ROOTS, failed=FAILED_COMMANDS)
def test_a_path_a_command_says_is_missing_is_not_a_read_file(root: str, failed: tuple) -> None:
    tool, command, error = failed
    path = f"{root}docs/setup.md"
    messages = [user("Check the setup guide."),
                assistant(call("c", tool, command=command.format(path))),
                result("c", tool, bash_fail(error.format(path), 1), error=True)]
    assert _lists(messages)[0] == []


def test_the_other_file_of_a_command_that_named_a_missing_one_was_read() -> None:
    messages = [user("Compare the two configs."),
                assistant(call("c", "bash", command="cat config/old.yaml config/new.yaml")),
                result("c", "bash", bash_fail("port: 8080\ncat: config/old.yaml: No such file or directory", 1),
                       error=True)]
    assert _lists(messages)[0] == ["config/new.yaml"]


@given(failed=FAILED_READS)
def test_a_missing_file_read_again_once_there_or_written_is_listed(failed: tuple) -> None:
    tool, text = failed
    missing = [user("Write the changelog."), *_read(tool, "CHANGELOG.md", text, True)]
    read_later = [*missing, *_read(tool, "/home/dev/project/CHANGELOG.md", "# Changes", False, "again")]
    written = [*missing, assistant(call("w", "write", path="CHANGELOG.md", content="# Changes")),
               result("w", "write", "ok")]
    assert _lists(read_later) == (["CHANGELOG.md"], [])
    assert _lists(written) == ([], ["CHANGELOG.md"])


@given(failed=st.sampled_from(["<tool_use_error>Sibling tool call errored</tool_use_error>",
                               "File content (37155 tokens) exceeds maximum allowed tokens (25000)."]))
def test_a_file_an_earlier_region_read_stays_listed_when_a_read_fails_for_another_reason(failed: str) -> None:
    messages = [user("Look at the guide again."), *_read("Read", "docs/guide.md", failed, True),
                *_read("Read", "docs/gone.md", "<tool_use_error>File does not exist.</tool_use_error>", True, "g")]
    assert _lists(messages, earlier=("docs/guide.md", "docs/gone.md")) == (["docs/guide.md"], [])
    assert _lists(messages) == ([], [])  # not read in this region, nor before
