"""What Key Decisions does not hold (state.py): a row of a Markdown table the agent reported (a scorecard's "| Lake
Score | 6/6 … |" settles nothing, whatever words its cells use), and a lookup the user declined (a read, a listing
in the home folder) with nothing said or only a question asked; a declined lookup the user explained stays."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

REJECTED = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
            "edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell "
            "you how to proceed.")
SAID = ("The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, "
        "the new_string was NOT written to the file). To tell you how to proceed, the user said:\n")
REQUEST = "Update the exporter in src/export.py to write UTF-8 with a BOM for Excel users."


def test_a_table_row_is_no_decision() -> None:
    table = ("Here is the scorecard:\n\n| Criterion | Result |\n|---|---|\n"
             "| Lake Score | 6/6 — decided to keep the lake layout |\n| Cache | chose the LRU cache, 4/5 |\n\n"
             "I decided to use SQLite instead of JSON files because the data is relational.")
    text = summarize([user("Review the storage layer in src/store.py and score it against RUBRIC.md."),
                      assistant(call("r1", "read", path="src/store.py")), result("r1", "read", "x = 1"),
                      assistant(table)])
    assert items(text, "## Key Decisions") == [
        "I decided to use SQLite instead of JSON files because the data is relational."]


@pytest.mark.parametrize(("tool", "arguments"), [
    ("read", {"path": "/home/ann/.config/tool/config.toml"}),
    ("bash", {"command": "ls ~/.claude/skills/ && cat ~/.claude/settings.json"}),
])
@pytest.mark.parametrize("said", ["", "why do you need my config?"])
def test_a_declined_lookup_is_no_decision(tool: str, arguments: dict, said: str) -> None:
    refused = SAID + said if said else REJECTED
    messages = [user(REQUEST), assistant(call("r1", tool, **arguments)), result("r1", tool, refused, error=True)]
    messages += [assistant(call("e1", "edit", path="src/export.py", oldText="a", newText="b")),
                 result("e1", "edit", "Edited."), assistant("The exporter now writes UTF-8 with a BOM.")]
    assert not any("declined" in item for item in items(summarize(messages), "## Key Decisions"))


def test_a_declined_lookup_the_user_explained_stays() -> None:
    messages = [user(REQUEST), assistant(call("r1", "bash", command="ls ~/.claude/skills/exporter-old/")),
                result("r1", "bash", SAID + "exporter-old became exporter, nothing to port", error=True),
                assistant("Understood: I'll leave the skills alone.")]
    assert any("declined" in item and "exporter-old became exporter" in item
               for item in items(summarize(messages), "## Key Decisions"))


DECIDED = "I decided to use an LRU cache with a 1,000-entry bound instead of the unbounded dict, as the review asked."
UNDOES = [("git revert --no-edit HEAD", '[main 5d6e7f8] Revert "Review fixes: LRU cache"\n 1 file changed'),
          ("git reset --hard HEAD~1", "HEAD is now at 0f0f0f0 Earlier work"),
          ("git checkout -- src/cache.py", "Updated 1 path from the index")]


def _review_fixes(command: str, output: str, words: str) -> list[dict]:
    return [user("Apply the fixes from the review in REVIEW.md to the cache layer in src/cache.py."),
            assistant(DECIDED, call("e1", "edit", path="src/cache.py", oldText="a", newText="b")),
            result("e1", "edit", "Edited."), assistant(call("c1", "bash", command='git commit -am "Review fixes: LRU cache"')),
            result("c1", "bash", "[main 1a2b3c4] Review fixes: LRU cache\n 1 file changed"),
            assistant(call("u1", "bash", command=command)), result("u1", "bash", output), assistant(words)]


@pytest.mark.parametrize(("command", "output"), UNDOES)
def test_a_decision_the_agent_reverted_is_no_decision(command: str, output: str) -> None:
    words = "The LRU change broke the session tests, so I reverted it; the cache is the unbounded dict again."
    assert items(summarize(_review_fixes(command, output, words)), "## Key Decisions") == ["(none)"]


@pytest.mark.parametrize(("command", "output"), UNDOES)
def test_a_revert_of_other_work_leaves_the_decision(command: str, output: str) -> None:
    words = "I reverted the stray debug logging in the HTTP client; nothing else changed."
    assert items(summarize(_review_fixes(command, output, words)), "## Key Decisions") == [DECIDED]
