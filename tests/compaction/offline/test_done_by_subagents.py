"""Work a sub-agent did is done work of the session: the files its final report says it wrote, with their counts
("Created `src/a.test.ts` with 21 tests"), are in the Done section (delegated.delegated_work), whether the report
came back as the sub-agent call's result or as a background agent's notice, in any language the report is in. A
report that failed, was stopped or is still running, a line that defers or denies the change, a research report
that only mentions a file, and a background command's output leave Done without them."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import section

_REQUEST = "Raise the test coverage to 75%: dispatch sub-agents for the missing test files."
_LABEL = "Files sub-agents wrote"


def _as_result(report: str, *, error: bool = False) -> list[dict]:
    """The report as the result of a sub-agent call (Claude Code's ``Task``)."""
    return [assistant(call("t1", "Task", description="Implement parser tests", prompt="Write the parser tests.",
                           subagent_type="general-purpose")),
            result("t1", "Task", report, error=error)]


def _as_notice(report: str, status: str = "completed", summary: str = 'Agent "Implement parser tests" completed') \
        -> list[dict]:
    """The report as a background agent's ``<task-notification>`` after an ``Agent`` call launched it."""
    return [assistant(call("a1", "Agent", description="Implement parser tests", prompt="Write the parser tests.",
                           run_in_background=True)),
            result("a1", "Agent", "Async agent launched successfully. agentId: a86934"),
            assistant("Sub-agent dispatched; waiting for it to finish."),
            user(f"<task-notification>\n<task-id>a86934</task-id>\n<status>{status}</status>\n"
                 f"<summary>{summary}</summary>\n<result>{report}</result>\n</task-notification>")]


def _done(report_messages: list[dict]) -> str:
    messages = [user(_REQUEST), *report_messages, assistant("Task 1 is DONE. Waiting for the next tier.")]
    return "\n".join(section(summarize(messages), "### Done"))


REPORTS = [
    ("All 21 tests pass.\n\n**Status: DONE**\n\nCreated `/home/dev/app/src/parser.test.ts` with 21 tests covering:\n"
     "- empty input\n- nested groups", "src/parser.test.ts", "21 tests"),
    ("Both tests pass. Status: **DONE**\n\nWrote `src/parser.test.ts` with 2 tests.", "src/parser.test.ts", "2 tests"),
    ("- **Created** `src/parser.test.ts` (14 tests)\n- All green.", "src/parser.test.ts", "14 tests"),
    ("I've added `tests/test_parser.py` with 9 new tests; all pass.", "tests/test_parser.py", "9 tests"),
    ("Report written to `docs/coverage-report.md`.", "docs/coverage-report.md", ""),
    ("Criei `src/parser.test.ts` com 12 testes, todos passando.", "src/parser.test.ts", "12 testes"),
    ("Creé `src/parser.test.ts` con 8 pruebas; todas pasan.", "src/parser.test.ts", "8 pruebas"),
    ("J'ai créé `src/parser.test.ts` avec 5 tests.", "src/parser.test.ts", "5 tests"),
    ("Ich habe `src/parser.test.ts` mit 7 Tests erstellt.", "src/parser.test.ts", "7 Tests"),
    ("`src/parser.test.ts` を作成しました（テスト 11 件、すべて成功）。", "src/parser.test.ts", ""),
    ("已创建 `src/parser.test.ts`，全部测试通过。", "src/parser.test.ts", ""),
    ("`src/parser.test.ts` 파일을 생성했습니다. 모든 테스트 통과.", "src/parser.test.ts", ""),
]


@pytest.mark.parametrize("deliver", [_as_result, _as_notice], ids=["call result", "notice"])
@pytest.mark.parametrize("report, path, count", REPORTS)
def test_a_file_a_finished_sub_agent_wrote_is_done(deliver, report: str, path: str, count: str) -> None:
    done = _done(deliver(report))
    line = next((line for line in done.splitlines() if _LABEL in line), "")
    assert f"{path}`" in line, done  # (the path as the report gives it, under the session's folder or not)
    assert not count or f"{path}` ({count})" in line, done


@pytest.mark.parametrize("messages", [
    _as_result("Created `src/parser.test.ts` with 21 tests.", error=True),
    _as_notice("Created `src/parser.test.ts` with 21 tests.", status="failed"),
    _as_notice("Created `src/parser.test.ts` with 21 tests.", status="running"),
    _as_notice("**Status: BLOCKED**\n\nCreated `src/parser.test.ts` but 3 of 21 tests fail on the fixture."),
    _as_notice("Could not create `src/parser.test.ts`: the folder is read-only."),
    _as_notice("I will add `src/parser.test.ts` once the fixtures exist."),
    _as_notice("The parser lives in `src/parser.ts`; its docs are generated from `docs/parser.md`."),
    _as_notice("- `generated-index` pages are valid (`lib/sidebars/validation.js` lines 61-64)."),
    _as_notice("Created `CommittedMetadata.TurnID` in the struct literal."),
    _as_notice("Created `src/parser.test.ts` with 21 tests.", summary='Background command "npm test" completed'),
], ids=["call error", "failed", "running", "blocked", "could not", "will add", "research", "mention", "not a file",
        "command"])
def test_no_file_from_a_report_that_did_not_write_one(messages: list[dict]) -> None:
    assert _LABEL not in _done(messages)
