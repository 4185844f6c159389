"""OfflineSummarizer: pi's sections that state only what the transcript proves, quote what it cannot judge,
merge across compactions and stay within the length budget."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sessions_fixtures import LARGE_SESSION

from pi_compact import Session
from pi_compact.compaction.offline.details import LOG_LABEL, MET_LABEL, detail_room
from pi_compact.compaction.offline.compose import strip_generated
from pi_compact.compaction.offline import OfflineSummarizer
from pi_compact.compaction.settings import CompactionSettings
from pi_compact.compaction.summarizer import Summarizer, SummaryRequest
from pi_compact.compaction.tokens import estimate_tokens, text_tokens
from pi_compact.evaluation.replayer import replay

from ..messages import (SESSION, SESSION_FACTS, TRACEBACK, assistant, bash_fail, call, junk_messages, result,
                       user, user_bash)
from ..pi_regions import pi_regions

HEADINGS = ["## Goal", "## Constraints & Preferences", "## Progress", "### Done", "### In Progress", "### Blocked",
            "## Key Decisions", "## Next Steps", "## Critical Context"]


def summarize(messages: list, **fields: object) -> str:
    fields.setdefault("max_tokens", 13_000)
    request = SummaryRequest(system="", prompt="", messages=tuple(messages), **fields)  # type: ignore[arg-type]
    return OfflineSummarizer().summarize(request).text


def section(text: str, heading: str) -> list[str]:
    """The non-empty lines under ``heading`` up to the next heading (continuation lines included)."""
    lines = text.splitlines()
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith(("## ", "### "))), len(lines))
    return [line for line in lines[start:end] if line.strip()]


def items(text: str, heading: str) -> list[str]:
    """The first lines of the items under ``heading``, without their markers."""
    return [re.sub(r"^(?:- \[[ x]\] |- |\d+\. )", "", line) for line in section(text, heading)
            if not line.startswith(" ")]


def changed_files(text: str) -> dict[str, str]:
    """The files the Done section says were changed, each with its last action."""
    found: dict[str, str] = {}
    lines = section(text, "### Done") if "### Done" in text else text.splitlines()
    start = next((n for n, line in enumerate(lines) if "Files changed (by last action):" in line), None)
    for line in lines[start + 1 :] if start is not None else ():
        if not line.startswith("  "):
            break
        action, paths = line.strip().split(": ", 1)
        found.update((path, action) for path in re.findall(r"`([^`]+)`", paths))
    return found


# -- what one region proves -----------------------------------------------------------------------------------


def test_is_a_summarizer_and_reports_its_usage() -> None:
    summarizer = OfflineSummarizer()
    assert isinstance(summarizer, Summarizer)
    assert (summarizer.name, summarizer.context_window) == ("offline", 10**9)
    answer = summarizer.summarize(SummaryRequest(system="s", prompt="p", max_tokens=5000, messages=tuple(SESSION)))
    assert answer.model == "offline"
    assert answer.input_tokens == sum(estimate_tokens(m) for m in SESSION)
    assert answer.output_tokens == text_tokens(answer.text)


def test_sections_in_pi_order() -> None:
    text = summarize(SESSION)
    positions = [text.index(heading + "\n") for heading in HEADINGS]
    assert positions == sorted(positions)


def test_goal_is_the_first_request_cut_to_its_opening_and_stated_once() -> None:
    text = summarize(SESSION)
    goal = items(text, "## Goal")
    # the objective, and what the user asks for now (the last request that states work of its own)
    assert goal == ["Fix the failing header test in `src/parser.py` (issue #42). — now: Please finish the changelog "
                    "entry and fix the lint error; don't touch package.json."]
    assert text.count(goal[0]) == 1


def test_constraints_are_the_users_rules() -> None:
    assert items(summarize(SESSION), "## Constraints & Preferences") == SESSION_FACTS["constraints"]


def test_progress_names_changed_files_with_their_last_action_and_only_the_open_error() -> None:
    text = summarize(SESSION)
    assert items(text, "### Done") == ["Files changed (by last action):"]
    # each by its shortest name that tells it apart (pi's <modified-files> list names it whole)
    assert changed_files(text) == {"parser.py": "edited", "parser.md": "written"}
    assert items(text, "### In Progress") == [
        "“Please finish the changelog entry and fix the lint error; don't touch package.json.” — under way"]
    # pytest failed, then passed after the fix: resolved, named once, with its error, among the settled failures
    # (the next agent must not retry it; no "Resolved along the way" says it again), never as blocked; lint still
    # fails: open
    assert items(text, "### Blocked") == ["`npm run lint` failed: error: Unexpected console statement (no-console)"]
    assert "Resolved along the way" not in text
    settled = text.split(MET_LABEL, 1)[1].split("\n- ", 1)[0]
    assert "`pytest -q tests/test_parser.py`" in settled and "ValueError" in settled and text.count("ValueError") == 1
    assert items(text, "## Next Steps") == [
        "Fix: `npm run lint` failed: error: Unexpected console statement (no-console)",
        "Carry out the user's latest request: “Please finish the changelog entry and fix the lint error; don't touch "
        "package.json.” "
        "(quoted in full under Critical Context)."]


def test_the_last_request_and_answer_are_quoted_verbatim() -> None:
    answer = "Changelog done.\n\nNext is the lint error in `src/cli.py`: a stray console call. Should I remove it?"
    text = summarize([*SESSION, assistant(answer)])
    critical = "\n".join(section(text, "## Critical Context"))
    assert "- Last user request (verbatim):\n  > Please finish the changelog entry and fix the lint error; " \
           "don't touch package.json." in critical
    assert "- Agent's last answer (verbatim):\n  > Changelog done.\n  >\n  > Next is the lint error" in critical
    assert items(text, "## Next Steps")[:2] == [
        "Next is the lint error in `src/cli.py`: a stray console call.",
        "Open question to the user: Should I remove it?"]
    assert "- Earlier request: Good. Now also update docs/parser.md" in critical


@pytest.mark.parametrize(("answer", "in_progress"), [
    ("Done! The changelog mentions v2.3.1.", []),
    ("Fixed. Lint passes now.", []),
    ("I updated the changelog. Do you want the lint rule disabled or the call removed?",
     ["“Fix the lint error.” — answered; waiting for the user's reply to “Do you want the lint rule disabled or the "
      "call removed?”"]),
    ("Let me look at the lint config first.", ["“Fix the lint error.” — under way"]),
], ids=["done", "fixed", "asked", "open"])
def test_a_finished_request_is_never_in_progress(answer: str, in_progress: list[str]) -> None:
    text = summarize([user("Fix the lint error."), assistant(answer)])
    assert items(text, "### In Progress") == (in_progress or ["(none)"])
    if not in_progress:
        assert items(text, "## Next Steps") == ["The last request is done: wait for the user's next request."]


def test_a_committed_request_is_done_and_its_commit_listed() -> None:
    text = summarize([
        user("Add the verbose flag and commit."),
        assistant(call("c", "bash", command='cd /repo && git add -A && git commit -m "Add --verbose flag"')),
        result("c", "bash", "[main 1a2b3c] Add --verbose flag\n 2 files changed"),
        assistant("Committed as 1a2b3c."),
    ])
    assert items(text, "### Done") == ["Committed: Add --verbose flag"]
    assert items(text, "### In Progress") == ["(none)"]


def test_aborted_commands_and_lookups_are_not_blocked() -> None:
    text = summarize([
        user("Run the slow tests."),
        assistant(call("a", "bash", command="npm test -- slow")), result("a", "bash", "running...\n\nCommand aborted",
                                                                         error=True),
        assistant(call("g", "bash", command="cat missing.txt")),
        result("g", "bash", bash_fail("cat: missing.txt: No such file or directory", 1), error=True),
        assistant(call("s", "bash", command="sleep 5 && echo done")),
        result("s", "bash", bash_fail("", 130), error=True),
        assistant(call("s2", "bash", command="sleep 5 && echo done")), result("s2", "bash", "done\n"),
    ])
    assert items(text, "### Blocked") == ["(none)"]
    assert "sleep 5" not in "\n".join(section(text, "## Next Steps"))


def test_paths_are_named_once_relative_to_the_working_directory() -> None:
    text = summarize([
        user("Tidy the module."),
        assistant(call("1", "edit", path="/work/app/src/mod.py")), result("1", "edit", "ok"),
        assistant(call("2", "bash", command="cd /work/app && sed -i 's/a/b/' src/mod.py && mkdir -p src/new")),
        result("2", "bash", "(no output)"),
        assistant(call("3", "write", path="./src/new/x.py")), result("3", "write", "ok"),
        assistant(call("4", "write", path="/tmp/scratch.txt")), result("4", "write", "ok"),
    ], metadata={"cwd": "/work/app"})
    assert changed_files(text) == {"mod.py": "edited (sed)", "x.py": "written"}  # one spelling each: one entry


@pytest.mark.parametrize("cwd", [{"cwd": "/work/app"}, {}], ids=["given", "inferred from cd"])
def test_a_bare_file_name_is_the_one_longer_path_it_ends(cwd: dict) -> None:
    text = summarize([
        user("Fix the parser."),
        assistant(call("1", "bash", command="cd /work/app && cat src/parse.py")), result("1", "bash", "code"),
        assistant(call("2", "edit", path="/work/app/pkg/src/parse.py")), result("2", "edit", "ok"),
        assistant(call("3", "bash", command="sed -i 's/x/y/' parse.py")), result("3", "bash", ""),
    ], metadata=cwd)
    assert changed_files(text) == {"parse.py": "edited (sed)"}  # one file, not `parse.py` beside `pkg/src/parse.py`


def test_slash_commands_and_nudges_do_not_make_the_goal() -> None:
    text = summarize([user("/mode"), assistant("Mode set."), user("continue"),
                      user("Port the user message selector to the theme system. Read theme.md first.")])
    assert items(text, "## Goal") == ["Port the user message selector to the theme system."]


def test_no_noise_items() -> None:
    text = summarize([user("Make it 100 lines at most, wait 5 seconds, it is 2025. Use `Handler` v1.2.")])
    assert "User mentioned" not in text


def test_empty_sections_say_none() -> None:
    text = summarize([user("hello there friend")])
    assert items(text, "## Constraints & Preferences") == ["(none)"]
    assert items(text, "### Blocked") == ["(none)"]
    assert items(summarize([]), "## Goal") == ["(no user request in this part)"]


def test_branch_summary_says_it_was_left() -> None:
    assert items(summarize(SESSION, kind="branch"), "## Goal")[0] == \
        "A conversation branch that was explored and then left."


def test_turn_prefix_uses_pi_turn_headings() -> None:
    text = summarize(SESSION[:9], kind="turn_prefix")
    assert [line for line in text.splitlines() if line.startswith("## ")] == [
        "## Original Request", "## Early Progress", "## Context for Suffix"]
    assert "- Files changed (by last action):" in section(text, "## Early Progress")
    assert "  edited: `parser.py`" in section(text, "## Early Progress")
    assert "- Constraint: Never add new dependencies." in section(text, "## Context for Suffix")


def test_instructions_add_a_focus_line_and_come_first() -> None:
    text = summarize(SESSION, instructions="focus on the changelog")
    assert items(text, "## Goal")[-1] == "Focus: the changelog"
    assert items(text, "## Constraints & Preferences")[0] == \
        "Now also update docs/parser.md, and make sure the changelog mentions v2.3.1."


# -- merging --------------------------------------------------------------------------------------------------


def _region(n: int) -> list[dict]:
    """A region with its own file, rule, open error and request."""
    return [
        user(f"Step {n}: handle case {n}. You must keep module_{n} importable. 不要删除 case_{n}。"),
        assistant(call(f"r{n}", "read", path=f"src/mod_{n}.py")), result(f"r{n}", "read", "code\n" * 50),
        assistant(call(f"e{n}", "edit", path=f"src/mod_{n}.py")), result(f"e{n}", "edit", "Successfully replaced."),
        assistant(call(f"b{n}", "bash", command=f"pytest tests/test_{n}.py")),
        result(f"b{n}", "bash", bash_fail(f"E   AssertionError: case {n} broken", 1), error=True),
        user(f"Continue with step {n}, the failing case."),
    ]


def test_merging_updates_section_by_section_through_three_compactions() -> None:
    first = summarize(_region(1))
    second = summarize(_region(2), previous_summary=first)
    third = summarize(_region(3), previous_summary=second)
    assert items(third, "## Goal") == items(first, "## Goal") == ["Step 1: handle case 1."]
    for n in (1, 2, 3):
        for rule in (f"You must keep module_{n} importable.", f"不要删除 case_{n}。"):
            assert rule in items(third, "## Constraints & Preferences")
        assert changed_files(third)[f"mod_{n}.py"] == "edited"
        assert f"`pytest tests/test_{n}.py` failed: E   AssertionError: case {n} broken" in items(third, "### Blocked")
    assert items(third, "### In Progress") == ["“Continue with step 3, the failing case.” — under way"]
    assert "- Earlier request: Continue with step 2, the failing case." in third  # the old ask, now history
    assert "Continue with step 1" not in "\n".join(section(third, "### In Progress"))
    assert all(third.count(heading + "\n") == 1 for heading in HEADINGS)


def test_a_later_success_closes_the_previous_blocker() -> None:
    first = summarize(_region(1))
    assert items(first, "### Blocked") == ["`pytest tests/test_1.py` failed: E   AssertionError: case 1 broken"]
    fixed = [assistant(call("f", "bash", command="pytest tests/test_1.py")), result("f", "bash", "3 passed")]
    assert items(summarize(fixed, previous_summary=first), "### Blocked") == ["(none)"]


def test_a_finished_turn_closes_the_previous_in_progress_item() -> None:
    first = summarize(_region(1))
    done = summarize([assistant("Done! Case 1 passes now.")], previous_summary=first)
    assert items(done, "### In Progress") == ["(none)"]


def test_merging_a_model_written_summary_maps_its_headings() -> None:
    previous = ("# Context Checkpoint: refactor\n\n## Goal\nSplit main.ts into modes.\n\n## Branch\n`refactor`\n\n"
                "## Key Decisions Made\n1. **Keep old code** - new files instead\n\n"
                "## Completed Work Packages\n| WP | Status |\n|----|----|\n| WP1 | ✅ |\n\n## User Preferences\n"
                "- Never break the RPC protocol\n\n## Next Steps (WP2)\n### WP2: Create main-new.ts (NEXT)\n- Copy it\n"
                "<read-files>\nsrc/main.ts\n</read-files>")
    text = summarize(SESSION, previous_summary=previous)
    assert items(text, "## Goal")[0].partition(" — now: ")[0] == "Split main.ts into modes."  # the objective kept
    assert "Never break the RPC protocol" in items(text, "## Constraints & Preferences")
    assert "**Keep old code** - new files instead" in items(text, "## Key Decisions")
    assert "WP1 — ✅" in items(text, "### Done")
    assert "## Branch\n- `refactor`" in text
    assert "WP2" not in "\n".join(section(text, "## Next Steps"))  # the region's own next step replaces it
    assert "Context Checkpoint" not in text and "src/main.ts" not in text


def test_summaries_inside_the_region_are_merged_too() -> None:
    branch = {"role": "branchSummary", "fromId": "x",
              "summary": "## Goal\nTry a cache.\n\n## Constraints & Preferences\n- Only use the stdlib\n"}
    text = summarize([branch, *SESSION])
    assert "Only use the stdlib" in items(text, "## Constraints & Preferences")
    assert "- Tried on a branch that was left (its changes are not on this path): Try a cache." in text


def test_a_left_branch_lends_its_rules_and_decisions_not_its_progress() -> None:
    """Regression: a pandas experiment the user abandoned on a branch was listed as Done on the main path."""
    branch = {"role": "branchSummary", "fromId": "x", "summary": (
        "## Goal\nTry pandas for the report.\n\n## Progress\n### Done\n- [x] `pip install pandas`\n"
        "- [x] Rewrote src/report.py with a pandas groupby\n### In Progress\n- [ ] Benchmark it\n\n"
        "## Key Decisions\n- **Abandoned**: import time 45 ms → 612 ms\n\n## Next Steps\n1. Drop numpy too\n\n"
        "<modified-files>\nsrc/report.py\n</modified-files>")}
    text = summarize([user("Make the report use Decimal."), branch, assistant("Back on the Decimal version.")])
    assert "pandas" not in "\n".join(section(text, "### Done") + section(text, "### In Progress")
                                      + section(text, "## Next Steps"))
    assert items(text, "## Key Decisions") == ["**Abandoned**: import time 45 ms → 612 ms (on the left branch)"]
    assert "- Tried on a branch that was left (its changes are not on this path): Try pandas for the report. — " \
           "done there: `pip install pandas`; Rewrote src/report.py with a pandas groupby" in text


def test_a_pruned_previous_summary_is_not_pasted_whole() -> None:
    transcript = "## Condensed transcript\n" + "\n".join(f"[User]: step {n}" for n in range(300))
    text = summarize(SESSION, previous_summary=transcript, max_tokens=1500)
    assert text_tokens(text) <= 1500


def test_merging_into_nothing_new_is_a_fixed_point() -> None:
    once = summarize([*SESSION, assistant("Working on it.")])
    again = summarize([], previous_summary=once)
    assert summarize([], previous_summary=again) == again
    assert items(again, "### In Progress") == items(once, "### In Progress")


# -- budget ---------------------------------------------------------------------------------------------------


_QUESTIONS = " ".join(("why", "how", "when", "where", "what", "which", "who")[i * i % 7] + "?" for i in range(200))
"""A long request of words in no short period (``"why? " * 200`` is priced as a repeat: 2.5x its real count)."""


def _huge_region() -> list[dict]:
    messages = [user("Port the whole app. You must keep the CLI flags stable. 必须兼容 Python 3.11。")]
    for n in range(400):
        messages += [
            assistant(f"I decided to use a cache for module {n}.", call(f"w{n}", "write", path=f"pkg/module_{n}.py")),
            result(f"w{n}", "write", "ok"),
            assistant(call(f"b{n}", "bash", command=f"python -m pytest tests/test_module_{n}.py -k case_{n}")),
            result(f"b{n}", "bash", bash_fail(f"E   KeyError: 'missing_key_{n}'\n" + "trace\n" * 40, 1), error=True),
        ]
        if n % 10 == 0:
            messages.append(user(f"Check `Handler{n}` and issue #{n + 1000}; {_QUESTIONS}"))
    return messages


@pytest.mark.parametrize("max_tokens", [13_000, 2000, 900])
def test_the_length_budget_holds_and_the_rules_survive(max_tokens: int) -> None:
    messages = _huge_region()
    budget = min(max_tokens, CompactionSettings().length_budget(sum(map(estimate_tokens, messages))))
    text = summarize(messages, max_tokens=max_tokens)
    assert text_tokens(text) <= budget
    assert "You must keep the CLI flags stable." in text and "必须兼容 Python 3.11。" in text
    assert "missing_key_399" in text  # the newest open error is kept


def test_the_budget_is_a_setting() -> None:
    # 650: what this region's summary cannot shrink below (goal, constraints, last answer) is ~600 tokens
    settings = CompactionSettings(offline_summary_tokens=650, offline_summary_max_tokens=650)
    request = SummaryRequest("", "", 13_000, messages=tuple(_huge_region()))
    assert text_tokens(OfflineSummarizer(settings).summarize(request).text) <= 650


def test_deterministic() -> None:
    messages, previous = _huge_region()[:200], summarize(SESSION)
    assert summarize(messages, previous_summary=previous, max_tokens=3000) == \
        summarize(list(messages), previous_summary=previous, max_tokens=3000)


# -- robustness -----------------------------------------------------------------------------------------------


@given(junk_messages, st.none() | st.text(max_size=300) | st.sampled_from([TRACEBACK, "## Goal\n", "```\n## X"]),
       st.none() | st.text(max_size=40), st.sampled_from(["compaction", "branch", "turn_prefix", "other"]),
       st.integers(-5, 3000))
@settings(max_examples=150, deadline=None)
@example(messages=[{"role": "toolResult", "toolCallId": [], "isError": True}], previous=None, instructions=None,
         kind="compaction", budget=0)  # found by CI: an unhashable id reached a set
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
    text = summarize([user("deploy it now please"), user_bash("make deploy", "deployed\n")],
                     previous_summary="free text without headings")
    assert "- free text without headings" in text
    assert "make deploy" not in items(text, "### Blocked")[0]


# -- pi's real sessions ---------------------------------------------------------------------------------------


def _summary_of(name: str, previous: str | None = None) -> str:
    region = pi_regions()[name]
    previous = region.previous_summary if previous is None else previous
    return summarize(list(region.messages), previous_summary=previous, metadata={"cwd": region.cwd})


@pytest.fixture(scope="module")
def real() -> dict[str, str]:
    """Offline summaries of the real regions; ``compaction2`` updates Claude's summary, as pi's file has it,
    ``compaction2-chained`` updates our own summary of the first region."""
    first = _summary_of("compaction1")
    return {"compaction1": first, "compaction2": _summary_of("compaction2"),
            "compaction2-chained": _summary_of("compaction2", previous=first), "large-half": _summary_of("large-half")}


@pytest.mark.parametrize("name", ["compaction1", "compaction2", "compaction2-chained"])
def test_at_most_twice_as_long_as_claudes_summary_of_the_same_region(real: dict, name: str) -> None:
    claude = pi_regions()[name.split("-")[0]].claude
    assert len(real[name]) <= 2 * len(claude)


@pytest.mark.parametrize(("name", "step"), [
    ("compaction1", "Next is WP14: Create main-new.ts."),
    ("compaction2", "Open question to the user: Should I proceed with these moves?"),
    ("compaction2-chained", "Open question to the user: Should I proceed with these moves?"),
    ("large-half", "The last request is done: wait for the user's next request."),
])
def test_the_real_next_step_is_named_and_the_last_answer_quoted(real: dict, name: str, step: str) -> None:
    assert step in items(real[name], "## Next Steps")
    last_line = {"compaction1": "should I continue with WP14 now, or would you like to stop here and review",
                 "large-half": "Done! Changed `dimGray` from `#585858` to `#666666` and `mdLink` now uses `dimGray`."}
    critical = "\n".join(section(real[name], "## Critical Context"))
    assert last_line.get(name, "Should I proceed with these moves?") in critical


@pytest.mark.parametrize(("name", "in_progress"), [
    ("compaction1", []),  # the last request ("slight steering …") was committed as WP7 and the work went on to WP13
    ("compaction2", ["“no, that's horrible. tools -> core/tools"]),
    ("compaction2-chained", ["“no, that's horrible. tools -> core/tools"]),
    ("large-half", []),  # "Done! Changed `dimGray` …"
])
def test_nothing_finished_is_in_progress(real: dict, name: str, in_progress: list[str]) -> None:
    found = items(real[name], "### In Progress")
    assert [item[: len(prefix)] for item, prefix in zip(found, in_progress)] == in_progress
    assert found == ["(none)"] if not in_progress else len(found) == len(in_progress)
    assert not re.search(r"WP\d", "\n".join(found))  # every work package so far was committed


@pytest.mark.parametrize("name", ["compaction1", "compaction2", "compaction2-chained", "large-half"])
def test_no_resolved_error_is_listed_open(real: dict, name: str) -> None:
    # every failure in these regions was fixed later (npm run check, edits that did not match) or aborted
    assert items(real[name], "### Blocked") == ["(none)"]
    state = "\n".join(line for line in real[name].split(LOG_LABEL)[0].splitlines()  # the work log and the
                      if not line.startswith("- Earlier request:"))  # user's words name "dude sleep 5 seconds"
    assert "Resolve the failure" not in state and "sleep 5" not in state
    assert sum(line.startswith("- Resolved along the way:") for line in real[name].splitlines()) <= 1


@pytest.mark.parametrize(("name", "goal"), [
    ("compaction1", "alright, read @packages/coding-agent/src/main.ts @packages/coding-agent/src/tui/tui-renderer.ts "
                    "in full. I want you to do a deep analysis, then provide me with a plan on how to untangle this. "
                    "i'm especially interested in code sharing between the different run modes (print/json, rpc, "
                    "interactive)."),
    ("compaction2", "Refactor `coding-agent` to eliminate code duplication between three run modes (interactive, "
                    "print/json, rpc) by creating a shared `AgentSession` abstraction."),  # Claude's, kept
    # not "/mode", nor the reading that opens the request ("read packages/coding-agent/docs/theme.md in full, …")
    ("large-half", "we still need to port over user-message-selector.ts based on the patterns you find in the other "
                   "files"),
])
def test_the_goal_is_the_work_the_first_real_request_asks_for_in_a_sentence_or_two(real: dict, name: str, goal: str) -> None:
    found = items(real[name], "## Goal")
    assert len(found) == 1 and found[0].partition(" — now: ")[0] == goal  # then what the user asks for now, if any
    assert real[name].count(goal[:60]) == 1


@pytest.mark.parametrize("name", ["compaction1", "compaction2", "compaction2-chained", "large-half"])
def test_constraints_are_rules_and_there_is_no_noise(real: dict, name: str) -> None:
    for constraint in items(real[name], "## Constraints & Preferences"):
        assert not re.search(r"\b(?:should|instead)\b", constraint, re.I), constraint
    assert "User mentioned" not in real[name]


@pytest.mark.parametrize("name", ["compaction1", "compaction2-chained", "large-half"])
def test_changed_files_are_files_named_once_relative_to_the_cwd(real: dict, name: str) -> None:
    changed = list(changed_files(real[name]))
    done = "\n".join(section(real[name], "### Done"))
    listing = done[done.index("Files changed (by last action):"):]
    assert changed and all(listing.count(f"`{path}`") == 1 for path in changed)  # named once in the list
    named = set(re.findall(r"`([^`\s]+/[^`\s]+)`", done))  # and any other item uses the same spelling
    assert not [path for path in named if path not in changed and any(c.endswith("/" + path) for c in changed)]
    for path in changed:
        assert not path.startswith(("/", "@")) and "." in path.rsplit("/", 1)[-1], path  # no directories, no /tmp
    for path in changed:  # `interactive-mode.ts` is not listed beside its full path
        assert not any(other.endswith("/" + path) for other in changed), path


def test_chained_offline_compactions_stay_within_the_budget() -> None:
    """Ten offline compactions in a row over pi's long session, each updating the previous summary."""
    region = pi_regions()["large-half"]
    messages = list(Session.open(LARGE_SESSION).build_context().messages)
    chunk = len(messages) // 10
    summary, sizes, rooms = None, [], []
    for n in range(10):
        part = messages[n * chunk : (n + 1) * chunk]
        replaced = sum(map(estimate_tokens, part)) + (text_tokens(summary) if summary else 0)
        summary = summarize(part, previous_summary=summary, metadata={"cwd": region.cwd})
        sizes.append(text_tokens(summary))
        budget = CompactionSettings().length_budget(replaced)
        assert sizes[-1] <= budget
        rooms.append(max(CompactionSettings().offline_summary_tokens, detail_room(replaced, budget)))
    # merges do not pile up: a summary never needs much more than the floor, or the room its own region's details
    # may fill when that is more (the first part, 60,000 tokens, affords 1,900); the ratio budget passes it by a
    # few percent since the estimate of issue 23.7 counts code higher, and the failures a region settled take a
    # line or two beyond its room (the tenth summary, 1,796 tokens against its budget of 1,798, holds both)
    assert all(size <= 1.2 * room for size, room in zip(sizes, rooms))
    assert all(summary.count(heading + "\n") == 1 for heading in HEADINGS)


