"""A choice said in a sentence, in the forms and languages agents write it (decided.py): reported with its verb of
deciding, as a course taken with its reason, or as a standing course; a step, a narration or a description of code
is no choice."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.decided import decisions_in

CHOICES = [
    ("ja", "SQLiteではなくPostgreSQLを使うことにしました。"),
    ("ja", "方針として、キャッシュはRedisに置くことにします。"),
    ("ja", "既存のAPIは維持し、新しいエンドポイントは追加しないことにしました。"),
    ("ko", "SQLite 대신 PostgreSQL을 사용하기로 했습니다."),
    ("ko", "캐시는 Redis에 두기로 결정했습니다."),
    ("ko", "기존 파서 대신 새 파서를 사용하겠습니다, 테스트가 더 빠르기 때문입니다."),
    ("zh", "我们决定改用 PostgreSQL，因为数据分布在多台机器上。"),
    ("pt", "Decidi usar PostgreSQL em vez de SQLite porque os dados ficam em várias máquinas."),
    ("pt", "Vamos manter a API atual em vez de criar uma nova."),
    ("pt", "Optei por guardar o cache no Redis, já que o processo reinicia com frequência."),
    ("es", "Decidí usar PostgreSQL en lugar de SQLite porque los datos están en varias máquinas."),
    ("es", "Vamos a mantener el formato actual, ya que otros clientes dependen de él."),
    ("de", "Ich habe mich entschieden, PostgreSQL statt SQLite zu verwenden, weil die Daten verteilt sind."),
    ("de", "Wir werden weiterhin das alte Schema verwenden, weil die Migration zu riskant ist."),
    ("fr", "J'ai décidé d'utiliser PostgreSQL plutôt que SQLite car les données sont réparties."),
    ("fr", "Je vais garder l'ancien format, parce que trois clients en dépendent."),
    ("en", "I'm keeping the old parser and adding a thin adapter over it, since three callers rely on its quirks."),
    ("en", "We're sticking with the retry helper rather than adding tenacity."),
    ("en", "I've switched the tests to the real database, as you asked, instead of mocks."),
    ("en", "Going forward, the cache lives in Redis so restarts don't lose it."),
    ("en", "Approach: wrap the client once instead of patching each caller."),
    ("en", "**Chosen approach**: one lock per repository, not a global one."),
]

NOT_CHOICES = [
    "Vou verificar o arquivo porque o teste falhou.",  # a step with its reason: no way taken over another
    "Voy a revisar el log porque el build falló.",
    "Ich werde die Datei lesen, weil der Test fehlschlägt.",
    "Je vais relancer les tests parce que le build a échoué.",
    "I'm keeping an eye on the logs since the job is slow.",
    "I'm keeping looking since the log is long.",
    "The function returns a list instead of a tuple.",  # describes code
    "Let me check the file since the test failed.",
    "## Approach",  # a heading
    "Approach:",  # a label whose content follows on the next line
    "I'll use grep to find the callers.",
]


@pytest.mark.parametrize(("language", "sentence"), CHOICES)
def test_a_choice_is_a_decision_in_any_language(language, sentence) -> None:
    assert decisions_in(sentence) == [sentence], language


@pytest.mark.parametrize("sentence", NOT_CHOICES)
def test_a_step_a_narration_or_a_description_is_no_decision(sentence) -> None:
    assert decisions_in(sentence) == []


def test_each_sentence_of_a_longer_text_is_judged_alone() -> None:
    text = ("Let me look at the config first. 方針として、設定はTOMLに統一することにしました。"
            "Then I'll run the tests.")
    assert decisions_in(text) == ["方針として、設定はTOMLに統一することにしました。"]
