"""The byte filter of a big session's search (:mod:`pi_compact.store.byte_search`): it may let a line through
that does not match, never hold back one that does, whatever the text, the query, or how the line is escaped."""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pi_compact.recaller import _entry_text, _matcher
from pi_compact.store import byte_search
from pi_compact.store.byte_search import FOLDS_TO_ASCII, folding_into, line_filter
from pi_compact.store.scan import Slot

SPECIAL = "ßſKİﬁﬀẞǰŉ\u2028\"\\/\n\t\x00é中😀"
"""Characters whose case folding or JSON escaping differ from their bytes (folding to ASCII, escapes)."""
texts = st.text(alphabet=st.one_of(st.characters(codec="utf-8"), st.sampled_from(SPECIAL)), max_size=60)


def _lines(entry: dict) -> list[bytes]:
    """The entry as pi writes it, and as other writers may (every non-ASCII character as a \\u escape, '/' as '\\/')."""
    pi_like = orjson.dumps(entry)
    escaped = json.dumps(entry, ensure_ascii=True, separators=(",", ":")).encode()
    return [pi_like, escaped, escaped.replace(b"/", b"\\/")]


def _entries(text: str, number: float) -> list[dict]:
    user = {"type": "message", "id": "a", "parentId": None, "timestamp": "t",
            "message": {"role": "user", "content": text, "timestamp": 1}}
    call = {"type": "message", "id": "b", "parentId": "a", "timestamp": "t", "message": {
        "role": "assistant", "content": [{"type": "toolCall", "id": "c", "name": "read",
                                          "arguments": {"path": text, "offset": number}}]}}
    bash = {"type": "message", "id": "d", "parentId": "b", "timestamp": "t",
            "message": {"role": "bashExecution", "command": text, "output": text.upper()}}
    return [user, call, bash]


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, start=st.integers(0, 60), length=st.integers(1, 20), number=st.floats(allow_nan=False, allow_infinity=False),
       upper=st.booleans())
@example(text="Straße", start=0, length=6, number=1.0, upper=True)  # STRASSE: case folding grows the text
@example(text="ſtop", start=0, length=4, number=1500.0, upper=False)  # long s folds to an ASCII s
@example(text="x", start=0, length=1, number=1.5e3, upper=False)
def test_a_line_whose_text_matches_is_never_filtered_out(text, start, length, number, upper):
    for entry in _entries(text, number):
        whole = _entry_text(entry)
        query = whole[start : start + length]
        query = query.upper() if upper else query
        if not query.strip():
            continue
        if _matcher(query.strip())(whole) is None:
            continue
        for raw in _lines(entry):
            assert line_filter(query.strip())(raw), (query, raw)


@given(words=st.lists(st.text(alphabet="bfhjkvwx", min_size=2, max_size=6), min_size=1, max_size=3))  # not in the keys
def test_a_line_without_the_words_is_left_out(words):
    query = " ".join(words)
    raw = orjson.dumps({"type": "message", "id": "a", "parentId": None, "timestamp": "t",
                        "message": {"role": "user", "content": "zzz qqq", "timestamp": 1}})
    assert not line_filter(query)(raw)  # the filter does rule lines out: it is not always true


def test_the_characters_that_fold_to_ascii_are_every_such_character():
    """Every character beyond ASCII whose case folding holds any ASCII character (a run's ``-`` and ``.``
    included) is in the list."""
    import sys

    beyond_ascii = [chr(code) for code in range(0x80, sys.maxunicode + 1) if not 0xD800 <= code <= 0xDFFF]
    derived = "".join(char for char in beyond_ascii if any(ord(folded) < 0x80 for folded in char.casefold()))
    assert FOLDS_TO_ASCII == derived


@pytest.mark.parametrize(
    ("query", "text", "passes"),
    [
        ("session-manager", "see src/core/session-manager.ts", True),
        ("SESSION-Manager", "see src/core/session-manager.ts", True),
        ("session-manager", "the session has a manager", False),  # both words, not the run they make
        ("index.ts", "open index.ts", True),
        ("index.ts", "the index of ts files", False),
        ("offset 1.5e3", "offset", True),  # a number's text is not looked for: the file may write 1500.0
        ("-2 offset", "offset", True),
    ],
)
def test_a_hyphen_or_a_dot_joins_the_words_of_a_run(query, text, passes):
    raw = orjson.dumps({"type": "message", "id": "a", "parentId": None, "timestamp": "t",
                        "message": {"role": "user", "content": text, "timestamp": 1}})
    assert line_filter(query)(raw) is passes


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture], deadline=None)
@given(texts=st.lists(texts, min_size=1, max_size=8), pick=st.integers(0, 7), start=st.integers(0, 30),
       length=st.integers(1, 12), escaped=st.booleans(), piece=st.sampled_from([1, 2, 5, 16, 64, 1 << 22]))