def test_a_replay_at_a_small_window_keeps_every_offline_summary_within_its_budget(tmp_path) -> None:
    out = tmp_path / "replayed.jsonl"
    report = replay(LARGE_SESSION, window=16_000, out_path=out)
    compactions = [e for e in Session.open(out).entries() if e.get("type") == "compaction"]
    offline = [e for e in compactions if e["details"]["strategy"] == "offline"]
    assert len(compactions) == len(report.compactions) >= 10 and len(offline) >= 8
    goal = "we still need to port over user-message-selector.ts"  # the work, not the reading that opens the request
    first = "read packages/coding-agent/docs/theme.md in full, then theme.ts"
    for entry in offline:
        assert text_tokens(strip_generated(entry["summary"])) <= CompactionSettings().offline_summary_max_tokens
        # the session's goal, from its first real request (not "/mode", not the region's first message), once;
        # the request itself verbatim above it, once
        assert items(entry["summary"], "## Goal")[0].startswith(goal)
        assert entry["summary"].count(goal) == 2 and entry["summary"].count(first) == 1
        assert entry["summary"].startswith(f"<original-request>\n{first}")


def test_a_pruned_previous_summary_gives_its_rules_and_requests_not_its_transcript() -> None:
    previous = ("## Condensed transcript\n[User]: Fix the cache. Never touch the lockfile.\n"
                "[Assistant]: I looked at cache.py and it is long.\n[Tool result]: [read] cache.py → 300 lines")
    text = summarize(SESSION, previous_summary=previous)
    assert "Never touch the lockfile." in items(text, "## Constraints & Preferences")
    assert "- Earlier request: Fix the cache. Never touch the lockfile." in text
    assert "Condensed transcript" not in text and "I looked at cache.py" not in text


