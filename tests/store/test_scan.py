"""Reading a file's bytes into slots: pi's loading rules, without pi's crashes, the same in lazy and eager mode.

pi trims the text, splits it on newlines, skips blank and unparsable lines, and requires the first parsed
line to be the header. Every test runs in both of our modes: eager (every line parsed) and lazy (only the
prefix of lines pi wrote is read, the rest parsed on demand).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_compact.errors import NotASessionError
from pi_compact.store.jsonl import dumps, dumps_line
from pi_compact.store.scan import Problem, parse_slot, scan

HEADER = {"type": "session", "version": 3, "id": "sess-1", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/p"}
H = dumps_line(HEADER)


def entry(entry_id: str, parent: str | None = None, text: str = "hi", **extra) -> dict:
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": "2025-01-01T00:00:01.000Z",
        "message": {"role": "user", "content": text, "timestamp": 1735689601000},
        **extra,
    }


def line(entry_id: str, parent: str | None = None, text: str = "hi") -> bytes:
    return dumps_line(entry(entry_id, parent, text))


@pytest.fixture(params=[True, False], ids=["eager", "lazy"])
def eager(request) -> bool:
    return request.param


def summary(data: bytes, eager: bool) -> tuple[list[tuple], list[tuple]]:
    """(line, type, id, parentId, timestamp) per slot, and (kind, line) per problem."""
    result = scan(data, eager=eager)
    slots = [(s.line, s.type, s.id, s.parent_id, s.timestamp) for s in result.slots]
    return slots, [(p.kind, p.line) for p in result.problems]


def entries(data: bytes, eager: bool) -> list[dict]:
    result = scan(data, eager=eager)
    return [slot.entry if slot.entry is not None else parse_slot(data, slot) for slot in result.slots]


# -- the header ----------------------------------------------------------------------------------------------


def test_garbage_lines_before_the_header_are_skipped_as_pi_does(eager):
    data = b"not json\n{broken\n\n" + H + line("a")
    result = scan(data, eager=eager)
    assert result.header == HEADER
    assert [s.id for s in result.slots] == ["a"]
    assert [(p.kind, p.line) for p in result.problems] == [("invalid_json", 1), ("invalid_json", 2)]
    assert result.slots[0].line == 5


@pytest.mark.parametrize(
    "first",
    [
        line("a"),
        b'{"type":"session","version":3}\n',
        b'{"type":"session","id":7}\n',
        b"null\n",
        b"3\n",
        b"[]\n",
        b'"session"\n',
    ],
    ids=["an-entry", "header-without-id", "numeric-id", "null", "number", "array", "string"],
)
def test_a_first_parsed_line_that_is_no_header_is_not_a_session(eager, first):
    with pytest.raises(NotASessionError):
        scan(first + H + line("a"), eager=eager)


@pytest.mark.parametrize("data", [b"", b"\n\n  \r\n", b"garbage\n{"], ids=["empty", "blank-lines", "only-garbage"])
def test_a_file_without_any_header_is_not_a_session(eager, data):
    with pytest.raises(NotASessionError):
        scan(data, eager=eager)


@pytest.mark.parametrize("data", [H, H.rstrip(b"\n"), H + b"\n\n"], ids=["newline", "no-newline", "blank-lines-after"])
def test_header_only(eager, data):
    result = scan(data, eager=eager)
    assert result.header == HEADER
    assert result.slots == [] and result.problems == []
    assert not result.torn_tail and not result.tail_is_entry


def test_a_bom_before_the_header_is_ignored(eager):
    result = scan(b"\xef\xbb\xbf" + H + line("a"), eager=eager)
    assert result.header == HEADER and [s.id for s in result.slots] == ["a"]


# -- entry lines ---------------------------------------------------------------------------------------------


def test_blank_lines_are_skipped_without_a_problem(eager):
    data = H + b"\n" + line("a") + b"   \n\t\n" + line("b", "a") + b"\n"
    slots, problems = summary(data, eager)
    assert [(s[0], s[2], s[3]) for s in slots] == [(3, "a", None), (6, "b", "a")]
    assert problems == []


def test_crlf_line_endings_are_read(eager):
    data = (H + line("a") + line("b", "a")).replace(b"\n", b"\r\n")
    result = scan(data, eager=eager)
    assert result.header == HEADER
    assert [(s.id, s.parent_id) for s in result.slots] == [("a", None), ("b", "a")]
    assert entries(data, eager)[1] == entry("b", "a")
    assert result.problems == [] and not result.torn_tail


@pytest.mark.parametrize("value", [b"null", b"3", b"[]", b'"text"', b"true"], ids=["null", "number", "array", "string", "bool"])
def test_non_object_lines_are_skipped_with_a_problem_where_pi_crashes(eager, value):
    """pi's loader throws a TypeError on a ``null`` line (its bug #2); we skip it and say so."""
    data = H + line("a") + value + b"\n" + line("b", "a")
    slots, problems = summary(data, eager)
    assert [s[2] for s in slots] == ["a", "b"]
    assert problems == [("not_object", 3)]


