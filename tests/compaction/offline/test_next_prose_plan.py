"""A plan the agent states in its own words (a list under "I'll need to:", or "I'll: 1. …, 2. …" in a sentence), not
through a task tool, then carries out in part before the region ends: the parts no later edit, command or word of
the agent's shows done are the next steps, and the step says which parts are done (:mod:`.prose_plan`). Edits in
the three agents' formats (pi ``edit``, Claude Code ``Edit``, Codex ``apply_patch``)."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

EDITS = {
    "pi": lambda path: ("edit", {"path": path, "oldText": "pass", "newText": "return 1"}),
    "claude": lambda path: ("Edit", {"file_path": path, "old_string": "pass", "new_string": "return 1"}),
    "codex": lambda path: ("apply_patch", {"input": f"*** Begin Patch\n*** Update File: {path}\n@@\n-pass\n"
                                                   f"+return 1\n*** End Patch"}),
}
PARTS = [("add the debug payload per row in `server/rows.py`", "server/rows.py"),
         ("mark code blocks in `server/render.py`", "server/render.py"),
         ("expand the session state in `server/state.py`", "server/state.py"),
         ("emit SessionLive/SubagentLive events from `server/events.py`", "server/events.py"),
         ("update `static/app.js` and `static/spotter.css`", "static/app.js")]


def _plan(style: str, parts: list[str]) -> str:
    if style == "inline":
        return "Got it. I'll: " + ", ".join(f"{n + 1}. {part}" for n, part in enumerate(parts)) + "."
    marker = (lambda n: f"{n + 1}.") if style == "numbered" else (lambda n: "-")
    return "Got it. Let me build the live view. I'll need to:\n" + "\n".join(
        f"{marker(n)} {part[:1].upper() + part[1:]}" for n, part in enumerate(parts))


def _session(agent: str, style: str, count: int, done: int) -> list[dict]:
    parts = PARTS[:count]
    messages = [user("add a live view of the sessions and sub-agents to the spotter page"),
                assistant(_plan(style, [text for text, _ in parts]))]
    for number, (_, path) in enumerate(parts[:done]):
        tool, arguments = EDITS[agent](path)
        messages += [assistant(f"Now `{path}`.", call(f"e{number}", tool, **arguments)),
                     result(f"e{number}", tool, f"Edited {path}.")]
    if not done:  # the region ends on the first call after the plan, before any part is done
        tool, arguments = EDITS[agent]("README.md")
        messages += [assistant(call("look", tool, **arguments)), result("look", tool, "Edited README.md.")]
    return messages


def _left_step(messages: list[dict]) -> str:
    steps = items(summarize(messages), "## Next Steps")
    found = [step for step in steps if step.startswith("Left of the plan the agent stated")]
    assert len(found) == 1, steps
    return found[0]


@pytest.mark.parametrize("agent", sorted(EDITS))
@pytest.mark.parametrize("style", ["numbered", "bullets", "inline"])
@pytest.mark.parametrize("count, done", [(3, 0), (3, 1), (3, 2), (4, 1), (5, 3), (5, 4)])
def test_the_parts_of_a_prose_plan_no_later_call_shows_done_are_the_next_steps(
        agent: str, style: str, count: int, done: int) -> None:
    step = _left_step(_session(agent, style, count, done))
    left, _, so_far = step.partition("; done so far:")
    for text, path in PARTS[done:count]:
        assert path.rsplit("/", 1)[-1] in left, step
    for text, path in PARTS[:done]:
        assert path not in left and path in so_far, step


@pytest.mark.parametrize("agent", sorted(EDITS))
def test_a_prose_plan_carried_out_whole_leaves_no_step(agent: str) -> None:
    steps = items(summarize(_session(agent, "numbered", 3, 3)), "## Next Steps")
    assert not any(step.startswith("Left of the plan") for step in steps), steps


def test_words_that_describe_the_code_are_no_plan_of_the_agents() -> None:
    messages = [user("add a live view of the sessions and sub-agents to the spotter page"),
                assistant("The bootstrap handler needs to:\n1. read `server/rows.py`\n2. call `server/state.py`\n"
                          "3. write `server/events.py`"),
                assistant(call("e0", "edit", path="server/rows.py", oldText="pass", newText="return 1")),
                result("e0", "edit", "Edited server/rows.py.")]
    steps = items(summarize(messages), "## Next Steps")
    assert not any(step.startswith("Left of the plan") for step in steps), steps