def test_the_search_of_a_lazily_read_file_finds_exactly_what_parsing_every_line_finds(
        tmp_path_factory, monkeypatch, texts, pick, start, length, escaped, piece):
    from pi_compact import Session, recall
    from pi_compact.store import scan

    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)  # every line read lazily, as in a file over 8 MB
    monkeypatch.setattr(byte_search, "_PIECE_BYTES", piece)  # the file is lowered in pieces: seams anywhere
    entries, parent = [], None
    for number, text in enumerate(texts):
        for entry in _entries(text, float(number)):
            entry["id"], entry["parentId"] = f"{entry['id']}{number}", parent
            parent = entry["id"]
            entries.append(entry)
    header = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/"}
    dump = (lambda v: json.dumps(v, ensure_ascii=True, separators=(",", ":")).encode()) if escaped else orjson.dumps
    path = tmp_path_factory.mktemp("lazy") / "s.jsonl"
    path.write_bytes(b"".join(dump(value) + b"\n" for value in [header, *entries]))
    source = _entry_text(entries[min(pick, len(entries) - 1)])
    query = source[start : start + length].strip() or "x"
    expected = [e["id"] for e in reversed(entries) if _matcher(query)(_entry_text(e)) is not None]
    with Session.open(path) as session:
        found = recall(session, query, limit=50, whole_session=True)
    assert [hit.entry_id for hit in found.hits] == expected[:50] and found.total_matches == len(expected)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("alpha", ["m4", "m2", "m0"]),  # the first and the last lines of the file, and one between
        ("alpha beta", ["m4", "m2"]),  # every word of the query, in the same line
        ("beta gamma", ["m3"]),
        ("gamma alpha", []),  # each word is somewhere, never both in one line
        ("ALPHA", ["m4", "m2", "m0"]),
    ],
    ids=["one-word", "two-words", "two-words-elsewhere", "words-in-different-lines", "case"],
)
@pytest.mark.parametrize("piece", [3, 4, 5, 1 << 22], ids=lambda size: f"pieces-of-{size}")
def test_a_lazily_read_file_is_searched_line_by_line_even_when_the_words_are_spread(
        tmp_path, monkeypatch, query, expected, piece):
    """The lines holding a query's longest word are found by jumping from one occurrence to the next: a line
    is a hit only when it holds every word, wherever else in the file the words are, and wherever the seams
    of the pieces the file is lowered in fall (a piece shorter than the word included)."""
    from pi_compact import Session, recall
    from pi_compact.store import scan

    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    monkeypatch.setattr(byte_search, "_PIECE_BYTES", piece)
    texts = ["alpha alpha one", "beta two", "Alpha and beta", "beta gamma three", "beta, then alpha"]
    header = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/"}
    lines, parent = [orjson.dumps(header)], None
    for number, text in enumerate(texts):
        entry = {"type": "message", "id": f"m{number}", "parentId": parent, "timestamp": "2025-01-01T00:00:01.000Z",
                 "message": {"role": "user", "content": text, "timestamp": 1}}
        lines.append(orjson.dumps(entry))
        parent = entry["id"]
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    with Session.open(path) as session:
        found = recall(session, query, whole_session=True)
    assert [hit.entry_id for hit in found.hits] == expected


