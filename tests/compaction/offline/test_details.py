"""A large region's summary holds its details in the user's and agent's own terms, within a room that grows with the
region; a small region's within a floor of its own."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.details import (DETAIL_FLOOR, DETAIL_MAX, GIT_LABEL, LOG_LABEL, MET_LABEL,
                                                    PASTED_LABEL, RAN_LABEL, READ_LABEL, detail_room, terms)
from pi_compact.compaction.offline.compose import compose
from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.tokens import text_tokens

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items, section

CWD = "/home/dev/project"
FILLER = "".join(f"    value_{n} = compute(row[{n}], scale={n % 7})\n" for n in range(4000))
"""A file body of about 60,000 tokens: what makes a region large."""


def _region(findings: list[str], *, reads: int = 2, requests: int = 2, cwd: str = CWD) -> list[dict]:
    """``requests`` requests, each answered after reading big files, the agent saying ``findings`` on the way."""
    messages: list[dict] = []
    for number in range(requests):
        messages.append(user(f"Please look into part {number} of the importer and fix what is broken there."))
        for read in range(reads):
            path = f"{cwd}/src/importer/part_{number}_{read}.py"
            messages += [assistant(call(f"r{number}{read}", "read", path=path)),
                         result(f"r{number}{read}", "read", FILLER)]
        for finding in findings[number::requests]:
            messages.append(assistant(finding))
    return messages


IDENTIFIERS = st.lists(st.from_regex(r"[a-z]{3,8}_[a-z]{3,8}", fullmatch=True), min_size=3, max_size=12,
                       unique=True)
SHAPES = st.sampled_from([
    "The root cause is that `{}` is read before the lock is taken.",
    "I replaced the call to {}() with a bounded loop, because the old one never returned.",
    "Found it: {} fails when the header row is empty.",
    "The fix is to pass `{}=1` to the query so the insert is synchronous.",
])


@EXAMPLES
@given(names=IDENTIFIERS, shape=SHAPES)
def test_a_large_region_keeps_the_agents_findings_in_its_own_terms(names: list[str], shape: str) -> None:
    findings = [shape.format(name) for name in names]
    text = summarize(_region(findings), metadata={"cwd": CWD})
    assert all(name in text for name in names)
    log = "\n".join(line for line in section(text, "## Critical Context"))
    # the agent's words are quoted: a finding about a failure claims nothing about the state now
    # (no log when every finding is said elsewhere already, e.g. "The fix is to …" as a decision)
    assert all(line.lstrip().startswith(("> ", "Request")) for line in log.partition(LOG_LABEL)[2].splitlines()
               if line.strip() and not line.startswith("- "))


@EXAMPLES
@given(names=IDENTIFIERS, shape=SHAPES)
def test_a_small_region_keeps_its_details_within_the_floor(names: list[str], shape: str) -> None:
    small = [user("Please look into the importer and fix what is broken there.")] + \
        [assistant(shape.format(name)) for name in names]
    text = summarize(small)
    # a model's summary of a small region still runs to thousands of characters: the findings fit the floor
    assert all(name in text for name in names) and READ_LABEL not in text
    assert text_tokens(text) <= DETAIL_FLOOR


@pytest.mark.parametrize("count", [1, 4, 40, 400])
def test_the_details_stay_within_the_room_the_region_affords(count: int) -> None:
    findings = [f"The value of `limit_{n}` is now {n * 3}, set in src/conf/part_{n}.toml." for n in range(count)]
    messages = _region(findings, reads=3, requests=4)
    replaced = sum(text_tokens(str(m)) for m in messages)
    text = summarize(messages, metadata={"cwd": CWD})
    assert text_tokens(text) <= max(detail_room(replaced, 13_000), DETAIL_MAX)
    if count >= 40:  # more findings than fit: the room is used, not exceeded
        assert text_tokens(text) >= detail_room(replaced, 13_000) * 0.6


def test_files_read_are_left_to_pis_list_and_their_room_to_the_agents_words() -> None:
    messages = _region(["The parser `split_rows` drops the last row when the file has no final newline."], reads=3)
    messages += [assistant(call("e", "edit", path=f"{CWD}/src/importer/part_0_0.py", oldText="a", newText="b")),
                 result("e", "edit", "Edited."), assistant("Fixed `split_rows`: the last row is kept now.")]
    body = summarize(messages, metadata={"cwd": CWD})
    assert READ_LABEL not in body and "part_1_2.py" not in body and "`split_rows`" in body
    facts = extract_facts(messages)
    stored = compose(body, first_request=None, current_request=None, dropped_note=None, read_files=facts.read_files,
                     modified_files=facts.modified_files, cwd=CWD)
    listed = stored.split("<read-files>\n", 1)[1].split("\n</read-files>", 1)[0].splitlines()
    assert "src/importer/part_1_2.py" in listed and "src/importer/part_0_0.py" not in listed  # changed: listed so


def test_an_earlier_regions_details_give_way_to_this_ones() -> None:
    def findings(word: str) -> list[str]:
        return [f"The profile shows `{word}_{n}` taking {n}0 ms per row." for n in range(6)] + ["All done here."]

    first = summarize(_region(findings("alpha")), metadata={"cwd": CWD})
    assert first.count(LOG_LABEL) == 1 and "alpha_0" in first
    second = summarize(_region(findings("beta")), previous_summary=first, metadata={"cwd": CWD})
    assert second.count(LOG_LABEL) == 1 and all(f"beta_{n}" in second for n in range(6))
    assert "alpha_0" not in second.split(LOG_LABEL, 1)[1]


@pytest.mark.parametrize(("text", "expected"), [
    ("see `select_sequential_consistency = 1` in journal-store.ts", {"select_sequential_consistency = 1",
                                                                     "journal-store.ts"}),
    ("PR #46 passes 62/62 tests on v2.1", {"#46", "62/62", "v2.1"}),
    ("the ClickHouseJournalStore class and src/bin/lib.ts.", {"clickhousejournalstore", "src/bin/lib.ts"}),
    ("Plain words say nothing named here.", set()),
])
def test_terms_are_the_named_things_of_a_text(text: str, expected: set[str]) -> None:
    assert terms(text) == expected


# -- answers a question tool lists one a line, in the order it asked ------------------------------------------

@EXAMPLES
@given(pairs=st.lists(st.sampled_from([("Where should the table live?", "In the configured database"),
                                       ("Keep the local journal?", "No, remove it entirely"),
                                       ("Which flag name?", "--dry-run")]), min_size=1, max_size=3, unique=True),
       marker=st.sampled_from(["{}. ", "- ", "{}) "]), lead=st.sampled_from(["User responses:\n", "Answers:\n", ""]))
def test_answers_listed_one_a_line_are_paired_with_the_questions_asked(pairs: list, marker: str, lead: str) -> None:
    asked = [{"question": q, "options": [a, "something else"]} for q, a in pairs]
    answered = lead + "\n".join(marker.format(n) + a for n, (_, a) in enumerate(pairs, 1))
    messages = [user("Let's settle the journal design."), assistant(call("q", "mcp__x__AskUserQuestion", questions=asked)),
                result("q", "mcp__x__AskUserQuestion", answered), assistant("Noted.")]
    assert list(extract_facts(messages).answers) == [(q, a) for q, a in pairs]
    decisions = "\n".join(section(summarize(messages), "## Key Decisions"))
    assert all(q in decisions and a in decisions for q, a in pairs)


def test_answers_that_do_not_pair_stand_together() -> None:
    asked = [{"question": "First?"}, {"question": "Second?"}]
    messages = [user("Decide."), assistant(call("q", "ask_user", questions=asked)),
                result("q", "ask_user", "1. only one answer given"), assistant("Noted.")]
    assert list(extract_facts(messages).answers) == [("First? / Second?", "only one answer given")]


# -- what each change brought in ------------------------------------------------------------------------------

@pytest.mark.parametrize(("tool", "arguments", "brought", "not_brought"), [
    ("edit", {"oldText": "def load(path):\n    pass\n", "newText": "def load(path):\n    return read_rows(path)\n\n"
              "def read_rows(path):\n    return []\n"}, ["read_rows"], ["load", "path"]),
    ("Edit", {"old_string": "const a = 1;", "new_string": "export const RETRY_LIMIT = 3;\nfunction retryLater() {}"},
     ["RETRY_LIMIT", "retryLater"], []),
    ("Write", {"content": "import { type Options, helperName } from './x';\n\nexport interface JournalStore {}\n"
               "export class ClickHouseJournalStore {}\n"}, ["JournalStore", "ClickHouseJournalStore"],
     ["Options", "helperName"]),
    ("MultiEdit", {"edits": [{"old_string": "x", "new_string": "fn parse_header() {}"},
                             {"old_string": "y", "new_string": "struct HeaderRow {}"}]}, ["parse_header", "HeaderRow"], []),
])
def test_the_names_a_change_brings_in_are_listed_under_its_file(tool: str, arguments: dict, brought: list,
                                                                 not_brought: list) -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [assistant(call("w", tool, file_path=f"{CWD}/src/store/journal.ts", **arguments)),
                 result("w", tool, "The file was updated."), assistant("Updated the journal store.")]
    text = summarize(messages, metadata={"cwd": CWD})
    line = next(line for line in text.splitlines() if "`journal.ts`:" in line)
    assert all(f"`{name}`" in line for name in brought)
    assert not any(f"`{name}`" in line for name in not_brought)


def test_a_change_the_user_declined_brings_in_nothing() -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [assistant(call("w", "Write", file_path=f"{CWD}/src/fast.py", content="def fast_path():\n    pass\n")),
                 result("w", "Write", "The user doesn't want to proceed with this tool use. The tool use was "
                        "rejected.", error=True), assistant("Understood, I will not write it.")]
    assert "fast_path" not in summarize(messages, metadata={"cwd": CWD})


# -- where the work is in git ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("commands", "branch"), [
    (["git checkout -b feat/journal-store"], "feat/journal-store"),
    (["git switch -c fix-42"], "fix-42"),
    (["git -C /home/dev/project branch -m marc/typed-flag-parser"], "marc/typed-flag-parser"),
    (["git branch -m old-name new-name", "git push -u origin new-name"], "new-name"),
    (["git add -A && git commit -m 'x' && git push --set-upstream origin release/2.1"], "release/2.1"),
])
def test_the_branch_the_work_is_on_is_named(commands: list, branch: str) -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    for n, command in enumerate(commands):
        messages += [assistant(call(f"g{n}", "bash", command=command)), result(f"g{n}", "bash", "ok")]
    messages.append(assistant("Done with git."))
    assert f"{GIT_LABEL} on branch `{branch}`" in summarize(messages, metadata={"cwd": CWD})


@pytest.mark.parametrize("command, host, name", [
    ("gh pr create --title 'Faster importer'", "https://github.com/acme/tool/pull/46", "PR #46"),
    ("glab mr create --fill", "https://gitlab.example.org/acme/tool/-/merge_requests/7", "MR !7"),
    ("gh issue create --title 'Heartbeat clean-up' --body 'x'", "https://github.com/acme/tool/issues/21", "issue #21"),
    ("glab issue create --title 'Heartbeat'", "https://gitlab.example.org/acme/tool/-/issues/3", "issue #3"),
])
def test_a_pull_request_or_issue_the_region_opened_is_named(command: str, host: str, name: str) -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [assistant(call("p", "bash", command=command)), result("p", "bash", f"Creating...\n{host}\n"),
                 assistant("Opened it.")]
    assert f"opened {name} ({host})" in summarize(messages, metadata={"cwd": CWD})


def test_a_failed_branch_command_names_no_branch() -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [assistant(call("g", "bash", command="git checkout -b broken/name")),
                 result("g", "bash", "fatal: a branch named 'broken/name' already exists", error=True),
                 assistant("That branch exists already.")]
    assert GIT_LABEL not in summarize(messages, metadata={"cwd": CWD})


# -- every request of the region, in the user's words ---------------------------------------------------------

@EXAMPLES
@given(requests=st.lists(st.sampled_from([
    "Make sure it just provides it as help, not as the only place to look.",
    "Keep the old parser around for reference.",
    "Sounds right, how long does static analysis take?",
    "Ok make sure we ignore worktrees that aren't relevant to the reviewer",
    "Log an issue and do the rest by hand.",
]), min_size=2, max_size=5, unique=True))
def test_every_request_of_a_large_region_is_listed_in_the_users_words(requests: list) -> None:
    messages: list[dict] = []
    for number, request in enumerate(requests):
        messages += [user(request), assistant(call(f"r{number}", "read", path=f"{CWD}/src/part_{number}.py")),
                     result(f"r{number}", "read", FILLER), assistant("Looked at it; nothing else to report.")]
    text = summarize(messages, metadata={"cwd": CWD})
    assert all(request in text for request in requests)  # the last one quoted, the others in the log


def test_a_request_the_summary_quotes_is_named_by_its_first_words_in_the_log() -> None:
    request = "Please look into part 0 of the importer and fix what is broken there."
    text = summarize(_region([f"The profile shows `step_{n}` taking {n}0 ms." for n in range(8)]),
                     metadata={"cwd": CWD})
    assert text.count(request) == 1 and LOG_LABEL in text  # the Goal quotes it; the log names it by its first words


# -- the failures the region met and settled ------------------------------------------------------------------

ERRORS = st.sampled_from([
    "ImportError: cannot import name 'is_python' from 'wfc.scripts.ast_analyzer'",
    "main.go:12:2: SA1000: error parsing regexp: invalid escape sequence: `\\1`",
    "hooks.go:634: not enough arguments in call to initializer.InitializeSession",
    "fatal: bad tree object 082c2c4495629bd585a0a11807b4e0ede9a99753",
])


@EXAMPLES
@given(error=ERRORS, command=st.sampled_from(["go build ./...", "uv run pytest -q", "make lint"]))
def test_a_failure_the_region_settled_is_quoted_with_its_error(error: str, command: str) -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [assistant(call("f", "bash", command=command)), result("f", "bash", bash_fail(error, 1), error=True),
                 assistant(call("e", "edit", path=f"{CWD}/src/fix.go", oldText="a", newText="b")),
                 result("e", "edit", "Edited."), assistant(call("g", "bash", command=command)),
                 result("g", "bash", "ok"), assistant("It builds and passes now.")]
    text = summarize(messages, metadata={"cwd": CWD})
    met = text.split(MET_LABEL, 1)[1].split("\n- ", 1)[0]
    assert f"`{command}`" in met and error.split(":")[-1].strip()[:30] in met
    assert all(line.startswith("  > ") for line in met.strip("\n").splitlines())
    assert items(text, "### Blocked") == ["(none)"]


DIAGNOSES = st.sampled_from([  # (the agent's words after the failure, what of them the line keeps)
    ("The fixture's checkpoint ID needs to be 12 lowercase hex characters. Let me fix that.",
     "needs to be 12 lowercase hex characters"),
    ("Push succeeded. The reply failed because the parent comment was resolved.", "the parent comment was resolved"),
    ("The worktree path is probably resolved through symlinks on macOS, so it does not match.", "symlinks on macOS"),
    ("Let me look at the test first.", None),  # an announcement says nothing of why
    ("Interesting.", None),
])


@EXAMPLES
@given(said=DIAGNOSES, large=st.booleans())
def test_a_settled_failure_keeps_what_the_agent_made_of_it(said: tuple, large: bool) -> None:
    words, kept = said
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."]) if large else \
        [user("Run the tests and fix what fails.")]
    messages += [assistant(call("f", "bash", command="go test ./...")),
                 result("f", "bash", bash_fail("--- FAIL: TestCondense_WritesMetadata (0.05s)", 1), error=True),
                 assistant(words), assistant(call("e", "edit", path=f"{CWD}/cmd/condense_test.go", oldText="a",
                                                   newText="b")),
                 result("e", "edit", "Edited."), assistant(call("g", "bash", command="go test ./...")),
                 result("g", "bash", "ok"), assistant("Fixed; the tests pass now.")]
    met = summarize(messages, metadata={"cwd": CWD}).split(MET_LABEL, 1)[1].split("\n- ", 1)[0]
    assert "TestCondense_WritesMetadata" in met and "then edited `cmd/condense_test.go`" in met
    assert (kept in met) if kept else "the agent:" not in met


def test_what_the_agent_says_after_the_user_spoke_again_is_no_diagnosis() -> None:
    messages = [user("Run the tests."), assistant(call("f", "bash", command="go test ./...")),
                result("f", "bash", bash_fail("--- FAIL: TestCondense_WritesMetadata (0.05s)", 1), error=True),
                user("never mind, revert the last edit instead"),
                assistant("The revert is done because you asked for it."),
                assistant(call("g", "bash", command="go test ./...")), result("g", "bash", "ok")]
    met = summarize(messages, metadata={"cwd": CWD}).split(MET_LABEL, 1)[1].split("\n- ", 1)[0]
    assert "TestCondense_WritesMetadata" in met and "the agent:" not in met


# -- errors the user pasted: what failed on the user's side reaches the agent only as a message ---------------

PASTED = st.sampled_from([  # (a line of output the user pasted that says what failed)
    "fatal: bad tree object 082c2c4495629bd585a0a11807b4e0ede9a99753",
    "go: cannot find main module, but found .git/config in /tmp/tmp.kdWp7xUk8V",
    'unknown command "session" for "entire"',
    "cmd/cli/strategy/auto_commit.go:364:22: cannot use cpID.String() (value of type string) as id.CheckpointID",
    "error: cannot rebase: You have unstaged changes.",
])


@EXAMPLES
@given(line=PASTED, noise=st.integers(10, 60))
def test_an_error_the_user_pasted_is_quoted_however_long_the_paste(line: str, noise: int) -> None:
    log = [f"=== Step {n}: checking part {n} of the setup ===" for n in range(noise)]
    paste = "\n".join(["ran the script again, look:", *log[: noise // 2], line, *log[noise // 2:]])
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [user(paste), assistant("I see; the script needs the binary built first. I'll change that."),
                 assistant(call("e", "edit", path=f"{CWD}/scripts/e2e.sh", oldText="a", newText="b")),
                 result("e", "edit", "Edited."), assistant("Updated the script."),
                 user("ok, now update the README too"), assistant("Updated the README.")]
    text = summarize(messages, metadata={"cwd": CWD})
    assert f"`{line}`" in text.split(PASTED_LABEL, 1)[1].split("\n- ", 1)[0]


def test_one_line_of_the_users_own_words_is_no_pasted_output() -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [user("it says cannot connect when I open the page, can you check the server?"),
                 assistant("The server was not started; I started it."), user("thanks, now the docs"),
                 assistant("Updated the docs.")]
    assert PASTED_LABEL not in summarize(messages, metadata={"cwd": CWD})


@pytest.mark.parametrize("quoted", [True, False])
def test_a_settled_failure_the_details_quote_is_not_listed_again_as_resolved(quoted: bool) -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    failing = "go vet ./..." if quoted else "cat docs/missing.md"  # a failed lookup is resolved, never quoted
    messages += [assistant(call("f", "bash", command=failing)),
                 result("f", "bash", bash_fail("pkg/a.go:3:1: unreachable code", 1), error=True),
                 assistant(call("e", "edit", path=f"{CWD}/pkg/a.go", oldText="a", newText="b")),
                 result("e", "edit", "Edited."), assistant(call("g", "bash", command=failing)),
                 result("g", "bash", "ok"), assistant("Fixed; it passes now.")]
    text = summarize(messages, metadata={"cwd": CWD})
    resolved = [line for line in text.splitlines() if line.startswith("- Resolved along the way:")]
    assert (f"`{failing}`" in text.split(MET_LABEL, 1)[1]) is quoted if MET_LABEL in text else not quoted
    assert (not resolved) if quoted else f"`{failing}`" in resolved[0]


def test_a_lookup_that_found_nothing_and_an_open_failure_are_not_among_the_settled() -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [assistant(call("l", "bash", command="grep -rn missing_name src/")), result("l", "bash", "", error=True),
                 assistant(call("f", "bash", command="make test")),
                 result("f", "bash", bash_fail("FAIL: TestResume_SessionLogAlreadyExists", 2), error=True),
                 assistant("The resume test fails; I will look at it next.")]
    text = summarize(messages, metadata={"cwd": CWD})
    assert MET_LABEL not in text


# -- commits by hash, commands whose last run succeeded -------------------------------------------------------

@pytest.mark.parametrize("printed", ["[main 3696270] {}", "[feat/x (root-commit) 23c05e9aa] {}",
                                     "[marc/num-6552 5a26ea8] {}\n 2 files changed, 9 insertions(+)"])
def test_a_commit_is_listed_with_the_hash_git_printed_however_small_the_region(printed: str) -> None:
    subject = "fix: keep the cache bounded"
    command = f"git add -A && git commit -m '{subject}'"
    commit = [user("Commit the cache fix."), assistant(call("c", "bash", command=command)),
              result("c", "bash", printed.format(subject)), assistant("Committed.")]
    sha = printed.split("] ")[0].split()[-1]
    large = summarize(_region(["The profile shows the importer spends 90% of its time in one loop."]) + commit,
                      metadata={"cwd": CWD})
    assert f"Committed: {subject} (`{sha}`)" in items(large, "### Done")
    # a few tokens each, first in the details' room: a small region keeps them too
    assert f"Committed: {subject} (`{sha}`)" in items(summarize(commit), "### Done")


def test_only_commands_whose_last_run_succeeded_are_listed_as_succeeded() -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    runs = [("a", "mise run test:integration", False), ("b", "mise run lint", True), ("c", "mise run lint", False),
            ("d", "make verify | grep FAIL", False), ("e", "cd /home/dev/project && mise run fmt", False)]
    for call_id, command, fails in runs:
        messages += [assistant(call(call_id, "bash", command=command)),
                     result(call_id, "bash", bash_fail("FAIL", 1) if fails else "ok", error=fails)]
    messages.append(assistant("Formatted and checked."))
    line = next(line for line in summarize(messages, metadata={"cwd": CWD}).splitlines() if RAN_LABEL in line)
    assert "`mise run test:integration`" in line and "`mise run fmt`" in line
    assert "`mise run lint`" not in line and "grep" not in line


@pytest.mark.parametrize("looked", ["git log --oneline main..HEAD", "git status --short", "git diff --stat HEAD~1",
                                    "git -C web show HEAD", "cat package.json"])
def test_a_command_that_only_looked_is_not_listed_as_succeeded(looked: str) -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    for call_id, command in (("a", "mise run test:integration"), ("b", looked)):
        messages += [assistant(call(call_id, "bash", command=command)), result(call_id, "bash", "ok")]
    messages.append(assistant("Checked the branch."))
    line = next(line for line in summarize(messages, metadata={"cwd": CWD}).splitlines() if RAN_LABEL in line)
    assert "`mise run test:integration`" in line and looked.split()[-1] not in line, line


@pytest.mark.parametrize("path", ["docs/guide.md", "README.mdx", "notes/plan.txt"])
def test_a_prose_file_brings_in_no_names(path: str) -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [assistant(call("w", "Write", file_path=f"{CWD}/{path}", content="Push to GitHub or GitLab, then "
                                "run `add_users_table`.\n\nclass Example in a code sample\n")),
                 result("w", "Write", "Written."), assistant("Wrote the guide.")]
    text = summarize(messages, metadata={"cwd": CWD})
    assert f"`{path}`:" not in text


@pytest.mark.parametrize(("tool", "arguments", "error"), [
    ("WebFetch", {"url": "https://example.org/docs"}, "Request failed with status code 500"),
    ("Read", {"file_path": f"{CWD}/missing.py"}, "<tool_use_error>File does not exist.</tool_use_error>"),
    ("Grep", {"pattern": "parse_rows", "path": "src"}, "Error: path not found: src"),
])
def test_a_failed_read_search_or_fetch_is_no_settled_failure(tool: str, arguments: dict, error: str) -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [assistant(call("x", tool, **arguments)), result("x", tool, error, error=True),
                 assistant("That lookup failed; the loop is the issue anyway.")]
    assert MET_LABEL not in summarize(messages, metadata={"cwd": CWD})


# -- a settled failure says what failed in its tool's words, then what the agent did next (issue 20) ----------

SHELLS = st.sampled_from([  # (tool, output as the agent's harness reports a failed command)
    ("bash", lambda text: bash_fail(text, 1)),  # pi
    ("Bash", lambda text: f"Exit code 1\n{text}"),  # Claude Code
    ("exec_command", lambda text: f"{text}\nexit code: 1"),  # Codex
])
CHECKS = st.sampled_from([  # (command, output, what must be named, the fix: an edit of this file or a command)
    ("mise run lint", "[lint] $ golangci-lint run ./...\n[lint] ERROR task failed\n\ncmd/cli/state.go:131:16: Error "
     "return value is not checked (errcheck)\n\tpath, _ := GetWorktreePath()\n\t        ^\n1 issues:\n* errcheck: 1",
     ["errcheck", "GetWorktreePath"], "cmd/cli/state.go"),
    ("go build ./...", "# example.com/cli\ncmd/cli/hooks.go:634:64: not enough arguments in call to "
     "initializer.InitializeSession\n\thave (string, string)\n\twant (string, string, string)",
     ["not enough arguments", "InitializeSession"], "cmd/cli/hooks.go"),
    ("npx eslint src", "src/app/view.ts:12:5: 'user' is assigned a value but never used (no-unused-vars)",
     ["no-unused-vars", "view.ts:12:5"], "src/app/view.ts"),
    ("git push", "To github.com:example/cli.git\n ! [rejected]        feature -> feature (fetch first)\nerror: failed "
     "to push some refs to 'github.com:example/cli.git'", ["rejected", "fetch first"], "git pull --rebase"),
    ("git merge origin/main", "Auto-merging src/state.go\nCONFLICT (content): Merge conflict in src/state.go\n"
     "Automatic merge failed; fix conflicts and then commit the result.", ["CONFLICT", "src/state.go"], "src/state.go"),
    ("uv run pytest -q", "FAILED tests/test_cache.py::test_expiry - AssertionError: 3 != 2\n1 failed, 9 passed",
     ["test_expiry"], "src/cache.py"),
])


def _settled(check: tuple, shell: tuple, large: bool) -> tuple[list[dict], str]:
    command, output, _, fix = check
    tool, failed = shell
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."]) if large else \
        [user("Run the checks and fix what fails.")]
    messages += [assistant(call("f", tool, command=command)), result("f", tool, failed(output), error=True)]
    if "/" in fix:
        messages += [assistant(call("e", "edit", path=f"{CWD}/{fix}", oldText="a", newText="b")),
                     result("e", "edit", "Edited.")]
    else:
        messages += [assistant(call("p", tool, command=fix)), result("p", tool, "Successfully rebased.")]
    messages += [assistant(call("g", tool, command=command)), result("g", tool, "ok"),
                 assistant("Fixed; the check passes now.")]
    return messages, fix


@EXAMPLES
@given(check=CHECKS, shell=SHELLS, large=st.booleans())
def test_a_settled_failure_names_its_finding_and_what_settled_it_however_small_the_region(
        check: tuple, shell: tuple, large: bool) -> None:
    messages, fix = _settled(check, shell, large)
    text = summarize(messages, metadata={"cwd": CWD})
    met = text.split(MET_LABEL, 1)[1].split("\n- ", 1)[0]
    assert all(name in met for name in check[2]) and f"`{check[0]}`" in met
    assert "; then " in met and fix in met.split("; then ", 1)[1]
    assert "ERROR task failed" not in met and "Automatic merge failed" not in met  # a verdict names nothing
    assert items(text, "### Blocked") == ["(none)"]
    assert not any(check[2][0] in step for step in items(text, "## Next Steps"))


@pytest.mark.parametrize("output", ["ci-cd.md", "=== a444d35242db423f5 ===", "did we ever do this in a branch?"])
def test_a_failure_whose_output_names_no_error_is_not_quoted_as_settled(output: str) -> None:
    messages = _region(["The profile shows the importer spends 90% of its time in one loop."])
    messages += [assistant(call("f", "bash", command="for f in docs/*.md; do head -1 $f; done")),
                 result("f", "bash", bash_fail(output, 1), error=True),
                 assistant(call("e", "edit", path=f"{CWD}/docs/index.md", oldText="a", newText="b")),
                 result("e", "edit", "Edited."), assistant("Updated the index.")]
    assert MET_LABEL not in summarize(messages, metadata={"cwd": CWD})


@pytest.mark.parametrize("tool", ["WebFetch", "fetch_url", "mcp__browser__navigate"])
def test_a_fetch_that_failed_names_the_page_fetched_instead(tool: str) -> None:
    wanted, instead = "https://example.org/docs/cli/how-it-works", "https://example.org/docs"
    messages = [user("Find out how the tool handles squash merges."),
                assistant(call("a", tool, url=wanted)),
                result("a", tool, "Request failed with status code 404", error=True),
                assistant(call("b", tool, url=instead)), result("b", tool, "The docs index: …"),
                assistant("The index says squash merges are rewritten.")]
    met = summarize(messages, metadata={"cwd": CWD}).split(MET_LABEL, 1)[1].split("\n- ", 1)[0]
    assert wanted in met and "404" in met and f"then {tool} `{instead}`" in met


@pytest.mark.parametrize(("error", "named"), [
    ('API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_0"}',
     ["529", "Overloaded"]),
    ("API Error: Unable to connect to API (FailedToOpenSocket)", ["FailedToOpenSocket"]),
    ("429 Too Many Requests: rate limit exceeded", ["429", "rate limit"]),
])
@pytest.mark.parametrize("answered", [True, False])
def test_an_error_of_the_models_own_api_is_settled_once_a_later_reply_went_through(
        error: str, named: list[str], answered: bool) -> None:
    failed = assistant(error)
    failed.update(stopReason="error", errorMessage=error)
    messages = [user("Does this change apply to resume too?"), failed, user("Does this change apply to resume too?")]
    if answered:
        messages.append(assistant("Yes: resume goes through the same restore path."))
    text = summarize(messages, metadata={"cwd": CWD})
    met = text.split(MET_LABEL, 1)[1].split("\n- ", 1)[0] if MET_LABEL in text else ""
    assert all(name in met for name in named) is answered
    assert "request_id" not in text.split("## Critical Context", 1)[-1] if answered else True


RULES = "# Project rules\n\n" + "".join(f"- Rule {n}: keep module {n} free of side effects at import.\n"
                                         for n in range(10))
"""A document a hook or the harness puts in as a user message after a tool result: no request of the user's."""


def test_the_work_log_heads_each_finding_with_the_request_it_followed() -> None:
    first, second = _region([], requests=1), _region([], requests=1)
    second[0] = user("Please look into part 1 of the importer and fix what is broken there.")
    messages = [*first, user(RULES), assistant("The profile shows `alpha_one` taking 90 ms."),
                assistant("The profile shows `alpha_two` taking 80 ms."), *second,
                assistant("The profile shows `beta_one` taking 70 ms."), assistant("All done here.")]
    log = summarize(messages, metadata={"cwd": CWD}).split(LOG_LABEL, 1)[1].split("\n\n", 1)[0]
    heads = [n for n, line in enumerate(log.splitlines()) if line.strip().startswith("Request")]
    under = {line.split("`")[1] for line in log.splitlines()[heads[0]:heads[1] if len(heads) > 1 else None]
             if "`" in line}
    assert "part 0" in log.splitlines()[heads[0]] and under == {"alpha_one", "alpha_two"}
