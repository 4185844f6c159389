"""An acknowledgement of the user's word to move on is no agreement (issue 20): the user says "let's move on to the
chart wheel", the agent answers "Understood, moving on to the chart wheel." and goes on. What the agent restates
there is its next step, not a design decision the user and the agent settled: the user's request is the fact (the
current task), and an "Agreed with the user: moving on to …" is noise that outlives the step. An acknowledgement
that restates what the user settled ("Got it — the journal is removed, ClickHouse is the only store.") still is one.
Each case in three agents' shapes of the calls that follow."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.rules import acknowledged

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

FORMATS = {
    "pi": lambda path: ("read", {"path": path}),
    "claude": lambda path: ("Read", {"file_path": path}),
    "codex": lambda path: ("exec_command", {"cmd": f"cat {path}"}),
}
ACKS = ["Understood,", "Got it.", "Noted —", "You're right,"]
MOVES = ["moving on to {}.", "Moving on to {} now.", "moving to {} next.", "proceeding with {}.",
         "continuing with {}.", "we'll move on to {} then.", "now moving on to {}.", "heading over to {}.",
         "turning to {} now.", "starting on {} right away."]
SUBJECTS = [("the chart wheel", "src/components/ChartWheel.vue"), ("the export feature", "src/export/index.ts"),
            ("the billing migration", "db/migrations/0042_billing.sql")]


def _session(agent: str, ack: str, move: str, subject: tuple[str, str]) -> list[dict]:
    name, path = subject
    tool, arguments = FORMATS[agent](path)
    return [user("Make the ephemeris load in the browser."),
            assistant("The package needs Deno shims; it cannot load under Vite.",
                      call("a", tool, **arguments)), result("a", tool, "export {}\n"),
            user(f"ok let's leave that and move on to {name}"),
            assistant(f"{ack} {move.format(name)}", call("b", tool, **arguments)), result("b", tool, "<template/>\n")]


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize("ack", ACKS)
@pytest.mark.parametrize("move", MOVES)
def test_an_acknowledged_move_on_is_no_agreement(agent: str, ack: str, move: str) -> None:
    subject = SUBJECTS[(ACKS.index(ack) + MOVES.index(move)) % len(SUBJECTS)]
    summary = summarize(_session(agent, ack, move, subject))
    assert not any(item.startswith("Agreed with the user") for item in items(summary, "## Key Decisions")), summary


@pytest.mark.parametrize(("said", "agreed"), [
    ("Got it — the local journal is being removed, ClickHouse is the only store.",
     "the local journal is being removed, ClickHouse is the only store."),
    ("Understood. Switching to pnpm for every install from now on.", "Switching to pnpm for every install from now on."),
    ("You're right - we shouldn't continue with an empty `baseCommit`.",
     "we shouldn't continue with an empty `baseCommit`."),
    ("Understood — the continuation token moves to the response header.",
     "the continuation token moves to the response header."),
])
def test_an_acknowledged_decision_is_still_agreed(said: str, agreed: str) -> None:
    assert acknowledged(said) == agreed
