"""A failed check replaced by an equivalent check that then passed is settled (issue 20): ``bun run typecheck``
fails (no such script), ``tsc --noEmit`` passes; ``pytest`` is not found, ``python -m pytest`` passes. Checks are
of one kind by their programs' roles (type check, tests, build, lint, format), through any wrapper. A later run
narrowed to other files or tests does not answer for a failure it did not cover."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.jobs import BUILD, FORMAT, LINT, SEARCH, TEST, TYPECHECK, covers, job_of
from pi_compact.compaction.offline.state import region_state
from tests.growth import growth

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

PAIRS = st.sampled_from([
    ("bun run typecheck", 'error: Script not found "typecheck"', "npx tsc --noEmit", "(no output)"),
    ("pnpm typecheck", "ERR_PNPM_NO_SCRIPT  Missing script: typecheck", "pnpm exec tsc --noEmit", ""),
    ("npm run type-check", "tsconfig.json(3,5): error TS5023: Unknown compiler option 'foo'.",
     "npx tsc --noEmit", "Found 0 errors."),
    ("pytest -q", "zsh:1: command not found: pytest", "python -m pytest -q", "12 passed in 0.3s"),
    ("npm test", 'npm ERR! Missing script: "test"', "npx vitest run", "Tests  12 passed (12)"),
    ("make lint", "make: *** No rule to make target 'lint'.  Stop.", "uv run ruff check .", "All checks passed!"),
    ("yarn build", "error Command \"build\" not found.", "npx vite build", "built in 2.1s"),
    ("npm run format", 'npm ERR! Missing script: "format"', "npx prettier --check .", "All matched files use Prettier"),
])


def _session(failed: str, error: str, later: str, output: str, later_failed: bool = False) -> list[dict]:
    second = bash_fail(output or "error", 1) if later_failed else output
    return [user("Make sure the project checks clean."),
            assistant(call("a", "bash", command=failed)), result("a", "bash", bash_fail(error, 1), error=True),
            assistant(call("b", "bash", command=later)), result("b", "bash", second, error=later_failed),
            assistant(call("w", "write", path="notes/checks.md", content="ok")), result("w", "write", "ok"),
            assistant("Let me look at the next part.")]


def _fixes(summary: str) -> list[str]:
    return [step for step in items(summary, "## Next Steps") if step.startswith("Fix")]


@EXAMPLES
@given(PAIRS)
def test_a_failed_check_settled_by_a_passing_check_of_the_same_kind(pair: tuple) -> None:
    summary = summarize(_session(*pair))
    assert _fixes(summary) == [], summary
    assert items(summary, "### Blocked") == ["(none)"]


@EXAMPLES
@given(PAIRS)
def test_a_failed_check_whose_replacement_failed_too_stays_open(pair: tuple) -> None:
    assert _fixes(summarize(_session(*pair, later_failed=True)))


def test_a_passing_check_of_another_kind_settles_nothing() -> None:
    summary = summarize(_session("npm run typecheck", "src/a.ts(3,5): error TS2322: Type 'string'", "npx vitest run",
                                 "Tests  12 passed (12)"))
    assert _fixes(summary)


def test_a_later_run_narrowed_to_other_tests_does_not_cover_the_failure() -> None:
    summary = summarize(_session("pytest -q", "FAILED tests/test_api.py::test_retry - AssertionError",
                                 "python -m pytest tests/test_models.py", "3 passed in 0.1s"))
    assert _fixes(summary)


def test_a_chain_of_checks_is_not_settled_by_one_of_them() -> None:
    summary = summarize(_session("npm run build && npm test", "error TS2322: Type 'string' is not assignable",
                                 "npx vitest run", "Tests  12 passed (12)"))
    assert _fixes(summary)


def test_a_passing_check_of_another_package_settles_nothing() -> None:
    summary = summarize(_session("cd web && npm run typecheck", "src/a.ts(3,5): error TS2322: Type 'string'",
                                 "cd api && npx tsc --noEmit", ""))
    assert _fixes(summary)


@pytest.mark.parametrize(("command", "kind"), [
    ("npx tsc --noEmit", TYPECHECK), ("pnpm exec tsc", TYPECHECK), ("bun run typecheck", TYPECHECK),
    ("uv run mypy src", TYPECHECK), ("cargo check", TYPECHECK),
    ("python -m pytest -q", TEST), ("cd web && npm test", TEST), ("go test ./...", TEST), ("bun test", TEST),
    ("npm run build", BUILD), ("npx vite build", BUILD), ("cargo build --release", BUILD),
    ("npx eslint .", LINT), ("ruff check .", LINT), ("cargo clippy", LINT), ("go vet ./...", LINT),
    ("npx prettier --write .", FORMAT), ("ruff format", FORMAT), ("cargo fmt", FORMAT),
    ("mgrep retry src", SEARCH), ("rg -n retry", SEARCH), ("git grep retry", SEARCH),
    ("npm install", None), ("git push", None), ("vite", None), ("python manage.py migrate", None),
])
def test_a_commands_job_is_its_programs_role(command: str, kind: str | None) -> None:
    job = job_of(command)
    assert (job.kind if job else None) == kind


@pytest.mark.parametrize(("later", "earlier", "error", "covered"), [
    ("pytest", "pytest tests/test_a.py", "", True),
    ("pytest tests/", "pytest", "FAILED tests/test_a.py::test_x", True),
    ("pytest tests/test_b.py", "pytest", "FAILED tests/test_a.py::test_x", False),
    ("pytest tests/test_b.py", "pytest", "", False),
    ("vitest run -t retry", "vitest run", "", False),
    ("npx tsc --noEmit", "npm run lint", "", False),
])
def test_a_later_run_covers_what_the_failure_named(later: str, earlier: str, error: str, covered: bool) -> None:
    assert covers(job_of(later), job_of(earlier), error) is covered


def _checks_of_other_scopes(n: int) -> list[dict]:
    """``n`` failed test runs, each narrowed to its own file, then ``n`` passing runs narrowed to other files:
    every failure could be asked against every later run."""
    region = [user("Fix the failing tests.")]
    for i in range(n):
        region += [assistant(call(f"f{i}", "bash", command=f"pytest tests/test_{i}.py")),
                   result(f"f{i}", "bash", bash_fail(f"FAILED tests/test_{i}.py::test_x - AssertionError", 1),
                          error=True)]
    for i in range(n):
        region += [assistant(call(f"p{i}", "bash", command=f"pytest tests/other_{i}.py -k other_{i}")),
                   result(f"p{i}", "bash", "1 passed")]
    return region + [assistant("Done.")]


def test_settling_failures_by_later_checks_grows_linearly_in_the_runs() -> None:
    regions = {n: _checks_of_other_scopes(n) for n in (150, 300, 600)}
    facts = {n: extract_facts(region) for n, region in regions.items()}
    found = growth("region_state", lambda n: (lambda: region_state(regions[n], facts[n])), 150, runs=2)
    assert found.linear, str(found)


@pytest.mark.parametrize(("command", "kind"), [("find tests | xargs -I {} pytest {}", TEST), ("ls *.ts | xargs -n 1 tsc",
                                                                                          TYPECHECK)])
def test_xargs_options_that_take_a_value_are_skipped_with_their_value(command: str, kind: str) -> None:
    job = job_of(command)
    assert job is not None and job.kind == kind
