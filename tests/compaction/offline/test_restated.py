"""A choice of the user's the agent says again as its own decision is listed once (restated.py; issue 20): "The user
chose: use X instead of Y for Z" stays, the agent's "I'll use X instead of Y for Z, since …" goes; a decision of the
agent's that says more than the user's choice stays beside it. In every harness's form of the change that follows."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.restated import said_once

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

_CHOICES = [
    ("use Object.assign() instead of the spread operator for merging the configs", "src/config.ts",
     "I'll use Object.assign() instead of the spread operator for merging the configs, since it keeps the target."),
    ("use the real postgres database instead of mocks for the repository tests", "tests/test_repo.py",
     "I'll use the real postgres database instead of mocks for the repository tests, because you asked."),
    ("keep the retry helper rather than adding tenacity for the http client", "src/http.py",
     "Keeping the retry helper rather than adding tenacity for the http client, since it is already tested."),
]


def _change(tool: str, path: str) -> list[dict]:
    if tool == "codex":
        patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n-a\n+b\n*** End Patch"
        return [call("p1", "apply_patch", input=patch), result("p1", "apply_patch", "Success.")]
    if tool == "claude code":
        return [call("e1", "Edit", file_path=path, old_string="a", new_string="b"), result("e1", "Edit", "ok")]
    return [call("e1", "edit", path=path, oldText="a", newText="b"), result("e1", "edit", "ok")]


@pytest.mark.parametrize("tool", ["pi", "claude code", "codex"])
@pytest.mark.parametrize("choice, path, restated", _CHOICES)
def test_a_users_choice_the_agent_restates_is_one_decision(tool: str, choice: str, path: str, restated: str) -> None:
    called, done = _change(tool, path)
    messages = [user(f"please update {path}. {choice}"), assistant(restated, called), done,
                assistant("Done, the change is in place.")]
    decisions = items(summarize(messages), "## Key Decisions")
    same = [d for d in decisions if choice.split(" for ")[0].split()[-1] in d]
    assert len(same) == 1, decisions


def test_a_decision_that_says_more_than_the_users_choice_stays() -> None:
    decisions = ["Keeping the JSON encoder for the export, the YAML encoder for the import and the TOML one for "
                 "settings, since the formats differ.", "The user chose: keep the JSON encoder for the export"]
    assert said_once(decisions) == decisions


def test_a_restatement_goes_and_the_users_choice_stays() -> None:
    decisions = ["I'll use pnpm workspaces for the monorepo packages, since they share deps.",
                 "The user chose: use pnpm workspaces for the monorepo packages"]
    assert said_once(decisions) == decisions[1:]
