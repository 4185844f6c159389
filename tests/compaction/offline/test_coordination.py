"""How the agent organised the work by its calls (coordination.py): the order it set between its tasks, the sub-agents
it ran in parallel; both said as decisions in the summary."""

from __future__ import annotations

from pi_compact.compaction.offline.coordination import parallel_agents, task_order

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items


def _ordered() -> list[dict]:
    return [
        user("Implement the plan in docs/plan.md task by task."),
        assistant("Now let me set up the order of the tasks:",
                  call("u1", "TaskUpdate", taskId="2", addBlockedBy=["1"]),
                  call("u2", "TaskUpdate", taskId="4", addBlockedBy=["2", "3"])),
        result("u1", "TaskUpdate", "Updated task #2"),
        result("u2", "TaskUpdate", "Updated task #4"),
        assistant("Tasks 1 and 3 are independent: I'll run them side by side.",
                  call("a1", "Task", subagent_type="worker", description="Task 1: parser", prompt="Write the parser."),
                  call("a2", "Task", subagent_type="worker", description="Task 3: cli flags", prompt="Add the flags.")),
        result("a1", "Task", "Done: wrote src/parser.py"),
        result("a2", "Task", "Done: wrote src/cli.py"),
        assistant("Both tasks are done."),
    ]


def test_the_order_set_between_tasks_is_read_from_the_calls() -> None:
    assert task_order(_ordered()) == ("Dependency chain between the tasks set with `TaskUpdate` addBlockedBy: "
                                      "2 after 1; 4 after 2, 3")


def test_sub_agents_launched_together_are_told_as_run_in_parallel() -> None:
    said = parallel_agents(_ordered())
    assert "in parallel (worker)" in said and "“Task 1: parser” + “Task 3: cli flags”" in said


def test_one_sub_agent_at_a_time_and_no_order_say_nothing() -> None:
    messages = [user("Look into the flaky test."),
                assistant(call("a1", "Task", subagent_type="worker", prompt="Find why the test is flaky.")),
                result("a1", "Task", "It races on the clock."),
                assistant(call("u1", "TaskUpdate", taskId="1", status="completed")),
                result("u1", "TaskUpdate", "Updated task #1")]
    assert parallel_agents(messages) == "" and task_order(messages) == ""


def test_the_summary_says_both_as_decisions() -> None:
    decisions = items(summarize(_ordered()), "## Key Decisions")
    assert any(line.startswith("Dependency chain between the tasks") for line in decisions)
    assert any("in parallel" in line for line in decisions)
