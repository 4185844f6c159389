"""A file the agent reads through git (issue 20): ``git diff a..b -- x.zig``, ``git log -p -- a.py``, ``git blame a.go``
and ``git show HEAD:src/a.py`` show the file's text or its changes as ``cat`` does, so it is a read file; a bare
word after ``git show``/``git diff`` is as often a branch, a tag or a revision as a file and is read as a file only
with a file's extension."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.shell import shell_effects

from ..messages import assistant, call, result, user


@pytest.mark.parametrize(("command", "reads"), [
    ("git diff 68b11d2..HEAD -- server/h1/server.zig examples/echo.zig", ["server/h1/server.zig", "examples/echo.zig"]),
    ("git log -p --follow -- src/app.py", ["src/app.py"]),
    ("git show HEAD~1:src/config.ts", ["src/config.ts"]),
    ("git show main:docs/setup.md | head -40", ["docs/setup.md"]),
    ("git blame lib/parse.go", ["lib/parse.go"]),
    ("git --no-pager diff README.md", ["README.md"]),
    ("git -C web diff --stat -- package.json", ["web/package.json"]),
])
def test_a_file_git_shows_is_read(command: str, reads: list[str]) -> None:
    assert shell_effects(command).reads == reads


@pytest.mark.parametrize("command", [
    "git diff main", "git show v1.2", "git show 3f2a9c1", "git log --oneline -10", "git diff HEAD~3..HEAD --stat",
    "git diff -- .", "git status", "git commit -m 'fix parse.go'",
])
def test_a_revision_or_branch_git_shows_is_no_file(command: str) -> None:
    assert shell_effects(command).reads == []


@pytest.mark.parametrize("tool", ["bash", "Bash", "exec_command"])
def test_a_diffed_file_is_in_the_read_files(tool: str) -> None:
    messages = [user("What changed in the connection handling since the last release?"),
                assistant(call("a1", tool, command="git diff v0.3.0..HEAD -- server/connection.zig")),
                result("a1", tool, "@@ -10,3 +10,4 @@\n+    keep_alive = true;"),
                assistant("Keep-alive is on by default since v0.3.0.")]
    assert "server/connection.zig" in extract_facts(messages).read_files
