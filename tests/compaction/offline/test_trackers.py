"""Work driven through an outside tracker by shell commands (trackers.py, tasks.py, steps.py, progress.py): the item
set in progress is the current task with the command that closes it, the sub-items still open come next, the items
closed are done with their reasons; commands that only look like a tracker's change nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.progress import closed_items
from pi_compact.compaction.offline.shell import command_words
from pi_compact.compaction.offline.state import RegionState
from pi_compact.compaction.offline.tasks import ACTIVE, PENDING, task_list
from pi_compact.compaction.offline.trackers import tracked_items

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

# An invented tracker ("wk") and an invented epic: a ledger export in three sub-items.
READY = "1. [P1] ledg-4: Export the ledger as CSV\n2. [P2] ledg-9: Tidy the fixtures\n"
SHOW = ("ledg-4: Export the ledger as CSV\nStatus: open\nChildren:\n  ledg-4.1: Write the CSV writer [open]\n"
        "  ledg-4.2: Add the export command [open]\n  ledg-4.3: Document the export [open]\n")


def _bash(call_id: str, command: str, output: str, *, error: bool = False) -> list[dict]:
    return [assistant(call(call_id, "bash", command=command)), result(call_id, "bash", output, error=error)]


def _epic_under_way(program: str = "wk") -> list[dict]:
    return [user("continue"),
            *_bash("r", f"{program} ready", READY),
            *_bash("s", f"{program} show ledg-4", SHOW),
            *_bash("u", f"{program} update ledg-4 --status in_progress", "✓ Updated issue: ledg-4"),
            assistant(call("e", "edit", path="src/export/csv.py", oldText="a", newText="b")),
            result("e", "edit", "Successfully replaced text in src/export/csv.py."),
            *_bash("c", f'{program} close ledg-4.1 --reason "writer and its round-trip tests pass"',
                   "✓ Closed ledg-4.1: Write the CSV writer"),
            assistant("Now the export command.", call("e2", "edit", path="src/cli.py", oldText="a", newText="b")),
            result("e2", "edit", "Successfully replaced text in src/cli.py.")]


@pytest.mark.parametrize("program", ["wk", "tix"])
def test_the_item_set_in_progress_is_the_current_task_with_the_command_that_closes_it(program: str) -> None:
    kept = task_list(_epic_under_way(program))
    assert kept is not None
    [current] = kept.entries(ACTIVE)
    assert current.text == "`ledg-4` Export the ledger as CSV" and current.closing == f"{program} close ledg-4"
    # its sub-items still open; another ready item is the queue, not this work's plan
    assert kept.with_status(PENDING) == ["`ledg-4.2` Add the export command", "`ledg-4.3` Document the export"]
    [closed] = kept.closed
    assert closed.text == "`ledg-4.1` Write the CSV writer" and closed.reason == "writer and its round-trip tests pass"


def test_the_summary_names_the_current_item_and_the_open_ones_next() -> None:
    summary = summarize(_epic_under_way())
    ongoing, steps = "\n".join(items(summary, "### In Progress")), "\n".join(items(summary, "## Next Steps"))
    assert "`ledg-4` Export the ledger as CSV (in progress on the tracker; when done: `wk close ledg-4`)" in ongoing
    assert "Task still to do: `ledg-4.2` Add the export command (open on the tracker)" in steps
    assert "ledg-4.2" not in ongoing and "ledg-4.1" not in steps  # closed: no step
    done = "\n".join(items(summary, "### Done"))
    assert "Closed on the tracker: `ledg-4.1` Write the CSV writer — “writer and its round-trip tests pass”" in done


@pytest.mark.parametrize("request_words, named", [("continue", True), ("next one", True),
                                                    ("Add a header row to every exported CSV file", False)])
def test_a_request_that_only_moves_the_work_on_takes_the_item_taken_up_as_what_the_work_is_now(
        request_words: str, named: bool) -> None:
    summary = summarize([user(request_words), *_epic_under_way()[1:]])
    goal = "\n".join(items(summary, "## Goal"))
    assert ("now: the tracker's item `ledg-4` Export the ledger as CSV" in goal) is named


def test_each_item_closed_is_a_done_line_with_its_reason() -> None:
    state = RegionState("", "", (), "", "", "", (), (), (), (), (), tasks=task_list(_epic_under_way()))
    assert closed_items(state) == [
        "Closed on the tracker: `ledg-4.1` Write the CSV writer — “writer and its round-trip tests pass”"]


def test_a_close_whose_confirmation_echoes_the_reason_takes_no_title_from_it() -> None:
    messages = [user("continue"),
                *_bash("s", "wk show ledg-4", SHOW),
                *_bash("c1", 'wk close ledg-4 --reason="exporter and its tests done"',
                       "✓ Closed ledg-4: exporter and its tests done"),
                *_bash("c2", 'wk close ledg-9 --reason="fixtures tidied, suite green"',
                       "✓ Closed ledg-9: fixtures tidied, suite green")]
    state = RegionState("", "", (), "", "", "", (), (), (), (), (), tasks=task_list(messages))
    assert closed_items(state) == [
        "Closed on the tracker: `ledg-4` Export the ledger as CSV — “exporter and its tests done”",
        "Closed on the tracker: `ledg-9` — “fixtures tidied, suite green”"]


def test_a_numbered_issue_closed_after_a_noun_is_done_with_its_comment() -> None:
    messages = [user("fix the crash on an empty config"),
                *_bash("v", "gh issue view 31", "title:\tCrash on empty config\nstate:\tOPEN\nnumber:\t31"),
                *_bash("c", 'gh issue close 31 --comment "Fixed by the guard in load_config"',
                       "✓ Closed issue #31 (Crash on empty config)")]
    kept = task_list(messages)
    assert kept is not None and kept.tasks == ()
    [closed] = kept.closed
    assert closed.text == "issue #31 Crash on empty config" and closed.reason == "Fixed by the guard in load_config"


def test_an_item_viewed_as_fields_takes_its_title_from_the_title_field() -> None:
    messages = [user("take the next issue"),
                *_bash("u", "gh issue edit 44 --add-label in-progress", "https://example.test/o/r/issues/44"),
                *_bash("v", "gh issue view 44", "title:\tRetry the upload on a timeout\nstate:\tOPEN\nnumber:\t44"),
                *_bash("s", 'gh issue reopen 44', "✓ Reopened issue #44")]
    [item] = tracked_items(messages)
    assert (item.id, item.title, item.status) == ("44", "Retry the upload on a timeout", PENDING)


@pytest.mark.parametrize("separator", [": ", " · ", " • ", " — ", " [P2] "])
def test_the_title_after_an_id_drops_the_listing_separator(separator: str) -> None:
    messages = [user("next task"),
                *_bash("u", "wk update ledg-7 --status in_progress", "✓ Updated issue: ledg-7"),
                *_bash("v", "wk show ledg-7", f"ledg-7{separator}Retry the upload on a timeout\nStatus: in_progress\n")]
    [item] = tracked_items(messages)
    assert item.title == "Retry the upload on a timeout"


def test_a_status_set_by_an_id_option_or_a_bare_status_word_counts() -> None:
    messages = [user("next task"),
                *_bash("a", "task-runner set-status --id=3 --status=in-progress",
                       'Successfully updated task 3 status to "in-progress"'),
                *_bash("b", 'jira issue move OPS-12 "In Progress"', "Issue OPS-12 moved"),
                *_bash("c", 'jira issue move OPS-11 "Done"', "Issue OPS-11 moved")]
    [item_3, item_12, item_11] = tracked_items(messages)
    assert (item_3.id, item_3.status, item_3.title) == ("3", ACTIVE, "")  # "task 3 status" is no title
    assert (item_12.id, item_12.status) == ("OPS-12", ACTIVE) and item_11.status == "completed"
    kept = task_list(messages)
    assert kept is not None and kept.with_status(ACTIVE) == ["`OPS-12`"]  # the one taken up last


@pytest.mark.parametrize("command", ["wk --no-daemon close ledg-4.1 -r 'writer done'",
                                     "npx tix close ledg-4.1 --reason='writer done'",
                                     "tix issue resolve ledg-4.1 --comment 'writer done'"])
def test_flags_before_the_verb_a_package_runner_and_short_or_joined_options_are_read(command: str) -> None:
    [item] = tracked_items([user("go on"), *_bash("c", command, "✓ Closed ledg-4.1")])
    assert (item.id, item.status, item.reason) == ("ledg-4.1", "completed", "writer done")


def test_a_created_item_is_to_do_with_the_title_given_and_the_id_the_output_names() -> None:
    messages = [user("file the follow-up"),
                *_bash("n", 'wk create "Cache the parsed ledger" -t task -p 2', "✓ Created issue: ledg-12")]
    [item] = tracked_items(messages)
    assert (item.id, item.title, item.status) == ("ledg-12", "Cache the parsed ledger", PENDING)


@pytest.mark.parametrize("command, output", [
    ("git merge feature-x", "Updating 1a2b..3c4d\nFast-forward (feature-x)"),
    ("docker start web-1", "web-1"),
    ("kubectl create deployment api-v2 --image=registry/api", "deployment.apps/api-v2 created"),
    ("npm update left-pad", "changed 1 package"),
    ('gh pr create --title "Add the ledger export" --body "x"', "https://example.test/o/r/pull/31"),
    ('gh release create v1-2 --title "Version one two"', "https://example.test/o/r/releases/tag/v1-2"),
    ("wk close ledg-4.1", "Error: no issue ledg-4.1"),  # failed: see below, the result is an error
])
def test_commands_that_only_look_like_a_trackers_change_no_item(command: str, output: str) -> None:
    failed = output.startswith("Error")
    messages = [user("go on"), *_bash("x", command, bash_fail(output, 1) if failed else output, error=failed)]
    assert tracked_items(messages) == [] and task_list(messages) is None


def test_only_the_item_taken_up_last_is_the_work_and_a_filed_follow_up_is_no_next_step() -> None:
    messages = [user("continue"),
                *_bash("a", "wk update ledg-4 --claim", "✓ Updated issue: ledg-4"),
                *_bash("b", "wk update ledg-7 --status=in_progress", "✓ Updated issue: ledg-7"),
                *_bash("n", 'wk create "Speed up the ledger load"', "✓ Created issue: ledg-13")]
    kept = task_list(messages)
    assert kept is not None and kept.with_status(ACTIVE) == ["`ledg-7`"] and kept.with_status(PENDING) == []
    assert [item.id for item in tracked_items(messages)] == ["ledg-4", "ledg-7", "ledg-13"]


def test_command_words_split_a_line_into_its_commands_without_redirections() -> None:
    assert command_words('cd app && BD_QUIET=1 wk close ledg-4.1 --reason "ok" 2>&1 | tail -3 > out.txt') == [
        ["cd", "app"], ["wk", "close", "ledg-4.1", "--reason", "ok"], ["tail", "-3"]]


@EXAMPLES
@given(command=st.text(max_size=120), output=st.text(max_size=200))
def test_any_command_and_output_read_without_failing(command: str, output: str) -> None:
    messages = [user("go"), *_bash("x", command, output)]
    found = tracked_items(messages)
    assert all(item.id and item.status for item in found)
    task_list(messages)