@pytest.mark.parametrize(("answer", "reply", "decisions"), [
    ("The sed command didn't work because of the multiline format. I decided to use the edit tool.", "ok",
     ["I decided to use the edit tool."]),
    ("I decided to put the files under lib/ for now.", "no, that's horrible. use core/ and utils/", ["(none)"]),
    ("Let me update WP14 to create main-new.ts instead of modifying main.ts:", "fine", ["(none)"]),
], ids=["because-is-no-decision", "rejected-proposal", "narration"])
def test_key_decisions_are_choices_the_user_did_not_turn_down(answer: str, reply: str, decisions: list) -> None:
    text = summarize([user("Restructure the source tree."), assistant(answer), user(reply)])
    assert items(text, "## Key Decisions") == decisions


def test_the_budget_keys_are_read_from_pi_settings() -> None:
    from pi_compact.compaction.settings import settings_from_mapping

    read = settings_from_mapping({"offlineSummaryTokens": 800, "offlineSummaryRatio": 0.05,
                                  "offlineSummaryMaxTokens": 2000})
    assert (read.length_budget(1000), read.length_budget(30_000), read.length_budget(10**6)) == (800, 1500, 2000)
    assert (CompactionSettings().length_budget(0), CompactionSettings().length_budget(20_000),
            CompactionSettings().length_budget(10**6)) == (1500, 2000, 4000)


