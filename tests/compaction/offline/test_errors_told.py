"""Errors told in words, with no failing tool result (told.py): the agent's "The build fails because `foo` is
undefined", the user's "I get a 500 when I save", in several languages. Open, they are Blocked with their words;
settled later (the agent's "fixed" naming the same thing, a passing check of it, the user's "works now", a fix and
a passing check), they are one line. Guesses, questions, conditions, what a change is meant to make fail, history
and quoted docs are no error."""

from __future__ import annotations

import pytest

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items

AGENT = [  # (sentence, identifying words)
    ("The build fails because `formatPrice` is undefined in the cart module.", "formatPrice"),
    ("Found the bug: the cache key in `cache_key()` ignores the locale.", "cache_key()"),
    ("The deploy failed with a 502 from the `api-gateway` service.", "502"),
    ("This crashes when `items` is empty: `IndexError` in parse_rows.", "IndexError"),
    ("O teste falha porque `parse_date` devolve None para datas vazias.", "parse_date"),
    ("El endpoint `/api/save` falla con un 500 cuando el título está vacío.", "/api/save"),
    ("Der Import schlägt fehl, weil `settings.py` den Pfad nicht kennt.", "settings.py"),
    ("エラーの原因は `load_config` が空のファイルを読むことです。", "load_config"),
    ("原因是 `retry_count` 没有初始化。", "retry_count"),
    ("원인은 `session_id` 가 비어 있기 때문입니다.", "session_id"),
]
USER = [
    ("I get a 500 when I save the profile page.", "500"),
    ("it still crashes on startup with `SegfaultError`", "SegfaultError"),
    ("não funciona: TypeError ao abrir o carrinho", "TypeError"),
]
NOT_ERRORS = [
    "Maybe the build fails because `formatPrice` is undefined.",
    "Does the build fail because `formatPrice` is undefined?",
    "If `items` is empty, `parse_rows` fails with an IndexError.",
    "The validator now raises `ValueError` when the title is empty.",
    "The old `v1_client` used to fail with a 502 on large uploads.",
    "I think the cause is that `cache_key()` ignores the locale.",
    "```\nThe request fails with `HTTP 429` when you exceed the quota.\n```",
    "> The request fails with `HTTP 429` when you exceed the quota.",
]


def _region(said: list[dict], after: list[dict] | None = None) -> list[dict]:
    return [user("Please look into the checkout flow."), *said,
            *(after or [assistant("Let me read the cart code.", call("r", "read", path="src/cart.ts")),
                        result("r", "read", "export const total = 1;\n")])]


def _blocked(summary: str) -> list[str]:
    return [item for item in items(summary, "### Blocked") if item != "(none)"]


@pytest.mark.parametrize(("sentence", "words"), AGENT)
def test_an_error_the_agent_tells_is_blocked_while_open(sentence: str, words: str) -> None:
    blocked = _blocked(summarize(_region([assistant(sentence)])))
    assert any(words in line for line in blocked), blocked


@pytest.mark.parametrize(("sentence", "words"), USER)
def test_an_error_the_user_tells_is_blocked_while_open(sentence: str, words: str) -> None:
    messages = [user(f"Please look into the checkout flow. {sentence}"),
                assistant("Let me read the cart code.", call("r", "read", path="src/cart.ts")),
                result("r", "read", "export const total = 1;\n"),
                user(f"Also: {sentence}"),
                assistant("Reading the profile view.", call("v", "read", path="src/profile.ts")),
                result("v", "read", "export const save = () => fetch('/x');\n")]
    summary = summarize(messages)
    assert words in summary, summary


def _fixes(words: str) -> list[list[dict]]:
    return [
        [assistant(f"Fixed: `{words}` is handled now.")],
        [assistant(call("e", "edit", path="src/cart.ts", oldText="1", newText="2")),
         result("e", "edit", "Successfully replaced text in src/cart.ts."),
         assistant(call("t", "bash", command="npm test")), result("t", "bash", "Tests:       12 passed, 12 total\n"),
         assistant("Let me look at the next file.", call("r", "read", path="src/tax.ts")),
         result("r", "read", "export const tax = 1;\n")],
        [user("works now, thanks"), assistant("Good.", call("r", "read", path="src/tax.ts")),
         result("r", "read", "export const tax = 1;\n")],
    ]


@pytest.mark.parametrize("fix", range(3))
@pytest.mark.parametrize(("sentence", "words"), AGENT[:3] + AGENT[4:5])
def test_a_settled_one_is_one_line_not_blocked(sentence: str, words: str, fix: int) -> None:
    summary = summarize(_region([assistant(sentence)], _fixes(words.strip("`"))[fix]))
    assert not any(words in line for line in _blocked(summary)), summary
    assert words in summary


@pytest.mark.parametrize("sentence", NOT_ERRORS)
def test_no_error_where_none_was_met(sentence: str) -> None:
    assert not _blocked(summarize(_region([assistant(sentence)])))


PURPOSES = [
    "Also update setup.ts to lazily initialize `__nextDynamicCalls` so the mock doesn't fail when the global is undefined:",
    "I'll add a guard in `loadConfig` so that the CLI won't crash when `config.toml` is empty.",
    "Wrap the call in `try` to avoid a crash when `items` is empty.",
]


@pytest.mark.parametrize("sentence", PURPOSES)
def test_a_purpose_is_no_error_told(sentence: str) -> None:
    summary = summarize(_region([assistant(sentence)]))
    assert not _blocked(summary)
    assert "Errors told in words" not in summary
