"""When the user questions findings the agent wrote up earlier in the region (steps.py), the next step keeps that
write-up in step: answer, and update the document if the answer changes what it says."""

from __future__ import annotations

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

ASK = "can you write a summary for the issue and the options into a md file so I can pick this up later?"
QUESTION = "but we also delete shadow branches, so how could the old one still be there?"


def _wrote(path: str, request: str) -> list[dict]:
    return [user(request), assistant(call("w1", "write", path=path, content="# Orphaned sessions\n")),
            result("w1", "write", "Written."), assistant(f"I've created `{path}` with the problem, the root cause and 3 options.")]


def _investigating() -> list[dict]:
    return [user(QUESTION), assistant("Good question. Let me check the session state files:"),
            assistant(call("b1", "bash", command="cat .git/sessions/*.json")), result("b1", "bash", "{}")]


def test_a_question_on_written_up_findings_keeps_the_write_up_in_step() -> None:
    steps = items(summarize([*_wrote("ISSUE-orphaned-sessions.md", ASK), *_investigating()]), "## Next Steps")
    assert any("ISSUE-orphaned-sessions.md" in step and "update" in step for step in steps)


def test_a_document_that_is_the_work_itself_is_no_write_up() -> None:
    steps = items(summarize([*_wrote("README.md", "rework our README to match the new design system"),
                             *_investigating()]), "## Next Steps")
    assert not any("README.md" in step for step in steps)
