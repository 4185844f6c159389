"""Settled failures (issue 20, class 4) and missing programs: a failure later dealt with another way — the same
path removed or put in place by another call, a retry of it the user stopped — is history; a summary that gives it
as open (Blocked, a "Fix: …" step) is wrong, one that leaves it out is not. A program found missing ("command not
found") is settled only when it later runs: other commands succeeding, or a look for it, settle nothing."""

from __future__ import annotations

import pytest

from pi_compact.evaluation.quality import RegionIndex, score_quality
from pi_compact.evaluation.settling import missing_program, programs
from tests.compaction.messages import assistant, bash_fail, call, result, user

_numbers = iter(range(1, 10_000))


def _run(command: str, output: str = "", *, code: int = 0, tool: str = "Bash") -> list[dict]:
    number = next(_numbers)
    text = bash_fail(output, code) if code else output
    return [assistant(call(f"c{number}", tool, command=command)),
            result(f"c{number}", tool, text, error=bool(code))]


def _write(path: str, tool: str = "Write") -> list[dict]:
    number = next(_numbers)
    return [assistant(call(f"w{number}", tool, file_path=path, content="x")),
            result(f"w{number}", tool, f"File created successfully at: {path}")]


def _open_failures(messages: list[dict]) -> list[str]:
    return [f.target for f in RegionIndex(messages).errors.failures() if not f.resolved]


COPY = "cp -r skills/lint-fixer ~/.claude/skills/"
COPY_FAIL = "cp: skills/lint-fixer: No such file or directory"
REMOVE = "git rm .env.*.backup"
REMOVE_FAIL = "error: the following files have changes staged in the index:\n    .env.dev.backup"


@pytest.mark.parametrize(("failed", "then"), [
    (_run(COPY, COPY_FAIL, code=1),  # the destination put in place from another source
     _run("cp -r /home/dev/tools/skills/lint-fixer ~/.claude/skills/", "")),
    (_run(REMOVE, REMOVE_FAIL, code=1), _run("git rm -f .env.*.backup", "rm '.env.dev.backup'")),  # removed otherwise
    (_run("mv build/app.js dist/app.js", "mv: cannot move: Permission denied", code=1),
     _write("/home/dev/proj/dist/app.js")),  # the destination written by a file tool
    (_run("./tools/gen-docs.sh docs/api.md", "gen-docs.sh: command not found", code=127),  # a retry the user stopped
     _run("cd tools && ./gen-docs.sh ../docs/api.md", "The user doesn't want to proceed with this tool use.",
          code=1)),
])
def test_a_failure_dealt_with_another_way_is_history(failed, then):
    messages = [user("install the skill"), *failed, *then]
    assert _open_failures(messages) == []
    target = failed[0]["content"][0]["arguments"]["command"]
    blocked = f"## Progress\n### Blocked\n- `{target}` failed\n\n## Next Steps\n1. Fix: `{target}` failed\n"
    mistakes = score_quality(messages, blocked).error_mistakes
    assert mistakes and all(m.startswith("open but resolved") for m in mistakes)
    assert score_quality(messages, "## Goal\ninstall the skill\n").error_mistakes == ()  # left out: no penalty


def test_a_retry_stopped_by_an_interruption_is_history():
    messages = [user("validate the skill"), *_run("skills-ref validate ./skill", "command not found: skills-ref",
                                                 code=127),
                *_run("cd ~/skills-ref && source .venv/bin/activate && skills-ref validate ./skill",
                      "did we ever do this in a branch?", code=1),
                user("[Request interrupted by user]"), user("did we ever do this in a branch?")]
    assert _open_failures(messages) == []


@pytest.mark.parametrize("then", [
    _run("cp -r skills/other-skill ~/.agents/", ""),  # another destination
    _run("git rm .env.local", ""),  # another path
    _run("ls ~/.claude/skills/", "lint-fixer"),  # a look
])
def test_another_path_or_a_look_settles_nothing(then):
    messages = [user("install the skill"), *_run(COPY, COPY_FAIL, code=1), *then]
    assert len(_open_failures(messages)) == 1