@pytest.mark.parametrize(("first", "copied"), [
    ("Port the billing service to Rust, keeping the API stable.", False),  # the goal quotes it whole
    ("a ", True), ("\n", True),  # too short to tell a quote from a chance match
    ("Port the billing service to Rust,\nkeeping the API stable.", True),  # the goal has it on one line
])
def test_the_original_request_is_copied_above_the_body_only_when_the_body_lacks_it(first: str, copied: bool) -> None:
    from pi_compact.compaction.offline.compose import compose

    body = summarize([user(first), assistant("On it.")])
    stored = compose(body, first_request=first, current_request=None, dropped_note=None, read_files=(),
                     modified_files=())
    assert ("<original-request>" in stored) is copied
    assert first in stored


def test_the_plan_the_agent_keeps_names_what_is_still_unchecked(real: dict) -> None:
    steps = items(real["compaction1"], "## Next Steps")
    plan = next(step for step in steps if step.startswith("Still unchecked in the plan "))
    assert plan.startswith("Still unchecked in the plan `packages/coding-agent/docs/refactor.md`: WP14: ")
    assert "WP15: Create InteractiveMode using AgentSession" in plan and "WP20" in plan
    assert not re.search(r"WP(?:[1-9]|1[0-3]):", plan)  # ticked off, or committed
    chained = next(s for s in items(real["compaction2-chained"], "## Next Steps") if s.startswith("Still unchecked"))
    assert "WP15" not in chained and "WP19: Extract setup logic from main.ts" in chained  # WP15 was committed


