"""Through the whole offline summary: a set-aside intention, a pick inside a request, and conflict sides taken."""

from __future__ import annotations

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize


def _decisions(summary: str) -> str:
    return summary.split("## Key Decisions", 1)[1].split("\n## ", 1)[0]


def test_an_intention_set_aside_later_is_history_with_the_new_way():
    messages = [
        user("The review says the renamed field breaks old state files."),
        assistant("The reviewer is correct. Let me fix this by adding a deprecated field with migration in the "
                  "loader.", call("e1", "edit", path="state.go", oldText="a", newText="b")),
        result("e1", "edit", "ok"),
        user("the old field only shipped today, can we rename it on main?"),
        assistant("Done: instead of adding a deprecated field with migration, I opened a patch PR on main that "
                  "renames the field there first."),
    ]
    said = _decisions(summarize(messages))
    assert "Was: Let me fix this by adding a deprecated field" in said
    assert "patch PR on main" in said


def test_a_pick_of_a_numbered_option_inside_a_request_is_a_decision():
    messages = [
        user("Can we merge PR 5?"),
        assistant("It has conflicts. What needs to happen:\n\n1. Merge main into the PR branch and resolve the "
                  "conflicts\n2. Run the tests once the conflicts are resolved\n\nThe PR has no reviews yet."),
        user("can you fix option 1"),
        assistant("Merged main and resolved the conflicts."),
    ]
    assert "The user chose option 1: Merge main into the PR branch" in _decisions(summarize(messages))


def test_the_side_a_merge_conflict_took_is_a_decision():
    messages = [
        user("merge main into this branch"),
        assistant(call("b1", "bash", command="git merge main")),
        result("b1", "bash", bash_fail("CONFLICT (content): Merge conflict in src/tool.go", 1), error=True),
        assistant(call("b2", "bash", command="git checkout --theirs src/tool.go src/other.go && git add .")),
        result("b2", "bash", ""),
        assistant("Resolved the conflicts and committed the merge."),
    ]
    assert "Conflicts resolved: main's version (--theirs) of tool.go, other.go" in _decisions(summarize(messages))
