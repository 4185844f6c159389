"""How agents state decisions (issue 20, decisions missed): the agent's own choice said as its next move with its
reason ("I'll go with SQLite because …", "Let's stick with the retry helper rather than …"), a sentence opening on
"Decision:" (plain or bold), and a way rejected with its reason ("Not a global lock, because …", "We won't add a
queue since …") are Key Decisions; a move without a reason ("I'll use grep to find the callers") and a thing named a
decision ("The **carry-forward decision**: …") are not."""

from __future__ import annotations

import pytest

from ..messages import assistant, user
from .test_offline import items, summarize

_WORK = "Add storage for the job results to the worker service."


def _decisions(words: str) -> list[str]:
    return items(summarize([user(_WORK), assistant(words)]), "## Key Decisions")


@pytest.mark.parametrize(("words", "kept"), [
    ("I'll go with SQLite because the results fit on one machine and we need no server.", "go with SQLite"),
    ("Let's stick with the existing retry helper rather than adding tenacity as a dependency.", "existing retry helper"),
    ("OK, I'll use a bounded LRU cache since the result keys repeat within a batch.", "bounded LRU cache"),
    ("Decision: keep the results as JSON lines so the old readers still work.", "keep the results as JSON lines"),
    ("**Decision:** write the results through the repository layer, not straight to the table.", "repository layer"),
    ("Not a global lock, because two workers may hold different result partitions at once.", "Not a global lock"),
    ("We won't add a queue since the jobs finish in well under a second.", "won't add a queue"),
])
def test_a_stated_decision_is_kept(words: str, kept: str) -> None:
    found = _decisions(words)
    assert any(kept in item for item in found), found


@pytest.mark.parametrize("words", [
    "I'll use grep to find the callers of the result writer.",
    "I'll keep looking since the result writer log is long.",
    "Let me check the decision log of the result writer first.",
    "The **carry-forward decision**: which results still have to be written?",
])
def test_a_step_or_a_named_decision_is_no_decision(words: str) -> None:
    assert _decisions(words) == ["(none)"]
