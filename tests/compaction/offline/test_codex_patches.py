"""Codex changes files through ``apply_patch`` (a tool of its own, or a command with the patch as its body): the files
a patch adds and updates are modified, those it deletes or moves away no longer exist (issue 20, class 6); the
user's own ``!rm`` deletes as the agent's ``rm`` does, and so does an ``rm`` that opens a command failing after it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user, user_bash
from .test_classes import summarize
from .test_missing_files import _lists
from .test_offline import changed_files

PATCH = """*** Begin Patch
*** Update File: src/app.py
@@
-print("a")
+print("b")
*** Add File: src/config.py
+DEBUG = False
*** Delete File: src/legacy.py
*** Update File: lib/old_name.ts
*** Move to: lib/new_name.ts
@@
-export const a = 1
+export const a = 2
*** End Patch"""
CALLS = st.sampled_from([
    ("apply_patch", {"input": PATCH}),  # Codex's custom tool
    ("shell", {"command": ["apply_patch", PATCH]}),  # older Codex: the patch as a command's argument
    ("exec_command", {"cmd": f"apply_patch <<'EOF'\n{PATCH}\nEOF"}),  # the patch as a heredoc
])


@given(CALLS)
def test_a_patch_lists_what_it_added_and_changed_and_not_what_it_deleted_or_moved(case: tuple) -> None:
    tool, arguments = case
    messages = [user("Clean up the app module."),
                assistant(call("r", "shell", command=["bash", "-lc", "cat src/legacy.py lib/old_name.ts"])),
                result("r", "shell", "x = 1"),
                assistant(call("p", tool, **arguments)), result("p", tool, "Success. Updated the following files")]
    assert _lists(messages) == ([], ["lib/new_name.ts", "src/app.py", "src/config.py"])


def test_a_patch_that_failed_deleted_nothing() -> None:
    messages = [user("Clean up the app module."),
                assistant(call("r", "read", path="src/legacy.py")), result("r", "read", "x = 1"),
                assistant(call("p", "apply_patch", input=PATCH)),
                result("p", "apply_patch", "error: patch did not apply", error=True)]
    assert "src/legacy.py" in _lists(messages)[0] + _lists(messages)[1]


def test_the_users_own_rm_deletes() -> None:
    messages = [user("Tidy the docs."),
                assistant(call("e", "edit", path="docs/old.md", oldText="a", newText="b")), result("e", "edit", "ok"),
                user_bash("rm docs/old.md", "")]
    assert _lists(messages) == ([], [])


@given(st.sampled_from([("rm src/old.ts && npm run build", "error TS2307: Cannot find module './old'"),
                        ("git rm -q src/old.ts && git commit -m 'drop old'", "pre-commit hook failed"),
                        ("cd src && rm old.ts; go vet ./...", "vet: ./app.go:3: undefined: Old")]))
def test_a_deletion_before_the_part_of_a_command_that_failed_ran(case: tuple) -> None:
    command, error = case
    messages = [user("Drop the old module."),
                assistant(call("e", "edit", path="src/old.ts", oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant(call("c", "bash", command=command)),
                result("c", "bash", f"{error}\n\nCommand exited with code 1", error=True)]
    assert _lists(messages) == ([], [])
    assert changed_files(summarize(messages)).get("old.ts") == "deleted or moved"


@given(st.sampled_from([("npm run build && rm src/old.ts", "build failed"),
                        ("rm src/old.ts", "rm: cannot remove 'src/old.ts': Permission denied")]))
def test_a_deletion_that_may_not_have_run_leaves_the_file_listed(case: tuple) -> None:
    command, error = case
    messages = [user("Drop the old module."),
                assistant(call("e", "edit", path="src/old.ts", oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant(call("c", "bash", command=command)),
                result("c", "bash", f"{error}\n\nCommand exited with code 1", error=True)]
    assert _lists(messages) == ([], ["src/old.ts"])