def test_files_listed_one_per_item_by_an_earlier_summary_merge_into_the_grouped_list() -> None:
    previous = ("## Progress\n### Done\n- [x] Changed `src/old.py` (last: edited)\n"
                "- [x] Changed `src/mod_1.py` (last: written)\n")
    text = summarize(_region(1), previous_summary=previous)
    assert changed_files(text) == {"old.py": "edited", "mod_1.py": "edited"}  # the newest action wins
    assert "Changed `src/old.py`" not in text


def test_the_stored_summary_lists_files_relative_to_the_cwd_once() -> None:
    from pi_compact.compaction.offline.compose import compose

    stored = compose("## Goal\nx", first_request=None, current_request=None, dropped_note=None,
                     read_files=("/work/app/src/a.py", "src/b.py", "/work/app/src/b.py", "/work/app/src/"),
                     modified_files=("/work/app/src/a.py", "/tmp/x"), cwd="/work/app")
    assert stored.endswith("<read-files>\nsrc/b.py\n</read-files>\n\n<modified-files>\nsrc/a.py\n</modified-files>")


def _finishes(work, guard_s: float = 120.0):
    """``work()``'s result; a hang guard (the regression looped for ever), not a speed figure."""
    import threading

    done: list = []
    worker = threading.Thread(target=lambda: done.append(work()), daemon=True)
    worker.start()
    worker.join(guard_s)
    assert done, "did not finish"
    return done[0]