@pytest.mark.parametrize(
    ("query", "expected", "passed"),
    [
        ("timestamp", ["m0"], [0]),  # a key of every line, a word of one text
        ("path", ["m3", "m1"], [1, 3]),  # a key of a tool call's arguments is in its text; "path": in a text
        ("role", [], []),
        ("content", ["m3"], [3]),  # "content" : in a text, whitespace before its colon
    ],
)
def test_a_word_in_the_keys_of_every_line_is_found_in_the_texts_only(tmp_path, monkeypatch, query, expected, passed):
    """The byte filter passes a line holding the word only in keys when they are inside a tool call's arguments
    (shown with their keys), not in a line merely holding arguments: the other lines are ruled out before any
    is parsed."""
    from pi_compact import Session, recall
    from pi_compact.store import scan

    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    messages = [{"role": "user", "content": "the timestamp of the build", "timestamp": 1},
                {"role": "assistant", "content": [{"type": "toolCall", "id": "c", "name": "read",
                                                   "arguments": {"path": "a.txt"}}], "timestamp": 2},
                {"role": "user", "content": "nothing", "timestamp": 3},
                {"role": "user", "content": 'he wrote "path": here, and "content" : there', "timestamp": 4}]
    header = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/"}
    lines, parent = [orjson.dumps(header)], None
    for number, message in enumerate(messages):
        lines.append(orjson.dumps({"type": "message", "id": f"m{number}", "parentId": parent,
                                   "timestamp": "2025-01-01T00:00:01.000Z", "message": message}))
        parent = f"m{number}"
    data = b"\n".join(lines) + b"\n"
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    with Session.open(path) as session:
        found = recall(session, query, whole_session=True)
    assert [hit.entry_id for hit in found.hits] == expected
    starts = [sum(len(line) + 1 for line in lines[: number + 1]) for number in range(len(messages))]
    lines_read = byte_search._line_spans(scan.scan(data).slots)
    assert byte_search._lines_holding(data, [query.encode()], lines_read)[0] == {starts[n] for n in passed}


def _slot(line: int, start: int, end: int) -> Slot:
    return Slot(line, start, end, None, ("message", f"m{line}", None, "t"))


def test_the_lines_of_a_scope_are_looked_up_in_file_order_and_only_those_read_from_the_file():
    in_order = [_slot(1, 0, 9), _slot(2, 10, 19), _slot(4, 30, 39)]
    assert byte_search._line_spans(in_order) == ([0, 10, 30], in_order)
    appended = Slot(5, -1, -1, {"type": "message", "id": "new"})
    starts, lines = byte_search._line_spans([in_order[2], appended, in_order[0], in_order[1]])  # a branch's order
    assert starts == [0, 10, 30] and lines == in_order


def test_a_word_in_a_line_out_of_the_scope_is_passed_over():
    data = b'{"text":"cache"}\n{"text":"cache"}\n{"text":"no"}\n{"text":"the cache"}\n'
    starts = [0, 17, 34, 48]
    scope = [_slot(number, start, data.index(b"\n", start)) for number, start in enumerate(starts) if number != 1]
    assert byte_search._lines_holding(data, [b"cache"], byte_search._line_spans(scope))[0] == {0, 48}


@pytest.mark.parametrize(
    ("run", "characters"),
    [
        ("enoent", "\u1e97"),  # ẗ folds to t and a combining mark: it may end the run
        ("cache", ""),  # ẖ folds to h and a mark, which no e follows; ẚ to a and a mark, which no c follows
        ("class", "ßſẞﬅﬆ"),  # ß, ẞ fold to ss, ſ to s; ﬅ, ﬆ to st, whose s may end the run
        ("kick", "\u212a"),  # the Kelvin sign folds to k
        ("ff", "ﬀﬁﬂﬃﬄ"),  # ﬁ folds to fi: its f may end the run
    ],
)
def test_the_characters_folding_into_a_run_are_those_whose_folding_can_overlap_it(run, characters):
    assert folding_into([run]) == characters


@settings(max_examples=300)
@given(prefix=st.text(alphabet="abcfhiklnstwy", max_size=3), char=st.sampled_from(FOLDS_TO_ASCII),
       suffix=st.text(alphabet="abcfhiklnstwy", max_size=3), start=st.integers(0, 8), length=st.integers(1, 8))
def test_a_run_found_in_a_folded_text_only_through_a_character_names_that_character(prefix, char, suffix, start,
                                                                                      length):
    """Any ASCII run of a case-folded text that the folding of a character makes part of names the character:
    no text found through the folding is missed by a search that looks for the characters named only."""
    folded = (prefix + char + suffix).casefold()
    run = folded[start : start + length]
    through_char = start < len(prefix) + len(char.casefold()) and start + length > len(prefix)
    if run and run.isascii() and len(run) == length and through_char:
        assert char in folding_into([run])


