"""The super-linear paths of issue 23.5, each reproduced as a growth check (n, 2n, 4n; see tests/growth.py), and
each rewrite checked against the pattern it replaced on short text, where the old pattern is fast."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.plans import open_plan_items
from pi_compact.compaction.offline.state import region_state
from pi_compact.evaluation.quality import score_quality, summary_items

from tests.compaction.messages import assistant, call, result, user
from tests.growth import growth


def _state_of_answer(answer: str):
    messages = [user("Go on."), assistant(answer)]
    facts = extract_facts(messages)
    return lambda: region_state(messages, facts)


def _items_of_heading(spaces: int):
    summary = "<original-request>\nx\n</original-request>\n" + "# a" + " " * spaces + "b\n"
    return lambda: summary_items(summary)


def _staleness_of_git_repeats(size: int):
    region = [user("Update `src/app.py`."),
              assistant(call("c1", "bash", command="git " * (size // 4) + "src/app.py")),
              result("c1", "bash", "ok")]
    return lambda: score_quality(region, "## In Progress\n- Update `src/app.py`\n")


def _plan_against_commits(size: int):
    plan = "# Plan\n" + "".join(f"## WP{i}: part {i}\n- [ ] do {i}\n" for i in range(size))
    commits = " ".join(f'git commit -m "WP{i + size}: other"' for i in range(size // 4))
    messages = [assistant(call("w", "write", path="plan.md", content=plan)), result("w", "write", "ok")]
    return lambda: open_plan_items(messages, commits)


@pytest.mark.parametrize("what, build, n", [
    ("next steps after a line of colons", lambda n: _state_of_answer("Next steps" + ":" * n + " x"), 4_000),
    ("a heading with spaces inside", _items_of_heading, 2_000),
    ("a command of repeated 'git '", _staleness_of_git_repeats, 8_000),
    ("plan items against commit messages", _plan_against_commits, 1_000),
])
def test_the_paths_found_slow_grow_linearly(what, build, n) -> None:
    found = growth(what, build, n, runs=3)
    assert found.linear, str(found)


# -- the rewrites say what the patterns said ---------------------------------------------------------------------

_OLD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_OLD_GIT_COMMIT = re.compile(r"\bgit\b[^|;&]*\bcommit\b")
_OLD_LIST_INTRO = re.compile(r"^\W*(?:next steps?|remaining|todo|still to do)\b.*:\W*$", re.I)
_PIECES = st.lists(st.sampled_from(["#", " ", "  ", "\t", "a", "b", "é", ":", "-", "_", "next steps", "todo",
                                    "git", "commit", "|", ";", "&", "x1", "WP1", "WP12", ".", "+", "\u00a0"]),
                   max_size=12).map("".join)


@given(_PIECES)
def test_headings_are_read_as_the_pattern_read_them(line: str) -> None:
    from pi_compact.evaluation.quality import _heading

    line = line.strip()
    old = _OLD_HEADING.match(line)
    if old:
        assert _heading(line) == (len(old.group(1)), old.group(2))
    elif not line.startswith("**"):
        assert _heading(line) is None


@given(_PIECES)
def test_git_commit_is_recognized_as_the_pattern_recognized_it(command: str) -> None:
    from pi_compact.evaluation.quality import _is_git_commit

    assert _is_git_commit(command) == bool(_OLD_GIT_COMMIT.search(command))


@given(_PIECES)
def test_a_list_is_announced_as_the_pattern_announced_it(line: str) -> None:
    from pi_compact.compaction.offline.state import _announces_list

    line = line.strip()
    assert _announces_list(line) == bool(_OLD_LIST_INTRO.match(line))


@given(_PIECES, _PIECES)
def test_a_label_is_found_in_commits_as_the_pattern_found_it(label: str, text: str) -> None:
    from pi_compact.compaction.offline.plans import _LABEL, _finished, _WordsIn

    item = label + ": x"
    match = _LABEL.match(item)
    expected = bool(match) and re.search(rf"\b{re.escape(match.group(1))}\b", text) is not None
    assert _finished(item, _WordsIn(text)) == expected
