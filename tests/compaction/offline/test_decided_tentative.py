"""The agent's reasoning is no decision (decided.py): a sentence where it thinks aloud, guesses or argues ("I think
the issue is …", "Actually, maybe we should …", "I'm arguing that …", "Let me print X instead of Y"), in any language
:data:`.languages.TENTATIVE` covers, settles nothing; a course it states as taken, with its reason, stays one."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.decided import decisions_in

THINKING = [
    "Actually, let me print the raw bytes instead of the decoded string.",
    "Hmm, let me print the raw bytes instead of the decoded string.",
    "I'm arguing that we should use the cache instead of hitting the database each time.",
    "I think the issue is the parser rather than the lexer, so I'll look at parse() next.",
    "Actually, maybe we should use SQLite instead of JSON files.",
    "Maybe we'll use Redis instead of memcached since it persists.",
    "Hmm, perhaps the right approach is to retry the request instead of failing.",
    "I wonder if the fix is to bump the timeout rather than retry.",
    "Talvez devêssemos usar SQLite em vez de JSON, porque os dados são relacionais.",
    "Vielleicht sollten wir SQLite statt JSON verwenden, weil es schneller ist.",
    "Quizás vamos a usar SQLite en lugar de JSON porque es más simple.",
    "たぶんJSONではなくSQLiteを使うことにしたほうがいいかもしれません。",
    "我觉得我们应该改用 SQLite 而不是 JSON。",
]


@pytest.mark.parametrize("sentence", THINKING)
def test_thinking_aloud_is_no_decision(sentence: str) -> None:
    assert decisions_in(sentence) == []


SETTLED = [
    "I'll use SQLite instead of JSON because the data fits on one machine.",
    "Decided: keep the old parser.",
    "Actually, I'll keep the retry helper rather than adding tenacity, since it already handles backoff.",
    "We won't add a queue since the jobs finish in a second.",
    "Decidi usar SQLite em vez de JSON porque os dados são relacionais.",
    "保存はJSONではなくSQLiteを使うことにしました。",
]


@pytest.mark.parametrize("sentence", SETTLED)
def test_a_settled_course_stays_a_decision(sentence: str) -> None:
    assert decisions_in(sentence) == [sentence]
