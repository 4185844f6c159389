"""A short proposal that points back ("I'd use it.") agrees to the list before it, with the list's intro; a past
"I proposed" in an item proposes nothing; a user's longer change that ends on "them" is still a change."""

from __future__ import annotations

import pytest

from .test_user_picks import _decisions

_LIBRARY = ("Looked at the libraries for the retry layer.\n\nWith `tenacity` we get:\n"
            "- **Retry with backoff** built in — better than the fixed delay I proposed earlier.\n- **Jitter** for free.\n\n"
            "I'd use it. Sound good?")


@pytest.mark.parametrize("reply", ["yes", "sounds good"])
def test_a_short_proposal_agrees_to_the_list_it_points_back_to(reply: str) -> None:
    found = _decisions(_LIBRARY, reply)
    assert len(found) == 1 and "tenacity" in found[0] and "Jitter" in found[0], found
    assert not found[0].startswith("Agreed with the user: -"), found


def test_a_past_proposal_in_an_item_is_not_the_proposal() -> None:
    offer = ("Changed the loader.\n\n- the cache now keys on the path, as I proposed before\n- the tests pass\n\n"
             "Shall I also drop the old `load_all` helper?")
    found = _decisions(offer, "yes")
    assert any("drop the old `load_all` helper" in item for item in found), found


def test_a_long_change_ending_on_them_is_kept() -> None:
    found = _decisions(_LIBRARY, "yes, also check the other modules for hand-written retries and replace them")
    assert any("the user added: “also check the other modules" in item for item in found), found
