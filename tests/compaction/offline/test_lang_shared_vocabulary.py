"""Decisions, lasting rules and done work said in Portuguese, Spanish, French, German, Japanese, Korean or Chinese
reach the offline summary's sections as the English forms do (issue 20): the modules read one vocabulary per
concept (:mod:`pi_compact.compaction.offline.languages`), so a concept is known in the same languages everywhere. A
question, a course weighed under "if", a quoted document and a result denied ("not yet") are none of them."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline import languages
from pi_compact.compaction.offline.progress import report

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

_WORK = "Add storage for the job results to the worker service."
_LAYOUTS = {
    "plain": "{}",
    "listed": "Resumo / Summary:\n\n- {}\n- `worker/store.py`",
    "after a heading": "## Storage\n\n{}",
}
"""How agents lay out the sentence: alone, as a list item under a line, under a Markdown heading."""


def _decisions(words: str) -> list[str]:
    return items(summarize([user(_WORK), assistant(words)]), "## Key Decisions")


@pytest.mark.parametrize("layout", _LAYOUTS)
@pytest.mark.parametrize("words", [
    "Usaremos SQLite en lugar de archivos JSON para los resultados del worker.",
    "Me quedo con SQLite en vez de archivos JSON para los resultados.",
    "On utilise SQLite au lieu de fichiers JSON pour les résultats du worker.",
    "J'ai choisi SQLite plutôt que des fichiers JSON pour les résultats.",
    "Wir nehmen SQLite statt JSON-Dateien für die Ergebnisse des Workers.",
    "Ich verwende SQLite statt JSON-Dateien für die Ergebnisse des Workers.",
    "JSONファイルではなくSQLiteを使います。",
    "結果の保存はSQLiteにしました。",
    "SQLiteで保存する方針で進めます。",
    "JSON 파일 대신 SQLite를 사용합니다.",
    "SQLite를 쓰기로 했습니다.",
    "我们使用 SQLite 而不是 JSON 文件来保存结果。",
    "决定用 SQLite 保存结果。",
])
def test_a_decision_in_any_language_is_a_key_decision(words: str, layout: str) -> None:
    found = _decisions(_LAYOUTS[layout].format(words))
    assert any(words in item for item in found), found


@pytest.mark.parametrize("words", [
    "Si decidimos usar SQLite en lugar de JSON, habrá que migrar los datos.",  # a condition weighs a course
    "もしSQLiteを使うことにしたら、移行が必要です。",
    "如果决定用 SQLite，就需要迁移旧的数据。",
    "結果の保存先はJSONファイルではなくSQLiteを使うことにしますか？",  # a question (a full-width mark) settles nothing
    "结果的存储决定改用 SQLite 而不是 JSON 文件吗？",
    "O README do projeto diz:\n\n> Decidimos usar SQLite em vez de arquivos JSON.",  # a quoted document
])
def test_a_question_a_condition_or_a_quote_is_no_decision(words: str) -> None:
    assert _decisions(words) == ["(none)"]


def _constraints(rule: str) -> list[str]:
    messages = [user(f"Add the export route. {rule}"),
                assistant(call("w", "write", path="src/app.py", content="def export(): ...")),
                result("w", "write", "ok"), assistant("Done, added the export route in `src/app.py`.")]
    return items(summarize(messages), "## Constraints & Preferences")


@pytest.mark.parametrize("rule", [
    "A partir de agora, rode os testes antes de cada commit.",  # from now on
    "Daqui pra frente não use mocks no banco.",
    "앞으로는 커밋 전에 테스트를 실행해 주세요.",
    "Certifique-se de rodar os testes antes de cada commit.",  # make sure
    "Asegúrate de ejecutar los tests antes de cada commit.",
    "Assure-toi de lancer les tests avant chaque commit.",
    "Stell sicher, dass die Tests vor jedem Commit laufen.",
    "커밋 전에 반드시 테스트를 실행하세요.",
    "Ne fais jamais de push direct sur main.",  # never, don't
    "Pushe nie direkt auf main.",
    "mainに直接プッシュしないでください。",
    "main에 직접 푸시하지 마세요.",
])
def test_a_rule_in_any_language_is_a_constraint(rule: str) -> None:
    assert rule in _constraints(rule)


@pytest.mark.parametrize("words", [
    "Devo sempre rodar os testes antes do commit?",
    "Se nunca rodarmos os testes, o CI quebra.",
    "このテストは必ず失敗します。",
    "Er pusht nie direkt auf main.",
    "O guia diz:\n\n```\nNunca faça push direto na main.\n```",
])
def test_a_question_a_condition_a_description_or_a_quote_is_no_rule(words: str) -> None:
    """Guards of the forms added (a verb then "nie", "必ず" in a clause that orders): these were no rules before."""
    assert _constraints(words) == ["(none)"]


@pytest.mark.parametrize("answer", [
    "Pronto! Adicionei a rota de exportação em `src/app.py`.",
    "Implementei a exportação em `src/app.py`.",
    "Listo: agregué la ruta de exportación en `src/app.py`.",
    "✅ 导出功能已完成",  # short: a character of an unspaced script says as much as two of English
])
def test_work_done_in_any_language_is_a_done_item(answer: str) -> None:
    messages = [user("Add the export route to the app."),
                assistant(call("w", "write", path="src/app.py", content="def export(): ...")),
                result("w", "write", "ok"), assistant(answer)]
    done = items(summarize(messages), "### Done")
    said = answer.split("! ", 1)[-1].split(": ", 1)[-1]
    assert any(said in item for item in done), done


@pytest.mark.parametrize("answer", ["Ainda não foi corrigido o teste de exportação.", "まだエクスポート機能を実装していません。",
                                    "还没有修复导出路由的问题，需要再看看。", "Der Export ist noch nicht implementiert."])
def test_a_result_denied_is_no_work_done(answer: str) -> None:
    assert report(answer, changed=("/work/src/app.py",)) == []


@pytest.mark.parametrize("concept", ["DECIDED", "COURSE", "INSTEAD", "BECAUSE", "HYPOTHETICAL", "FROM_NOW_ON",
                                     "RESULT", "NOT_YET"])
def test_each_concept_is_known_in_every_language_agents_answer_in(concept: str) -> None:
    forms = getattr(languages, concept)
    assert {"pt", "es", "fr", "de", "ja", "ko", "zh"} <= set(forms), concept


@pytest.mark.parametrize("reversal", [
    "pensando bem, melhor manter a job queue no sqlite, o redis dá trabalho demais",
    "pensándolo bien, mejor usa sqlite para la job queue, el redis es demasiado",
    "en fait, mets la job queue dans sqlite, le redis c'est trop lourd",
    "doch lieber sqlite für die job queue, redis ist zu viel Aufwand",
])
def test_an_agreed_way_the_user_reversed_in_any_language_is_history(reversal: str) -> None:
    edit = call("e1", "edit", path="src/jobs/queue.py", oldText="a", newText="b")
    messages = [user("add a background job queue for the exports"),
                assistant("Option 1: keep the job queue in redis with a worker process.\n"
                          "Option 2: keep the job queue in sqlite with a polling loop.\nWhich one should I do?"),
                user("option 1"), assistant("Going with redis for the job queue.", edit),
                result("e1", "edit", "Edited."), assistant("The redis job queue is in place in `src/jobs/queue.py`."),
                user(reversal), assistant(edit), result("e1", "edit", "Edited."),
                assistant("The job queue now uses sqlite.")]
    decisions = items(summarize(messages), "## Key Decisions")
    assert not any("redis" in d and not d.startswith("Was:") for d in decisions), decisions