def test_a_quote_of_many_short_lines_is_cut_once_and_the_summary_ends() -> None:
    """Regression: each line of a quote gains "  > ", so a cut answer of many short lines stayed over its limit and
    was cut again and again, for ever (the replay property test hung on it)."""
    answer = "\n".join("ok" for _ in range(3000))
    text = _finishes(lambda: summarize([user("Fix the parser, please."), assistant(answer)], max_tokens=300))
    assert "characters cut" in "\n".join(section(text, "## Critical Context"))


def test_a_previous_summary_of_thousands_of_lines_is_cut_to_the_budget() -> None:
    previous = "## Goal\nShip it.\n\n## Notes\n" + "\n".join(f"- note {n}: value_{n}" for n in range(20_000))
    text = _finishes(lambda: summarize(SESSION, previous_summary=previous, max_tokens=1500))
    assert text_tokens(text) <= 1500 and items(text, "## Goal")[0].partition(" — now: ")[0] == "Ship it."


@pytest.mark.parametrize(("last", "copied"), [
    ("Now port the exporter to the new API,\nand keep the old flags working.", False),  # quoted line by line
    ("ok go", True),  # too short to tell
])
def test_the_current_request_is_not_copied_again_when_the_body_quotes_it(last: str, copied: bool) -> None:
    from pi_compact.compaction.offline.compose import compose

    body = summarize([user("Port the billing service to Rust."), assistant("Done."), user(last)])
    stored = compose(body, first_request=None, current_request=last, dropped_note=None, read_files=(),
                     modified_files=())
    assert ("<current-request>" in stored) is copied


