"""The next step for each class of session ending, generated, not listed: an ending is built from parts (the work
before it, the class's own move, its wording) and rendered in three agents' formats (pi's messages, Claude Code's
rows with tool_use/tool_result blocks and TodoWrite, Codex's rollouts with shell calls and update_plan), so a rule
that holds here holds for the class, not for one session's phrasing.

The classes: the user's last request not yet answered, or only acknowledged; the agent's last words announcing its
next move, with or without a last call whose result the region lacks; a task list with items still to do; a check
failing at the end; a question the agent asked; everything finished and reported. And the negatives: a request the
region answered is never the next step, a failure fixed later is never "Fix: …"."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.context import build_session_context
from pi_compact.importers.claude_code import read_claude_code
from pi_compact.importers.codex import read_codex

from ..messages import assistant, bash_fail, call, result, user
from tests.importers.rows import (cc_assistant, cc_user, codex_line, codex_message, codex_meta, jsonl, text,
                                 tool_result, tool_use)
from .test_classes import EXAMPLES, summarize
from .test_offline import items

FORMATS = st.sampled_from(["pi", "claude", "codex"])


# -- an ending, said once and rendered in each agent's format ----------------------------------------------------

@dataclass(frozen=True)
class Ask:
    text: str


@dataclass(frozen=True)
class Say:
    text: str


@dataclass(frozen=True)
class Run:
    command: str
    output: str | None = ""
    """``None``: the region ends before the result came."""
    failed: bool = False


@dataclass(frozen=True)
class Edit:
    path: str
    new: str = "changed"
    answered: bool = True


@dataclass(frozen=True)
class Plan:
    items: tuple[tuple[str, str], ...]
    """``(title, status)``, status one of ``completed``, ``in_progress``, ``pending``."""


def _pi(events: list) -> list[dict]:
    messages: list[dict] = []
    for number, event in enumerate(events):
        ident = f"p{number}"
        if isinstance(event, Ask):
            messages.append(user(event.text))
        elif isinstance(event, Say):
            messages.append(assistant(event.text))
        elif isinstance(event, Run):
            messages.append(assistant(call(ident, "bash", command=event.command)))
            if event.output is not None:
                body = bash_fail(event.output, 1) if event.failed else event.output
                messages.append(result(ident, "bash", body, error=event.failed))
        elif isinstance(event, Edit):
            messages.append(assistant(call(ident, "edit", path=event.path, oldText="old", newText=event.new)))
            if event.answered:
                messages.append(result(ident, "edit", f"Successfully replaced text in {event.path}."))
        elif isinstance(event, Plan):  # pi has no task tool: the agent writes its checklist in its answer
            marks = {"completed": "[x]", "in_progress": "[ ]", "pending": "[ ]"}
            lines = "\n".join(f"- {marks[status]} {title}" for title, status in event.items)
            messages.append(assistant(f"Plan:\n{lines}"))
    return messages


def _claude(events: list) -> list[dict]:
    rows: list[dict] = []
    parent = None

    def add(row: dict) -> None:
        nonlocal parent
        rows.append(row)
        parent = row["uuid"]

    for number, event in enumerate(events):
        ident, second = f"toolu_{number:03d}", number
        if isinstance(event, Ask):
            add(cc_user(f"u{number}", parent, event.text, second))
        elif isinstance(event, Say):
            add(cc_assistant(f"a{number}", parent, [text(event.text)], f"m{number}", second))
        elif isinstance(event, Run):
            add(cc_assistant(f"a{number}", parent, [tool_use(ident, "Bash", command=event.command)], f"m{number}",
                             second))
            if event.output is not None:
                body = f"Exit code 1\n{event.output}" if event.failed else event.output
                add(cc_user(f"r{number}", parent, [tool_result(ident, body, event.failed)], second))
        elif isinstance(event, Edit):
            add(cc_assistant(f"a{number}", parent, [tool_use(ident, "Edit", file_path=f"/home/me/proj/{event.path}",
                                                             old_string="old", new_string=event.new)],
                             f"m{number}", second))
            if event.answered:
                add(cc_user(f"r{number}", parent, [tool_result(
                    ident, f"The file /home/me/proj/{event.path} has been updated.")], second))
        elif isinstance(event, Plan):
            todos = [{"content": title, "status": status, "activeForm": title} for title, status in event.items]
            add(cc_assistant(f"a{number}", parent, [tool_use(ident, "TodoWrite", todos=todos)], f"m{number}", second))
            add(cc_user(f"r{number}", parent, [tool_result(
                ident, "Todos have been modified successfully. Ensure that you continue to use the todo list.")],
                second))
    return build_session_context(read_claude_code(jsonl(rows)).entries).messages


def _codex_call(ident: str, name: str, arguments: dict, second: int) -> dict:
    return codex_line("response_item", {"type": "function_call", "name": name, "arguments": json.dumps(arguments),
                                        "call_id": ident}, second)


def _codex_output(ident: str, output: str, exit_code: int, second: int) -> dict:
    body = json.dumps({"output": output, "metadata": {"exit_code": exit_code, "duration_seconds": 0.1}})
    return codex_line("response_item", {"type": "function_call_output", "call_id": ident, "output": body}, second)


def _codex(events: list) -> list[dict]:
    rows: list[dict] = [codex_meta()]
    for number, event in enumerate(events):
        ident, second = f"call_{number}", number
        if isinstance(event, Ask):
            rows.append(codex_message("user", event.text, second))
        elif isinstance(event, Say):
            rows.append(codex_message("assistant", event.text, second))
        elif isinstance(event, Run):
            rows.append(_codex_call(ident, "shell", {"command": ["bash", "-lc", event.command]}, second))
            if event.output is not None:
                rows.append(_codex_output(ident, event.output, 1 if event.failed else 0, second))
        elif isinstance(event, Edit):
            patch = f"*** Begin Patch\n*** Update File: {event.path}\n@@\n-old\n+{event.new}\n*** End Patch"
            rows.append(codex_line("response_item", {"type": "custom_tool_call", "name": "apply_patch",
                                                     "input": patch, "call_id": ident}, second))
            if event.answered:
                rows.append(codex_line("response_item", {"type": "custom_tool_call_output", "call_id": ident,
                                                         "output": f"Success. Updated the following files:\nM "
                                                                   f"{event.path}"}, second))
        elif isinstance(event, Plan):
            plan = [{"step": title, "status": status} for title, status in event.items]
            rows.append(_codex_call(ident, "update_plan", {"plan": plan}, second))
            rows.append(_codex_output(ident, "Plan updated", 0, second))
    return build_session_context(read_codex(jsonl(rows)).entries).messages


RENDER = {"pi": _pi, "claude": _claude, "codex": _codex}


def _next(events: list, agent: str) -> str:
    return "\n".join(items(summarize(RENDER[agent](events)), "## Next Steps"))


def _ongoing(events: list, agent: str) -> tuple[str, str]:
    summary = summarize(RENDER[agent](events))
    return "\n".join(items(summary, "### In Progress")), "\n".join(items(summary, "## Next Steps"))


# -- the parts endings are built from ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Work:
    """A piece of work: the request for it, the file it changes, what the agent reports when it is done, and a
    word only this piece uses (what a step that names it must hold)."""

    request: str
    path: str
    report: str
    mark: str


WORKS = [
    Work("Add a retry with backoff to `fetch_page` in src/crawler.py.", "src/crawler.py",
         "Added the retry with exponential backoff to `fetch_page`.", "fetch_page"),
    Work("please make the CSV exporter quote fields that contain commas (app/export.go)", "app/export.go",
         "The CSV exporter now quotes fields with commas.", "CSV exporter"),
    Work("The sidebar in web/Sidebar.tsx should collapse on narrow screens, can you do that?", "web/Sidebar.tsx",
         "Done: the sidebar collapses below 640px.", "sidebar"),
    Work("Rename the `--dry` flag to `--dry-run` in cli/main.rs and keep the old one as an alias.", "cli/main.rs",
         "Renamed `--dry` to `--dry-run`; `--dry` still works as an alias.", "dry-run"),
]
PAIRS = st.sampled_from([(a, b) for a, b in itertools.permutations(WORKS, 2)])


def _finished(work: Work, checked: bool = True) -> list:
    """A request the region carries out and reports."""
    run = [Run("pytest -q", "14 passed in 0.31s")] if checked else []
    return [Ask(work.request), Run(f"cat {work.path}", "old\n"), Edit(work.path), *run, Say(work.report)]


ACKS = ["", "Sure, let me take a look.", "On it.", "Okay, I'll look into that.", "Got it. Let me check."]


@EXAMPLES
@given(agent=FORMATS, pair=PAIRS, ack=st.sampled_from(ACKS))
def test_a_last_request_not_yet_answered_is_the_next_step(agent: str, pair: tuple[Work, Work], ack: str) -> None:
    done, asked = pair
    events = [*_finished(done), Ask(asked.request), *([Say(ack)] if ack else [])]
    steps = _next(events, agent)
    assert asked.mark in steps
    assert done.mark not in steps and "wait for the user's next request" not in steps


ANNOUNCE = ["Now I'll {}.", "Next, let me {}.", "I'll {} next.", "Let me {}.", "Now let me {}.",
            "Next I'm going to {}.", "OK, now I need to {}.", "The parser is fine. Now I'll {}."]
MOVES = [("add the missing timeout to `open_socket` in net/conn.py", "open_socket"),
         ("update README.md with the new `--verbose` flag", "README.md"),
         ("wire `RateLimiter` into the request handler", "RateLimiter"),
         ("regenerate the snapshot files under tests/__snapshots__", "snapshot")]


@EXAMPLES
@given(agent=FORMATS, work=st.sampled_from(WORKS), opener=st.sampled_from(ANNOUNCE), move=st.sampled_from(MOVES))
def test_the_move_the_agent_announced_last_is_the_next_step(agent: str, work: Work, opener: str,
                                                            move: tuple[str, str]) -> None:
    events = [Ask(work.request), Run(f"cat {work.path}", "old\n"), Edit(work.path), Say(opener.format(move[0]))]
    assert move[1] in _next(events, agent)


LAST_CALLS = [(Run("pytest -q tests/test_conn.py", None), "pytest -q tests/test_conn.py"),
              (Run("npm run build", None), "npm run build"),
              (Edit("net/conn.py", answered=False), "net/conn.py")]


@EXAMPLES
@given(agent=FORMATS, work=st.sampled_from(WORKS), opener=st.sampled_from(ANNOUNCE[:6]),
       last=st.sampled_from(LAST_CALLS))
def test_a_last_call_without_its_result_is_named_with_the_announced_move(agent: str, work: Work, opener: str,
                                                                         last: tuple) -> None:
    move = {"pytest": "run the connection tests", "npm run": "run the build"}.get(last[1].split(" ")[0],
                                                                             "fix the timeout in the connection")
    events = [Ask(work.request), Edit(work.path), Say(opener.format(move)), last[0]]
    steps = _next(events, agent)
    assert last[1] in steps


TASKS = ["Add the schema migration", "Write the repository layer", "Expose the endpoint",
         "Document the endpoint in docs/api.md"]


@EXAMPLES
@given(agent=FORMATS, work=st.sampled_from(WORKS), finished=st.integers(1, 2), active=st.booleans(),
       closing=st.sampled_from(["", "Migration added.", "The migration is in place; the tests pass."]))
def test_the_first_open_item_of_the_agents_task_list_is_the_next_step(agent: str, work: Work, finished: int,
                                                                      active: bool, closing: str) -> None:
    statuses = ["completed"] * finished + ["in_progress" if active else "pending"] + ["pending"] * 3
    plan = Plan(tuple(zip(TASKS, statuses[: len(TASKS)])))
    events = [Ask(work.request), plan, Edit(work.path), *([Say(closing)] if closing else [])]
    ongoing, steps = _ongoing(events, agent)
    first_open = TASKS[finished]
    assert first_open in steps or (active and first_open in ongoing)
    assert not any(title in steps for title in TASKS[:finished])


FAILURES = [("pytest -q", "FAILED tests/test_io.py::test_roundtrip - AssertionError: 3 != 4\n1 failed, 9 passed",
             "test_roundtrip"),
            ("cargo build", "error[E0308]: mismatched types\n --> src/lib.rs:12:5", "E0308"),
            ("npm test", "FAIL src/app.test.ts\n  ● renders the header\n\nTests: 1 failed, 4 passed", "app.test.ts"),
            ("go vet ./...", "pkg/store/db.go:41:2: unreachable code", "db.go")]
AFTER_FAILURE = ["", "The test still fails.", "Hmm, that's still failing on the same assertion.",
                 "The build breaks on a type mismatch."]


@EXAMPLES
@given(agent=FORMATS, work=st.sampled_from(WORKS), failure=st.sampled_from(FAILURES),
       after=st.sampled_from(AFTER_FAILURE))
def test_a_check_failing_at_the_end_is_to_fix(agent: str, work: Work, failure: tuple[str, str, str],
                                              after: str) -> None:
    command, output, mark = failure
    events = [Ask(work.request), Edit(work.path), Run(command, output, failed=True), *([Say(after)] if after else [])]
    steps = _next(events, agent)
    assert mark in steps or command in steps


@EXAMPLES
@given(agent=FORMATS, work=st.sampled_from(WORKS), failure=st.sampled_from(FAILURES))
def test_a_failure_fixed_later_is_no_fix_step(agent: str, work: Work, failure: tuple[str, str, str]) -> None:
    command, output, mark = failure
    events = [Ask(work.request), Edit(work.path), Run(command, output, failed=True), Edit(work.path, "fixed"),
              Run(command, "ok: all checks passed"), Say(work.report)]
    steps = _next(events, agent)
    assert "Fix:" not in steps and mark not in steps


QUESTIONS = [("Should `--dry` keep printing the plan, or only the summary?", "printing the plan"),
             ("Do you want me to also migrate the old exports in data/legacy, or leave them as they are?",
              "data/legacy"),
             ("Which port should the dev server use: 3000 or 8080?", "3000 or 8080"),
             ("Before I go on: is it fine to drop Python 3.8 support in setup.cfg?", "Python 3.8")]
BEFORE_QUESTION = ["", "I've made the first part of the change. ", "One thing is unclear. ",
                   "The change is ready except for one choice.\n\n"]


@EXAMPLES
@given(agent=FORMATS, work=st.sampled_from(WORKS), question=st.sampled_from(QUESTIONS),
       before=st.sampled_from(BEFORE_QUESTION))
def test_a_question_the_agent_asked_last_is_waited_on_by_name(agent: str, work: Work, question: tuple[str, str],
                                                              before: str) -> None:
    events = [Ask(work.request), Run(f"cat {work.path}", "old\n"), Edit(work.path), Say(before + question[0])]
    steps = _next(events, agent)
    waits = next((step for step in steps.splitlines() if question[1] in step), "")
    assert waits.startswith(("Wait for the user's answer", "Open question to the user"))


REPORTS = ["{} All 14 tests pass.", "{}\n\nEverything is committed.", "Done. {}", "{} Let me know if you want anything else."]


@EXAMPLES
@given(agent=FORMATS, pair=PAIRS, report=st.sampled_from(REPORTS), checked=st.booleans())
def test_finished_and_reported_work_leaves_only_the_users_next_request(agent: str, pair: tuple[Work, Work],
                                                                       report: str, checked: bool) -> None:
    first, last = pair
    events = [*_finished(first), *_finished(last, checked)[:-1], Say(report.format(last.report))]
    steps = _next(events, agent)
    assert "wait for the user's next request" in steps
    assert first.mark not in steps and last.mark not in steps and "Finish" not in steps


CHECKS = ["make lint", "npm run typecheck", "cargo clippy", "uv run pytest -q"]


@EXAMPLES
@given(agent=st.sampled_from(["pi", "claude"]), pair=PAIRS, check=st.sampled_from(CHECKS), checked_last=st.booleans(),
       words=st.sampled_from(["Let me fix the parser properly this time.", "Now I'll handle the empty case too."]))
def test_edits_that_passed_the_sessions_checks_are_committed_next(agent: str, pair: tuple[Work, Work], check: str,
                                                                   checked_last: bool, words: str) -> None:
    """The session checks, commits and pushes each piece of work: the edits under way that already passed its
    checks since their last change are to commit and push; edits made after the last check are to check first."""
    first, last = pair
    published = [Run(check, "all checks passed"), Run(f'git commit -am "{first.mark}"', f"[main 1a2b3c4] {first.mark}"),
                 Run("git push", "To origin\n   1a2b3c4..5d6e7f8  main -> main"), Say(first.report)]
    under_way = [Ask(last.request), Edit(last.path), Say(words), Edit(last.path, "again")]
    then = [Run(check, "all checks passed")] if checked_last else []
    steps = _next([Ask(first.request), Edit(first.path), *published, *under_way, *then], agent)
    if checked_last:
        assert "commit the edits under way and push" in steps
    else:
        assert f"run the session's checks: `{check}`" in steps


TOPICS = [("Should we drop the cache warmup on startup and let the search index load lazily instead?",
           "and the search index gets built on the first query anyway?",
           "Yes: the search index is built lazily on the first query, so the cache warmup on startup only delays "
           "the start. Dropping the warmup and loading the index lazily is safe."),
          ("Do you want the retry limit for uploads kept at five attempts, or made configurable per bucket?",
           "what does the uploader do after the last retry, fail the whole batch?",
           "After the last retry the uploader fails only that file. With retry attempts configurable per bucket, "
           "a flaky bucket can get more attempts while the limit stays five elsewhere.")]


@EXAMPLES
@given(agent=FORMATS, topic=st.sampled_from(TOPICS), work=st.sampled_from(WORKS),
       other=st.sampled_from(["could this also explain the slow tests?", "how long does the build take now?"]))
def test_a_question_the_discussion_took_up_is_not_left_unanswered(agent: str, topic: tuple[str, str, str],
                                                                  work: Work, other: str) -> None:
    """The user's reply asked about the question's own subject and the agent's answers since came back to it: the
    discussion settled it there; a reply about something else leaves it waiting."""
    asked, follow_up, answer = topic
    start = [Ask(work.request), Run(f"cat {work.path}", "old\n"), Say(f"I looked at {work.path}. {asked}")]
    steps = _next([*start, Ask(follow_up), Say(answer)], agent)
    assert "Still unanswered" not in steps
    steps = _next([*start, Ask(other), Say("Not likely: the tests do not touch that code.")], agent)
    assert "Still unanswered" in steps and asked in steps
