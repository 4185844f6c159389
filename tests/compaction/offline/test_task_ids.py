"""A task of the agent's own list named by its id in the agent's later words (tasks.py): "that's the fix for task
#1" finishes task 1, however its title is worded; a sentence that names no id, or an id the list lacks, changes
nothing."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.tasks import DONE, PENDING, task_list

from ..messages import assistant, call, result, user

TITLES = ["Stop the importer dropping the retry action", "Skip archived ledgers in the nightly scan",
          "Route the audit log by the newest ledger"]


def _created_then(words: str) -> list[dict]:
    created = []
    for n, title in enumerate(TITLES, 1):
        created += [assistant(call(f"t{n}", "TaskCreate", subject=title)),
                    result(f"t{n}", "TaskCreate", f"Task #{n} created successfully: {title}")]
    return [user("list what we found"), *created, user("the fix is merged upstream, pull it in"),
            assistant(words)]


@pytest.mark.parametrize("words", [
    "The upstream side rewrote the dispatch. Take theirs, that's the fix for task #1.",
    "Merged cleanly; task 1 is done.",
    "Pulled it in. This fixed Task #1 as well.",
])
def test_a_sentence_that_names_a_task_by_its_id_and_finishes_it_finishes_it(words: str) -> None:
    kept = task_list(_created_then(words))
    assert kept is not None
    assert kept.with_status(DONE) == [TITLES[0]]
    assert kept.with_status(PENDING) == TITLES[1:]


@pytest.mark.parametrize("words", [
    "Merged cleanly. I will look at task #1 after lunch.",  # named, not finished
    "That's the fix for task #7.",  # no such task
    "Both tasks #2 and #3 wait on this; the merge is done.",  # finished, but names no task by 'task #N'
])
def test_a_sentence_that_does_not_finish_a_listed_task_by_its_id_changes_nothing(words: str) -> None:
    kept = task_list(_created_then(words))
    assert kept is not None
    assert kept.with_status(PENDING) == TITLES and not kept.with_status(DONE)
