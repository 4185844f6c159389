"""The agent's work plan in Claude Code's tools (issue 20): ``Write``, ``Edit``, ``MultiEdit`` and ``Read`` of a
checklist file are followed as pi's ``write``/``edit``/``read`` are, when the file is a work plan: the agent ticks its
boxes, or its place names it a plan and the agent has not since worked through its items by name without ticking
them. An issue write-up or a report with an "Implementation Checklist" for someone else is no plan of the agent's."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.plans import names_a_plan, open_plan_items

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES

PLAN = """# Plan: parser cache

## Tasks
- [ ] TASK-001: measure the parser
- [ ] TASK-002: add the cache
- [ ] TASK-003: document it
"""
PLAN_PATHS = st.sampled_from(["PLAN.md", "docs/implementation_plan.md", "plans/cache/TASKS.md", "TODO.md",
                              "/Users/alex/.claude/plans/witty-spinning-cake.md", "notes/roadmap.md"])
OTHER_PATHS = st.sampled_from(["ISSUE-orphaned-sessions.md", "docs/bug-report.md", "REVIEW.md", "notes/findings.md"])


def _write(path: str, text: str = PLAN) -> list[dict]:
    return [assistant(call("w", "Write", file_path=path, content=text)), result("w", "Write", "File created")]


def _tick(path: str, tool: str, item: str) -> list[dict]:
    old, new = f"- [ ] {item}", f"- [x] {item}"
    arguments = {"edits": [{"old_string": old, "new_string": new}]} if tool == "MultiEdit" else \
        {"old_string": old, "new_string": new}
    return [assistant(call("t", tool, file_path=path, **arguments)), result("t", tool, "The file has been updated.")]


@EXAMPLES
@given(path=st.one_of(PLAN_PATHS, OTHER_PATHS), tool=st.sampled_from(["Edit", "MultiEdit"]))
def test_a_checklist_the_agent_ticks_in_claude_codes_tools_is_its_plan(path: str, tool: str) -> None:
    messages = [user("Add a cache to the parser."), *_write(path), *_tick(path, tool, "TASK-001: measure the parser")]
    plan = open_plan_items(messages)
    assert plan is not None and plan.path == path, plan
    assert plan.open == ("Tasks (1/3 done)",) and plan.checked == 1


@EXAMPLES
@given(path=PLAN_PATHS)
def test_a_plan_just_written_is_followed_with_all_its_items_open(path: str) -> None:
    plan = open_plan_items([user("Plan the parser cache first."), *_write(path)])
    assert plan is not None and plan.open == ("Tasks",)


@EXAMPLES
@given(path=OTHER_PATHS)
def test_an_issue_write_up_with_a_checklist_is_no_plan(path: str) -> None:
    messages = [user("Write up the orphaned sessions issue."), *_write(path),
                assistant("The issue is written up with its implementation checklist.")]
    assert open_plan_items(messages) is None


@EXAMPLES
@given(path=PLAN_PATHS)
def test_a_plan_worked_through_by_name_without_ticks_is_no_record(path: str) -> None:
    messages = [user("Implement the plan."), *_write(path),
                assistant("✅ TASK-001 complete. Now for TASK-002: add the cache.")]
    assert open_plan_items(messages) is None


def test_claude_codes_numbered_read_gives_the_plan_text() -> None:
    numbered = "\n".join(f"{n:>6}\u2192{line}" for n, line in enumerate(PLAN.splitlines(), 1))
    messages = [assistant(call("r", "Read", file_path="PLAN.md")), result("r", "Read", numbered),
                *_tick("PLAN.md", "Edit", "TASK-002: add the cache")]
    plan = open_plan_items(messages)
    assert plan is not None and plan.checked == 1


def test_what_names_a_plan() -> None:
    assert all(map(names_a_plan, ["PLAN.md", "plans/x/design.md", "phase2-plan.md", "todo.txt", "WP-list.md"]))
    assert not any(map(names_a_plan, ["ISSUE-42.md", "explanation.md", "planet.md", "docs/report.md"]))


@EXAMPLES
@given(path=PLAN_PATHS)
def test_a_plan_carried_out_without_ticking_is_no_record(path: str) -> None:
    """Claude Code's plan mode: the plan is written, approved, then carried out file by file, its boxes never
    ticked: they say nothing of what is left."""
    messages = [user("Implement the plan."), *_write(path),
                assistant(call("e", "Edit", file_path="src/parser.py", old_string="a", new_string="b")),
                result("e", "Edit", "The file has been updated.")]
    assert open_plan_items(messages) is None
