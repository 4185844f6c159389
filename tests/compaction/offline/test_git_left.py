"""Work git has not saved when the region ends is a next step, with its facts, not "wait for the user's next
request": commits made after the last push in a session that pushes (or that ``git status`` says are ahead of the
upstream), edits made after the last commit in a session that commits, a commit its hook stopped and none made
since. Followed per repository (``cd api && git …``, ``git -C api …``); a later push, ``git reset --hard``,
``git stash``, or the user's "don't push" leaves nothing to say. Each case in the shapes of three agents' tools."""

from __future__ import annotations

import itertools

import pytest

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items

_ids = itertools.count()
FORMATS = {  # (shell call, output of a failed command, file edit)
    "pi": (lambda command: ("bash", {"command": command}), lambda text: bash_fail(text, 1),
           lambda path: ("edit", {"path": path, "oldText": "a", "newText": "b"})),
    "claude": (lambda command: ("Bash", {"command": command, "description": "Run it"}),
               lambda text: f"Exit code 1\n{text}",
               lambda path: ("Edit", {"file_path": path, "old_string": "a", "new_string": "b"})),
    "codex": (lambda command: ("exec_command", {"cmd": command}), lambda text: f"{text}\nexit code: 1",
              lambda path: ("apply_patch", {"input": f"*** Begin Patch\n*** Update File: {path}\n@@\n-a\n+b\n"
                                                     "*** End Patch"})),
}
WAIT = "wait for the user's next request"


def _run(agent: str, command: str, output: str, failed: bool = False) -> list[dict]:
    shell, fail, _ = FORMATS[agent]
    tool, arguments = shell(command)
    number = f"c{next(_ids)}"
    return [assistant(call(number, tool, **arguments)),
            result(number, tool, fail(output) if failed else output, error=failed)]


def _edit(agent: str, path: str) -> list[dict]:
    tool, arguments = FORMATS[agent][2](path)
    number = f"e{next(_ids)}"
    return [assistant(call(number, tool, **arguments)), result(number, tool, f"Successfully edited {path}.")]


def _commit(agent: str, sha: str, message: str, where: str = "", branch: str = "main") -> list[dict]:
    return _run(agent, f'{where}git add -A && git commit -m "{message}"',
                f"[{branch} {sha}] {message}\n 1 file changed, 2 insertions(+)")


def _push(agent: str, old: str, new: str, where: str = "", branch: str = "main") -> list[dict]:
    return _run(agent, f"{where}git push origin {branch}",
                f"To github.com:acme/tool.git\n   {old}..{new}  {branch} -> {branch}")


def _next_steps(messages: list[dict], closing: str = "Done: the importer handles empty rows now.") -> list[str]:
    return items(summarize([*messages, assistant(closing)]), "## Next Steps")


def _session(agent: str, request: str = "Fix the importer's empty rows, commit and push.") -> list[dict]:
    """A session that edited, committed and pushed once."""
    return [user(request), *_edit(agent, "src/importer.py"), *_commit(agent, "1a2b3c4", "fix: empty rows"),
            *_push(agent, "0f0f0f0", "1a2b3c4")]


# -- commits after the last push ------------------------------------------------------------------------------


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("more", [1, 3])
def test_commits_after_the_last_push_are_named_with_their_count_and_last_commit(agent: str, more: int) -> None:
    messages = _session(agent)
    for number in range(more):
        messages += [*_edit(agent, f"src/part{number}.py"), *_commit(agent, f"9e8d7c{number}", f"fix: part {number}")]
    steps = _next_steps(messages)
    step = next(step for step in steps if step.startswith("Not pushed yet"))
    assert f"{more} commit{'s' if more > 1 else ''} on `main`" in step and f"9e8d7c{more - 1}" in step
    assert "git push origin main" in step and not any(WAIT in s for s in steps)


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("status", [
    "On branch main\nYour branch is ahead of 'origin/main' by 3 commits.\n  (use \"git push\" to publish your local "
    "commits)\n\nnothing to commit, working tree clean",
    "## main...origin/main [ahead 3]",
])
def test_a_status_that_says_ahead_of_the_upstream_is_work_not_pushed(agent: str, status: str) -> None:
    command = "git status -sb" if status.startswith("##") else "git status"
    messages = [user("Where are we with the importer?"), *_run(agent, command, status)]
    step = next(step for step in _next_steps(messages, "All three fixes are committed.")
                if step.startswith("Not pushed yet"))
    assert "3 commits" in step and "`origin/main`" in step


# -- edits after the last commit, a commit that failed ---------------------------------------------------------


@pytest.mark.parametrize("agent", sorted(FORMATS))
def test_edits_after_the_last_commit_of_a_session_that_commits_are_named(agent: str) -> None:
    messages = [*_session(agent), user("Also handle rows of spaces."), *_edit(agent, "src/rows.py")]
    steps = _next_steps(messages, "Done: rows of spaces are skipped too.")
    step = next(step for step in steps if step.startswith("Not committed yet"))
    assert "`src/rows.py`" in step and "1a2b3c4" in step and not any(WAIT in s for s in steps)


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("output", "named"), [
    ("black....................................................................Failed\n- hook id: black\n"
     "- files were modified by this hook", "- hook id: black"),
    ("On branch main\nUntracked files:\n\tsrc/rows.py\n\nnothing added to commit but untracked files present",
     "nothing added to commit"),
])
def test_a_commit_that_failed_and_was_not_made_since_is_named_with_why(agent: str, output: str, named: str) -> None:
    messages = [*_session(agent), user("Also handle rows of spaces."), *_edit(agent, "src/rows.py"),
                *_run(agent, 'git commit -m "fix: rows of spaces"', output, failed=True)]
    steps = _next_steps(messages, "Rows of spaces are skipped too.")
    step = next(step for step in steps if step.startswith("The last commit failed"))
    assert named in step and not any(WAIT in s for s in steps)


