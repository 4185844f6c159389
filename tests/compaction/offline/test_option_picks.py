"""A pick of one of the agent's options, in any of the forms people write it, is the option's text (issue 20,
decisions that said "I recommend **B**" and never what B was): options set off by a dash ("**A** — …"), picks said
with "go for", and picks in Portuguese, Spanish, German, French, Japanese, Korean and Chinese."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, user
from .test_offline import items, summarize
from .test_user_picks import _decisions

_DASHED = ("Two ways to land the tenancy schema:\n\n**A** — drive it to done in one delegated push\n"
           "**B** — one increment at a time, each verified before the next\n\nI recommend **B**. Which one?")
_NUMBERED = ("Duas formas:\n\n1) manter o cache em memória\n2) guardar o cache no Redis\n\nQual prefere?")
_LETTERED = ("選択肢:\n\nA: 既存のAPIを残してキャッシュを追加する\nB: エンドポイントをGraphQLに移す\n\nどちらにしますか？")
_HEADED = ("### Option 1 — keep the REST endpoints and add a cache\n### Option 2 — move the endpoints to GraphQL\n\n"
           "Which do you prefer?")


@pytest.mark.parametrize(("offer", "reply", "chosen"), [
    (_DASHED, "go for B", "one increment at a time, each verified"),
    (_DASHED, "A please", "drive it to done in one delegated push"),
    (_HEADED, "going with 2", "move the endpoints to GraphQL"),
    (_NUMBERED, "vamos com a 2", "guardar o cache no Redis"),
    (_NUMBERED, "opção 1", "manter o cache em memória"),
    (_LETTERED, "Bでお願いします", "エンドポイントをGraphQLに移す"),
    (_LETTERED, "A로 가자", "既存のAPIを残してキャッシュを追加する"),
    (_LETTERED, "选B", "エンドポイントをGraphQLに移す"),
    (_DASHED, "nehmen wir B", "one increment at a time, each verified"),
])
def test_a_pick_names_the_option_it_picks(offer: str, reply: str, chosen: str) -> None:
    found = _decisions(offer, reply)
    assert any(chosen in item for item in found), found


@pytest.mark.parametrize("reply", ["Because the cache is slow, drop it.", "Do it later", "Bump the version first"])
def test_words_that_start_like_a_key_pick_nothing(reply: str) -> None:
    found = _decisions(_DASHED, reply)
    assert not any("option" in item.lower() and ("push" in item or "increment" in item) for item in found), found


@pytest.mark.parametrize(("reply", "chosen"), [
    ("go for B", "one increment at a time, each verified"),
    ("Bでお願いします", "one increment at a time, each verified"),
])
def test_the_work_under_way_after_a_pick_is_the_option(reply: str, chosen: str) -> None:
    summary = summarize([user("Plan the storage work."), assistant(_DASHED), user(reply),
                         assistant("Starting with the first increment.", call("c1", "read", path="schema.sql"))])
    found = items(summary, "### In Progress")
    assert any(chosen in item for item in found), found


def test_the_option_under_way_keeps_the_request_it_serves() -> None:
    summary = summarize([user("Find out why both sessions in ~/work/test1234 are shown green."),
                         assistant("Found it: a condensed session still counts as active.\n\n" + _HEADED),
                         user("let's go with option 1"),
                         assistant("Updating the check.", call("c1", "read", path="status.go"))])
    found = items(summary, "### In Progress")
    assert any("keep the REST endpoints" in item and "test1234" in item for item in found), found


_RECOMMENDING = _DASHED.replace("I recommend **B**. Which one?", "**Recommend:** B — smaller steps are easier to review.\n\n"
                                "Which one?")
_MARKED = "Options:\n\n1. Keep the cache in memory (recommended)\n2. Move the cache to Redis\n\nWhich one?"


@pytest.mark.parametrize("offer", [_DASHED, _RECOMMENDING, _MARKED], ids=["inline", "recommend-line", "marked"])
@pytest.mark.parametrize("reply", ["go for recommended", "let's go with your recommendation", "do what you suggest",
                                   "Go for it"])
def test_a_pick_of_the_recommendation_is_the_recommended_option(offer: str, reply: str) -> None:
    chosen = "Keep the cache in memory" if offer is _MARKED else "one increment at a time, each verified"
    found = _decisions(offer, reply)
    assert len(found) == 1 and chosen in found[0] and "as the agent recommended" in found[0], found


def test_a_go_ahead_to_a_choice_without_a_recommendation_decides_nothing() -> None:
    offer = "Options:\n\n1. Keep the cache in memory\n2. Move the cache to Redis\n\nWhich one?"
    assert not any("cache" in item for item in _decisions(offer, "Go for it"))


_LISTED_UNDER = ("**Q4 — Cache invalidation.**\n\nWrites go to two stores, and a stale read is possible between them.\n\n"
                 "**Recommend (write-through, versioned keys):**\n- **Version every key** with the row's revision.\n"
                 "- **Write through** the cache on every update.\n\nOK?")


@pytest.mark.parametrize("reply", ["go for recommended", "go for recomended", "as you recommended"])
def test_a_recommendation_listed_under_its_line_is_what_was_picked(reply: str) -> None:
    found = _decisions(_LISTED_UNDER, reply)
    assert any("Version every key" in item and "Write through" in item for item in found), found


def test_a_go_ahead_to_a_bare_which_one_says_what_it_was_asked_between() -> None:
    offer = "Options:\n\n1. Keep the cache in memory\n2. Move the cache to Redis\n\nWhich one?"
    summary = summarize([user("Plan the storage work."), assistant(offer), user("Go for it"),
                         assistant("Starting.", call("c1", "read", path="schema.sql"))])
    found = " ".join(items(summary, "### In Progress"))
    assert "Keep the cache in memory" in found and "Move the cache to Redis" in found, found
