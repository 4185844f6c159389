"""What the agent found and what its finished turn left, said in the user's language (findings.py, progress.py):
a conclusion opened as agents open one in Portuguese, Spanish, French, German, Japanese, Korean or Chinese is under
"What the agent found out", cut before what the agent will do next; a completion report's result sentence is Done,
as the same session in English gives them."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.findings import findings

from ..messages import assistant, bash_fail, call, result, user
from .test_classes import summarize
from .test_offline import items, section

# language: (request, finding, what the agent does next, the report's result sentence)
SAID = {
    "en": ("Show the week's workouts on the home screen.",
           "Found the problem: HomeView never queries the WorkoutHistoryRepository.",
           "Let me add the query.", "The weekly history shows on HomeView and all tests pass."),
    "pt": ("Mostre os treinos da semana na tela inicial.",
           "Encontrei o problema: a HomeView não consulta o WorkoutHistoryRepository.",
           "Vou adicionar a consulta.", "O histórico semanal aparece na HomeView e todos os testes passam."),
    "es": ("Muestra los entrenamientos de la semana en la pantalla principal.",
           "El problema es que HomeView nunca consulta el WorkoutHistoryRepository.",
           "Voy a añadir la consulta.", "El historial semanal ahora aparece en HomeView y las pruebas pasan."),
    "fr": ("Affiche les séances de la semaine sur l'écran d'accueil.",
           "Le problème vient de HomeView, qui n'interroge jamais le WorkoutHistoryRepository.",
           "Je vais ajouter la requête.", "L'historique de la semaine est désormais affiché et les tests passent."),
    "de": ("Zeige die Trainings der Woche auf dem Startbildschirm.",
           "Das Problem ist, dass HomeView das WorkoutHistoryRepository nie abfragt.",
           "Ich werde die Abfrage hinzufügen.", "Der Wochenverlauf wird jetzt in HomeView angezeigt, alle Tests bestehen."),
    "ja": ("ホーム画面に今週のトレーニングを表示してください。",
           "原因はHomeViewがWorkoutHistoryRepositoryを参照していないことです。",
           "クエリを追加します。", "HomeViewに週間履歴を追加し、全テスト通過しました。"),
    "ko": ("홈 화면에 이번 주 운동 기록을 보여 주세요.",
           "원인은 HomeView가 WorkoutHistoryRepository를 조회하지 않는 것입니다.",
           "쿼리를 추가하겠습니다.", "HomeView에 주간 기록을 추가했고 모든 테스트가 통과했습니다."),
    "zh": ("在首页显示本周的训练记录。",
           "问题在于HomeView从不查询WorkoutHistoryRepository。",
           "让我添加查询。", "已在HomeView中新增每周记录，所有测试通过。"),
}


def _session(language: str) -> list[dict]:
    request, finding, next_move, reported = SAID[language]
    path = "App/HomeView.swift"
    return [user(request), assistant(call("r1", "read", path=path)), result("r1", "read", "struct HomeView {}"),
            assistant(f"{finding}\n{next_move}", call("e1", "edit", path=path, oldText="a", newText="b")),
            result("e1", "edit", "ok"),
            assistant(call("b1", "bash", command="swift test")), result("b1", "bash", bash_fail("1 failure", 1),
                                                                              error=True),
            assistant(call("e2", "edit", path=path, oldText="b", newText="c")), result("e2", "edit", "ok"),
            assistant(call("b2", "bash", command="swift test")), result("b2", "bash", "All tests passed"),
            assistant(reported)]


@pytest.mark.parametrize("language", sorted(SAID))
def test_a_conclusion_in_the_users_language_is_a_finding_cut_before_the_next_move(language) -> None:
    _, finding, next_move, _ = SAID[language]
    assert findings([f"{finding}\n{next_move}"]) == [finding]


@pytest.mark.parametrize("language", sorted(SAID))
def test_a_finished_turns_result_in_the_users_language_is_done(language) -> None:
    text = summarize(_session(language))
    assert any(item.startswith(SAID[language][3]) for item in items(text, "### Done"))


@pytest.mark.parametrize("language", sorted(SAID))
def test_the_finding_reaches_the_summary(language) -> None:
    text = summarize(_session(language))
    assert any(SAID[language][1] in line for line in section(text, "## Critical Context"))


@pytest.mark.parametrize("sentence", [
    "A problem was reported by the linter.",  # English: no opening of a conclusion
    "Vou verificar o arquivo.",  # an announcement, not a conclusion
    "問題ありません。",  # "no problem": not 問題は / 問題が
])
def test_other_sentences_are_no_findings(sentence) -> None:
    assert findings([sentence]) == []
