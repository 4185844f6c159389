"""Failures settled by what came after them, in any agent's format (issue 20): a tool, server or program that failed
and whose job the agent then did another way it named (a later success of a call of the same role); a failure the
agent explained as expected, harmless or not of this work; a command that later succeeded in another form (run
through an interpreter, with other options, with a patch redone as a write). Each is no open error, Blocked item or
"Fix:" step; each stays open when what came after did not do its job."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.explained import FETCH, READ, roles
from pi_compact.compaction.offline.facts import Attempt, extract_facts
from pi_compact.compaction.offline.jobs import SEARCH, TEST, form_key, script_of
from pi_compact.compaction.offline.shell import command_words
from pi_compact.compaction.offline.state import region_state
from tests.growth import growth

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items


def _open(summary: str) -> list[str]:
    return [step for step in items(summary, "## Next Steps") if step.startswith("Fix")] + \
        [item for item in items(summary, "### Blocked") if item != "(none)"]


def _still_working() -> list[dict]:
    return [assistant(call("w", "write", path="notes/retry.md", content="src/net.py")), result("w", "write", "ok"),
            assistant("Let me look at the next part.")]


# -- 1. a failure routed around: the agent said so, and a later call of the same role succeeded ------------------

ROUTED = [
    # Claude Code: a sub-agent type that does not exist, then the agent's own search tool
    (("Task", {"description": "find retry", "prompt": "find the retry logic", "subagent_type": "Explore"},
      "Agent type 'Explore' not found. Available agents: general-purpose"),
     "Let me try a different approach.", ("Glob", {"pattern": "src/**/*.py"}, "src/net.py")),
    # an MCP server's test runner down, then the tests run in the shell
    (("mcp__ci__run_tests", {"suite": "unit"}, "MCP error -32000: Connection closed"),
     "The CI server isn't connected; running the tests directly.",
     ("Bash", {"command": "pytest tests/unit"}, "12 passed in 0.4s")),
    # a browser MCP tool failed, then the page fetched with curl (pi's bash)
    (("mcp__playwright__browser_navigate", {"url": "https://example.com/docs"}, "Error: browser is not installed"),
     "The browser is unavailable, so I'll fetch the page with curl instead.",
     ("bash", {"command": "curl -sL https://example.com/docs"}, "<html>Retry-After</html>")),
    # opencode: a sub-agent tool errored, then a web fetch did the looking up
    (("task", {"description": "read docs", "prompt": "read https://example.com/docs"}, "Error: provider overloaded"),
     "The sub-agent failed; fetching the docs myself.", ("webfetch", {"url": "https://example.com/docs"}, "Retry-After")),
]


def _routed(failed: tuple, words: str | None, later: tuple, later_failed: bool = False) -> list[dict]:
    (tool, arguments, error), (other, other_arguments, output) = failed, later
    said = [assistant(words)] if words else []
    return [user("Find where the retry logic lives and document it in notes/retry.md."),
            assistant(call("a", tool, **arguments)), result("a", tool, error, error=True), *said,
            assistant(call("b", other, **other_arguments)),
            result("b", other, bash_fail(output, 1) if later_failed else output, error=later_failed),
            *_still_working()]


@pytest.mark.parametrize(("failed", "words", "later"), ROUTED)
def test_a_failure_routed_around_by_a_call_of_the_same_role_is_settled(failed: tuple, words: str,
                                                                        later: tuple) -> None:
    assert _open(summarize(_routed(failed, words, later))) == []


@pytest.mark.parametrize(("failed", "words", "later"), ROUTED)
def test_a_failure_routed_around_stays_open_without_the_agents_words(failed: tuple, words: str,
                                                                     later: tuple) -> None:
    assert _open(summarize(_routed(failed, None, later)))


def test_a_failure_routed_around_stays_open_when_the_other_way_failed_too() -> None:
    failed, words, later = ROUTED[1]
    assert _open(summarize(_routed(failed, words, later, later_failed=True)))


def test_a_success_of_another_role_settles_no_routed_failure() -> None:
    failed, words, _ = ROUTED[1]  # the tests' server down; then only a file read
    assert _open(summarize(_routed(failed, words, ("Read", {"file_path": "src/net.py"}, "def retry(): ..."))))


def test_a_failed_check_routed_around_is_settled_only_by_a_check_that_covers_it() -> None:
    messages = [user("Fix the failing tests."), assistant(call("a", "bash", command="npm test")),
                result("a", "bash", bash_fail("Tests: 3 failed, 40 passed", 1), error=True),
                assistant("Let me run the one file directly instead."),
                assistant(call("b", "bash", command="npx vitest run src/a.test.ts")), result("b", "bash", "1 passed"),
                assistant("Let me look at the next part.")]
    assert _open(summarize(messages))


@pytest.mark.parametrize(("tool", "target", "wanted"), [
    ("Grep", "", {SEARCH}), ("mcp__code__search_symbols", "", {SEARCH}), ("Task", "", {SEARCH, READ, FETCH}),
    ("WebFetch", "https://x.dev", {FETCH}), ("bash", "rg -n retry src", {SEARCH}), ("bash", "curl -s x.dev", {FETCH}),
    ("shell", "git clone https://x.dev/r.git", {FETCH}), ("Bash", "npx vitest run", {TEST}),
    ("Bash", "cat src/net.py", {READ}), ("Write", "notes.md", set()), ("mcp__github__create_issue", "", set()),
])
def test_a_calls_role_is_what_its_tool_or_command_is_for(tool: str, target: str, wanted: set) -> None:
    assert roles(Attempt(0, tool, target, False)) == wanted


# -- 2. a failure the agent explained as expected, harmless or not of this work --------------------------------

FAILURES = [
    ("python scripts/parse.py bad.txt", "ValueError: bad header"),
    ("npm run lint", "src/legacy/old.js\n  3:1  error  'x' is defined but never used  no-unused-vars\n\n1 problem"),
    ("make docs", "WARNING: toctree contains reference to nonexisting document 'old'\nbuild finished with problems"),
]
EXPLAINED = [
    "That error is expected — the script rejects bad headers, which is the failure path the new test checks.",
    "The warning is harmless: it refers to a page removed on purpose.",
    "It fails as expected, since the fixture is missing on purpose.",
    "This can be safely ignored: the fixture is missing on purpose.",
]
NOT_OURS = [
    "That lint error is pre-existing in src/legacy/old.js, unrelated to this change.",
    "These are pre-existing failures; they fail on main too.",
    "The failure is unrelated to our change.",
    "Those errors were not introduced by this change.",
]
NOT_EXPLAINED = [
    "That error is unexpected; let me look at the parser.",
    "This is not expected. Let me check the fixture.",
    "The test is expected to pass once the header is fixed.",
    "The rounding is intentional, so the test is what is wrong.",  # the code behaves as meant: the check changes
    "This failure is expected since we renamed the parser; let me update the test.",  # still to fix
]


def _explained(command: str, error: str, words: str, before: str = "") -> list[dict]:
    first = [assistant(before)] if before else []
    return [user("Add a test for the bad-header path."), assistant(call("a", "bash", command=command)),
            result("a", "bash", bash_fail(error, 1), error=True), *first, assistant(words),
            assistant(call("w", "edit", path="tests/test_bad.py", oldText="a", newText="b")),
            result("w", "edit", "ok"), assistant("Let me look at the next part.")]


@pytest.mark.parametrize("words", EXPLAINED)
@pytest.mark.parametrize(("command", "error"), FAILURES)
def test_a_failure_the_agent_explained_is_no_open_error(command: str, error: str, words: str) -> None:
    assert _open(summarize(_explained(command, error, words))) == []


@pytest.mark.parametrize("words", NOT_EXPLAINED)
def test_a_failure_the_agent_did_not_explain_away_stays_open(words: str) -> None:
    assert _open(summarize(_explained(*FAILURES[0], words)))


@pytest.mark.parametrize("words", NOT_OURS)
@pytest.mark.parametrize(("command", "error"), FAILURES)
def test_a_failure_the_agent_called_pre_existing_stays_open_marked_so(command: str, error: str, words: str) -> None:
    """The check still fails: a continuing agent held to "run it until it passes" meets it again."""
    found = _open(summarize(_explained(command, error, words)))
    assert found and all("pre-existing, not of this change" in line for line in found)


def test_a_failure_the_agent_took_on_is_not_marked_by_a_later_word_about_others() -> None:
    messages = _explained(*FAILURES[0], NOT_OURS[1], before="The parser rejects the header; let me fix the parser.")
    found = _open(summarize(messages))
    assert found and not any("pre-existing" in line for line in found)


def test_an_explanation_after_a_look_still_speaks_of_the_failure() -> None:
    messages = _explained(*FAILURES[1], EXPLAINED[0], before="Let me check whether it fails on main too.")
    assert _open(summarize(messages)) == []
    marked = _explained(*FAILURES[1], NOT_OURS[1], before="Let me check whether it fails on main too.")
    assert "pre-existing" in " ".join(_open(summarize(marked)))


# -- 3. the same command later succeeded in another form ------------------------------------------------------

OTHER_FORMS = [
    ("./scripts/test.sh", "bash: ./scripts/test.sh: Permission denied", "bash scripts/test.sh", "ok"),
    ("node scripts/migrate.js --dry-run", "Error [ERR_REQUIRE_ESM]: require() of ES Module",
     "npx tsx scripts/migrate.js --dry-run", "3 migrations would run"),
    ("npm install", "npm ERR! ERESOLVE unable to resolve dependency tree", "npm install --legacy-peer-deps",
     "added 312 packages"),
    ("docker compose up -d", "port is already allocated", "docker compose up -d --force-recreate",
     "Container api Started"),
    ("cd api && ./manage.py migrate", "permission denied: ./manage.py", "cd api && python3 manage.py migrate",
     "Applying 0003... OK"),
]


def _other_form(failed: str, error: str, later: str, output: str, later_failed: bool = False) -> list[dict]:
    return [user("Get the project running."), assistant(call("a", "bash", command=failed)),
            result("a", "bash", bash_fail(error, 1), error=True), assistant(call("b", "bash", command=later)),
            result("b", "bash", bash_fail(output, 1) if later_failed else output, error=later_failed),
            assistant("Let me look at the next part.")]


@pytest.mark.parametrize(("failed", "error", "later", "output"), OTHER_FORMS)
def test_a_command_that_succeeded_later_in_another_form_is_settled(failed: str, error: str, later: str,
                                                                    output: str) -> None:
    assert _open(summarize(_other_form(failed, error, later, output))) == []


@pytest.mark.parametrize(("failed", "error", "later", "output"), OTHER_FORMS)
def test_a_command_whose_other_form_failed_too_stays_open(failed: str, error: str, later: str, output: str) -> None:
    assert _open(summarize(_other_form(failed, error, later, output, later_failed=True)))


@pytest.mark.parametrize(("failed", "later"), [
    ("node scripts/migrate.js", "node scripts/migrate.js --dry-run"),  # a dry run does not do the real run's job
    ("./scripts/deploy.sh prod", "bash scripts/build.sh prod"),  # another script
    ("docker compose up -d api", "docker compose -f dev.yml up -d web"),  # other things
    ("./manage.py migrate", "python3 manage.py runserver"),  # the same script, another command of it
    ("./run_tests.sh", "bash run_tests.sh tests/test_a.py"),  # narrowed to one file: the rest still fails
    ("python app.py", "python app.py --port 8001 > server.log 2>&1 &"),  # started in the background: not done
])
def test_a_later_run_that_did_not_do_the_job_settles_nothing(failed: str, later: str) -> None:
    assert _open(summarize(_other_form(failed, "Error: connection refused", later, "ok")))


def test_a_patch_that_did_not_apply_is_settled_by_the_file_written_in_the_shell() -> None:
    patch = "*** Begin Patch\n*** Update File: src/net.py\n@@\n-x\n+y\n*** End Patch"
    messages = [user("Add retry to src/net.py."), assistant(call("a", "apply_patch", input=patch)),
                result("a", "apply_patch", "apply_patch verification failed: Failed to find expected lines in "
                       "src/net.py", error=True),
                assistant(call("b", "shell", command=["bash", "-lc", "cat > src/net.py <<'EOF'\ny\nEOF"])),
                result("b", "shell", ""), assistant("Let me look at the next part.")]
    assert _open(summarize(messages)) == []


def test_a_file_a_program_wrote_on_the_side_settles_no_failure_naming_it() -> None:
    messages = [user("Get the project running."), assistant(call("a", "bash", command="node server.js")),
                result("a", "bash", bash_fail("Error: Cannot find module 'express' (required in package.json)", 1),
                       error=True),
                assistant(call("b", "bash", command="npm install dotenv")), result("b", "bash", "added 1 package"),
                assistant("Let me look at the next part.")]
    assert _open(summarize(messages))


@pytest.mark.parametrize(("command", "script"), [
    ("./scripts/test.sh", "scripts/test.sh"), ("bash scripts/test.sh -v", "scripts/test.sh"),
    ("npx tsx scripts/m.ts", "scripts/m.ts"), ("uv run python tools/a.py", "tools/a.py"),
    ("deno run -A x.ts", "x.ts"), ("python -c 'import a.b'", None), ("git push", None), ("pytest", None),
])
def test_the_script_a_command_runs_however_it_is_run(command: str, script: str | None) -> None:
    assert script_of(command_words(command)[0]) == script


def test_a_commands_form_leaves_its_options_out() -> None:
    assert form_key(command_words("npm install --legacy-peer-deps")[0]) == ("npm", "install", frozenset({"install"}))
    assert form_key(command_words("npx prisma migrate dev")[0]) == ("prisma", "migrate", frozenset({"migrate", "dev"}))


# -- growth: every failure against every later call ---------------------------------------------------------


def _routed_and_reformed(n: int) -> list[dict]:
    """``n`` failures of each kind, each followed by the agent's words routing around it or explaining it, then
    ``n`` successes of other roles and of the same script on other things: each failure could be asked against
    each later call."""
    region = [user("Get it working.")]
    for i in range(n):
        region += [assistant(call(f"t{i}", "Task", prompt=f"find part {i}")),
                   result(f"t{i}", "Task", "Error: agent unavailable", error=True),
                   assistant("The sub-agent is down; I'll do it directly instead."),
                   assistant(call(f"f{i}", "bash", command=f"./scripts/step.sh run --all arg{i}")),
                   result(f"f{i}", "bash", bash_fail("Permission denied", 126), error=True),
                   assistant("This step still fails; let me check the next one.")]
    for i in range(n):
        region += [assistant(call(f"w{i}", "write", path=f"notes/part_{i}.md", content="x")),
                   result(f"w{i}", "write", "ok"),
                   assistant(call(f"s{i}", "bash", command=f"bash scripts/step.sh run --all other{i}")),
                   result(f"s{i}", "bash", "ok")]
    return region + [assistant("Done.")]


def test_settling_failures_by_words_and_other_forms_grows_linearly() -> None:
    regions = {n: _routed_and_reformed(n) for n in (100, 200, 400)}
    facts = {n: extract_facts(region) for n, region in regions.items()}
    found = growth("region_state", lambda n: (lambda: region_state(regions[n], facts[n])), 100, runs=2)
    assert found.linear, str(found)
