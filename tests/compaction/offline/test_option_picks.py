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

_APPROACHES = ("Three ways to structure the suite:\n\n---\n\n**Approach A — Domain-centric**\nOne folder per feature.\n\n"
               "**Approach B — Layer-centric**\nOne folder per test type, domains under it.\n\n"
               "**Approach C — Co-located + dedicated suites** ✅ Recommended\nKeep unit tests beside the code, add "
               "tests/e2e.\n\nShall I proceed with Approach C and move into the full design?")
_HEADED_APPROACHES = ("## Approach 1: Git blame against checkpoints\n\nUse blame.\n\n"
                      "## Approach 2: Line hash tracking\n\nTrack lines by hash.\n\n"
                      "## Approach 3: Simplified per-file pools (Recommended)\n\nNo line tracking at all.\n")


@pytest.mark.parametrize(("offer", "reply", "chosen"), [
    (_APPROACHES, "yes lets go with c", "Co-located + dedicated suites"),
    (_APPROACHES, "B", "Layer-centric"),
    (_APPROACHES, "ok, approach A please", "Domain-centric"),
    (_HEADED_APPROACHES, "go with 2", "Line hash tracking"),
    (_HEADED_APPROACHES, "sure, approach 3", "Simplified per-file pools"),
])
def test_a_pick_of_a_labelled_approach_names_it_once(offer: str, reply: str, chosen: str) -> None:
    """Agents lay out "Approach A — …" (a dash, a mark of the one recommended) as often as "Option A:"; the pick,
    with a yes before it or not, is the approach, said once (not again as "The user chose: lets go with c")."""
    found = _decisions(offer, reply)
    assert any(chosen in item for item in found), found
    assert len(found) == 1, found


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


_MODES = ("How should I work through the plan?\n\n1. **Automated Mode** - all phases in one go, progress updates only\n"
          "2. **Guided Mode** - pause after each phase for your review\n3. **Interactive Mode** - check in on every task"
          "\n\nWhich mode would you prefer?")


@pytest.mark.parametrize("later", [10, 14])
def test_a_pick_outlives_the_decisions_made_after_it(later: int) -> None:
    """The way the user picked binds the rest of the work: more decisions of other kinds since (each request "use X
    instead of Y") do not push it out of Key Decisions, as the newest ten alone would."""
    messages = [user("Implement the plan in PLAN.md."), assistant(_MODES), user("2"), assistant("Guided Mode it is.")]
    for n in range(later):
        messages += [user(f"Use library{n} instead of the builtin parser{n} for stage {n}."),
                     assistant(f"Switched stage {n} to library{n}.")]
    found = items(summarize(messages), "## Key Decisions")
    assert any("Guided Mode" in item for item in found), found
    assert sum("library" in item for item in found) >= 8, found


@pytest.mark.parametrize("label", ["Solution approach:", "**Key points:**", "Next:"])
def test_a_decision_that_is_only_a_label_is_left_out(label: str) -> None:
    from pi_compact.compaction.offline.summary import _LABEL_ONLY
    assert _LABEL_ONLY.match(label)
    assert not _LABEL_ONLY.match("Storage: SQLite, one file per workspace")
