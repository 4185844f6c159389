"""Done items say what was done, one thing each (progress.py; issue 20, classes 2 and 3 of the validation faults):
never a bare result ("All passing.", "Done!", "✅ Works") that says nothing of what, never two result lines of the
agent's report glued into one item."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.progress import bare

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import items

BARE = st.sampled_from(["All passing.", "Done!", "✅ Works", "All tests pass and lint is clean.", "Yes, already fixed.",
                        "Perfect, everything works now.", "✔ Done"])
REQUESTS = st.sampled_from([
    ("add a --dry-run flag to the sync command", "src/sync.py"),
    ("make the parser skip blank lines in the CSV import", "lib/csv_import.rb"),
    ("rename the retry helper to backoff in the client", "pkg/client/retry.go"),
])
TESTS = st.sampled_from([("pytest -q", "12 passed in 0.41s"), ("go test ./...", "ok  \texample.com/client\t0.5s"),
                         ("npm test", "Tests: 8 passed, 8 total")])


def _turn(request: str, path: str, test: tuple[str, str], answer: str) -> list[dict]:
    edit = call("e1", "edit", path=path, oldText="a", newText="b")
    run = call("t1", "bash", command=test[0])
    return [user(request), assistant("On it.", edit), result("e1", "edit", "Edited."), assistant(run),
            result("t1", "bash", test[1]), assistant(answer)]


def _done(text: str) -> list[str]:
    return [item for item in items(text, "### Done") if not item.startswith(("Files changed", "Committed"))]


_CONTENT = re.compile(r"[^\W\d_]{3,}")
_RESULT_WORDS = frozenset("all tests test pass passes passed passing done works working lint clean perfect everything "
                          "now yes already fixed and the checks".split())


def _says_what(item: str) -> bool:
    """An item names what was done: a file, a value, or two words or more besides those saying it worked."""
    if "`" in item or "/" in item:
        return True
    return len([w for w in _CONTENT.findall(item.lower()) if w not in _RESULT_WORDS]) >= 2


@EXAMPLES
@given(asked=REQUESTS, test=TESTS, said=BARE)
def test_a_bare_result_is_said_with_what_was_done(asked: tuple[str, str], test: tuple[str, str], said: str) -> None:
    request, path = asked
    text = summarize([*_turn(request, path, test, said), user("thanks, now write the changelog entry for it")])
    done = _done(text)
    assert done
    assert all(_says_what(item) for item in done), done
    assert any(path.rsplit("/", 1)[-1] in item or request.split()[1] in item for item in done), done  # (its short name)


GLUED = st.sampled_from([
    ("✅ Created `src/feed/parser.py` with the entry parser", "✅ Updated `README.md` with the feed usage"),
    ("Moved the export notes to `docs/export.md`", "Results: ✅ Created `scripts/export.sh` for the nightly job"),
    ("**Fixed the timeout** - raised the limit in `config/http.yaml` to 30s",
     "**Added a retry** - `client.fetch()` now retries twice"),
])


@EXAMPLES
@given(lines=GLUED, test=TESTS, bullet=st.sampled_from(["", "- ", "1. "]))
def test_two_result_lines_are_two_items(lines: tuple[str, str], test: tuple[str, str], bullet: str) -> None:
    answer = "Here is what I did:\n" + "\n".join(f"{bullet}{line}" for line in lines)
    text = summarize([*_turn("set up the nightly feed export", "src/feed/parser.py", test, answer),
                      user("thanks, now write the changelog entry for it")])
    done = _done(text)
    firsts = [re.search(r"`([^`]+)`", line).group(1) for line in lines]
    assert not any(all(name in item for name in firsts) for item in done), done
    assert all(any(name in item for item in done) for name in firsts), done


@given(said=BARE)
def test_bare_tells_a_result_without_its_subject(said: str) -> None:
    assert bare(said)
    assert not bare(f"Renamed `retry` to `backoff` in pkg/client. {said}")
