"""A compaction asks the facts of the same messages three times (its file lists, its summary, the files gone): they are
read once, and never handed out for other messages, however alike."""

from __future__ import annotations

from pi_compact.compaction.offline import facts as facts_module
from pi_compact.compaction.offline.facts import extract_facts


def _messages(path: str) -> list[dict]:
    return [
        {"role": "user", "content": f"Fix the parser in {path}", "timestamp": 1},
        {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": path}}],
         "timestamp": 2},
        {"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": [{"type": "text", "text": "x = 1"}],
         "isError": False, "timestamp": 3},
    ]


def test_the_same_messages_are_read_once(monkeypatch) -> None:
    messages = _messages("src/parser.py")
    reads = []
    extract = facts_module._extract
    monkeypatch.setattr(facts_module, "_extract", lambda listed: reads.append(len(listed)) or extract(listed))
    first = extract_facts(messages)
    assert extract_facts(list(messages)) is first  # another list of the same message dicts
    assert extract_facts(tuple(messages)) is first
    assert reads == [3]
    assert first.read_files == ("src/parser.py",)


def test_equal_or_other_messages_are_read_for_themselves() -> None:
    one, other = _messages("src/parser.py"), _messages("src/lexer.py")
    assert extract_facts(one).read_files == ("src/parser.py",)
    assert extract_facts(other).read_files == ("src/lexer.py",)
    assert extract_facts(one[:2]).read_files == ("src/parser.py",)
    assert extract_facts(one).read_files == ("src/parser.py",)
    assert extract_facts([]).read_files == ()
