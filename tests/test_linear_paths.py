"""The super-linear paths of issue 23.5, each reproduced as a growth check (n, 2n, 4n; see tests/growth.py), and
each rewrite checked against the pattern it replaced on short text, where the old pattern is fast."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.tokens import text_tokens
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
    ("a command of repeated 'git '", _staleness_of_git_repeats, 32_000),
    ("plan items against commit messages", _plan_against_commits, 1_000),
    ("the token estimate of many short repeats", lambda n: lambda: text_tokens("aaab:" * n), 20_000),
    ("the token estimate of one long repeat", lambda n: lambda: text_tokens("kxwq" * n), 20_000),
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


# -- every function on session text, on hostile regions generated from the patterns' own pieces -------------------

from pi_compact.compaction.offline.details import detail_items  # noqa: E402
from pi_compact.compaction.offline.paths import infer_cwd  # noqa: E402
from pi_compact.compaction.offline.summary import OfflineSummarizer  # noqa: E402
from pi_compact.compaction.prune import condense  # noqa: E402
from pi_compact.compaction.redact import redact_secrets  # noqa: E402
from pi_compact.compaction.summarizer import SummaryRequest  # noqa: E402
from tests.regex_attacks import inputs  # noqa: E402
from tests.test_regex_audit import PATTERNS  # noqa: E402

_PER_PATTERN = 2


def _hostile_texts(units: int, modules: tuple[str, ...]) -> list[str]:
    """Adversarial texts of every pattern ``modules`` hold, each ``units`` units long."""
    texts = []
    for key, (pattern, _) in PATTERNS.items():
        if key.startswith(modules) and isinstance(pattern.pattern, str):
            texts += [text for _, text in list(inputs(pattern, units))[::5][:_PER_PATTERN]]
    return texts


def text_region(units: int, modules: tuple[str, ...]) -> list[dict]:
    """Every hostile text of ``modules`` as a prompt, an answer, a command and its failed output."""
    region: list[dict] = [user("Work through the plan.")]
    for index, text in enumerate(_hostile_texts(units, modules)):
        region += [user(text), assistant(text), assistant(call(f"h{index}", "bash", command=text)),
                   result(f"h{index}", "bash", text + "\n\nCommand exited with code 1", error=True)]
    return region


def count_region(n: int) -> list[dict]:
    """``n`` of each thing a summary pairs with another: plan items and commits, failures and reruns, failed and
    passing checks of other scopes, steps."""
    plan = "# Plan\n" + "".join(f"## WP{i}: part {i}\n- [ ] step {i}\n" for i in range(n))
    region = [user("Work through the plan."), assistant(call("plan", "write", path="docs/plan.md", content=plan)),
              result("plan", "write", "ok")]
    for i in range(n):
        region += [assistant(call(f"t{i}", "bash", command=f"pytest tests/test_{i}.py")),
                   result(f"t{i}", "bash", f"FAILED tests/test_{i}.py::test_x\n\nCommand exited with code 1", error=True),
                   assistant(call(f"c{i}", "bash", command=f'git commit -m "WP{n + i}: other {i}"')),
                   result(f"c{i}", "bash", "ok"),
                   assistant(call(f"p{i}", "bash", command=f"pytest tests/other_{i}.py -k other_{i}")),
                   result(f"p{i}", "bash", "1 passed")]
    region.append(assistant("Next steps:\n" + "".join(f"- step {i}\n" for i in range(n))))
    return region


def _summary_of(region: list[dict]) -> str:
    """Every text the region says, as open items and as raw lines (headings among them)."""
    texts = [m["content"][0]["text"] for m in region if m["role"] in ("user", "assistant") and m["content"]
             and isinstance(m["content"], list) and m["content"][0].get("type") == "text"]
    return "## Next Steps\n" + "".join(f"- {t}\n" for t in texts) + "\n".join(texts) + "\n- fix `tests/test_1.py` error"


_OFFLINE = ("pi_compact.compaction.offline",)
ENTRY_POINTS = {
    "extract_facts": (lambda region: extract_facts(region), _OFFLINE),
    "region_state": (lambda region: region_state(region, extract_facts(region)), _OFFLINE),
    "open_plan_items": (lambda region: open_plan_items(region, " ".join(
        m["content"][0]["arguments"].get("command", "") for m in region if m["role"] == "assistant"
        and m["content"] and m["content"][0].get("type") == "toolCall")), _OFFLINE),
    "infer_cwd": (lambda region: infer_cwd(region), _OFFLINE),
    "detail_items": (lambda region: detail_items(region, region_state(region, extract_facts(region)),
                                                 extract_facts(region), "", "", 10**6), _OFFLINE),
    "condense": (lambda region: condense(region), ("pi_compact.compaction.prune",)),
    "redact_secrets": (lambda region: redact_secrets(condense(region)), ("pi_compact.compaction.redact",)),
    "score_quality": (lambda region: score_quality(region, _summary_of(region)),
                      ("pi_compact.evaluation.quality", "pi_compact.evaluation.recall")),
    "offline summary": (lambda region: OfflineSummarizer().summarize(
        SummaryRequest("", "", 4000, messages=tuple(region))), _OFFLINE),
}


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_every_function_on_session_text_grows_linearly_in_hostile_text(name) -> None:
    function, modules = ENTRY_POINTS[name]
    regions = {size: text_region(size, modules) for size in (30, 60, 120)}
    found = growth(name, lambda size: (lambda: function(regions[size])), 30, runs=3)
    assert found.linear, str(found)


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_every_function_on_session_text_grows_linearly_in_the_things_it_pairs(name) -> None:
    function, _ = ENTRY_POINTS[name]
    regions = {size: count_region(size) for size in (300, 600, 1200)}
    found = growth(name, lambda size: (lambda: function(regions[size])), 300, runs=3)
    assert found.linear, str(found)


def decided_and_undone_region(n: int) -> list[dict]:
    """``n`` turns, each deciding something about its own file, changing it, taking it back with git and saying so:
    decisions, files, undoing commands and the rules of later turns each n, all asked about one another."""
    region = []
    for i in range(n):
        region += [user(f"Work on module {i}: make sure parser{i} keeps streaming, add the parser"),
                   assistant(f"I decided to use the streaming approach for module{i} parser because it is faster."),
                   assistant(call(f"w{i}", "write", path=f"src/m{i}.py", content="x")), result(f"w{i}", "write", "ok"),
                   assistant(call(f"g{i}", "bash", command=f"git restore src/m{i}.py")), result(f"g{i}", "bash", ""),
                   assistant(f"I reverted the change to module{i} since the streaming parser{i} was replaced "
                             f"by `reader{i}`.")]
    return region


def test_the_region_state_grows_linearly_in_decisions_files_and_undoing() -> None:
    regions = {n: decided_and_undone_region(n) for n in (60, 120, 240)}
    facts = {n: extract_facts(region) for n, region in regions.items()}
    found = growth("region_state", lambda n: (lambda: region_state(regions[n], facts[n])), 60, runs=3)
    assert found.linear, str(found)
