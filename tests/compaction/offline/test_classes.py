"""The offline summary on the classes of case that failed on other agents' sessions (issue 20), each tested on
generated variations: several agents' phrasings and formats, never one session's strings."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_compact.compaction.offline import OfflineSummarizer
from pi_compact.compaction.offline.compose import compose
from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.paths import is_file_name, listed_files
from pi_compact.compaction.offline.sections import parse
from pi_compact.compaction.offline.steps import imperative
from pi_compact.compaction.summarizer import SummaryRequest

from ..messages import assistant, bash_fail, call, result, user
from .test_offline import changed_files, items

EXAMPLES = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def summarize(messages: list, **fields: object) -> str:
    fields.setdefault("max_tokens", 13_000)
    request = SummaryRequest(system="", prompt="", messages=tuple(messages), **fields)  # type: ignore[arg-type]
    return OfflineSummarizer().summarize(request).text


# -- 1. a call the user refused is a decision, never a blocker, a fix or a changed file -----------------------

DECLINED = st.sampled_from([
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, "
    "the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to "
    "proceed.",
    "exec command rejected by user",
    "patch rejected by user",
    "Blocked by user",
    "User denied permission to run this tool.",
    "The user declined this change.",
    "Tool call was rejected by the user",
    "Denied.",
])
REASON_FORMAT = st.sampled_from(["\n\nTo tell you how to proceed, the user said:\n{}", "\nReason: {}",
                                 "\nuser's feedback: {}"])
REASONS = st.sampled_from(["don't mock the LLM, use the fake server instead", "never write to the production config",
                           "keep it in one module please", "do not add a dependency for this"])
PATHS = st.sampled_from(["tests/test_api.py", "src/app/config.ts", "docs/guide.md", "pkg/server/main.go"])


def _declined_call(kind: str, path: str, refusal: str) -> list[dict]:
    if kind == "bash":
        block = call("x1", "bash", command=f"cat > {path} <<'EOF'\nbody\nEOF")
    elif kind == "edit":
        block = call("x1", "edit", path=path, oldText="a", newText="b")
    else:
        block = call("x1", kind, path=path, content="body")
    return [assistant("I'll make the change now.", block), result("x1", block["name"], refusal, error=True)]


@EXAMPLES
@given(refusal=DECLINED, kind=st.sampled_from(["write", "edit", "bash", "Write"]), path=PATHS,
       reason=st.none() | st.tuples(REASON_FORMAT, REASONS), follow_up=st.booleans())
def test_a_declined_call_is_a_decision_not_an_error_a_fix_or_a_changed_file(
        refusal: str, kind: str, path: str, reason: tuple | None, follow_up: bool) -> None:
    text = refusal + (reason[0].format(reason[1]) if reason else "")
    messages = [user("Add a small cache in front of the API client and test it."), *_declined_call(kind, path, text)]
    if follow_up:
        messages.append(user("Use the in-memory fake for the test and carry on."))
    summary = summarize(messages)
    assert items(summary, "### Blocked") == ["(none)"]
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps"))
    assert path not in changed_files(summary)
    decisions = "\n".join(items(summary, "## Key Decisions"))
    assert "declined" in decisions and path.rsplit("/", 1)[-1] in decisions
    if reason:
        assert reason[1] in decisions
        assert reason[1] in "\n".join(items(summary, "## Constraints & Preferences"))
    if follow_up:  # the user said what instead: that is the next step, not the declined call
        assert "carry on" in "\n".join(items(summary, "## Next Steps"))
    facts = extract_facts(messages)
    assert path in facts.gone and path not in facts.modified_files
    composed = compose("body", first_request=None, current_request=None, dropped_note=None, read_files=(),
                       modified_files=(path,), gone=facts.gone)
    assert "<modified-files>" not in composed


@EXAMPLES
@given(refusal=DECLINED, kind=st.sampled_from(["edit", "write", "Write"]), path=PATHS,
       looked=st.sampled_from(["read", "Read", "grep", "view"]))
def test_a_file_only_looked_at_then_declined_was_not_changed(refusal: str, kind: str, path: str, looked: str) -> None:
    messages = [user("Tidy the error handling in the client."),
                assistant(call("l1", looked, path=path)), result("l1", looked, "line 1\nline 2"),
                *_declined_call(kind, path, refusal)]
    facts = extract_facts(messages)
    assert path in facts.gone and path not in facts.modified_files


@EXAMPLES
@given(stop=st.sampled_from(["Command aborted", "Operation aborted", "Request interrupted by user",
                             "Cancelled by the user"]), path=PATHS)
def test_a_call_stopped_while_it_ran_is_neither_an_error_nor_a_decision(stop: str, path: str) -> None:
    summary = summarize([user("Run the slow suite and then update the docs."),
                         assistant(call("r", "bash", command="npm run test:slow")),
                         result("r", "bash", f"running…\n{stop}", error=True),
                         assistant(call("w", "write", path=path, content="x")), result("w", "write", "ok")])
    assert items(summary, "### Blocked") == ["(none)"]
    assert items(summary, "## Key Decisions") == ["(none)"]


@given(st.sampled_from(["Permission denied", "bash: ./deploy.sh: Permission denied",
                        "Error: access denied for user 'app'@'localhost'"]))
def test_a_system_refusal_stays_an_error(output: str) -> None:
    summary = summarize([user("Deploy the service to staging now."),
                         assistant(call("d", "bash", command="./deploy.sh staging")),
                         result("d", "bash", bash_fail(output, 1), error=True)])
    assert "./deploy.sh staging" in "\n".join(items(summary, "### Blocked"))


# -- 6. file lists hold files that exist -----------------------------------------------------------------------

@given(st.sampled_from([".metadata.entity_name", ".data.items", ".spec.template.name", ".result.user_id"]),
       st.sampled_from(["jq", "yq"]))
def test_a_filter_is_not_a_file(expression: str, program: str) -> None:
    facts = extract_facts([assistant(call("j", "bash", command=f"{program} '{expression}' data/records.json")),
                           result("j", "bash", "\"x\"")])
    assert facts.read_files == ("data/records.json",)
    assert not is_file_name(expression)


@given(st.sampled_from([".env", ".gitignore", ".eslintrc.json", ".env.local", "Makefile", "src/.hidden/a.b.c",
                        "docs/v1.2/notes.md"]))
def test_real_names_are_files(name: str) -> None:
    assert is_file_name(name)


@EXAMPLES
@given(remove=st.sampled_from(["rm {}", "git rm -q {}", "rm -f {}", "mv {} old/", "git mv {} renamed.py"]),
       path=st.sampled_from(["src/legacy.py", "lib/old_helpers.py", "scripts/migrate.py"]))
def test_a_deleted_file_is_not_a_modified_file(remove: str, path: str) -> None:
    messages = [user("Drop the legacy module once the new one is in."),
                assistant(call("e", "edit", path=path, oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant(call("r", "bash", command=remove.format(path))), result("r", "bash", "")]
    facts = extract_facts(messages)
    assert path in facts.gone
    read, changed = listed_files(facts.read_files, facts.modified_files, "", facts.gone)
    assert path not in changed and path not in read
    # written again later: it exists
    again = [*messages, assistant(call("w", "write", path=path, content="x")), result("w", "write", "ok")]
    assert path not in extract_facts(again).gone


# -- 7. a heading quoted from the transcript never becomes a section ----------------------------------------

HEADING_TEXT = st.sampled_from(["## Key Changes:", "### Summary", "# Results", "## Next Steps", "## Files Modified"])


@EXAMPLES
@given(heading=HEADING_TEXT, where=st.sampled_from(["answer", "request"]), first=st.booleans(),
       kind=st.sampled_from(["compaction", "turn_prefix"]), rounds=st.integers(2, 5))
def test_a_quoted_heading_stays_inside_its_quote_through_merges(heading: str, where: str, first: bool, kind: str,
                                                                rounds: int) -> None:
    lines = ["Here is where things stand.", "", heading, "- moved the parser into its own module", "- tests pass"]
    quoted = "\n".join(lines[2:] if first else lines)
    previous = None
    for round_ in range(rounds):
        messages = [user(quoted if where == "request" and round_ == 0 else f"Now do step {round_} of the port."),
                    assistant(quoted if where == "answer" and round_ == 0 else f"Step {round_} is done.")]
        previous = summarize(messages, previous_summary=previous, kind=kind if round_ == 0 else "compaction")
        lines = previous.splitlines()
        headings = [line for line in lines if line.startswith("#")]
        assert heading not in headings or heading in ("## Next Steps",) and headings.count(heading) == 1
        assert not parse(previous).extra, parse(previous).extra


# -- 2. the goal is the current objective --------------------------------------------------------------------

OPENERS = st.sampled_from([
    "Before we continue, take a look at: @README-phase-5.md and @docs/architecture.md",
    "Please read docs/overview.md and src/main.py first.",
    "Implement the following plan:\n\n# Plan: Move the settings loader into its own module\n\n1. Create loader.py\n"
    "2. Update imports",
    "Take a look at the failing CI run in .github/workflows/ci.yml",
])
REDIRECTS = st.sampled_from([
    "Testing the {} is the focus of this phase.",
    "Let's switch to the {} now.",
    "Change of plans: we need to rewrite the {} from scratch.",
    "The goal now is to finish the {}.",
    "Forget the loader, focus on the {}.",
    "Our main priority is the {} for this release.",
])
SUBJECTS = st.sampled_from(["csv exporter", "retry middleware", "session importer", "billing webhook"])


@EXAMPLES
@given(opener=OPENERS, redirect=REDIRECTS, subject=SUBJECTS, fillers=st.integers(0, 4),
       chained=st.booleans(), stale_first=st.booleans())
def test_the_goal_is_the_latest_objective_the_user_stated(opener: str, redirect: str, subject: str, fillers: int,
                                                          chained: bool, stale_first: bool) -> None:
    early = [user(opener), assistant("I read it; the loader lives in src/settings.py."),
             user("Good, now move the settings loader into src/config/loader.py."), assistant("Done: moved it.")]
    later = [m for n in range(fillers) for m in (user(f"Also rename helper {n} to something clearer."),
                                                   assistant(f"Renamed helper {n}."))]
    later += [user(redirect.format(subject)), assistant("Understood, starting on it.")]
    metadata = {"first_request": opener} if stale_first else {}
    if chained:  # the old objective was summarized first; the redirect comes in the next region
        previous = summarize(early, metadata=metadata)
        summary = summarize(later, previous_summary=previous, metadata=metadata)
    else:
        summary = summarize(early + later, metadata=metadata)
    goal = items(summary, "## Goal")
    assert len(goal) == 1 and subject in goal[0], goal


@EXAMPLES
@given(opener=OPENERS)
def test_a_reading_instruction_or_a_plan_wrapper_is_not_a_goal_by_itself(opener: str) -> None:
    task = "Then add a --dry-run flag to the sync command so that nothing is written."
    summary = summarize([user(opener), assistant("Read."), user(task), assistant("Added the flag.")])
    goal = items(summary, "## Goal")[0]
    if "Plan:" in opener:  # the plan is the objective; the request after it is what the user asks for now
        assert goal == f"Implement the plan “Move the settings loader into its own module” — now: {task} (done)"
    else:
        assert "--dry-run" in goal and "take a look" not in goal.lower() and "read" not in goal.lower()


@given(st.sampled_from(["<command-name>/clear</command-name>\n<command-message>clear</command-message>",
                        "[Request interrupted by user for tool use]",
                        "<system-reminder>The task list is empty.</system-reminder>",
                        "<local-command-stdout>Compacted</local-command-stdout>"]))
def test_harness_markup_is_no_request(markup: str) -> None:
    summary = summarize([user("Add pagination to the orders endpoint in api/orders.py."),
                         assistant(call("e", "edit", path="api/orders.py", oldText="a", newText="b")),
                         result("e", "edit", "ok"), user(markup)])
    assert "pagination" in "\n".join(items(summary, "### In Progress") + items(summary, "## Next Steps"))
    assert markup.strip("<[") not in "\n".join(items(summary, "## Next Steps"))


# -- 4 and 8. the next step: never a request already answered, never a fix for what was fixed ----------------

ANSWERS = st.sampled_from([
    "The parser now accepts quoted keys; I also added two tests for it.",
    "Here is how the cache works: entries expire after 60 s and are keyed by URL.",
    "I looked into it: the timeout comes from the proxy, not from our client. The client code needs no change.",
])


@EXAMPLES
@given(answer=ANSWERS, kind=st.sampled_from(["compaction", "branch"]))
def test_a_request_the_agent_answered_and_handed_back_is_not_the_next_step(answer: str, kind: str) -> None:
    summary = summarize([user("Why does the import of large files time out, and can you fix the parser?"),
                         assistant(call("r", "read", path="src/parser.py")), result("r", "read", "def parse(): ..."),
                         assistant(answer)], kind=kind)
    steps = "\n".join(items(summary, "## Next Steps"))
    assert "latest request" not in steps and "Fix" not in steps
    assert items(summary, "### In Progress") == ["(none)"]


FAILURES = st.sampled_from([
    ("npm run publish", "npm ERR! 403 Forbidden - PUT https://registry.npmjs.org/pkg"),
    ("cargo build --release", "error[E0308]: mismatched types"),
    ("pytest -q", "FAILED tests/test_api.py::test_retry - AssertionError"),
])
LAST_WORDS = st.sampled_from([
    "Oh wait, these errors look like we have API mismatches!",
    "Hmm, the build still fails on the new signature.",
    "The release is not done: publishing failed.",
    "Let me check why the registry rejects it.",
])


@EXAMPLES
@given(failure=FAILURES, words=LAST_WORDS, more_calls=st.booleans(), kind=st.sampled_from(["branch", "compaction"]))
def test_the_agents_last_words_on_a_failure_leave_it_open(failure: tuple, words: str, more_calls: bool,
                                                         kind: str) -> None:
    command, error = failure
    messages = [user("Cut the 2.1.0 release: bump the version, commit, tag and publish."),
                assistant(call("c", "bash", command="git commit -am 'Release 2.1.0'")),
                result("c", "bash", "[main 9f8e7d] Release 2.1.0\n 3 files changed"),
                assistant(call("p", "bash", command=command)), result("p", "bash", bash_fail(error, 1), error=True),
                assistant(words, *([call("q", "bash", command="git status")] if more_calls else []))]
    summary = summarize(messages, kind=kind)
    assert command in "\n".join(items(summary, "### Blocked"))
    assert "wait for the user's next request" not in summary
    assert command not in "\n".join(line for line in summary.splitlines() if line.startswith("- Resolved"))
    assert items(summary, "### In Progress") != ["(none)"]


@EXAMPLES
@given(failed=st.sampled_from(["npm test", "pytest tests/test_api.py", "make check"]),
       later=st.sampled_from(["edit", "write"]))
def test_a_failure_fixed_by_a_later_change_to_the_file_it_names_is_no_fix_step(failed: str, later: str) -> None:
    messages = [user("Make the retry test pass and keep going with the docs."),
                assistant(call("t", "bash", command=failed)),
                result("t", "bash", bash_fail("src/retry.py:12: error: name 'backoff' is not defined", 1), error=True),
                assistant(call("e", later, path="src/retry.py", oldText="a", newText="b", content="x")),
                result("e", later, "ok"),
                assistant(call("d", "write", path="docs/retry.md", content="x")), result("d", "write", "ok")]
    summary = summarize(messages)
    assert not any(step.startswith("Fix") for step in items(summary, "## Next Steps"))
    assert items(summary, "### Blocked") == ["(none)"]


# -- 5. progress states what now exists; values are never cut inside ----------------------------------------

CHECK_OUTPUTS = st.sampled_from([
    ("pytest -q", "........\n12 passed in 0.41s", "12 passed"),
    ("npx vitest run", " Test Files  3 passed (3)\n      Tests  41 passed (41)", "41 passed"),
    ("cargo test", "test result: ok. 9 passed; 0 failed; 0 ignored", "9 passed"),
    ("go test ./...", "ok  \texample.com/app/store\t0.012s", "ok store"),
    ("npx tsc --noEmit", "Found 0 errors. Watching for file changes.", "Found 0 errors"),
])
"""A check, what it printed, and the short result a Done item carries (issue 20, class 7: no timings, no banner)."""
REPORTS = st.sampled_from([
    "Perfect! I have successfully completed the task. The exporter now lives in `src/export/csv.py` as a standalone "
    "module.",
    "Great! All done. I moved the retry logic into `lib/retry.ts` and the client uses it now.",
    "Done! Fixed the off-by-one in `paginate()`: the last page is no longer dropped.",
])


@EXAMPLES
@given(check=CHECK_OUTPUTS, answer=REPORTS, request=st.sampled_from([
    "These environment variables are required: `DEV_MODE=true API_URL=http://localhost:8080/api/v1` and the server "
    "must read them at startup, please wire that up.",
    "Can you clean this up so it is easier to test?",
]))
def test_a_finished_request_says_what_it_left(check: tuple, answer: str, request: str) -> None:
    command, output, verdict = check
    summary = summarize([user(request), assistant(call("e", "edit", path="src/app.py", oldText="a", newText="b")),
                         result("e", "edit", "ok"), assistant(call("t", "bash", command=command)),
                         result("t", "bash", output), assistant(answer), user("Next, add the changelog entry.")])
    done = [item for item in items(summary, "### Done") if not item.startswith("Files changed")]
    assert len(done) == 1
    stated = re.search(r"`[^`]+`|the last page", answer).group()
    assert stated in done[0] and verdict in done[0]
    assert not re.search(r"\d\.\d+s\b|example\.com|Watching|\(\d+\)", done[0])  # the result, not the output
    assert "successfully completed" not in done[0] and not done[0].startswith(("Perfect", "Great", "Done"))
    assert done[0].count("`") % 2 == 0


@given(st.lists(st.sampled_from(["word", "`DEV_MODE=true npm run dev`", "`a b c`", "value", "`x=1`", "long-ish"]),
                min_size=1, max_size=40), st.integers(10, 120))
def test_a_clipped_text_never_ends_inside_a_backticked_value(words: list[str], limit: int) -> None:
    from pi_compact.compaction.offline.state import clip_words
    clipped = clip_words(" ".join(words), limit)
    assert len(clipped) <= limit and clipped.count("`") % 2 == 0


# -- 3. decisions kept; finished requests are not constraints; rules naming a replaced thing lapse -----------

PROPOSALS = st.sampled_from([
    "I found two ways. Shall I keep the cache in memory with an LRU bound of 512 entries?",
    "I'd suggest storing sessions in SQLite rather than one JSON file per session.",
    "Option B: split the parser into a tokenizer and a grammar module. Want me to do that?",
])
APPROVALS = st.sampled_from(["yes", "Sounds good, go ahead.", "ok do it", "Agreed.", "yep, option B"])


@EXAMPLES
@given(proposal=PROPOSALS, approval=APPROVALS, chained=st.booleans())
def test_a_proposal_the_user_accepted_is_a_decision(proposal: str, approval: str, chained: bool) -> None:
    first = [user("Work out how we should store the parsed sessions."), assistant(proposal)]
    second = [user(approval), assistant(call("w", "write", path="src/store.py", content="x")),
              result("w", "write", "ok"), assistant("Implemented it in `src/store.py`.")]
    summary = summarize(first + second) if not chained else \
        summarize(second[1:], previous_summary=summarize(first + second[:1]))
    decisions = "\n".join(items(summary, "## Key Decisions"))
    key = re.search(r"LRU|SQLite|tokenizer", proposal).group()
    assert key in decisions


@given(st.sampled_from(["Use SQLite instead of JSON files for the index.", "Let's go with the streaming parser.",
                        "We'll use httpx rather than requests for the client."]))
def test_a_choice_the_user_made_is_a_decision(choice: str) -> None:
    summary = summarize([user(f"{choice} Then wire it into the loader."), assistant("Done: wired it in.")])
    assert choice.split()[1] in "\n".join(items(summary, "## Key Decisions"))


ONE_OFF = st.sampled_from([
    "Can we make it so that the worker logs go to their own file? Make sure the file is logs/worker.log.",
    "Please make sure the changelog mentions v2.3.1.",
    "You must update the README with the new flag.",
])
LASTING = st.sampled_from(["Never push to main directly.", "Always run the linter before committing.",
                           "Don't add new dependencies."])


@EXAMPLES
@given(one_off=ONE_OFF, rule=LASTING)
def test_a_finished_request_is_no_constraint_a_lasting_rule_is(one_off: str, rule: str) -> None:
    summary = summarize([user(f"{one_off} {rule}"), assistant("Done. The change is in and the tests pass."),
                         user("Now look at the flaky upload test."), assistant("Let me look at it.")])
    constraints = "\n".join(items(summary, "## Constraints & Preferences"))
    assert rule in constraints
    assert "make sure" not in constraints.lower() and "must update" not in constraints.lower()


@EXAMPLES
@given(name=st.sampled_from(["toolText", "render_row", "legacy.config"]),
       says=st.sampled_from(["I replaced `{}` with a `format()` call everywhere.", "Removed `{}`; nothing uses it now.",
                             "`{}` is gone, the renderer builds the text itself."]),
       chained=st.booleans())
def test_a_rule_naming_a_thing_since_replaced_lapses(name: str, says: str, chained: bool) -> None:
    rule = f"Always make sure `{name}` is also used for the preview."
    first = [user(f"{rule} Start with the list view."), assistant("The list view uses it now.")]
    second = [user("Now simplify the renderer as you see fit."), assistant(says.format(name))]
    summary = summarize(second, previous_summary=summarize(first)) if chained else summarize(first + second)
    assert name not in "\n".join(items(summary, "## Constraints & Preferences"))
    unrelated = summarize(first + [user("Now simplify the renderer."), assistant("Simplified the layout code.")])
    assert name in "\n".join(items(unrelated, "## Constraints & Preferences"))


# -- found reading a validation summary as the agent that continues (issue 20, part 4) ------------------------

@EXAMPLES
@given(pairs=st.lists(st.sampled_from([("Which approach?", "Hybrid"), ("Where should Share live?", "Both"),
                                       ("Read-only or read-write?", "Read-only only")]), min_size=1, max_size=3,
                      unique=True),
       tool=st.sampled_from(["AskUserQuestion", "ask_user", "request_user_input"]))
def test_answers_given_through_a_question_tool_are_decisions(pairs: list, tool: str) -> None:
    answered = "User has answered your questions: " + ", ".join(f'"{q}"="{a}"' for q, a in pairs) + \
        ". You can now continue with the user's answers in mind."
    summary = summarize([user("Let's settle the sharing design."), assistant(call("q", tool, questions=[])),
                         result("q", tool, answered), assistant("Noted.")])
    decisions = "\n".join(items(summary, "## Key Decisions"))
    assert all(q in decisions and a in decisions for q, a in pairs)


@given(st.sampled_from(["docs(14): capture phase context", "fix: keep the cache bounded", "Release 2.1.0",
                        "feat(relay): PTY adapter — BRO-267/292", "fix: a — b — c"]))
def test_a_commit_message_given_as_a_heredoc_is_its_first_line(message: str) -> None:
    command = f"git add -A && git commit -m \"$(cat <<'EOF'\n{message}\n\nLonger body.\nEOF\n)\""
    summary = summarize([user("Commit what we have."), assistant(call("c", "bash", command=command)),
                         result("c", "bash", "[main 1a2b3c4] " + message), assistant("Committed.")])
    assert f"Committed: {message} (`1a2b3c4`)" in items(summary, "### Done")


@given(st.sampled_from(["gsd:discuss-phase", "team:review-pr", "plugin:plan"]), st.sampled_from(["14", "", "#231"]))
def test_a_namespaced_command_the_user_ran_names_the_task(name: str, args: str) -> None:
    invoked = (f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>\n"
               f"<command-args>{args}</command-args>")
    summary = summarize([user(invoked), user("<objective>\nDo the thing the command says.\n</objective>"),
                         assistant("Which area first?"), user("So the simplest option is obviously the public key."),
                         assistant("Agreed.")])
    assert items(summary, "## Goal") == [f"Run the command `/{name}{' ' + args if args else ''}`"]


@EXAMPLES
@given(words=st.sampled_from(["Let me check if port 5001 is reachable there.",
                              "Let me fix the linter errors by adding nolint comments.",
                              "I'll rerun the migration with the new flag.",
                              "Now I need to update the lockfile."]),
       called=st.booleans())
def test_an_agent_stopped_mid_work_continues_with_what_it_announced(words: str, called: bool) -> None:
    messages = [user("Find out why the uploads fail on the dev setup."),
                assistant(call("g", "bash", command="grep -r IPFS apps/api/.env")), result("g", "bash", "IPFS=local"),
                assistant(words, *([call("n", "bash", command="nc -z host 5001")] if called else []))]
    steps = items(summarize(messages), "## Next Steps")
    assert steps[0].startswith(f"Continue where the agent stopped: {imperative(words)}")  # said as the action


# -- decisions, constraints and done in plain words (issue 20, part 5) ----------------------------------------

ASIDES = st.sampled_from(["is testenv getting a bit too large?", "have a look at this first https://example.com/x/1",
                          "the other branch just got merged today", "do you have the docs tool?",
                          "no, I did not say commit anything"])


@EXAMPLES
@given(refusal=DECLINED, aside=ASIDES, reason_format=REASON_FORMAT, path=PATHS)
def test_a_question_or_remark_said_on_declining_is_no_constraint(refusal: str, aside: str, reason_format: str,
                                                                 path: str) -> None:
    messages = [user("Add a small cache in front of the API client and test it."),
                *_declined_call("edit", path, refusal + reason_format.format(aside))]
    summary = summarize(messages)
    assert aside in "\n".join(items(summary, "## Key Decisions"))  # the declined call still records it
    assert aside not in "\n".join(items(summary, "## Constraints & Preferences"))


@given(remark=st.sampled_from(["Includes a flowchart showing the carry-forward decision logic.",
                               "The decision gate passed on all five samples.",
                               "## Decision Gate PASSED", "It would mean applying the same logic in the merge decision."]))
def test_a_decision_talked_about_is_no_decision_made(remark: str) -> None:
    summary = summarize([user("Write the design doc for the carry-forward step."),
                         assistant(f"Wrote docs/carry.md. {remark}")])
    assert remark.strip("# ").split()[1] not in "\n".join(items(summary, "## Key Decisions"))


@given(st.sampled_from(["fix: keep the cache bounded", "Inline the Gemini commit helper", "Release 2.1.0"]),
       st.sampled_from(["git commit -F /tmp/message.txt", "git commit", "git commit -am \"$MESSAGE\""]))
def test_a_commit_is_named_by_the_subject_git_printed(message: str, command: str) -> None:
    summary = summarize([user("Commit what we have."), assistant(call("c", "bash", command=command)),
                         result("c", "bash", f"[feature/x 1a2b3c4] {message}\n 2 files changed"),
                         assistant("Committed.")])
    done = items(summary, "### Done")
    assert f"Committed: {message} (`1a2b3c4`)" in done and not any(i.startswith("Committed: a commit") for i in done)


@given(st.sampled_from(["The fix is to add `select_sequential_consistency = 1` to the journal read query.",
                        "The simplest fix is to rebuild the worktree's index.",
                        "The right approach is to bail out early when HEAD cannot be read."]))
def test_the_fix_the_agent_settled_on_is_a_decision(fix: str) -> None:
    summary = summarize([user("Reads of the journal are flaky, find out why."),
                         assistant(f"Found it: reads can hit a replica that lags. {fix}")])
    assert fix in items(summary, "## Key Decisions")


# -- the user's words said in passing: a rule or a choice in an earlier request, many requests back ---------------

IN_PASSING = st.sampled_from([
    "you'll need to be in a worktree please so we don't collide with the other session, create it from main and "
    "then run the fixer on the skills",
    "For the website design I prefer the visual appearance of direction A, it's a lot cleaner, together with the "
    "segment catalog and the studio of direction B.",
    "fix them all, skip the comment about the O(N*M) ancestor walk (but reply to it as per the previous response, "
    "won't fix with the same rationale)",
    "1) all 6 agents, 2) use skills-ref for the validation where it is installed, 3) integrate it with wfc-build",
])
LATER = st.lists(st.sampled_from(["look at the next failing test", "run it against all the skills",
                                  "can you check the remaining warnings", "now do the same for the docs site",
                                  "rerun the whole suite please"]), min_size=5, max_size=9)


@EXAMPLES
@given(said=IN_PASSING, later=LATER)
def test_a_rule_or_choice_said_in_passing_keeps_the_users_words(said: str, later: list[str]) -> None:
    messages = [user("Build the skill remediation pipeline described in plans/skills.md, with its tests."),
                assistant("I have the plan. Which parts should I do, and how do you want me to work?"),
                user(said), assistant("Understood, doing that now.")]
    for number, request in enumerate(later):
        messages += [user(f"{request} ({number})"), assistant(f"Done with step {number}; all checks pass.")]
    assert said in summarize(messages)


# -- the agent's acknowledgement of the user's reply restates what the reply settled ---------------------------

ACKNOWLEDGEMENTS = st.sampled_from(["Got it — {}", "You're right - {}", "Good catch. {}", "Understood: {}",
                                    "Perfect! {}", "Good call, {}"])
SETTLED = st.sampled_from([
    "the local journal is removed entirely and ClickHouse is the only journal store.",
    "we shouldn't silently continue with an empty `baseCommit` when the repository cannot be opened.",
    "files that are part of the commit count in the attribution.",
    "`bun verify` runs through `doppler run`, which provides the ClickHouse credentials.",
])
GOES_ON = st.sampled_from(["", " Let me update the plan.", " I'll change the loader now.\n\n## Plan\n- one",
                           " The output was cut — let me re-run it and read the test failures."])


@EXAMPLES
@given(ack=ACKNOWLEDGEMENTS, settled=SETTLED, goes_on=GOES_ON, through_tool=st.booleans())
def test_what_the_agent_agreed_the_users_reply_settled_is_a_decision(ack: str, settled: str, goes_on: str,
                                                                     through_tool: bool) -> None:
    messages = [user("Move the migration journal into the database and keep the loader working."),
                assistant("Which store should hold the journal, and what about the old files?")]
    if through_tool:
        block = call("q1", "AskUserQuestion", questions=[{"question": "Which store?"}])
        messages += [assistant("", block), result("q1", "AskUserQuestion", "User answered: remove the old one")]
    else:
        messages.append(user("remove the old one, the database is the only place now"))
    messages.append(assistant(ack.format(settled) + goes_on))
    decisions = "\n".join(items(summarize(messages), "## Key Decisions"))
    assert settled.rstrip(".") in decisions
    assert "let me" not in decisions.lower() and "I'll change" not in decisions and "failures" not in decisions


@given(said=st.sampled_from(["You're right, let me update the script.", "You're right to ask. Let me trace it.",
                             "Perfect — I have everything I need.", "Great question. The key is the cache."]),
       after_tool=st.booleans())
def test_an_acknowledgement_that_restates_nothing_is_no_decision(said: str, after_tool: bool) -> None:
    messages = [user("Why does the tree lose the old checkpoints after a rebase?")]
    if after_tool:
        messages += [assistant("", call("r1", "bash", command="git log --oneline -3")),
                     result("r1", "bash", "abc123 fix the cache")]
    messages.append(assistant(said))
    assert items(summarize(messages), "## Key Decisions") == ["(none)"]


def test_an_acknowledgement_of_a_tool_result_is_no_decision() -> None:
    messages = [user("Check what the last commit changed in the cache."),
                assistant("", call("r1", "bash", command="git show --stat HEAD")),
                result("r1", "bash", "cache.py | 4 ++--"), assistant("Got it — the last commit only touched cache.py.")]
    assert items(summarize(messages), "## Key Decisions") == ["(none)"]
