"""How a thing was settled without a word of choosing (settled_how.py, read by decided.py): the way a failure was
fixed, and a thing kept for a stage, in the forms and languages agents write them; a step said with "by", a thing
that stays of itself, a fix weighed or guessed is no decision."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.decided import decisions_in

_THINGS = ["`parse_criteria`", "the `RetryPolicy` wrapper", "`src/auth/session.ts`"]

_FIXES = [
    "I'll reduce the complexity by extracting the AND/OR handlers out of {thing}.",
    "Fixed the race in {thing} by holding the lock across the write.",
    "The flaky test in {thing} was fixed by pinning the seed.",
    "We worked around the timeout in {thing} by streaming the response in chunks.",
    "OK, I resolved the import cycle by moving {thing} into its own module.",
    "I fixed the lint error in {thing} by splitting the long lines.",
]

_KEPT = [
    "Keeping {thing} for Phase 1; it gets replaced once the encoder lands.",
    "We'll leave {thing} in place until the clients move to v2.",
    "Actually, I'm keeping {thing} for now and revisiting it in the next release.",
    "{thing} stays for now.",
    "{thing} stays as is for this PR.",
]

ABROAD = [
    ("pt", "Corrigi o erro extraindo a função `parse` para outro módulo."),
    ("pt", "Vou manter o `hero.png` por enquanto, até o codificador SVG ficar pronto."),
    ("es", "Corregí el fallo moviendo `parse_config` a su propio módulo."),
    ("es", "Voy a mantener el endpoint `v1` hasta que migren los clientes."),
    ("fr", "J'ai corrigé le test instable en fixant la graine dans `conftest.py`."),
    ("fr", "Je garde l'ancien `Parser` pour l'instant."),
    ("de", "Den Fehler in `parse.go` habe ich behoben, indem ich die Sperre länger halte."),
    ("de", "Wir behalten die alte `Config`-Klasse vorerst bei."),
    ("ja", "ハンドラーをヘルパー関数に切り出すことで修正しました。"),
    ("ja", "当面は旧APIを残します。"),
    ("zh", "通过把处理函数提取到辅助函数中修复了复杂度问题。"),
    ("zh", "暂时保留旧的 `parse` 接口。"),
    ("ko", "핸들러를 헬퍼 함수로 분리하여 해결했습니다."),
    ("ko", "당분간 기존 API를 유지합니다."),
]

NEAR_MISSES = [
    "Let me start by reading the config in `src/config.ts`.",  # a step said with "by"
    "I'll check the fix in `parse.go` by running the tests again.",
    "I'll verify the change by looking at `server.log`.",
    "The error in `cache.py` stays until the cache expires.",  # behaviour, no course
    "Maybe I could fix the race in `worker.go` by holding the lock longer.",  # a guess
    "If we fix `parse_criteria` by extracting helpers, the warning goes away.",  # weighed
    "Keep looking for now.",  # no thing kept
    "I'll keep it for now.",
    "Should `hero.png` stay for now?",  # a question
    "Let me fix the lint warning by using a pointer for `StartedAt`, or by using `omitzero` if available.",  # options
]


@pytest.mark.parametrize("template", _FIXES + _KEPT)
@pytest.mark.parametrize("thing", _THINGS)
def test_a_fix_with_its_way_or_a_thing_kept_for_a_stage_is_a_decision(template: str, thing: str):
    sentence = template.format(thing=thing)
    sentence = sentence[0].upper() + sentence[1:]
    assert decisions_in(f"Done with the first part.\n\n{sentence}\n\nNext I'll run the tests.") == [sentence]


@pytest.mark.parametrize(("language", "sentence"), ABROAD)
def test_the_same_in_other_languages(language: str, sentence: str):
    assert decisions_in(sentence) == [sentence], language


@pytest.mark.parametrize("sentence", NEAR_MISSES)
def test_a_step_a_behaviour_a_guess_or_a_question_is_no_decision(sentence: str):
    assert decisions_in(sentence) == []


@pytest.mark.parametrize(("text", "decision"), [
    ("Correction noted: `hero.png` is the default prompt. Keeping the PNG for Phase 1.",
     "Correction noted: `hero.png` is the default prompt. Keeping the PNG for Phase 1."),
    ("The old route lives in `routes/v1.ts`. We'll leave the old route until the clients move.",
     "The old route lives in `routes/v1.ts`. We'll leave the old route until the clients move."),
    # the thing is named in the sentence itself: it is read alone
    ("I read the file. Keeping `hero.png` for Phase 1.", "Keeping `hero.png` for Phase 1."),
    # the sentence before is on another line: another thought, not read with it
    ("`hero.png` is the default prompt.\nKeeping the PNG for Phase 1.", "Keeping the PNG for Phase 1."),
])
def test_a_thing_kept_under_a_common_noun_is_read_with_the_sentence_naming_it(text: str, decision: str):
    assert decisions_in(text) == [decision]


def test_the_fix_announced_as_the_next_move_is_a_decision():
    sentence = "Now fix the C901 complexity issues by extracting helper functions."
    assert decisions_in(sentence) == [sentence]
