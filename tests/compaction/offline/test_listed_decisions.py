"""Key Decisions stated as a list under a heading of decisions made (:func:`pi_compact.compaction.offline.rules.
listed_decisions`): a plan the user hands over, or the agent's report, names its choices there."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.rules import listed_decisions

from ..messages import assistant, user
from .test_offline import items, summarize


def _decisions(*messages: dict) -> list[str]:
    return items(summarize(list(messages)), "## Key Decisions")


def test_the_decisions_of_a_plan_the_user_hands_over_are_key_decisions() -> None:
    found = _decisions(
        user("Implement the following plan:\n\n# Export pipeline rework\n\n## Context\n\nThe exporter writes CSV only."
             "\n\n## Key Decisions\n\n- **Format**: Parquet replaces CSV as the default (columnar, 5x smaller)\n"
             "- **Scheduling**: exports run nightly from cron, not on every request\n\n---\n\n## Files\n\n"
             "- exporter/writer.py"),
        assistant("I'll start with the writer module and the cron entry."),
    )
    assert any("Parquet replaces CSV" in item for item in found), found
    assert any("nightly from cron" in item for item in found), found
    assert not any("writer.py" in item for item in found), found


def test_the_decisions_the_agent_lists_in_its_report_are_key_decisions() -> None:
    found = _decisions(
        user("Add typed flags to the plugin commands."),
        assistant("The typed flags are in place and the tests pass.\n\n**Key design decisions:**\n"
                  "- `defineFlags()` over `as const` arrays: the inference is cleaner for plugin authors\n"
                  "- the flag types live in the core package, since every plugin already depends on it\n\n"
                  "Let me know if you want the docs updated."),
    )
    assert any("defineFlags() over `as const`" in item or "defineFlags()` over" in item for item in found), found
    assert any("flag types live in the core package" in item for item in found), found


@pytest.mark.parametrize("heading", ["## Open decisions", "## Decision Drivers", "## Decision Point",
                                     "**Decisions needed:**", "## Decisions to make"])
def test_a_list_of_choices_still_to_make_is_no_decision(heading: str) -> None:
    found = _decisions(
        user("Plan the migration of the docs site."),
        assistant(f"Here is where we stand.\n\n{heading}\n\n1. Stay on Docusaurus, or move to Astro and Starlight?\n"
                  "2. Render the prompt previews in JS or compile the engine to WASM?\n\nWhich do you prefer?"),
    )
    assert not any("Docusaurus" in item or "WASM" in item for item in found), found


def test_the_list_ends_where_its_section_ends() -> None:
    text = ("## Decisions — do not relitigate\n\n1. **The docs root becomes a hub page**, no redirect needed\n"
            "   (nothing links to the old slug)\n2. Segments get a real overview page\n\n## Files\n\n"
            "- website/docs/index.mdx is the new hub")
    assert listed_decisions(text) == ["The docs root becomes a hub page, no redirect needed (nothing links to the old "
                                      "slug)", "Segments get a real overview page"]  # (an item with its wrapped line)


@given(st.text(max_size=400))
def test_listed_decisions_never_fail_and_come_from_list_items(text: str) -> None:
    for item in listed_decisions(text):
        assert item and len(item) <= 201


def test_a_decision_said_on_its_heading_line_keeps_its_reasons_out_of_the_list() -> None:
    text = ("**Decision:** Implement the parser by hand since:\n1. Faster for a seven-task plan\n"
            "2. The generator has bugs\n")
    assert listed_decisions(text) == []


_PROPOSED = ("Both lookups read the same committed tree.\n\n## Proposed Refactor\n\n"
             "1. **Remove `fetchLog` from the `Store` interface**\n"
             "2. **Add one `LogReader` on the checkpoint package** that both strategies call\n\n"
             "This keeps the shadow-branch lookup separate from the committed one.")


def test_a_proposal_under_its_heading_the_user_approves_is_a_decision() -> None:
    found = _decisions(
        user("Why do both strategies implement fetchLog?"),
        assistant(_PROPOSED),
        user("ok, let's do this"),
        assistant("Removing `fetchLog` from the interface now."),
    )
    assert any("Remove `fetchLog` from the `Store` interface" in item and "LogReader" in item for item in found), found


@pytest.mark.parametrize("reply", ["no, keep fetchLog where it is", "what about the shadow branch?"])
def test_a_proposal_under_its_heading_the_user_does_not_approve_is_none(reply: str) -> None:
    found = _decisions(
        user("Why do both strategies implement fetchLog?"),
        assistant(_PROPOSED),
        user(reply),
        assistant("Understood."),
    )
    assert not any("LogReader" in item for item in found), found


def test_a_heading_of_options_is_no_proposal_a_yes_accepts() -> None:
    found = _decisions(
        user("How should we speed up the review prompts?"),
        assistant("## Recommended Options\n\n- Trim the prompts only, a quick win for this week\n"
                  "- Replace the embedded diffs with a manifest, the larger saving\n\nBoth fit in this sprint."),
        user("ok"),
        assistant("Noted."),
    )
    assert not any("Trim the prompts" in item or "manifest" in item for item in found), found
