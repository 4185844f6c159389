"""What a Done item is not (progress.py): the agent thinking aloud ("I think the issue is that the parser now …",
"Actually, maybe the cache is updated …", "Let me check whether …") states no result, in any language; nor does a
proposal: a bold bullet whose title uses a result word as an adjective ("**Fixed `/v0` surface**: we could …",
"**Updated schema** (proposed): …"), a list the agent introduces as options, or a section headed as a plan or
proposal. What it reports as done, beside them, stays."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.progress import report

DONE = "The parser is fixed and all 12 tests pass in `tests/test_parser.py`."

THINKING = [
    "I think the issue is that the parser now drops the trailing newline.",
    "Actually, maybe the cache is updated before the write returns.",
    "Let me check whether the config is created on first run.",
    "I'm arguing that the fix belongs in the lexer, since it now handles quotes.",
    "Talvez o cache seja atualizado antes da escrita terminar.",
    "Vielleicht wird der Cache aktualisiert, bevor der Schreibvorgang endet.",
    "キャッシュが先に更新されているかもしれません。",
]


@pytest.mark.parametrize("sentence", THINKING)
@pytest.mark.parametrize("acted", [True, False])
def test_thinking_aloud_is_no_result(sentence: str, acted: bool) -> None:
    assert report(f"{sentence}\n\n{DONE}", acted=acted) == [DONE]


PROPOSALS = [
    "Here are some options:\n\n- **Fixed `/v0` surface**: freeze the v0 routes and version new ones under /v1.\n"
    "- **Added safety net**: a retry wrapper around the client.\n\nWhich would you like?",
    "- **Fixed `/v0` surface**: we could freeze the v0 routes and version new ones under /v1.\n"
    "- **Added safety net**: we could add a retry wrapper around the client.",
    "- **Updated schema** (proposed): add a `deleted_at` column to `users`.",
    "## Proposed changes\n\n- **Added** a `deleted_at` column to `users`.\n- **Replaced** the cron job with a queue.",
    "### Options\n\n1. **Switched storage**: SQLite instead of JSON files.\n2. **Moved config** to `config/app.toml`.",
]


@pytest.mark.parametrize("proposal", PROPOSALS)
@pytest.mark.parametrize("acted", [True, False])
def test_a_proposal_is_no_result(proposal: str, acted: bool) -> None:
    assert report(f"{DONE}\n\n{proposal}", acted=acted) == [DONE]


def test_a_report_after_a_proposal_stays() -> None:
    answer = ("## Options\n\n- **Added safety net**: we could add a retry wrapper.\n\n## Done\n\n"
              "- **Fixed JSON parsing**: the new `parse_line()` skips non-JSON lines.")
    assert report(answer) == ["**Fixed JSON parsing**: the new `parse_line()` skips non-JSON lines."]


OFFERED = ("- **Fixed `/v0` surface** — freeze the v0 routes and version new ones under /v1.\n"
           "- **Added safety net** — a retry wrapper around the client.\n\nWhich one should I implement?")


def test_a_list_the_agent_offers_is_no_result_in_a_turn_that_did_nothing() -> None:
    assert report(OFFERED, acted=False) == []


def test_a_list_of_what_was_done_stays_in_a_turn_that_did_something() -> None:
    assert report(OFFERED, acted=True) != []


def test_a_list_of_results_before_a_question_stays() -> None:
    answer = ("### Fixes applied\n\n- **wfc-init**: Removed 2 phantom references (`checker.py`, `detector.py`)\n"
              "- **wfc-rules**: Removed the stale `rule_engine.py` reference\n\nShall I open a PR for these?")
    assert report(answer, acted=False) == ["**wfc-init**: Removed 2 phantom references (`checker.py`, `detector.py`)",
                                           "**wfc-rules**: Removed the stale `rule_engine.py` reference"]
