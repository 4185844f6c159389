"""Errors no failing result shows (told.py, git_state.py, diagnostics.tree_error): a mistake in git's state told
afterwards (a commit made on the branch a ``cd`` had drifted into, a push of the wrong branch), named with what git
reported; an error a program drew as a tree, named by the message at its leaf; and a user's worry about the work,
which is no error reported."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.diagnostics import telling_line, tree_error
from pi_compact.compaction.offline.told import told_errors

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items


def _blocked(summary: str) -> list[str]:
    return [item for item in items(summary, "### Blocked") if item != "(none)"]


def _errors(summary: str) -> list[str]:
    """The lines that name errors: Blocked, and the settled ones told in words."""
    return _blocked(summary) + [line for line in summary.splitlines() if "Errors told in words" in line]


_LATER = [assistant("Next, the changelog.", call("n", "read", path="CHANGELOG.md")), result("n", "read", "# 1.0\n")]


def _commit(call_id: str, branch: str, sha: str, old: str = "4f1e2d3") -> list[dict]:
    return [assistant(call(call_id, "bash", command="git add src/app.py && git commit -m 'fix: parse dates' && git push")),
            result(call_id, "bash", f"[{branch} {sha}] fix: parse dates\n 3 files changed, 210 insertions(+)\n"
                                    f" create mode 100644 NOTES.md\nTo github.com:acme/tool.git\n"
                                    f"   {old}..{sha}  {branch} -> {branch}\n")]


def _drifted(after: list[dict]) -> list[dict]:
    return [user("Fix the date parser and commit it to main."),
            *_commit("c0", "main", "aa11bb2"),
            assistant(call("l", "bash", command="cd /home/u/tool/wt/spike && git diff HEAD --name-only")),
            result("l", "bash", "src/app.py\n"),
            assistant(call("e", "edit", path="/home/u/tool/src/app.py", oldText="a", newText="b")),
            result("e", "edit", "Successfully replaced text in /home/u/tool/src/app.py."),
            *_commit("c1", "spike/dates", "9c8d7e6"),
            assistant("Hold on — that landed on `spike/dates`, not `main`, and it took NOTES.md along."),
            *after, *_LATER]


def test_a_commit_on_a_drifted_branch_is_named_with_what_git_reported() -> None:
    summary = summarize(_drifted([]))
    assert any("9c8d7e6" in line and "not `main`" in line for line in _blocked(summary)), summary


def test_redone_on_the_right_branch_it_is_settled_not_blocked() -> None:
    redo = [assistant("The shell had moved into the worktree. The fix went to the wrong branch; redoing it on main.",
                      call("cd", "bash", command="cd /home/u/tool && git branch --show-current")),
            result("cd", "bash", "main\n"), *_commit("c2", "main", "5e6f7a8", "aa11bb2")]
    summary = summarize(_drifted(redo))
    assert any("9c8d7e6" in line and "wrong branch" in line for line in _errors(summary)), summary
    assert not any("spike/dates" in line for line in _blocked(summary)), summary


def test_a_push_of_the_wrong_branch_told_afterwards_is_named() -> None:
    messages = [user("Push what we committed today."),
                assistant(call("p", "bash", command="git push origin main")),
                result("p", "bash", "To github.com:acme/tool.git\n   1a2b3c4..7d8e9f0  main -> main\n"),
                assistant("Partial push — only went to `7d8e9f0`; today's commits are on `feat/csv`.",
                          call("b", "bash", command="git push -u origin feat/csv")),
                result("b", "bash", "To github.com:acme/tool.git\n * [new branch]      feat/csv -> feat/csv\n"),
                *_LATER]
    summary = summarize(messages)
    assert any("Partial push" in line and "main -> main" in line for line in _errors(summary)), summary


@pytest.mark.parametrize("sentence", [
    "Make sure we don't push the wrong branch.",
    "I committed only the docs, not `package.json`, as you asked.",
    "Should I push to `main` instead of `release`?",
])
def test_no_git_mistake_where_none_was_told(sentence: str) -> None:
    messages = [user("Commit the docs."), *_commit("c0", "main", "aa11bb2"), assistant(sentence)]
    summary = summarize(messages)
    assert "Errors told in words" not in summary and not _blocked(summary), summary


TREE = """Settings Error

 /home/u/site/.config/app.json
  └ server
    └ routes
      └ 2
        └ handler: Expected string, but received number

 Routes use a new format. Files with errors are skipped entirely.
