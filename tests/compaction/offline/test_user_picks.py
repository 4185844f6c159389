"""A user's choice between the options the agent offered is the chosen option's text (issue 20, decisions missed):
"second", "let's do B", "let's do 2 for now" pick by rank or key like "the second one" and "option B"; and a reply
that picks in words ("let's go with sqlite") is said once, with the option it chose, not again as the bare reply."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.state import region_state
from tests.growth import growth

from ..messages import assistant, user
from .test_offline import items, summarize

_OFFER = ("There are two ways to keep the sessions:\n\n1. Redis — fast, needs a server\n2. SQLite — one file, no "
          "server\n\nWhich do you prefer?")
_LETTERS = ("Options:\n\n- **A**: keep the REST endpoints and add a cache\n- **B**: move the endpoints to GraphQL\n\n"
            "Which one?")


def _decisions(offer: str, reply: str) -> list[str]:
    return items(summarize([user("Add session storage to the API."), assistant(offer), user(reply),
                            assistant("OK, going ahead.")]), "## Key Decisions")


@pytest.mark.parametrize(("offer", "reply", "chosen"), [
    (_OFFER, "second", "SQLite — one file, no server"),
    (_OFFER, "let's do 2 for now", "SQLite — one file, no server"),
    (_LETTERS, "let's do B", "move the endpoints to GraphQL"),
])
def test_a_pick_by_rank_or_key_is_the_options_text(offer: str, reply: str, chosen: str) -> None:
    found = _decisions(offer, reply)
    assert any(chosen in item for item in found), found


def test_a_pick_in_words_is_said_once_with_its_option() -> None:
    found = _decisions(_OFFER, "let's go with sqlite")
    assert len(found) == 1 and "SQLite — one file, no server" in found[0], found


def offered_and_picked_region(n: int) -> list[dict]:
    """``n`` turns, each offering two ways and answered by a pick in words that also says a choice: every reply is
    checked against the decisions of the turn before it (the settled option), n of each."""
    region: list[dict] = []
    for i in range(n):
        region += [assistant(f"Two ways for part {i}:\n\n1. Redis{i} — fast\n2. SQLite{i} — one file\n\nWhich one?"),
                   user(f"let's go with sqlite{i} instead of redis{i}. Use SQLite{i} rather than Redis{i} for part {i}.")]
    return [user("Add session storage to the API."), *region, assistant("OK.")]


def test_picks_in_words_grow_linearly_in_turns() -> None:
    regions = {n: offered_and_picked_region(n) for n in (60, 120, 240)}
    facts = {n: extract_facts(region) for n, region in regions.items()}
    found = growth("region_state", lambda n: (lambda: region_state(regions[n], facts[n])), 60, runs=3)
    assert found.linear, str(found)
