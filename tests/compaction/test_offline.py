"""OfflineSummarizer: pi's sections from the transcript alone, merged across compactions, within a budget."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction.offline import OfflineSummarizer
from pi_compact.compaction.summarizer import Summarizer, SummaryRequest
from pi_compact.compaction.tokens import estimate_tokens, text_tokens

from .messages import (SESSION, SESSION_FACTS, TRACEBACK, assistant, bash_fail, call, junk_messages, result,
                       user, user_bash)

HEADINGS = ["## Goal", "## Constraints & Preferences", "## Progress", "### Done", "### In Progress", "### Blocked",
            "## Key Decisions", "## Next Steps", "## Critical Context"]


def summarize(messages: list, **fields: object) -> str:
    fields.setdefault("max_tokens", 13_000)
    request = SummaryRequest(system="", prompt="", messages=tuple(messages), **fields)  # type: ignore[arg-type]
    return OfflineSummarizer().summarize(request).text


def section(text: str, heading: str) -> list[str]:
    """The non-empty lines under ``heading`` up to the next heading of any level."""
    body = text.split(heading + "\n", 1)[1]
    return [line for line in re.split(r"\n#{2,3} ", body)[0].splitlines() if line.strip()]


def test_is_a_summarizer_and_reports_its_usage() -> None:
    summarizer = OfflineSummarizer()
    assert isinstance(summarizer, Summarizer)
    assert (summarizer.name, summarizer.context_window) == ("offline", 10**9)
    request = SummaryRequest(system="s", prompt="p", max_tokens=5000, messages=tuple(SESSION))
    answer = summarizer.summarize(request)
    assert answer.model == "offline"
    assert answer.input_tokens == sum(estimate_tokens(m) for m in SESSION)
    assert answer.output_tokens == text_tokens(answer.text)


def test_sections_in_pi_order() -> None:
    text = summarize(SESSION)
    positions = [text.index(heading + "\n") for heading in HEADINGS]
    assert positions == sorted(positions)


def test_every_known_fact_of_the_session_is_in_the_summary() -> None:
    text = summarize(SESSION)
    for fact in [*SESSION_FACTS["paths"], *SESSION_FACTS["errors"], *SESSION_FACTS["constraints"]]:
        assert fact in text, fact
    assert section(text, "## Constraints & Preferences") == [f"- {c}" for c in SESSION_FACTS["constraints"]]


def test_progress_goal_and_next_steps() -> None:
    text = summarize(SESSION)
    assert section(text, "## Goal")[0].startswith("Fix the failing header test in `src/parser.py` (issue #42).")
    done = section(text, "### Done")
    assert {"- [x] Modified `src/parser.py`", "- [x] Modified `docs/parser.md`",
            "- [x] Ran `pytest -q tests/test_parser.py` (exit 0)",
            "- [x] User ran `git status --short` (exit 0)"} <= set(done)
    in_progress = section(text, "### In Progress")
    assert in_progress[0] == "- [ ] Please finish the changelog entry and fix the lint error; don't touch package.json."
    blocked = section(text, "### Blocked")
    assert blocked == ["- `npm run lint` failed: error: Unexpected console statement (no-console)"]  # pytest was fixed
    steps = section(text, "## Next Steps")
    assert steps[0].startswith("1. Continue with the latest request: Please finish the changelog")
    assert steps[1] == "2. Resolve the failure of `npm run lint` (see Blocked)"
    decisions = section(text, "## Key Decisions")
    assert decisions == ["- I decided to use a regex instead of split because headers may contain colons."]
    critical = section(text, "## Critical Context")
    assert "- Command `pytest -q tests/test_parser.py` → exit 1" in critical
    assert "- Read `CHANGELOG.md`" in critical and "- User mentioned `#42`" in critical


def test_empty_sections_say_none() -> None:
    text = summarize([user("hello")])
    assert section(text, "## Constraints & Preferences") == ["(none)"]
    assert section(text, "### Blocked") == ["(none)"]
    assert section(text, "### In Progress") == ["- [ ] Work on the goal above"]
    assert section(summarize([]), "## Goal") == ["(no user request in this part)"]


def test_branch_summary_says_it_was_left() -> None:
    text = summarize(SESSION, kind="branch")
    assert section(text, "## Goal")[0] == \
        "A conversation branch that was explored and then left. It started from this request:"


def test_turn_prefix_uses_pi_turn_headings() -> None:
    text = summarize(SESSION[:9], kind="turn_prefix")
    assert [line for line in text.splitlines() if line.startswith("## ")] == [
        "## Original Request", "## Early Progress", "## Context for Suffix"]
    assert "- Modified `src/parser.py`" in section(text, "## Early Progress")
    assert "- Constraint: Never add new dependencies." in section(text, "## Context for Suffix")


def test_instructions_add_a_focus_line_and_come_first() -> None:
    text = summarize(SESSION, instructions="focus on the changelog")
    assert section(text, "## Goal")[-1] == "Focus: the changelog"
    first = section(text, "## Constraints & Preferences")[0]
    assert first == "- Now also update docs/parser.md, and make sure the changelog mentions v2.3.1."


# -- merging --------------------------------------------------------------------------------------------------


def _region(n: int) -> list[dict]:
    """A region with its own file, constraint, error and request: all must survive later compactions."""
    return [
        user(f"Step {n}: handle case {n}. You must keep module_{n} importable. 不要删除 case_{n}。"),
        assistant(call(f"r{n}", "read", path=f"src/mod_{n}.py")), result(f"r{n}", "read", "code\n" * 50),
        assistant(call(f"e{n}", "edit", path=f"src/mod_{n}.py")), result(f"e{n}", "edit", "Successfully replaced."),
        assistant(call(f"b{n}", "bash", command=f"pytest tests/test_{n}.py")),
        result(f"b{n}", "bash", bash_fail(f"E   AssertionError: case {n} broken", 1), error=True),
        user(f"Continue with step {n}."),
    ]


def test_merging_keeps_every_previous_bullet_through_three_compactions() -> None:
    first = summarize(_region(1))
    second = summarize(_region(2), previous_summary=first)
    third = summarize(_region(3), previous_summary=second)
    for n in (1, 2, 3):
        for fact in (f"src/mod_{n}.py", f"You must keep module_{n} importable.", f"不要删除 case_{n}。",
                     f"AssertionError: case {n} broken", f"pytest tests/test_{n}.py"):
            assert fact in third, fact
    assert section(third, "## Goal")[0] == section(first, "## Goal")[0] == \
        "Step 1: handle case 1. You must keep module_1 importable. 不要删除 case_1。"
    kept = {line for line in first.splitlines() if line.startswith("- ") and "Last activity" not in line
            and "[ ]" not in line}
    assert kept <= set(third.splitlines())
    assert section(third, "### In Progress")[0] == "- [ ] Continue with step 3."
    assert "- Earlier request: Continue with step 1." in third  # the old ask, marked historical
    assert third.count("## Goal") == 1 and third.count("- [x] Modified `src/mod_1.py`") == 1


def test_a_later_success_clears_the_previous_blocker() -> None:
    first = summarize(_region(1))
    assert "`pytest tests/test_1.py` failed" in first
    fixed = [assistant(call("f", "bash", command="pytest tests/test_1.py")), result("f", "bash", "3 passed")]
    second = summarize(fixed, previous_summary=first)
    assert "`pytest tests/test_1.py` failed" not in "\n".join(section(second, "### Blocked"))
    assert "- Error: E   AssertionError: case 1 broken" in second  # the error itself stays known


def test_merging_a_model_written_summary_keeps_its_unknown_sections() -> None:
    previous = ("# Context Checkpoint: refactor\n\n## Goal\nSplit main.ts into modes.\n\n## Branch\n`refactor`\n\n"
                "## Completed Work\n| WP | Status |\n|----|----|\n| WP1 | done |\n\n## Constraints & Preferences\n"
                "- Never break the RPC protocol\n\n<read-files>\nsrc/main.ts\n</read-files>\n"
                "<modified-files>\nsrc/cli.ts\n</modified-files>")
    text = summarize(SESSION, previous_summary=previous)
    assert section(text, "## Goal") == ["Split main.ts into modes."]
    for line in ("## Branch", "`refactor`", "| WP1 | done |", "- Never break the RPC protocol",
                 "- Read `src/main.ts`", "- [x] Modified `src/cli.ts`", "- Context Checkpoint: refactor"):
        assert line in text, line


def test_summaries_inside_the_region_are_merged_too() -> None:
    branch = {"role": "branchSummary", "fromId": "x",
              "summary": "## Goal\nTry a cache.\n\n## Constraints & Preferences\n- Only use the stdlib\n"}
    text = summarize([branch, *SESSION])
    assert "- Only use the stdlib" in section(text, "## Constraints & Preferences")
    assert "- Earlier goal: Try a cache." in text


def test_a_pruned_previous_summary_keeps_its_user_constraints() -> None:
    previous = "## Condensed transcript\n[User]: Fix it. Never touch the lockfile.\n[Assistant]: ok"
    text = summarize(SESSION, previous_summary=previous)
    assert "- Never touch the lockfile." in section(text, "## Constraints & Preferences")


# -- budget ---------------------------------------------------------------------------------------------------


def _huge_region() -> list[dict]:
    messages = [user("Port the whole app. You must keep the CLI flags stable. 必须兼容 Python 3.11。")]
    for n in range(400):
        messages += [
            assistant(f"Because module {n} is slow, I decided to use a cache instead of recomputing it.",
                      call(f"r{n}", "read", path=f"pkg/module_{n}.py")),
            result(f"r{n}", "read", "x" * 3000),
            assistant(call(f"b{n}", "bash", command=f"python -m pytest tests/test_module_{n}.py -k case_{n}")),
            result(f"b{n}", "bash", bash_fail(f"E   KeyError: 'missing_key_{n}'\n" + "trace\n" * 40, 1), error=True),
        ]
        if n % 10 == 0:
            messages.append(user(f"Check `Handler{n}` and issue #{n + 1000} with 5{n}ms timeouts."))
    return messages


def test_budget_respected_while_constraints_and_paths_survive() -> None:
    messages = _huge_region()
    text = summarize(messages, max_tokens=6000)
    assert text_tokens(text) <= 6000
    assert "- You must keep the CLI flags stable." in text and "- 必须兼容 Python 3.11。" in text
    for n in range(400):
        assert f"`pkg/module_{n}.py`" in text
    assert "missing_key_399" in text and "missing_key_0'" not in text  # the most recent errors are kept
    assert text_tokens(summarize(messages, max_tokens=0)) > 6000  # no budget, nothing trimmed


def test_what_cannot_be_trimmed_is_kept_even_over_budget() -> None:
    text = summarize(_huge_region(), max_tokens=100)
    assert "- You must keep the CLI flags stable." in text and "`pkg/module_399.py`" in text


def test_deterministic() -> None:
    messages, previous = _huge_region()[:200], summarize(SESSION)
    assert summarize(messages, previous_summary=previous, max_tokens=3000) == \
        summarize(list(messages), previous_summary=previous, max_tokens=3000)


# -- robustness -----------------------------------------------------------------------------------------------


@given(junk_messages, st.none() | st.text(max_size=300) | st.sampled_from([TRACEBACK, "## Goal\n", "```\n## X"]),
       st.none() | st.text(max_size=40), st.sampled_from(["compaction", "branch", "turn_prefix", "other"]),
       st.integers(-5, 3000))
@settings(max_examples=150, deadline=None)
def test_junk_never_raises(messages: list, previous: str | None, instructions: str | None, kind: str,
                           budget: int) -> None:
    request = SummaryRequest(system="", prompt="", max_tokens=budget, kind=kind, messages=tuple(messages),
                             previous_summary=previous, instructions=instructions)
    answer = OfflineSummarizer().summarize(request)
    assert answer.text.strip() and answer.output_tokens == text_tokens(answer.text)


@pytest.mark.parametrize("messages", [None, "text", 7], ids=["none", "str", "int"])
def test_messages_that_are_not_a_sequence(messages: object) -> None:
    request = SummaryRequest(system="", prompt="", max_tokens=100, messages=messages)  # type: ignore[arg-type]
    assert "## Goal" in OfflineSummarizer().summarize(request).text


def test_user_bash_and_unknown_previous_text_reach_the_summary() -> None:
    text = summarize([user_bash("make deploy", "deployed\n")], previous_summary="free text without headings")
    assert "- [x] User ran `make deploy` (exit 0)" in text and "- free text without headings" in text


def test_merging_into_nothing_new_is_a_fixed_point() -> None:
    once = summarize(SESSION)
    again = summarize([], previous_summary=once)
    assert set(again.splitlines()) == set(once.splitlines())
    assert summarize([], previous_summary=again) == again
