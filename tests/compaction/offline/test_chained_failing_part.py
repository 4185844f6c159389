"""A failed ``&&`` chain whose output says which part failed is told by its parts (issue 20): ``bun test
src/tests/landing/ && bun run typecheck`` printed "32 pass", then ``error: Script not found "typecheck"``. The tests
passed (``&&`` went on), so the open item is the type check's missing script, not the tests, and that pass settles
an earlier failure of a test file it ran; the missing script is settled by a later type check that passed where the
agent found to run it. A chain whose earlier part's outcome is hidden (a pipe, ``;``), or whose error names no
part, stays whole. Each case in three agents' shell tools, the region ending mid-turn."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.chained import by_failing_part, missing_script
from pi_compact.compaction.offline.facts import Attempt

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .shell_runs import FORMATS, open_failures

CWD = "/home/dev/proj"
PAGE = "src/tests/landing/page-composition.test.tsx"
BUN = "error: Received value does not have a length property: undefined\n(fail) Home > composes the page\n 1 fail"
PASSED = " 32 pass\n 0 fail\nRan 32 tests across 6 files."
MISSING = [  # (a chain of tests then a project script, what its failing script printed)
    ("bun test src/tests/landing/ && bun run typecheck", 'error: Script not found "typecheck"'),
    ("bun test src/tests/landing/ 2>&1 && bun run typecheck 2>&1 | tail -5", 'error: Script not found "typecheck"'),
    ("npx jest src/tests/landing && npm run typecheck",
     'npm error Missing script: "typecheck"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run'),
    ("npx vitest run src/tests/landing && pnpm typecheck", " ERR_PNPM_NO_SCRIPT  Missing script: typecheck"),
    ("npx jest src/tests/landing && yarn typecheck", 'error Command "typecheck" not found.'),
]
RUNNER = {"bun": f"bun test {PAGE}", "npx jest": f"npx jest {PAGE}", "npx vitest": f"npx vitest run {PAGE}"}


def _runner(chain: str) -> str:
    return next(failed for start, failed in RUNNER.items() if chain.startswith(start))


def _session(agent: str, steps: list[tuple[str, str, bool]]) -> list[dict]:
    messages = [user("Fix the landing page and make the tests and the type check pass.")]
    for number, (command, output, failed) in enumerate(steps):
        name, arguments = FORMATS[agent](command)
        messages += [assistant(call(f"c{number}", name, **arguments)),
                     result(f"c{number}", name, bash_fail(output, 1) if failed else output, error=failed)]
    return [*messages, assistant(call("r", "read", path=f"{CWD}/docs/notes.md")), result("r", "read", "# Notes\n")]


def _summary(messages: list[dict]) -> str:
    return summarize(messages, metadata={"cwd": CWD})


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("chain", "said"), MISSING)
def test_the_passing_tests_of_a_chain_settle_an_earlier_failure(agent: str, chain: str, said: str) -> None:
    opened = open_failures(_summary(_session(agent, [(_runner(chain), BUN, True), (chain, f"{PASSED}\n{said}", True)])))
    assert not any(PAGE in item or "test src/tests/landing" in item or "run src/tests/landing" in item
                   for item in opened), opened


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("chain", "said"), MISSING)
def test_the_missing_script_is_the_open_part(agent: str, chain: str, said: str) -> None:
    opened = open_failures(_summary(_session(agent, [(chain, f"{PASSED}\n{said}", True)])))
    script = chain.rsplit("&& ", 1)[-1].split(" 2>&1")[0]
    assert opened and all(script in item and "src/tests/landing" not in item for item in opened), opened


@pytest.mark.parametrize("agent", sorted(FORMATS))
@pytest.mark.parametrize(("chain", "said"), MISSING)
def test_a_type_check_that_passed_later_settles_the_missing_script(agent: str, chain: str, said: str) -> None:
    steps = [(chain, f"{PASSED}\n{said}", True), ("cd apps/web && npx tsc --noEmit", "", False)]
    assert not open_failures(_summary(_session(agent, steps)))


WHOLE = [  # (a failed chain that stays one failure, its error)
    ("bun test src/tests/landing/ | tail -5 && bun run typecheck", 'error: Script not found "typecheck"'),
    ("bun test src/tests/landing/; bun run typecheck", 'error: Script not found "typecheck"'),
    ("bun run typecheck && bun test src/tests/landing/", 'error: Script not found "typecheck"'),
    ("cd web && bun run typecheck", 'error: Script not found "typecheck"'),
    ("bun test src/tests/landing/ && bun run typecheck", "error: Cannot find module './setup'"),
    ("bun test src/tests/landing/ && bun run lint", 'error: Script not found "typecheck"'),
]


@pytest.mark.parametrize(("chain", "error"), WHOLE)
def test_a_chain_whose_parts_are_not_known_stays_whole(chain: str, error: str) -> None:
    attempt = Attempt(3, "bash", chain, True, error)
    assert by_failing_part([attempt]) == (attempt,)


def test_the_parts_run_where_the_chain_put_them() -> None:
    attempt = Attempt(3, "bash", "cd apps/demo && bun test src/ && bun run typecheck 2>&1 | tail -5", True,
                      'error: Script not found "typecheck"', folder="")
    passed, failed = by_failing_part([attempt])
    assert (passed.target, passed.failed, passed.error) == ("cd apps/demo && bun test src/", False, "")
    assert (failed.target, failed.failed) == ("cd apps/demo && bun run typecheck 2>&1 | tail -5", True)


@pytest.mark.parametrize(("error", "name"), [('error: Script not found "typecheck"', "typecheck"),
                                              ('npm ERR! missing script: lint', "lint"),
                                              ("Usage Error: Couldn't find a script named \"test:e2e\".", "test:e2e"),
                                              ("error: expect(received).toBe(expected)", "")])
def test_the_missing_script_is_read_from_the_error(error: str, name: str) -> None:
    assert missing_script(error) == name
