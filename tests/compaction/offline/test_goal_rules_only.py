"""A message that holds only rules is never the goal's "now:" (issue 20, goal.sets_work): when the user's latest
message only adds rules ("keep files small; run `task ci` before saying done", "Nein, kein Redis. Keine Mocks in den
Tests."), the objective stays the last message that asked for work and the rules go to Constraints. A message with
work beside its rules ("Never push to main, and fix the login bug") sets work."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.goal import sets_work

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

ONLY_RULES = [
    "keep files small; run `task ci` before saying done",
    "No mocks in the integration tests. Use British spelling in the docs.",
    "I'd prefer we keep the config in TOML. I want all dates in UTC, please.",
    "Never push to main. Keep commits atomic and run the full test suite before each commit.",
    "Thanks. Limit your changes to the parser module; no new dependencies in the core package.",
    "Nein, kein Redis. Keine Mocks in den Tests, bitte.",
    "Não, sem Docker. Prefiro manter a configuração em TOML.",
    "No, nada de ORM. Prefiero usar UTC en todas las fechas.",
    "Non, pas de Docker. Je préfère garder la config en TOML.",
    "いいえ、Redisは使わないでください。コミット前に必ずテストを実行してください。",
    "아니요, Redis는 쓰지 마세요. 항상 한국어로 답변해 주세요.",
]
WITH_WORK = [
    "Never push to main, and fix the login bug in the session handler.",
    "Keep files small. Now add a PDF export to the reports page.",
    "No mocks in the integration tests; rewrite the payment test against the sandbox.",
    "Use British spelling in the docs. Also rename the `fetch_all` helper to `fetch_pages`.",
    "Please finish the changelog entry and tidy the lint warnings; don't touch package.json.",
    "No new dependencies in the core package, they are hard to audit.",
]
REQUEST = "Add a CSV export to the reports page, with a download button and a test for the exporter."


def _session(latest: str) -> list[dict]:
    return [user(REQUEST), assistant(call("e", "edit", path="src/export.py", oldText="a", newText="b")),
            result("e", "edit", "ok"), assistant("The exporter is in; the download button is next."),
            user(latest), assistant(call("f", "edit", path="src/button.tsx", oldText="a", newText="b")),
            result("f", "edit", "ok")]


@pytest.mark.parametrize("latest", ONLY_RULES)
def test_a_message_of_rules_only_sets_no_work(latest: str) -> None:
    assert not sets_work(latest)


@pytest.mark.parametrize("latest", WITH_WORK)
def test_a_message_with_work_beside_its_rules_sets_work(latest: str) -> None:
    assert sets_work(latest)


@pytest.mark.parametrize("latest", ONLY_RULES)
def test_the_objective_stays_the_last_request_for_work_and_the_rules_are_constraints(latest: str) -> None:
    summary = summarize(_session(latest))
    goal = "\n".join(items(summary, "## Goal"))
    assert REQUEST.split(",")[0] in goal and " — now: " not in goal
    constraints = "\n".join(items(summary, "## Constraints & Preferences"))
    first = latest.removeprefix("Thanks. ").split(". ", 1)[0].split("; ", 1)[0].split("。", 1)[0]
    assert first.rstrip(".") in constraints
