"""Done lists what the region produced before what it found (progress.py): a finding ("X — already fully
implemented", "the infrastructure is fully in place", found while exploring) never stands first nor alone when the
turn wrote a plan or changed files; it stays, after them."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

FINDINGS = ["The plugin flag support is already fully implemented in `ChxPluginCommand`, so nothing to add there.",
            "Flag parsing in `parse-flags.ts` — already fully implemented.",
            "The infrastructure is fully in place: `ChxPluginCommand` already has a `flags` field."]


@pytest.mark.parametrize("finding", FINDINGS)
@pytest.mark.parametrize("made", ["", "\n\nI wrote the plan for the remaining plugin commands to `docs/plan.md`."])
def test_what_the_turn_made_comes_before_what_it_found(finding: str, made: str) -> None:
    messages = [user("Write a plan for the plugin flags work in docs/plan.md based on the current code."),
                assistant(call("r1", "read", path="src/parse-flags.ts")), result("r1", "read", "export function p() {}"),
                assistant(call("w1", "write", path="docs/plan.md", content="# Plan\n1. flags\n")),
                result("w1", "write", "Successfully wrote 20 bytes to docs/plan.md"), assistant(finding + made)]
    done = items(summarize(messages), "### Done")
    assert "plan.md" in done[0] and "already" not in done[0], done  # (the file by its short name, or the plan)
    assert any("already" in item for item in done[1:])