@pytest.mark.parametrize(
    ("line", "inside"),
    [
        (b'{"a":{"arguments":{"cacheA":1}},"usage":{"cacheB":2}}', [True, False]),
        (b'{"arguments":{"p":"}]{[\\"","cacheA":1},"cacheB":2}', [True, False]),  # brackets in a string
        (b'{"arguments":[{"x":{"cacheA":1}}],"cacheB":0}', [True, False]),
        (b'{"arguments" : { "cacheA" : 1 } , "cacheB":0}', [True, False]),
        (b'{"k":"arguments","cacheA":1}', [False]),  # the word as a value
        (b'{"arguments":"x","cacheA":1}', [False]),  # scalar arguments hold no key
        (b'{"cacheA":1,"arguments":{"cacheB":2}}', [False, True]),
        (b'{"c":[{"arguments":{"x":1}},{"arguments":{"cacheA":1}}],"cacheB":1}', [True, False]),
        (b'{"arguments":{"p":"unterminated,"cacheA":1', [True]),  # a broken line: let through
        (b'{"arguments":{"a":{"arguments":{"b":1}},"cacheA":1},"cacheB":1}', [True, False]),
    ],
)
def test_a_key_counts_only_inside_a_tool_calls_arguments(line, inside):
    keys = [at for at in range(len(line)) if line.startswith(b"cache", at)]
    assert [byte_search._in_arguments(line, 0, len(line), [key]) for key in keys] == inside
    assert byte_search._in_arguments(line, 0, len(line), keys) == any(inside)


_values = st.recursive(
    st.one_of(st.text(alphabet='{}[]"\\:, ac', max_size=6), st.integers(-1000, 1000)),
    lambda children: st.one_of(st.lists(children, max_size=3),
                               st.dictionaries(st.sampled_from(["arguments", "x", "cache"]), children, max_size=3)),
    max_leaves=15,
)


def _numbered(value, names: list[str], inside: set[str], in_arguments: bool = False):
    """``value`` with each key ``cache`` made ``cacheN`` (N counting up), and in ``inside`` those within the
    value of a key ``arguments``."""
    if isinstance(value, list):
        return [_numbered(item, names, inside, in_arguments) for item in value]
    if not isinstance(value, dict):
        return value
    numbered = {}
    for key, item in value.items():
        if key == "cache":
            key = f"cache{len(names)}"
            names.append(key)
            if in_arguments:
                inside.add(key)
        numbered[key] = _numbered(item, names, inside, in_arguments or key == "arguments")
    return numbered


@settings(max_examples=300, deadline=None)
@given(value=st.dictionaries(st.sampled_from(["arguments", "x", "cache"]), _values, max_size=4))
def test_the_keys_inside_arguments_are_told_exactly_from_the_bytes(value):
    names: list[str] = []
    inside: set[str] = set()
    for line in _lines(_numbered(value, names, inside)):
        for name in names:
            key = line.index(b'"' + name.encode() + b'":') + 1
            assert byte_search._in_arguments(line, 0, len(line), [key]) == (name in inside), (line, name)


_SHAPES = {
    "lower": lambda n: {"role": "user", "content": f"a cache {n}", "timestamp": 1},
    "mixed": lambda n: {"role": "user", "content": f"the CaChE and ReAd {n}", "timestamp": 1},
    "keys": lambda n: {"role": "assistant", "content": [{"type": "text", "text": f"read {n}"}],
                       "usage": {"cacheRead": n, "cacheWrite": 0}},
    "arguments": lambda n: {"role": "assistant", "content": [
        {"type": "toolCall", "id": "c", "name": "x", "arguments": {"CacheRead": n}}], "usage": {"cacheRead": 1}},
    "none": lambda n: {"role": "user", "content": f"nothing {n}", "timestamp": 1},
}


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture], deadline=None)
@given(shapes=st.lists(st.sampled_from([*_SHAPES, "label"]), min_size=1, max_size=40),
       query=st.sampled_from(["cache", "CACHE", "cache read", "read cache", "cacheread"]),
       piece=st.sampled_from([1, 40, 200, 700]))
