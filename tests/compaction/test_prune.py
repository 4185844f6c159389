"""condense: the stage-1 transcript — user text verbatim, one line per tool call, one-line briefs for results."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.compaction.prune import condense, format_call, shorten_value

from .messages import (SESSION, TRACEBACK, assistant, bash_fail, call, junk_messages, result, user,
                       user_bash)

IMAGE = {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}


def lines(messages: list) -> list[str]:
    return condense(messages).splitlines()


# -- briefs ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("messages", "brief"), [
    ([assistant(call("r", "read", path="src/app.py")), result("r", "read", "x" * 45_210)],
     "[Tool result]: [read] src/app.py → 45,210 chars"),
    ([assistant(call("b", "bash", command="npm test")),
      result("b", "bash", bash_fail("\n".join(f"line {i}" for i in range(30)) + "\nFAILED test_x\nend", 1),
             error=True)],
     '[Tool result]: [bash] "npm test" → exit 1, 32 lines — FAILED test_x'),
    ([assistant(call("b", "bash", command="pytest")), result("b", "bash", bash_fail(TRACEBACK, 1), error=True)],
     '[Tool result]: [bash] "pytest" → exit 1, 12 lines — ValueError: bad header'),
    ([assistant(call("b", "bash", command="git checkout -b x")), result("b", "bash", "Switched to a new branch 'x'\n")],
     "[Tool result]: [bash] \"git checkout -b x\" → exit 0: Switched to a new branch 'x'"),
    ([assistant(call("b", "bash", command="make")), result("b", "bash", "a\nb\nc\n")],
     '[Tool result]: [bash] "make" → exit 0, 3 lines'),
    ([assistant(call("b", "bash", command="sleep 99")),
      result("b", "bash", "Command timed out after 9 seconds", error=True)],
     '[Tool result]: [bash] "sleep 99" → failed, 1 lines — Command timed out after 9 seconds'),
    ([assistant(call("e", "edit", path="src/x.py", oldText="a", newText="b")),
      result("e", "edit", "Successfully replaced text in src/x.py.")], "[Tool result]: [edit] src/x.py → ok"),
    ([assistant(call("e", "edit", path="src/x.py")),
      result("e", "edit", "Could not find the exact text in src/x.py.\nDetails…", error=True)],
     "[Tool result]: [edit] src/x.py → error: Could not find the exact text in src/x.py."),
    ([assistant(call("w", "write", path="docs/a.md", content="x")), result("w", "write", "Successfully wrote")],
     "[Tool result]: [write] docs/a.md → ok"),
    ([assistant(call("g", "grep", pattern="TODO", path="src")), result("g", "grep", "a:1\nb:2\n")],
     "[Tool result]: [grep] src → 2 lines"),
    ([user_bash("ls", "a\nb\nc\n")], '[User bash]: "ls" → exit 0, 3 lines'),
    ([user_bash("make", "cc main.c\nmain.c:3: error: expected ';'\n", exit_code=2)],
     "[User bash]: \"make\" → exit 2, 2 lines — main.c:3: error: expected ';'"),
], ids=["read", "bash-fail", "bash-traceback", "bash-short-output", "bash-lines", "bash-timeout", "edit-ok",
        "edit-error", "write", "other-tool", "user-bash", "user-bash-fail"])
def test_briefs(messages: list, brief: str) -> None:
    assert lines(messages)[-1] == brief


def test_results_pair_with_their_calls_by_id_even_out_of_order() -> None:
    out = lines([assistant(call("a", "read", path="a.py"), call("b", "read", path="b.py")),
                 result("b", "read", "bb"), result("a", "read", "a")])
    assert out[-2:] == ["[Tool result]: [read] b.py → 2 chars", "[Tool result]: [read] a.py → 1 chars"]


def test_a_result_without_id_pairs_with_the_last_open_call_of_its_tool() -> None:
    out = lines([assistant(call("a", "bash", command="make")),
                 {"role": "toolResult", "toolName": "bash", "content": [{"type": "text", "text": "ok"}],
                  "isError": False}])
    assert out[-1] == '[Tool result]: [bash] "make" → exit 0: ok'


def test_duplicate_outputs_are_noted_once() -> None:
    messages = [assistant(call("1", "read", path="a.py")), result("1", "read", "same"),
                assistant(call("2", "read", path="a.py")), result("2", "read", "same"),
                assistant(call("3", "read", path="a.py")), result("3", "read", "changed")]
    assert [line for line in lines(messages) if line.startswith("[Tool result]")] == [
        "[Tool result]: [read] a.py → 4 chars", "[Tool result]: [read] a.py → 4 chars (same output as before)",
        "[Tool result]: [read] a.py → 7 chars"]


# -- tool calls -----------------------------------------------------------------------------------------------


def test_tool_calls_are_one_line_each_in_pi_style() -> None:
    out = lines([assistant("Let me look.", call("1", "read", path="a.py", offset=10),
                           call("2", "bash", command="ls -la", timeout=5))])
    assert out == ['[Assistant]: Let me look.', '[Assistant tool call]: read(path="a.py", offset=10)',
                   '[Assistant tool call]: bash(command="ls -la", timeout=5)']


def _argument(line: str, name: str) -> object:
    """The JSON value of argument ``name`` in a one-argument tool call line."""
    match = re.fullmatch(rf'\[Assistant tool call\]: \w+\({name}=(.*)\)', line)
    assert match, line
    return json.loads(match.group(1))


def test_long_arguments_are_shortened_inside_the_json() -> None:
    content = 'print("quoted \\\\ text")\n' * 500
    line = lines([assistant(call("w", "write", content=content))])[0]
    value = _argument(line, "content")
    assert isinstance(value, str) and len(value) < 260
    assert value.startswith('print("quoted \\\\ text")') and value.endswith('text")\n')
    assert "chars]…" in value


def test_nested_arguments_stay_valid_json() -> None:
    edits = {"edits": [{"old": "a" * 1000, "new": "b" * 1000}] * 30, "meta": {"k": float("nan")}}
    line = lines([assistant(call("e", "multi", payload=edits))])[0]
    value = _argument(line, "payload")
    assert len(value["edits"]) == 21 and value["edits"][-1] == "… 10 more items"
    assert all(len(edit["old"]) < 250 for edit in value["edits"][:20])
    assert value["meta"] == {"k": "nan"}


def test_raw_string_arguments_are_parsed_before_shortening() -> None:
    line = format_call("bash", json.dumps({"command": "x" * 5000}), 100)
    assert json.loads(line[len("bash(command="):-1]).startswith("x" * 60)


@pytest.mark.parametrize("depth", [1_000, 5_000, 50_000])
def test_raw_string_arguments_nested_past_any_recursion_limit_are_shown_not_crashed_on(depth: int) -> None:
    nested = "[" * depth + "]" * depth
    line = format_call("bash", nested, 40)
    assert line.startswith("bash(") and len(line) < 200


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=30),
       st.integers(8, 300))
@settings(max_examples=150, deadline=None)
def test_shortened_values_are_always_valid_json(value: object, limit: int) -> None:
    short = shorten_value(value, limit)
    assert json.loads(json.dumps(short, allow_nan=False)) == short


# -- messages -------------------------------------------------------------------------------------------------


def test_user_messages_verbatim_up_to_four_thousand_characters() -> None:
    short, long = "fix it\nplease, `exactly` so", "y" * 3000 + "MIDDLE" + "z" * 2000
    out = condense([user(short), user(long)])
    assert f"[User]: {short}" in out
    assert "y" * 3000 in out and "z" * 1000 in out and "MIDDLE" not in out


def test_assistant_text_keeps_head_and_tail_and_drops_thinking() -> None:
    text = "HEAD" + "m" * 5000 + "TAIL"
    out = condense([assistant(text, thinking="SECRET PLAN")], text_head=100, text_tail=50)
    assert out.startswith("[Assistant]: HEAD") and out.endswith("TAIL")
    assert "SECRET" not in out and len(out) < 250


def test_images_are_omitted() -> None:
    out = lines([user([{"type": "text", "text": "look"}, IMAGE]),
                 assistant(call("s", "screenshot")),
                 {"role": "toolResult", "toolCallId": "s", "toolName": "screenshot", "content": [IMAGE],
                  "isError": False}])
    assert out[0] == "[User]: look [image omitted]"
    assert out[-1].endswith("[image omitted]") and "aGVsbG8" not in "".join(out)


def test_custom_and_summary_messages() -> None:
    out = lines([
        {"role": "custom", "customType": "note", "content": "remember the cache", "display": True},
        {"role": "branchSummary", "summary": "## Goal\nexplored X", "fromId": "a"},
        {"role": "compactionSummary", "summary": "## Goal\nearlier", "tokensBefore": 10},
        user_bash("secret", "x", excludeFromContext=True),
    ])
    assert out == ["[Custom note]: remember the cache", "[Branch summary]: ## Goal", "explored X",
                   "[Previous summary]: ## Goal", "earlier"]


def test_the_hand_made_session_shrinks_and_keeps_its_skeleton() -> None:
    out = condense(SESSION)
    assert len(out) < sum(len(json.dumps(m)) for m in SESSION) / 4
    assert "不要修改 tests/fixtures 目录下的文件。" in out
    assert '[bash] "npm run lint" → exit 2, 2 lines — error: Unexpected console statement (no-console)' in out
    assert condense(SESSION) == out  # deterministic


@given(junk_messages)
@settings(max_examples=150, deadline=None)
def test_junk_never_raises(messages: list) -> None:
    assert isinstance(condense(messages), str)
