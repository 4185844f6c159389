"""A brief's task heading is the goal (goal.py): a long first message that opens with a preamble, rules and context
and names the work under "## YOUR TASK: …" / "# Task" / "### Objective" gives that work as the goal, not its first
line ("You are working on the X project at /path")."""

from __future__ import annotations

import pytest

from ..messages import assistant, user
from .test_classes import summarize
from .test_offline import items

PREAMBLE = ("You are working on the billing service at /home/dev/billing.\n\n## CRITICAL RULES\n- DO NOT modify "
            "setup.cfg\n- Run `make ci` after ALL changes\n\n## CONTEXT\nThe service bills customers monthly. "
            "The client is at `billing/client.py`.\n\n")


@pytest.mark.parametrize("heading, task", [
    ("## YOUR TASK: Add proration to the invoice builder", "Add proration to the invoice builder"),
    ("## Task\n\nAdd proration to the invoice builder. It must round to cents.", "Add proration to the invoice builder."),
    ("### **Objective**: Add proration to the invoice builder", "Add proration to the invoice builder"),
    ("# Your task\nAdd proration to the invoice builder, with tests.", "Add proration to the invoice builder, with tests."),
])
def test_the_task_heading_is_the_goal(heading: str, task: str) -> None:
    brief = f"{PREAMBLE}{heading}\n\n### Files to change\n1. `billing/invoice.py`\n"
    goal = items(summarize([user(brief), assistant("Reading the invoice builder first.")]), "## Goal")
    assert goal and goal[0].startswith(task), goal


@pytest.mark.parametrize("heading", ["## Goals of the product\nHappy customers.", "## Tasks done so far\n- none"])
def test_a_heading_that_names_no_task_leaves_the_request(heading: str) -> None:
    request = f"Add proration to the invoice builder.\n\n{heading}\n"
    goal = items(summarize([user(request), assistant("On it.")]), "## Goal")
    assert goal and goal[0].startswith("Add proration to the invoice builder."), goal
