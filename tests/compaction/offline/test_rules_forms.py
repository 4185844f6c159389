"""A standing rule takes many grammatical forms besides "must", "never" and "don't" (issue 20): a preference ("I'd
prefer we keep the config in TOML"), a requirement on every thing of a kind ("I want all dates in UTC"), a
prohibition without a verb ("No mocks in the integration tests", "Nein, kein Redis"), a style or tool rule with the
scope it holds on ("Use British spelling in the docs"), a limit on the work's scope ("Keep files small") and a step
for every occasion ("run `task ci` before saying done"). Each is a rule (facts.constraint_sentences) that lasts
(rules.lasting); the sentences that look like them but state a fact, ask, or give a one-off step are not.

The table is generated: each form's templates are filled with several subjects, in the languages the corpus has."""

from __future__ import annotations

import itertools

import pytest

from pi_compact.compaction.offline.facts import constraint_sentences
from pi_compact.compaction.offline.rules import lasting

from ..messages import assistant, call, result, user
from .test_offline import items
from .test_classes import summarize

THINGS = [("mocks", "the integration tests"), ("emojis", "commit messages"), ("new dependencies", "the core package"),
          ("print statements", "library code")]
"""(a thing the agent could bring in, where it may not go)"""
WAYS = [("the config", "TOML"), ("the fixtures", "YAML"), ("the release notes", "Markdown")]
TOOLS = ["pnpm", "ruff", "British spelling", "ISO 8601 dates", "f-strings"]
COMMANDS = ["`task ci`", "`make check`", "the full test suite"]
NAMES = ["Redis", "Docker", "ORM", "Kafka"]

PROHIBITIONS = [template.format(thing=thing, place=place) for (thing, place), template in itertools.product(THINGS, [
    "No {thing} in {place}.", "No more {thing}.", "No {thing} in {place}, please.", "No {thing} anywhere.",
    "Also, no {thing} in {place}."])]
PREFERENCES = [template.format(what=what, way=way) for (what, way), template in itertools.product(WAYS, [
    "I'd prefer we keep {what} in {way}.", "I would rather you didn't touch {what}.", "We'd prefer to keep {what} in {way}.",
    "I prefer {way} over JSON for {what}.", "Prefer {way} over JSON."])]
REQUIREMENTS = ["I want all dates in UTC.", "I want all timestamps in ISO 8601.", "We need every endpoint to have a test.",
                "I want each module to be documented.", "We want all logs in JSON."]
STYLE = [template.format(tool=tool) for tool, template in itertools.product(TOOLS, [
    "Use {tool} in the docs.", "Use {tool} for all new code.", "Use {tool} everywhere.",
    "Please use {tool} across the codebase."])]
SCOPE = ["Keep files small.", "keep functions short", "Keep commits atomic.", "Limit your changes to the parser module.",
         "Stay out of the vendor folder.", "Keep the diff minimal."]
EVERY_TIME = [template.format(command=command) for command, template in itertools.product(COMMANDS, [
    "Run {command} before saying done.", "run {command} before each commit", "Run {command} after every change.",
    "Before each commit, run {command}.", "After every change, run {command}."])]
ABROAD = [template.format(name=name) for name, template in itertools.product(NAMES, [
    "Nein, kein {name}.", "Keine {name} in den Tests.", "Não, sem {name}.", "Sem {name} no projeto.",
    "No, nada de {name}.", "Sin {name}, por favor.", "Non, pas de {name}.", "Aucun {name} dans le code.",
    "いいえ、{name}は使わないで", "아니요, {name}는 쓰지 마세요"])] + [
    "Prefiro manter a configuração em TOML.", "Prefiero usar UTC en todas las fechas.",
    "Je préfère garder la config en TOML.", "Ich hätte lieber die Konfiguration in TOML."]
RULES = PROHIBITIONS + PREFERENCES + REQUIREMENTS + STYLE + SCOPE + EVERY_TIME + ABROAD

