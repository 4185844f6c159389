"""The staleness heuristic (no labels): an open item is stale only when the region reports *it* finished, not
when the message that last names it reports something else finished, quotes code, or names the item's own
words; and the agent's plan, rewritten later, is the newer word on it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.evaluation.quality import score_quality
from tests.compaction.messages import assistant, call, result, user

COMPLETION_WORDS = ("done", "complete", "finished", "committed", "implemented", "✅")
ITEMS = (
    ("Integrate the AST cache into `review/orchestrator.py`", "integrate the AST cache into `review/orchestrator.py`"),
    ("Add lane styles in `list/view.go`", "add lane styles in `list/view.go`"),
    ("Wire the retry policy into the upload worker", "wire the retry policy into the upload worker"),
)


def _region(*texts: str) -> list[dict]:
    return [user("Please do the plan, task by task."), *(assistant(text) for text in texts)]


def _open(item: str) -> str:
    return f"## Next Steps\n1. {item}\n"


@pytest.mark.parametrize("word", COMPLETION_WORDS)
@pytest.mark.parametrize(("item", "phrase"), ITEMS)
@pytest.mark.parametrize("separator", [". ", "!\n", "\n\n", "; "])
def test_another_task_finished_in_the_same_message_does_not_make_the_item_stale(word, item, phrase, separator):
    said = f"The previous task is {word}{separator}Now let me {phrase}."
    assert score_quality(_region(said), _open(item)).stale == ()


@pytest.mark.parametrize("word", COMPLETION_WORDS)
@pytest.mark.parametrize(("item", "phrase"), ITEMS)
def test_the_item_reported_finished_in_its_own_sentence_is_stale(word, item, phrase):
    said = f"Let me check the tests first. Good: {phrase} — {word}."
    assert score_quality(_region(said), _open(item)).stale == (item,)


@pytest.mark.parametrize("flag", ["Created", "Updated", "Completed", "Resolved"])
def test_a_completion_word_that_is_the_items_own_name_finishes_nothing(flag):
    item = f"Update `commitCodeToActive` to return a result with the `{flag}` flag"
    said = f"Now let me update `commitCodeToActive` to return a result with the `{flag}` flag:"
    assert score_quality(_region(said), _open(item)).stale == ()
    assert score_quality(_region(said, f"`commitCodeToActive` now returns `{flag}`: done."),
                         _open(item)).stale == (item,)


@settings(max_examples=40, deadline=None)
@given(word=st.sampled_from(COMPLETION_WORDS), lines=st.integers(min_value=1, max_value=6))
def test_a_completion_word_inside_a_code_block_is_no_report(word, lines):
    block = "\n".join(f"- commit{n} Utils {word} [+3 -1]" for n in range(lines))
    said = f"Here is the mockup with lane styles:\n```\n{block}\n```\nShall I add lane styles to `list/view.go`?"
    assert score_quality(_region(said), _open("Add lane styles in `list/view.go`")).stale == ()


def _plan_call(call_id: str, status: str, tool: str = "TodoWrite", key: str = "todos") -> dict:
    entries = [{"content": "Create generic RunCommandInteractive helper", "status": "completed"},
               {"content": "Update RunResumeInteractive to use the generic helper", "status": status}]
    return assistant(call(call_id, tool, **{key: entries}))


def _committed_then_planned(status: str, tool: str, key: str) -> list[dict]:
    return [
        user("add the interactive tests"),
        assistant(call("c1", "bash", command='git commit -am "Add RunResumeInteractive helper using a pty"')),
        result("c1", "bash", "[main 1a2b3c4] Add RunResumeInteractive helper"),
        _plan_call("t1", status, tool, key),
        result("t1", tool, "Todos have been modified successfully."),
    ]


@pytest.mark.parametrize(("tool", "key"), [("TodoWrite", "todos"), ("update_plan", "plan"), ("todo", "items")])
@pytest.mark.parametrize(("status", "stale"), [("in_progress", False), ("pending", False), ("completed", True)])
def test_a_plan_written_after_a_commit_is_the_newer_word_on_the_item(tool, key, status, stale):
    item = "Update `RunResumeInteractive` to use the generic helper"
    quality = score_quality(_committed_then_planned(status, tool, key), _open(item))
    assert quality.stale == ((item,) if stale else ())


def test_a_commit_naming_the_item_with_no_later_plan_still_makes_it_stale():
    messages = _committed_then_planned("completed", "TodoWrite", "todos")[:3]
    item = "Update `RunResumeInteractive` to use the generic helper"
    assert score_quality(messages, _open(item)).stale == (item,)


@pytest.mark.parametrize("intent", [
    "Let me first read the current state of {path} to see what's been done",
    "I'll check whether {path} is finished",
    "Now I need to look at {path}: what has been implemented so far",
    "Okay, let's see whether the tests for {path} are complete",
])
def test_a_sentence_of_intent_reports_nothing_finished(intent):
    item = "Continue the lane rendering in `ui/lanes.go`"
    said = intent.format(path="`ui/lanes.go`") + "."
    assert score_quality(_region(said), _open(item)).stale == ()
    assert score_quality(_region(said, "The lane rendering in `ui/lanes.go` is done."), _open(item)).stale == (item,)


@pytest.mark.parametrize(("tool", "changed", "stale"), [
    ("Edit", "/home/dev/proj/ui/lanes.go", False),  # the file worked on again after the commit
    ("write", "ui/lanes.go", False),
    ("Read", "/home/dev/proj/ui/lanes.go", True),  # a look changes nothing
    ("Edit", "/home/dev/proj/ui/other_lanes.go", True),  # another file
])
def test_an_edit_of_the_items_file_after_the_commit_keeps_it_open(tool, changed, stale):
    item = "The agent's current subject: last edited `ui/lanes.go`"
    messages = [
        user("commit what we have, then add the session lanes"),
        assistant(call("c1", "bash", command="git add ui/lanes.go ui/model.go && git commit -m 'lanes v1'")),
        result("c1", "bash", "[main 1a2b3c4] lanes v1"),
        assistant(call("e1", tool, file_path=changed, old_string="a", new_string="b")),
        result("e1", tool, "The file has been updated."),
    ]
    assert score_quality(messages, f"## In Progress\n- {item}\n").stale == ((item,) if stale else ())


# A commit is a report on the item only when it names the word that tells the item from the session's other work:
# the item's word the fewest texts of the region hold. Its common words ("test", the project's own nouns) are in
# every commit of a session that works through a plan.
GENERIC_COMMITS = (
    ("End-to-end smoke test with devnet", "smoke",
     ("add devnet network option with tests", "add prefunded accounts test for devnet"),
     "add end-to-end smoke test on devnet"),
    ("Wire the retry policy into the upload worker", "retry",
     ("move the upload worker into its own policy module", "document the upload worker policy"),
     "wire retry policy into upload worker"),
    ("Render the legend of the chart in dark mode", "legend",
     ("chart colours for dark mode", "fix chart render in dark mode"),
     "render chart legend in dark mode"),
)


def _plan_then_commits(item: str, messages: tuple[str, ...]) -> list[dict]:
    region = [user(f"Here is the plan: first the smaller fixes, then {item.lower()}.")]
    for number, message in enumerate(messages):
        region += [assistant(call(f"c{number}", "bash", command=f'git commit -am "{message}"')),
                   result(f"c{number}", "bash", f"[main {number}a2b3c4] {message}")]
    return region


@pytest.mark.parametrize(("item", "rare", "generic", "_own"), GENERIC_COMMITS)
def test_a_commit_naming_only_the_items_common_words_does_not_finish_it(item, rare, generic, _own):
    assert rare not in " ".join(generic)
    assert score_quality(_plan_then_commits(item, generic), _open(item)).stale == ()


@pytest.mark.parametrize(("item", "_rare", "generic", "own"), GENERIC_COMMITS)
def test_a_commit_naming_the_items_telling_word_finishes_it(item, _rare, generic, own):
    assert score_quality(_plan_then_commits(item, (*generic, own)), _open(item)).stale == (item,)