def test_invalid_json_in_the_middle_is_skipped_with_a_problem(eager):
    data = H + line("a") + b'{"type":"message","id":"x",\n' + line("b", "a")
    slots, problems = summary(data, eager)
    assert [s[2] for s in slots] == ["a", "b"]
    assert problems == [("invalid_json", 3)]


@pytest.mark.parametrize(
    ("raw", "decoded"),
    [
        (b"\xff", "\ufffd"),
        (b"\xe2\x82", "\ufffd"),
        (b"\xf0\x9f\x98", "\ufffd"),
        (b"\xed\xa0\x80", "\ufffd\ufffd\ufffd"),
        (b"\xc0\xaf", "\ufffd\ufffd"),
        (b"\xe2\x82\xe2\x82\xac", "\ufffd\u20ac"),
    ],
    ids=["stray-byte", "truncated-3-byte", "truncated-4-byte", "encoded-surrogate", "overlong", "truncated-then-valid"],
)
def test_invalid_utf8_is_decoded_with_replacement_characters_as_node_does(eager, raw, decoded):
    bad = line("b", "a", "TEXT").replace(b"TEXT", b"a" + raw + b"b")
    data = H + line("a") + bad
    assert entries(data, eager)[1]["message"]["content"] == "a" + decoded + "b"


def test_custom_entries_with_fields_before_the_id_are_indexed(eager):
    custom = {"type": "custom", "customType": "ext", "data": {"k": 1}, "id": "c", "parentId": "a", "timestamp": "T1"}
    message = {"type": "custom_message", "customType": "ext", "content": "x", "display": True, "id": "m", "parentId": "c", "timestamp": "T2"}
    data = H + line("a") + dumps_line(custom) + dumps_line(message)
    slots, problems = summary(data, eager)
    assert slots == [
        (2, "message", "a", None, "2025-01-01T00:00:01.000Z"),
        (3, "custom", "c", "a", "T1"),
        (4, "custom_message", "m", "c", "T2"),
    ]
    assert problems == []
    assert entries(data, eager)[1:] == [custom, message]


def test_slot_offsets_delimit_the_line(eager):
    lines = [line("a"), line("b", "a", "é"), line("c", "b").rstrip(b"\n")]
    data = H + b"".join(lines)
    slots = scan(data, eager=eager).slots
    assert [data[slot.start : slot.end] for slot in slots] == [raw.rstrip(b"\n") for raw in lines]
    assert [dumps(e) for e in entries(data, eager)] == [raw.rstrip(b"\n") for raw in lines]


# -- the last line -------------------------------------------------------------------------------------------


def test_a_torn_last_line_is_ignored_and_marked_for_cutting(eager):
    complete = H + line("a") + line("b", "a")
    result = scan(complete + b'{"type":"message","id":"c","parentId":"b","timest', eager=eager)
    assert [s.id for s in result.slots] == ["a", "b"]
    assert result.torn_tail and not result.tail_is_entry
    assert result.complete_end == len(complete)
    assert [(p.kind, p.line) for p in result.problems] == [("torn_tail", 4)]


def test_a_valid_last_line_without_newline_is_an_entry(eager):
    complete = H + line("a")
    result = scan(complete + line("b", "a").rstrip(b"\n"), eager=eager)
    assert [s.id for s in result.slots] == ["a", "b"]
    assert result.tail_is_entry and not result.torn_tail
    assert result.complete_end == len(complete)
    assert result.problems == []


def test_a_blank_last_line_without_newline_is_neither(eager):
    result = scan(H + line("a") + b"  ", eager=eager)
    assert [s.id for s in result.slots] == ["a"]
    assert not result.tail_is_entry and not result.torn_tail and result.problems == []


def test_problems_print_their_line():
    assert str(Problem("torn_tail", "incomplete", 4)) == "line 4: incomplete"
    assert str(Problem("cycle", "a cycle")) == "a cycle"


