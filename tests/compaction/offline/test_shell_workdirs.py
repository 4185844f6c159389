"""Where a shell command ran (issue 20): Codex gives a shell call its own working folder (``workdir``; its
``local_shell`` action's ``working_directory``), and Claude Code's ``Bash`` keeps one shell whose directory a ``cd``
moves for later calls, whatever follows the ``cd`` on the line (``cd apps/demo && bun test`` leaves it in
``apps/demo``), but not a ``cd`` in a subshell or after ``||``, one that failed, nor one of a call that never ran.
The folder decides which files a command read and changed and which tests it covered (a failed narrow run is
settled by a later wider run that passed, :mod:`.wider`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.shell import final_folder

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .shell_runs import open_failures

CWD = "/home/dev/proj"
PACKAGE = st.sampled_from(["web", "packages/api", "cmd/tool"])
EDIT = st.sampled_from(["sed -i 's/a/b/' {f}", "perl -pi -e 's/a/b/' {f}", "echo x >> {f}", "touch {f}"])
WORKDIR = st.sampled_from(["{p}", CWD + "/{p}", "./{p}", "{p}/"])


def _codex(command: str, workdir: str, kind: str) -> tuple[str, dict]:
    """A Codex shell call as the importer keeps it: ``shell`` and ``exec_command`` with ``workdir``,
    ``local_shell`` with its action's ``working_directory``."""
    if kind == "local_shell":
        return "local_shell", {"type": "exec", "command": ["bash", "-lc", command], "working_directory": workdir}
    if kind == "exec_command":
        return "exec_command", {"cmd": command, "workdir": workdir}
    return "shell", {"command": ["bash", "-lc", command], "workdir": workdir, "timeout_ms": 120000}


CODEX = st.sampled_from(["shell", "exec_command", "local_shell"])


@EXAMPLES
@given(package=PACKAGE, edit=EDIT, workdir=WORKDIR, kind=CODEX)
def test_a_codex_call_runs_in_its_own_working_folder(package: str, edit: str, workdir: str, kind: str) -> None:
    name, arguments = _codex(edit.format(f="src/handler.go"), workdir.format(p=package), kind)
    facts = extract_facts([user("Rename the handler."), assistant(call("c1", name, **arguments)),
                           result("c1", name, ""), assistant("Renamed it.")])
    expected = f"{CWD}/{package}/src/handler.go" if workdir.startswith(CWD) else f"{package}/src/handler.go"
    assert expected in facts.modified_files
    assert "src/handler.go" not in facts.modified_files


@pytest.mark.parametrize("kind", ["shell", "exec_command", "local_shell"])
def test_a_codex_patch_run_as_a_command_changes_files_of_its_working_folder(kind: str) -> None:
    patch = "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** End Patch"
    name, arguments = _codex("x", "web", kind)
    arguments = {**arguments, **({"cmd": ["apply_patch", patch]} if kind == "exec_command" else
                                 {"command": ["apply_patch", patch]})}
    facts = extract_facts([user("Fix it."), assistant(call("c1", name, **arguments)), result("c1", name, "Done!")])
    assert "web/src/app.py" in facts.modified_files


@pytest.mark.parametrize("kind", ["shell", "exec_command", "local_shell"])
@pytest.mark.parametrize("workdir", ["backend", f"{CWD}/backend"])
def test_a_codex_failure_is_settled_by_a_wider_run_in_its_working_folder(kind: str, workdir: str) -> None:
    error = "FAILED tests/test_api.py::test_refund - AssertionError: 3 != 4\n1 failed in 0.2s"
    first, first_arguments = _codex("pytest tests/test_api.py::test_refund", workdir, kind)
    second, second_arguments = _codex("pytest backend/tests -q", CWD, kind)
    messages = [user("Fix the refund and make the tests pass."),
                assistant(call("a", first, **first_arguments)), result("a", first, bash_fail(error, 1), error=True),
                assistant(call("b", second, **second_arguments)), result("b", second, "52 passed in 3.1s"),
                assistant(call("r", "read", path=f"{CWD}/docs/notes.md")), result("r", "read", "# Notes\n")]
    assert not open_failures(summarize(messages, metadata={"cwd": CWD}))


# -- Claude Code's shell stays where the line's cd left it ---------------------------------------------------------

RUN = st.sampled_from(["npm test", "bun run tsc --noEmit", "go build ./...", "ls"])


def _claude(first: str, output: str, then: str, failed: bool = False, **extra) -> list[dict]:
    return [user("Rename the handler in the package."),
            assistant(call("c1", "Bash", command=first, description="Run it", **extra)),
            result("c1", "Bash", bash_fail(output, 1) if failed else output, error=failed),
            assistant(call("c2", "Bash", command=then, description="Edit it")), result("c2", "Bash", ""),
            assistant("Renamed it.")]


