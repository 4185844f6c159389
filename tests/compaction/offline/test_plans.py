"""open_plan_items: the checklist file the agent keeps, followed through writes, whole reads and edits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.plans import MAX_TEXT, open_plan_items

from ..messages import assistant, call, junk_messages, result, user
from ..pi_regions import pi_regions

PLAN = """# Plan

## Work packages
### WP1: Parser
- [ ] Write the tokenizer
- [ ] Verify with `make test`

### WP2: Printer
- [ ] Pretty printer

```bash
# Run it directly
- [ ] not a box: inside a fence
```

## Testing checklist
### CLI
- [ ] `tool --help`
"""


def write(call_id: str, text: str, path: str = "docs/plan.md") -> list[dict]:
    return [assistant(call(call_id, "write", path=path, content=text)), result(call_id, "write", "ok")]


def edit(call_id: str, old: str, new: str, *, error: bool = False, path: str = "docs/plan.md") -> list[dict]:
    return [assistant(call(call_id, "edit", path=path, oldText=old, newText=new)),
            result(call_id, "edit", "Could not find the text" if error else "Successfully replaced.", error=error)]


def tick(text: str) -> str:
    return text.replace("- [ ]", "- [x]")


def test_the_sections_with_unchecked_boxes_in_file_order() -> None:
    plan = open_plan_items([user("Plan it."), *write("w", PLAN)])
    assert plan is not None and plan.path == "docs/plan.md"
    assert plan.open == ("WP1: Parser", "WP2: Printer", "Testing checklist — CLI")  # the fenced "# Run" is no heading
    assert plan.checked == 0


def test_ticked_boxes_close_a_section_and_a_partly_ticked_one_says_how_far_it_is() -> None:
    messages = [*write("w", PLAN), *edit("e1", "- [ ] Write the tokenizer", "- [x] Write the tokenizer"),
                *edit("e2", "- [ ] Pretty printer", "- [x] Pretty printer")]
    plan = open_plan_items(messages)
    assert plan.open == ("WP1: Parser (1/2 done)", "Testing checklist — CLI")
    assert plan.checked == 2


def test_an_edit_that_failed_changes_nothing() -> None:
    messages = [*write("w", PLAN), *edit("e1", "- [ ] Pretty printer", "- [x] Pretty printer", error=True)]
    assert "WP2: Printer" in open_plan_items(messages).open


def test_an_edit_that_cannot_be_replayed_leaves_the_plan_unknown() -> None:
    # the file changed in a way the region does not show: no stale list is reported
    messages = [*write("w", PLAN), *edit("e1", "text that is not in the plan", "- [x] WP1")]
    assert open_plan_items(messages) is None


def test_a_whole_read_gives_the_text_a_partial_read_does_not() -> None:
    whole = [assistant(call("r", "read", path="docs/plan.md")), result("r", "read", PLAN),
             *edit("e1", "- [ ] Pretty printer", "- [x] Pretty printer")]
    assert open_plan_items(whole).open == ("WP1: Parser", "Testing checklist — CLI")
    partial = [assistant(call("r", "read", path="docs/plan.md", offset=40, limit=10)), result("r", "read", PLAN),
               *edit("e1", "- [ ] Pretty printer", "- [x] Pretty printer")]
    assert open_plan_items(partial) is None


def test_a_checklist_only_read_is_not_the_agents_plan() -> None:
    assert open_plan_items([assistant(call("r", "read", path="README.md")), result("r", "read", PLAN)]) is None


def test_the_plan_changed_last_wins() -> None:
    other = "# Todo\n- [ ] Ship it\n"
    messages = [*write("w1", PLAN), *write("w2", other, path="TODO.md"),
                *edit("e1", "- [ ] Pretty printer", "- [x] Pretty printer")]
    assert open_plan_items(messages).path == "docs/plan.md"
    assert open_plan_items(messages[:4]).open == ("Todo",)


@pytest.mark.parametrize(("done_text", "expected"), [
    ("WP1: Add the parser", ("WP2: Printer", "Testing checklist — CLI")),
    ("WP12: something else", ("WP1: Parser", "WP2: Printer", "Testing checklist — CLI")),  # not WP1
])
def test_a_section_committed_under_its_name_is_not_open(done_text: str, expected: tuple) -> None:
    assert open_plan_items(write("w", PLAN), done_text).open == expected


def test_edits_in_the_edits_list_form_are_replayed() -> None:
    messages = [*write("w", PLAN), assistant(call("m", "edit", path="docs/plan.md", edits=[
        {"oldText": "- [ ] Write the tokenizer", "newText": "- [x] Write the tokenizer"},
        {"old_string": "- [ ] Verify with", "new_string": "- [x] Verify with"}])), result("m", "edit", "ok")]
    assert open_plan_items(messages).open[0] == "WP2: Printer"


def test_a_file_too_large_to_be_a_plan_is_not_followed() -> None:
    assert open_plan_items(write("w", PLAN + "x" * MAX_TEXT)) is None


@given(junk_messages, st.text(max_size=50))
def test_junk_never_raises(messages: list, done_text: str) -> None:
    found = open_plan_items(messages, done_text)
    assert found is None or isinstance(found.open, tuple)


def test_pis_real_plan_at_its_first_compaction() -> None:
    """refactor.md, written at the start and ticked off work package by work package (WP1–WP13 done)."""
    plan = open_plan_items(pi_regions()["compaction1"].messages)
    assert plan.path.endswith("packages/coding-agent/docs/refactor.md")
    assert [item.split(":")[0] for item in plan.open[:6]] == ["WP14", "WP15", "WP16", "WP17", "WP19", "WP20"]
    assert not any(item.startswith(f"WP{n}:") for item in plan.open for n in range(1, 14))


def test_pis_real_plan_at_its_second_compaction_leaves_out_what_was_committed() -> None:
    region = pi_regions()["compaction2"]
    plan = open_plan_items(region.messages, "WP14: Create main-new.ts\nWP15: Create InteractiveMode")
    assert [item.split(":")[0] for item in plan.open[:3]] == ["WP17", "WP19", "WP20"]
