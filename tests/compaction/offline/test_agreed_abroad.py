"""A proposal the user accepted, in the languages agents answer their users in (rules.accepted_proposal): the agent
offers an action in a question ("Quer que eu remova o helper antigo?", "Soll ich die alte API entfernen?") and the
user's reply accepts it ("Sim", "Ja, bitte", "Claro", "Vas-y"): the action is agreed, as in English; in Japanese and Korean the action comes
before the asking words ("変更をコミットしますか？"), in Chinese after "要我". "Posso"/"puedo"
("I can") in a statement offers nothing."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.rules import accepted_proposal

AGREED = [
    ("Os testes passam. Quer que eu remova o helper antigo?", "Sim, pode remover.", "remova o helper antigo"),
    ("Los tests pasan. ¿Quieres que elimine el helper antiguo?", "Claro, adelante.", "elimine el helper antiguo"),
    ("Les tests passent. Veux-tu que je supprime l'ancien helper ?", "Oui, vas-y.", "supprime l'ancien helper"),
    ("Die Tests laufen. Soll ich die alte API entfernen?", "Ja, bitte.", "die alte API entfernen"),
    ("Tudo certo. Devo atualizar o CHANGELOG também?", "Beleza.", "atualizar o CHANGELOG também"),
    ("テストは全部通りました。変更をコミットしますか？", "はい、お願いします。", "変更をコミット"),  # the action before the asking
    ("모든 테스트가 통과했습니다. 변경 사항을 커밋할까요?", "네, 해주세요.", "변경 사항을 커밋"),
    ("测试都通过了。要我提交这些修改吗？", "好的", "提交这些修改"),
]


@pytest.mark.parametrize(("answer", "reply", "action"), AGREED)
def test_an_offer_the_user_accepts_is_agreed_in_any_language(answer, reply, action) -> None:
    assert accepted_proposal(answer, reply).startswith(action)


@pytest.mark.parametrize(("answer", "reply"), [
    ("Posso confirmar que os testes passam agora com a correção no parser.", "Sim, ótimo."),  # a statement: no offer
    ("Puedo ver que el build falla en la CI desde ayer por la tarde.", "Claro."),
    ("Quer que eu remova o helper antigo?", "Não, deixa como está."),  # refused
])
def test_no_offer_or_no_acceptance_agrees_nothing(answer, reply) -> None:
    assert accepted_proposal(answer, reply) == ""
