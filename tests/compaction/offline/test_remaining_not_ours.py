"""What the agent's closing answer says remains but is not its work — someone's personal files, files it left as they
are, pre-existing changes — is a report of state, not a next step (issue 20, an answered request's closing words
given as the next step); what remains to do stays a step."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_offline import items, summarize


def _steps(closing: str) -> list[str]:
    return items(summarize([user("Commit the Duet commands and remove the stale ones from ~/.claude/commands."),
                            assistant("Committing.", call("c1", "bash", command="git commit -am 'commands'")),
                            result("c1", "bash", "[main 1a2b3c4] commands"),
                            assistant(closing)]), "## Next Steps")


@pytest.mark.parametrize("closing", [
    "Committed as 1a2b3c4. Remaining in `~/.claude/commands/` are personal commands not from Duet: `deep-research`, "
    "`planner`.",
    "Done: committed 1a2b3c4.\n\nRemaining (left as is, not mine):\n- `notes.md`\n- `scratch/`",
    "Committed. The remaining changes in `vendor/` are pre-existing and unrelated to this work.",
])
def test_what_remains_that_is_not_the_agents_is_no_step(closing: str) -> None:
    found = _steps(closing)
    assert not any("deep-research" in step or "notes.md" in step or "vendor/" in step for step in found), found


@pytest.mark.parametrize(("closing", "step"), [
    ("Committed the commands. Remaining: update the README to list them.", "update the README"),
    ("Committed.\n\nRemaining work:\n- add the `deploy` command\n- document it", "deploy"),
])
def test_what_remains_to_do_stays_a_step(closing: str, step: str) -> None:
    found = _steps(closing)
    assert any(step in item for item in found), found
