"""What remains that the closing answer names (state._next_steps): only what remains *because it is not the agent's
work* (not from here, pre-existing, unrelated, not mine, someone else's) is dropped; work that merely says
"personal" or "not changed" is a real next step. A table row is never a step (a "Next steps" column's header)."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_offline import items, summarize


def _steps(closing: str) -> list[str]:
    return items(summarize([user("Add OAuth login to the CLI"),
                            assistant(call("e", "edit", path="src/auth.ts", oldText="a", newText="b")),
                            result("e", "edit", "Successfully replaced text."),
                            assistant(closing)]), "## Next Steps")


@pytest.mark.parametrize("closing, named", [
    ("OAuth login is added in `src/auth.ts`. Remaining: add personal access token support.", "personal access token"),
    ("OAuth login is added. Remaining: the token refresh is not changed yet and still needs a retry.",
     "token refresh"),
    ("OAuth login is added. Remaining: the untouched `src/legacy.ts` still needs the same login.", "src/legacy.ts"),
])
def test_work_that_remains_stays_a_step(closing: str, named: str) -> None:
    assert any(named in step for step in _steps(closing)), _steps(closing)


@pytest.mark.parametrize("closing", [
    "OAuth login is added. Remaining changes in `vendor/` are pre-existing, not from this work.",
    "OAuth login is added. The remaining files in `scratch/` are someone else's.",
    "OAuth login is added. Remaining: `notes.md` is unrelated to this change.",
])
def test_what_remains_that_is_not_the_agents_is_no_step(closing: str) -> None:
    steps = _steps(closing)
    assert not any("vendor/" in step or "scratch/" in step or "notes.md" in step for step in steps), steps


def test_a_table_header_is_no_step() -> None:
    steps = _steps("OAuth login is added.\n\n| What | Next steps |\n|---|---|\n| login | none |")
    assert not any(step.startswith("|") for step in steps), steps