# -- lazy and eager agree ------------------------------------------------------------------------------------

_ids = st.text(alphabet="0123456789abcdef", min_size=8, max_size=8)
_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@st.composite
def session_bytes(draw) -> bytes:
    """A file pi could have written (any entry type, odd characters, labels), with blank and CRLF lines."""
    out = [H]
    ids: list[str] = []
    for _ in range(draw(st.integers(0, 25))):
        entry_id = draw(_ids)
        parent = draw(st.sampled_from([None, *ids])) if ids else None
        base = {"id": entry_id, "parentId": parent, "timestamp": draw(st.sampled_from(["2025-01-01T00:00:00.000Z", "T", "é"]))}
        kind = draw(st.sampled_from(["message", "label", "session_info", "custom", "custom_message", "compaction", "future_type"]))
        if kind == "custom":
            obj = {"type": kind, "customType": draw(_text), "data": {"t": draw(_text)}, **base}
        elif kind == "custom_message":
            obj = {"type": kind, "customType": "x", "content": draw(_text), "display": True, **base}
        elif kind == "label":
            obj = {"type": kind, **base, "targetId": parent or entry_id, "label": draw(_text)}
        elif kind == "session_info":
            obj = {"type": kind, **base, "name": draw(_text)}
        else:
            obj = {"type": kind, **base, "message": {"role": "user", "content": draw(_text), "timestamp": 1}}
        raw = dumps_line(obj)
        if draw(st.booleans()):
            raw = raw.replace(b"\n", b"\r\n")
        out.append(raw + (b"\n" if draw(st.integers(0, 5)) == 0 else b""))
        ids.append(entry_id)
    data = b"".join(out)
    return data.rstrip(b"\r\n") if draw(st.booleans()) else data


@settings(max_examples=150, deadline=None)
@given(session_bytes())
def test_lazy_and_eager_modes_give_the_same_slots(data):
    eager, lazy = scan(data, eager=True), scan(data, eager=False)
    key = lambda r: [(s.line, s.start, s.end, s.type, s.id, s.parent_id, s.timestamp) for s in r.slots]
    assert key(lazy) == key(eager)
    assert lazy.header == eager.header
    assert [(p.kind, p.line) for p in lazy.problems] == [(p.kind, p.line) for p in eager.problems]
    assert (lazy.complete_end, lazy.tail_is_entry, lazy.torn_tail) == (eager.complete_end, eager.tail_is_entry, eager.torn_tail)
    assert [parse_slot(data, s) if s.entry is None else s.entry for s in lazy.slots] == [s.entry for s in eager.slots]


_FIELD = st.text(alphabet=st.sampled_from('ab\\"/u0 \t'), max_size=6)


def _slot_fields(result) -> list[tuple]:
    return [(slot.line, slot.start, slot.end, slot.type, slot.id, slot.parent_id, slot.timestamp,
             slot.entry is None) for slot in result.slots]


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(st.tuples(_FIELD, st.one_of(st.none(), _FIELD), _FIELD, st.booleans()), min_size=1,
                      max_size=8))
def test_the_quick_prefix_reads_every_line_as_the_scanners_prefix_reads_it(lines):
    """The lazy scan reads a line's prefix with a pattern whose strings may hold a backslash, and with the
    scanner's own where the prefix it matched holds one: the same slots and problems as the scanner's alone,
    for ids, parents and times holding backslashes and quotes, escaped or written raw (a broken line)."""
    import pi_compact.store.scan as scan_module

    header = b'{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}'
    out = [header]
    for entry_id, parent, stamp, raw in lines:
        if raw:  # the fields written as they are: quotes and backslashes break or bend the line
            parent_text = b"null" if parent is None else b'"' + parent.encode() + b'"'
            out.append(b'{"type":"message","id":"' + entry_id.encode() + b'","parentId":' + parent_text
                       + b',"timestamp":"' + stamp.encode() + b'","message":{"role":"user","content":"x"}}')
        else:
            out.append(dumps_line({"type": "message", "id": entry_id, "parentId": parent, "timestamp": stamp,
                                   "message": {"role": "user", "content": "x"}}).rstrip(b"\n"))
    data = b"\n".join(out) + b"\n"
    quick = scan(data, eager=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scan_module, "_QUICK_PREFIX", scan_module._PREFIX)
        exact = scan(data, eager=False)
    assert _slot_fields(quick) == _slot_fields(exact)
    assert quick.problems == exact.problems
