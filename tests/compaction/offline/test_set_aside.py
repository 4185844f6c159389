"""An intention the agent later set aside by "instead of X" is said as history with the way that replaced it."""

import pytest

from pi_compact.compaction.offline.set_aside import set_aside


def _agent(text: str) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def _decided(intention: str, later: str) -> list[str]:
    messages = [_agent(intention), {"role": "user", "content": "ok"}, _agent(later)]
    return set_aside([intention], messages)


SET_ASIDE = [
    ("Let me fix this by adding a deprecated field with migration in the loader.",
     "Instead of adding a migration for the deprecated field, I opened a patch PR that renames it on main."),
    ("I'll cache the parsed manifest in Redis to speed up the lookups.",
     "Rather than caching the parsed manifest in Redis, the lookups now read a local file."),
    ("Vou adicionar uma migração do campo antigo no carregador.",
     "Em vez de adicionar migração do campo antigo, criei um PR no main que renomeia o campo."),
    ("Voy a añadir una migración del campo antiguo en el cargador.",
     "En lugar de añadir migración del campo antiguo, abrí un PR en main que lo renombra."),
    ("Je vais ajouter une migration du champ ancien dans le chargeur.",
     "Au lieu de ajouter une migration du champ ancien, j'ai ouvert une PR sur main."),
    ("Ich werde eine Migration des alten Feldes im Loader hinzufügen.",
     "Statt eine Migration des alten Feldes hinzuzufügen, habe ich einen Patch-PR auf main erstellt."),
    ("ローダーで旧フィールドの移行処理を追加します。",
     "旧フィールドの移行処理を追加するのではなく、mainでリネームするPRを作成しました。"),
    ("로더에 이전 필드의 마이그레이션 처리를 추가하겠습니다.",
     "이전 필드의 마이그레이션 처리 대신 main에서 이름을 바꾸는 PR을 만들었습니다."),
    ("我将在加载器中添加旧字段迁移逻辑。",
     "我在main上创建了重命名的PR，而不是添加旧字段迁移逻辑。"),
]


@pytest.mark.parametrize(("intention", "later"), SET_ASIDE)
def test_an_intention_set_aside_is_said_as_history(intention, later):
    [item] = _decided(intention, later)
    assert item.startswith("Was: ")
    assert " — now: “" in item


GUARDS = [
    # an unrelated "instead of": no two stems in common
    ("Let me fix this by adding a deprecated field with migration in the loader.",
     "I used pytest instead of unittest for the new cases."),
    # one shared stem only
    ("Let me fix this by adding a deprecated field with migration in the loader.",
     "Instead of a migration script, the docs explain the steps."),
    # a negated intention already passes the way over
    ("I won't add a deprecated field with migration in the loader.",
     "Instead of adding a deprecated field with migration, I renamed it on main."),
    # a finding, no intention
    ("The loader adds a deprecated field with migration when it reads old files.",
     "Instead of adding a deprecated field with migration, I renamed it on main."),
    # an agreement with the user names the way passed over: it stays
    ("Agreed with the user: add a deprecated field with migration in the loader.",
     "Instead of adding a deprecated field with migration, I renamed it on main."),
    # a question weighs, it sets nothing aside
    ("Let me fix this by adding a deprecated field with migration in the loader.",
     "Should I rename it on main instead of adding a deprecated field with migration?"),
]


@pytest.mark.parametrize(("decision", "later"), GUARDS)
def test_what_is_not_set_aside_stays(decision, later):
    assert _decided(decision, later) == [decision]


def test_the_passing_over_said_before_the_intention_sets_nothing_aside():
    intention = "Let me fix this by adding a deprecated field with migration in the loader."
    messages = [_agent("Instead of adding a deprecated field with migration, we could rename it."), _agent(intention)]
    assert set_aside([intention], messages) == [intention]


def test_the_stale_intention_goes_when_the_new_way_is_a_decision_already():
    intention = "Let me fix this by adding a deprecated field with migration in the loader."
    later = "Instead of adding a deprecated field with migration, I renamed the field on main in a patch PR."
    assert set_aside([intention, later], [_agent(intention), _agent(later)]) == [later]
