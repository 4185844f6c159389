"""An answered request is not the next step (steps.py): when the region ends on the agent's closing answer to the
latest request, what that answer lists as left as it is ("Remaining in `src/gen/`:" with files the agent did not
touch, "Not changed:", "Untracked (not mine):"), items it marks done, a sentence saying the work is done, or the
request's own words again, are the answer, not what comes next: the step is to wait for the user's next request.
A list the agent calls work still to do ("Remaining work:", "TODO:"), or a "Remaining:" list of actions, stays."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

REQUESTS = ["Commit the parser changes and update the README with the new verbose flag",
            "提交解析器的修改，并在 README 里写上新的 verbose 参数",
            "Committe die Parser-Änderungen und ergänze die README um das neue verbose-Flag"]
WAIT = "The last request is done: wait for the user's next request."
DONE = "Committed the parser changes as `a1b2c3d` and documented `--verbose` in the README."


def _session(style: str, request: str, answer: str) -> list[dict]:
    if style == "claude":
        edit = call("e", "Edit", file_path="src/parser/lex.py", old_string="a", new_string="b")
        run = call("b", "Bash", command="git commit -am 'parser'")
        tools = ("Edit", "Bash")
    else:
        edit = call("e", "edit", path="src/parser/lex.py", oldText="a", newText="b")
        run = call("b", "bash", command="git commit -am 'parser'")
        tools = ("edit", "bash")
    return [user(request), assistant(edit), result("e", tools[0], "Successfully replaced text."),
            assistant(run), result("b", tools[1], "[main a1b2c3d] parser"), assistant(answer)]


def _steps(style: str, request: str, answer: str) -> list[str]:
    return items(summarize(_session(style, request, answer)), "## Next Steps")


LEFT_AS_IS = [
    f"{DONE}\n\nRemaining in `src/gen/`:\n- `src/gen/schema.py`\n- `src/gen/types.py`\n\nThose are generated.",
    f"{DONE}\n\nRemaining:\n- `src/gen/schema.py` (generated)\n- `notes.txt`",
    f"{DONE}\n\nRemaining uncommitted files (not mine, left as they are):\n- `scratch.py`\n- `notes.txt`",
    f"{DONE}\n\n**Remaining untracked files** (another session's):\n1. `tmp/out.json`\n2. `tmp/log.txt`",
    f"{DONE}\n\nSkipped (left as is):\n- `tests/test_slow.py`\n- `tests/test_network.py`",
]


@pytest.mark.parametrize("answer", LEFT_AS_IS)
@pytest.mark.parametrize("request_text", REQUESTS)
@pytest.mark.parametrize("style", ["pi", "claude"])
def test_what_the_work_left_as_it_is_is_no_step(style: str, request_text: str, answer: str) -> None:
    assert _steps(style, request_text, answer) == [WAIT]


ANSWERED = [
    "Done.\n\nNext steps:\n- Commit the parser changes ✅\n- Update the README with the verbose flag ✅",
    "All set:\n\nRemaining:\n- [x] commit the parser changes\n- [x] document the verbose flag",
    f"{DONE} The remaining part, documenting the verbose flag in the README, is done too.",
]


@pytest.mark.parametrize("answer", ANSWERED)
@pytest.mark.parametrize("style", ["pi", "claude"])
def test_what_the_answer_reports_done_is_no_step(style: str, answer: str) -> None:
    assert _steps(style, REQUESTS[0], answer) == [WAIT]


def test_the_request_quoted_back_in_a_list_is_no_step() -> None:
    answer = f"{DONE}\n\nRemaining:\n- commit the parser changes\n- update the README with the new verbose flag"
    assert _steps("pi", REQUESTS[0], answer) == [WAIT]


STILL_TO_DO = [
    (f"{DONE}\n\nRemaining work:\n- Add tests for the new tokenizer\n- Update the changelog", "Add tests"),
    (f"{DONE}\n\nTODO:\n- `src/gen/schema.py`\n- `src/gen/types.py`", "src/gen/schema.py"),
    (f"{DONE}\n\nRemaining:\n- Add tests for the new tokenizer\n- Bump the version", "Bump the version"),
    (f"{DONE}\n\nRemaining in `src/parser/`:\n- `lex.py` — needs tests", "lex.py"),
    (f"{DONE}\n\nRemaining, unchanged:\n- Add caching to the lexer\n- Port the old tests", "Add caching"),
]


@pytest.mark.parametrize("answer, named", STILL_TO_DO)
@pytest.mark.parametrize("style", ["pi", "claude"])
def test_work_the_answer_says_is_left_stays_a_step(style: str, answer: str, named: str) -> None:
    steps = _steps(style, REQUESTS[0], answer)
    assert WAIT not in steps and any(named in step for step in steps)


def test_an_offer_the_answer_closes_on_stays_the_step() -> None:
    answer = f"{DONE} Let me know if you want me to also add the flag to the CLI help."
    assert _steps("pi", REQUESTS[0], answer) == ["Let me know if you want me to also add the flag to the CLI help."]


@pytest.mark.parametrize("sentence", ["Next step: tag `v2.1` now that the release branch is finished.",
                                      "Remaining: the changelog is done but the tag `v2.1` still needs pushing."])
def test_a_sentence_that_looks_ahead_stays_a_step(sentence: str) -> None:
    steps = _steps("pi", REQUESTS[0], f"{DONE} {sentence}")
    assert WAIT not in steps and any("v2.1" in step for step in steps)
