"""The fast search of a big session (lines ruled out from their bytes, hits past the limit only counted, text
beyond ASCII tested in its bytes) finds exactly what the full search finds: every entry in scope parsed, its
whole text case-folded. Both run here on the same files, the bundled sessions, hostile files and generated
ones, for every option of ``session search``; and so does the search of a file read in pieces
(:func:`~pi_compact.recaller.recall_file`), with the problems the fast search finds, in its order."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pi_compact import Session, recall, recaller
from pi_compact.cli.app import app
from pi_compact.store import byte_search, scan, stream

PROJECT = Path(__file__).resolve().parents[1]
HEADER = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/"}


def _pi_sessions() -> list[Path]:
    """The bundled files in pi's format (the other agents' transcripts are no sessions to search)."""
    found = []
    for path in sorted((PROJECT / "sessions_fixtures").rglob("*.jsonl")):
        first = path.read_bytes().split(b"\n", 1)[0]
        if b'"type":"session"' in first:
            found.append(path)
    return found


def _switch_to_full_search(patch: pytest.MonkeyPatch) -> None:
    """:func:`recall` as the full search: every line of the scope parsed, every text case-folded whole."""
    patch.setattr(recaller, "candidate_slots", lambda index, query, scope: list(scope))
    patch.setattr(recaller, "recall_file", lambda *args, **options: None)  # the file opened whole: recall
    patch.setattr(recaller, "_parts_matcher", lambda query: None)
    patch.setattr(recaller, "_folded", str.casefold)


def _both(path: Path, query: str, monkeypatch, **options):
    """The fast search's result and the full one's, each on a freshly opened (lazily read) file, with the
    problems found: those of the lines each parsed (a line nested too deeply is reported once parsed, and
    the fast search parses fewer), hence those of the fast search among those of the full one."""
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)  # every line read lazily, as in a file over 8 MB
    with Session.open(path) as session:
        fast = recall(session, query, **options)
        fast_problems = list(session.problems)
    with monkeypatch.context() as patch:
        _switch_to_full_search(patch)
        with Session.open(path) as session:
            full = recall(session, query, **options)
            full_problems = list(session.problems)
    assert all(problem in full_problems for problem in fast_problems)
    return fast, full


def _words(path: Path, count: int) -> list[str]:
    """Words of the file's texts (some of them common, some rare), in the case they are written."""
    with Session.open(path) as session:
        texts = [recaller._entry_text(entry) for entry in session.entries()]
    words = sorted({word for text in texts for word in text.split() if 2 < len(word) < 30})
    step = max(1, len(words) // count)
    return words[::step][:count]


OPTIONS = [
    {"whole_session": True, "limit": 10},
    {"whole_session": True, "limit": 1},
    {"whole_session": True, "limit": 50},
    {"whole_session": False, "limit": 3},
    {"whole_session": False, "limit": 3, "include_abandoned": True},
]


@pytest.mark.parametrize("path", _pi_sessions(), ids=lambda path: path.name)
def test_the_fast_search_of_every_bundled_session_finds_what_the_full_search_finds(path, monkeypatch):
    queries = [*_words(path, 12), "ENOENT", "session-manager", "the", "a", "error", "ß", "README.md", "x y"]
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    with Session.open(path) as fast_session, Session.open(path) as full_session:
        for query in queries:
            for options in OPTIONS:
                fast = recall(fast_session, query, **options)
                with monkeypatch.context() as patch:
                    _switch_to_full_search(patch)
                    assert fast == recall(full_session, query, **options), (query, options)
        assert all(problem in full_session.problems for problem in fast_session.problems)


def _write(path: Path, entries: list[dict], dump=orjson.dumps, extra: bytes = b"") -> Path:
    path.write_bytes(b"".join(dump(value) + b"\n" for value in [HEADER, *entries]) + extra)
    return path


def _message(number: int, parent: str | None, message: dict) -> dict:
    return {"type": "message", "id": f"m{number:04d}", "parentId": parent, "timestamp": "2025-01-01T00:00:01.000Z",
            "message": message}


def _chain(messages: list[dict]) -> list[dict]:
    entries, parent = [], None
    for number, message in enumerate(messages):
        entries.append(_message(number, parent, message))
        parent = entries[-1]["id"]
    return entries


def _deep(levels: int) -> dict:
    value: dict = {"cache": "bottom"}
    for _ in range(levels):
        value = {"cache": value}
    return value


def _too_deep_for_the_parsers(levels: int) -> bytes:
    """A tool call whose arguments nest ``levels`` deep, a line no JSON parser reads whole."""
    arguments = b'{"cache":' * levels + b'"bottom"' + b"}" * levels
    return (b'{"type":"message","id":"d1","parentId":"m0002","timestamp":"t","message":{"role":"assistant",'
            b'"content":[{"type":"toolCall","id":"d","name":"x","arguments":' + arguments + b"}]}}\n")


def _hostile(tmp_path: Path) -> list[Path]:
    """Files built to trip a byte-level search: deep nesting, broken and huge lines, escapes, case folding."""
    texts = ["the cache is cold", "CACHE miss", "Caché de página", "enoenẗ with a combining diaeresis",
             "claß of its own", "Kelvin: \u212a, and kick", "\u0130stanbul", "ﬁle and ﬂow", "tab\there\nnewline",
             'a "quoted" word', "back\\slash", "日本語 cache 😀", "cacheRead is a key, not here", "ENOENT: no such file"]
    messages = [{"role": "user", "content": text, "timestamp": 1} for text in texts]
    messages.append({"role": "assistant", "content": [
        {"type": "thinking", "thinking": "the cache", "thinkingSignature": "CaChE"},
        {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"cacheRead": 1, "path": "src/cache.ts"}},
        {"type": "text", "text": "done"}], "usage": {"cacheRead": 5, "cacheWrite": 0}, "timestamp": 2})
    messages.append({"role": "assistant", "content": [
        {"type": "toolCall", "id": "c2", "name": "deep", "arguments": _deep(150)}], "timestamp": 3})
    messages.append({"role": "toolResult", "toolCallId": "c1", "toolName": "read", "content": [
        {"type": "text", "text": "cache " * 300_000}], "isError": False, "timestamp": 4})  # a line over a piece
    messages.append({"role": "bashExecution", "command": "ls cache", "output": "ENOENT", "exitCode": 1})
    entries = _chain(messages)
    entries.append({"type": "branch_summary", "id": "b1", "parentId": "m0001", "timestamp": "t",
                    "fromId": "m0001", "summary": "the cache branch"})
    entries.append({"type": "custom_message", "id": "c9", "parentId": "b1", "timestamp": "t",
                    "customType": "x", "content": [{"type": "text", "text": "cache in a custom message"}],
                    "display": True})
    entries.append(dict(entries[3], message={"role": "user", "content": "a duplicate id: cache", "timestamp": 9}))
    escaped = lambda value: json.dumps(value, ensure_ascii=True, separators=(",", ":")).encode()  # noqa: E731
    spelled = lambda value: escaped(value).replace(b"c", b"\\u0063").replace(b"\\u0063ustom", b"custom")  # noqa: E731
    broken = b'{"type":"message","id":"zz","parentId":"m0000","timestamp":"t","message":{"role":"user","content":"cache\n'
    return [
        _write(tmp_path / "plain.jsonl", entries),
        _write(tmp_path / "escaped.jsonl", entries, escaped),
        _write(tmp_path / "spelled.jsonl", entries[:16], spelled),
        _write(tmp_path / "broken.jsonl", entries, extra=broken + b"not json at all cache\n" + broken.rstrip()),
        _write(tmp_path / "deeper.jsonl", entries[:3], extra=_too_deep_for_the_parsers(3000)),
        _write(tmp_path / "many.jsonl", _chain(_many_hits())),
    ]


