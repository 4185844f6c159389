"""The skills the agent loaded are named among the rules: the next agent loads them again to go on the same way."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.skills import SKILLS_LABEL, loaded_skills, skills_item

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

SKILL_NAMES = st.lists(st.from_regex(r"[a-z]{3,8}-[a-z]{3,8}", fullmatch=True), min_size=1, max_size=4, unique=True)
FOLDERS = st.sampled_from(["/home/ana/.agent/skills/{}", "C:\\Users\\ana\\.claude\\skills\\{}",
                           "/opt/plugins/cache/kit/2.0.1/skills/{}"])


def _loaded(name: str, folder: str, n: int, plugin: str = "") -> list[dict]:
    """A skill as a harness loads it: the tool's answer, then the skill's text in a message of its own."""
    text = f"Base directory for this skill: {folder.format(name)}\n\n# Title of {name}\n\n- Always run the linter first."
    return [assistant(call(f"s{n}", "Skill", skill=f"{plugin}{name}")),
            result(f"s{n}", "Skill", f"Launching skill: {plugin}{name}"),
            {"role": "custom", "customType": "meta", "content": [{"type": "text", "text": text}], "display": False}]


@EXAMPLES
@given(names=SKILL_NAMES, folder=FOLDERS, plugin=st.sampled_from(["", "kit:"]))
def test_each_skill_loaded_is_named_once_in_the_order_loaded(names: list[str], folder: str, plugin: str) -> None:
    messages = [user("Please tidy the importer module and keep its tests green.")]
    for n, name in enumerate(names + names[:1]):  # the first loaded again later
        messages += _loaded(name, folder, n, plugin)
    assert list(loaded_skills(messages)) == names
    text = summarize(messages + [assistant("Tidied the importer; its tests pass.")])
    rule = next(item for item in items(text, "## Constraints & Preferences") if item.startswith(SKILLS_LABEL))
    assert rule == f"{SKILLS_LABEL} " + ", ".join(f"`{name}`" for name in names)


@pytest.mark.parametrize("messages", [
    [result("r1", "read", "# Deploy skill\n\nLaunching skill: nothing here", )],  # a file that mentions it
    [result("s1", "Skill", "Launching skill: data-export", error=True)],  # the harness could not load it
    [assistant("Launching skill: data-export is what I would do next.")],  # the agent's own words
    [user("Base directory for this skill: is a phrase I saw in the docs")],  # no folder named
])
def test_only_a_skill_the_harness_loaded_counts(messages: list[dict]) -> None:
    assert skills_item(messages) == ""


def test_a_user_message_that_opens_like_the_tools_answer_loads_nothing() -> None:
    assert skills_item([user("Launching skill: data-export — is that what you meant?")]) == ""
