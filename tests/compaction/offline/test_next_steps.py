"""Where the work stands when a region ends: the agent's task list, its last words when it stopped mid-work, the
instructions a harness injected, and which failures make a next step (steps.py, tasks.py, goal.injected). Each
class is tested on generated variations: several agents' tool formats, phrasings and languages."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import failed_test
from pi_compact.compaction.offline.goal import injected, request_words, user_requests
from pi_compact.compaction.offline.subject import current_subject
from pi_compact.compaction.offline.steps import imperative
from pi_compact.compaction.offline.tasks import ACTIVE, DONE, PENDING, task_list

from tests.growth import growth

from ..messages import assistant, bash_fail, call, junk_messages, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

TITLES = ["Rename the parser module", "Add ingestion tests", "Update docs and README.md", "Run the full test suite",
          "Wire the cache into the orchestrator", "Regenerate bun.lock"]
STATUS_WORDS = {PENDING: ["pending", "todo", "not_started"], ACTIVE: ["in_progress", "in-progress", "active"],
                DONE: ["completed", "done", "finished"]}


def _whole_list(call_id: str, tasks: list[tuple[str, str]], style: str) -> list[dict]:
    """One call that sets the whole list: Claude Code's TodoWrite or Codex's update_plan."""
    if style == "codex":
        block = call(call_id, "update_plan", plan=[{"step": t, "status": s} for t, s in tasks])
    else:
        block = call(call_id, "TodoWrite", todos=[{"content": t, "status": s, "activeForm": t} for t, s in tasks])
    return [assistant(block), result(call_id, block["name"], "Todos have been modified successfully.")]


def _incremental(tasks: list[tuple[str, str]]) -> list[dict]:
    """Claude Code's TaskCreate (ids from the result) then TaskUpdate per item."""
    messages = []
    for number, (title, _) in enumerate(tasks, 1):
        block = call(f"c{number}", "TaskCreate", subject=title, description=f"{title} in detail", activeForm=title)
        messages += [assistant(block), result(f"c{number}", "TaskCreate", f"Task #{number} created successfully")]
    for number, (_, status) in enumerate(tasks, 1):
        block = call(f"u{number}", "TaskUpdate", taskId=str(number), status=status)
        messages += [assistant(block), result(f"u{number}", "TaskUpdate", f"Updated task #{number} status")]
    return messages


STATUSES = st.lists(st.sampled_from([PENDING, ACTIVE, DONE]), min_size=2, max_size=len(TITLES))


@EXAMPLES
@given(statuses=STATUSES, style=st.sampled_from(["claude", "codex", "incremental"]), data=st.data())
def test_the_task_list_gives_the_task_in_progress_and_the_pending_ones_as_next(statuses: list[str], style: str,
                                                                               data: st.DataObject) -> None:
    worded = [data.draw(st.sampled_from(STATUS_WORDS[s])) for s in statuses]
    tasks = list(zip(TITLES, worded))
    kept = task_list(_incremental(tasks) if style == "incremental" else _whole_list("t", tasks, style))
    # one task stays in progress, the first marked (no words name another): the others are still to do
    statuses = [PENDING if s == ACTIVE and ACTIVE in statuses[:n] else s for n, s in enumerate(statuses)]
    assert kept is not None and [t.status for t in kept.tasks] == statuses
    messages = [user("Implement the attached plan, task by task."),
                *(_incremental(tasks) if style == "incremental" else _whole_list("t", tasks, style)),
                assistant("Now I'll rewrite the test file.", call("w", "write", path="tests/test_x.py", content="x")),
                result("w", "write", "ok")]
    summary = summarize(messages)
    steps, ongoing = "\n".join(items(summary, "## Next Steps")), "\n".join(items(summary, "### In Progress"))
    for title, status in zip(TITLES, statuses):
        if status == DONE:
            assert title not in steps and title not in ongoing
        elif status == PENDING:
            assert title in steps
        else:  # named once, under In Progress
            assert title in ongoing and title not in steps
    assert "wait for the user's next request" not in steps


def test_a_failed_task_call_changes_nothing() -> None:
    block = call("t", "TodoWrite", todos=[{"content": "Ship it", "status": "pending"}])
    assert task_list([assistant(block), result("t", "TodoWrite", "invalid input", error=True)]) is None


@given(junk_messages)
def test_task_list_never_raises_on_junk(messages: list) -> None:
    task_list(messages)


# -- instructions the harness injected are no request ---------------------------------------------------------

DOCUMENTS = st.sampled_from([
    "Base directory for this skill: /home/u/.claude/skills/{name}\n\n# {title}\n\n{body}",
    "# {title}\n\nYou are an expert reviewer.\n\n## Steps\n{body}",
    "## {title}\n\nSuivez ces étapes avec soin.\n\n### Étapes\n{body}",
    "# {title}\n\n按以下步骤执行。\n\n## 步骤\n{body}",
])
NAMES = st.sampled_from(["wfc-plan", "testing-bun", "pr-comments", "doc-writer"])


def _document(template: str, name: str) -> str:
    body = "\n".join(f"{n}. Do step {n} and check it." for n in range(1, 9))
    return template.format(name=name, title=name.replace("-", " ").title(), body=body)