def _many_hits() -> list[dict]:
    """A word in most lines, in their texts, in their keys (``usage``'s, which are not shown; the arguments',
    which are) and in values search does not show (a tool result's ``details``, a signature), the lines of
    each kind interleaved."""
    usage = {"input": 3, "output": 5, "cacheRead": 7, "cacheWrite": 0, "cost": {"cacheRead": 0.1, "total": 1}}
    kinds = [
        lambda n: {"role": "user", "content": f"warm the cache {n}", "timestamp": n},
        lambda n: {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "the Cache is cold", "thinkingSignature": "xCACHEx"},
            {"type": "toolCall", "id": f"t{n}", "name": "read", "arguments": {"path": f"src/{n}.ts"}}],
            "usage": usage, "timestamp": n},
        lambda n: {"role": "assistant", "content": [{"type": "toolCall", "id": f"t{n}", "name": "edit",
                                                     "arguments": {"edits": [{"cacheKey": n, "text": "}\"{"}]}}],
                   "usage": usage, "timestamp": n},
        lambda n: {"role": "assistant", "content": [
            {"type": "text", "text": "nothing to see"}, {"type": "thinking", "thinking": "x", "thinkingSignature": "cache"},
            {"type": "toolCall", "id": f"t{n}", "name": "grep", "arguments": {"pattern": "[{\"cacheRead\":"}}],
            "usage": usage, "timestamp": n},
        lambda n: {"role": "toolResult", "toolCallId": f"t{n}", "toolName": "edit", "content": [
            {"type": "text", "text": "ok"}], "details": {"diff": f"- cache {n}\n+ cache"}, "isError": False,
            "timestamp": n},
        lambda n: {"role": "toolResult", "toolCallId": f"t{n}", "toolName": "bash", "content": [
            {"type": "text", "text": "CACHE HIT"}], "details": {"cacheHit": True}, "isError": False, "timestamp": n},
    ]
    return [kinds[n % len(kinds)](n) for n in range(150)]


