"""The user's pick of a numbered or labelled option inside a request for the work is a decision with its text."""

import pytest

from pi_compact.compaction.offline.labelled_options import picked_in_request

LISTED = """The branch cannot be merged yet. Two ways:

1. **Merge main into the PR branch** - resolve the conflicts there
2. Rebase the PR onto main and force-push

Which do you prefer?"""
LABELLED = """**Option A (short):**
Keep the footnote brief.

**Option B (long):**
Explain the history in full.
"""

PICKS = [
    ("can you fix option 1", "option 1: Merge main into the PR branch"),
    ("go with 2 and fix it", "option 2: Rebase the PR onto main"),
    ("1でお願い、直して", "option 1: Merge main"),
    ("let's take the second one please", "option 2: Rebase"),
    ("方案2，修一下", "option 2: Rebase"),
    ("2番で進めて", "option 2: Rebase"),
    ("do #1 and push", "option 1: Merge main"),
    ("opção 2, por favor faça", "option 2: Rebase"),
    ("not option 1 — do option 2", "option 2: Rebase"),
]


@pytest.mark.parametrize(("reply", "chosen"), PICKS)
def test_a_pick_inside_a_request_is_the_option_chosen(reply, chosen):
    assert picked_in_request(LISTED, reply).startswith(f"The user chose {chosen}")


def test_a_labelled_option_picked_in_a_request_keeps_its_label():
    assert picked_in_request(LABELLED, "use option B and write it") == (
        "The user chose Option B (long): Explain the history in full.")


GUARDS = [
    (LISTED, "fix 2 files and push"),  # a count, no pick
    ("The build is green and the PR is ready.", "can you fix option 1"),  # no options listed before it
    (LISTED, "option 1 — never mind, just leave it"),  # the pick taken back
    (LISTED, "do option 1 and option 2"),  # two picks: no one choice
    (LISTED, "merge PR #2 first"),  # the number of a PR
    (LISTED, "go with 5"),  # no such option
    (LABELLED, "is there an option a user can toggle"),  # "a" is an article
    ("1. Run the tests\n\nDone.", "do option 1"),  # one item is no choice
]


@pytest.mark.parametrize(("answer", "reply"), GUARDS)
def test_no_pick_is_read_where_there_is_none(answer, reply):
    assert picked_in_request(answer, reply) == ""
