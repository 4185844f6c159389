"""The plan the agent wrote itself and the user approved (agent_plans.py) is carried as a pasted plan is: its title
and the choices of its approach sections under Key Decisions, its rules under Constraints, its parts not written
yet among the Next Steps. Built in several agents' forms: Claude Code's ``ExitPlanMode`` with the plan in its
``plan`` argument, a plan file written with ``Write`` (Claude Code) or ``write`` (pi) and approved in words. A plan
turned down is no plan in force; a later plan replaces an earlier one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.agent_plans import approved_plans, plan_in_force
from pi_compact.compaction.offline.sections import parse

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize

TITLES = st.sampled_from(["Queue uploads through a worker", "Cache the rendered thumbnails",
                          "Split the billing service"])
SLUG = {"Queue uploads through a worker": "uploads", "Cache the rendered thumbnails": "thumbs",
        "Split the billing service": "billing"}
PLAN_FILES = st.sampled_from(["PLAN.md", "docs/plans/{}.md", "/home/dev/.claude/plans/quiet-{}-otter.md",
                              "{}.plan.md"])
APPROVALS = st.sampled_from(["Looks good, go ahead.", "yes", "LGTM", "ok, proceed", "Sounds good — go for it."])
APPROVED_RESULTS = st.sampled_from(["User has approved your plan. You can now start coding.",
                                    "The user approved the plan.", "Plan accepted by the user."])


def _plan(title: str) -> str:
    slug = SLUG[title]
    return (f"# Plan: {title}\n\n## Context\n\nThe {slug} code never uses the database instead of the cache today.\n\n"
            f"## Approach\n\n- Use a SQLite table instead of JSON files for the {slug} records.\n"
            f"- Keep the old `{slug}_v1` endpoint behind the `--legacy-{slug}` flag.\n\n"
            f"## Constraints\n\n- Do not add new dependencies for the {slug} work.\n\n"
            f"## Files\n\n- `src/{slug}/store.py` — the table\n- `src/{slug}/api.py` — the endpoint\n"
            f"- `tests/test_{slug}_store.py` — tests\n")


def _write(tool: str, path: str, text: str, call_id: str = "w1") -> list[dict]:
    key = "file_path" if tool == "Write" else "path"
    return [assistant(call(call_id, tool, **{key: path, "content": text})),
            result(call_id, tool, f"Successfully wrote {len(text)} bytes to {path}")]


def _work(title: str) -> list[dict]:
    """The agent starts on the plan: one of its files written, the next under way."""
    slug = SLUG[title]
    return [assistant("Starting with the table.", call("e1", "Write", file_path=f"src/{slug}/store.py",
                                                       content="import sqlite3\n")),
            result("e1", "Write", "File created successfully"),
            assistant("Now the endpoint.", call("e2", "Write", file_path=f"src/{slug}/api.py", content="x = 1\n"))]


def _by_tool(title: str, answer: str) -> list[dict]:
    return [user(f"Plan how to {title.lower()} first."), assistant(call("p1", "ExitPlanMode", plan=_plan(title))),
            result("p1", "ExitPlanMode", answer)]


def _by_file(title: str, tool: str, path: str, reply: str) -> list[dict]:
    return [user(f"Write a plan to {title.lower()} before you change anything."),
            *_write(tool, path.format(SLUG[title]), _plan(title)),
            assistant(f"The plan is in {path.format(SLUG[title])}. Shall I go ahead?"), user(reply)]


def _carried(text: str, title: str) -> None:
    sections = parse(text)
    slug = SLUG[title]
    decisions = " | ".join(sections.items["decisions"])
    assert f"Plan approved by the user: {title}" in decisions, text
    assert "instead of JSON files" in decisions and f"--legacy-{slug}" in decisions, text
    assert any("Do not add new dependencies" in rule for rule in sections.items["constraints"]), text
    assert f"tests/test_{slug}_store.py" in " ".join(sections.items["next"]), text


def _not_carried(text: str, title: str) -> None:
    sections = parse(text)
    assert "approved" not in " ".join(sections.items["decisions"]), text
    assert "instead of JSON files" not in " ".join(sections.items["decisions"]), text
    assert not any("new dependencies" in rule for rule in sections.items["constraints"]), text
    assert f"tests/test_{SLUG[title]}_store.py" not in " ".join(sections.items["next"]), text


@EXAMPLES
@given(title=TITLES, answer=APPROVED_RESULTS)
def test_a_plan_approved_through_the_plan_tool_is_carried_as_a_pasted_plan(title: str, answer: str) -> None:
    _carried(summarize([*_by_tool(title, answer), *_work(title)]), title)


@EXAMPLES
@given(title=TITLES, tool=st.sampled_from(["Write", "write"]), path=PLAN_FILES, reply=APPROVALS)
def test_a_plan_file_the_user_approved_in_words_is_carried(title: str, tool: str, path: str, reply: str) -> None:
    text = summarize([*_by_file(title, tool, path, reply), *_work(title)])
    _carried(text, title)
    kept = path.format(SLUG[title]).replace("/home/dev/", "~/")  # (a home folder as `~/`)
    assert f"`{kept}`" in " ".join(parse(text).items["decisions"]), text  # where the plan is kept


@EXAMPLES
@given(title=TITLES)
def test_a_plan_turned_down_through_the_tool_is_not_the_plan_in_force(title: str) -> None:
    declined = "The user doesn't want to proceed with this tool use. The tool use was rejected."
    messages = [*_by_tool(title, declined), assistant("Understood, I will wait."), user("Let's talk it over later.")]
    _not_carried(summarize(messages), title)


@EXAMPLES
@given(title=TITLES, path=PLAN_FILES, reply=st.sampled_from(["no, keep the JSON files", "wait, what about Windows?",
                                                               "Not yet — I want to read it first."]))
def test_a_plan_file_the_user_refused_is_not_the_plan_in_force(title: str, path: str, reply: str) -> None:
    messages = _by_file(title, "Write", path, reply)
    assert approved_plans(messages) == []
    _not_carried(summarize([*messages, assistant("Understood.")]), title)


def test_a_plan_file_the_agent_went_on_from_unasked_is_not_approved_by_a_later_yes() -> None:
    messages = [user("Cache the rendered thumbnails."), *_write("Write", "PLAN.md", _plan("Cache the rendered thumbnails")),
                *_write("Write", "src/thumbs/store.py", "import sqlite3\n", "w2"),
                assistant("Shall I also write the endpoint?"), user("yes")]
    assert approved_plans(messages) == []


def test_a_later_plan_replaces_an_earlier_one() -> None:
    first, second = _plan("Cache the rendered thumbnails"), _plan("Split the billing service")
    messages = [user("Plan the thumbnails cache."), assistant(call("p1", "ExitPlanMode", plan=first)),
                result("p1", "ExitPlanMode", "User has approved your plan."),
                assistant("Before I start: the billing split blocks this."), user("Then plan the billing split."),
                assistant(call("p2", "ExitPlanMode", plan=second)),
                result("p2", "ExitPlanMode", "User has approved your plan."), *_work("Split the billing service")]
    force = plan_in_force(messages)
    assert force is not None and force.text == second
    decisions = " | ".join(parse(summarize(messages)).items["decisions"])
    assert "--legacy-billing" in decisions and "--legacy-thumbs" not in decisions, decisions


def test_a_plan_is_no_longer_in_force_once_the_user_sets_other_work() -> None:
    title = "Queue uploads through a worker"
    messages = [*_by_tool(title, "User has approved your plan."), *_work(title)[:2],
                user("Forget that for now and fix the flaky login test in tests/test_login.py instead."),
                assistant("Looking at the login test.", call("r1", "Read", file_path="tests/test_login.py"))]
    assert plan_in_force(messages) is None


def test_a_codex_task_list_is_no_plan_text() -> None:
    steps = [{"step": "Add the uploads table", "status": "in_progress"}, {"step": "Add tests", "status": "pending"}]
    messages = [user("Queue uploads through a worker."), assistant(call("u1", "update_plan", plan=steps)),
                result("u1", "update_plan", "Plan updated")]
    assert approved_plans(messages) == []


# -- a plan's approach sections state its choices -------------------------------------------------------------------

APPROACH_HEADINGS = st.sampled_from(["## Approach", "## Design", "### Decision", "## Proposed Solution",
                                     "## Architecture", "**Approach:**"])


@EXAMPLES
@given(heading=APPROACH_HEADINGS, lead=st.sampled_from(["Implement the following plan:\n\n", ""]))
def test_the_choices_under_a_plans_approach_heading_are_decisions(heading: str, lead: str) -> None:
    from pi_compact.compaction.offline.plan_points import plan_choices

    plan = (f"{lead}# Plan: Sessions in SQLite\n\n## Problem\n\nConcurrent writers never use a lock instead of "
            f"overwriting each other.\n\n{heading}\n\nWe will store sessions in SQLite rather than JSON files. "
            "It gives atomic writes and needs no server.\n\n- Keep the old JSON reader behind the `--legacy` flag.\n"
            "- The migration runs once at start-up.\n\n## Steps\n\n1. Add the store.\n2. Use it in the CLI.\n")
    found = plan_choices(plan)
    assert "We will store sessions in SQLite rather than JSON files." in found, found  # its first sentence only
    assert not any("atomic writes" in choice for choice in found), found
    if "ecision" not in heading:  # (a decisions list is rules.listed_decisions' to read)
        assert "Keep the old JSON reader behind the `--legacy` flag." in found, found
    assert not any("lock instead" in choice or "Add the store" in choice for choice in found), found  # problem, steps


def test_a_plans_approach_choices_are_few() -> None:
    from pi_compact.compaction.offline.plan_points import plan_choices

    items = "\n".join(f"- Use the `adapter_{n}` module instead of the old one for part {n}." for n in range(9))
    assert len(plan_choices(f"# Plan: Adapters\n\n## Approach\n\n{items}\n")) <= 3


def test_a_user_pasted_plans_approach_reaches_key_decisions() -> None:
    plan = ("Implement the following plan:\n\n# Plan: Sessions in SQLite\n\n## Approach\n\n"
            "- Keep the old JSON reader behind the `--legacy` flag.\n\n## Files\n\n- `src/store.py` — the store\n")
    text = summarize([user(plan), assistant("Starting.", call("e1", "Write", file_path="src/store.py", content="x\n"))])
    assert any("behind the `--legacy` flag" in item for item in parse(text).items["decisions"]), text


# -- checklist lines are tasks, not rules ---------------------------------------------------------------------------

BOXES = st.sampled_from(["- [ ] ", "- [x] ", "* [ ] ", "1. [ ] ", "  - [X] "])
RULE_WORDED = st.sampled_from(["Never log the access token", "Make sure all tests pass", "Always validate the input",
                               "Don't break the public API", "Must support Python 3.9", "Only touch files under src/"])


@EXAMPLES
@given(box=BOXES, task=RULE_WORDED, plan=st.booleans())
def test_a_checklist_line_is_no_constraint(box: str, task: str, plan: bool) -> None:
    from pi_compact.compaction.offline.facts import constraint_sentences

    head = "# Plan: Token handling\n\n## Constraints\n\n" if plan else "Please work through this:\n\n"
    text = f"{head}{box}{task}\n{box}add tests for the parser\n  with a wrapped second line that never ends\n"
    assert constraint_sentences(text) == [], constraint_sentences(text)
    assert constraint_sentences(f"{head}- {task}.\n")  # the same words as a plain item are still a rule


def test_a_plans_test_code_is_no_check_command() -> None:
    from pi_compact.compaction.offline.plan_left import plan_left

    plan = ("# Plan: diff\n\n## Files\n\n- `src/diff/lines.go`\n- `src/diff/lines_test.go`\n\n## Testing\n\n"
            "```go\nfunc TestDiffLines(t *testing.T) {\n```\n\n```bash\ngo test ./src/diff/...\n```\n")
    left = plan_left(plan, ["src/diff/lines.go"], [])
    assert "go test ./src/diff/..." in left and "func TestDiffLines" not in left, left


def test_an_unticked_box_naming_a_file_is_a_part_left_and_a_ticked_one_is_done() -> None:
    from pi_compact.compaction.offline.plan_left import plan_left

    plan = ("# Plan: parser\n\n## Files\n\n- [x] `src/parse/lexer.py` — done last week\n"
            "- [ ] `src/parse/parser.py` — the parser\n- [ ] `tests/test_parser.py` — tests\n")
    left = plan_left(plan, ["/repo/src/parse/parser.py"], [])
    assert "tests/test_parser.py" in left and "lexer.py" not in left, left


def test_an_approved_plans_approach_is_read_whatever_its_title() -> None:
    plan = "# Stream the CSV export\n\n## Approach\n\n- Use a server-side cursor instead of loading every row.\n"
    messages = [user("Plan the CSV export fix."), assistant(call("p1", "ExitPlanMode", plan=plan)),
                result("p1", "ExitPlanMode", "User has approved your plan."),
                assistant("Starting.", call("e1", "Edit", file_path="src/export.py", old_string="a", new_string="b"))]
    decisions = " | ".join(parse(summarize(messages)).items["decisions"])
    assert "server-side cursor instead of loading every row" in decisions, decisions


def test_labelled_steps_under_an_approach_heading_are_no_choices() -> None:
    from pi_compact.compaction.offline.plan_points import approach_choices

    plan = ("# Plan: Units\n\n## Approach\n\n- Identify candidates: query the rows where `unit IS NOT NULL`.\n"
            "- Batch call: send all candidates in a single call.\n- Reuse the existing `resolve()` helper instead of "
            "a new one.\n")
    assert approach_choices(plan) == ["Reuse the existing `resolve()` helper instead of a new one."]


def test_a_design_point_labelled_alike_under_each_part_is_said_once() -> None:
    from pi_compact.compaction.offline.plan_points import plan_choices

    plan = "# Plan: Fixers\n\n" + "".join(f"### Part {n}\n\n**Reusable Pattern**: Based on `part_{n}.py` pattern.\n\n"
                                          for n in range(4))
    assert [choice for choice in plan_choices(plan) if "Reusable Pattern" in choice] == [
        "Reusable Pattern: Based on `part_0.py` pattern."], plan_choices(plan)


def test_an_answer_with_a_design_heading_is_no_plan_handed_over() -> None:
    from pi_compact.compaction.offline.plan_points import plan_choices

    answer = ("Here is what I found.\n\n## Design\n\n- The cache uses a single lock instead of one per key.\n"
              "- Does this scope look complete?\n")
    assert plan_choices(answer) == []