def test_a_part_searched_as_written_first_finds_what_a_lowered_part_finds(tmp_path_factory, monkeypatch, shapes,
                                                                         query, piece):
    """A part of the file where most lines hold the word is searched in its bytes as written, then its other
    lines lowered (:class:`byte_search._RunSearch`): the same lines as lowering every part, whatever the case
    of the word, in texts or keys, inside arguments or not, and lines of another type between."""
    from pi_compact import Session
    from pi_compact.store import scan

    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    header = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/"}
    lines, parent = [orjson.dumps(header)], None
    for number, shape in enumerate(["lower"] * 6 + shapes):  # most lines of the first part hold it: dense after
        entry = {"type": shape, "id": f"e{number}", "parentId": parent, "timestamp": "2025-01-01T00:00:01.000Z"}
        if shape == "label":
            entry.update(type="label", targetId=parent, label="cache")
        else:
            entry.update(type="message", message=_SHAPES[shape](number))
        lines.append(orjson.dumps(entry))
        parent = entry["id"]
    path = tmp_path_factory.mktemp("dense") / "s.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    lowered_parts = []
    missed = byte_search._RunSearch.lowered_lines_missed
    monkeypatch.setattr(byte_search._RunSearch, "lowered_lines_missed",
                        lambda self, *args: lowered_parts.append(args) or missed(self, *args))
    with Session.open(path) as session:
        index = session._index
        scope = [slot for slot in index.slots if slot.type == "message"]
        monkeypatch.setattr(byte_search, "_PIECE_BYTES", 1 << 22)  # one part, lowered whole
        expected = [slot.id for slot in byte_search.candidate_slots(index, query, scope)]
        assert not lowered_parts
        monkeypatch.setattr(byte_search, "_PIECE_BYTES", piece)
        found = [slot.id for slot in byte_search.candidate_slots(index, query, scope)]
    assert found == expected
    if query != "cacheread":  # held by the first lines: what follows them is searched as written first
        assert lowered_parts or piece > len(path.read_bytes()) // 2


@pytest.mark.parametrize(("run", "overlaps"), [(b"cache", False), (b"session-manager", False), (b"a", False),
                                               (b"aa", True), (b"abab", True), (b"aba", True), (b"abc", False),
                                               (b"index.ts", False), (b"tst", True)])
def test_a_run_overlaps_itself_when_a_start_of_it_is_also_its_end(run, overlaps):
    assert byte_search._overlaps_itself(run) is overlaps


_CASED = st.sampled_from(["cache", "CACHE", "Cache", "cAche", "aa", "AA", "aAa", "abab", "ABab", "x"])


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
          deadline=None)
@given(lines=st.lists(st.tuples(st.lists(_CASED, max_size=4), st.sampled_from(["text", "key", "arguments"])),
                      min_size=1, max_size=30),
       query=st.sampled_from(["cache", "aa", "abab", "aaa", "cache aa", "x", "ab"]),
       piece=st.sampled_from([1, 60, 300, 5000]))
@example(lines=[(["aAa"], "text")] * 3 + [(["Aaa"], "key")], query="aa", piece=60)
def test_missed_lines_not_searched_again_are_those_a_search_again_finds_nothing_new_in(monkeypatch, lines, query,
                                                                                         piece):
    """A dense part's lines missing a run are searched again lowered unless lowering adds no occurrence of any
    run (:meth:`byte_search._RunSearch._as_written`): the same lines as searching them again always, whatever
    the case of the words, in texts, keys or arguments, and runs that overlap themselves (``aa``)."""
    shaped = []
    for words, where in [(["cache"], "text")] * 4 + lines:  # most lines of the first part hold it: dense after
        text = " ".join(words)
        if where == "text":
            message = {"role": "user", "content": f"say {text}"}
        elif where == "key":
            message = {"role": "assistant", "content": "k", "usage": {f"{word}Read": 1 for word in words}}
        else:
            message = {"role": "assistant", "content": [{"type": "toolCall", "id": "c", "name": "n",
                                                         "arguments": {word: 1 for word in words}}]}
        shaped.append(orjson.dumps({"type": "message", "id": f"e{len(shaped)}", "message": message}))
    data = b"\n".join(shaped) + b"\n"
    scope, at = [], 0
    for number, line in enumerate(shaped):
        scope.append(_slot(number + 1, at, at + len(line)))
        at += len(line) + 1
    monkeypatch.setattr(byte_search, "_PIECE_BYTES", piece)
    found = [slot.id for slot in byte_search.candidates_in(data, query, scope)]
    monkeypatch.setattr(byte_search._RunSearch, "_as_written", lambda self, *args: False)
    always = [slot.id for slot in byte_search.candidates_in(data, query, scope)]
    assert found == always


