"""A design discussion that ends on the agent's proposed code change (a code block or a diff it offers, handed back
for the user's word, no call applying it): the next step is to apply that change once the user agrees, named by
the agent's words, its code and the code names of the discussion — not a bare "wait" (:mod:`.proposed`). A block
shown beside the turn's own edits (pi ``edit``, Claude Code ``Edit``, Codex ``apply_patch``) is what was done; a
block of commands or output proposes no change to the code."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

_DONE_STEP = "The last request is done: wait for the user's next request."

EDITS = {
    "pi": lambda path: ("edit", {"path": path, "oldText": "return cached", "newText": "return fresh"}),
    "claude": lambda path: ("Edit", {"file_path": path, "old_string": "return cached", "new_string": "return fresh"}),
    "codex": lambda path: ("apply_patch", {"input": f"*** Begin Patch\n*** Update File: {path}\n@@\n-return cached\n"
                                                   f"+return fresh\n*** End Patch"}),
}
"""The three agents' file edits, as their sessions record them."""

BLOCKS = {
    "go": ("go", "if currentLines > state.CondensedLines {\n    hasNewContent = true\n} else {\n"
                 "    reuse(state.LastCheckpointID)\n}", "if currentLines > state.CondensedLines {"),
    "python": ("python", "def load(self, key):\n    if self._stale(key):\n        return self._fetch(key)\n"
                         "    return self._cache[key]", "def load(self, key):"),
    "diff": ("diff", "--- a/src/cache.ts\n+++ b/src/cache.ts\n@@ -3,2 +3,3 @@\n-  return cached;\n"
                     "+  if (isStale(entry)) return refetch(key);\n+  return cached;", "`src/cache.ts`"),
    "ts": ("ts", "export function load(key: string) {\n  const entry = cache.get(key);\n"
                 "  return isStale(entry) ? refetch(key) : entry;\n}", "export function load(key: string) {"),
}
LEADS = ["The better check is whether the entry went stale:", "So the fix would be to refetch stale entries:",
         "I'd change the lookup like this:"]
CLOSINGS = ["", "This way we check the source of truth instead of guessing from events.",
            "Does that match what you had in mind?"]
_DISCUSSION = [user("why do we serve a stale entry after the upstream changed? look at `CacheStore` and `loadEntry`"),
               assistant(call("r1", "read", path="src/cache.ts")),
               result("r1", "read", "export function load(key: string) {\n  return cache.get(key);\n}"),
               assistant("`loadEntry` trusts `CacheStore` blindly: nothing compares the entry's version, so "
                         "`CacheStore` keeps serving it."),
               user("ok but the version check is cheap, isn't it?")]


def _answer(block: str, lead: str, closing: str) -> str:
    language, code, _ = BLOCKS[block]
    return f"Right, it is cheap. {lead}\n\n```{language}\n{code}\n```\n\n{closing}".rstrip()


def _next(messages: list[dict]) -> list[str]:
    return items(summarize(messages), "## Next Steps")


def _proposes(answer: str) -> bool:
    return any(step.startswith("Apply the change the agent proposed") for step in _next([*_DISCUSSION,
                                                                                        assistant(answer)]))


@pytest.mark.parametrize("block", sorted(BLOCKS))
@pytest.mark.parametrize("lead", LEADS)
@pytest.mark.parametrize("closing", CLOSINGS)
def test_a_proposed_change_the_region_ends_on_is_the_step(block: str, lead: str, closing: str) -> None:
    steps = _next([*_DISCUSSION, assistant(_answer(block, lead, closing))])
    proposal = [step for step in steps if step.startswith("Apply the change the agent proposed last")]
    assert proposal, steps
    assert BLOCKS[block][2] in proposal[0] and "once the user agrees" in proposal[0]
    assert "`loadEntry`" in proposal[0] and "`CacheStore`" in proposal[0]  # what the discussion is about
    assert _DONE_STEP not in steps
    if closing.endswith("?"):  # the question is still waited on first
        assert steps[0].startswith("Wait for the user's answer")


@pytest.mark.parametrize("agent", sorted(EDITS))
@pytest.mark.parametrize("block", sorted(BLOCKS))
def test_a_block_beside_the_turns_own_edit_is_what_was_done(agent: str, block: str) -> None:
    tool, arguments = EDITS[agent]("src/cache.ts")
    steps = _next([*_DISCUSSION, assistant(call("e1", tool, **arguments)), result("e1", tool, "Edited src/cache.ts."),
                   assistant(_answer(block, LEADS[1], CLOSINGS[1]))])
    assert not any(step.startswith("Apply the change the agent proposed") for step in steps), steps


@pytest.mark.parametrize("language, body", [
    ("bash", "npm test -- cache\nnpm run lint"),
    ("text", "GET /items/3 -> 200 (stale)\nGET /items/3 -> 200 (stale)"),
    ("", "The entry is stale.\nThe upstream has version 4."),
])
def test_a_block_of_commands_or_output_is_no_proposed_change(language: str, body: str) -> None:
    answer = f"Right, it is cheap. You could check it like this:\n\n```{language}\n{body}\n```"
    assert not _proposes(answer)


def test_a_block_the_answer_reports_as_done_or_went_on_from_is_no_proposal() -> None:
    made = "I've changed the lookup like this:\n\n```ts\nexport function load(key: string) {\n  return x;\n}\n```"
    early = (f"It could look like this:\n\n```ts\nconst a = load(key);\n```\n\n"
             f"{'But the real cause is elsewhere. ' * 40}")
    for answer in (made, early):
        assert not _proposes(answer)


@pytest.mark.parametrize("block", sorted(BLOCKS))
@pytest.mark.parametrize("closing", CLOSINGS)
@pytest.mark.parametrize("go", ["ok, go ahead", "yes", "do it"])
def test_a_go_ahead_to_a_proposed_change_is_applying_it(block: str, closing: str, go: str) -> None:
    steps = _next([*_DISCUSSION, assistant(_answer(block, LEADS[2], closing)), user(go)])
    assert steps and steps[0].startswith("Apply the change the agent proposed last"), steps
    assert f"the user agreed (“{go}”)" in steps[0] and BLOCKS[block][2] in steps[0]
