"""Files a region's commit took in although no tool of the region changed them (edited before it, or by a command):
named, since the next agent looks for the work there."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.details import STAGED_LABEL

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_details import CWD

PATHS = st.lists(st.sampled_from(["src/parser/lexer.py", "docs/grammar.md", "web/app/routes.tsx", "cmd/tool/main.go",
                                  "Makefile.inc", "tests/test_lexer.py"]), min_size=1, max_size=4, unique=True)
SHAPES = st.sampled_from(["git add {} && git commit -m 'Parser work'", "cd /home/dev/project && git add {}",
                          "git -C /home/dev/project add -- {}; git status"])


def _commit(command: str, *, failed: bool = False, edited: str = "") -> list[dict]:
    messages = [user("Commit the parser work we did yesterday, please.")]
    if edited:
        messages += [assistant(call("e1", "edit", path=f"{CWD}/{edited}", oldText="a = 1", newText="a = 2")),
                     result("e1", "edit", "Edited.")]
    output = bash_fail("fatal: pathspec did not match any files", 128) if failed else "[main 1a2b3c4] Parser work"
    return messages + [assistant(call("b1", "bash", command=command)), result("b1", "bash", output, error=failed),
                       assistant("Committed the parser work as `1a2b3c4`.")]


def _staged(text: str) -> str:
    return next((line for line in text.splitlines() if STAGED_LABEL in line), "")


@EXAMPLES
@given(paths=PATHS, shape=SHAPES)
def test_each_file_a_commit_staged_by_name_is_named(paths: list[str], shape: str) -> None:
    line = _staged(summarize(_commit(shape.format(" ".join(paths))), metadata={"cwd": CWD}))
    assert all(f"`{path}`" in line for path in paths)


@pytest.mark.parametrize("command", ["git add -A && git commit -m 'all'", "git add . && git commit -m 'all'",
                                     "git add 'src/*.py' && git commit -m 'glob'", "git add -u"])
def test_a_commit_of_everything_names_no_file(command: str) -> None:
    assert _staged(summarize(_commit(command), metadata={"cwd": CWD})) == ""


def test_a_failed_add_and_a_file_the_region_changed_are_not_named() -> None:
    assert _staged(summarize(_commit("git add src/parser/lexer.py", failed=True), metadata={"cwd": CWD})) == ""
    text = summarize(_commit("git add src/parser/lexer.py docs/grammar.md", edited="src/parser/lexer.py"),
                     metadata={"cwd": CWD})
    assert "`docs/grammar.md`" in _staged(text) and "lexer.py" not in _staged(text)
