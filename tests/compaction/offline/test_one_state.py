"""A path is in one state only (issue 20, class 2): the last event on it decides. Written again after it was
deleted or moved away, it is changed (listed, named by that change); deleted or moved away after its last write, it
is named once as deleted or moved and listed nowhere. ``src/a.py``, ``./src/a.py`` and the absolute path under the
session's working directory are one path, whichever spelling each event used. Where a moved file went exists: it is
listed, and named as moved in, not as moved."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pi_compact.compaction.offline.facts import extract_facts
from pi_compact.compaction.offline.paths import listed_files

from ..messages import assistant, call, result, user
from .test_classes import EXAMPLES, summarize
from .test_offline import changed_files

CWD = "/home/dev/shop"
PATH = "docs/guide.md"
SHOWN = "guide.md"
"""How the Done list names it: by its shortest name that tells it apart (pi's <modified-files> names it whole)."""
SPELLINGS = st.sampled_from([PATH, f"./{PATH}", f"{CWD}/{PATH}"])
REMOVALS = st.sampled_from([("rm {}", "deleted"), ("git rm -q {}", "deleted"), ("unlink {}", "deleted"),
                            ("mv {} archive/guide-old.md", "moved"), ("git mv {} archive/guide-old.md", "moved")])
def _written(path: str) -> tuple[str, dict, str]:
    return "write", {"path": path, "content": "# Guide\n"}, "written"


WRITES = st.sampled_from([
    _written,
    lambda path: ("edit", {"path": path, "oldText": "a", "newText": "b"}, "edited"),
    lambda path: ("bash", {"command": f"echo '# Guide' > {path}"}, "changed by a command"),
])


def _events(first: str, removal: str, removed: str, write) -> list[dict]:
    tool, arguments, _ = write(first)
    messages = [user("Rework the guide."),
                assistant(call("w", tool, **arguments)), result("w", tool, "ok"),
                assistant(call("d", "bash", command=removal.format(removed))), result("d", "bash", "")]
    return messages


def _state(messages: list[dict]) -> tuple[list[str], list[str], dict[str, str]]:
    facts = extract_facts(messages)
    looked_at, changed = listed_files(facts.read_files, facts.modified_files, CWD, facts.gone)
    return looked_at, changed, changed_files(summarize(messages, metadata={"cwd": CWD}))


@EXAMPLES
@given(first=SPELLINGS, removed=SPELLINGS, rewritten=SPELLINGS, removal=REMOVALS, write=WRITES, again=WRITES)
def test_written_again_after_its_removal_a_path_is_changed_not_gone(first: str, removed: str, rewritten: str,
                                                                     removal: tuple, write, again) -> None:
    command, _ = removal
    tool, arguments, action = again(rewritten)
    messages = [*_events(first, command, removed, write),
                assistant(call("n", tool, **arguments)), result("n", tool, "ok"),
                assistant("Done: the guide is rewritten.")]
    looked_at, changed, said = _state(messages)
    assert PATH in changed and PATH not in looked_at
    assert said.get(SHOWN) == action


@EXAMPLES
@given(first=SPELLINGS, removed=SPELLINGS, removal=REMOVALS, write=WRITES)
def test_removed_after_its_last_write_a_path_is_named_once_and_listed_nowhere(first: str, removed: str,
                                                                               removal: tuple, write) -> None:
    command, action = removal
    messages = [*_events(first, command, removed, write), assistant("Done: the old guide is gone.")]
    looked_at, changed, said = _state(messages)
    assert PATH not in changed and PATH not in looked_at
    assert said.get(SHOWN) == action
    assert [path for path in said if path.endswith("guide.md") and path != SHOWN and said[path] in ("moved",
                                                                                                   "deleted")] == []


@EXAMPLES
@given(first=SPELLINGS, moved=SPELLINGS, command=st.sampled_from(["mv {} archive/guide-old.md",
                                                                  "git mv {} archive/guide-old.md"]))
def test_where_a_moved_file_went_is_listed_and_named_as_moved_in(first: str, moved: str, command: str) -> None:
    messages = [*_events(first, command, moved, _written), assistant("Done: archived the guide.")]
    looked_at, changed, said = _state(messages)
    assert "archive/guide-old.md" in changed and PATH not in changed
    assert said.get("guide-old.md") == "moved in" and said.get(SHOWN) == "moved"


@EXAMPLES
@given(command=st.sampled_from(["rm {}", "git rm -q {}", "mv {} /tmp/old.md"]))
def test_another_file_of_the_same_name_written_later_does_not_bring_a_deleted_one_back(command: str) -> None:
    deleted, other = f"{CWD}/{PATH}", f"{CWD}/docs/archive/guide.md"
    messages = [user("Move the guide into the archive."),
                assistant(call("w", "write", path=deleted, content="x")), result("w", "write", "ok"),
                assistant(call("d", "bash", command=command.format(deleted))), result("d", "bash", ""),
                assistant(call("n", "write", path=other, content="x")), result("n", "write", "ok"),
                assistant("Done: the guide lives in the archive now.")]
    looked_at, changed, _ = _state(messages)
    assert changed == ["docs/archive/guide.md"] and looked_at == []
