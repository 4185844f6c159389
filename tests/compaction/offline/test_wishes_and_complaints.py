"""A wish that states a standing rule is a constraint; a complaint asked as a question is a request; the subject
a bare command was taken up for is read in every language the summarizer supports."""

import pytest

from pi_compact.compaction.offline.facts import constraint_sentences
from pi_compact.compaction.offline.goal import COMMAND_PREFIX, command_subject, complains, only_asks, sets_work, taken_up
from pi_compact.compaction.offline.rules import is_rule, lasting

WISHED_RULES = [
    "I'd like no comments that just restate the code.",
    "I want tests to hit the real API.",
    "We'd like logs to go to stderr.",
    "It would be nice if all functions had type hints.",
    "Gostaria que os testes usassem a API real.",
    "Me gustaría que no haya comentarios que repitan el código.",
    "J'aimerais que les tests utilisent la vraie API.",
    "Ich möchte, dass die Tests die echte API verwenden.",
    "テストは本物のAPIを叩いてほしい。",
    "테스트는 실제 API를 호출했으면 좋겠어요.",
    "我希望所有测试都调用真实的API。",
]

ONE_OFF_WISHES = [
    "I'd like you to fix the bug.",
    "I'd like these tests to pass.",
    "I want the button to be blue.",
    "I'd like to add a test.",
    "I want tests for the parser.",
    "I want the tests to pass.",
    "What we want it to show ideally is how much time each step took, with a total that users can read.",
    "Gostaria que você corrigisse o bug.",
    "Me gustaría que arregles este error.",
    "J'aimerais que tu corriges ce bug.",
    "Ich möchte, dass du den Fehler behebst.",
    "このボタンを青にしてほしい。",
    "バグを直してほしい。",
    "버그를 고쳐 주었으면 좋겠어요.",
    "希望你修复这个bug。",
]


@pytest.mark.parametrize("sentence", WISHED_RULES)
def test_a_wish_for_every_thing_of_a_kind_is_a_lasting_rule(sentence):
    assert is_rule(sentence) and lasting(sentence)
    assert constraint_sentences(sentence) == [sentence]


@pytest.mark.parametrize("sentence", ONE_OFF_WISHES)
def test_a_wish_for_one_change_is_no_rule(sentence):
    assert not is_rule(sentence)
    assert constraint_sentences(sentence) == []


def test_a_wish_asked_as_a_question_is_no_rule():
    assert constraint_sentences("Would it be nice if all functions had type hints?") == []


COMPLAINTS = [
    "why is the chart still tiny?",
    "why doesn't the login work?",
    "por que ainda não funciona?",
    "¿por qué sigue fallando el build?",
    "pourquoi ça ne marche toujours pas ?",
    "warum geht das immer noch nicht?",
    "どうしてまだ動かないの？",
    "왜 아직도 안 돼요?",
    "为什么还是报错？",
]

QUESTIONS = ["what does the parser do?", "why did the test fail?", "why do we use redis?", "なぜこの設計にしたの？",
             "哪个文件？", "But why do you think the logs shouldn't be overwritten?",
             "warum denkst du, dass das nicht geht?", "为什么你觉得这个不行？"]


@pytest.mark.parametrize("question", COMPLAINTS)
def test_a_complaint_asked_as_a_question_is_a_request(question):
    assert complains(question)
    assert not only_asks(question)
    assert sets_work(question)


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_question_that_only_asks_stays_a_question(question):
    assert only_asks(question)
    assert not complains(question)


TAKEN_UP = [
    ("I'll review PR #12 now.", "I'll review PR #12 now."),
    ("Vou revisar o PR #12 agora.", "Vou revisar o PR #12 agora."),
    ("Voy a revisar el PR #12.", "Voy a revisar el PR #12."),
    ("Je vais relire la PR #12.", "Je vais relire la PR #12."),
    ("Ich werde PR #12 prüfen.", "Ich werde PR #12 prüfen."),
    ("PR #12をレビューします。", "PR #12をレビューします。"),
    ("イシュー#4に対応します。", "イシュー#4に対応します。"),
    ("이슈 #7을 처리하겠습니다.", "이슈 #7을 처리하겠습니다."),
    ("开放的是 PR #23，有冲突。让我处理它。", "开放的是 PR #23，有冲突。"),
    ("Vou ler o plano em docs/plan.md.", "Vou ler o plano em docs/plan.md."),
]


@pytest.mark.parametrize(("opening", "subject"), TAKEN_UP)
def test_the_subject_taken_up_is_read_in_every_language(opening, subject):
    assert taken_up(opening) == subject
    assert command_subject(f"{COMMAND_PREFIX}/review-pr`", opening) == f"{subject} (with `/review-pr`)"


@pytest.mark.parametrize("opening", ["Hello! How can I help?", "Vou começar lendo o repositório.",
                                     "リポジトリを読みます。", "PR #12は何ですか？ 確認します。"])
def test_no_subject_when_the_agent_names_none(opening):
    assert taken_up(opening) == ""
