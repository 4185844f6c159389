"""A sub-agent's report at the region's end (:mod:`~pi_compact.compaction.offline.reports`): its verdict and
findings are the state a continuing agent needs, unless the agent acted on them or passed them on already."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.reports import open_reports, report_gist, unaddressed_reviews

from tests.growth import growth

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

REVIEW = """Now I have the full picture. Let me compile the findings.

## Review of the cache layer

### Findings

#### HIGH

**Issue 1: `evict()` drops the newest entry instead of the oldest**

The loop in `lru.py:88` walks the list backwards.

```python
for key in reversed(order):
    ...
```

#### LOW

**Issue 2: `CACHE_TTL` is read twice per request**

### Verdict: CHANGES NEEDED

The eviction bug loses hot entries under load and must be fixed before release.
agentId: 3f9a1c2 (for resuming to continue this agent's work if needed)
<usage>total_tokens: 4210</usage>"""


def _session(*after: dict, tool: str = "Task", **arguments: str) -> list[dict]:
    arguments = arguments or {"description": "Review the cache layer", "prompt": "Review lru.py for bugs."}
    return [
        user("Have a sub-agent review the cache layer before we release."),
        assistant("I'll ask a reviewer.", call("t1", tool, **arguments)),
        result("t1", tool, REVIEW),
        *after,
    ]


def _reports(messages: list[dict]):
    return open_reports(messages, extract_facts(messages).attempts)


def test_the_gist_gives_the_verdict_with_its_reason_then_the_findings() -> None:
    gist = report_gist(REVIEW.split("agentId:")[0])
    assert gist.startswith("Verdict: CHANGES NEEDED — The eviction bug loses hot entries"), gist
    assert "Issue 1: `evict()` drops the newest entry" in gist and "Issue 2: `CACHE_TTL`" in gist, gist
    assert "HIGH" not in gist.split(";") and "Let me" not in gist and "reversed(order)" not in gist, gist


@pytest.mark.parametrize(("tool", "arguments"), [
    ("Task", {"description": "Review the cache layer", "prompt": "Review lru.py."}),
    ("Agent", {"description": "Review the cache layer", "prompt": "Review lru.py."}),
    ("spawn_agent", {"task": "Review the cache layer"}),
    ("delegate", {"subagent_type": "reviewer", "title": "Review the cache layer"}),
])
def test_a_report_the_region_ends_on_is_the_first_next_step(tool: str, arguments: dict) -> None:
    text = summarize(_session(tool=tool, **arguments))
    steps = items(text, "## Next Steps")
    assert steps[0].startswith("Act on the sub-agent's report (“Review the cache layer”)"), steps
    assert "CHANGES NEEDED" in steps[0] and "`evict()` drops the newest entry" in steps[0], steps
    assert "agentId" not in text and "total_tokens" not in text


def test_a_request_the_report_answers_is_not_asked_again() -> None:
    # the user asked for the review, the agent only launched it: the report is the request's work, and "carry out
    # the latest request" would send the next agent to run the review a second time
    messages = [user("Run the review command with a sub-agent"),
                assistant("", call("t1", "Task", description="Review the cache layer", prompt="Review lru.py.")),
                result("t1", "Task", REVIEW)]
    steps = items(summarize(messages), "## Next Steps")
    assert steps[0].startswith("Act on the sub-agent's report"), steps
    assert not any("latest request" in step for step in steps), steps
    assert ".;" not in steps[0], steps


def test_a_report_the_agent_acted_on_is_no_open_report() -> None:
    fixed = _session(assistant(call("e1", "Edit", file_path="/src/lru.py", old_string="reversed(order)",
                                    new_string="order")),
                     result("e1", "Edit", "The file /src/lru.py has been updated."))
    assert _reports(fixed) == ()


def test_a_report_the_agent_passed_on_in_words_is_no_open_report() -> None:
    relayed = _session(assistant("The reviewer found two issues. " + "The eviction loop walks backwards, so " * 12))
    assert _reports(relayed) == ()


def test_a_report_from_before_the_latest_request_is_history() -> None:
    assert _reports(_session(user("thanks, now bump the version"))) == ()


def test_a_few_words_after_the_report_leave_it_open_but_not_last() -> None:
    found = _reports(_session(assistant("Let me check the eviction loop.", call("r1", "Read", file_path="/src/lru.py")),
                              result("r1", "Read", "def evict(): ...")))
    assert len(found) == 1 and not found[0].last


@pytest.mark.parametrize("text", [
    "Async agent launched successfully.\nagentId: a5db172 (internal ID)\nThe agent is working in the background.",
    "The user doesn't want to proceed with this tool use. The tool use was rejected.",
])
def test_a_launch_notice_or_a_declined_call_is_no_report(text: str) -> None:
    messages = [user("review it"), assistant(call("t1", "Task", description="Review", prompt="go")),
                result("t1", "Task", text)]
    assert _reports(messages) == ()


def test_a_task_list_tool_is_no_sub_agent() -> None:
    messages = [user("review it"), assistant(call("t1", "TaskCreate", description="Review the cache layer")),
                result("t1", "TaskCreate", REVIEW)]
    assert _reports(messages) == ()


def test_a_plain_report_is_told_by_its_first_sentences_without_its_own_narration() -> None:
    gist = report_gist("Perfect! Now I have all the information. The renames were applied to all 14 files. "
                       "Two files still import the old module: `cli.py` and `setup.py`. Nothing else refers to it.")
    assert gist.startswith("The renames were applied to all 14 files; Two files") and "`setup.py`" in gist, gist


def test_a_label_repeated_under_each_item_is_no_finding() -> None:
    gist = report_gist("### 1. The parser\n**File**: `parse.py`\n\n### 2. The writer\n**File**: `write.py`\n")
    assert "File" not in gist and "1. The parser" in gist and "2. The writer" in gist, gist


@given(st.text(alphabet="#*-_`:\n abc1.", max_size=400))
def test_the_gist_of_any_text_is_short(text: str) -> None:
    assert len(report_gist(text)) <= 400


def _many(n: int) -> list[dict]:
    """``n`` sub-agent reports after the latest request, each with its findings, none acted on."""
    region = [user("Review every module.")]
    for i in range(n):
        region += [assistant(call(f"t{i}", "Task", description=f"Review module {i}", prompt="go")),
                   result(f"t{i}", "Task", "\n".join(f"**Issue {j}: `m{i}.f{j}()` leaks**" for j in range(20)))]
    return region


def test_open_reports_grow_linearly_in_the_reports() -> None:
    regions = {size: _many(size) for size in (200, 400, 800)}
    found = growth("open_reports", lambda size: (lambda: _reports(regions[size])), 200, runs=3)
    assert found.linear, str(found)


# -- an earlier review whose findings no later change took up --------------------------------------------------

TEST_REVIEW = """# Review of the export tests

> Verdict: REQUEST CHANGES

## Must fix

### 1. No test for `export_rows` with an empty table
### 2. Missing error path test for write_chunk

## Consider

### 3. Rename the fixtures
"""


def _reviewed(*after: dict, verdict: str = "REQUEST CHANGES") -> list[dict]:
    return [
        user("Have a sub-agent review the export tests."),
        assistant(call("t1", "Task", description="Review export tests", prompt="Review tests/test_export.py.")),
        result("t1", "Task", TEST_REVIEW.replace("REQUEST CHANGES", verdict)),
        assistant("The reviewer asks for two more tests."),
        user("first, update the changelog for the export"),
        *after,
    ]


def test_an_earlier_review_asking_for_changes_leaves_its_findings_open() -> None:
    text = summarize(_reviewed())
    blocked = items(text, "## Critical Context")
    assert any("Open findings of a sub-agent review (“Review export tests”, Verdict: REQUEST CHANGES)" in item
               and "`export_rows` with an empty table" in item and "write_chunk" in item for item in blocked), blocked
    assert not any("Rename the fixtures" in item for item in blocked)  # names no code: nothing to check it by


def test_a_finding_a_later_change_brought_in_is_taken_up() -> None:
    fixed = _reviewed(assistant(call("e1", "Edit", file_path="tests/test_export.py", old_string="import pytest",
                                     new_string="import pytest\n\ndef test_empty():\n    assert export_rows([]) == []")),
                      result("e1", "Edit", "The file tests/test_export.py has been updated."))
    found = unaddressed_reviews(fixed)
    assert len(found) == 1 and "export_rows" not in found[0] and "write_chunk" in found[0], found


@pytest.mark.parametrize("after", [
    # an edit that only passes by the name (it is in the replaced text too) takes nothing up
    [assistant(call("e1", "Edit", file_path="src/export.py", old_string="write_chunk(a)", new_string="write_chunk(b)")),
     result("e1", "Edit", "updated")],
    # nor does a document that describes it
    [assistant(call("w1", "Write", file_path="docs/export.md", content="`write_chunk` writes 5,000 rows.")),
     result("w1", "Write", "written")],
    # nor a search for it
    [assistant(call("b1", "Bash", command="grep -rn write_chunk src")), result("b1", "Bash", "src/export.py:3")],
])
def test_passing_by_a_finding_is_not_taking_it_up(after: list[dict]) -> None:
    found = unaddressed_reviews(_reviewed(*after))
    assert found and "write_chunk" in found[0], found


@pytest.mark.parametrize("verdict", ["APPROVE", "No security concerns blocking merge"])
def test_a_review_that_approves_leaves_nothing_open(verdict: str) -> None:
    assert unaddressed_reviews(_reviewed(verdict=verdict)) == ()


def test_a_background_agent_result_handed_in_as_a_message_is_a_review_too() -> None:
    notice = (f'<task-notification>\n<task-id>a1</task-id>\n<summary>Agent "Review export tests" completed</summary>\n'
              f"<result>{TEST_REVIEW}</result>\n</task-notification>")
    found = unaddressed_reviews([user("review the export tests in the background"), user(notice),
                                 assistant("Noted."), user("now bump the version")])
    assert found and "(“Review export tests”" in found[0] and "write_chunk" in found[0], found
