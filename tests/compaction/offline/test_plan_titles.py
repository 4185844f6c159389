"""An approved plan's title is the plan's own heading (agent_plans.py; issue 20): a plan the agent rewrote after the
user's notes is headed "Updated Plan: Queue uploads through a worker", and Key Decisions says "Plan approved by the
user: Queue uploads through a worker", not "…: Updated Plan: …" — which version it is says nothing the next agent
needs. The same through Claude Code's ``ExitPlanMode``, a pi ``write`` of a plan file and a Codex patch adding one."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

_TITLE = "Queue uploads through a worker"
_LEADS = ["Updated Plan: ", "Revised Plan — ", "Updated Implementation Plan: ", "Final plan: ", "New Plan - ",
          "Plan (updated): "]


def _plan(lead: str) -> str:
    return (f"# {lead}{_TITLE}\n\n## Approach\n\n- Use a SQLite table instead of JSON files for the upload records.\n\n"
            "## Files\n\n- `src/uploads/store.py` — the table\n")


def _approved(tool: str, lead: str) -> list[dict]:
    plan = _plan(lead)
    if tool == "claude code":
        return [assistant(call("p1", "ExitPlanMode", plan=plan)),
                result("p1", "ExitPlanMode", "User has approved your plan. You can now start coding.")]
    if tool == "codex":
        patch = "*** Begin Patch\n*** Add File: PLAN.md\n" + "".join(f"+{line}\n" for line in plan.splitlines()) + \
            "*** End Patch"
        written = [assistant(call("w1", "apply_patch", input=patch)), result("w1", "apply_patch", "Success.")]
    else:
        written = [assistant(call("w1", "write", path="PLAN.md", content=plan)),
                   result("w1", "write", f"Successfully wrote {len(plan)} bytes to PLAN.md")]
    return [*written, assistant("The plan is in PLAN.md. Shall I go ahead?"), user("Looks good, go ahead.")]


@pytest.mark.parametrize("tool", ["claude code", "pi", "codex"])
@pytest.mark.parametrize("lead", _LEADS)
def test_an_approved_plans_title_is_its_own_heading(tool: str, lead: str) -> None:
    messages = [user("Plan how to queue uploads through a worker first."), *_approved(tool, lead),
                assistant("Starting with the table.", call("e1", "write", path="src/uploads/store.py",
                                                           content="import sqlite3\n")),
                result("e1", "write", "ok")]
    decisions = items(summarize(messages), "## Key Decisions")
    titles = [d for d in decisions if d.startswith("Plan approved by the user:")]
    assert titles and all(d.startswith(f"Plan approved by the user: {_TITLE}") for d in titles), decisions
