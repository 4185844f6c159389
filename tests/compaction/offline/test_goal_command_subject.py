"""The goal under a slash command (goal.py): a command names a procedure; the objective is what it worked on. A
document passed whole as its arguments is named by its title; a command run without arguments takes its subject
from the user's words after it (a request worded as a question too: "can we send X to Y?"), else from the agent's
first words after the command loaded ("The open one is PR #23 … Let me work on that."). A setup command names no
goal, and an agent that says only what it starts with names no subject."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.goal import invocation, taken_up

from ..messages import assistant, call, result, user
from .test_offline import section, summarize

DOC = ("Base directory for this skill: /home/u/.claude/skills/{name}\n\n# {title}\n\nA procedure for things.\n\n"
       "## Steps\n\n1. **Find** - inventory\n2. **Check** - diagnose\n3. **Fix** - rewrite\n4. **Report** - tell\n")
COMMANDS = [("pr-comments", "PR comments"), ("kitchen:menu", "Menu"), ("validate", "Validate a design")]
WORK = [assistant(call("r1", "bash", command="gh pr list")), result("r1", "bash", "x")]


def _run(name: str, args: str = "") -> dict:
    tail = f"\n<command-args>{args}</command-args>" if args else ""
    return user(f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>{tail}")


def _goal(messages: list) -> str:
    return " ".join(section(summarize(messages), "## Goal"))


@pytest.mark.parametrize("title", ["Agentic Skill Remediation System", "Retry policy for the HTTP client"])
@pytest.mark.parametrize(("name", "_"), COMMANDS)
def test_a_document_passed_as_arguments_is_named_by_its_title(name: str, _: str, title: str) -> None:
    body = f"# {title}\n\nA pipeline for diagnosing things.\n\n" + "## Part\n\nMore words about it here.\n" * 30
    words = invocation(_run(name, body)["content"] if isinstance(_run(name, body)["content"], str)
                       else _run(name, body)["content"][0]["text"], expanded=True)
    assert title in words and "A pipeline" not in words and f"/{name}" in words


@pytest.mark.parametrize("ask", ["Can we send the AST to the code review so it's better than just the files",
                                 "Could we make the exporter take plugins so others add their own formats"])
@pytest.mark.parametrize(("name", "title"), COMMANDS)
def test_a_request_worded_as_a_question_is_the_commands_purpose(name: str, title: str, ask: str) -> None:
    goal = _goal([_run(name), user(DOC.format(name=name, title=title)), assistant("What's on your mind?"),
                   user(ask), *WORK])
    assert ask in goal and f"(with `/{name}`)" in goal


OPENINGS = [
    ("PR #22 is already merged. The open one needing attention is **PR #23** (develop → main), which conflicts. "
     "Let me work on that.", "PR #23"),
    ("I'll review PR #123 and answer its open threads.", "PR #123"),
    ("Validating the plan. Let me read plans/retry-design.md first and score each dimension.", "plans/retry-design.md"),
]


@pytest.mark.parametrize(("opening", "subject"), OPENINGS)
@pytest.mark.parametrize(("name", "title"), COMMANDS)
def test_a_bare_command_takes_the_subject_the_agent_took_up(name: str, title: str, opening: str, subject: str) -> None:
    goal = _goal([_run(name), user(DOC.format(name=name, title=title)), *WORK, assistant(opening)])
    assert subject in goal and f"(with `/{name}`)" in goal and "PR #22 is already merged" not in goal


@pytest.mark.parametrize("opening", [
    "I'll start by getting the repo info, PR details, and fetching review comments.",
    "Hey! Brainstorm mode activated. What's on your mind?",
    "Is PR #12 the one you mean? Let me know.",
    "PR #4 was merged yesterday.",
])
def test_no_subject_without_the_agent_naming_what_it_takes_up(opening: str) -> None:
    assert taken_up(opening) == ""


@pytest.mark.parametrize("setup", ["clear", "model", "compact", "login"])
def test_a_setup_command_is_no_goal(setup: str) -> None:
    goal = _goal([_run(setup), user("Fix the retry logic in src/http/client.ts so it backs off"), *WORK,
                  assistant("I'll look at PR #9 first.")])
    assert "retry logic" in goal and f"/{setup}" not in goal and "PR #9" not in goal


def test_a_later_request_replaces_the_commands_subject() -> None:
    goal = _goal([_run("pr-comments"), user(DOC.format(name="pr-comments", title="PR comments")), *WORK,
                  assistant("The open one is PR #23, which conflicts. Let me work on that."),
                  user("Now the real thing: add a --dry-run flag to the install script so it prints what it would do")])
    assert "--dry-run" in goal


@pytest.mark.parametrize(("opening", "subject"), OPENINGS)
def test_a_bare_command_after_finished_work_is_now_its_subject(opening: str, subject: str) -> None:
    done = [user("Add a --dry-run flag to the install script so it prints what it would do"),
            assistant(call("e1", "edit", path="install.sh", oldText="a", newText="b")), result("e1", "edit", "ok"),
            assistant("Added the flag.")]
    goal = _goal([*done, _run("pr-comments"), user(DOC.format(name="pr-comments", title="PR comments")), *WORK,
                  assistant(opening)])
    assert subject in goal and "(with `/pr-comments`)" in goal
