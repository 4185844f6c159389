"""Work reported in the user's language (issue 20, classes 2 and 5): a turn that changed files and reported it done
in Japanese, Chinese, Korean, Portuguese, Spanish, French or German is Done, and its table of changes gives the
Done items, as an English report would; a request whose work ended on the agent's question is then "— done", not
an open request."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.progress import report
from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.state import DONE, region_state

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

REPORTS = {
    "ja": ("実装してください", "全テスト通過。実装完了です。", "ファイル", "変更内容", "`git_fetch_tracked()` 追加",
           "手動確認を先にしますか？", "確認方法教えて下さい"),
    "zh": ("请实现它", "已完成，所有测试通过。", "文件", "修改", "新增 `git_fetch_tracked()`", "要我提交吗？", "怎么验证？"),
    "ko": ("구현해 주세요", "구현했습니다. 모든 테스트 통과.", "파일", "변경", "`git_fetch_tracked()` 추가",
           "커밋할까요?", "어떻게 확인하나요?"),
    "pt": ("Implemente, por favor", "Pronto! Todos os testes passam.", "Arquivo", "Mudança",
           "nova função `git_fetch_tracked()`", "Quer que eu faça o commit?", "Como eu testo?"),
    "es": ("Impleméntalo, por favor", "Listo. Todas las pruebas pasan.", "Archivo", "Cambio",
           "nueva función `git_fetch_tracked()`", "¿Hago el commit?", "¿Cómo lo pruebo?"),
    "fr": ("Implémente-le", "Terminé : tous les tests passent.", "Fichier", "Changement",
           "nouvelle fonction `git_fetch_tracked()`", "Je fais le commit ?", "Comment je vérifie ?"),
    "de": ("Bitte implementieren", "Erledigt, alle Tests bestehen.", "Datei", "Änderung",
           "neue Funktion `git_fetch_tracked()`", "Soll ich committen?", "Wie prüfe ich das?"),
}


def _messages(language: str) -> list:
    ask, done, file_header, change_header, change, question, follow = REPORTS[language]
    answer = (f"{done}\n\n| {file_header} | {change_header} |\n|---|---|\n| `src/jj/executor.rs` | {change} |\n\n"
              f"{question}")
    return [user("Add a tracked-only fetch to the dialog."),
            assistant("Here is the plan: a new executor function, then the dialog option."),
            user(ask),
            assistant(call("e", "edit", path="src/jj/executor.rs", oldText="x", newText="pub fn git_fetch_tracked() {}")),
            result("e", "edit", "ok"),
            assistant(call("t", "bash", command="cargo test")), result("t", "bash", "test result: ok. 640 passed"),
            assistant(answer), user(follow)]


@pytest.mark.parametrize("language", REPORTS)
def test_work_reported_done_in_the_users_language_is_done(language: str) -> None:
    messages = _messages(language)
    state = region_state(messages, extract_facts(messages))
    asked = REPORTS[language][0]
    assert [turn.status for turn in state.turns if turn.request == asked] == [DONE]
    done = items(summarize(messages), "### Done")
    assert any("executor.rs" in item and "git_fetch_tracked" in item for item in done), done


@pytest.mark.parametrize("row", ["`src/jj/executor.rs`: `git_fetch_tracked()` 追加", "app/models.py: nova coluna `status`",
                                 "src/app/actions/mod.rs: ダイアログに追加"])
def test_a_row_of_a_table_of_changes_is_a_result_in_any_language(row: str) -> None:
    path, change = row.split(": ", 1)
    answer = f"| a | b |\n|---|---|\n| {path} | {change} |"
    changed = (f"/work/{path.strip('`')}",)
    assert report(answer, changed=changed) == [row]
    assert report(answer) == []  # a row of another file: an audit's, a comparison's
    assert report(answer, acted=False, changed=changed) == []  # a table of a turn that did nothing lists no change


@pytest.mark.parametrize("answer", ["Pronto para testar? Falta o deploy.", "Fertig zu machen ist noch der Export.",
                                    "まだ完了していません。", "`src/a.py`: 120"])
def test_words_that_do_not_report_work_done_are_no_result(answer: str) -> None:
    messages = [user("Implemente a exportação"),
                assistant(call("e", "edit", path="src/a.py", oldText="x", newText="def export(): ...")),
                result("e", "edit", "ok"), assistant(answer + "\nDevo continuar?")]
    assert region_state(messages, extract_facts(messages)).turns[-1].status != DONE
