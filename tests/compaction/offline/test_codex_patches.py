"""Codex changes files through ``apply_patch`` (a tool of its own, or a command with the patch as its body): the files
a patch adds and updates are modified, those it deletes or moves away no longer exist (issue 20, class 6); and the
user's own ``!rm`` deletes as the agent's ``rm`` does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ..messages import assistant, call, result, user, user_bash
from .test_missing_files import _lists

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