"""


def test_an_error_drawn_as_a_tree_is_named_by_its_leaf() -> None:
    assert tree_error(TREE) == \
        "Settings Error (app.json): `server.routes.2.handler: Expected string, but received number`"
    assert tree_error(".\n├── src\n│   └── app.py\n└── README.md\n") == ""
    assert "Expected string, but received number" in telling_line(f"validating…\n{TREE}")


def test_a_tree_error_the_user_pasted_is_told() -> None:
    messages = [user(f"after running the installer I see this, which is odd since the installer finished and said all "
                     f"was well; the site starts but the routes are missing:\n{TREE}"),
                assistant("Let me look at the config writer.", call("r", "read", path="src/config.ts")),
                result("r", "read", "export const write = () => 1;\n"),
                assistant(call("e", "edit", path="src/config.ts", oldText="1", newText="2")),
                result("e", "edit", "Successfully replaced text in src/config.ts."),
                user("now update the changelog please"),
                assistant(call("w", "edit", path="CHANGELOG.md", oldText="a", newText="b")),
                result("w", "edit", "Successfully replaced text in CHANGELOG.md.")]
    summary = summarize(messages)
    assert any("Expected string, but received number" in line for line in _errors(summary)), summary


@pytest.mark.parametrize("worry", [
    "I'm still concerned that our product doesn't work properly yet.",
    "I'm worried the export is broken in some way.",
    "Are you sure the export is broken and not the import.",
    "I don't think this is going to work since the parser is not working.",
])
def test_a_worry_about_the_work_is_no_error_reported(worry: str) -> None:
    messages = [user(f"{worry} Right now, please remove the old banner from the docs."),
                assistant("Removing it.", call("r", "read", path="docs/index.md")),
                result("r", "read", "# Docs\n")]
    assert not told_errors(messages).open


def test_a_worry_that_names_a_failure_met_is_reported() -> None:
    messages = [user("I'm worried: the nightly deploy crashed twice with a 502. Please look at it."),
                assistant("Looking.", call("r", "read", path="deploy/nightly.yml")),
                result("r", "read", "jobs: {}\n")]
    assert any("502" in line for line in told_errors(messages).open)


def _gh(call_id: str, command: str, output: str, error: bool = False) -> list[dict]:
    return [assistant(call(call_id, "bash", command=command)), result(call_id, "bash", output, error=error)]


def test_a_failed_read_of_a_pull_request_is_settled_by_a_later_command_on_it() -> None:
    messages = [user("Check PR 7 and answer the open review comment."),
                *_gh("k", "gh pr view 7", "Exit code 1\nGraphQL: Projects (classic) is being deprecated in favor of "
                     "the new Projects experience (repository.pullRequest.projectCards)", error=True),
                *_gh("g", "gh api repos/acme/tool/pulls/7/comments/900123 --jq '.body'",
                     "Exit code 1\ngh: Not Found (HTTP 404)", error=True),
                *_gh("v", "gh pr view 7 --json state,mergedAt", '{"mergedAt":"2026-01-02T10:00:00Z","state":"MERGED"}'),
                *_gh("r", "gh api repos/acme/tool/pulls/7/comments/900123/replies -f body='Fixed in 1a2b3c4'",
                     '{"id":900200,"in_reply_to_id":900123}'),
                *_LATER]
    blocked = _blocked(summarize(messages))
    assert not any("gh " in line for line in blocked), blocked


def test_a_failed_change_of_a_pull_request_stays_open_after_a_read_of_it() -> None:
    messages = [user("Merge PR 7."),
                *_gh("m", "gh pr merge 7 --squash", "Exit code 1\nPull request #7 is not mergeable: the merge commit "
                     "cannot be cleanly created.", error=True),
                *_gh("v", "gh pr view 7 --json state,mergeable", '{"mergeable":"CONFLICTING","state":"OPEN"}'),
                *_LATER]
    blocked = _blocked(summarize(messages))
    assert any("gh pr merge 7" in line for line in blocked), blocked
