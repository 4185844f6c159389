"""A tool's or skill pack's own state under the home folder is no project file (issue 20, file lists):
``~/.gstack/state/…``, ``~/.cache/…``, ``~/.claude/plugins/cache/…`` stay off ``<read-files>``/``<modified-files>``,
while what the user maintains there stays (``~/.claude/skills/…``, ``~/.codex/config.toml``, ``~/.config/…``,
``~/.bashrc``), and so does the tool's folder when the work happens in it. A path spelled once with ``~`` and once
in full is listed once."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.paths import is_tool_state, listed_files

from ..messages import assistant, call, result, user
from .test_missing_files import _lists

STATE = st.sampled_from(["~/.gstack/state/session.json", "/home/sam/.gstack/projects/app/review-log.jsonl",
                         "/Users/ana/.cache/pip/log.txt", "/home/sam/.claude/plugins/cache/x/plugin.json",
                         "$HOME/.npm/_logs/debug-0.log", "C:\\Users\\ana\\.tool\\runs\\last.json",
                         "/root/.local/state/app/history.txt"])
KEPT = st.sampled_from(["~/.bashrc", "~/.codex/config.toml", "/home/sam/.claude/CLAUDE.md",
                        "/Users/ana/.claude/skills/review/SKILL.md", "~/.config/app/config.toml",
                        "~/.ssh/config.d/work.conf", "/home/sam/app/.cache/build.json", "/home/sam/notes/todo.md"])


@given(STATE)
def test_a_tools_own_state_is_aside(path: str) -> None:
    assert is_tool_state(path, "/home/sam/app")


@given(KEPT)
def test_what_the_user_keeps_is_no_tool_state(path: str) -> None:
    assert not is_tool_state(path, "/home/sam/app")


def test_the_tools_folder_is_the_project_when_the_work_happens_in_it() -> None:
    assert not is_tool_state("/home/sam/.gstack/lib/state.py", "/home/sam/.gstack")


@pytest.mark.parametrize("spelled", ["~/.gstack/state/session.json", "/home/sam/.gstack/state/session.json"])
def test_tool_state_is_in_no_file_list(spelled: str) -> None:
    messages = [user("Review the retry change."),
                assistant(call("r", "Read", file_path="/home/sam/.gstack/state/session.json")), result("r", "Read", "{}"),
                assistant(call("w", "Bash", command=f"echo done > {spelled}")), result("w", "Bash", ""),
                assistant(call("c", "Read", file_path="/home/sam/.cache/tool/index.txt")), result("c", "Read", "x"),
                assistant(call("e", "Edit", file_path="/home/sam/app/src/net.py", old_string="a", new_string="b")),
                result("e", "Edit", "ok"), assistant("Reviewed.")]
    read, modified = _lists(messages, cwd="/home/sam/app")
    assert modified == ["src/net.py"] and read == [], (read, modified)


def test_one_file_spelled_with_a_tilde_and_in_full_is_listed_once() -> None:
    assert listed_files([], ["~/notes/todo.md", "/home/sam/notes/todo.md"], "/home/sam/app") == \
        ([], ["/home/sam/notes/todo.md"])


@pytest.mark.parametrize(("spellings", "cwd", "name"), [
    (["~/app/src/net.py", "src/net.py", "/home/sam/app/src/net.py"], "/home/sam/app", "src/net.py"),
    (["$HOME/notes/todo.md", "~/notes/todo.md"], "/Users/sam/app", "~/notes/todo.md"),
    (["~/notes/todo.md", "/Users/sam/notes/todo.md"], "/Users/sam/app", "/Users/sam/notes/todo.md"),
    (["${HOME}/notes/todo.md", "/home/sam/notes/todo.md"], "", "/home/sam/notes/todo.md"),
])
def test_the_home_spelled_any_way_is_one_file(spellings: list[str], cwd: str, name: str) -> None:
    assert listed_files([], spellings, cwd) == ([], [name])