QUERIES = ["cache", "CACHE", "Cache miss", "enoent", "ENOENT", "class", "kick", "k", "istanbul", "file", "flow",
           "tab", "here newline", '"quoted"', "back\\slash", "日本語", "cacheread", "cache.ts", "src/cache.ts",
           "bottom", "m0003", "ls cache", "$ ls", "read(", "the cache branch", "página", "é",
           "not read", "nested", "levels é", "cachewrite", "cachekey", "cachehit", "diff", "details", "usage",
           "input", "xcachex", "total", "ok", "src", "hit", "edits", "arguments", "pattern", "cacheread\":"]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda options: ",".join(f"{k}={v}" for k, v in options.items()))
def test_the_fast_search_of_hostile_files_finds_what_the_full_search_finds(tmp_path, monkeypatch, options):
    for path in _hostile(tmp_path):
        for query in QUERIES:
            fast, full = _both(path, query, monkeypatch, **options)
            assert fast == full, (path.name, query)


@pytest.mark.parametrize("piece", [7, 4096, 1 << 20])
def test_the_pieces_the_file_is_read_in_change_nothing(tmp_path, monkeypatch, piece):
    monkeypatch.setattr(byte_search, "_PIECE_BYTES", piece)
    for path in [*_hostile(tmp_path)[:3], _hostile(tmp_path)[-1]]:
        for query in ["cache", "enoent", "class", "kick", "file", "cacheread", "cachekey", "diff"]:
            fast, full = _both(path, query, monkeypatch, whole_session=True, limit=2)
            assert fast == full, (path.name, query)


FOLDING = "ßſKİﬁﬀﬅẞǰŉẖẗẘẙẚ"
words = st.text(alphabet=st.sampled_from("cacheENOTsfiktlwyahj-. " + FOLDING + "é日"), min_size=1, max_size=12)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(texts=st.lists(words, min_size=1, max_size=6), pick=st.integers(0, 5), start=st.integers(0, 12),
       length=st.integers(1, 8), upper=st.booleans(), limit=st.integers(1, 4), escaped=st.booleans())
@example(texts=["enoenẗ"], pick=0, start=0, length=6, upper=False, limit=1, escaped=False)
@example(texts=["claß", "class"], pick=1, start=0, length=5, upper=True, limit=1, escaped=False)
def test_fast_and_full_search_agree_on_generated_sessions(tmp_path_factory, monkeypatch, texts, pick,
                                                          start, length, upper, limit, escaped):
    messages = []
    for text in texts:
        messages.append({"role": "user", "content": text, "timestamp": 1})
        messages.append({"role": "assistant", "content": [{"type": "text", "text": text.upper()},
                                                          {"type": "toolCall", "id": "c", "name": "read",
                                                           "arguments": {"path": text}}], "timestamp": 2})
    dump = (lambda v: json.dumps(v, ensure_ascii=True, separators=(",", ":")).encode()) if escaped else orjson.dumps
    path = _write(tmp_path_factory.mktemp("gen") / "s.jsonl", _chain(messages), dump)
    query = texts[min(pick, len(texts) - 1)][start : start + length]
    query = (query.upper() if upper else query).strip()
    if not query:
        return
    fast, full = _both(path, query, monkeypatch, whole_session=True, limit=limit)
    assert fast == full


