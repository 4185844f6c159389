"""The goal's "now" (goal.py, summary.py): when a plan or a request is finished and committed and the user goes on
to the next piece of work, the goal says so, whatever the length or the language of the request that moved on."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.goal import sets_work, task_goal, word_count

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

PLAN = ("Implement the following plan:\n\n# Phase 29: CSV export of the reports\n\n## Steps\n"
        "1. Add the exporter in src/export.py\n2. Test it in tests/test_export.py\n")
NEXT = st.sampled_from(["go on with phase 30", "continue with the next phase", "Passe à la phase suivante",
                        "次のフェーズに進んでください", "进入下一个阶段吧"])


def _edited(path: str, words: str) -> list[dict]:
    block = call(f"e-{path}", "edit", path=path, oldText="a", newText="b")
    return [assistant(block), result(f"e-{path}", "edit", "Edited."), assistant(words)]


def _committed(subject: str, answer: str) -> list[dict]:
    block = call("c-" + subject, "bash", command=f'git commit -am "{subject}"')
    return [assistant(block), result("c-" + subject, "bash", f"[main 1a2b3c4] {subject}\n 2 files changed"),
            assistant(answer)]


def _plan_finished(answer: str = "Phase 29 is done: the exporter and its tests are committed.") -> list[dict]:
    return [user(PLAN), *_edited("src/export.py", "Added the exporter."), *_committed("Phase 29: CSV export", answer)]


def _goal(messages: list[dict]) -> tuple[str, str]:
    goal = items(summarize(messages), "## Goal")
    assert len(goal) == 1
    base, _, now = goal[0].partition(" — now: ")
    return base, now


@EXAMPLES
@given(request=NEXT)
def test_a_short_request_after_a_finished_plan_is_the_objective_now(request: str) -> None:
    base, now = _goal([*_plan_finished(), user(request), *_edited("src/pdf.py", "Started the next phase.")])
    assert now == request
    assert base == "Implement the plan “Phase 29: CSV export of the reports” (done and committed)"


@EXAMPLES
@given(request=NEXT)
def test_the_short_request_is_the_objective_now_over_the_longer_one_before_it(request: str) -> None:
    stated = "Now review the exporter with two reviewers and write down what they find."
    messages = [*_plan_finished(), user(stated), *_edited("REVIEW.md", "Both reviews are in REVIEW.md."),
                user(request), *_edited("src/pdf.py", "Started the next phase.")]
    assert _goal(messages)[1] == request


@EXAMPLES
@given(reply=st.sampled_from(["yes", "はい", "oui", "yes, go ahead with phase 30 and the PDF export"]))
def test_a_yes_to_the_next_phase_the_agent_proposed_after_committing_is_the_objective_now(reply: str) -> None:
    asked = "Phase 29 is committed. Shall I add the PDF export of phase 30 next?"
    base, now = _goal([*_plan_finished(asked), user(reply), *_edited("src/pdf.py", "Started on the PDF export.")])
    assert base.endswith("(done and committed)") and "phase 30" in now and "PDF export" in now


@EXAMPLES
@given(request=st.sampled_from(["fix it up", "and the other one?", "もう一度やって"]))
def test_a_short_request_that_steers_unfinished_work_leaves_the_goal_as_it_was(request: str) -> None:
    failing = call("t", "bash", command="pytest -q")
    messages = [user(PLAN), *_edited("src/export.py", "Added the exporter."), assistant(failing),
                result("t", "bash", "1 failed, 3 passed\n\nCommand exited with code 1", error=True),
                assistant("The export test still fails; I will look into the encoding next."),
                user(request), *_edited("src/export.py", "Fixed the encoding.")]
    base, now = _goal(messages)
    assert base == "Implement the plan “Phase 29: CSV export of the reports”" and now != request


@EXAMPLES
@given(reply=st.sampled_from(["yes", "はい"]))
def test_a_yes_to_a_push_after_the_commit_moves_no_work_on(reply: str) -> None:
    push = call("p", "bash", command="git push origin main")
    messages = [*_plan_finished("Phase 29 is committed. Want me to push the branch to origin?"), user(reply),
                assistant(push), result("p", "bash", "To origin\n   1a2b3c4..5d6e7f8  main -> main"),
                assistant("Pushed.")]
    assert _goal(messages) == ("Implement the plan “Phase 29: CSV export of the reports”", "")


def test_a_remark_the_agent_did_nothing_about_is_not_the_objective_now() -> None:
    base, now = _goal([*_plan_finished(), user("that was a little while back :|")])
    assert base == "Implement the plan “Phase 29: CSV export of the reports”" and now == ""


def test_a_command_the_user_ran_last_is_the_objective_now() -> None:
    command = "<command-name>/team:review-pr</command-name>\n<command-args>42</command-args>"
    messages = [user("Add a --dry-run flag to the sync command so that nothing is written."),
                *_edited("src/sync.py", "Added the flag."), user(command),
                assistant(call("g", "bash", command="gh pr view 42")), result("g", "bash", "PR #42: open")]
    assert _goal(messages)[1] == "Run the command `/team:review-pr 42`"


@given(words=st.lists(st.from_regex(r"[A-Za-z][a-z]{0,9}", fullmatch=True), min_size=1, max_size=20),
       letters=st.text(alphabet="次のフェーズに進んでくださいを实现下一个阶段", min_size=0, max_size=40))
def test_words_are_counted_in_spaced_and_unspaced_scripts(words: list[str], letters: str) -> None:
    assert word_count(" ".join(words)) == len(words)
    assert word_count(f"{' '.join(words)} {letters}") == len(words) + len(letters) // 2


@pytest.mark.parametrize(("request_text", "work"), [
    ("现在我们把内容管理系统接入应用程序，训练列表从接口获取。", True),
    ("次のフェーズに進んで", False),
    ("Passe à la phase suivante", False),
    ("Agora vamos integrar o CMS no aplicativo com a API.", True),
])
def test_a_request_sets_work_by_its_length_in_words_in_any_script(request_text: str, work: bool) -> None:
    assert sets_work(request_text) is work


@pytest.mark.parametrize(("request_text", "goal"), [
    ("rebase with main. and then run `bun run verify`", "rebase with main. and then run `bun run verify`"),
    ("New branch.\nwe have a fixer skill\n\nlets run it on the skills",
     "New branch. we have a fixer skill lets run it on the skills"),
    ("brainstorm:\n- summarise each checkpoint\n- off by default", "brainstorm: - summarise each checkpoint"),
    ("Step 1: handle case 1. You must keep module_1 importable.", "Step 1: handle case 1."),
])
def test_an_opening_too_short_to_state_the_work_goes_on_into_what_follows(request_text: str, goal: str) -> None:
    assert task_goal(request_text) == goal


def test_a_question_the_agent_answered_gives_way_to_the_reply_that_set_the_work() -> None:
    question = "why does the build leave a compiled copy next to every source file in the repository?"
    reply = "yes please send them into a separate build folder instead"
    base, now = _goal([*_plan_finished(), user(question),
                       assistant("The compiler has no output folder set, so it writes next to the sources. "
                                 "Should I set one, or just delete the copies for now?"),
                       user(reply), *_edited("tsconfig.json", "The compiler now writes to build/.")])
    assert now == reply, now