@EXAMPLES
@given(template=DOCUMENTS, name=NAMES, via=st.sampled_from(["tool", "command"]))
def test_instructions_a_harness_injected_are_neither_goal_nor_request(template: str, name: str, via: str) -> None:
    document = _document(template, name)
    if via == "tool":
        loaded = [assistant(call("s", "Skill", skill=name)), result("s", "Skill", f"Launching skill: {name}"),
                  user(document)]
    else:
        loaded = [user(f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>"),
                  user(document)]
    messages = [user("Add retry with backoff to the HTTP client in src/http.py."), assistant("On it."), *loaded,
                assistant("Following the skill, let me read src/http.py.", call("r", "read", path="src/http.py")),
                result("r", "read", "def get(): ...")]
    assert not any(words == document or "Do step 3" in words for _, words in user_requests(messages))
    at = messages.index(loaded[-1])
    assert injected(messages[at - 1], messages[at])
    summary = summarize(messages)
    goal = "\n".join(items(summary, "## Goal"))
    assert "Do step" not in goal and "skill" not in goal.lower()
    open_part = "\n".join(items(summary, "### In Progress") + items(summary, "## Next Steps"))
    assert "Do step" not in open_part and "Base directory" not in open_part


@given(text=st.sampled_from(["stop, use the staging database instead", "also handle 429 responses",
                             "# not a doc, one heading only", "wait"]))
def test_a_short_message_after_a_tool_result_stays_the_users(text: str) -> None:
    messages = [user("Add retry to the client."), assistant(call("r", "read", path="a.py")), result("r", "read", "x"),
                user(text)]
    assert not injected(messages[2], messages[3])
    assert (3, text) in user_requests(messages)


# -- the region ends while the agent works: its last words and action are the next step ------------------------

CLAIMS = st.sampled_from(["All CI checks passed — lint and tests are green.", "Perfect! All tests pass.",
                          "Done with the formatter.", "Everything builds successfully now."])
GOING_ON = st.sampled_from([("Now let me check the review comments on the PR.", "gh pr view 35 --comments"),
                            ("Let me commit and push the fixes:", "git push origin feature"),
                            ("Next I'll run the full suite once more.", "pytest -q"),
                            ("Step 2: resolve the merge conflicts before the review.", "git merge origin/main")])


@EXAMPLES
@given(claim=CLAIMS, going_on=GOING_ON, kind=st.sampled_from(["compaction", "branch"]))
def test_a_region_that_ends_mid_work_is_not_done(claim: str, going_on: tuple, kind: str) -> None:
    words, command = going_on
    messages = [user("Fix CI on main and get the PR merged."),
                assistant(call("t", "bash", command="npm test")), result("t", "bash", "12 passed"),
                assistant(f"{claim} {words}", call("g", "bash", command=command)), result("g", "bash", "output")]
    summary = summarize(messages, kind=kind)
    steps = "\n".join(items(summary, "## Next Steps"))
    assert "wait for the user's next request" not in steps
    assert imperative(words).rstrip(":") in steps and command in steps


@EXAMPLES
@given(diagnosis=st.sampled_from(["The real issue is likely async inserts on the cloud server.",
                                  "The schema loader still resolves the old package name."]),
       announce=st.sampled_from(["Let me check and fix this.", "I'll fix that now.", "Let me look into it."]))
def test_an_announcement_keeps_the_words_that_say_what_it_is_about(diagnosis: str, announce: str) -> None:
    messages = [user("Make the live e2e tests pass."), assistant(call("v", "bash", command="bun verify")),
                result("v", "bash", bash_fail("4 failed", 1), error=True),
                assistant(f"Same 4 failures. {diagnosis} {announce}", call("r", "read", path="src/index.ts")),
                result("r", "read", "export {}")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert diagnosis in steps and imperative(announce) in steps


# -- which failures make a "Fix:" step --------------------------------------------------------------------------

LOOKUPS = st.sampled_from([("WebFetch", {"url": "https://example.com/docs"}, "Request failed with status code 500"),
                           ("read", {"path": "src/missing.ts"}, "ENOENT: no such file or directory"),
                           ("Grep", {"pattern": "TODO", "path": "src"}, "No matches found"),
                           ("edit", {"path": "src/a.ts", "oldText": "a", "newText": "b"},
                            "<tool_use_error>File has not been read yet. Read it first.</tool_use_error>")])


@EXAMPLES
@given(lookup=LOOKUPS)
def test_a_failed_lookup_or_a_call_the_harness_turned_back_is_no_fix_step(lookup: tuple) -> None:
    name, arguments, error = lookup
    messages = [user("Integrate the CMS client into the app."),
                assistant("Let me look first.", call("l", name, **arguments)), result("l", name, error, error=True),
                assistant("Let me run the build.", call("b", "bash", command="npm run build")),
                result("b", "bash", bash_fail("error TS2304: Cannot find name 'Cms'", 2), error=True),
                assistant("The build fails on the missing type; let me add it.")]
    summary = summarize(messages)
    steps = [s for s in items(summary, "## Next Steps") if s.startswith("Fix:")]
    assert steps == ["Fix: `npm run build` failed: error TS2304: Cannot find name 'Cms'"]
    assert items(summary, "### Blocked") == ["`npm run build` failed: error TS2304: Cannot find name 'Cms'"]


@EXAMPLES
@given(notice=st.sampled_from(["[Request interrupted by user for tool use]", "[Request interrupted by user]"]),
       words=st.sampled_from(["did we ever do this in a branch?", "no, use the worktree", "wait"]))
def test_a_call_the_user_stopped_is_no_error(notice: str, words: str) -> None:
    messages = [user("Validate all the skills."),
                assistant(call("v", "bash", command="skills-ref validate ~/.claude/skills/x")),
                result("v", "bash", words, error=True), user(notice), user("let's check the branches first"),
                assistant("Sure: there are two branches, main and dev.")]
    summary = summarize(messages)
    assert items(summary, "### Blocked") == ["(none)"]
    assert not any(step.startswith("Fix:") for step in items(summary, "## Next Steps"))


def _named_tasks(size: int) -> list[dict]:
    tasks = [(f"TASK-{n:03d}: part {n}", "pending") for n in range(size)]
    report = " ".join(f"TASK-{n:03d} complete. Now TASK-{n + 1:03d} – next part." for n in range(size))
    return [*_whole_list("t", tasks, "claude"), assistant(report)]


def test_the_task_list_grows_linearly_in_tasks_times_the_words_naming_them() -> None:
    regions = {size: _named_tasks(size) for size in (200, 400, 800)}
    found = growth("task_list", lambda size: (lambda: task_list(regions[size])), 200, runs=3)
    assert found.linear, str(found)
    kept = task_list(regions[200])
    assert kept is not None and [t.status for t in kept.tasks] == [DONE] * 200


# -- the goal: the objective, and what the user asks for now, in any language -----------------------------------

NUDGES = st.sampled_from(["push it up!", "New branch.", "implement", "1.", "Continue from where you left off."])
FIRST = "Add a CSV exporter to the reports page, with one column per metric and a download button."
REDIRECTS = st.sampled_from([
    "Agora vamos integrar o CMS no aplicativo, com a listagem de treinos vinda da API.",
    "Maintenant il faut intégrer le CMS dans l'application et afficher les séances depuis l'API.",
    "现在我们把内容管理系统接入应用程序，训练列表从接口获取，并且加上缓存和错误处理。",
    "Next, wire the CMS into the app so the workout list comes from its API.",
])


def _worked(request: str, path: str) -> list[dict]:
    block = call(path, "write", path=path, content="x")
    return [user(request), assistant(block), result(path, "write", "ok"), assistant("Done: wrote it.")]


@EXAMPLES
@given(nudge=NUDGES, redirect=REDIRECTS, nudge_first=st.booleans())
def test_the_goal_is_work_the_user_stated_and_now_the_latest_redirect_in_any_language(
        nudge: str, redirect: str, nudge_first: bool) -> None:
    opening = [*_worked(nudge, "a.txt"), *_worked(FIRST, "src/csv.py")] if nudge_first else _worked(FIRST, "src/csv.py")
    messages = [*opening, *_worked(redirect, "src/cms.py")]
    goal = items(summarize(messages), "## Goal")
    assert len(goal) == 1 and goal[0].startswith(FIRST.split(",")[0]) and nudge not in goal[0].split(" — now: ")[0]
    assert goal[0].endswith(f" — now: {redirect} (done)")  # "Done: wrote it."


@EXAMPLES
@given(reply=st.sampled_from(["The first option, with the cache in front of the client please.",
                              "no, that is wrong: keep the old header format and only change the footer."]))
def test_an_answer_to_the_agents_question_or_a_correction_is_not_the_objective_now(reply: str) -> None:
    messages = [*_worked(FIRST, "src/csv.py"), user("Make the export faster for large reports with many rows."),
                assistant("Should I add a cache or stream the rows?"), user(reply),
                assistant(call("e", "edit", path="src/csv.py", oldText="a", newText="b")), result("e", "edit", "ok"),
                assistant("Done.")]
    goal = items(summarize(messages), "## Goal")[0]
    assert reply not in goal and goal.endswith(" — now: Make the export faster for large reports with many rows.")


@EXAMPLES
@given(report=st.sampled_from(["Added the `sessionLanes` field to the Model.",
                               "The sessionLanes field on the Model is done.",
                               "✅ sessionLanes field added to Model"]),
       style=st.sampled_from(["claude", "codex", "incremental"]))
def test_a_task_the_agent_reported_done_after_its_last_list_update_is_no_next_step(report: str, style: str) -> None:
    tasks = [("Add sessionLanes field to Model", "in_progress"), ("Render the lanes in the view", "pending")]
    listed = _incremental(tasks) if style == "incremental" else _whole_list("t", tasks, style)
    messages = [user("Show session lanes in the list view, green for the active one."), *listed,
                assistant(report, call("w", "edit", path="view.go", oldText="a", newText="b")),
                result("w", "edit", "ok"),
                assistant("Now the rendering.", call("r", "read", path="view.go")), result("r", "read", "x")]
    kept = task_list(messages)
    assert kept is not None and [t.status for t in kept.tasks] == [DONE, PENDING]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert "sessionLanes" not in steps and "Render the lanes in the view" in steps


@EXAMPLES
@given(question=st.sampled_from(["Should I keep the evals/ directory or remove it?",
                                 "Which of the two layouts do you prefer?",
                                 "Quer que eu faça o commit agora?", "要我现在提交吗？"]),
       kind=st.sampled_from(["compaction", "branch"]))
def test_a_region_that_ends_on_the_agents_question_waits_on_it(question: str, kind: str) -> None:
    messages = [*_worked(FIRST, "src/csv.py"), user("Clean up the skill folder before we ship it."),
                assistant(call("l", "bash", command="ls skill/")), result("l", "bash", "evals/\nSKILL.md"),
                assistant(f"The folder holds SKILL.md and an evals/ directory. {question}")]
    summary = summarize(messages, kind=kind)
    steps = items(summary, "## Next Steps")
    assert question in steps[0] and "wait for the user's next request" not in "\n".join(steps)


@EXAMPLES
@given(check=st.sampled_from(["pytest -q", "bun verify", "cargo test"]),
       filter_=st.sampled_from(["| tail -5", "2>&1 | grep -E 'FAIL'", "| head -40"]), passed=st.booleans())
def test_a_filtered_rerun_settles_a_failure_only_when_its_output_says_it_passed(check: str, filter_: str,
                                                                              passed: bool) -> None:
    messages = [user("Make the test suite pass."), assistant(call("a", "bash", command=check)),
                result("a", "bash", bash_fail("FAILED test_journal - 4 failed", 1), error=True),
                assistant("Let me look at the failures.", call("b", "bash", command=f"{check} {filter_}")),
                result("b", "bash", "12 passed in 0.5s" if passed else "FAILED test_journal - 4 failed"),
                assistant("Looking into the journal test next.", call("c", "read", path="src/journal.py")),
                result("c", "read", "x")]
    blocked = "\n".join(items(summarize(messages), "### Blocked"))
    assert (check in blocked) != passed


@EXAMPLES
@given(check=st.sampled_from(["npm test 2>&1 | tail -20", "cargo build 2>&1 | head -50", "bun verify | grep -E 'fail'"]),
       output=st.sampled_from(["FAILED tests/test_api.py::test_retry - AssertionError", "error[E0308]: mismatched types",
                               "error: expect(received).toBe(expected)"]))
def test_a_check_whose_filtered_output_shows_errors_failed(check: str, output: str) -> None:
    messages = [user("Get the build green."), assistant(call("a", "bash", command=check)), result("a", "bash", output),
                assistant("Let me look at it.", call("g", "bash", command="grep -rn 'error' src | head -5")),
                result("g", "bash", "src/log.ts:3: export const error = console.error"),
                assistant("Reading the test now.", call("r", "read", path="src/a.ts")), result("r", "read", "x")]
    blocked = "\n".join(items(summarize(messages), "### Blocked"))
    assert check.split(" 2>&1")[0].split(" |")[0] in blocked and output in blocked and "grep" not in blocked


@EXAMPLES
@given(template=DOCUMENTS, name=NAMES)
def test_the_sessions_first_request_is_never_a_skills_text(template: str, name: str) -> None:
    from pi_compact.compaction.pipeline import _first_user_text

    path = [{"type": "message", "id": str(n), "message": message} for n, message in enumerate([
        user("<system_instruction>You are inside a harness.</system_instruction>"),
        assistant(call("s", "Skill", skill=name)), result("s", "Skill", f"Launching skill: {name}"),
        user(_document(template, name)), assistant("Loaded."), user(FIRST)])]
    assert _first_user_text(path) == FIRST


@EXAMPLES
@given(tag=st.sampled_from(["task-notification", "background_result", "job-status"]),
       value=st.sampled_from(["/private/tmp/claude-501/proj/tasks/b4gbi9rjs.output", "run-7f3a9c2e1b4d5f60aa91",
                              "C:\\Users\\me\\AppData\\Local\\Temp\\job-123456.log"]),
       line=st.sampled_from(["Read the output file to retrieve the result: {}", "Resultado disponível em {}"]))
def test_a_harness_line_about_its_own_block_is_no_request(tag: str, value: str, line: str) -> None:
    notice = f"<{tag}>\n<id>x1</id>\n<output>{value}</output>\n<status>completed</status>\n</{tag}>\n{line.format(value)}"
    assert request_words(notice) == ""
    attached = f"<ide_opened_file>The user opened {value} in the IDE.</ide_opened_file>\nwhy does {value} crash here?"
    assert request_words(attached) == f"why does {value} crash here?"


@EXAMPLES
@given(words=st.sampled_from(["Now let me update the checkboxes in the plan and commit:", "Let me commit it:",
                              "Tests pass. Committing WP3 now."]),
       message=st.sampled_from(["WP3: Add event subscription", "Fix stale comment"]))
def test_work_that_ends_in_a_commit_after_the_agents_last_words_is_no_step_to_continue(words: str, message: str) -> None:
    messages = [user("Implement WP3 of the plan and commit it."),
                assistant(words, call("c", "bash", command=f'git add -A && git commit -m "{message}"')),
                result("c", "bash", f"[main 1a2b3c4] {message}\n 2 files changed")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert "Continue where the agent stopped" not in steps and f"Committed: {message}" in summarize(messages)


@EXAMPLES
@given(report=st.sampled_from(["WP1 complete.", "All 12 tests pass.", "The parser is fixed ✅."]),
       step=st.sampled_from(["Now WP2: create the session class.", "Next the printer module."]))
def test_a_sentence_that_reports_a_result_is_not_part_of_the_step_to_continue(report: str, step: str) -> None:
    messages = [user("Work through the plan's packages one by one."),
                assistant(f"{report} {step}", call("e", "bash", command="npm run check")),
                result("e", "bash", "ok")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert step in steps and report not in steps


# -- the current subject: the files and code names the agent's unfinished work ends on ---------------------------

FUNCTIONS = ["computeSessionLanes", "find_branches_for_checkpoint", "isSessionActive", "Store.flushPending"]
FILES = ["cmd/cli/list/view.go", "src/store/pending.py", "lib/session.ts", "pkg/data/data.go"]
VAGUE = ["Now let me add tests for the new function:", "Let me update the logic.", "Let me fix this:",
         "Now I'll wire it into the flow.", "Ahora voy a corregir esto:"]


def _edit_call(call_id: str, style: str, path: str, new: str) -> dict:
    """A file change as Claude Code (Edit/Write), pi (edit/write) or another agent (str_replace) writes it."""
    if style == "claude-edit":
        return call(call_id, "Edit", file_path=path, old_string="x = 1", new_string=new)
    if style == "claude-write":
        return call(call_id, "Write", file_path=path, content=new)
    if style == "pi-edit":
        return call(call_id, "edit", path=path, oldText="x = 1", newText=new)
    return call(call_id, "str_replace", path=path, old_str="x = 1", new_str=new)


EDIT_STYLES = st.sampled_from(["claude-edit", "claude-write", "pi-edit", "str_replace"])


def _mid_work(style: str, path: str, function: str, vague: str, *, failed: bool = False,
              committed: bool = False) -> list[dict]:
    """A request, the agent naming ``function``, editing ``path``, then stopping with ``vague`` words and a call."""
    messages = [user("Please handle the lanes so each session gets its own."),
                assistant(f"I'll change `{function}` so it handles this."),
                assistant(_edit_call("e1", style, path, f"def {function.split('.')[-1]}(): pass")),
                result("e1", "edit", "Error: old text not found" if failed else "ok", error=failed)]
    if committed:
        messages += [assistant(call("g", "bash", command="git add -A && git commit -m 'lanes'")),
                     result("g", "bash", "[main 1a2b3c4] lanes")]
    return [*messages, assistant(vague, call("r", "bash", command="ls")), result("r", "bash", "a\nb")]


@EXAMPLES
@given(style=EDIT_STYLES, path=st.sampled_from(FILES), function=st.sampled_from(FUNCTIONS),
       vague=st.sampled_from(VAGUE))
def test_vague_last_words_get_the_files_and_names_the_work_ends_on(style: str, path: str, function: str,
                                                                  vague: str) -> None:
    ongoing = "\n".join(items(summarize(_mid_work(style, path, function, vague)), "### In Progress"))
    assert f"`{path}`" in ongoing and f"`{function.split('.')[-1]}`" in ongoing  # defined by the edit


@EXAMPLES
@given(style=EDIT_STYLES, path=st.sampled_from(FILES), function=st.sampled_from(FUNCTIONS),
       vague=st.sampled_from(VAGUE), case=st.sampled_from(["failed", "committed"]))
def test_a_failed_or_committed_edit_is_not_the_subject(style: str, path: str, function: str, vague: str,
                                                       case: str) -> None:
    messages = _mid_work(style, path, function, vague, failed=case == "failed", committed=case == "committed")
    ongoing = "\n".join(items(summarize(messages), "### In Progress"))
    assert f"`{path}`" not in ongoing
    if case == "committed":  # the words before the commit were about finished work too
        assert "current subject" not in ongoing


@EXAMPLES
@given(style=EDIT_STYLES, path=st.sampled_from(FILES), function=st.sampled_from(FUNCTIONS))
def test_named_last_words_or_a_finished_turn_need_no_subject_line(style: str, path: str, function: str) -> None:
    named = _mid_work(style, path, function, f"Now let me update `{function}` to return the result:")
    finished = _mid_work(style, path, function, "Now I'll wire it into the flow.")[:-2] + [
        assistant(f"Done: `{function}` now gives each session its own lane.")]
    for messages in (named, finished):
        assert "current subject" not in summarize(messages)


def test_the_current_subject_grows_linearly_with_the_turn() -> None:
    def turn(size: int) -> list[dict]:
        steps = [m for n in range(size) for m in (
            assistant(f"Now `step_{n}` and `Mod{n}.run()`.",
                      _edit_call(f"e{n}", "pi-edit", f"src/m{n}.py", "def f(): pass")),
            result(f"e{n}", "edit", "ok"))]
        return [user("go"), *steps]
    regions = {size: turn(size) for size in (300, 600, 1200)}
    found = growth("current_subject", lambda size: (lambda: current_subject(regions[size], 0)), 300, runs=3)
    assert found.linear, str(found)
    files, names, reading, _, _ = current_subject(regions[300], 0)
    assert files[0] == "src/m299.py" and names[:2] == ("Mod299.run()", "step_299") and not reading


# -- a failing test run: the step names the failing test, not the run's verdict ----------------------------------

TEST_NAMES = ["TestResume_SessionLogAlreadyExists", "test_rewind_keeps_log", "adds two numbers", "parses_empty_input"]
RUNNERS = {
    "go": lambda name: f"=== RUN   {name}\n--- FAIL: {name} (0.46s)\n    resume_test.go:265: log was overwritten\n"
                       "FAIL\nFAIL\texample.com/cli/cmd\t17.7s\nFAIL\n[test:integration] ERROR task failed",
    "pytest": lambda name: f"tests/test_a.py F.\n=== short test summary info ===\nFAILED tests/test_a.py::{name} - "
                           "AssertionError: assert 1 == 2\n1 failed, 1 passed in 0.12s\nError: Process completed",
    "jest": lambda name: f"FAIL src/sum.test.ts\n  ✕ {name} (3 ms)\n\n  ● sum › {name}\n\n"
                         "Tests: 1 failed, 3 passed\nnpm ERR! Test failed.",
    "cargo": lambda name: f"running 2 tests\ntest tests::{name} ... FAILED\ntest tests::other ... ok\n\nfailures:\n"
                          "error: test failed, to rerun pass `--lib`",
}


@EXAMPLES
@given(runner=st.sampled_from(sorted(RUNNERS)), name=st.sampled_from(TEST_NAMES),
       command=st.sampled_from(["mise run test:integration", "npm test", "pytest -q", "cargo test", "make check"]))
def test_a_failing_test_run_is_fixed_by_the_test_it_names(runner: str, name: str, command: str) -> None:
    messages = [user("Make the resume flow reuse the existing log."),
                assistant("Running the tests.", call("t", "bash", command=command)),
                result("t", "bash", bash_fail(RUNNERS[runner](name), 1), error=True)]
    fixes = [step for step in items(summarize(messages), "## Next Steps") if step.startswith("Fix:")]
    assert len(fixes) == 1 and name in fixes[0] and command in fixes[0]


@EXAMPLES
@given(verdict=st.sampled_from(["FAIL", "[test] ERROR task failed", "FAILED (errors=1)", "Tests failed.",
                                "FAIL\texample.com/cli\t3.2s"]))
def test_a_bare_verdict_is_no_failing_test(verdict: str) -> None:
    assert failed_test(f"building…\n{verdict}\n") == ""
    assert failed_test(bash_fail(f"--- FAIL: TestX (0.1s)\n{verdict}", 1)) == "--- FAIL: TestX (0.1s)"


# -- a sub-agent's notification is the harness's, not a request ---------------------------------------------------

POINTER_LABELS = ["Full transcript available at", "Read the output file to retrieve the result", "Output saved to",
                  "Transcript complet disponible ici", "完整记录位于"]
POINTER_VALUES = ["/tmp/claude/tasks/a1b2c3.output", "REDACTED.output", "https://example.com/runs/42",
                  r"C:\Users\me\AppData\run.log"]


@EXAMPLES
@given(label=st.sampled_from(POINTER_LABELS), value=st.sampled_from(POINTER_VALUES),
       tag=st.sampled_from(["task-notification", "agent-result", "background-job"]),
       body=st.sampled_from(["<status>completed</status>", "<summary>Agent \"Eval 1\" completed</summary>\n"
                             "<result>I need your help to proceed: fix the guide.</result>"]))
def test_a_notification_with_a_pointer_line_is_no_request(label: str, value: str, tag: str, body: str) -> None:
    request = "also are we getting rid of the workspace afterwards?"
    messages = [user(request), assistant("I already deleted it. Want me to remove `evals/` too, or keep it?"),
                user(f"<{tag}>\n<task-id>a2a10e</task-id>\n{body}\n</{tag}>\n{label}: {value}")]
    assert [words for _, words in user_requests(messages)] == [request]


@EXAMPLES
@given(value=st.sampled_from(POINTER_VALUES))
def test_the_users_words_after_a_pasted_block_stay_a_request(value: str) -> None:
    text = f"<context>\nlog lines\n</context>\nplease fix the failing import in {value} and rerun the suite"
    assert [words for _, words in user_requests([user(text)])] == [text.split("\n")[-1]]


# -- issue 20: the next step where the region leaves it -------------------------------------------------------

LISTED_STATUS = {PENDING: ["pending", "todo"], ACTIVE: ["in_progress", "active"], DONE: ["completed", "done"]}


@EXAMPLES
@given(statuses=st.lists(st.sampled_from([PENDING, ACTIVE, DONE]), min_size=2, max_size=5), data=st.data(),
       marker=st.sampled_from(["#{} [{}] {}", "{}. [{}] {}", "  #{}  [{}] {}"]), blocked=st.booleans())
def test_a_listed_task_list_seeds_the_list_made_before_the_region(statuses: list[str], data: st.DataObject,
                                                                  marker: str, blocked: bool) -> None:
    """A list the agent made in an earlier region is known here only by a listing call (``TaskList``) and updates
    by id: they say what is still to do."""
    worded = [data.draw(st.sampled_from(LISTED_STATUS[s])) for s in statuses]
    listing = "\n".join(marker.format(n, word, title) + (f" [blocked by #{n - 1}]" if blocked and n > 1 else "")
                        for n, (word, title) in enumerate(zip(worded, TITLES), 1))
    messages = [user("Carry on with the task list."), assistant(call("l", "TaskList")),
                result("l", "TaskList", listing)]
    kept = task_list(messages)
    statuses = [PENDING if s == ACTIVE and ACTIVE in statuses[:n] else s for n, s in enumerate(statuses)]
    assert kept is not None and [(t.text, t.status) for t in kept.tasks] == list(zip(TITLES, statuses))
    steps = "\n".join(items(summarize([*messages, assistant("Now I'll rewrite the test file.",
                                                            call("w", "write", path="t.py", content="x")),
                                       result("w", "write", "ok")]), "## Next Steps"))
    for title, status in zip(TITLES, statuses):
        assert (title in steps) == (status == PENDING)


@given(status=st.sampled_from(["in_progress", "completed", "pending"]), key=st.sampled_from(["taskId", "id"]))
def test_an_update_of_a_task_made_before_the_region_adds_it(status: str, key: str) -> None:
    block = call("u", "TaskUpdate", **{key: "3"}, status=status, description="Reinitialize logging after stdin")
    kept = task_list([assistant(block), result("u", "TaskUpdate", "Updated task #3 description, status")])
    assert kept is not None and [(t.text, t.status) for t in kept.tasks] == [
        ("Reinitialize logging after stdin", {"in_progress": ACTIVE, "completed": DONE, "pending": PENDING}[status])]


OPEN_INTROS = ["**Possible causes to investigate**:", "Open questions:", "## Still to do:", "Remaining issues:",
               "**Not yet done:**", "Follow-ups for later:"]
OPEN_ITEMS = [("Check `BaseCommit` against the shadow branch name", ""),
              ("**`stripCache` kept**", " — the plugin command still needs lenient parsing, removing it breaks it"),
              ("Silent error in `repo.Reference()` at line 492", ""), ("**Retry budget**", ": three tries, then fail")]


@EXAMPLES
@given(intro=st.sampled_from(OPEN_INTROS), listed=st.lists(st.sampled_from(OPEN_ITEMS), min_size=1, max_size=3,
                                                           unique=True),
       marker=st.sampled_from(["- ", "1. ", "* "]), spaced=st.booleans(), ending=st.sampled_from(
           ["## Summary\n\nThe investigation so far.", "Done: the logs are collected."]))
def test_the_last_answers_list_of_open_work_is_the_next_step(intro: str, listed: list, marker: str, spaced: bool,
                                                             ending: str) -> None:
    """An answer that reports (so the request counts as done) and lists what is still open: the list is the next
    step, each item by its title, not the reasons after it."""
    gap = "\n\n" if spaced else "\n"
    body = gap.join(f"{marker}{title}{reason}" for title, reason in listed)
    answer = f"{ending}\n\n{intro}{gap}{body}\n\nThat is where it stands."
    steps = "\n".join(items(summarize([user("Find out why the hook saw no new content."), assistant(answer)]),
                            "## Next Steps"))
    for title, reason in listed:
        assert title.replace("**", "") in steps
        assert not reason or reason.strip(" —:") not in steps


@given(intro=st.sampled_from(["What changed:", "**Files edited**:", "Summary of the fix:"]))
def test_a_list_of_what_was_done_is_no_next_step(intro: str) -> None:
    answer = f"Done: the fix is in.\n\n{intro}\n- Renamed `loadConfig` in `config.go`\n- Added a test"
    steps = "\n".join(items(summarize([user("Fix the config loader."), assistant(answer)]), "## Next Steps"))
    assert "loadConfig" not in steps


QUESTIONS = ["Do you want me to revert the go-git change back to the CLI call?",
             "Should I remove the unused `StageFiles()` helper as well?"]
PUT_OFF = ["quick follow up question first: why did the other repo keep uncommitted files?",
           "hmm, we changed the shadow tracking recently, could this be related?",
           "one question first, what does the hook log say about it"]


@EXAMPLES
@given(question=st.sampled_from(QUESTIONS), reply=st.sampled_from(PUT_OFF), answered=st.booleans(),
       later=st.sampled_from(["can you look in ../other-repo at the session logs", "which commit was that?"]))
def test_a_question_the_user_put_off_stays_open(question: str, reply: str, answered: bool, later: str) -> None:
    """The agent asked; the user asked something else first and went on: the question still waits, unless a later
    request answers it ("yes, …")."""
    messages = [user("Review the staging change in this branch."),
                assistant(f"The change looks unneeded. {question}"),
                user(reply), assistant("It is the branch check that skipped the commits."),
                user("yes, revert it please" if answered else later),
                assistant("Let me look at that.", call("r", "bash", command="git log --oneline -3")),
                result("r", "bash", "a1b2c3 x")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert (question in steps) != answered


def test_a_reply_that_answers_leaves_no_question_open() -> None:
    messages = [user("Review the staging change."), assistant(f"It looks unneeded. {QUESTIONS[0]}"),
                user("yes, and what about the tests?"), assistant("They pass with go-git too."),
                user("ok now check the other repo"), assistant("Checking.", call("r", "bash", command="ls")),
                result("r", "bash", "a")]
    assert QUESTIONS[0] not in "\n".join(items(summarize(messages), "## Next Steps"))


@given(point=st.sampled_from(["but github now shows 627 right?", "so is the total_committed number still right?"]))
def test_the_latest_request_as_the_step_is_quoted_to_its_point(point: str) -> None:
    """A long request the agent had not got to: its point often comes last."""
    request = ("ah I messed up, I reset the commit and made a new one, the old shadow branch was gone, so the data "
               "is now totally off I guess? but this should mean it attributes more to me but numbers should be "
               f"correct? {point}")
    messages = [user("check the attribution of the last commit"), assistant("Let me check.",
                call("r", "bash", command="git log -1")), result("r", "bash", "x"), user(request)]
    assert point in "\n".join(items(summarize(messages), "## Next Steps"))


# -- the subject: names reported done are not it; a file read since the last edit is -----------------------------

@EXAMPLES
@given(style=EDIT_STYLES, done=st.sampled_from(["fixed", "added", "updated", "removed"]),
       vague=st.sampled_from(VAGUE))
def test_names_the_last_words_report_done_are_not_the_subject(style: str, done: str, vague: str) -> None:
    messages = [user("Does the guide cover this?"),
                assistant(f"Partly. It lists `GetSessionDir`. But we just {done} `os.Getwd()` as a bug.\n\n{vague}",
                          _edit_call("e", style, "docs/GUIDE.md", "Use the repo root.")),
                result("e", "edit", "ok")]
    ongoing = "\n".join(items(summarize(messages), "### In Progress"))
    assert "`GetSessionDir`" in ongoing and "os.Getwd" not in ongoing


@EXAMPLES
@given(style=EDIT_STYLES, path=st.sampled_from(FILES), test=st.sampled_from(["store_test.go", "tests/test_store.py"]),
       reader=st.sampled_from(["Read", "read", "view"]))
def test_a_file_read_since_the_last_edit_is_part_of_the_subject(style: str, path: str, test: str,
                                                                reader: str) -> None:
    """The agent edited, a check failed, it reads the test to see why: the test file is what it works on."""
    messages = [user("Split the attribution per file."),
                assistant("Now I'll split it.", _edit_call("e", style, path, "def split(): pass")),
                result("e", "edit", "ok"),
                assistant(call("t", "bash", command="make test")), result("t", "bash", bash_fail("FAIL", 1), error=True),
                assistant("Let me look at the test.", call("r", reader, path=test)), result("r", reader, "line 1")]
    ongoing = "\n".join(items(summarize(messages), "### In Progress"))
    assert f"`{test}`" in ongoing and f"`{path}`" in ongoing


@EXAMPLES
@given(style=EDIT_STYLES, function=st.sampled_from(FUNCTIONS))
def test_last_words_naming_another_file_still_get_the_subject(style: str, function: str) -> None:
    """"testenv.go is already large. Let me create a dedicated file:" names a file, not the one written."""
    name = function.split(".")[-1]
    messages = [user("Centralise the interactive helpers."),
                assistant("Good point - testenv.go is already quite large. Let me create a dedicated file:",
                          _edit_call("w", style, "integration/interactive.go", f"func {name}() {{}}")),
                result("w", "write", "ok")]
    ongoing = "\n".join(items(summarize(messages), "### In Progress"))
    assert "`integration/interactive.go`" in ongoing and f"`{name}`" in ongoing


# -- the agent's status table, a short reply, the routine before a commit, searches, work after a commit ------------

TABLE_HEADERS = [("Step", "Planned", "Done?", "Notes"), ("#", "Item", "Status", "Why"), ("Task", "What", "Implemented", "")]
NOT_DONE_CELLS = ["**No**", "❌ not yet", "Partial", "Pending", "Not done"]
DONE_CELLS = ["**Yes**", "✅", "Done"]


def _table(header: tuple, rows: list[tuple]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


@EXAMPLES
@given(header=st.sampled_from(TABLE_HEADERS), undone=st.sampled_from(NOT_DONE_CELLS),
       done=st.sampled_from(DONE_CELLS), first=st.booleans())
def test_the_rows_a_status_table_gives_not_done_are_the_next_step(header: tuple, undone: str, done: str,
                                                                   first: bool) -> None:
    """"did we implement the full plan?" answered with a table: its rows marked not done are what is left, named
    by their step and title; the rows done are not."""
    rows = [("**5.1**", "Remove `stripCache()`", undone, "still needed by the `plugin` command"),
            ("**5.3**", "Update the stale `stricli` reference", done, "updated the planning doc")]
    answer = f"Here's the status against each plan step:\n\n{_table(header, rows if first else rows[::-1])}\n\n" \
             "Both deviations are practical tradeoffs."
    steps = "\n".join(items(summarize([user("did we implement the full plan?"), assistant(answer)]), "## Next Steps"))
    assert "5.1 Remove `stripCache()`" in steps and "still needed by the plugin command" in steps
    assert "stricli" not in steps and "wait for the user's next request" not in steps


def test_a_table_without_a_status_column_says_nothing_open() -> None:
    answer = "Results:\n\n" + _table(("Case", "Before", "After"), [("`load`", "No", "Yes")])
    steps = "\n".join(items(summarize([user("Compare the timings."), assistant(answer)]), "## Next Steps"))
    assert "load" not in steps


@EXAMPLES
@given(reply=st.sampled_from(["that was a little while back :|", "which one?", "hmm, are you sure?"]),
       function=st.sampled_from(FUNCTIONS))
def test_a_short_reply_not_yet_acted_on_is_quoted_with_the_words_it_answers(reply: str, function: str) -> None:
    answer = f"**`6d61daaa`** — from Jan 22.\n\nThat's the commit that added `{function}` to the PostCommit path."
    messages = [user("which commit introduced the index rewrite?"),
                assistant("Let me look.", call("g", "bash", command="git log --oneline -5")), result("g", "bash", "a"),
                assistant(answer), user(reply)]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert reply in steps and f"`{function}`" in steps


CHECKS = [("mise run lint", "mise run test:ci"), ("uv run ruff check .", "uv run pytest -q"), ("npm test",)]


@EXAMPLES
@given(checks=st.sampled_from(CHECKS), style=EDIT_STYLES, path=st.sampled_from(FILES), commits=st.integers(1, 2))
def test_edits_under_way_end_with_the_sessions_checks_before_a_commit(checks: tuple, style: str, path: str,
                                                                      commits: int) -> None:
    """The session ran the same checks before each commit: edits still under way at the end meet them next."""
    messages = [user("Fix the two review comments.")]
    for number in range(commits):
        messages += [assistant(_edit_call(f"e{number}", style, path, f"x = {number}")), result(f"e{number}", "edit", "ok")]
        for n, check in enumerate(checks):
            messages += [assistant(call(f"k{number}{n}", "bash", command=check)), result(f"k{number}{n}", "bash", "ok")]
        messages += [assistant(call(f"c{number}", "bash", command=f"git commit -am 'fix {number}'")),
                     result(f"c{number}", "bash", f"[main a1b2c3{number}] fix {number}")]
    messages += [user("now resolve the merge conflicts"),
                 assistant("Let me keep our version.", _edit_call("m", style, path, "merged = True")),
                 result("m", "edit", "ok")]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert all(f"`{check}`" in steps for check in checks)
    finished = summarize(messages[:-3])  # the last commit done: nothing under way to check
    assert "Before committing" not in "\n".join(items(finished, "## Next Steps"))


@EXAMPLES
@given(name=st.sampled_from(["os.Getwd()", "LastCheckpointID", "paths.RepoRoot"]),
       how=st.sampled_from(["Grep", "grep", "bash"]))
def test_what_the_agent_searched_for_is_part_of_the_subject(name: str, how: str) -> None:
    """"can we check the whole code base for this?": the search says what "this" is."""
    escaped = name.replace(".", "\\.").replace("(", "\\(").replace(")", "\\)")
    search = call("s", "bash", command=f'grep -rn "{escaped}" src/ --include="*.go"') if how == "bash" else \
        call("s", how, pattern=escaped, path="src")
    messages = [user("can we check the whole code base if this is an issue in other places?"),
                assistant("Let me search.", search), result("s", search["name"], "src/a.go:3: x"),
                assistant("Let me see what function this is in:", call("r", "Read", file_path="src/a.go")),
                result("r", "Read", "func a() {}")]
    assert f"`{name}`" in "\n".join(items(summarize(messages), "### In Progress"))
    assert current_subject([search, result("s", search["name"], "x")], -1)[3] == ()  # a call without its turn


def test_a_search_of_alternatives_names_nothing() -> None:
    messages = [user("where is it excluded?"),
                assistant(call("s", "Grep", pattern="\\.claude|\\.entire|exclude.*path")), result("s", "Grep", "x")]
    assert current_subject(messages, 0)[3] == ()


@EXAMPLES
@given(sha=st.sampled_from(["3696270", "a1b2c3d4"]), moved=st.booleans())
def test_work_after_a_commit_names_it(sha: str, moved: bool) -> None:
    """The agent committed, then went on (replying "Fixed in <sha>" to review comments): the next step says which
    commit the work builds on, unless git moved HEAD since."""
    messages = [user("commit, then reply to the PR comments"),
                assistant(call("c", "bash", command="git commit -m 'fix: review'")),
                result("c", "bash", f"[feature {sha}] fix: review\n 2 files changed"),
                *([assistant(call("m", "bash", command="git checkout main")), result("m", "bash", "ok")] if moved
                  else []),
                assistant("Now let me reply to the PR comments:",
                          call("g", "bash", command=f"gh api repos/o/r/pulls/1/comments/9/replies -f body='Fixed in {sha}'"))]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert (f"HEAD is now {sha}" in steps) != moved


@EXAMPLES
@given(runner=st.sampled_from(["uv run pytest tests/test_hooks.py -v", "go test ./pkg/...", "npm test"]),
       words=st.sampled_from(["Let me format the files and run a final comprehensive test:",
                              "Now let me run the tests again:", "Next I'll rerun the whole test suite:"]))
def test_an_announced_test_run_names_the_regions_test_command(runner: str, words: str) -> None:
    """"run a final comprehensive test" does not say how: the region's own test command does."""
    messages = [user("add tests for the hooks"),
                assistant(call("t", "bash", command=runner)), result("t", "bash", "3 passed"),
                assistant(words, call("f", "bash", command="uv run black tests/"))]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert f"`{runner}`" in steps
    quiet = [*messages[:3], assistant("Let me format the files:", call("f", "bash", command="uv run black tests/"))]
    assert f"`{runner}`" not in "\n".join(items(summarize(quiet), "## Next Steps"))


OPTIONS = ("Both sessions still have state files on HEAD.\n\nPossible fixes:\n"
           "1. **Condensed check**: treat a condensed session with no new checkpoints as idle\n"
           "2. **Current-session file**: only the session named there is active\n\n")
SERVED = "can you find out why both sessions in the demo repo are shown as active:"
PASTED = "\n\n  v main  [1 checkpoints]\n    * Session: 7bf3 <active>\n    * Session: d488 <active>"


def _reply_under_way(shape: str) -> list[dict]:
    """A request, the agent's options or its interrupted work, the user's reply, and the agent mid-work on it."""
    messages = [*_worked(FIRST, "src/csv.py"), user(SERVED + PASTED), assistant(call("s", "bash", command="ls .git/")),
                result("s", "bash", "sessions/")]
    if shape == "asked":
        messages += [assistant(OPTIONS + "Which do you prefer?"), user("let's go with option 1")]
    elif shape == "proposed":
        messages += [assistant(OPTIONS + "Option 1 seems cleanest."), user("let's go with option 1")]
    else:
        messages += [assistant("Let me filter the metadata directories.",
                               call("f", "edit", path="src/filter.go", oldText="a", newText="b")),
                     result("f", "edit", "ok"), user("[Request interrupted by user]"),
                     user("no, revert those changes: the state files are right, fix the test script instead")]
    return [*messages, assistant("Now let me update the `isSessionActive` logic:",
                                 call("e", "edit", path="src/data.go", oldText="a", newText="b")),
            result("e", "edit", "ok")]


@EXAMPLES
@given(shape=st.sampled_from(["asked", "proposed", "correction"]))
def test_a_reply_under_way_names_the_request_it_serves_without_what_that_pasted(shape: str) -> None:
    summary = summarize(_reply_under_way(shape))
    ongoing = "\n".join(items(summary, "### In Progress"))
    assert f"for the earlier request it replies about: “{SERVED}”" in ongoing and "<active>" not in ongoing
    assert items(summary, "## Goal")[0].startswith(FIRST.split(",")[0]) and SERVED[:40] in items(summary, "## Goal")[0]


@EXAMPLES
@given(request=st.sampled_from(["Now add a --json flag to the list command, same fields as the table.",
                                "let's go with option 1"]))
def test_a_request_that_replies_to_nothing_serves_no_earlier_one(request: str) -> None:
    messages = [*_worked(FIRST, "src/csv.py"), user(SERVED + PASTED), assistant("Both sessions were condensed. Done."),
                user(request), assistant("Now let me update the list command:",
                                         call("e", "edit", path="src/list.go", oldText="a", newText="b")),
                result("e", "edit", "ok")]
    assert "for the earlier request" not in summarize(messages)


CLEANUP = [user("Clean up the skill folder before we ship it, and tidy the docs."),
           assistant(call("l", "bash", command="ls skill/")), result("l", "bash", "evals/\nSKILL.md")]


@EXAMPLES
@given(ending=st.sampled_from([
    ("**Should I keep the evals/ directory or remove it?**", "Should I keep the evals/ directory or remove it?"),
    ("Should I remove the evals/ directory?\n\nLet me know and I'll finish the cleanup.",
     "Should I remove the evals/ directory?"),
    ("Should I remove the evals/ directory? (It holds the test cases.)", "Should I remove the evals/ directory?"),
    ("Two ways:\n\n1. Keep the evals/ directory\n2. Remove it\n\nWhich do you prefer? I'd go with 2.",
     "Which do you prefer? (Keep the evals/ directory; Remove it)"),
]), kind=st.sampled_from(["compaction", "branch"]))
def test_an_answer_that_closes_on_a_question_to_the_user_waits_on_it(ending: tuple[str, str], kind: str) -> None:
    words, question = ending
    summary = summarize([*CLEANUP, assistant(f"The folder holds SKILL.md and an evals/ directory.\n\n{words}")], kind=kind)
    steps = "\n".join(items(summary, "## Next Steps"))
    assert question in steps and "wait for the user's next request" not in steps
    assert "waiting for the user's reply" in "\n".join(items(summary, "### In Progress"))


@EXAMPLES
@given(ending=st.sampled_from(["What's left? Nothing: the folder is clean.",
                               "Why did the build fail? The evals/ fixtures were stale; they are regenerated now."]))
def test_a_question_the_agent_answers_itself_leaves_nothing_waiting(ending: str) -> None:
    steps = "\n".join(items(summarize([*CLEANUP, assistant(f"Removed evals/. {ending}")]), "## Next Steps"))
    assert "wait for the user's next request" in steps and "?" not in steps


@EXAMPLES
@given(tool=st.sampled_from(["AskUserQuestion", "ask_user", "request_user_input"]),
       nested=st.booleans())
def test_a_question_tool_call_the_region_ends_on_waits_for_the_answer(tool: str, nested: bool) -> None:
    question = "Should I keep the evals/ directory or remove it?"
    arguments = {"questions": [{"question": question, "options": [{"label": "Keep"}, {"label": "Remove"}]}]} \
        if nested else {"question": question}
    summary = summarize([*CLEANUP, assistant("The folder holds SKILL.md and evals/.", call("q", tool, **arguments))])
    steps = items(summary, "## Next Steps")
    assert question in steps[0] and "Continue where the agent stopped" not in "\n".join(steps)


def _custom(text: str) -> dict:
    """What an importer makes of a row the harness marked as its own, or what an extension injects."""
    return {"role": "custom", "customType": "claude-code:meta", "content": text, "display": False, "timestamp": 1}


@EXAMPLES
@given(injected_text=st.sampled_from(["<local-command-caveat>Caveat: generated by local commands</local-command-caveat>",
                                      "Stop hook feedback:\nformatting checked", "# /usage command\n\nShow usage."]),
       answer=st.sampled_from(["Here is the status against each plan step:\n\n| Step | Notes |\n|---|---|\n| 1 | merged |",
                               "The parser reads both formats now."]),
       after=st.sampled_from([[], [user("<command-name>/context</command-name>\n<command-args></command-args>")]]))
def test_a_message_the_harness_put_in_after_a_finished_answer_leaves_the_turn_finished(injected_text: str,
                                                                                      answer: str, after: list) -> None:
    messages = [user("did we implement the full plan?"), assistant("Let me compare.", call("c", "read", path="plan.md")),
                result("c", "read", "# Plan\n1. parser\n2. printer"), assistant(answer), _custom(injected_text), *after]
    steps = "\n".join(items(summarize(messages), "## Next Steps"))
    assert "did we implement the full plan" not in steps


@given(command=st.sampled_from(["notify", "voice", "review"]), args=st.sampled_from(["", "y", "charlie"]))
def test_a_command_the_harness_expanded_into_a_custom_message_is_the_users_request(command: str, args: str) -> None:
    invoked = (f"<command-message>{command}</command-message>\n<command-name>/{command}</command-name>\n"
               f"<command-args>{args}</command-args>")
    messages = [user("set things up"), assistant("Done."), user(invoked), _custom(f"# /{command} command\n\nDo it.")]
    assert [words for _, words in user_requests(messages)][-1] == f"Run the command `/{command}{' ' + args if args else ''}`"