def _in_pieces(path: Path, query: str, monkeypatch, limit: int):
    """:func:`recall_file`'s result and problems, and the fast search's of the file opened whole (where
    ``recall_file`` declines, that search's both times)."""
    read = recaller.recall_file(path, query, limit=limit)
    with Session.open(path) as session:
        whole = recall(session, query, limit=limit, whole_session=True), list(session.problems)
    if read is None:
        assert not query.strip() or recaller._ID_LIKE.fullmatch(query.strip())
        return whole, whole
    return (read[1], list(read[0].problems)), whole


@pytest.mark.parametrize("piece", [7, 4096, stream.PIECE_BYTES])
@pytest.mark.parametrize("eager", [True, False], ids=["eager", "lazy"])
def test_the_search_of_a_file_read_in_pieces_finds_what_the_full_search_finds(tmp_path, monkeypatch, piece, eager):
    monkeypatch.setattr(stream, "PIECE_BYTES", piece)
    if not eager:
        monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    for path in [*_hostile(tmp_path), *_pi_sessions()[:2]]:
        for query in [*QUERIES, "the", "a", "session-manager", "  "]:
            for limit in [1, 3, 50]:
                (found, problems), (whole, whole_problems) = _in_pieces(path, query, monkeypatch, limit)
                assert (found, problems) == (whole, whole_problems), (path.name, query, limit)
                with monkeypatch.context() as patch:
                    _switch_to_full_search(patch)
                    with Session.open(path) as session:
                        assert found == recall(session, query, limit=limit, whole_session=True), (path.name, query)


@pytest.mark.parametrize("piece", [4096, stream.PIECE_BYTES])
@pytest.mark.parametrize(("query", "deep_lines_parsed"), [("cache", True), ("bottom", True), ("levels", True),
                                                           ("line 7", False)])
def test_lines_nested_too_deeply_are_read_as_the_full_search_reads_them_among_many_matches_or_few(
        tmp_path, monkeypatch, piece, query, deep_lines_parsed):
    """A piece's candidates are parsed with its brackets counted once when they are many ("cache": every
    line), line by line when few: either way a line nested deeper than the readers take is cut and reported
    as opening the file whole cuts and reports it."""
    monkeypatch.setattr(stream, "PIECE_BYTES", piece)
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    messages = [{"role": "user", "content": f"cache line {n}", "timestamp": n} if n % 7 != 3 else
                {"role": "assistant", "content": [{"type": "toolCall", "id": f"c{n}", "name": "deep",
                                                   "arguments": _deep(85 + n)}], "timestamp": n}
                for n in range(60)]
    path = _write(tmp_path / "deep.jsonl", _chain(messages), extra=_too_deep_for_the_parsers(400))
    for limit in [1, 50]:
        (found, problems), (whole, whole_problems) = _in_pieces(path, query, monkeypatch, limit)
        assert (found, problems) == (whole, whole_problems), limit
        assert found.total_matches > 0
        assert any(problem.kind == "too_deep" for problem in problems) == deep_lines_parsed
        with monkeypatch.context() as patch:
            _switch_to_full_search(patch)
            with Session.open(path) as session:
                assert found == recall(session, query, limit=limit, whole_session=True)


def test_a_file_read_in_pieces_is_held_one_piece_at_a_time(tmp_path, monkeypatch):
    monkeypatch.setattr(stream, "PIECE_BYTES", 4096)
    path = _write(tmp_path / "long.jsonl", _chain([{"role": "user", "content": f"cache {n} " + "x" * 500,
                                                    "timestamp": n} for n in range(400)]))
    sizes: list[int] = []
    candidates_in = byte_search.candidates_in
    monkeypatch.setattr(recaller, "candidates_in",
                        lambda data, *args: sizes.append(len(data)) or candidates_in(data, *args))
    session, found = recaller.recall_file(path, "cache 399", limit=1)
    assert found.hits[0].entry_id == "m0399" and found.entries_searched == 400
    assert len(sizes) > 40 and max(sizes) < 5000 < path.stat().st_size


