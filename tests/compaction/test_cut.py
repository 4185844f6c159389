"""Cut points: pi's ``findCutPoint`` cases (compaction.test.ts), tool calls never parted from their results,
split turns, pi's edge behaviours we keep, and the three quirks we fix: custom messages and branch summaries
count towards the kept budget; a label or change entry before a user message is no split turn; a final tool
result bigger than the budget no longer keeps everything."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from pi_compact import Session
from pi_compact.compaction import CutPoint, find_cut_point, find_turn_start, valid_cut_points
from sessions_fixtures import PI_DIR

from .builders import Chain, assistant, bash_run, call, tool_result, usage, user

FIXTURES = PI_DIR


def role_at(chain: Chain, index: int) -> str | None:
    entry = chain[index]
    return entry["message"]["role"] if entry["type"] == "message" else None


# -- pi's cases -----------------------------------------------------------------------------------------------


def test_pi_cut_at_a_user_or_assistant_message() -> None:
    chain = Chain()
    for i in range(10):
        chain.message(user(f"User {i}"))
        chain.message(assistant(f"Assistant {i}", usage=usage(0, 100, (i + 1) * 1000)))
    cut = find_cut_point(chain.entries, 0, len(chain), 2500)
    assert role_at(chain, cut.first_kept_index) in ("user", "assistant")


def test_pi_no_valid_cut_point_returns_start() -> None:
    chain = Chain()
    chain.message(assistant("a"))
    assert find_cut_point(chain.entries, 0, 1, 1000).first_kept_index == 0
    only_results = Chain()
    only_results.add("model_change", provider="p", modelId="m")
    only_results.message(user("x"))
    only_results.message(tool_result("c1", "read", "r" * 400))
    only_results.message(tool_result("c2", "read", "r" * 400))
    assert find_cut_point(only_results.entries, 2, 4, 10) == CutPoint(2, -1, False)


def test_pi_keep_everything_when_all_fits() -> None:
    chain = Chain()
    for message in (user("1"), assistant("a"), user("2"), assistant("b")):
        chain.message(message)
    assert find_cut_point(chain.entries, 0, len(chain), 50_000) == CutPoint(0, -1, False)


_WORDS = ("alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa")


def test_pi_split_turn_when_cutting_at_an_assistant_message() -> None:
    chain = Chain()
    chain.message(user("Turn 1"))
    chain.message(assistant("A1"))
    chain.message(user("Turn 2"))  # index 2
    for part in range(3):
        # ~460 tokens each, indices 3..5: words in no short period ("word " * 400 is priced as a repeat, 4x)
        chain.message(assistant(f"A2-{part} " + " ".join(_WORDS[i * i % 7] for i in range(400))))
    cut = find_cut_point(chain.entries, 0, len(chain), 700)
    assert cut == CutPoint(4, 2, True)


def test_large_fixture_has_a_valid_cut() -> None:
    path = Session.open(FIXTURES / "large-session.v1.jsonl").branch()
    cut = find_cut_point(path, 0, len(path), 20_000)
    assert 0 < cut.first_kept_index < len(path)
    assert path[cut.first_kept_index]["message"]["role"] in ("user", "assistant")


# -- tool pairs and split turns --------------------------------------------------------------------------------

_turn_parts = st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 6000)), min_size=0, max_size=4)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 2000), _turn_parts), min_size=1, max_size=6), st.integers(1, 30_000))
def test_a_tool_call_and_its_result_are_never_parted(turns, keep) -> None:
    chain = Chain()
    for n, (request, calls) in enumerate(turns):
        chain.message(user("u" * request))
        for k, (argument, output) in enumerate(calls):
            chain.message(assistant(call(f"c{n}-{k}", "bash", command="a" * argument)))
            chain.message(tool_result(f"c{n}-{k}", "bash", "o" * output))
        chain.message(assistant("done"))
    cut = find_cut_point(chain.entries, 0, len(chain), keep)
    assert role_at(chain, cut.first_kept_index) != "toolResult"
    kept_calls = {b["id"] for e in chain.entries[cut.first_kept_index:] if role_at_entry(e) == "assistant"
                  for b in e["message"]["content"] if b["type"] == "toolCall"}
    for entry in chain.entries[cut.first_kept_index:]:
        if role_at_entry(entry) == "toolResult":
            assert entry["message"]["toolCallId"] in kept_calls
    if cut.is_split_turn:
        assert role_at(chain, cut.turn_start_index) == "user"
        assert cut.turn_start_index < cut.first_kept_index
        assert not any(role_at(chain, i) == "user" for i in range(cut.turn_start_index + 1, cut.first_kept_index + 1))


def role_at_entry(entry: dict) -> str | None:
    return entry["message"]["role"] if entry["type"] == "message" else None


def test_one_turn_bigger_than_the_budget_is_split() -> None:
    chain = Chain()
    chain.message(user("Earlier request"))
    chain.message(assistant("ok"))
    chain.message(user("Refactor everything"))  # index 2 opens the big turn
    for k in range(4):
        chain.message(assistant(call(f"c{k}", "read", path=f"f{k}.py")))
        chain.message(tool_result(f"c{k}", "read", "r" * 8000))  # 2000 tokens each
    cut = find_cut_point(chain.entries, 0, len(chain), 3000)
    assert cut.is_split_turn and cut.turn_start_index == 2
    assert role_at(chain, cut.first_kept_index) == "assistant"
    # The budget is crossed inside the third loop's result (index 8): pi cuts at the next cut point after it.
    assert cut.first_kept_index == 9


def test_preceding_change_entries_are_pulled_into_the_kept_region() -> None:
    chain = Chain()
    chain.message(user("first"))
    chain.message(assistant("x" * 8000))
    chain.add("model_change", provider="openai", modelId="gpt")
    chain.add("thinking_level_change", thinkingLevel="high")
    chain.message(user("second " + "y" * 4800))  # index 4, alone over the 1,000-token budget
    chain.message(assistant("answer"))
    assert find_cut_point(chain.entries, 0, len(chain), 1000) == CutPoint(2, -1, False)


def test_the_pull_back_stops_at_the_start_and_at_a_compaction() -> None:
    chain = Chain()
    chain.message(user("first"))
    chain.add("compaction", summary="s", firstKeptEntryId="e0", tokensBefore=1)
    chain.add("label", targetId="e0", label="here")
    chain.message(user("second " + "y" * 4800))  # index 3, alone over the 1,000-token budget
    chain.message(assistant("answer"))
    assert find_cut_point(chain.entries, 0, len(chain), 1000).first_kept_index == 2
    assert find_cut_point(chain.entries, 3, len(chain), 1000).first_kept_index == 3


def test_a_huge_final_tool_result_is_kept_with_its_call_only() -> None:
    """pi crosses the budget after the last cut point and falls back to the first one: no reduction at all, so
    an agent that just read a big file could not compact. Here the cut lands on the call instead."""
    chain = Chain()
    chain.message(user("earlier"))
    chain.message(assistant("x" * 40_000))
    chain.message(user("read it"))
    chain.message(assistant(call("c1", "read", path="big.log")))
    chain.message(tool_result("c1", "read", "z" * 400_000))
    assert find_cut_point(chain.entries, 0, len(chain), 20_000) == CutPoint(3, 2, True)


# -- the fixed quirks -------------------------------------------------------------------------------------------


def test_custom_messages_count_towards_the_kept_budget() -> None:
    """pi skips non-``message`` entries when counting, so a huge custom message kept everything."""
    chain = Chain()
    chain.message(user("first"))
    chain.message(assistant("ok"))
    chain.add("custom_message", customType="ext", content="c" * 20_000, display=True)  # 4,375 tokens
    chain.message(user("second"))
    chain.message(assistant("ok"))
    assert find_cut_point(chain.entries, 0, len(chain), 1000) == CutPoint(2, -1, False)


def test_branch_summaries_count_towards_the_kept_budget() -> None:
    chain = Chain()
    chain.message(user("first"))
    chain.message(assistant("ok"))
    chain.add("branch_summary", fromId="e1", summary="b" * 20_000)
    chain.message(user("second"))
    assert find_cut_point(chain.entries, 0, len(chain), 1000) == CutPoint(2, -1, False)


def test_a_label_before_the_kept_user_message_is_no_split_turn() -> None:
    """pi: the cut moves onto the label, which is not a user message, so the previous turn became a
    "turn prefix" (isSplitTurn with turnStart = the previous user message)."""
    chain = Chain()
    chain.message(user("Turn 1"))
    chain.message(assistant("x" * 8000))
    chain.add("label", targetId="e1", label="checkpoint")
    chain.add("session_info", name="my session")
    chain.message(user("Turn 2 " + "y" * 4800))  # index 4, alone over the 1,000-token budget
    chain.message(assistant("answer"))
    assert find_cut_point(chain.entries, 0, len(chain), 1000) == CutPoint(2, -1, False)


def test_a_cut_at_a_bash_run_or_custom_message_is_no_split_turn() -> None:
    """pi flags these as split turns with an empty prefix; here they are plain cuts."""
    for opener in ("bash", "custom"):
        chain = Chain()
        chain.message(user("first"))
        chain.message(assistant("x" * 8000))
        if opener == "bash":
            chain.message(bash_run("make", "y" * 8000))
        else:
            chain.add("custom_message", customType="ext", content="y" * 8000, display=True)
        chain.message(assistant("answer"))
        assert find_cut_point(chain.entries, 0, len(chain), 1000) == CutPoint(2, -1, False), opener


# -- helpers -------------------------------------------------------------------------------------------------


def test_valid_cut_points_and_turn_starts() -> None:
    chain = Chain()
    chain.add("model_change", provider="p", modelId="m")  # 0
    chain.message(user("u"))  # 1
    chain.message(assistant(call("c1", "read", path="a")))  # 2
    chain.message(tool_result("c1", "read", "r"))  # 3
    chain.add("custom_message", customType="x", content="c", display=False)  # 4
    chain.add("branch_summary", fromId="e4", summary="s")  # 5
    chain.message(bash_run("ls", ""))  # 6
    chain.add("custom", customType="state", data={})  # 7
    chain.message(assistant("end"))  # 8
    assert valid_cut_points(chain.entries, 0, len(chain)) == [1, 2, 4, 5, 6, 8]
    assert find_turn_start(chain.entries, 3, 0) == 1
    assert find_turn_start(chain.entries, 8, 0) == 6
    assert find_turn_start(chain.entries, 4, 0) == 4
    assert find_turn_start(chain.entries, 0, 0) == -1