def test_work_after_a_commit_keeps_the_turn_open_and_a_chain_that_succeeds_resolves_its_parts() -> None:
    """Regression (pi's release turn): the hook made `git commit` fail, `git add . && git commit` then succeeded,
    and the agent went on to publish, which failed; the turn was called done because it held a commit."""
    text = summarize([
        user("yeah, do it all"),
        assistant(call("1", "bash", command='git commit -m "Release v0.8.0"')),
        result("1", "bash", bash_fail("error TS2345: Argument of type 'toolText'", 1), error=True),
        assistant(call("2", "bash", command='git add . && git commit -m "Release v0.8.0"')),
        result("2", "bash", "[main 45ffe0a] Release v0.8.0"),
        assistant("Now publish to npm:", call("3", "bash", command="npm run publish")),
        result("3", "bash", bash_fail("error TS2305: Module has no exported member 'EditorTheme'.", 1), error=True),
        assistant("The exports are there! Let me check if there's a node_modules cache issue:",
                  call("4", "bash", command="npm install")),
    ])
    assert items(text, "### In Progress") == ["“yeah, do it all” — under way"]
    assert items(text, "### Blocked") == [
        "`npm run publish` failed: error TS2305: Module has no exported member 'EditorTheme'."]
    assert "Committed: Release v0.8.0 (`45ffe0a`)" in items(text, "### Done")
    # the commit's failure was settled: named once, among the settled failures, with what settled it
    assert text.count("TS2345") == 1 and "TS2345" in text.split(MET_LABEL, 1)[1].split("\n- ", 1)[0]