def test_missed_lines_holding_a_word_only_as_written_are_not_searched_again(monkeypatch):
    """Lines holding the word in keys only, as written, are missed by a dense part and not searched again."""
    text = b'{"type":"message","id":"t","message":{"role":"user","content":"the cache"}}'
    key = b'{"type":"message","id":"k","message":{"role":"assistant","content":"k","usage":{"cacheRead":1}}}'
    data = b"\n".join([text] * 8 + [key, text, key]) + b"\n"
    scope, at = [], 0
    for number, line in enumerate(data.split(b"\n")[:-1]):
        scope.append(_slot(number + 1, at, at + len(line)))
        at += len(line) + 1
    monkeypatch.setattr(byte_search, "_PIECE_BYTES", 200)
    searched_again = []
    in_text = byte_search._RunSearch.in_text
    monkeypatch.setattr(byte_search._RunSearch, "in_text",
                        lambda self, text, base, *args: (base and searched_again.append(base)) or in_text(self, text, base, *args))
    found = byte_search.candidates_in(data, "cache", scope)
    assert [slot.line for slot in found] == [1, 2, 3, 4, 5, 6, 7, 8, 10]
    assert not searched_again


def test_a_run_that_overlaps_itself_is_always_searched_again():
    """``Aaa`` holds ``aa`` once as written (at 1) and once lowered (greedily, at 0, where a search again would
    find it first): the counts alike prove nothing for a run that overlaps itself."""
    data = b'{"Aaa":1}'
    search = byte_search._RunSearch(data, [b"aa"], [0], [_slot(1, 0, len(data))], [{}], [{}])
    assert data.lower().count(b"aa") == data.count(b"aa")
    assert not search._as_written(data.lower(), 0, len(data))
    plain = byte_search._RunSearch(data, [b"aa"[:1]], [0], [_slot(1, 0, len(data))], [{}], [{}])
    assert plain._as_written(data.lower(), 0, len(data)) is (data.lower().count(b"a") == data.count(b"a"))


class _CountedMatch:
    """A pattern whose ``match`` calls are counted (how many times a key's rest is read)."""

    def __init__(self, pattern) -> None:
        self.pattern, self.calls = pattern, 0

    def match(self, *args):
        self.calls += 1
        return self.pattern.match(*args)


@pytest.mark.parametrize("repeats", [1, 50, 2000])
@pytest.mark.parametrize("where", ["usage", "arguments"])
def test_a_key_made_of_the_run_repeated_is_read_once(monkeypatch, repeats, where):
    """A key holding the run many times (``cachecache…":``) is one key: its rest is read once, not once per
    occurrence of the run (each read goes to the key's end: a key of 400 kB took minutes), and the line is let
    through exactly when the key is inside a tool call's arguments."""
    key = "cache" * repeats
    message = {"role": "assistant", "content": [{"type": "text", "text": "no"}], "usage": {key: 1}}
    if where == "arguments":
        message["content"].append({"type": "toolCall", "id": "c", "name": "n", "arguments": {key: 1}})
    data = orjson.dumps({"type": "message", "id": "k", "message": message}) + b"\n"
    counted = _CountedMatch(byte_search._KEY_REST)
    monkeypatch.setattr(byte_search, "_KEY_REST", counted)
    found = byte_search.candidates_in(data, "cache", [_slot(1, 0, len(data) - 1)])
    assert [slot.line for slot in found] == ([1] if where == "arguments" else [])
    assert counted.calls == (2 if where == "arguments" else 1)


@settings(max_examples=200, deadline=None)
@given(value=st.dictionaries(st.sampled_from(["arguments", "x", "cache"]), _values, max_size=4),
       order=st.randoms(use_true_random=False))
def test_the_keys_of_a_line_tell_the_same_in_any_order_and_repeated(value, order):
    """A part searched again finds a line's keys again, after those found first: the answer is the same as for
    the keys once, in order."""
    names: list[str] = []
    inside: set[str] = set()
    for line in _lines(_numbered(value, names, inside)):
        keys = sorted(line.index(b'"' + name.encode() + b'":') + 1 for name in names)
        if not keys:
            continue
        again = keys + order.sample(keys, len(keys)) + [keys[-1]]  # the last found is the last key
        assert byte_search._in_arguments(line, 0, len(line), again) == bool(inside)
