"""Short requests (state.py ``is_substantive``): a request of a script written without spaces is counted in words
as the goal counts them (goal.py ``word_count``), so a short Chinese or Japanese task is a request that can set the
goal or be recalled as an earlier one, and a one-word answer ("はい", "好的") stays a nudge."""

from __future__ import annotations

import pytest

from pi_compact.compaction.offline.state import is_substantive

from ..messages import assistant, call, result, user
from .test_classes import summarize
from .test_offline import items


@pytest.mark.parametrize(("request_text", "expected"), [
    ("修复登录测试", True),              # "fix the login test": six characters, three words
    ("ログインのテストを直して", True),  # the same in Japanese
    ("Fix the login test", True),
    ("はい", False),                     # "yes"
    ("好的", False),                     # "OK"
    ("continue", False),
    ("push it", False),
    ("/compact keep the tests", False),  # a slash command is never a request
])
def test_short_requests_in_any_script(request_text: str, expected: bool) -> None:
    assert is_substantive(request_text) is expected


def _worked(request_text: str, path: str) -> list[dict]:
    edit = call(f"e-{path}", "edit", path=path, oldText="a", newText="b")
    return [user(request_text), assistant(edit), result(f"e-{path}", "edit", "Edited."), assistant("已完成。")]


def test_a_short_chinese_task_sets_the_goal() -> None:
    messages = [user("好的"), assistant("请告诉我要做什么。"), *_worked("修复登录测试", "src/login.py")]
    goal = items(summarize(messages), "## Goal")
    assert goal and "修复登录测试" in goal[0]


def test_a_short_japanese_task_is_an_earlier_request() -> None:
    messages = [*_worked("ログインのテストを直して", "src/login.py"),
                *_worked("次はエクスポート機能を追加してください。CSV形式で出力すること。", "src/export.py")]
    critical = items(summarize(messages), "## Critical Context")
    assert any("ログインのテストを直して" in line for line in critical)