@pytest.mark.parametrize(("command", "output", "missing"), [
    ("skills-ref validate ./skill 2>&1", "(eval):1: command not found: skills-ref", "skills-ref"),
    ("cat data.json | fx .items", "bash: fx: command not found", "fx"),
    ("/gen-plan \"ship it\"", "(eval):1: no such file or directory: /gen-plan", "gen-plan"),
    ("npx tsx build.ts", "sh: 1: tsx: not found", "tsx"),
    ("gh api repos/o/r/pulls/1/comments/9", "gh: Not Found (HTTP 404)", None),  # a server's answer
    ("cp -r skills/x ~/.claude/", "cp: skills/x: No such file or directory", None),  # a missing argument
])
def test_the_missing_program_is_one_the_command_runs(command, output, missing):
    assert missing_program(output, command) == missing


@pytest.mark.parametrize(("command", "output"), [
    ("cat data.json | fx .items", "bash: fx: command not found"),  # its head is a look
    ("skills-ref validate ./skill", "(eval):1: command not found: skills-ref"),
])
@pytest.mark.parametrize(("later", "settles"), [
    ("cat data.json", False),  # the command's other part
    ("which skills-ref fx || echo none", False),  # a look for it
    ("make test", False),  # another command succeeding
    ("npm install -g fx skills-ref && fx --version && skills-ref --version", True),  # installed, then run
    ("uv run skills-ref validate ./skill; uv run fx .items data.json", True),  # run through a wrapper
])
def test_a_missing_program_is_settled_only_when_it_runs(command, output, later, settles):
    messages = [user("check the data"), *_run(command, output, code=127), *_run(later, "ok")]
    assert (_open_failures(messages) == []) == settles


def test_programs_are_the_first_words_of_each_command_past_wrappers():
    assert programs("cd web && FOO=1 uv run ./bin/build.sh --fast | tail -3; sudo make") == [
        "cd", "build.sh", "tail", "make"]


GENERATE = 'uv run python -m tools.plan.generator "ship the release"'
GENERATE_FAIL = "python3: Error while finding module specification for 'tools.plan.generator'"


@pytest.mark.parametrize(("words", "settled"), [
    ("There is no plan generator module. Let me write the plan manually.", True),
    ("The generator is a skill, not a module. I'll call the skill instead.", True),
    ("That did not work, let me try another way.", True),
    ("The generator now uses the cache instead of the network.", False),  # a report on code
    ("Let me read the generator instead of guessing.", False),  # "instead of": what it reads, not a new way
    ("Hmm. The module is not installed.", False),
])
def test_the_agents_word_that_it_goes_another_way_leaves_the_failure_behind(words, settled):
    messages = [user("make the plan"), *_run(GENERATE, GENERATE_FAIL, code=1), assistant(words)]
    assert (_open_failures(messages) == []) == settled


def test_only_the_agents_next_words_tell_a_change_of_way():
    later = [assistant(text) for text in ("Checking the module list.", "Reading the docs.", "Looking at the CLI.",
                                          "Let me write the plan manually.")]
    assert len(_open_failures([user("make the plan"), *_run(GENERATE, GENERATE_FAIL, code=1), *later])) == 1


def test_a_failure_quoted_as_history_is_mentioned_and_not_judged():
    messages = [user("make the plan"), *_run("make plan-docs", "make: *** [plan-docs] Error 2", code=2)]
    quoted = "## Critical Context\n- Failures met on the way:\n  > `make plan-docs`: make: *** [plan-docs] Error 2\n"
    assert score_quality(messages, quoted).error_mistakes == ()
    mistakes = score_quality(messages, "## Goal\nmake the plan\n").error_mistakes
    assert [m for m in mistakes if m.startswith("open but not mentioned")]


@pytest.mark.parametrize("command", ["diff <(jq .a one.json) <(jq .a two.json)", "cmp build/a.bin dist/a.bin",
                                     "grep -n TODO src/app.py"])
def test_a_look_that_exits_1_leaves_no_error_open(command):
    messages = [user("compare the settings"), *_run(command, "12a13,14\n>     \"Bash(tts:*)\"", code=1)]
    assert _open_failures(messages) == []
    assert len(_open_failures([user("build"), *_run("make dist", "make: *** [dist] Error 1", code=1)])) == 1
