"""A user's choice between the options the agent offered is the chosen option's text (issue 20, decisions missed):
"second", "let's do B", "let's do 2 for now" pick by rank or key like "the second one" and "option B"; and a reply
that picks in words ("let's go with sqlite") is said once, with the option it chose, not again as the bare reply."""

from __future__ import annotations

import pytest

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