FACTS = [template.format(thing=thing, place=place) for (thing, place), template in itertools.product(THINGS, [
    "No {thing} failed.", "No {thing} were found in {place}.", "No {thing} changed.", "No errors in {place}.",
    "No worries, I'll look at {place} later.", "No {thing} left in {place} after the cleanup."])] + [
    "No changes.", "No idea.", "No luck so far.", "No problem.", "No, that's wrong.", "No tests failed.",
    "Keine Ahnung.", "Kein Test ist fehlgeschlagen.", "Sem erros no build.", "Sin embargo, funciona.",
    "Pas de souci.", "Sem Docker, o build demora dez minutos.", "I'd prefer not to say.",
    "The hook runs `task ci` before each commit.", "I ran the full test suite before each commit.",
    "Nothing in the logs shows it.", "I want all the tests to pass.", "I want all files in the repo listed."] + [
    # the occasion said first, then what a thing of the code does on it: a description, not a step to take
    template.format(command=command) for command, template in itertools.product(COMMANDS, [
        "After every tool execution, `Observer` in `main.rs` runs {command}.",
        "Before each commit, the pre-commit hook runs {command}.", "After each change, SyncWatcher re-runs {command}.",
        "After every build, `ci.yml` runs {command}."])]
ONE_OFF = [template.format(tool=tool) for tool, template in itertools.product(TOOLS, [
    "Use {tool} to fix this.", "Use {tool} in this paragraph.", "Use {tool} for these tests."])] + [
    "I'd like you to fix the login bug.", "Use the helper to fix the parser.", "Keep going with the next step.",
    "Write the tests for the parser.", "Use the first option."]
QUESTIONS = ["No mocks in the integration tests?", "Should we use British spelling in the docs?",
             "Would you prefer we keep the config in TOML?", "Keep files small?"]


@pytest.mark.parametrize("rule", RULES)
def test_a_rule_in_any_form_is_a_lasting_constraint(rule: str) -> None:
    assert constraint_sentences(rule) == [rule]
    assert lasting(rule)


@pytest.mark.parametrize("sentence", FACTS + ONE_OFF + QUESTIONS)
def test_a_fact_a_one_off_step_or_a_question_is_no_rule(sentence: str) -> None:
    assert constraint_sentences(sentence) == []


@pytest.mark.parametrize("rule", [rule for rule in PROHIBITIONS + PREFERENCES + STYLE if len(rule.split()) >= 5][::3])
def test_a_rule_the_user_quotes_from_the_agent_is_no_rule(rule: str) -> None:
    """(At least five words: fewer are a phrase anyone may say, :data:`.facts._QUOTED_RUN`.)"""
    assert constraint_sentences(rule, quoting=f"As the contributing guide says: {rule} I kept to that.") == []


@pytest.mark.parametrize("rule", ["I'd prefer we keep the config in TOML.", "No mocks in the integration tests.",
                                  "Use British spelling in the docs.", "Nein, kein Redis.", "Keep files small."])
def test_a_rule_said_with_a_finished_request_still_binds_after_it(rule: str) -> None:
    messages = [user(f"Add a CSV export to the reports page. {rule}"),
                assistant(call("e", "edit", path="src/export.py", oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant("Done: the reports page exports CSV."),
                user("Now add a PDF export to the reports page as well."),
                assistant(call("f", "edit", path="src/pdf.py", oldText="a", newText="b")), result("f", "edit", "ok")]
    assert rule in items(summarize(messages), "## Constraints & Preferences")


OUTPUT = ("Here is what the check script printed:\n\n=== Step 2: Inspect the cache ===\n{line}\n\nFiles touched:\n"
          "src/cache.py\n\n=== Step 3: Done ===")


@pytest.mark.parametrize("line", ["No cached_result in response", "No stale entries in the index",
                                  "No mocks in the integration tests"])
def test_a_bare_line_of_pasted_output_is_no_verbless_rule(line: str) -> None:
    assert constraint_sentences(OUTPUT.format(line=line)) == []


@pytest.mark.parametrize("rule", ["- No mocks in the integration tests", "No mocks in the integration tests.",
                                  "Keep files small. No mocks in the integration tests"])
def test_a_rule_written_as_an_item_or_a_sentence_in_a_long_message_is_read(rule: str) -> None:
    message = f"Thanks for the report.\n\nA few notes for the next part:\n\n{rule}\n\nThe rest looks fine to me."
    assert rule.removeprefix("- ").rsplit(". ", 1)[-1] in constraint_sentences(message)
