"""A skill or slash command is not the goal (goal.py): when the harness expands a skill's file into the user's
message ("Base directory for this skill: …", then the file), the user's words are what was passed with it (its
``ARGUMENTS:`` line), not the file's boilerplate; a command run without arguments names no work, and the user's own
words after it (the answer to the command's question, when it asks for work) say what it is for."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.goal import request_words

from ..messages import assistant, call, result, user
from .test_offline import section, summarize

DOC = ("Base directory for this skill: /home/u/.claude/skills/{name}\n\n# {title}\n\nA pipeline for diagnosing and "
       "fixing things at scale.\n\n## Core Workflow\n\n1. **Cataloger** - inventory\n2. **Analyst** - diagnose\n"
       "3. **Fixer** - rewrite\n4. **QA** - validate\n")
ARGS = "\nARGUMENTS: the grade B skills in ~/.claude/skills, keep their names"
SKILLS = [("skill-fixer", "Skill Fixer"), ("brainstorm", "Brainstorming ideas into designs")]
WORK = [assistant("I'll start by reading the code."), assistant(call("r1", "read", path="src/a.ts")),
        result("r1", "read", "x")]


def _goal(messages: list) -> str:
    return " ".join(section(summarize(messages + WORK), "## Goal"))


@pytest.mark.parametrize(("name", "title"), SKILLS)
def test_a_skill_file_is_its_arguments(name: str, title: str) -> None:
    assert request_words(DOC.format(name=name, title=title) + ARGS) == ARGS.split(": ", 1)[1]
    assert request_words(DOC.format(name=name, title=title)) == ""


@pytest.mark.parametrize(("name", "title"), SKILLS)
@pytest.mark.parametrize("before", [[], [assistant("Sure.")]])
def test_the_goal_of_an_expanded_skill_is_what_was_asked(name: str, title: str, before: list) -> None:
    goal = _goal([*before, user(DOC.format(name=name, title=title) + ARGS)])
    assert "grade B skills" in goal and "Base directory" not in goal and title not in goal


@pytest.mark.parametrize(("name", "title"), SKILLS)
def test_a_bare_command_takes_its_goal_from_the_users_answer(name: str, title: str) -> None:
    invoked = user(f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>")
    answer = "I want a plugin system for the exporter so third parties can add their own output formats"
    goal = _goal([invoked, user(DOC.format(name=name, title=title)), assistant("What would you like to work on?"),
                  user(answer)])
    assert answer in goal and f"(with `/{name}`)" in goal and "Base directory" not in goal


def test_a_command_with_arguments_keeps_them() -> None:
    invoked = user("<command-message>review</command-message>\n<command-name>/review</command-name>\n"
                   "<command-args>the retry logic in src/http/client.ts</command-args>")
    goal = _goal([invoked, user(DOC.format(name="review", title="Code review"))])
    assert "the retry logic in src/http/client.ts" in goal


def test_a_task_of_its_own_after_a_bare_command_is_no_purpose_of_it() -> None:
    invoked = user("<command-message>pr-review</command-message>\n<command-name>/pr-review</command-name>")
    later = "I've merged the other PR but now we have merge conflicts with the parent branch, please merge it"
    goal = _goal([invoked, user(DOC.format(name="pr-review", title="PR review")), assistant("Reviewed: 3 comments."),
                  user(later)])
    assert "(with `/pr-review`)" not in goal
