"""A question the user asks the agent about its course (steer.py, state.py, steps.py, summary.py): "should you be
following this guide?", "is that the right port?". Answered, it is no open work of its own: the unfinished request
before it is what is under way, and the question with the agent's answer is a decision."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.steer import asks_agent

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

REQUEST = "Open a PR for the exporter, wait for the CI checks to pass, then merge it and tag a release."


@pytest.mark.parametrize("text", [
    "should you be following this guide: https://example.org/docs/ci-action/",
    "is that the right port?",
    "why are you mocking the database?",
    "did you run the linter first?",
    "shouldn't we use the official image?",
    "wait, are you sure that flag exists?",
])
def test_a_question_on_the_agents_course_asks_the_agent(text: str) -> None:
    assert asks_agent(text)


@pytest.mark.parametrize("text", [
    "can you add a flag for the output dir?",
    "could you also fix the parser?",
    "would you add tests for it?",
    "add a flag for the output dir",
    "Why did the build fail? Fix it and push.",
    "how about a retry on timeout?",
    "",
])
def test_a_request_for_work_is_no_question_on_the_course(text: str) -> None:
    assert not asks_agent(text)


def _region(question: str) -> list[dict]:
    return [
        user(REQUEST),
        assistant("I'll push the branch and open the PR.", call("p1", "bash", command="git push -u origin exporter")),
        result("p1", "bash", "branch 'exporter' set up to track 'origin/exporter'."),
        assistant(call("p2", "bash", command="gh pr checks 7 --watch")),
        result("p2", "bash", "The user doesn't want to proceed with this tool use. The tool use was rejected.",
               error=True),
        user(question),
        assistant("Yes, I should use the official `acme/deploy-action@v2` action. Let me update the workflow.",
                  call("e1", "edit", path=".ci/workflow.yml", oldText="old-action", newText="acme/deploy-action@v2")),
        result("e1", "edit", "Edited."),
        assistant("Now let me check the run again.", call("p3", "bash", command="gh run list --limit 1")),
        result("p3", "bash", "in_progress  exporter  12s"),
    ]


@pytest.mark.parametrize("question", [
    "should you be following this guide: https://example.org/docs/ci-action/",
    "shouldn't you use the official action instead?",
])
def test_the_request_a_question_steered_is_under_way(question: str) -> None:
    text = summarize(_region(question))
    progress = items(text, "### In Progress")
    assert not any(line.startswith(f"“{question}") for line in progress)
    assert any("merge it and tag a release" in line and "under way" in line for line in progress)
    decisions = items(text, "## Key Decisions")
    assert any(question[:30] in line and "official `acme/deploy-action@v2`" in line for line in decisions)


def test_a_request_after_finished_work_is_not_taken_for_a_steer() -> None:
    messages = [user("Rename the export module to `exporter.py`."),
                assistant(call("m1", "bash", command="git mv export.py exporter.py")),
                result("m1", "bash", ""),
                assistant("Renamed `export.py` to `exporter.py`."),
                user("should you also update the imports?"),
                assistant("Yes. Let me update them.", call("e1", "edit", path="app.py", oldText="export",
                                                             newText="exporter")),
                result("e1", "edit", "Edited.")]
    text = summarize(messages)
    assert not any(line.startswith("“Rename the export module") and "under way" in line
                   for line in items(text, "### In Progress"))
