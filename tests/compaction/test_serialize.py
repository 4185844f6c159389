"""pi's ``convertToLlm`` per role (bash runs by pi's text rules), the summary transcript with pi's 2000-char
tool-result truncation (compaction-serialization.test.ts), and ``formatFileOperations``."""

from __future__ import annotations

import pytest

from pi_compact.compaction import convert_to_llm, serialize_conversation
from pi_compact.compaction.serialize import bash_execution_text, format_file_operations

from .builders import assistant, bash_run, call, image, text, tool_result, user


# -- compaction-serialization.test.ts ---------------------------------------------------------------------------


def test_a_long_tool_result_is_truncated_to_2000_characters() -> None:
    output = "".join(chr(ord("a") + i % 26) for i in range(5000))
    transcript = serialize_conversation([tool_result("c1", "read", output)])
    assert transcript == f"[Tool result]: {output[:2000]}\n\n[... 3000 more characters truncated]"


def test_a_short_tool_result_is_untouched() -> None:
    output = "x" * 1500
    assert serialize_conversation([tool_result("c1", "read", output)]) == f"[Tool result]: {output}"


def test_exactly_2000_characters_is_untouched() -> None:
    output = "y" * 2000
    assert serialize_conversation([tool_result("c1", "read", output)]) == f"[Tool result]: {output}"


def test_user_and_assistant_text_is_never_truncated() -> None:
    long_text = "z" * 10_000
    transcript = serialize_conversation([user(long_text), assistant(long_text)])
    assert transcript == f"[User]: {long_text}\n\n[Assistant]: {long_text}"


# -- the transcript ----------------------------------------------------------------------------------------------


def test_assistant_parts_come_in_pi_order_whatever_the_block_order() -> None:
    message = assistant(
        call("c1", "bash", command="ls -la", timeout=5),
        "first",
        {"type": "thinking", "thinking": "hmm"},
        "second",
        call("c2", "read", path="a.py"),
        {"type": "thinking", "thinking": "aha"},
    )
    assert serialize_conversation([message]) == (
        "[Assistant thinking]: hmm\naha\n\n"
        "[Assistant]: first\nsecond\n\n"
        '[Assistant tool calls]: bash(command="ls -la", timeout=5); read(path="a.py")'
    )


def test_tool_call_arguments_are_json_in_key_order() -> None:
    message = assistant(call("c1", "edit", path="ü.py", edits=[{"old": "a", "new": "b"}], dry=False, n=None))
    assert serialize_conversation([message]) == (
        '[Assistant tool calls]: edit(path="ü.py", edits=[{"old":"a","new":"b"}], dry=false, n=null)'
    )


def test_user_blocks_are_joined_without_separator_and_images_ignored() -> None:
    assert serialize_conversation([user([text("a"), image(), text("b")])]) == "[User]: ab"


def test_empty_parts_are_skipped() -> None:
    messages = [user(""), assistant(), tool_result("c1", "read", [image()]), user("kept")]
    assert serialize_conversation(messages) == "[User]: kept"


def test_the_tool_result_limit_is_a_setting() -> None:
    transcript = serialize_conversation([tool_result("c1", "read", "a" * 30)], tool_result_chars=10)
    assert transcript == "[Tool result]: aaaaaaaaaa\n\n[... 20 more characters truncated]"


# -- convertToLlm ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [user("hi"), assistant("hello"), tool_result("c1", "read", "out")],
    ids=["user", "assistant", "toolResult"],
)
def test_model_roles_pass_through_unchanged(message) -> None:
    [converted] = convert_to_llm([message])
    assert converted is message


def user_text_of(message: dict) -> str:
    [converted] = convert_to_llm([message])
    assert converted["role"] == "user" and converted["timestamp"] == message["timestamp"]
    [block] = converted["content"]
    return block["text"]


@pytest.mark.parametrize(
    "fields, expected",
    [
        pytest.param({"output": "a\nb"}, "Ran `make`\n```\na\nb\n```", id="output"),
        pytest.param({"output": ""}, "Ran `make`\n(no output)", id="no-output"),
        pytest.param({"output": "x", "exitCode": 2}, "Ran `make`\n```\nx\n```\n\nCommand exited with code 2",
                     id="exit-code"),
        pytest.param({"output": "", "exitCode": None}, "Ran `make`\n(no output)", id="exit-code-unknown"),
        pytest.param({"output": "x", "exitCode": 1, "cancelled": True},
                     "Ran `make`\n```\nx\n```\n\n(command cancelled)", id="cancelled-wins-over-exit-code"),
        pytest.param({"output": "x", "truncated": True, "fullOutputPath": "/tmp/out.log"},
                     "Ran `make`\n```\nx\n```\n\n[Output truncated. Full output: /tmp/out.log]", id="truncated"),
        pytest.param({"output": "x", "truncated": True}, "Ran `make`\n```\nx\n```", id="truncated-without-path"),
        pytest.param({"output": "", "exitCode": 127, "truncated": True, "fullOutputPath": "/o"},
                     "Ran `make`\n(no output)\n\nCommand exited with code 127\n\n[Output truncated. Full output: /o]",
                     id="all-at-once"),
    ],
)
def test_bash_execution_text(fields, expected) -> None:
    message = bash_run("make", **{"output": "", **fields})
    assert bash_execution_text(message) == expected
    assert user_text_of(message) == expected


def test_bash_excluded_from_context_is_dropped() -> None:
    assert convert_to_llm([bash_run("secret", "x", excludeFromContext=True)]) == []


def test_custom_message_becomes_user_content() -> None:
    as_string = {"role": "custom", "customType": "ext", "content": "note", "display": True, "details": {"a": 1},
                 "timestamp": 5}
    as_blocks = {**as_string, "content": [text("a"), image()]}
    assert convert_to_llm([as_string]) == [{"role": "user", "content": [text("note")], "timestamp": 5}]
    assert convert_to_llm([as_blocks]) == [{"role": "user", "content": [text("a"), image()], "timestamp": 5}]


def test_summaries_are_wrapped_as_pi_wraps_them() -> None:
    branch = {"role": "branchSummary", "summary": "went left", "fromId": "e1", "timestamp": 1}
    compaction = {"role": "compactionSummary", "summary": "so far", "tokensBefore": 9, "timestamp": 2}
    assert user_text_of(branch) == (
        "The following is a summary of a branch that this conversation came back from:\n\n"
        "<summary>\nwent left</summary>"
    )
    assert user_text_of(compaction) == (
        "The conversation history before this point was compacted into the following summary:\n\n"
        "<summary>\nso far\n</summary>"
    )


def test_unknown_roles_and_junk_are_dropped() -> None:
    assert convert_to_llm([{"role": "system", "content": "x"}, None, "text", {"content": "no role"}]) == []


# -- formatFileOperations ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "read, modified, expected",
    [
        pytest.param([], [], "", id="none"),
        pytest.param(["a.py"], [], "\n\n<read-files>\na.py\n</read-files>", id="read"),
        pytest.param([], ["b.py", "c.py"], "\n\n<modified-files>\nb.py\nc.py\n</modified-files>", id="modified"),
        pytest.param(["a.py"], ["b.py"],
                     "\n\n<read-files>\na.py\n</read-files>\n\n<modified-files>\nb.py\n</modified-files>", id="both"),
    ],
)
def test_format_file_operations(read, modified, expected) -> None:
    assert format_file_operations(read, modified) == expected
