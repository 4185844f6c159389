"""The work the agent's closing answer says is still to do is the next step, though the request reads done
(steps.py, state.py): "Remaining: …", "What's left: …", "TODO: …", and the same in the languages agents answer in
("Falta atualizar …", "Il reste à …", "Nächste Schritte: …", "残りは…", "下一步：…"). A short request does not
hide it: the step shares "the" and a noun with "refactor the parser", which is no saying the request again.
Near misses are no step: "nothing left", "Remaining: none", "a falta de" (a lack, not work to do), a TODO removed."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

_DONE_STEP = "The last request is done: wait for the user's next request."


def _next(request: str, closing: str) -> list[str]:
    """Next Steps after ``request``, an edit, and the agent's closing answer (a result, then ``closing``)."""
    messages = [user(request), assistant(call("e1", "edit", path="src/parser.py", oldText="a", newText="b")),
                result("e1", "edit", "Edited."),
                assistant(f"I split `parse()` into `tokenize()` and `build_tree()`. {closing}")]
    return items(summarize(messages), "## Next Steps")


@pytest.mark.parametrize("closing, named", [
    ("Remaining: update `docs/parser.md` and the CLI's `--dump` flag to the new names.", "docs/parser.md"),
    ("Next step: update `docs/parser.md` to the new names.", "docs/parser.md"),
    ("What's left: renaming the `--dump` flag.", "--dump"),
    ("TODO: update `docs/parser.md`.", "docs/parser.md"),
    ("Not done yet: the `--dump` flag still uses the old names.", "--dump"),
    ("Falta atualizar o `docs/parser.md` com os novos nomes.", "docs/parser.md"),
    ("Próximo paso: actualizar `docs/parser.md`.", "docs/parser.md"),
    ("Il reste à mettre à jour `docs/parser.md`.", "docs/parser.md"),
    ("Nächste Schritte: `docs/parser.md` anpassen.", "docs/parser.md"),
    ("残りは `docs/parser.md` の更新です。", "docs/parser.md"),
    ("下一步：更新 `docs/parser.md`。", "docs/parser.md"),
])
@pytest.mark.parametrize("request_text", ["refactor the parser", "split the parser into tokenizer and tree builder"])
def test_what_the_closing_answer_leaves_is_the_next_step(request_text: str, closing: str, named: str) -> None:
    steps = _next(request_text, closing)
    assert any(named in step for step in steps), steps
    assert _DONE_STEP not in steps


@pytest.mark.parametrize("closing", [
    "Nothing left to do.",
    "Remaining: nothing.",
    "All 42 tests pass; nothing remaining.",
    "A falta de validação causava o erro; agora o `parse()` valida a entrada.",
    "La falta de un índice era la causa.",
    "Removed the stale TODO comment in `parse()`.",
])
def test_a_closing_answer_that_leaves_nothing_names_no_step(closing: str) -> None:
    assert _next("refactor the parser", closing) == [_DONE_STEP]


def test_a_step_that_says_the_request_again_is_still_no_step() -> None:
    """The guard the short-request fix keeps: "Next steps" that repeat the finished request are the answer."""
    steps = _next("update the README with the new flag", "Next step: update the README with the new flag ✅")
    assert steps == [_DONE_STEP]
