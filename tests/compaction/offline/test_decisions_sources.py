"""Where a decision shows in a session, in any project (issue 20, decisions absent from the summary): the user's
reply naming one of the ways an "X or Y?" question offered, by a word or by rank, in several languages; the user's
choice said as "use X instead" / "X, not Y" / "X over Y" or with the way passed over in another language; a
correction opened by "no," in another language; a plan approved through the plan tool whose title names nothing;
the agent's own choice said with a participle and its reason; and a pick the user later reversed, of which only the
final way is a decision."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_offline import items, summarize

_REDIS_OR_SQLITE = "Should I store the sessions in Redis or in SQLite?"


def _settled(messages: list) -> list[str]:
    summary = summarize(messages)
    return items(summary, "## Key Decisions") + items(summary, "## Constraints & Preferences")


def _asked(question: str, reply: str, request: str = "Add session storage.") -> list[str]:
    return _settled([user(request), assistant(question), user(reply), assistant("OK.")])


@pytest.mark.parametrize(("question", "reply", "chosen"), [
    (_REDIS_OR_SQLITE, "SQLite", "“SQLite”"),
    (_REDIS_OR_SQLITE, "sqlite, we don't want another server", "another server"),
    (_REDIS_OR_SQLITE, "the latter", "(in SQLite)"),
    (_REDIS_OR_SQLITE, "the former", "(store the sessions in Redis)"),
    ("Should I keep the old parser or rewrite it with lark?", "rewrite it", "“rewrite it”"),
    ("Should I keep the old parser or rewrite it with lark?", "keep the old one", "“keep the old one”"),
    ("Found two stores we could use. Which do you prefer: Redis or SQLite?", "sqlite please", "“sqlite please”"),
    ("Should I use Redis, SQLite, or plain JSON files?", "json files for now", "“json files for now”"),
    ("Devo guardar as sessões no Redis ou no SQLite?", "SQLite", "“SQLite”"),
    ("Soll ich die Sitzungen in Redis oder in SQLite speichern?", "SQLite bitte", "“SQLite bitte”"),
    ("セッションはRedisに保存しますか、それともSQLiteにしますか？", "SQLiteで", "“SQLiteで”"),
    ("会话存到 Redis 还是 SQLite？", "SQLite", "“SQLite”"),
])
def test_a_reply_naming_one_way_of_an_or_question_is_a_decision_with_the_question(question: str, reply: str,
                                                                                   chosen: str) -> None:
    found = _asked(question, reply)
    asked = question.split(". ")[-1][:20]  # the closing question
    assert any(chosen in item and asked in item for item in found), found


@pytest.mark.parametrize(("question", "reply"), [
    ("Should I use Redis or SQLite?", "neither, I need to think about it more"),  # names no way
    ("Should I use Redis or SQLite for the sessions store?", "what about the sessions table, does it exist yet?"),
    ("Should I commit now or wait?", "Please also fix the README typo in the intro section"),  # names no way
    ("Should I use Redis or SQLite?", "Redis and SQLite both have drivers here"),  # names both
])
def test_a_reply_that_names_no_single_way_decides_nothing(question: str, reply: str) -> None:
    assert not any("Redis or SQLite" in item or "commit now" in item for item in _asked(question, reply))


@pytest.mark.parametrize(("reply", "named"), [
    ("use SQLite instead", "SQLite"),
    ("no, switch to SQLite instead", "SQLite"),
    ("Use pnpm, not npm.", "pnpm"),
    ("Please write the tests with pytest, not unittest.", "pytest"),
    ("Prefer composition over inheritance here.", "composition"),
    ("usa SQLite en lugar de Redis", "SQLite"),
    ("use SQLite em vez de Redis", "SQLite"),
    ("Nimm SQLite statt Redis", "SQLite"),
    ("Redisじゃなくて、SQLiteを使って", "SQLite"),
    ("用 SQLite 而不是 Redis", "SQLite"),
    ("Redis 대신 SQLite를 써줘", "SQLite"),
    ("não, não use Redis, use SQLite", "SQLite"),
    ("no, no uses Redis, usa SQLite", "SQLite"),
    ("non, n'utilise pas Redis, utilise SQLite", "SQLite"),
])
def test_the_users_own_choice_of_a_way_is_kept(reply: str, named: str) -> None:
    found = _settled([user("Add session storage."), assistant("I'll add Redis.", call("c1", "edit", path="a.py")),
                      user(reply), assistant("OK.")])
    assert any(named in item and reply[:12] in item for item in found), found


@pytest.mark.parametrize("reply", ["write a comment in the issue, I'll handle it over there",
                                   "The build is slow, not sure why.", "Thanks, I prefer it over there"])
def test_a_reply_that_passes_over_nothing_chose_nothing(reply: str) -> None:
    found = _settled([user("Add session storage."), assistant("I'll add Redis.", call("c1", "edit", path="a.py")),
                      user(reply), assistant("OK.")])
    assert not any(item.startswith("The user chose:") for item in found), found


def test_a_pick_the_user_reversed_later_gives_way_to_the_new_one() -> None:
    found = _settled([user("Add session storage."), assistant(_REDIS_OR_SQLITE), user("Redis"),
                      assistant("OK, using Redis.", call("c1", "edit", path="a.py")),
                      user("actually, switch to SQLite instead"), assistant("OK.")])
    assert any("switch to SQLite" in item for item in found), found
    assert not any("“Redis”" in item for item in found), found


@pytest.mark.parametrize("title", ["# Plan", "# Implementation Plan", "## Proposed plan:"])
def test_a_plan_approved_under_a_title_that_names_nothing_is_its_first_items(title: str) -> None:
    plan = f"{title}\n\n1. Use SQLite for the sessions table\n2. Add SessionStore in store.py\n"
    found = _settled([user("Add session storage."), assistant(call("p", "ExitPlanMode", plan=plan)),
                      result("p", "ExitPlanMode", "User has approved your plan. You can now start coding."),
                      assistant("Starting.")])
    assert any(item.startswith("Plan approved by the user:") and "SQLite" in item and "SessionStore" in item
               for item in found), found


@pytest.mark.parametrize("said", [
    "Using SQLite instead of Redis since the data is small.",
    "Switching to SQLite because Redis isn't installed here.",
    "Opting for SQLite: no server to run.",
    "Keeping the sessions in SQLite, since nothing else needs a server.",
])
def test_the_agents_choice_said_with_a_participle_and_its_reason_is_a_decision(said: str) -> None:
    found = _settled([user("Add session storage."), assistant(said + "\n\nNow writing the store.",
                                                              call("c1", "edit", path="store.py")),
                      assistant("Done.")])
    assert said in found, found


@pytest.mark.parametrize("said", [
    "Using grep to find the callers.",  # a step, no reason
    "Keeping an eye on the build since it was flaky.",  # no way taken
    "Keeping it is the whole point, because the round trip drops the width.",  # why a thing matters
])
def test_a_participle_without_a_choice_is_no_decision(said: str) -> None:
    found = _settled([user("Add session storage."), assistant(said, call("c1", "bash", command="grep -rn x .")),
                      assistant("Done.")])
    assert said not in found, found


_OPTIONS = "Two ways:\n\n1. Redis — fast, needs a server\n2. SQLite — one file, no server\n\nWhich do you prefer?"
_LETTERED = "Options:\n\na) Redis — fast\nb) SQLite — one file\n\nWhich one?"


@pytest.mark.parametrize(("offer", "reply", "added"), [
    (_OPTIONS, "the second one, but keep the old table", "but keep the old table"),
    (_LETTERED, "b, and also add an index on user_id", "and also add an index on user_id"),
    (_LETTERED, "B, mas mantenha a tabela antiga", "mas mantenha a tabela antiga"),
    ("Option A: Redis cache\nOption B: SQLite file\n\nWhich one?", "option A but keep the TTL at 5 minutes",
     "but keep the TTL at 5 minutes"),
])
def test_a_pick_keeps_what_the_user_added_to_the_option(offer: str, reply: str, added: str) -> None:
    found = _asked(offer, reply)
    assert any(item.startswith("Agreed with the user: option") and f"the user added: “{added}”" in item
               for item in found), found


@pytest.mark.parametrize("reply", ["2", "b please", "2 for now", "Bでお願いします", "the second one",
                                   "2, this has happened twice now just fyi"])
def test_a_bare_pick_adds_nothing(reply: str) -> None:
    offer = _LETTERED if reply[0] in "bB" else _OPTIONS
    found = _asked(offer, reply)
    assert any(item.startswith("Agreed with the user: option") for item in found), found
    assert not any("the user added" in item for item in found), found
