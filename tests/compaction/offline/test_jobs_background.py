"""Work sent to the background (jobs.awaited, steps.py): when the agent launched sub-agents or commands in the
background and the region ends before they reported, the next step is to wait for and collect those reports,
naming what each was sent to do, then what the agent said it would do with them — not "the request is done"
nor the last command. A report that came back (a notice, an output call that got it) is no longer awaited; a
server started in the background is nothing to wait for."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.jobs import awaited

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

PRS = ["Review PR #12", "Review PR #13", "Review PR #14"]
REQUESTS = ["Review the three open PRs #12, #13 and #14 and merge the good ones",
            "审查三个打开的 PR #12、#13 和 #14，合并好的那些",
            "Prüfe die drei offenen PRs #12, #13 und #14 und merge die guten"]
CLOSING = "I've launched 3 agents to review the PRs. Once they report back I'll merge the ones that pass review."
LAUNCHED = ("Async agent launched successfully.\nagentId: {id} (internal ID - do not mention to user.)\n"
            "The agent is working in the background. You will be notified automatically when it completes.")


def _launches(flagged: bool = True) -> list[dict]:
    extra = {"run_in_background": True} if flagged else {}
    calls = [call(f"a{n}", "Task", description=title, prompt=f"{title}: read the diff and report.",
                  subagent_type="general-purpose", **extra) for n, title in enumerate(PRS)]
    return [assistant("I'll launch three agents in parallel.", *calls),
            *(result(f"a{n}", "Task", LAUNCHED.format(id=f"agent{n}x")) for n in range(len(PRS)))]


def _notice(n: int) -> dict:
    return user(f"<task-notification>\n<task-id>agent{n}x</task-id>\n<status>completed</status>\n"
                f"<summary>Agent \"{PRS[n]}\" completed</summary>\n<result>Verdict: APPROVE. No issues.</result>\n"
                f"</task-notification>")


def _steps(messages: list[dict]) -> list[str]:
    return items(summarize(messages), "## Next Steps")


@pytest.mark.parametrize("request_text", REQUESTS)
@pytest.mark.parametrize("flagged", [True, False])
def test_agents_not_back_are_waited_for_then_what_the_agent_said(request_text: str, flagged: bool) -> None:
    steps = _steps([user(request_text), *_launches(flagged), assistant(CLOSING)])
    assert steps[0].startswith("Wait for the background agents"), steps
    assert all(title in steps[0] for title in PRS) and "merge the ones that pass review" in steps[0]
    assert "The last request is done: wait for the user's next request." not in steps


def test_agents_that_reported_are_not_waited_for() -> None:
    messages = [user(REQUESTS[0]), *_launches(), assistant(CLOSING), _notice(0), _notice(1)]
    assert [(job.what, job.agent) for job in awaited(messages)] == [(PRS[2], True)]
    assert awaited([*messages, _notice(2)]) == []


def test_a_notice_that_names_the_agent_only_by_its_description_collects_it() -> None:
    notice = user(f'<task-notification>\n<status>completed</status>\n<summary>Agent "{PRS[1]}" completed</summary>'
                  f"\n<result>Done.</result>\n</task-notification>")
    assert [job.what for job in awaited([user(REQUESTS[0]), *_launches(), notice])] == [PRS[0], PRS[2]]


@pytest.mark.parametrize("output, waiting", [("<status>running</status>\nno output yet", True),
                                             ("<status>completed</status>\n12 passed in 3.1s", False)])
def test_an_output_call_collects_a_background_command_once_it_finished(output: str, waiting: bool) -> None:
    messages = [user("Run the slow test suite and fix what fails"),
                assistant(call("b", "Bash", command="pytest -q tests/slow", run_in_background=True)),
                result("b", "Bash", "Command running in background with ID: bash_7"),
                assistant(call("o", "BashOutput", bash_id="bash_7")), result("o", "BashOutput", output)]
    assert [(job.what, job.agent) for job in awaited(messages)] == ([("`pytest -q tests/slow`", False)] if waiting
                                                                    else [])


def test_a_background_command_is_waited_for_and_named() -> None:
    steps = _steps([user("Run the slow test suite and fix what fails"),
                    assistant(call("b", "Bash", command="pytest -q tests/slow", run_in_background=True)),
                    result("b", "Bash", "Command running in background with ID: bash_7"),
                    assistant("The suite runs in the background; when it finishes I'll fix the failures.")])
    assert steps[0].startswith("Wait for the background command `pytest -q tests/slow`"), steps
    assert "I'll fix the failures" in steps[0]


@pytest.mark.parametrize("command", ["npm run dev", "python -m http.server 8000", "docker compose up"])
def test_a_server_in_the_background_is_nothing_to_wait_for(command: str) -> None:
    messages = [user("Start the app so I can try it"),
                assistant(call("b", "Bash", command=command, run_in_background=True)),
                result("b", "Bash", "Command running in background with ID: bash_1")]
    assert awaited(messages) == []


def test_a_sub_agent_that_answered_in_its_call_is_not_awaited() -> None:
    messages = [user(REQUESTS[0]), assistant(call("a", "Task", description=PRS[0], prompt="Review it.",
                                                  subagent_type="general-purpose")),
                result("a", "Task", "Verdict: APPROVE. The change is small and tested; no issues found.")]
    assert awaited(messages) == []


def test_a_failed_launch_is_not_awaited() -> None:
    messages = [user(REQUESTS[0]), assistant(call("a", "Task", description=PRS[0], prompt="Review it.",
                                                  run_in_background=True)),
                result("a", "Task", "Agent type 'x' not found", error=True)]
    assert awaited(messages) == []


@pytest.mark.parametrize("answer, waits", [
    ("The README now lists the release steps.", False),
    ("The README now lists the release steps. Still waiting on the review agents before merging.", True),
])
def test_work_launched_before_a_later_request_is_waited_for_only_while_the_agent_says_so(answer: str,
                                                                                        waits: bool) -> None:
    steps = _steps([user(REQUESTS[0]), *_launches(), assistant(CLOSING), user("Meanwhile, add the release steps to "
                                                                               "the README"),
                    assistant(call("e", "edit", path="README.md", oldText="a", newText="b")),
                    result("e", "edit", "Successfully replaced text."), assistant(answer)])
    assert any(step.startswith("Wait for the background agents") for step in steps) is waits, steps


def test_a_sub_agent_whose_call_has_no_result_yet_is_awaited() -> None:
    messages = [user(REQUESTS[0]),
                assistant("Reviewing both in parallel.", *(call(f"a{n}", "Agent", description=PRS[n], prompt="Review.",
                                                                subagent_type="reviewer") for n in range(2))),
                result("a0", "Agent", "Verdict: APPROVE. The change is small and well tested; nothing to fix here.")]
    assert [job.what for job in awaited(messages)] == [PRS[1]]
    assert _steps(messages)[0].startswith("Wait for the background agent still running (“Review PR #13”)")


@pytest.mark.parametrize("reader", [{"name": "TaskOutput", "task_id": "b3b0f6f"},
                                    {"name": "Bash", "command": "tail -50 /tmp/tasks/b3b0f6f.output"}])
@pytest.mark.parametrize("output, waiting", [("<retrieval_status>timeout</retrieval_status>", True),
                                             ("<retrieval_status>success</retrieval_status>\n<status>failed</status>"
                                              "\n<exit_code>2</exit_code>", False)])
def test_reading_a_background_commands_output_collects_it_unless_it_is_not_ready(reader: dict, output: str,
                                                                                 waiting: bool) -> None:
    reader = dict(reader)
    name = reader.pop("name")
    messages = [user("Run the slow test suite and fix what fails"),
                assistant(call("b", "Bash", command="pytest -q tests/slow", run_in_background=True)),
                result("b", "Bash", "Command running in background with ID: b3b0f6f. Output is being written to: "
                                    "/tmp/tasks/b3b0f6f.output"),
                assistant(call("o", name, **reader)), result("o", name, output)]
    assert bool(awaited(messages)) is waiting
