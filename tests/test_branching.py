"""Branch checkout: where branches meet, what the abandoned part holds, its summary, and what gets written.

Sessions are built in memory or in a temporary file from a compact tree spec; a file's bytes are compared
before and after to prove what was (or was not) written.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pi_compact
from pi_compact import ROOT, AmbiguousEntryError, EntryNotFoundError, Session, SummarizerError
from pi_compact.branching import (
    BRANCH_SUMMARY_PREAMBLE,
    CHECKOUT_TYPE,
    branch_summary_notes,
    checkout,
    collect_abandoned,
    common_ancestor,
    prepare_branch,
)
from pi_compact.compaction.prompts import SYSTEM_PROMPT
from pi_compact.compaction.settings import CompactionSettings
from pi_compact.context import context_from_path
from pi_compact.llm.anthropic import AnthropicSummarizer
from pi_compact.llm.openai import OpenAISummarizer
from pi_compact.testing import FakeReply, ScriptedSummarizer

GOOD_ANSWER = (
    "## Goal\nTry approach X.\n\n## Constraints & Preferences\n- never use regex\n\n## Progress\n### Done\n"
    "- [x] edited the parser\n\n## Key Decisions\n- **X**: simpler\n\n## Next Steps\n1. run the tests"
)


# -- building sessions ---------------------------------------------------------------------------------------


def user(text: str) -> dict:
    return {"role": "user", "content": text, "timestamp": 1}


def assistant(text: str = "", *calls: tuple[str, str]) -> dict:
    content: list[dict] = [{"type": "text", "text": text}] if text else []
    content += [{"type": "toolCall", "id": f"c{i}", "name": n, "arguments": {"path": p}} for i, (n, p) in enumerate(calls)]
    return {"role": "assistant", "content": content, "api": "anthropic-messages", "provider": "anthropic",
            "model": "claude-test", "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0,
                                              "totalTokens": 2, "cost": {}},
            "stopReason": "toolUse" if calls else "stop", "timestamp": 2}


def tool_result(text: str) -> dict:
    return {"role": "toolResult", "toolCallId": "c0", "toolName": "bash", "content": [{"type": "text", "text": text}],
            "isError": False, "timestamp": 3}


def grow(session: Session, parent: str | None, *messages: dict) -> list[str]:
    """Append a chain of messages under ``parent`` (``None``: a new root); return their ids."""
    session.move_leaf(parent)
    return [session.append_message(m)["id"] for m in messages]


@pytest.fixture
def tree() -> tuple[Session, dict[str, str]]:
    """root → a1 → u2 ┬ b-side: u3 → a3 (the leaf's branch, ends at the leaf a4)
                       └ c-side: u5 → a5
    plus a second root r1 → r2 after a reset."""
    s = Session.in_memory("/p")
    ids: dict[str, str] = {}
    ids["root"], ids["a1"], ids["u2"] = grow(s, None, user("fix the parser"), assistant("looking"), user("try X"))
    ids["u5"], ids["a5"] = grow(s, ids["u2"], user("try Y instead"), assistant("Y done", ("edit", "y.py")))
    ids["r1"], ids["r2"] = grow(s, None, user("unrelated"), assistant("answer"))
    ids["u3"], ids["a3"], ids["a4"] = grow(s, ids["u2"], user("go on with X"), assistant("X", ("edit", "x.py")),
                                           assistant("X done"))
    return s, ids


@pytest.fixture
def on_disk(tmp_path: Path) -> Iterator[tuple[Session, dict[str, str], Path]]:
    path = tmp_path / "s.jsonl"
    s = Session.create_at(path, "/p")
    ids: dict[str, str] = {}
    ids["u1"], ids["a1"] = grow(s, None, user("fix the parser"), assistant("reading", ("read", "src/p.py")))
    ids["u2"], ids["a2"], ids["t2"], ids["a3"] = grow(
        s, ids["a1"], user("try approach X"), assistant("", ("edit", "src/p.py")), tool_result("ok"), assistant("X done"))
    yield s, ids, path
    s.close()


# -- common ancestor -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("a4", "a5", "u2"),
        ("a5", "a4", "u2"),
        ("a4", "u3", "u3"),
        ("u3", "a4", "u3"),
        ("a4", "a4", "a4"),
        ("a1", "a5", "a1"),
        ("a4", "r2", None),
        ("r1", "r2", "r1"),
        ("a4", None, None),
        (None, "a4", None),
        (None, None, None),
    ],
    ids=["siblings", "siblings-swapped", "descendant-ancestor", "ancestor-descendant", "same", "deep-ancestor",
         "different-roots", "same-second-root", "to-root", "from-root", "root-root"],
)
def test_common_ancestor(tree, a, b, expected) -> None:
    s, ids = tree
    name = lambda key: ids[key] if key is not None else None  # noqa: E731
    assert common_ancestor(s, name(a), name(b)) == name(expected)


def test_common_ancestor_of_an_unknown_entry_is_an_error(tree) -> None:
    s, ids = tree
    with pytest.raises(EntryNotFoundError, match="nope"):
        common_ancestor(s, ids["a4"], "nope")


@pytest.mark.parametrize(
    ("old", "target", "expected"),
    [
        ("a4", "a5", ["u3", "a3", "a4"]),
        ("a4", "u2", ["u3", "a3", "a4"]),
        ("a4", "a3", ["a4"]),
        ("a4", "a4", []),
        ("u3", "a4", []),
        ("a4", None, ["root", "a1", "u2", "u3", "a3", "a4"]),
        ("a4", "r2", ["root", "a1", "u2", "u3", "a3", "a4"]),
        (None, "a4", []),
    ],
    ids=["sibling", "ancestor", "parent", "leaf", "descendant", "root", "other-root", "no-old-leaf"],
)
def test_collect_abandoned_is_old_leaf_back_to_the_ancestor_oldest_first(tree, old, target, expected) -> None:
    s, ids = tree
    name = lambda key: ids[key] if key is not None else None  # noqa: E731
    assert [e["id"] for e in collect_abandoned(s, name(old), name(target))] == [ids[k] for k in expected]


# -- preparing within a budget -------------------------------------------------------------------------------


_WORDS = ("alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa")


def _prose(words: int) -> str:
    """Words in no short period (a letter or a group repeated is priced as a repeat, above its weights)."""
    return " ".join(_WORDS[i * i % 7] for i in range(words))


def _entry(message: dict, n: int) -> dict:
    return {"type": "message", "id": f"m{n}", "parentId": f"m{n - 1}" if n else None,
            "timestamp": "2026-01-01T00:00:00.000Z", "message": message}


def test_a_branch_larger_than_the_budget_keeps_the_newest_messages_and_every_file() -> None:
    entries = [_entry(user("old request " + "x" * 4000), 0), _entry(assistant("old", ("read", "old.py")), 1)]
    entries += [_entry(user(f"step {n} " + "y" * 400), n) for n in range(2, 30)]
    entries.append(_entry(assistant("newest", ("edit", "new.py")), 30))
    prep = prepare_branch(entries, 1000)
    assert prep.tokens <= 1000
    assert prep.messages[-1]["content"][0]["text"] == "newest"
    assert 0 < len(prep.messages) < prep.total_messages == 31
    assert prep.messages_dropped == 31 - len(prep.messages)
    assert prep.total_tokens > 1000 + 1000  # the whole branch, not just what fits
    assert prep.files.read_files == ("old.py",)  # read long before the budget ran out
    assert prep.files.modified_files == ("new.py",)
    assert prepare_branch(entries, 0).messages == tuple(e["message"] for e in entries)


def test_an_older_summary_past_the_budget_is_kept_only_while_under_90_percent() -> None:
    summary = {"type": "compaction", "id": "c", "parentId": None, "timestamp": "2026-01-01T00:00:00.000Z",
               "summary": _prose(860), "firstKeptEntryId": "c", "tokensBefore": 9}  # 995 tokens
    small, big = _entry(user(_prose(75)), 1), _entry(user(_prose(790)), 1)  # 89 and 914 tokens
    under = prepare_branch([summary, small], 1000)
    assert [m["role"] for m in under.messages] == ["compactionSummary", "user"]
    assert under.tokens > 1000  # taken anyway, as pi does
    over = prepare_branch([summary, big], 1000)
    assert [m["role"] for m in over.messages] == ["user"]
    plain = prepare_branch([_entry(user(_prose(860)), 0), small], 1000)
    assert [m["role"] for m in plain.messages] == ["user"]  # an ordinary message is not


def test_tool_results_are_read_and_counted_at_the_length_the_summarizer_sees() -> None:
    entries = [_entry(assistant("", ("bash", "x")), 0), _entry(tool_result(_prose(17_500)), 1)]  # 100k chars
    prep = prepare_branch(entries, 0, tool_result_chars=2000)
    assert [m["role"] for m in prep.messages] == ["assistant", "toolResult"]  # pi drops tool results
    assert 400 < prep.tokens < 600  # 2,000 of the 100,000 characters (405 tokens), the call and the cut marker
    assert prep.total_tokens > 20_000


def test_a_large_abandoned_branch_is_cut_to_the_summarizers_window(on_disk) -> None:
    s, ids, _ = on_disk
    for n in range(60):
        s.append_message(user(f"request {n}: " + "w" * 2000))
    scripted = ScriptedSummarizer([GOOD_ANSWER], name="tiny", context_window=18_000)
    result = checkout(s, ids["a1"], summarizer=scripted, settings=CompactionSettings(reserve_tokens=16_384))
    [call] = scripted.calls
    assert 0 < len(call.messages) < 64
    assert call.messages[-1]["content"].startswith("request 59")
    details = result.summary_entry["details"]
    assert details["messagesSummarized"] == len(call.messages) == result.messages_summarized
    assert details["messagesAbandoned"] == result.abandoned_messages == 64
    assert details["modifiedFiles"] == ["src/p.py"]  # from the edit the summarizer never saw


# -- cumulative files ----------------------------------------------------------------------------------------


def test_files_accumulate_through_a_compaction_and_a_nested_branch_summary(on_disk) -> None:
    s, ids, _ = on_disk
    s.append_compaction("## Goal\nearlier", ids["u2"], 500, {"readFiles": ["docs/a.md", "src/p.py"],
                                                              "modifiedFiles": ["old/c.py"]}, False)
    s.append("branch_summary", {"fromId": ids["a3"], "summary": "nested", "fromHook": False,
                                "details": {"readFiles": ["nested/r.py"], "modifiedFiles": ["nested/m.py"]}})
    s.append("branch_summary", {"fromId": ids["a3"], "summary": "from an extension", "fromHook": True,
                                "details": {"readFiles": ["hook/ignored.py"], "modifiedFiles": []}})
    s.append_message(assistant("", ("write", "new/w.py"), ("read", "docs/b.md")))
    result = checkout(s, ids["a1"])
    details = result.summary_entry["details"]
    assert details["readFiles"] == ["docs/a.md", "docs/b.md", "nested/r.py"]
    assert details["modifiedFiles"] == ["nested/m.py", "new/w.py", "old/c.py", "src/p.py"]
    text = result.summary
    assert text.startswith(BRANCH_SUMMARY_PREAMBLE)
    assert text.endswith("<read-files>\ndocs/a.md\ndocs/b.md\nnested/r.py\n</read-files>\n\n<modified-files>\n"
                         "nested/m.py\nnew/w.py\nold/c.py\nsrc/p.py\n</modified-files>")
    assert text.count("<read-files>") == 1


def test_a_branch_summary_lists_no_file_its_path_showed_is_not_there(on_disk) -> None:
    """A read that found no file, and a file the path deleted, are in no list of the branch summary's text (the
    abandoned path's work stays on disk: so do its deletions); the details keep pi's raw lists."""
    s, ids, _ = on_disk
    s.append_message(assistant("", ("read", "src/missing.py")))
    s.append_message({"role": "toolResult", "toolCallId": "c0", "toolName": "read", "isError": True, "timestamp": 3,
                      "content": [{"type": "text", "text": "ENOENT: no such file or directory, access 'src/missing.py'"}]})
    s.append_message(assistant("", ("write", "src/tmp_probe.py")))
    s.append_message(tool_result("ok"))
    s.append_message({**assistant("", ("bash", "")), "content": [{"type": "toolCall", "id": "c0", "name": "bash",
                                                                   "arguments": {"command": "rm src/tmp_probe.py"}}]})
    s.append_message(tool_result(""))
    text = checkout(s, ids["a1"]).summary
    read_files = text.split("<read-files>\n", 1)[1].split("\n</read-files>", 1)[0].splitlines() if "<read-files>" in text else []
    modified = text.split("<modified-files>\n", 1)[1].split("\n</modified-files>", 1)[0].splitlines()
    assert "src/missing.py" not in read_files
    assert "src/tmp_probe.py" not in modified
    assert modified == ["src/p.py"]


# -- what a checkout writes ----------------------------------------------------------------------------------


def test_checking_out_an_ancestor_hangs_the_summary_there(on_disk) -> None:
    s, ids, path = on_disk
    before = path.read_bytes()
    result = checkout(s, ids["a1"])
    entry = result.summary_entry
    assert path.read_bytes().startswith(before)
    assert path.read_bytes().count(b"\n") == before.count(b"\n") + 1
    assert (entry["parentId"], entry["fromId"], entry["fromHook"]) == (ids["a1"], ids["a3"], False)
    assert (result.old_leaf, result.new_leaf, result.common_ancestor) == (ids["a3"], entry["id"], ids["a1"])
    assert (result.abandoned_entries, result.abandoned_messages) == (4, 4)
    assert result.strategy == entry["details"]["strategy"] == "offline"
    assert s.leaf_id == entry["id"]
    messages = s.build_context().messages
    assert [m["role"] for m in messages] == ["user", "assistant", "branchSummary"]
    assert messages[-1]["fromId"] == ids["a3"]
    assert Session.open(path).leaf_id == entry["id"]


def test_a_checkout_result_as_json_is_what_session_checkout_prints(on_disk) -> None:
    s, ids, _ = on_disk
    result = checkout(s, "root")
    data = result.to_json()
    assert list(data) == ["changed", "oldLeafId", "targetId", "newLeafId", "commonAncestorId", "abandoned",
                          "summaryEntryId", "positionEntryId", "strategy", "summarizer", "fallbackReason",
                          "messagesSummarized", "readFiles", "modifiedFiles", "summary"]
    assert (data["targetId"], data["oldLeafId"], data["newLeafId"]) == (ROOT, ids["a3"], result.summary_entry["id"])
    assert data["abandoned"] == {"entries": 6, "messages": 6, "tokens": result.abandoned_tokens}
    assert (data["readFiles"], data["modifiedFiles"]) == ([], ["src/p.py"])
    assert data["summary"] == result.summary and data["positionEntryId"] is None
    assert checkout(s, ids["a1"], summarize=False, persist_position=True).to_json()["summaryEntryId"] is None


def test_checking_out_root_makes_the_summary_a_new_root(on_disk) -> None:
    s, ids, _ = on_disk
    result = checkout(s, "root")
    assert result.target is None and result.common_ancestor is None
    assert result.summary_entry["parentId"] is None
    assert result.abandoned_messages == 6
    assert [m["role"] for m in s.build_context().messages] == ["branchSummary"]


def test_checking_out_the_leaf_writes_nothing(on_disk) -> None:
    s, ids, path = on_disk
    before = path.read_bytes()
    result = checkout(s, ids["a3"], persist_position=True)
    assert not result.changed and result.strategy == "noop" and result.summary_entry is None
    assert path.read_bytes() == before


@pytest.mark.parametrize("summarize", [True, False], ids=["summary", "position"])
def test_checking_out_the_same_target_twice_writes_once(on_disk, summarize) -> None:
    s, ids, path = on_disk
    checkout(s, ids["a1"], summarize=summarize, persist_position=True)
    after_first = path.read_bytes()
    assert not checkout(s, ids["a1"], summarize=summarize, persist_position=True).changed
    assert path.read_bytes() == after_first


def test_without_a_summary_only_the_leaf_moves(on_disk) -> None:
    s, ids, path = on_disk
    before = path.read_bytes()
    result = checkout(s, ids["u2"], summarize=False)
    assert (result.strategy, result.summary_entry, result.position_entry) == ("move", None, None)
    assert s.leaf_id == result.new_leaf == ids["u2"]
    assert result.abandoned_messages == 3
    assert path.read_bytes() == before


def test_a_persisted_position_is_a_custom_entry_at_the_target(on_disk) -> None:
    s, ids, path = on_disk
    result = checkout(s, ids["u2"], summarize=False, persist_position=True)
    entry = result.position_entry
    assert (entry["type"], entry["customType"], entry["parentId"]) == ("custom", CHECKOUT_TYPE, ids["u2"])
    assert entry["data"] == {"from": ids["a3"], "to": ids["u2"]}
    reopened = Session.open(path)
    assert reopened.leaf_id == entry["id"]
    assert reopened.build_context().to_json() == context_from_path(s.branch(ids["u2"])).to_json()


def test_a_persisted_root_position_is_a_custom_root_that_builds_an_empty_context(on_disk) -> None:
    s, _, path = on_disk
    result = checkout(s, None, summarize=False, persist_position=True)
    assert result.position_entry["parentId"] is None
    assert result.position_entry["data"]["to"] == "root"
    assert Session.open(path).build_context().to_json() == {"messages": [], "thinkingLevel": "off", "model": None}
    follow_up = s.append_message(user("fresh start"))
    assert [m["content"] for m in s.build_context().messages] == ["fresh start"]
    assert follow_up["parentId"] == result.position_entry["id"]


def test_nothing_to_summarize_writes_no_summary(on_disk) -> None:
    s, ids, path = on_disk
    s.append_label(ids["a3"], "done")
    s.append_model_change("openai", "gpt-test")
    before = path.read_bytes()
    result = checkout(s, ids["a3"])
    assert result.summary_entry is None and result.strategy == "move"
    assert (result.abandoned_entries, result.abandoned_messages) == (2, 0)
    assert path.read_bytes() == before and s.leaf_id == ids["a3"]
    persisted = checkout(s, ids["a3"], persist_position=False)
    assert not persisted.changed


def test_nothing_to_summarize_with_persist_position_writes_the_position(on_disk) -> None:
    s, ids, _ = on_disk
    s.append_label(ids["a3"], "done")
    result = checkout(s, ids["a3"], persist_position=True)
    assert result.summary_entry is None
    assert result.position_entry["parentId"] == ids["a3"]


def test_a_descendant_of_the_leaf_abandons_nothing(on_disk) -> None:
    s, ids, _ = on_disk
    s.move_leaf(ids["a1"])
    result = checkout(s, ids["a3"])
    assert result.abandoned_entries == 0 and result.summary_entry is None and s.leaf_id == ids["a3"]


# -- summarizers and failures --------------------------------------------------------------------------------


def test_an_llm_summary_is_asked_for_with_the_branch_prompt(on_disk) -> None:
    s, ids, _ = on_disk
    s.append_message(user("my key is sk-ant-abcdefghijklmnopqrstuvwx, keep it"))
    scripted = ScriptedSummarizer([GOOD_ANSWER])
    result = checkout(s, ids["a1"], summarizer=scripted, instructions="focus on the parser")
    [call] = scripted.calls
    assert (call.kind, call.system, call.instructions) == ("branch", SYSTEM_PROMPT, "focus on the parser")
    assert call.prompt.startswith("<conversation>\n[User]: try approach X")
    assert "Create a structured summary of this conversation branch" in call.prompt
    assert call.prompt.endswith("Additional focus: focus on the parser")
    assert "sk-ant-abcdefghijklmnopqrstuvwx" not in call.prompt and "[REDACTED]" in call.prompt
    assert call.max_tokens <= 2048
    assert result.strategy == "summarize" and result.summarizer == "scripted" and result.fallback_reason is None
    assert result.summary == BRANCH_SUMMARY_PREAMBLE + GOOD_ANSWER + "\n\n<modified-files>\nsrc/p.py\n</modified-files>"


@pytest.mark.parametrize(
    "failure",
    [SummarizerError("anthropic API error 529: overloaded"), "too short", "no sections at all, just some prose here " * 3],
    ids=["raises", "short-answer", "no-sections"],
)
def test_a_failing_llm_falls_back_to_the_offline_summary(on_disk, failure) -> None:
    s, ids, path = on_disk
    scripted = ScriptedSummarizer([failure])
    result = checkout(s, ids["a1"], summarizer=scripted)
    details = result.summary_entry["details"]
    assert result.strategy == details["strategy"] == "offline"
    assert details["fallbackReason"].startswith("scripted: ") and result.fallback_reason == details["fallbackReason"]
    assert "## Goal" in result.summary and "try approach X" in result.summary
    assert Session.open(path).leaf_id == result.new_leaf


def test_an_unexpected_error_leaves_the_session_untouched(on_disk) -> None:
    s, ids, path = on_disk
    before = path.read_bytes()
    with pytest.raises(RuntimeError):
        checkout(s, ids["a1"], summarizer=ScriptedSummarizer([RuntimeError("bug")]))
    assert path.read_bytes() == before and s.leaf_id == ids["a3"]


def test_a_failing_fallback_leaves_the_session_untouched(on_disk, monkeypatch) -> None:
    from pi_compact.compaction.offline import OfflineSummarizer

    def broken(self, request):
        raise SummarizerError("offline broke")

    monkeypatch.setattr(OfflineSummarizer, "summarize", broken)
    s, ids, path = on_disk
    before = path.read_bytes()
    with pytest.raises(SummarizerError, match="offline broke"):
        checkout(s, ids["a1"], summarizer=ScriptedSummarizer([SummarizerError("down")]))
    assert path.read_bytes() == before and s.leaf_id == ids["a3"]


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_real_sdk_getting_500_falls_back(on_disk, server, provider) -> None:
    s, ids, _ = on_disk
    server.push(FakeReply(text="upstream exploded", status=500))
    if provider == "anthropic":
        llm = AnthropicSummarizer("claude-sonnet-4-6", api_key="sk-test", base_url=server.url, max_retries=0)
    else:
        llm = OpenAISummarizer("gpt-test", api_key="sk-test", base_url=server.url + "/v1", max_retries=0)
    result = checkout(s, ids["a1"], summarizer=llm)
    assert len(server.requests) == 1
    assert result.strategy == "offline"
    assert result.fallback_reason.startswith(f"{provider}: ") and "500" in result.fallback_reason


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_real_sdk_answer_is_stored(on_disk, server, provider) -> None:
    s, ids, _ = on_disk
    server.push(FakeReply(text=GOOD_ANSWER))
    if provider == "anthropic":
        llm = AnthropicSummarizer("claude-sonnet-4-6", api_key="sk-test", base_url=server.url, max_retries=0)
    else:
        llm = OpenAISummarizer("gpt-test", api_key="sk-test", base_url=server.url + "/v1", max_retries=0)
    result = checkout(s, ids["a1"], summarizer=llm)
    assert result.strategy == "summarize" and result.summarizer == provider
    assert GOOD_ANSWER in result.summary


# -- naming the target ---------------------------------------------------------------------------------------


def test_targets_may_be_prefixes_or_labels(on_disk) -> None:
    s, ids, _ = on_disk
    s.append_label(ids["u2"], "approach-x")
    assert checkout(s, "approach-x", summarize=False).new_leaf == ids["u2"]
    others = [e["id"] for e in s.entries() if e["id"] != ids["a1"]]
    prefix = next(ids["a1"][:n] for n in range(1, 9) if not any(o.startswith(ids["a1"][:n]) for o in others))
    assert checkout(s, prefix, summarize=False).new_leaf == ids["a1"]


def test_an_ambiguous_prefix_is_a_clear_error(tmp_path: Path) -> None:
    s = Session.create_at(tmp_path / "s.jsonl", "/p")
    s.append("message", {"message": user("one")}, entry_id="abc11111")
    s.append("message", {"message": user("two")}, entry_id="abc22222")
    with pytest.raises(AmbiguousEntryError, match="'abc' matches several entries"):
        checkout(s, "abc")
    with pytest.raises(EntryNotFoundError):
        checkout(s, "zzz")


# -- invariants ----------------------------------------------------------------------------------------------


@st.composite
def trees(draw) -> tuple[Session, list[str]]:
    """A random tree: each new message hangs from a random earlier entry (or starts a new root)."""
    s = Session.in_memory("/p")
    ids: list[str] = []
    for n in range(draw(st.integers(1, 14))):
        parent = draw(st.sampled_from([None, *ids])) if ids and draw(st.integers(0, 5)) else (ids[-1] if ids else None)
        s.move_leaf(parent)
        ids.append(s.append_message(user(f"m{n}") if n % 2 == 0 else assistant(f"m{n}"))["id"])
    return s, ids


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_after_a_checkout_the_context_is_the_targets_plus_the_summary(data) -> None:
    s, ids = data.draw(trees())
    s.move_leaf(data.draw(st.sampled_from(ids)))
    target = data.draw(st.sampled_from([None, *ids]))
    old = s.leaf_id
    expected = context_from_path(s.branch(target)).messages if target is not None else []
    abandoned = collect_abandoned(s, old, target)
    ancestor = common_ancestor(s, old, target)
    assert all(e["id"] not in {x["id"] for x in s.branch(target)} for e in abandoned) if target else True
    assert ancestor is None or ancestor in {e["id"] for e in s.branch(old)} & {e["id"] for e in s.branch(target)}
    result = checkout(s, target)
    messages = s.build_context().messages
    if result.summary_entry is not None:
        assert messages[:-1] == expected and messages[-1]["role"] == "branchSummary"
        assert messages[-1]["fromId"] == old and result.abandoned_entries == len(abandoned) > 0
    else:
        assert messages == expected and not abandoned


# -- the branch summaries a file holds -----------------------------------------------------------------------


def test_branch_summary_notes_say_where_each_summary_hangs_and_what_it_summarises(on_disk) -> None:
    s, ids, _ = on_disk
    ours = checkout(s, ids["a1"]).summary_entry
    pi_style = s.append_branch_summary(ids["u1"], "pi wrote this")
    elsewhere = s.append("branch_summary", {"fromId": "not-in-this-file", "summary": "s", "fromHook": False},
                         parent_id=None)
    notes = branch_summary_notes(s)
    assert [n.id for n in notes] == [ours["id"], pi_style["id"], elsewhere["id"]]
    mine, pis, lost = notes
    assert (mine.at, mine.from_id, mine.pi_style) == (ids["a1"], ids["a3"], False)
    assert (mine.abandoned_entries, mine.abandoned_from) == (4, ids["u2"])
    assert (pis.at, pis.from_id, pis.pi_style, pis.abandoned_entries) == (ids["u1"], ids["u1"], True, None)
    assert (lost.at, lost.pi_style, lost.abandoned_entries, lost.abandoned_from) == (ROOT, False, None, None)
    assert mine.to_json() == {"id": ours["id"], "at": ids["a1"], "fromId": ids["a3"],
                              "summarises": {"entries": 4, "from": ids["u2"]}, "piStyle": False}
    assert lost.to_json()["summarises"] is None


def test_a_file_without_branch_summaries_has_no_notes(on_disk) -> None:
    assert branch_summary_notes(on_disk[0]) == []


def test_the_api_is_exported() -> None:
    for name in ("checkout", "CheckoutResult", "common_ancestor", "collect_abandoned", "prepare_branch",
                 "branch_summary_notes", "BranchSummaryNote"):
        assert name in pi_compact.__all__ and hasattr(pi_compact, name)
    assert pi_compact.__all__ == sorted(pi_compact.__all__, key=lambda n: (not n.isupper(), n[:1].islower(), n))