@EXAMPLES
@given(package=PACKAGE, run=RUN, edit=EDIT, joint=st.sampled_from([" && ", "; ", " &&\n"]))
def test_claude_codes_shell_stays_where_a_cd_before_a_command_took_it(package: str, run: str, edit: str,
                                                                      joint: str) -> None:
    facts = extract_facts(_claude(f"cd {package}{joint}{run}", "ok", edit.format(f="src/handler.go")))
    assert f"{package}/src/handler.go" in facts.modified_files
    assert "src/handler.go" not in facts.modified_files


@EXAMPLES
@given(package=PACKAGE, edit=EDIT)
def test_a_command_whose_program_failed_after_its_cd_leaves_the_shell_there(package: str, edit: str) -> None:
    facts = extract_facts(_claude(f"cd {package} && npm test", "1 failing", edit.format(f="src/handler.go"),
                                  failed=True))
    assert f"{package}/src/handler.go" in facts.modified_files


@pytest.mark.parametrize(("first", "output", "failed", "extra"), [
    ("(cd web && npm test)", "ok", False, {}),  # a subshell's cd ends with it
    ("test -d build || cd web", "", False, {}),  # the fallback did not run
    ("cd web && npm test", "bash: line 1: cd: web: No such file or directory", True, {}),  # the cd failed
    ("cd web && npm test", "(eval):cd:1: no such file or directory: web", True, {}),  # zsh's words
    ("cd web && npm test", "<tool_use_error>Sibling tool call errored</tool_use_error>", True, {}),  # never ran
    ("cd web && npm run dev", "Command running in background with ID: b1", False, {"run_in_background": True}),
])
def test_the_shell_stays_put_where_the_cd_did_not_move_it(first: str, output: str, failed: bool, extra: dict) -> None:
    facts = extract_facts(_claude(first, output, "sed -i s/a/b/ src/app.ts", failed=failed, **extra))
    assert "src/app.ts" in facts.modified_files
    assert "web/src/app.ts" not in facts.modified_files


def test_a_failed_line_whose_cd_came_after_another_program_leaves_the_place_unknown() -> None:
    assert final_folder("npm run build && cd dist && ls", "", failed=True) is None
    assert final_folder("cd web && npm test", "", failed=True) == "web"
    assert final_folder("cd web || exit 1", "") == "web"
    assert final_folder("cd web 2>/dev/null || cd api", "") == "web"


def test_claude_codes_failure_is_settled_by_a_wider_run_from_where_the_shell_stayed() -> None:
    """``cd apps/demo && bun test src/a.test.ts`` failed; then ``bun test src/`` passed, still in ``apps/demo``."""
    error = "error: expect(received).toBe(expected)\n(fail) landing > renders the stats\n 1 fail"
    messages = [user("Fix the landing stats and make the tests pass."),
                assistant(call("a", "Bash", command="cd apps/demo && bun test src/tests/landing/stats.test.tsx",
                               description="Run the test")),
                result("a", "Bash", bash_fail(error, 1), error=True),
                assistant(call("b", "Bash", command="bun test src/tests/", description="Run all")),
                result("b", "Bash", " 178 pass\n 0 fail\nRan 178 tests across 31 files."),
                assistant(call("r", "Read", file_path=f"{CWD}/docs/notes.md")), result("r", "Read", "# Notes\n")]
    assert not open_failures(summarize(messages, metadata={"cwd": CWD}))


@pytest.mark.parametrize("elsewhere", ["cd ../other && git log -3", "cd /home/dev/other && git log -3"])
def test_a_cd_out_of_the_project_does_not_hold_for_a_call_made_beside_it(elsewhere: str) -> None:
    """Claude Code moves its shell back into the project when a command leaves it ("Shell cwd was reset to …"); a
    call made in the same turn, before that note came, ran in the project too."""
    reset = f"abc123 fix\nShell cwd was reset to {CWD}"
    messages = [user("Compare the two projects."),
                assistant(call("c0", "Bash", command="cd /home/dev/elsewhere && ls")),
                result("c0", "Bash", f"a.txt\nShell cwd was reset to {CWD}"),
                assistant(call("c1", "Bash", command=elsewhere), call("c2", "Bash", command="sed -i s/a/b/ src/app.ts")),
                result("c1", "Bash", reset), result("c2", "Bash", ""),
                assistant("Done.")]
    assert "src/app.ts" in extract_facts(messages).modified_files


def test_a_folder_named_from_where_the_shell_stood_stays_a_folder() -> None:
    messages = [user("Find the helper."),
                assistant(call("c1", "Bash", command=f"cd {CWD}/app && grep -rn helper models/concerns/")),
                result("c1", "Bash", "models/concerns/a.rb:1: helper"), assistant("Found it.")]
    assert f"{CWD}/app/models/concerns/" in extract_facts(messages).read_files
