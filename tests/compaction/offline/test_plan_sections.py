"""A long plan's rules read by the section they sit in (plan_sections.py, through facts.constraint_sentences)."""

from pi_compact.compaction.offline.facts import constraint_sentences

_FILLER = "\n".join(f"- Step {n}: move the `handler_{n}` helper into `core/step_{n}.py` and update its callers"
                    for n in range(40))
"""Plan steps enough to put what follows far past the plan's first few hundred characters."""


def _plan(*sections: str) -> str:
    return "Implement the following plan:\n\n# Plan: Rate limits for the export service\n\n" + "\n\n".join(sections)


def test_a_problem_sections_state_list_gives_no_rule():
    text = _plan("## Context\n\nThe export service is open to anyone.",
                 "### Issue 1: No Limits Anywhere\n\nCurrently:\n- No request counting\n- No per-user quotas\n"
                 "- Never any backoff on retries",
                 "## Steps\n\n" + _FILLER)
    rules = " | ".join(constraint_sentences(text))
    assert "No request counting" not in rules
    assert "No per-user quotas" not in rules
    assert "Never any backoff" not in rules


def test_a_currently_label_outside_a_problem_section_gives_no_rule():
    text = _plan("## Design\n\n" + _FILLER, "## Security notes\n\n**Current approach security:**\n"
                 "- API key stays in the worker\n- No real user authentication\n\nThat is fine for a demo.")
    assert not any("No real user authentication" in rule for rule in constraint_sentences(text))


def test_a_requirement_list_deep_in_a_plan_is_one_bounded_constraint():
    text = _plan("## Context\n\nThe export service is open to anyone.\n\n" + _FILLER,
                 "**User priorities:**\n- Small scope - no login, keep the SQLite file, focus on stability\n"
                 "- Multi-region deployment later\n- Export through a queue worker, never inline in the request\n"
                 "- Clear error pages for every failure that a user may hit when the export is rejected by a limit",
                 "## Verification\n\n- run the tests")
    rules = constraint_sentences(text)
    listed = [rule for rule in rules if rule.startswith("User priorities:")]
    assert len(listed) == 1
    assert "no login, keep the SQLite file" in listed[0] and "never inline" in listed[0]
    assert "Multi-region" not in listed[0]  # an item that states no limit or means, when others do
    assert len(listed[0]) <= 280


def test_the_user_wants_list_keeps_its_means_and_its_items_clipped():
    long_item = "Implement the limiter using a " + "very " * 40 + "small token bucket in the gateway"
    text = _plan("## Context\n\n" + _FILLER + "\n\nThe user wants to:\n1. Make exports reliable again\n"
                 f"2. {long_item}\n   - with a per-user bucket\n3. Keep the old CSV format without changes")
    listed = [rule for rule in constraint_sentences(text) if rule.startswith("The user wants to:")]
    assert len(listed) == 1
    assert "Keep the old CSV format" in listed[0] and "Make exports reliable" not in listed[0]
    assert "per-user bucket" not in listed[0]  # a sub-item belongs to its item
    assert len(listed[0]) <= 280


def test_a_title_that_opens_a_list_is_no_rule():
    text = _plan("## Files\n\n### Must Change:\n- `api/export.py`\n- `api/limits.py`\n\n### Optional:\n- `README.md`")
    assert not any("Must Change" in rule for rule in constraint_sentences(text))


def test_a_message_that_is_no_plan_keeps_its_rules():
    text = "Currently:\n- never push to main\n- no force pushes\n\nPlease fix the flaky export test."
    rules = " | ".join(constraint_sentences(text))
    assert "never push to main" in rules


def test_requirement_lists_are_bounded_per_plan():
    lists = [f"## Constraints\n\n- never touch `module_{n}.py`\n- keep `api_{n}` stable" for n in range(8)]
    text = _plan(*lists)
    assert len([rule for rule in constraint_sentences(text) if rule.startswith("Constraints")]) <= 3


def test_a_plans_requirements_outlive_its_finished_request():
    from pi_compact.compaction.offline.plan_points import plan_rule

    from ..messages import assistant, user
    from .test_offline import items, summarize

    plan = _plan("## Context\n\n" + _FILLER, "### Issue 1: Nothing Limits Exports\n\nCurrently:\n- No request counting",
                 "**User priorities:**\n- Small scope - no login, keep the SQLite file\n"
                 "- Export through a queue worker, never inline in the request")
    summary = summarize([
        user(plan),
        assistant("Done: the limiter and the queue worker are in, and the tests pass."),
        user("Now add a dark mode toggle to the settings page."),
        assistant("Done: the toggle is in `settings.vue` and the tests pass."),
    ])
    rules = items(summary, "## Constraints & Preferences")
    assert any(rule.startswith("User priorities:") and "no login" in rule for rule in rules), rules
    assert not any("No request counting" in rule for rule in rules), rules
    assert plan_rule("Constraints: no new dependencies; keep the public API")
    assert not plan_rule("The constraints were hard to meet.")


def test_a_requirement_item_is_not_said_again_as_a_rule_of_its_own():
    text = _plan("## Context\n\n" + _FILLER, "## Constraints\n\n- Never call the billing API from tests\n"
                 "- Keep the v1 routes working")
    rules = constraint_sentences(text)
    assert [rule for rule in rules if "billing API" in rule] == [
        "Constraints: Never call the billing API from tests; Keep the v1 routes working"], rules