# -- per repository ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("form", ["cd", "-C"])
def test_each_repository_is_followed_apart(agent: str, form: str) -> None:
    def git(folder: str, rest: str) -> str:  # (a Claude Code shell stays where a `cd` took it: each by its full path)
        return f"cd /work/{folder} && git {rest}" if form == "cd" else f"git -C /work/{folder} {rest}"

    messages = [user("Fix the client in both repos, commit and push.")]
    for folder in ("api", "web"):
        messages += [*_edit(agent, f"{folder}/src/client.py"),
                     *_run(agent, git(folder, 'commit -am "fix: client"'), "[main 1a2b3c4] fix: client"),
                     *_run(agent, git(folder, "push"), "   0f0f0f0..1a2b3c4  main -> main")]
    messages += _run(agent, git("api", 'commit -am "fix: retries"'), "[main 5d6e7f8] fix: retries")
    steps = [step for step in _next_steps(messages) if step.startswith("Not pushed yet")]
    assert len(steps) == 1 and "api" in steps[0] and "web" not in steps[0] and "5d6e7f8" in steps[0]


@pytest.mark.parametrize("agent", sorted(FORMATS))
def test_a_folder_inside_the_repository_is_that_repository(agent: str) -> None:
    # a monorepo's `cd apps/demo && git add apps/demo/x.ts` fails on its path; the commit from the root settles it
    failed = _run(agent, 'cd apps/demo && git add apps/demo/src/errors.ts && git commit -m "fix: errors"',
                  "fatal: pathspec 'apps/demo/src/errors.ts' did not match any files", failed=True)
    messages = [*_session(agent), user("Add the error types."), *_edit(agent, "apps/demo/src/errors.ts"), *failed,
                *_commit(agent, "5d6e7f8", "fix: errors"), *_push(agent, "1a2b3c4", "5d6e7f8")]
    steps = _next_steps(messages, "The error types are in and pushed.")
    assert not [step for step in steps if step.startswith(("The last commit", "Not committed", "Not pushed"))], steps


@pytest.mark.parametrize("agent", sorted(FORMATS))
def test_the_commits_not_pushed_are_named_by_id_not_by_their_words(agent: str) -> None:
    messages = [*_session(agent), *_edit(agent, "src/rows.py"), *_commit(agent, "9e8d7c6", "fix: rows of spaces")]
    step = next(step for step in _next_steps(messages) if step.startswith("Not pushed yet"))
    assert "`9e8d7c6`" in step and "rows of spaces" not in step


# -- nothing left ------------------------------------------------------------------------------------------------


UNDONE = [  # what comes after a commit made past the last push, and leaves nothing to do
    lambda agent: _push(agent, "1a2b3c4", "9e8d7c6"),
    lambda agent: _run(agent, "git reset --hard origin/main", "HEAD is now at 1a2b3c4 fix: empty rows"),
    lambda agent: _run(agent, "git status", "On branch main\nYour branch is up to date with 'origin/main'.\n\n"
                                            "nothing to commit, working tree clean"),
]


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("undo", range(len(UNDONE)))
def test_a_later_command_that_undoes_the_state_leaves_only_the_wait(agent: str, undo: int) -> None:
    messages = [*_session(agent), *_edit(agent, "src/part.py"), *_commit(agent, "9e8d7c6", "fix: part"),
                *UNDONE[undo](agent)]
    steps = _next_steps(messages)
    assert not any(step.startswith(("Not pushed", "Not committed")) for step in steps)
    assert any(WAIT in step for step in steps)


@pytest.mark.parametrize("agent", sorted(FORMATS))
def test_edits_stashed_away_are_not_left_to_commit(agent: str) -> None:
    messages = [*_session(agent), *_edit(agent, "src/part.py"), *_run(agent, "git stash", "Saved working directory")]
    assert not any(step.startswith("Not committed") for step in _next_steps(messages))


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("said", ["Commit it, but don't push yet.", "Commit locally; I'll push it myself."])
def test_the_users_word_not_to_push_is_kept(agent: str, said: str) -> None:
    messages = [*_session(agent), user(said), *_edit(agent, "src/part.py"), *_commit(agent, "9e8d7c6", "fix: part")]
    steps = _next_steps(messages)
    assert not any(step.startswith("Not pushed") for step in steps)


@pytest.mark.parametrize("agent", sorted(FORMATS))
def test_a_session_that_never_pushes_is_not_asked_to_push(agent: str) -> None:
    messages = [user("Fix the importer and commit."), *_edit(agent, "src/importer.py"),
                *_commit(agent, "1a2b3c4", "fix: empty rows")]
    steps = _next_steps(messages)
    assert not any(step.startswith(("Not pushed", "Not committed")) for step in steps)
    assert any(WAIT in step for step in steps)


@pytest.mark.parametrize("agent", sorted(FORMATS))
def test_a_rejected_push_leaves_the_commits_to_push_with_why(agent: str) -> None:
    messages = [*_session(agent), *_edit(agent, "src/part.py"), *_commit(agent, "9e8d7c6", "fix: part"),
                *_run(agent, "git push origin main", "To github.com:acme/tool.git\n ! [rejected]        main -> main "
                      "(fetch first)\nerror: failed to push some refs to 'github.com:acme/tool.git'", failed=True)]
    step = next(step for step in _next_steps(messages, "The fix is committed.") if step.startswith("Not pushed yet"))
    assert "1 commit on `main`" in step and "! [rejected]" in step and "fetch first" in step
