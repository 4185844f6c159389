"""Decisions the summaries missed (issue 20): a conclusion that settles a question, the way named as the best one, a
way declined as not needed with its reason, a plan's method, and the user's pick of an option laid out under a label
with its text below — in English and the other languages agents work in; each beside near-misses that settle
nothing (a heading, a step, a tip to the user, an option only offered, a reply that asks back)."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.decided import decisions_in
from pi_compact.compaction.offline.labelled_options import labelled, picked_labelled

from ..messages import assistant, user
from .test_offline import items, summarize


@pytest.mark.parametrize(("text", "words"), [
    ("The answer is clear: **blocking sockets are correct** under the fiber runtime. Here is why:", "blocking sockets"),
    ("Short answer: keep the in-memory cache, the hit rate is 98%.", "in-memory cache"),
    ("Bottom line — the retry loop stays in the client.", "retry loop stays"),
    ("Resposta curta: o cache em memória continua, a taxa de acerto é alta.", "cache em memória"),
    ("Conclusión: mantenemos la caché en memoria por ahora.", "caché en memoria"),
    ("Fazit: der Cache bleibt im Speicher, die Trefferquote ist hoch.", "Cache bleibt"),
    ("En conclusion : le cache reste en mémoire pour l'instant.", "cache reste"),
    ("結論：ブロッキングソケットで問題ありません。", "ブロッキングソケット"),
    ("결론적으로, 블로킹 소켓을 그대로 유지합니다.", "블로킹 소켓"),
    ("结论：阻塞套接字在这个运行时下是正确的。", "阻塞套接字"),
    ("The most reliable way is to record the pull in the project memory.", "project memory"),
    ("一番確実なのは、**メモリに「セッション開始時に main を pull する」と記録しておく**ことです。", "セッション開始時"),
    ("가장 확실한 방법은 메모리에 기록하는 것입니다.", "메모리에 기록"),
    ("最可靠的办法是把它记录在项目记忆里。", "项目记忆"),
    ("O melhor caminho é registrar isso na memória do projeto.", "memória do projeto"),
    ("Lo más seguro es guardar la regla en la memoria del proyecto.", "memoria del proyecto"),
    ("Am sichersten ist es, die Regel im Projektgedächtnis zu speichern.", "Projektgedächtnis"),
])
def test_a_conclusion_or_the_best_way_is_a_decision(text: str, words: str) -> None:
    found = decisions_in(text)
    assert any(words in item for item in found), found


@pytest.mark.parametrize("text", [
    "Conclusion:",  # a heading over a list
    "## Conclusion: what we found",
    "The best way to test this is to run the suite twice.",  # a step of the work
    "Maybe the best way is to keep the cache, I'm not sure yet.",  # a guess
    "The short answer is: which one do you prefer?",
    "If we keep the cache, the best option is to bound it.",  # weighed under a condition
])
def test_headings_steps_guesses_and_questions_are_no_verdict(text: str) -> None:
    assert decisions_in(text) == []


@pytest.mark.parametrize(("text", "words"), [
    ("We could also add a pre-push hook, but since the branch has no remote tracking it is not needed.", "pre-push"),
    ("I could add a lock here, but because only one worker writes the file, it would be overkill.", "lock"),
    ("リモートに誤って push されないよう pre-push の設定もできますが、このブランチにはリモート追跡がないので、明示しない限り"
     "push されません。現状で十分安全です。", "リモート追跡"),
    ("pre-push 훅을 추가할 수도 있지만, 원격 추적이 없기 때문에 필요 없습니다.", "원격 추적"),
    ("也可以加一个 pre-push 钩子，但因为这个分支没有远程跟踪，所以没必要。", "远程跟踪"),
    ("Poderíamos adicionar um hook de pre-push, mas como o branch não tem remoto, porque nada é enviado, não é "
     "necessário.", "pre-push"),
    ("Podríamos añadir un hook de pre-push, pero ya que la rama no tiene remoto, no es necesario.", "pre-push"),
    ("On pourrait ajouter un hook pre-push, mais puisque la branche n'a pas de remote, ce n'est pas nécessaire.",
     "pre-push"),
    ("Wir könnten einen pre-push Hook hinzufügen, aber weil der Branch kein Remote hat, ist das nicht nötig.",
     "pre-push"),
])
def test_a_way_declined_as_not_needed_with_its_reason_is_a_decision(text: str, words: str) -> None:
    found = decisions_in(text)
    assert any(words in item for item in found), found


@pytest.mark.parametrize("text", [
    "You could also add a pre-push hook, but since the branch has no remote tracking it is not needed.",  # a tip
    "We could add a pre-push hook, but it is not needed.",  # no reason
    "We could cache the result, but since two workers share it, it needs a lock.",  # not judged unneeded
    "pre-push の設定もできますが、どうしますか？",  # only offered
])
def test_an_offer_without_reason_or_judgement_or_to_the_user_is_no_decision(text: str) -> None:
    assert decisions_in(text) == []


@pytest.mark.parametrize(("text", "words"), [
    ("I'm using Subagent-Driven Development to execute this plan.", "Subagent-Driven Development"),
    ("We'll use parallel agents to carry out the plan, one per tier.", "parallel agents"),
    ("We will carry out the plan with eight parallel agents.", "eight parallel agents"),
    ("計画をサブエージェント駆動開発で実行します。", "サブエージェント駆動開発"),
    ("Vou executar o plano com subagentes em paralelo.", "subagentes"),
])
def test_a_plans_method_is_a_decision(text: str, words: str) -> None:
    found = decisions_in(text)
    assert any(words in item for item in found), found


@pytest.mark.parametrize("text", [
    "I'll use grep to run the tasks.",  # a tool for a step
    "I'm using the writing-plans skill to create the implementation plan.",  # writing the plan, not running it
    "Let me use it to run the tests.",
])
def test_a_tool_for_a_step_is_no_plan_method(text: str) -> None:
    assert decisions_in(text) == []


_LABELLED = ("いくつか案を出します。\n\n**案1（簡潔）:**\n> 共同代表。詳細は11章。\n\n**案2（時系列を意識）:**\n"
             "> のちに会社を共同創業し、技術の社会実装に取り組む。詳細は11章。\n\n**案3（理念を示す）:**\n"
             "> 理念に基づき会社を共同創業。11章で詳述。\n\nどれが近いですか？")
_OPTIONS = ("Two wordings for the footnote:\n\n**Option A (short):**\nCo-founder of the lab.\n\n"
            "**Option B (timeline):**\nLater co-founded the lab, where the work continues.\n\nWhich one reads better?")
_HEADED = "### 方案 1：简短\n共同创始人。\n\n### 方案 2：时间线\n后来共同创立了实验室。\n\n你更喜欢哪一个？"


@pytest.mark.parametrize(("offer", "reply", "words"), [
    (_LABELLED, "2がいいかな。", "のちに会社を共同創業"),
    (_LABELLED, "2", "時系列を意識"),
    (_LABELLED, "2번으로 하죠", "のちに会社を共同創業"),
    (_OPTIONS, "B please", "Later co-founded the lab"),
    (_OPTIONS, "go with B", "Option B (timeline)"),
    (_HEADED, "选2吧", "后来共同创立"),
])
def test_the_pick_of_a_labelled_option_is_its_label_and_text(offer: str, reply: str, words: str) -> None:
    found = items(summarize([user("Write the footnote."), assistant(offer), user(reply),
                             assistant("OK, editing.")]), "## Key Decisions")
    assert any(words in item for item in found), found


@pytest.mark.parametrize("reply", ["B, what would the text be?", "20", "Bump the version first", "neither"])
def test_a_reply_that_asks_or_is_no_key_picks_nothing(reply: str) -> None:
    assert picked_labelled(_OPTIONS, reply) == ""


def test_labels_with_their_text_on_the_same_line_are_not_read_here() -> None:
    assert labelled("1. keep the cache\n2. move to Redis\n\nWhich?") == {}


@pytest.mark.parametrize(("text", "words"), [
    ("I see — tasks return dicts. I'll modify the runner to read the key instead.", "tasks return dicts — so:"),
    ("The test shows manifests can be larger than diffs for tiny changes. Let me fix the test to just verify the "
     "metrics exist:", "larger than diffs for tiny changes — so: Let me fix the test to just verify"),
    ("It turns out the cache is shared by both workers. We'll change the key so that each worker has its own.",
     "shared by both workers — so:"),
    ("なるほど、タスクは辞書を返します。キーだけを読むように修正します。", "辞書を返します — so:"),
])
def test_a_change_said_right_after_a_finding_keeps_the_finding_as_its_reason(text: str, words: str) -> None:
    found = decisions_in(text)
    assert any(words in item for item in found), found


@pytest.mark.parametrize("text", [
    "I see the problem. Let me read the file.",  # a step after the finding
    "I see — tasks return dicts. I'll modify the runner.",  # a change that narrows or replaces nothing
    "Let me check the config. I'll update it to only read the environment.",  # no finding before it
    "The test shows what? I'll change it to only check the count.",
])
def test_a_step_or_a_change_with_no_finding_before_it_is_no_decision(text: str) -> None:
    assert decisions_in(text) == []
