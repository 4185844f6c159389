"""Where commands ran and where their files are (issue 20): a persistent shell's ``cd`` holds for later calls, a
``cd dir &&`` prefix is where a check ran and not the check, and scratch files in any temporary directory (Windows'
``%TEMP%`` too) are no part of the work."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.details import RAN_LABEL
from pi_compact.compaction.offline.errors import without_cd
from pi_compact.compaction.offline.facts import extract_facts, is_scratch
from pi_compact.compaction.offline.paths import listed_files
from pi_compact.compaction.offline.shell import final_folder

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize

# -- a persistent shell keeps its directory ------------------------------------------------------------------------

PACKAGE = st.sampled_from(["web", "packages/api", "cmd/tool"])
EDIT = st.sampled_from(["sed -i 's/a/b/' {f}", "perl -pi -e 's/a/b/' {f}", "echo x >> {f}", "touch {f}"])


def _session(tool: str, package: str, edit: str) -> list[dict]:
    return [user("Rename the handler in the package."),
            assistant(call("c1", tool, command=f"cd {package}")), result("c1", tool, ""),
            assistant(call("c2", tool, command=edit.format(f="src/handler.go"))), result("c2", tool, ""),
            assistant("Renamed it.")]


@EXAMPLES
@given(package=PACKAGE, edit=EDIT)
def test_a_cd_in_one_call_of_claude_codes_bash_holds_for_the_next_call(package: str, edit: str) -> None:
    facts = extract_facts(_session("Bash", package, edit))
    assert f"{package}/src/handler.go" in facts.modified_files
    assert "src/handler.go" not in facts.modified_files


@EXAMPLES
@given(package=PACKAGE, edit=EDIT)
def test_a_shell_that_starts_afresh_each_call_names_the_file_from_the_start(package: str, edit: str) -> None:
    assert "src/handler.go" in extract_facts(_session("bash", package, edit)).modified_files  # pi's bash tool


@pytest.mark.parametrize(("tool", "changed"), [("Bash", "web/web/src/app.ts"), ("bash", "web/src/app.ts")])
def test_a_cd_that_opens_a_command_holds_in_claude_codes_shell_alone(tool: str, changed: str) -> None:
    """Claude Code's shell stays in ``web`` after ``cd web && npm test`` (its transcripts show the next ``cd web``
    failing, and a bare ``bun test`` running from there); pi's ``bash`` starts afresh each call."""
    messages = [user("Fix the app."),
                assistant(call("c1", tool, command="cd web && npm test")), result("c1", tool, "ok"),
                assistant(call("c2", tool, command="sed -i s/a/b/ web/src/app.ts")), result("c2", tool, ""),
                assistant("Fixed.")]
    assert changed in extract_facts(messages).modified_files


@pytest.mark.parametrize(("command", "start", "end"), [
    ("cd web", "", "web"),
    ("cd web && npm test", "", "web"),
    ("cd ../api", "web", "api"),
    ("(cd web && make) && ls", "", ""),
    ("cd /repo/x; ls", "", "/repo/x"),
    ("cd $DIR", "", None),
    ("ls", "web", "web"),
])
def test_where_a_persistent_shell_stands_after_a_command(command: str, start: str, end: str | None) -> None:
    assert final_folder(command, start) == end


def test_claude_codes_reset_of_the_shell_sends_it_back_to_the_project() -> None:
    messages = [user("Fix it."),
                assistant(call("c1", "Bash", command="cd /elsewhere")),
                result("c1", "Bash", "Shell cwd was reset to /repo"),
                assistant(call("c2", "Bash", command="sed -i s/a/b/ src/a.py")), result("c2", "Bash", ""),
                assistant("Fixed.")]
    assert "src/a.py" in extract_facts(messages).modified_files


# -- a cd before a command is where it ran, not what ran -------------------------------------------------------

CD = st.sampled_from(["cd {d} && ", "cd {d}; ", 'cd "{d}" && ', "cd /d {d} && ", "pushd {d} && "])
CHECK = st.sampled_from(["npm test", "go test ./...", "make lint", "cargo build"])


@EXAMPLES
@given(cd=CD, check=CHECK, folder=st.sampled_from(["web", "/repo/web"]))
def test_the_commands_that_succeeded_show_the_command_not_the_cd(cd: str, check: str, folder: str) -> None:
    command = cd.format(d=folder) + check
    messages = [user("Make the checks pass in the web package."),
                assistant(call("c1", "bash", command=command)), result("c1", "bash", "ok, all good"),
                assistant("All checks pass.")]
    text = summarize(messages, metadata={"cwd": "/repo"})
    ran = next((line for line in text.splitlines() if RAN_LABEL in line), "")
    assert f"`{check}`" in ran
    assert "cd " not in ran and "pushd" not in ran


def test_a_check_run_in_another_project_says_where() -> None:
    messages = [user("Check the sibling project builds too."),
                assistant(call("c1", "bash", command="cd /other/lib && make check")), result("c1", "bash", "ok"),
                assistant("Both build.")]
    ran = next(line for line in summarize(messages, metadata={"cwd": "/repo"}).splitlines() if RAN_LABEL in line)
    assert "`make check (in lib)`" in ran


@pytest.mark.parametrize(("command", "expected"), [
    ("cd web && npm test", ("npm test", "web")),
    ("cd web", ("cd web", "")),  # the change of directory is then the command
    ("cd a && cd b && make", ("make", "b")),
    ('cd "C:\\My Project" ; dotnet test', ("dotnet test", "C:\\My Project")),
])
def test_without_cd(command: str, expected: tuple[str, str]) -> None:
    assert without_cd(command) == expected


# -- scratch files in temporary directories --------------------------------------------------------------------

TEMP = st.sampled_from(["C:/Users/{u}/AppData/Local/Temp/claude/x/", "C:\\Users\\{u}\\AppData\\Local\\Temp\\",
                        "%TEMP%\\", "/c/Users/{u}/AppData/Local/Temp/", "C:\\Windows\\Temp\\", "/tmp/",
                        "/private/var/folders/xy/T/", "$env:TEMP\\"])


@EXAMPLES
@given(temp=TEMP, user_name=st.sampled_from(["jane", "dev"]), name=st.sampled_from(["plan.md", "out.html"]))
def test_scratch_files_in_any_temporary_directory_are_not_listed(temp: str, user_name: str, name: str) -> None:
    path = temp.format(u=user_name) + name
    assert is_scratch(path)
    read, changed = listed_files([], [path, "website/src/index.js"], "D:/site")
    assert changed == ["website/src/index.js"]


@pytest.mark.parametrize("path", ["src/temp/a.py", "website/tmp/a.js", "C:/Users/a/proj/temp.md", "tmp/x.py",
                                  "docs/AppData.md"])
def test_a_project_folder_named_like_a_temporary_one_is_kept(path: str) -> None:
    assert not is_scratch(path)
