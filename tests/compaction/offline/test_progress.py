"""What a finished request left, as its Done item says it (:mod:`pi_compact.compaction.offline.progress`)."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.progress import left_something, report
from pi_compact.compaction.offline.state import DONE, Turn


@pytest.mark.parametrize(("answer", "kept"), [
    ("Fixed. The issue was `maxCheckpointsToScan = 50` which filtered out older checkpoints on main. I increased it "
     "to 200 so checkpoints on all branches are found.", ["maxCheckpointsToScan = 50", "200"]),
    ("Done. The root cause was a stale `uv.lock` pinning punt-tts 0.1.0.", ["uv.lock"]),
    ("All set. I lowered the retry count to 3 and the flaky upload test is quiet.", ["3"]),
    ("I bumped `MAX_WORKERS` to 16 for the batch job.", ["MAX_WORKERS"]),
])
def test_a_cause_found_or_a_value_changed_is_a_result(answer: str, kept: list[str]) -> None:
    said = " ".join(report(answer))
    assert all(value in said for value in kept)


@pytest.mark.parametrize("answer", [
    "If the user reverts the first prompt's changes, the reverted content would be saved. Let me know what you think.",
    "The problem is that the cache is shared between workers.",
])
def test_a_hypothesis_or_an_adjective_is_no_result(answer: str) -> None:
    assert report(answer) == []


def test_a_title_is_read_with_the_line_under_it() -> None:
    answer = ("## Summary\n\n### ✅ Improvements\n\n**1. Fixed the retry storm**\n"
              "- The uploader now waits `backoff_ms` between attempts\n\n**2. Cleaner logs**\n- One line per upload\n")
    assert report(answer) == ["Fixed the retry storm: The uploader now waits `backoff_ms` between attempts"]


def test_a_bare_title_is_no_result() -> None:
    assert report("### ✅ Successfully Created\n\n**New module** (`src/cache.ts`, 80 lines)\n") == []


def test_the_body_rows_of_a_table_are_results_and_its_header_is_none() -> None:
    answer = ("All three applied:\n\n| Item | Changes made |\n|------|-------------|\n"
              "| **Parser** | Replaced the regex tokenizer with `Lexer` |\n| Docs | Updated `README.md` usage |\n")
    said = report(answer)
    assert said == ["Parser: Replaced the regex tokenizer with `Lexer`", "Docs: Updated `README.md` usage"]


@pytest.mark.parametrize("answer", [
    "1. **Skip on empty input** -- if `parse()` returns `None`, nothing is queued and `dirty` stays false.",
    "The wrapper only passes the config through, so its contract is a field-by-field copy.",
])
def test_behaviour_described_in_a_turn_that_did_nothing_is_no_result(answer: str) -> None:
    assert report(answer, acted=False) == []
    assert report(answer) != []  # after an edit or a test run the same words report what the code does now


def test_an_action_reported_in_a_turn_that_did_nothing_still_counts() -> None:
    assert report("The root cause was a stale `uv.lock` pinning 0.1.0.", acted=False) != []


_TABLE = "| Harness | What it proves |\n|---|---|\n| `check_cache` | Replaced entries are evicted first |\n"


def test_a_table_in_a_turn_that_did_nothing_compares_and_lists_no_change() -> None:
    assert report(_TABLE, acted=False) == []
    assert report(_TABLE) == ["`check_cache`: Replaced entries are evicted first"]


@pytest.mark.parametrize(("request_text", "changed", "left"), [
    ("what does the loader return for an empty file?", (), False),  # an answer: conversation, kept as history
    ("what does the loader return for an empty file?", ("src/loader.py",), True),  # it changed a file: progress
    ("find out why the loader drops the last line", (), True),  # work asked for, its cause reported
])
def test_the_answer_to_a_question_is_no_progress_unless_the_turn_did_something(
        request_text: str, changed: tuple[str, ...], left: bool) -> None:
    answer = "The root cause was the final newline: `split_lines()` now keeps it, so the last line is added."
    turn = Turn(request_text, answer, DONE, (), (), changed=changed)
    assert left_something(turn) is left


def test_a_request_for_work_in_a_question_form_is_still_work() -> None:
    answer = "Staged the type changes; the refactor is now unstaged, so `git diff --cached` shows only the ID edits."
    assert left_something(Turn("can you stage the type changes and unstage the refactor?", answer, DONE, (), ()))


@pytest.mark.parametrize("line", ["**`docs/guides/process.md`** (524 lines)", "## `docs/process.md` (524 lines)",
                                  "- **`docs/process.md`** (524 lines)", "### 2. `docs/process.md`"])
def test_a_title_that_opens_on_code_keeps_its_backticks_paired(line: str) -> None:
    """re.sub took the opening backtick as a second match after the empty one at the start: "process.md` (524"."""
    from pi_compact.compaction.offline.progress import _title

    title = _title(line)
    assert title is not None and title.startswith("`") and title.count("`") == 2