def test_a_v1_file_or_an_entry_id_is_left_to_the_search_of_the_whole_file(tmp_path):
    v1 = tmp_path / "v1.jsonl"
    lines = [{"type": "session", "id": "s", "timestamp": "t", "cwd": "/"},
             {"type": "message", "timestamp": "t", "message": {"role": "user", "content": "hi"}}]
    v1.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    assert recaller.recall_file(v1, "hi") is None
    assert recaller.recall_file(_write(tmp_path / "v3.jsonl", _chain([])), "abcd1234") is None


def _cli(path: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["session", "search", str(path), *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("args", [[], ["--json"], ["--limit", "1"], ["--limit", "1", "--json"], ["--compacted"],
                                  ["--compacted", "--all-branches", "--json"]], ids=" ".join)
def test_the_command_prints_what_the_full_search_prints(tmp_path, monkeypatch, args):
    paths = [*_pi_sessions(), *_hostile(tmp_path)[:4], _hostile(tmp_path)[-1]]
    monkeypatch.setattr(scan, "EAGER_PARSE_BYTES", 0)
    fast = {(path, query): _cli(path, query, *args) for path in paths for query in ["cache", "the", "ENOENT"]}
    _switch_to_full_search(monkeypatch)
    for (path, query), (code, stdout, stderr) in fast.items():
        full_code, full_stdout, full_stderr = _cli(path, query, *args)
        assert (code, stdout) == (full_code, full_stdout), (path.name, query)
        assert set(stderr.splitlines()) <= set(full_stderr.splitlines())  # warnings of the lines parsed


@settings(max_examples=150, deadline=None)
@given(levels=st.integers(1, 130), lists=st.lists(st.booleans(), min_size=1, max_size=8),
       siblings=st.integers(0, 3), at=st.integers(0, 130))
def test_how_deep_an_entry_nests_is_told_as_the_depth_rule_tells_it(levels, lists, siblings, at):
    """Parsed entries are measured, not their lines' brackets counted: the measure is the depth rule's."""
    from pi_compact.store.depth import MAX_DEPTH, depth

    value: object = "bottom"
    for level in range(levels):
        value = [value, *range(siblings)] if lists[level % len(lists)] else {"x": value, "n": siblings}
        if level == at:
            value = [value, {"side": [[{}]]}] if siblings % 2 else {"side": {"a": []}, "deep": value}
    entry = {"type": "message", "message": value}
    assert recaller._shallow(entry) == (depth(entry, MAX_DEPTH) <= MAX_DEPTH)


_VALUES = st.one_of(st.none(), st.integers(0, 3), st.sampled_from(["", "a cache", "CACHE here", "caché", "ß"]),
                    st.lists(st.sampled_from(["cache", "x", 1]), max_size=2),
                    st.fixed_dictionaries({"text": st.sampled_from(["Cache", "no", 2])}))
_BLOCKS = st.one_of(
    _VALUES,
    st.fixed_dictionaries({"type": st.sampled_from(["text", "thinking", "image", None]), "text": _VALUES,
                           "thinking": _VALUES}),
    st.fixed_dictionaries({"type": st.just("toolCall"), "name": _VALUES, "arguments": _VALUES}),
)


@settings(max_examples=300, deadline=None)
@given(role=st.sampled_from(["user", "assistant", "toolResult", "bashExecution", "branchSummary", "custom"]),
       content=st.one_of(_VALUES, st.lists(_BLOCKS, max_size=4)), summary=_VALUES,
       query=st.sampled_from(["cache", "CACHE", "ss", "text", "1", "é"]))
@example(role="assistant", content=[{"type": "thinking", "text": "no", "thinking": "a cache"}], summary=None,
         query="cache")
@example(role="user", content=[{"type": "text", "text": ["x", "cache"], "thinking": None}], summary=None,
         query="cache")
@example(role="user", content=[{"type": "text", "text": {"text": "Cache"}, "thinking": None}], summary=None,
         query="cache")
def test_the_parts_matcher_holds_what_the_text_of_the_whole_entry_holds(role, content, summary, query):
    """The matcher that tests an entry's text part by part (a text block's part made inline) finds the query
    exactly where the matcher of the entry's whole joined text does, whatever the blocks hold."""
    entry = {"type": "message", "id": "e", "message": {"role": role, "content": content, "summary": summary,
                                                       "command": "cache", "output": content}}
    holds = recaller._parts_matcher(query)
    assert holds is not None
    assert holds(entry) == (recaller._matcher(query)(recaller._entry_text(entry)) is not None)
