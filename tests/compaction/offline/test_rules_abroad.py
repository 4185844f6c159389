"""A rule opened by "always", "never" or "don't" in Portuguese, Spanish, French, German or Korean is a constraint,
as in English (facts.is_rule, rules.lasting); further into a sentence those words describe ("o app sempre mostra…")."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.facts import constraint_sentences
from pi_compact.compaction.offline.rules import lasting

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

RULES = [
    "Sempre use SwiftData para persistência.",
    "Nunca faça push direto na main.",
    "Não mexa nos arquivos de migração.",
    "Siempre usa pnpm para instalar dependencias.",
    "No toques el esquema de la base de datos.",
    "Ne modifie pas les migrations existantes.",
    "Toujours lancer les tests avant de committer.",
    "Bitte niemals direkt auf main pushen.",
    "Immer die bestehenden Tests laufen lassen.",
    "절대 main 브랜치에 직접 푸시하지 마세요.",
    "항상 한국어로 답변해 주세요.",
]

DESCRIPTIONS = [
    "O app sempre mostra a lista vazia.",
    "La función siempre devuelve null.",
    "Le build échoue toujours sur la CI.",
    "Der Test schlägt immer fehl.",
]


@pytest.mark.parametrize("rule", RULES)
def test_a_rule_opened_by_always_never_or_dont_is_a_constraint(rule) -> None:
    assert constraint_sentences(rule) == [rule]
    assert lasting(rule)


@pytest.mark.parametrize("sentence", DESCRIPTIONS)
def test_always_further_into_a_sentence_describes(sentence) -> None:
    assert constraint_sentences(sentence) == []


def test_a_rule_said_after_the_request_reaches_the_summary() -> None:
    messages = [user("Mostre o histórico da semana na tela inicial. Sempre use SwiftData, nunca Core Data."),
                assistant(call("w1", "write", path="App/History.swift", content="struct History {}")),
                result("w1", "write", "ok"), assistant("Pronto! O histórico aparece na tela inicial.")]
    constraints = items(summarize(messages), "## Constraints & Preferences")
    assert "Sempre use SwiftData" in constraints and "nunca Core Data." in constraints
